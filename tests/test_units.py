"""Units of a BattleScribe catalogue in `units.json`: parts, characteristics, linked rules."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.build import build
from pipeline.schemas import validate

from .helpers.battlescribe import build_fixtures

DATA = Path(__file__).parent / "data" / "battlescribe"
FIXTURE = DATA / "combat.gst"
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


@pytest.fixture(scope="module")
def realm(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """units.json of realm.cat (sizes, points, mounts; written for these tests), by id."""
    out = build_fixtures(tmp_path_factory.mktemp("realm"), "combat.gst", "realm.cat")
    units = json.loads((out / "units.json").read_text("utf-8"))
    validate(units, "units", "units.json")
    return {u["id"]: u for u in units}


def test_sizes_come_from_the_model_entries(realm: dict[str, dict]) -> None:
    assert realm["yeomen"]["size"] == {"min": 10, "max": 30}
    assert realm["lord"]["size"] == {"min": 1, "max": 1}  # no model entry: one model
    # the model stated as an upgrade with a minimum count of its own
    assert realm["outriders"]["size"] == {"min": 5, "max": 10}
    [rider, pony] = realm["outriders"]["parts"]
    assert (rider["role"], pony["role"]) == ("rider", "mount")


def test_points_once_per_model_and_per_option(realm: dict[str, dict]) -> None:
    yeomen = realm["yeomen"]
    assert yeomen["points"] == {"base": 10, "per_model": 6}
    options = {c["name"]: c for o in yeomen["options"] for c in o["choices"]}
    # an increment the data repeats per model (`model`, or the model entry's id)
    assert options["Spear"]["points"] == {"base": 0, "per_model": 1}
    assert options["Shield"]["points"] == {"base": 0, "per_model": 1}
    assert options["Bow (4+)"]["points"] == {"base": 5, "per_model": 0}
    # a choice that is only its name is an option when the name is a rule's
    assert options["Halberd"] == {
        "name": "Halberd",
        "id": "halberd",
        "points": {"base": 2, "per_model": 0},
    }
    assert "Warhorn" not in options
    assert realm["lord"]["points"] == {"base": 120, "per_model": 0}


def test_a_mount_is_a_variant_whose_c_values_are_the_riders(realm: dict[str, dict]) -> None:
    lord = realm["lord"]
    [foot] = lord["parts"]
    assert foot["characteristics"]["armour"] == 1 and foot["characteristics"]["size"]["type"] == (
        "Infantry"
    )
    mounts = {v["name"]: v for v in lord["variants"]}
    assert {v["kind"] for v in mounts.values()} == {"mount"}
    destrier, wyrm = mounts["Destrier"], mounts["Wyrm"]
    # the link's cost is the mount's
    assert destrier["points"] == {"base": 40, "per_model": 0}
    rider, horse = destrier["parts"]
    assert (rider["name"], rider["role"], horse["name"], horse["role"]) == (
        "Lord",
        "rider",
        "Destrier",
        "mount",
    )
    # HP C, Arm C+2 on the Lord's 3 HP and Armour 1; the rider keeps his Offensive profile
    for part in (rider, horse):
        c = part["characteristics"]
        assert (c["health_points"], c["armour"], c["discipline"]) == (3, 3, 9)
        assert c["size"] == {"height": "Standard", "type": "Cavalry", "base": "25×50"}
    assert (rider["characteristics"]["attacks"], horse["characteristics"]["attacks"]) == (3, 1)
    # the Wyrm's own HP and Res, Arm C+1, its Height; its rules come with it
    c = wyrm["parts"][1]["characteristics"]
    assert (c["health_points"], c["resilience"], c["armour"], c["size"]["height"]) == (
        5,
        5,
        2,
        "Large",
    )
    assert wyrm["rules"] == [{"name": "Dread", "id": "dread"}]
    # a mount the data gives no profile: a variant without parts
    assert mounts["Cloud Chariot"]["parts"] == []


def test_profile_types_with_a_suffix_and_rule_columns(realm: dict[str, dict]) -> None:
    # "2 Defensive (SH)" is a Defensive profile; its Aeg column is Aegis (5+)
    [shade] = realm["shades"]["parts"]
    assert shade["characteristics"]["health_points"] == 1
    assert {"name": "Aegis (5+)", "id": "aegis", "params": ["5+"]} in shade["rules"]
    assert "aeg" not in shade["characteristics"]


def test_a_crews_rule_names_the_weapon_the_unit_states(realm: dict[str, dict]) -> None:
    engine = realm["bolt-engine"]
    assert {"name": "Bolt Engine Artillery Weapon", "id": "bolt-engine-artillery-weapon"} in (
        engine["equipment"]
    )
    [crew] = engine["parts"]
    assert {
        "name": "Bolt Engine (3+)",
        "id": "bolt-engine-artillery-weapon",
        "params": ["3+"],
    } in crew["rules"]


def test_two_units_profiles_that_differ_are_no_conflict(tmp_path: Path) -> None:
    # a second book whose Pony is stronger than realm.cat's: two units' profiles, not two
    # versions of one rule
    text = (DATA / "realm.cat").read_text("utf-8")
    other = text.replace('id="cat-realm" name="Realm of Tests 1.0"', 'id="cat-vale" name="Vale 1"')
    start = other.index(
        '<characteristic name="Att" typeId="t-att">1</characteristic>',
        other.index("Pony Offensive"),
    )
    other = other[:start] + other[start:].replace(
        '<characteristic name="Str" typeId="t-str">3</characteristic>',
        '<characteristic name="Str" typeId="t-str">4</characteristic>',
        1,
    )
    drop = tmp_path / "corpus" / "drops" / "army"
    drop.mkdir(parents=True)
    shutil.copy(DATA / "combat.gst", drop / "combat.gst")
    shutil.copy(DATA / "realm.cat", drop / "realm.cat")
    (drop / "vale.cat").write_text(other, "utf-8")
    build(tmp_path / "corpus", tmp_path / "out")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert manifest["conflicts"] == []
    units = json.loads((tmp_path / "out" / "units.json").read_text("utf-8"))
    ponies = {
        u["source"]["file"]: u["parts"][1]["characteristics"]["strength"]
        for u in units
        if u["name"] == "Outriders"
    }
    assert ponies == {"realm.cat": 3, "vale.cat": 4}
