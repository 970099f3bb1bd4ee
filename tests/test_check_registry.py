"""The check registry: what runs, what the reports list and what docs/checks.md lists are
the same declarations, and the checks of one pair share one computation of its quantities
and terms."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest

import pipeline.check.context as context
from pipeline.check import CHECK_IDS, Pair, run_checks
from pipeline.check.catalogue import CHECKS
from pipeline.check.model import RANK
from pipeline.check.registry import SCOPES, check, declared, markdown_table
from pipeline.check.report_html import report_html
from pipeline.check.report_text import report_text
from pipeline.export.pairs import Pair as ExportPair
from pipeline.glossary import load_glossary
from tests.conftest import CORPUS
from tests.helpers.labelled import load_labelled

DOC = Path(__file__).resolve().parents[1] / "docs" / "checks.md"
_ROW = re.compile(r"^\| `(\w+)` \| (\w+) \| (\w+) \| .+ \|$")


def test_docs_table_lists_exactly_the_registered_checks_with_their_scope():
    text = DOC.read_text("utf-8")
    rows = [m.groups() for line in text.splitlines() if (m := _ROW.match(line))]
    assert [(i, scope) for i, scope, _ in rows] == [(c.id, c.scope) for c in CHECKS]
    assert [sev for _, _, sev in rows] == [c.severity for c in CHECKS]
    assert markdown_table(CHECKS) in text  # the descriptions too, word for word


def test_check_ids_are_the_registry_in_declaration_order():
    assert tuple(c.id for c in declared()) == CHECK_IDS
    assert len(set(CHECK_IDS)) == len(CHECK_IDS)
    assert {c.scope for c in CHECKS} == set(SCOPES)


def test_a_check_is_declared_once_with_a_known_severity_and_scope():
    with pytest.raises(ValueError, match="declared twice"):
        check("homoglyph", "error", "segment", "again")(lambda side: ())
    with pytest.raises(ValueError, match="unknown scope"):
        check("new_check", "error", "document", "?")
    with pytest.raises(ValueError, match="unknown severity"):
        check("new_check", "fatal", "pair", "?")
    assert tuple(c.id for c in declared()) == CHECK_IDS


def _labelled_report():
    items = load_labelled()
    glossary = load_glossary(Path(CORPUS) / "glossary.yaml")
    return run_checks([it.pair for it in items], glossary)


def test_findings_stay_within_their_declared_severity():
    report = _labelled_report()
    declared_severity = {c.id: c.severity for c in CHECKS}
    assert report.findings
    for f in report.findings:
        assert RANK[f.severity] <= RANK[declared_severity[f.check]], f
    found = {f.check for f in report.findings}
    assert {"untranslated", "omission", "homoglyph", "glossary", "number_mismatch"} <= found


def test_report_legends_come_from_the_registry():
    report = run_checks([Pair("p", "Roll a D6 with with care.", "Бросьте D3.", "en", "ru")])
    html = report_html(report)
    boxes = re.findall(r'data-kind="check" value="(\w+)"', html)
    rows = re.findall(r'<tr data-check="(\w+)">', html)
    assert boxes == rows == list(CHECK_IDS)
    assert list(report.counts()) == list(CHECK_IDS)
    text = report_text(report, "error")
    listed = [line.split()[0] for line in text.splitlines()[1:] if line.startswith("  ")]
    assert listed[:2] == ["dice_mismatch", "doubled_word"]  # registry order, not finding order


def test_one_pair_reads_its_quantities_and_terms_once(monkeypatch):
    """Four mismatch checks, the homoglyph check, the effect check and the sentence anchors
    all read the quantities; the glossary check, the anchors and the checks across pairs
    read the terms."""
    calls: list[tuple[str, bool]] = []
    quantities, find = context.find_quantities, context.TermIndex.find

    def counted_items(text, lang):
        calls.append(("items", gc.isenabled()))
        return quantities(text, lang)

    def counted_find(self, text):
        calls.append(("terms", gc.isenabled()))
        return find(self, text)

    monkeypatch.setattr(context, "find_quantities", counted_items)
    monkeypatch.setattr(context.TermIndex, "find", counted_find)
    glossary = load_glossary(Path(CORPUS) / "glossary.yaml")
    source = (
        "Roll a D6 for each model within 6″. On a 4+, it suffers a hit with Strength 3. "
        "Models with Ricochet ignore Open Terrain. The hit has Armour Penetration 1."
    )
    target = (
        "Бросьте D6 за каждую модель в пределах 6″. На 4+ она получает попадание с Силой 3. "
        "Модели с Рикошетом игнорируют Открытый ландшафт."
    )
    enabled = gc.isenabled()
    report = run_checks([Pair("p", source, target, "en", "ru")], glossary)
    assert gc.isenabled() == enabled
    assert sorted(what for what, _ in calls) == ["items", "items", "terms", "terms"]
    assert not any(on for _, on in calls)  # the collector is paused during the run
    assert "omission" in {f.check for f in report.findings}


def test_checks_and_exports_share_one_pair_record():
    assert ExportPair is Pair
    pair = Pair("l-1", "Roll a D6.", "Бросьте D6.", "en", "ru", rule="ricochet")
    assert pair.to_json() == {
        "id": "l-1",
        "source_lang": "en",
        "target_lang": "ru",
        "source": "Roll a D6.",
        "target": "Бросьте D6.",
    }
