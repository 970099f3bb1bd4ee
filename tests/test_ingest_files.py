"""The files teams send: Word documents, PDF rulebooks, Russian text in Windows-1251 or
KOI8-R, files nothing reads, CSV term lists. Every file is written by the test (python-docx,
fpdf2, str.encode), with our own words."""

from __future__ import annotations

import json
from pathlib import Path

import docx
import pytest
import yaml
from fpdf import FPDF

from .conftest import run_cli
from .helpers.outputs import assert_refused, make_corpus

RU = (
    "Страх\n\n"
    "Отряды в контакте с моделями со Страхом получают -1 к Дисциплине. В начале каждого"
    " раунда боя такие отряды проходят тест Дисциплины, называемый тестом Страха.\n\n"
    "Модели, у которых есть Страх, не подвержены его действию.\n"
)


def build(corpus: Path, out: Path) -> None:
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr


def segments(out: Path) -> list[dict]:
    with (out / "segments.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text("utf-8"))


def rules(out: Path) -> dict[str, dict]:
    return {r["id"]: r for r in json.loads((out / "rules.json").read_text("utf-8"))}


def word_document(path: Path) -> None:
    d = docx.Document()
    d.add_heading("Special Rules", level=1)
    d.add_heading("Dread", level=2)
    p = d.add_paragraph("Units in base contact with ")
    p.add_run("Dread").bold = True
    p.add_run(" models suffer -2 Discipline. At the start of each Round of Combat they")
    p.add_run(" take a Dread Test.")
    d.add_paragraph("Models with Dread ignore it.", style="List Bullet")
    d.add_heading("Stumble Table", level=2)
    table = d.add_table(rows=3, cols=2)
    for i, (a, b) in enumerate([("D6", "Result"), ("1", "The model falls."), ("2-6", "Nothing.")]):
        table.cell(i, 0).text, table.cell(i, 1).text = a, b
    d.add_paragraph("Roll once per model.")
    d.save(str(path))


def test_a_word_document_gives_headings_bold_lists_and_tables(tmp_path):
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    word_document(corpus / "drops" / "d" / "book.docx")
    out = tmp_path / "out"
    build(corpus, out)
    found = [(s["kind"], s["raw"], s["lines"]) for s in segments(out)]
    assert found == [
        ("heading", "# Special Rules", [1, 1]),
        ("heading", "## Dread", [2, 2]),
        (
            "paragraph",
            "Units in base contact with [b]Dread[/b] models suffer -2 Discipline. At the start"
            " of each Round of Combat they take a Dread Test.",
            [3, 3],
        ),
        ("list-item", "Models with Dread ignore it.", [4, 4]),
        ("heading", "## Stumble Table", [5, 5]),
        ("table", "| D6 | Result |\n| 1 | The model falls. |\n| 2-6 | Nothing. |", [6, 8]),
        ("paragraph", "Roll once per model.", [9, 9]),
    ]
    table = next(s for s in segments(out) if s["kind"] == "table")
    assert table["rows"] == [["D6", "Result"], ["1", "The model falls."], ["2-6", "Nothing."]]
    read = rules(out)
    # the heading styles nest: Dread is a section of Special Rules, with its paragraphs
    assert read["dread"]["section"] == "special-rules"
    assert "-2 Discipline" in read["dread"]["texts"]["en"]["text"]
    assert any(q["surface"] == "-2 Discipline" for q in read["dread"]["quantities"])
    assert read["stumble-table"]["kind"] == "table"


def two_page_pdf(path: Path) -> None:
    pdf = FPDF()
    for title, body in (
        ("Steadfast", "Steadfast units ignore the Combat Score modifier. They reroll failed"
         " Break Tests while they stand in a forest or a ruin."),
        ("Quickstep", "Models with Quickstep roll an additional D6 for their Charge Range"
         " and discard the lowest result."),
    ):  # fmt: skip
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 20)
        pdf.cell(0, 12, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", "", 11)
        pdf.multi_cell(0, 6, body, align="L")
    pdf.output(str(path))


def test_a_pdf_gives_text_by_page_with_headings_from_font_size(tmp_path):
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    two_page_pdf(corpus / "drops" / "d" / "book.pdf")
    out = tmp_path / "out"
    build(corpus, out)
    found = [(s["kind"], s["page"], " ".join(s["raw"].split())) for s in segments(out)]
    assert found == [
        ("heading", 1, "# Steadfast"),
        (
            "paragraph",
            1,
            "Steadfast units ignore the Combat Score modifier. They reroll failed Break Tests"
            " while they stand in a forest or a ruin.",
        ),
        ("heading", 2, "# Quickstep"),
        (
            "paragraph",
            2,
            "Models with Quickstep roll an additional D6 for their Charge Range and discard"
            " the lowest result.",
        ),
    ]
    quickstep = rules(out)["quickstep"]
    source = quickstep["texts"]["en"]["sources"][-1]
    assert (source["file"], source["page"], source["lines"]) == ("book.pdf", 2, [2, 2])


def test_a_pdf_set_in_one_size_has_no_guessed_headings(tmp_path):
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, "Short line.\n\nA longer paragraph of rules text follows here.")
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    pdf.output(str(corpus / "drops" / "d" / "flat.pdf"))
    out = tmp_path / "out"
    build(corpus, out)
    assert {s["kind"] for s in segments(out)} == {"paragraph"}


@pytest.mark.parametrize("encoding", ["cp1251", "koi8_r"])
def test_legacy_russian_encodings_are_read_and_named_in_the_manifest(tmp_path, encoding):
    corpus = make_corpus(tmp_path / "c", {"strakh.txt": RU.encode(encoding)})
    out = tmp_path / "out"
    build(corpus, out)
    assert [s["raw"] for s in segments(out)] == [p.strip() for p in RU.split("\n\n")]
    assert {s["lang"] for s in segments(out)} == {"ru"}
    (entry,) = manifest(out)["inputs"]
    assert entry["encoding"]["name"] == encoding
    assert entry["encoding"]["confidence"] >= 0.5
    assert entry["encoding"]["language"] == "Russian"


def test_utf8_files_name_no_encoding(tmp_path):
    corpus = make_corpus(tmp_path / "c", {"strakh.txt": RU})
    out = tmp_path / "out"
    build(corpus, out)
    assert "encoding" not in manifest(out)["inputs"][0]


def test_an_encoding_that_cannot_be_told_is_refused_with_the_guesses(tmp_path):
    # Windows-1251 and KOI8-R halves: no one encoding reads the file as Russian
    data = RU.encode("cp1251") + RU.encode("koi8_r")
    corpus = make_corpus(tmp_path / "c", {"mixed.txt": data})
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert_refused(result, r"mixed\.txt:1 \(byte 0\): not UTF-8 .*cannot be told.*cp1251")
    assert not (tmp_path / "out").exists()


def test_a_file_nothing_reads_is_listed_and_the_build_goes_on(tmp_path):
    corpus = make_corpus(
        tmp_path / "c",
        {
            "rules.txt": "Models with Fear cause Fear.\n",
            "book.odt": b"PK\x03\x04 odt",
            "README": "x",
        },
    )
    out = tmp_path / "out"
    build(corpus, out)
    skipped = {s["file"]: s["reason"] for s in manifest(out)["skipped"]}
    assert set(skipped) == {"book.odt", "README"}
    assert skipped["book.odt"].startswith("no reader for '.odt' files")
    assert ".docx" in skipped["book.odt"] and ".pdf" in skipped["book.odt"]
    assert [s["file"] for s in segments(out)] == ["rules.txt"]


def test_exit_2_only_when_nothing_is_readable(tmp_path):
    corpus = make_corpus(tmp_path / "c", {"book.odt": b"PK\x03\x04 odt", "scan.pdf": b""})
    pdf = FPDF()
    pdf.add_page()  # a page with no text: a scan without its text layer
    pdf.output(str(corpus / "drops" / "d" / "scan.pdf"))
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert_refused(result, r"nothing in the corpus is readable text; d/book\.odt: no reader")
    assert "1 more not read" in result.stderr


# glossaries


def check_with(tmp_path: Path, glossary: Path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps(
            {
                "id": "p1",
                "source": "Models with Fear suffer -1 Discipline.",
                "target": "Модели с Ужасом получают -1 к Дисциплине.",
                "source_lang": "en",
                "target_lang": "ru",
            },
            ensure_ascii=False,
        )
        + "\n",
        "utf-8",
    )
    return run_cli(
        "check", "--pairs", str(pairs), "--glossary", str(glossary), "-o", str(tmp_path / "r")
    )


@pytest.mark.parametrize("sep", [",", ";"])
def test_a_csv_glossary_is_read(tmp_path, sep):
    glossary = tmp_path / "terms.csv"
    glossary.write_text(f'en{sep}ru\nFear{sep}"Страх"\n', "utf-8")
    result = check_with(tmp_path, glossary)
    assert result.returncode == 0, result.stderr
    found = json.loads((tmp_path / "r" / "checks.json").read_text("utf-8"))
    # the term's approved rendering is missing from the translation: the glossary was read
    messages = [f["message"] for f in found["findings"] if f["check"] == "glossary"]
    assert len(messages) == 1 and "'Fear'" in messages[0] and "'Страх'" in messages[0]


def test_a_csv_glossary_that_cannot_be_read_says_use_a_tab_separated_file(tmp_path):
    glossary = tmp_path / "terms.csv"
    glossary.write_text("en ru\nFear Страх\n", "utf-8")
    result = check_with(tmp_path, glossary)
    assert_refused(result, r"terms\.csv:1: .*use a tab-separated file")


def test_drop_yaml_still_reads_beside_a_docx(tmp_path):
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    word_document(corpus / "drops" / "d" / "book.docx")
    (corpus / "drops" / "d" / "drop.yaml").write_text(yaml.safe_dump({"name": "book"}))
    out = tmp_path / "out"
    build(corpus, out)
    assert manifest(out)["skipped"] == []
