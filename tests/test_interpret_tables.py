"""Dice tables from hand-written rule files: the LotOW horse jump and the fall from a horse.

Source: seeds/004 lines 29-33 and 43-47. Jump: D6, 1 refuses, 2-6 clears; -1 when the barrier
is higher than 1" (or the gap wider than 2"); "if in the result of such a jump the die shows 1,
roll on the Fall from Horse table", while a 2 made 1 by the -1 only refuses. Fall: 1 thrown off
(an S2 hit), 2-5 falls to the ground, 6 lands easily.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.commands import main
from pipeline.errors import InputError
from pipeline.interpret.rules import Build
from pipeline.interpret.tables import roll_table

JUMP = {
    "id": "horse-jump",
    "kind": "table",
    "names": {"en": "Horse Jump", "ru": "Прыжок верховой фигурки"},
    "effects": [],
    "table": {
        "die": "D6",
        "modifiers": [{"by": -1, "when": "barrier-over-1in"}],
        "natural": [{"value": 1, "when": "modified", "chain": "fall-from-horse"}],
        "rows": [
            {"range": [1, 1], "outcome": "refuses", "text": {"ru": "Не хочет"}},
            {"range": [2, 6], "outcome": "clears", "text": {"ru": "С легкостью перепрыгивает"}},
        ],
    },
}
FALL = {
    "id": "fall-from-horse",
    "kind": "table",
    "names": {"en": "Thrown Riders", "ru": "Падение с лошади"},
    "effects": [],
    "table": {
        "die": "D6",
        "rows": [
            {"range": [1, 1], "outcome": "thrown-off"},
            {"range": [2, 5], "outcome": "falls-to-ground"},
            {"range": [6, 6], "outcome": "lands-easily"},
        ],
    },
}


def write(build: Path, *rules: dict) -> Path:
    (build / "rules").mkdir(parents=True, exist_ok=True)
    for rule in rules:
        text = yaml.safe_dump(rule, allow_unicode=True, sort_keys=False)
        (build / "rules" / f"{rule['id']}.yaml").write_text(text, encoding="utf-8")
    return build


@pytest.fixture
def build(tmp_path: Path) -> Path:
    return write(tmp_path / "output", JUMP, FALL)


def brute_jump(modifier: int) -> dict[str, Fraction]:
    """The two tables read by hand, die face by die face."""
    out: dict[str, Fraction] = {}
    for jump in range(1, 7):
        if jump == 1 and modifier != 0:
            for fall in range(1, 7):
                name = (
                    "thrown-off"
                    if fall == 1
                    else "lands-easily"
                    if fall == 6
                    else "falls-to-ground"
                )
                out[name] = out.get(name, Fraction(0)) + Fraction(1, 36)
            continue
        name = "refuses" if jump + modifier <= 1 else "clears"
        out[name] = out.get(name, Fraction(0)) + Fraction(1, 6)
    return out


def as_dict(outcomes) -> dict[str, Fraction]:
    return {o.outcome: o.p for o in outcomes}


def test_jump_without_modifier(build: Path) -> None:
    got = as_dict(roll_table(Build(build), "horse-jump"))
    assert got == brute_jump(0) == {"refuses": Fraction(1, 6), "clears": Fraction(5, 6)}


def test_jump_with_minus_one_chains_to_the_fall(build: Path) -> None:
    got = as_dict(roll_table(Build(build), "horse-jump", modifier=-1))
    assert got == brute_jump(-1)
    # a natural 2 made 1: refuses, no fall; natural 3-6: clears; natural 1: the fall table
    assert got["refuses"] == Fraction(1, 6)
    assert got["clears"] == Fraction(4, 6)
    assert got["thrown-off"] == Fraction(1, 36)
    assert got["falls-to-ground"] == Fraction(4, 36)
    assert got["lands-easily"] == Fraction(1, 36)
    assert sum(got.values()) == 1


def test_named_condition_switches_on_the_tables_own_modifier(build: Path) -> None:
    by_condition = as_dict(roll_table(Build(build), "horse-jump", conditions=["barrier-over-1in"]))
    assert by_condition == brute_jump(-1)


def test_fall_table_alone(build: Path) -> None:
    got = as_dict(roll_table(Build(build), "fall-from-horse"))
    assert got == {
        "thrown-off": Fraction(1, 6),
        "falls-to-ground": Fraction(4, 6),
        "lands-easily": Fraction(1, 6),
    }


def test_table_command_json_reports_final_outcomes(
    build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["table", "horse-jump", "--modifier", "-1", "--build", str(build), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rule"] == "horse-jump"
    got = {o["outcome"]: Fraction(o["p"]) for o in doc["outcomes"]}
    assert got == brute_jump(-1)
    thrown = next(o for o in doc["outcomes"] if o["outcome"] == "thrown-off")
    assert thrown["p"] == "1/36"
    assert thrown["path"] == ["horse-jump", "fall-from-horse"]


def test_table_command_text(build: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["table", "horse-jump", "--build", str(build)]) == 0
    text = capsys.readouterr().out
    assert "clears" in text and "5/6" in text


def test_edited_table_changes_the_odds(build: Path) -> None:
    edited = json.loads(json.dumps(JUMP))
    edited["table"]["rows"] = [
        {"range": [1, 2], "outcome": "refuses"},
        {"range": [3, 6], "outcome": "clears"},
    ]
    write(build, edited)
    assert as_dict(roll_table(Build(build), "horse-jump"))["clears"] == Fraction(4, 6)


def test_chain_loop_is_an_error(tmp_path: Path) -> None:
    loop = json.loads(json.dumps(FALL))
    loop["table"]["rows"][0]["chain"] = "fall-from-horse"
    b = write(tmp_path / "b", loop)
    with pytest.raises(InputError, match="loops"):
        roll_table(Build(b), "fall-from-horse")


def test_missing_rule_and_bad_table_are_input_errors(
    build: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["table", "no-such-table", "--build", str(build), "--json"]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "no-such-table" in err.err
    bad = json.loads(json.dumps(FALL))
    bad["table"]["rows"][1]["range"] = "2-5"
    write(build, bad)
    with pytest.raises(InputError) as info:
        roll_table(Build(build), "fall-from-horse")
    assert "fall-from-horse.yaml" in str(info.value)
    assert "table.rows[1].range" in str(info.value)


def test_gap_in_rows_is_reported(tmp_path: Path) -> None:
    gap = json.loads(json.dumps(FALL))
    gap["table"]["rows"] = [{"range": [1, 2], "outcome": "a"}, {"range": [4, 6], "outcome": "b"}]
    b = write(tmp_path / "b", gap)
    with pytest.raises(InputError, match="result of 3"):
        roll_table(Build(b), "fall-from-horse")
