"""Units of a BattleScribe catalogue in `units.json`: parts, characteristics, linked rules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.build import build
from pipeline.schemas import validate

from .helpers.battlescribe import build_fixtures

FIXTURE = Path(__file__).parent / "data" / "battlescribe" / "combat.gst"
CATALOGUE = Path(__file__).parent / "data" / "battlescribe" / "knights.cat"


def test_units_have_parts_characteristics_and_linked_rules(tmp_path: Path) -> None:
    drop = tmp_path / "corpus" / "drops" / "army"
    drop.mkdir(parents=True)
    shutil.copy(FIXTURE, drop / FIXTURE.name)
    shutil.copy(CATALOGUE, drop / CATALOGUE.name)
    build(tmp_path / "corpus", tmp_path / "out")
    units = json.loads((tmp_path / "out" / "units.json").read_text("utf-8"))
    validate(units, "units", "units.json")
    [unit] = units
    assert unit["id"] == "lancers"
    rider, mount = unit["parts"]
    assert (rider["name"], rider["role"], mount["name"], mount["role"]) == (
        "Lancer",
        "rider",
        "Charger",
        "mount",
    )
    # Global and Defensive characteristics belong to both parts, Offensive to each its own
    assert rider["characteristics"]["advance_rate"] == 8 == mount["characteristics"]["advance_rate"]
    assert rider["characteristics"]["armour"] == 2 and rider["characteristics"]["attacks"] == 1
    assert {r["id"] for r in rider["rules"]} == {"shield", "lance", "hatred"}
    dc = next(r for r in mount["rules"] if r["name"].startswith("Devastating"))
    assert dc == {
        "name": "Devastating Charge (+1 Str, Poison Attacks)",
        "id": "devastating-charge",
        "params": ["+1 Str", "Poison Attacks"],
    }
    assert {"name": "Unknown Rule", "id": None} in mount["rules"]
    assert {"name": "Multiple Wounds (D3)", "id": "multiple-wounds", "params": ["D3"]} in unit[
        "rules"
    ]
    assert unit["equipment"] == [{"name": "Shield", "id": "shield"}]
    [weapon] = unit["options"]
    assert [c["id"] for c in weapon["choices"]] == ["spear", "halberd"]


@pytest.fixture(scope="module")
def greenskins(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """units.json of the arena rules with greenskins.cat (choices that give the profile)."""
    out = build_fixtures(tmp_path_factory.mktemp("greenskins"), "combat.gst", "greenskins.cat")
    units = json.loads((out / "units.json").read_text("utf-8"))
    validate(units, "units", "units.json")
    return units


def test_a_race_choice_gives_the_model_its_profile(greenskins: list[dict]) -> None:
    units = greenskins
    unit = next(u for u in units if u["id"] == "brawlers")
    # the default race (Tough Brawler) completes the profile: Health Points and Res 4
    [part] = unit["parts"]
    assert part["characteristics"]["health_points"] == 1
    assert part["characteristics"]["resilience"] == 4
    assert part["characteristics"]["offensive_skill"] == 3
    wild, tough = unit["variants"]
    assert (wild["name"], wild["default"], tough["name"], tough["default"]) == (
        "Wild Brawler",
        False,
        "Tough Brawler",
        True,
    )
    [wild_part] = wild["parts"]
    assert wild_part["characteristics"]["resilience"] == 3
    assert {"name": "Distracting", "id": "distracting"} in wild_part["rules"]
    assert wild["rules"] == [{"name": "Hatred", "id": "hatred"}]


def test_option_names_in_the_plural_or_combined_name_rules(greenskins: list[dict]) -> None:
    units = greenskins
    unit = next(u for u in units if u["id"] == "brawlers")
    [equipment] = [o for o in unit["options"] if o["group"] == "Equipment"]
    both, plural, mystery = equipment["choices"]
    assert both == {
        "name": "Halberd and Shield",
        "id": None,
        "combines": [{"name": "Halberd", "id": "halberd"}, {"name": "Shield", "id": "shield"}],
    }
    assert plural == {"name": "Great Weapons", "id": "great-weapon"}
    # a part that names no rule: the option stays unknown, not half read
    assert mystery == {"name": "Mystery and Shield", "id": None}
