"""Charge range = 2D6 + Advance Rate, with Swiftstride's Maximised Roll from a rule file."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.commands import main
from pipeline.interpret.charge import charge
from pipeline.interpret.dice import distribution
from pipeline.interpret.rules import Build

D6 = range(1, 7)
SWIFTSTRIDE = {
    "id": "swiftstride",
    "kind": "special-rule",
    "names": {"en": "Swiftstride"},
    "effects": [
        {"op": "roll", "roll": ["charge", "flee", "pursuit", "overrun"], "extra_dice": 1,
         "drop": "lowest"}
    ],
}  # fmt: skip
REROLL_FAILED = {
    "id": "reroll-failed-charge",
    "kind": "special-rule",
    "names": {"en": "test rule"},
    "effects": [{"op": "roll", "roll": "charge", "reroll": "failed"}],
}


@pytest.fixture
def build(tmp_path: Path) -> Path:
    (tmp_path / "rules").mkdir()
    for rule in (SWIFTSTRIDE, REROLL_FAILED):
        (tmp_path / "rules" / f"{rule['id']}.yaml").write_text(yaml.safe_dump(rule))
    return tmp_path


def p_reach(distance: int, advance: int, dice: int, drop_lowest: int) -> Fraction:
    """By enumeration of every roll of the dice."""
    hits = total = 0
    for roll in itertools.product(D6, repeat=dice):
        kept = sorted(roll)[drop_lowest:]
        total += 1
        hits += sum(kept) + advance >= distance
    return Fraction(hits, total)


def test_charge_12_with_advance_7_is_5_over_6() -> None:
    result = charge(12, 7)
    assert result.p_success == Fraction(5, 6) == p_reach(12, 7, 2, 0)


def test_swiftstride_is_one_extra_die_lowest_dropped(build: Path) -> None:
    effects = Build(build).effects(["swiftstride"])
    result = charge(12, 7, effects)
    assert result.p_success == p_reach(12, 7, 3, 1) == Fraction(205, 216)
    brute: dict[int, Fraction] = {}
    for roll in itertools.product(D6, repeat=3):
        v = sum(sorted(roll)[1:]) + 7
        brute[v] = brute.get(v, Fraction(0)) + Fraction(1, 216)
    assert dict(distribution(result.range)) == dict(sorted(brute.items()))


@pytest.mark.parametrize(("distance", "advance"), [(2, 0), (9, 4), (15, 3), (20, 8), (25, 5)])
def test_charge_odds_match_enumeration(build: Path, distance: int, advance: int) -> None:
    assert charge(distance, advance).p_success == p_reach(distance, advance, 2, 0)
    swift = Build(build).effects(["swiftstride"])
    assert charge(distance, advance, swift).p_success == p_reach(distance, advance, 3, 1)


def test_reroll_of_a_failed_charge(build: Path) -> None:
    p = p_reach(12, 5, 2, 0)
    got = charge(12, 5, Build(build).effects(["reroll-failed-charge"])).p_success
    assert got == 1 - (1 - p) ** 2


def test_charge_command_json(build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["charge", "--distance", "12", "--advance", "7", "--json"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert plain["p_success"] == "5/6"
    assert main([*args, "--rules", "swiftstride", "--build", str(build)]) == 0
    swift = json.loads(capsys.readouterr().out)
    assert Fraction(swift["p_success"]) == p_reach(12, 7, 3, 1)
    values = [d["value"] for d in swift["distribution"]]
    assert values == sorted(values) and values[0] == 9 and values[-1] == 19
    assert sum(Fraction(d["p"]) for d in swift["distribution"]) == 1


def test_unknown_rule_is_exit_2(build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["charge", "--distance", "12", "--advance", "7", "--rules", "fly", "--build", str(build)]
    assert main(args) == 2
    assert "fly" in capsys.readouterr().err


def test_a_charge_condition_with_alternatives(tmp_path: Path) -> None:
    """ "Swiftstride for the Charge Range roll when charging the Flank or Rear Facing"."""
    (tmp_path / "rules").mkdir()
    pack = {
        "id": "pack-hunters",
        "kind": "special-rule",
        "names": {"en": "Pack Hunters"},
        "effects": [{"op": "roll", "roll": "charge", "extra_dice": 1, "drop": "lowest",
                     "when": "enemy-flank | enemy-rear"}],
    }  # fmt: skip
    (tmp_path / "rules" / "pack-hunters.yaml").write_text(yaml.safe_dump(pack))
    effects = Build(tmp_path).effects(["pack-hunters"])
    for when, dice in (((), 2), (("enemy-flank",), 3), (("enemy-rear",), 3), (("x",), 2)):
        assert charge(10, 4, effects, when).p_success == p_reach(10, 4, dice, dice - 2), when
