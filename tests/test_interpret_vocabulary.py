"""Corners of the effect vocabulary the army cases do not reach, each checked against a
brute-force enumeration of the dice (tests/helpers/dice_oracle.py).

Base: one attack, OS 4 against DS 4 (4+), S 3 against R 3 (4+), no armour.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.errors import InputError
from pipeline.interpret.attack import resolve, scenario_from_dict
from pipeline.interpret.rules import Build

from .helpers.dice_oracle import expected as brute_force

F = Fraction
HIT = {"ok": [4, 5, 6]}
WOUND = {"ok": [4, 5, 6]}


def _build(tmp: Path, effects: dict[str, list[dict[str, Any]]]) -> Build:
    (tmp / "rules").mkdir()
    for rule_id, found in effects.items():
        rule = {"id": rule_id, "kind": "special-rule", "names": {"en": rule_id}, "effects": found}
        (tmp / "rules" / f"{rule_id}.yaml").write_text(yaml.safe_dump(rule), encoding="utf-8")
    return Build(tmp)


def _mean(build: Build, measure: str, att: dict[str, Any], dfd: dict[str, Any]) -> Fraction:
    base_att = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 3,
                "armour_penetration": 0, "agility": 3}  # fmt: skip
    base_def = {"defensive_skill": 4, "resilience": 3, "health_points": 1, "armour": 0}
    sc = scenario_from_dict({"attacker": base_att | att, "defender": base_def | dfd}, "test")
    result = resolve(sc, build)
    return {"hits": result.hits, "wounds": result.wounds, "unsaved": result.unsaved_wounds}[
        measure
    ].mean()


CASES = [
    # a reroll the roller may take is taken only on a face that fails: a 4 hits, kept
    ("may reroll a face that succeeds", "hits",
     [{"op": "roll", "roll": "to-hit", "reroll": [1, 4], "may": True}], {}, {},
     {"hit": {"ok": [4, 5, 6], "reroll": [1]}}),
    # a forced reroll of the same faces rolls the 4 again
    ("must reroll a face that succeeds", "hits",
     [{"op": "roll", "roll": "to-hit", "reroll": [1, 4]}], {}, {},
     {"hit": {"ok": [4, 5, 6], "reroll": [1, 4]}}),
    ("hits automatically", "hits", [{"op": "roll", "roll": "to-hit", "result": "pass"}], {}, {},
     {"hit": {"auto": True}}),
    ("always hits on 2+", "hits", [{"op": "roll", "roll": "to-hit", "need": 2}], {}, {},
     {"hit": {"ok": [2, 3, 4, 5, 6]}}),
    # "no saves of any kind": Armour 5 (2+) and Aegis 4+ are both lost
    ("no saves allowed", "unsaved",
     [{"op": "roll", "roll": ["armour-save", "special-save"], "result": "fail",
       "applies_to": "enemy"}], {}, {"armour": 5, "rules": ["ward"]},
     {"hit": HIT, "wound": WOUND}),
    # the same attack against the saves: 2+ then 4+
    ("the saves it would deny", "unsaved", [], {}, {"armour": 5, "rules": ["ward"]},
     {"hit": HIT, "wound": WOUND, "save": {"ok": [2, 3, 4, 5, 6]}, "special": {"ok": [4, 5, 6]}}),
    # the weapon's AP is set to 2, and the defender's "attacks against it suffer -1 AP" still
    # counts after it: AP 1 against Armour 3, save 5+
    ("a set value, then the enemy's change", "unsaved",
     [{"op": "modify", "characteristic": "armour_penetration", "to": 2, "applies_to": "attack"}],
     {}, {"armour": 3, "rules": ["blunting"]},
     {"hit": HIT, "wound": WOUND, "save": {"ok": [5, 6]}}),
    # -2 Strength, to a minimum of 2: S 3 becomes 2 (not 1): 5+ against R 3
    ("a lowering change with a minimum", "wounds",
     [{"op": "modify", "characteristic": "strength", "by": -2, "min": 2}], {}, {},
     {"hit": HIT, "wound": {"ok": [5, 6]}}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "measure", "effects", "att", "dfd", "dice"), CASES)
def test_vocabulary_against_the_dice(
    tmp_path: Path,
    name: str,
    measure: str,
    effects: list[dict[str, Any]],
    att: dict[str, Any],
    dfd: dict[str, Any],
    dice: dict[str, Any],
) -> None:
    build = _build(
        tmp_path,
        {
            "tested": effects,
            "ward": [{"op": "special-save", "kind": "aegis", "value": 4}],
            "blunting": [
                {"op": "modify", "characteristic": "armour_penetration", "by": -1,
                 "applies_to": "enemy"}
            ],
        },
    )  # fmt: skip
    rules = {"rules": ["tested"]} if effects else {}
    assert _mean(build, measure, att | rules, dfd) == brute_force(dice, measure), name


def test_a_rolled_attack_value_cannot_be_bounded(tmp_path: Path) -> None:
    build = _build(
        tmp_path, {"capped": [{"op": "modify", "characteristic": "attacks", "by": 1, "max": 3}]}
    )
    with pytest.raises(InputError, match="rolled"):
        _mean(build, "hits", {"attacks": "D6", "rules": ["capped"]}, {})
    assert _mean(build, "hits", {"attacks": 2, "rules": ["capped"]}, {}) == F(3, 2)


def test_by_and_to_together_are_refused(tmp_path: Path) -> None:
    build = _build(
        tmp_path, {"twice": [{"op": "modify", "characteristic": "strength", "by": 1, "to": 4}]}
    )
    with pytest.raises(InputError, match=r"effects\[0\].*'by', 'to'"):
        _mean(build, "hits", {"rules": ["twice"]}, {})
