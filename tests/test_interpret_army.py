"""Army-book rules executed exactly: the cases of tests/data/army_cases.yaml.

Each case's fraction is worked by hand; a brute-force enumeration of the dice (written apart
from the interpreter) checks the arithmetic; the interpreter, given the rule's effects in its
vocabulary, must give the same fraction. Cases marked `read` go through the real reader too
(BattleScribe fixture -> build -> rule files -> interpreter).
"""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.interpret.attack import resolve, scenario_from_dict
from pipeline.interpret.rules import Build

from .helpers.battlescribe import build_fixtures
from .helpers.dice_oracle import expected as brute_force

CASES_PATH = Path(__file__).parent / "data" / "army_cases.yaml"
DATA = yaml.safe_load(CASES_PATH.read_text(encoding="utf-8"))
CASES = DATA["cases"]
IDS = [c["id"] for c in CASES]
MEASURES = {
    "hits": lambda r: r.hits.mean(),
    "wounds": lambda r: r.wounds.mean(),
    "unsaved": lambda r: r.unsaved_wounds.mean(),
}


def scenario_of(case: dict[str, Any]) -> dict[str, Any]:
    """The case as a scenario mapping: its sides over the base sides of its mode."""
    shooting = case.get("mode") == "shooting"
    base = DATA["base"]
    att = {**base["shooter" if shooting else "attacker"], **case.get("attacker", {})}
    dfd = {**base["target" if shooting else "defender"], **case.get("defender", {})}
    if shooting:  # a shot has no Offensive Skill and strikes no one back
        att.pop("charging", None)
        dfd.pop("defensive_skill", None)
    return {
        "mode": case.get("mode", "melee"),
        "attacker": att,
        "defender": dfd,
        "conditions": list(case.get("conditions", [])),
    }


def result(case: dict[str, Any], build: Path) -> Fraction:
    scenario = scenario_from_dict(scenario_of(case), case["id"])
    return MEASURES[case["measure"]](resolve(scenario, Build(build)))


@pytest.fixture(scope="module")
def read_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture army book built by the real reader."""
    return build_fixtures(tmp_path_factory.mktemp("army"), "combat.gst", "warband.cat")


@pytest.fixture(scope="module")
def vocabulary_build(read_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same build with each army rule's effects as written by hand in the cases file."""
    out = tmp_path_factory.mktemp("vocabulary") / "out"
    shutil.copytree(read_build, out)
    for rule_id, spec in DATA["rules"].items():
        path = out / "rules" / f"{rule_id}.yaml"
        rule = yaml.safe_load(path.read_text(encoding="utf-8"))
        rule["effects"] = spec["effects"]
        path.write_text(yaml.safe_dump(rule, allow_unicode=True), encoding="utf-8")
    return out


def test_the_cases_are_many_and_cover_books_and_revisions() -> None:
    books = {spec["book"] for spec in DATA["rules"].values()}
    assert len(CASES) >= 40
    assert any(b.endswith("2024") for b in books) and any(b.endswith("2.1.5") for b in books)
    assert len({b.rsplit("-", 1)[0] for b in books}) >= 8


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_hand_worked_fraction_equals_the_dice_enumerated(case: dict[str, Any]) -> None:
    assert brute_force(case["dice"], case["measure"]) == Fraction(str(case["expected"]))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_the_interpreter_executes_the_rule_as_written(
    case: dict[str, Any], vocabulary_build: Path
) -> None:
    assert result(case, vocabulary_build) == Fraction(str(case["expected"]))


READ = [c for c in CASES if c.get("read")]


@pytest.mark.parametrize("case", READ, ids=[c["id"] for c in READ])
def test_the_rule_read_from_its_text_executes_right(case: dict[str, Any], read_build: Path) -> None:
    assert result(case, read_build) == Fraction(str(case["expected"]))
