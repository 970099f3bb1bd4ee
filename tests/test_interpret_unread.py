"""Answers that say what they did not read, and scenarios that name nothing unknown.

A rule file lists in `unread` the clauses no effect was read from; `attack`, `charge` and
`matchup` quote them under their result, `--json` carries them in a top-level `unread` list,
`--strict` refuses. The build is the fixture army books (combat.gst, warband.cat,
arena.cat); the clauses not read are written into its rule files by these tests, in the
shape the reader gives them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from .conftest import run_cli
from .helpers.battlescribe import build_fixtures


def _edit(out: Path, rule_id: str, **fields: Any) -> None:
    path = out / "rules" / f"{rule_id}.yaml"
    rule = yaml.safe_load(path.read_text(encoding="utf-8"))
    rule.update(fields)
    path.write_text(yaml.safe_dump(rule, allow_unicode=True), encoding="utf-8")


def _clause(out: Path, rule_id: str, words: str) -> dict[str, Any]:
    """The clause `words` of the rule's English text, as the reader lists one not read."""
    path = out / "rules" / f"{rule_id}.yaml"
    text = yaml.safe_load(path.read_text(encoding="utf-8"))["texts"]["en"]["text"]
    start = text.index(words)
    return {"lang": "en", "text": words, "span": [start, start + len(words)]}


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = build_fixtures(
        tmp_path_factory.mktemp("unread"), "combat.gst", "warband.cat", "arena.cat"
    )
    out = built.parent / "edited"
    shutil.copytree(built, out)
    # Sly Pelt read as nothing at all: its one clause is not read
    _edit(out, "sly-pelt", effects=[], unread=[_clause(out, "sly-pelt", "Successful to-wound")])
    # Hatred with a clause about charging and one about wounding left unread
    _edit(
        out,
        "hatred",
        unread=[
            {"lang": "en", "text": "adds +1 to its Charge Range rolls", "span": [0, 5]},
            {"lang": "en", "text": "gains +1 to wound", "span": [6, 9]},
        ],
    )
    # Ember Brand grants a rule this build does not have
    _edit(out, "ember-brand", effects=[{"op": "grant", "rule": "smoke-cloud", "span": [0, 17]}])
    return out


def _scenario(tmp: Path, data: dict[str, Any]) -> Path:
    base_att = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 3}
    base_att |= {"armour_penetration": 0, "agility": 3}
    base_def = {"defensive_skill": 4, "resilience": 3, "health_points": 1, "armour": 0}
    doc = {
        "attacker": {**base_att, **data.get("attacker", {})},
        "defender": {**base_def, **data.get("defender", {})},
        **{k: v for k, v in data.items() if k not in ("attacker", "defender")},
    }
    path = tmp / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def test_attack_quotes_the_clause_it_did_not_read(out: Path, tmp_path: Path) -> None:
    sc = _scenario(tmp_path, {"defender": {"rules": ["sly-pelt"]}})
    text = run_cli("attack", str(sc), "--build", str(out))
    assert text.returncode == 0, text.stderr
    result, _, notes = text.stdout.partition("not read")
    assert "unsaved wounds" in result
    assert 'sly-pelt: "Successful to-wound"' in notes
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    assert doc["unread"] == [{"rule": "sly-pelt", "text": "Successful to-wound", "span": [0, 19]}]
    refused = run_cli("attack", str(sc), "--build", str(out), "--strict")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "sly-pelt" in refused.stderr and "--strict" in refused.stderr


def test_an_answer_with_everything_read_says_nothing_more(out: Path, tmp_path: Path) -> None:
    sc = _scenario(tmp_path, {"attacker": {"rules": ["great-weapon"]}})
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    assert doc["unread"] == []
    done = run_cli("attack", str(sc), "--build", str(out), "--strict")
    assert done.returncode == 0 and "not read" not in done.stdout


def test_a_rule_granted_by_one_in_play_is_in_play(out: Path, tmp_path: Path) -> None:
    # Devastating Charge (Hatred) grants Hatred: Hatred's clauses are listed for attack
    sc = _scenario(tmp_path, {"attacker": {"rules": ["devastating-charge(Hatred)"]}})
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    assert [u["rule"] for u in doc["unread"]] == ["hatred", "hatred"]
    # a grant of a rule the build lacks does nothing here: listed, with what it grants
    sc = _scenario(tmp_path, {"attacker": {"rules": ["ember-brand"]}})
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    gone = {"rule": "ember-brand", "text": "The bearer's unit", "span": [0, 17]}
    assert doc["unread"] == [{**gone, "missing": "smoke-cloud"}]


def test_an_effect_under_a_condition_no_one_names_is_listed(out: Path, tmp_path: Path) -> None:
    hit = {"op": "roll", "roll": "to-hit", "modifier": 1, "span": [0, 14]}
    _edit(out, "oath-of-dread", effects=[{**hit, "when": "melee & fighting a Wyrm"}])
    sc = _scenario(tmp_path, {"attacker": {"rules": ["oath-of-dread"]}})
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    assert doc["hits"]["mean"] == "1/2"  # the effect never holds: the answer says so
    assert doc["unread"] == [
        {"rule": "oath-of-dread", "text": "The model part", "span": [0, 14],
         "condition": "fighting a Wyrm"}
    ]  # fmt: skip
    _edit(out, "oath-of-dread", effects=[{**hit, "when": "melee & target-has:fear"}])
    doc = json.loads(run_cli("attack", str(sc), "--build", str(out), "--json").stdout)
    assert doc["unread"] == []


def test_charge_lists_the_clauses_about_charging_only(out: Path) -> None:
    args = ["charge", "--distance", "9", "--advance", "4", "--build", str(out)]
    doc = json.loads(run_cli(*args, "--rules", "hatred", "--json").stdout)
    assert doc["unread"] == [
        {"rule": "hatred", "text": "adds +1 to its Charge Range rolls", "span": [0, 5]}
    ]
    text = run_cli(*args, "--rules", "hatred")
    assert "Charge Range rolls" in text.stdout and "to wound" not in text.stdout
    assert run_cli(*args, "--rules", "hatred", "--strict").returncode == 2
    assert run_cli(*args, "--rules", "great-weapon", "--strict").returncode == 0


def test_matchup_lists_the_clauses_of_the_units_rules(out: Path) -> None:
    # the Wisps fight with Distracting
    _edit(out, "distracting", unread=[{"lang": "en", "text": "gains +1 Attack", "span": [1, 4]}])
    args = ["matchup", "Halberdiers", "Wisps", "--build", str(out), "--models", "2"]
    doc = json.loads(run_cli(*args, "--json").stdout)
    assert doc["unread"] == [{"rule": "distracting", "text": "gains +1 Attack", "span": [1, 4]}]
    assert "distracting" in run_cli(*args).stdout.split("not read")[1]
    refused = run_cli(*args, "--strict")
    assert refused.returncode == 2 and "distracting" in refused.stderr
    # units without such rules: nothing listed
    doc = json.loads(run_cli("matchup", "Halberdiers", "Brutes", *args[3:], "--json").stdout)
    assert doc["unread"] == []


@pytest.mark.parametrize(
    ("change", "wanted"),
    [
        ({"conditions": ["front-facng"]}, "front-facing"),
        ({"conditions": ["first-rond"]}, "first-round"),
        ({"condition": ["front-facing"]}, "conditions"),
        ({"attacker": {"model": 5}}, "models"),
        ({"defender": {"keywords": ["larg"]}}, "large"),
        ({"attacker": {"rules": ["great-weapn"]}}, "great-weapon"),
    ],
)
def test_an_unknown_name_is_refused_with_the_closest(
    out: Path, tmp_path: Path, change: dict[str, Any], wanted: str
) -> None:
    sc = _scenario(tmp_path, change)
    done = run_cli("attack", str(sc), "--build", str(out))
    assert done.returncode == 2, done.stdout
    assert wanted in done.stderr and done.stdout == ""


def test_a_condition_a_rule_in_play_names_is_known(out: Path, tmp_path: Path) -> None:
    # "duel" is a core situation; "flying" is known only where a rule in play names it
    sc = _scenario(tmp_path, {"conditions": ["duel"]})
    assert run_cli("attack", str(sc), "--build", str(out)).returncode == 0
    sc = _scenario(tmp_path, {"conditions": ["flying"]})
    done = run_cli("attack", str(sc), "--build", str(out))
    assert done.returncode == 2 and "unknown condition 'flying'" in done.stderr


def test_a_combat_of_units_refuses_unknown_conditions(out: Path, tmp_path: Path) -> None:
    sc = tmp_path / "combat.yaml"
    doc = {"attacker": {"unit": "Halberdiers"}, "defender": {"unit": "Wisps"}}
    sc.write_text(yaml.safe_dump({**doc, "conditions": ["rear-facng"]}), encoding="utf-8")
    done = run_cli("attack", str(sc), "--build", str(out))
    assert done.returncode == 2 and "rear-facing" in done.stderr
    sc.write_text(yaml.safe_dump({**doc, "conditions": ["rear-facing"]}), encoding="utf-8")
    assert run_cli("attack", str(sc), "--build", str(out)).returncode == 0


def test_a_unit_is_of_its_height_and_type(out: Path) -> None:
    """Brutes are Large Infantry: a rule against Large models holds against them."""
    from dataclasses import replace
    from fractions import Fraction

    from pipeline.interpret.attack import Scenario, Side, resolve
    from pipeline.interpret.rules import Build
    from pipeline.interpret.scenario import Units, unit_force

    build = Build(out)
    brutes = unit_force(Units(build).find("Brutes"), {}, build).defence
    assert brutes.keywords == ("large", "infantry")
    reroll = {"op": "roll", "roll": "to-hit", "reroll": "failed", "when": "target-has:large"}
    _edit(out, "giant-bane", effects=[reroll])
    chars = {"offensive_skill": 3, "strength": 3, "armour_penetration": 0, "agility": 3}
    attacker = Side(chars, "1", ("giant-bane",), 1)
    # OS 3 against DS 3: 4+, rerolled when failed against a Large target only
    for target, p_hit in ((brutes, Fraction(3, 4)), (replace(brutes, keywords=()), Fraction(1, 2))):
        assert resolve(Scenario(attacker, target, frozenset()), Build(out)).hits.mean() == p_hit
