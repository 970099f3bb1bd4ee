"""The glossary as exchanged: TSV written by export and by glossary suggest loads back."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.glossary import load_glossary

from .conftest import CORPUS, run_cli


def test_exported_tsv_loads_back_as_the_same_glossary(tmp_path):
    tsv = tmp_path / "glossary.tsv"
    result = run_cli("export", "--format", "tsv", "-o", str(tsv))
    assert result.returncode == 0, result.stderr
    back, project = load_glossary(tsv), load_glossary(CORPUS / "glossary.yaml")
    assert back.languages == project.languages
    assert [(t.id, t.renderings, t.deprecated) for t in back.terms] == [
        (t.id, t.renderings, t.deprecated) for t in project.terms
    ]
    unit_spacing = next(t for t in back.terms if t.id == "unit-spacing")
    assert unit_spacing.deprecated == {"ru": ("Правило расстояния между отрядами",)}


def test_suggestions_load_as_a_glossary_once_reviewed(tmp_path):
    tsv = tmp_path / "suggested.tsv"
    tsv.write_text("en\tru\tcount\tscore\nUnit Spacing\tРасстояния между отрядами\t2\t1.0\n")
    (term,) = load_glossary(tsv).terms
    assert term.id == "unit-spacing"
    assert term.renderings == {"en": ("Unit Spacing",), "ru": ("Расстояния между отрядами",)}


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (
            "en\tru\tstatus\tterm\nCharge\tНападение\tpreferred\tcharge\n\tатака\tlost\tcharge\n",
            "3",
        ),
        ("en\tru\tstatus\tterm\n\tатака\tadmitted\t\n", "2"),
        ("ru\ten\tweight\nНападение\tCharge\t1\n", "1"),
    ],
)
def test_broken_tsv_rows_name_their_line(tmp_path, content, line):
    tsv = tmp_path / "g.tsv"
    tsv.write_text(content, "utf-8")
    with pytest.raises(InputError) as err:
        load_glossary(tsv)
    assert err.value.where == line


def test_variant_rows_need_a_preferred_row(tmp_path):
    tsv = tmp_path / "g.tsv"
    tsv.write_text("en\tru\tstatus\tterm\n\tатака\tadmitted\tcharge\n", "utf-8")
    with pytest.raises(InputError, match="no preferred row"):
        load_glossary(tsv)
