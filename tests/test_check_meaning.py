"""The comparison of meaning and the findings a translator acts on, against the meaning set
(tests/data/checks/meaning.yaml, tests/helpers/meaning.py): the development part case by
case; the held-out third is reported by tests/bench/eval_checks.py."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pipeline.check import Pair, run_checks
from pipeline.check.report_json import report_data
from tests.conftest import ROOT
from tests.helpers.meaning import MEANING, findings_of, load_cases, unmet

CASES = load_cases()
DEVELOPMENT = [c for c in CASES if not c.held]
QUANTITY = {"number_mismatch", "dice_mismatch", "distance_mismatch", "modifier_mismatch"}


@pytest.fixture(scope="module")
def found():
    return findings_of(DEVELOPMENT)


def test_the_set_is_built_as_described():
    groups = Counter(c.group for c in CASES)
    assert groups["faithful"] >= 60 and groups["changed"] >= 40
    for group in ("faithful", "changed", "defects"):
        members = [c for c in CASES if c.group == group]
        assert [c.held for c in members] == [k % 3 == 2 for k in range(len(members))], group
    assert len({c.pair.id for c in CASES}) == len(CASES)
    # a change of meaning keeps every number: the quantity checks see nothing in it
    changed = [c for c in CASES if c.group == "changed"]
    quantity = findings_of(changed)
    assert not [
        (c.pair.id, f.message) for c in changed for f in quantity[c.pair.id] if f.check in QUANTITY
    ]


@pytest.mark.parametrize("case", [c for c in DEVELOPMENT if c.group == "changed"], ids=str)
def test_a_change_of_meaning_is_a_finding_with_both_spans(case, found):
    mine = [f for f in found[case.pair.id] if f.check == MEANING]
    assert mine, case.change
    assert all(f.source_span and f.target_span for f in mine)
    assert len(mine) == 1  # one finding for one change


@pytest.mark.parametrize("case", [c for c in DEVELOPMENT if c.group == "faithful"], ids=str)
def test_a_faithful_translation_has_no_finding(case, found):
    assert [(f.check, f.message) for f in found[case.pair.id]] == []


@pytest.mark.parametrize("case", [c for c in DEVELOPMENT if c.group == "defects"], ids=str)
def test_each_case_gets_the_findings_a_translator_acts_on(case, found):
    checks = {f.check for f in found[case.pair.id]}
    assert checks == set(case.labels), [f.message for f in found[case.pair.id]]
    assert unmet(case, found[case.pair.id]) == []


def test_messages_say_what_the_translation_changes():
    pair = Pair(
        "p",
        "Characters cannot join the unit.",
        "Персонажи могут присоединяться к отряду.",
        "en",
        "ru",
    )
    (f,) = run_checks([pair]).findings
    assert f.check == MEANING and f.severity == "warning"
    assert f.message == "the source forbids this ('cannot'); the translation allows it ('могут')"
    assert (pair.source[slice(*f.source_span)], pair.target[slice(*f.target_span)]) == (
        "cannot",
        "могут",
    )


def test_sentences_with_no_mark_of_meaning_are_counted_in_the_summary_not_reported():
    source = "This relic is old. Its bearer is feared. Few dare to look at it."
    target = "Эта реликвия стара. Её носителя боятся. Немногие смеют на неё взглянуть."
    report = run_checks([Pair("p", source, target, "en", "ru")])
    assert report.findings == []
    data = report_data(report)
    assert data["pairs"][0]["unread_sentences"] == {"source": 3, "target": 3}
    assert data["summary"]["unread_sentences"] == {"source": 3, "target": 3}


PROBE = """
import json, sys
from pipeline.commands import main
heavy = json.loads(sys.argv[2])
main(["check", *json.loads(sys.argv[1])])
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""
HEAVY = ["numpy", "icepool", "pipeline.interpret.attack"]


def _loaded(tmp_path: Path, row: dict) -> list[str]:
    """The heavy modules `rulepipe check` has loaded once it has checked one pair."""
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    args = ["--pairs", str(pairs), "-o", str(tmp_path / "out"), "--format", "json"]
    out = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_check_loads_the_interpreter_only_for_a_pair_that_needs_it(tmp_path: Path):
    """Start-up: the interpreter and numpy come in only for a pair whose effects differ."""
    row = {
        "id": "a",
        "source": "The unit gains +1 Strength.",
        "target": "Отряд получает +1 к Силе.",
        "source_lang": "en",
        "target_lang": "ru",
    }
    assert _loaded(tmp_path, row) == []
    needed = _loaded(tmp_path, dict(row, target="Отряд получает +2 к Силе."))
    assert "pipeline.interpret.attack" in needed  # numpy only where an attack needs it
