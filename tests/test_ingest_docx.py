"""Word files as teams send them: a review with Track Changes on, sent with its changes not
yet accepted, and text inside hyperlinks, smart tags, content controls and simple fields.
Every file is written by the test (python-docx, then lxml for the elements python-docx
does not write), with our own words."""

from __future__ import annotations

import io
import json
import zipfile

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from pipeline.ingest.docx import read_docx
from pipeline.model import Block

from .conftest import run_cli
from .helpers.outputs import make_corpus

W = nsdecls("w")
LINK = nsdecls("w", "r")
MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'
MATH = 'xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"'
WHEN = "2026-03-12T21:14:00Z"


def _run(text: str, bold: bool = False, tag: str = "w:t") -> str:
    props = "<w:rPr><w:b/></w:rPr>" if bold else ""
    return f'<w:r>{props}<{tag} xml:space="preserve">{text}</{tag}></w:r>'


def _ins(inner: str, n: int = 1) -> str:
    return f'<w:ins w:id="{n}" w:author="Оля" w:date="{WHEN}">{inner}</w:ins>'


def _del(text: str, n: int = 2) -> str:
    return f'<w:del w:id="{n}" w:author="Оля" w:date="{WHEN}">{_run(text, tag="w:delText")}</w:del>'


def _paragraph(document, inner: str, style: str | None = None):
    """A paragraph of `inner` WordprocessingML, appended to the body."""
    p = document.add_paragraph(style=style)
    for child in parse_xml(f"<w:p {LINK}>{inner}</w:p>"):
        p._p.append(child)
    return p


def reviewed_document() -> bytes:
    """A Russian rule reviewed with Track Changes on, sent with the changes pending."""
    d = docx.Document()
    d.add_heading("Боевой клич", level=2)
    # "Отряд получает " + inserted "+1 к силе" + deleted "+2 к силе" + "."
    _paragraph(d, _run("Отряд получает ") + _ins(_run("+1 к силе")) + _del("+2 к силе") + _run("."))
    # a bold term split by a hyperlink: the link's run is bold too
    _paragraph(
        d,
        _run("Модели с правилом ")
        + _run("Страх ", bold=True)
        + f'<w:hyperlink r:id="rIdX" w:history="1">{_run("(см. 7.4)", bold=True)}</w:hyperlink>'
        + _run(" проходят тест."),
    )
    # a smart tag, a content control and a simple field, all inline
    _paragraph(
        d,
        _run("Дистанция ")
        + f'<w:smartTag w:uri="urn:x" w:element="metricconverter">{_run("6″")}</w:smartTag>'
        + _run(", страница ")
        + f'<w:fldSimple w:instr=" PAGE ">{_run("45")}</w:fldSimple>'
        + _run(", отряд ")
        + f"<w:sdt><w:sdtPr/><w:sdtContent>{_run('Рыцари')}</w:sdtContent></w:sdt>"
        + _run("."),
    )
    # a paragraph the review deleted whole
    _paragraph(d, _del("Старое правило удалено.", 3))
    buffer = io.BytesIO()
    d.save(buffer)
    return buffer.getvalue()


def _save(d) -> bytes:
    buffer = io.BytesIO()
    d.save(buffer)
    return buffer.getvalue()


def read(data: bytes) -> list[Block]:
    return read_docx("review.docx", data)


def test_a_review_reads_as_its_changes_accepted():
    blocks = read(reviewed_document())
    assert [(b.kind, b.raw, b.lines) for b in blocks] == [
        ("heading", "## Боевой клич", (1, 1)),
        # the insertion is in, the deletion out: before, "Отряд получает ." was read
        ("paragraph", "Отряд получает +1 к силе.", (2, 2)),
        # bold kept across the hyperlink: one [b] over the run before it and the link's run
        ("paragraph", "Модели с правилом [b]Страх (см. 7.4)[/b] проходят тест.", (3, 3)),
        ("paragraph", "Дистанция 6″, страница 45, отряд Рыцари.", (4, 4)),
    ]  # the paragraph the review deleted whole gives no block
    assert not any("+2" in b.raw or "Старое" in b.raw for b in blocks)
    assert blocks[0].extra["left_out"] == (
        "tracked changes read as accepted: 1 insertion read, 2 deletions (32 characters) left out"
    )


def _row_deleted(row) -> None:
    row._tr.get_or_add_trPr().append(
        parse_xml(f'<w:del {W} w:id="9" w:author="Оля" w:date="{WHEN}"/>')
    )


def test_a_tables_cells_read_nested_runs_and_leave_deleted_rows_out():
    d = docx.Document()
    table = d.add_table(rows=3, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "D6", "Result"
    table.cell(1, 0).text = "1"
    cell = table.cell(1, 1).paragraphs[0]._p
    for child in parse_xml(
        f"<w:p {LINK}>{_run('The model ')}{_ins(_run('flees'))}{_del('falls')}"
        f'<w:hyperlink r:id="rIdX">{_run(" (see Panic)")}</w:hyperlink>{_run(".")}</w:p>'
    ):
        cell.append(child)
    table.cell(2, 0).text, table.cell(2, 1).text = "2-6", "Nothing happens."
    _row_deleted(table.rows[2])
    blocks = read(_save(d))
    assert [(b.kind, b.rows, b.lines) for b in blocks] == [
        ("table", (("D6", "Result"), ("1", "The model flees (see Panic).")), (1, 3))
    ]
    assert blocks[0].extra["left_out"] == (
        "tracked changes read as accepted: 1 insertion read, 1 deletion (5 characters)"
        " left out, 1 table row deleted, left out"
    )


def test_content_controls_around_paragraphs_are_read_and_prompts_are_not():
    d = docx.Document()
    d.add_paragraph("Fear")
    body = d.element.body
    sdt = parse_xml(
        f"<w:sdt {W}><w:sdtPr><w:alias w:val='Rule text'/></w:sdtPr><w:sdtContent>"
        f"<w:p>{_run('Units in contact suffer -1 Discipline.')}</w:p>"
        f"<w:p>{_run('Models with Fear ignore it.')}</w:p></w:sdtContent></w:sdt>"
    )
    prompt = parse_xml(
        f"<w:sdt {W}><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent>"
        f"<w:p>{_run('Click or tap here to enter text.')}</w:p></w:sdtContent></w:sdt>"
    )
    body.sectPr.addprevious(sdt)
    body.sectPr.addprevious(prompt)
    blocks = read(_save(d))
    assert [b.raw for b in blocks] == [
        "Fear",
        "Units in contact suffer -1 Discipline.",
        "Models with Fear ignore it.",
    ]  # before, python-docx's body gave "Fear" alone
    assert [b.lines for b in blocks] == [(1, 1), (2, 2), (3, 3)]
    assert "left_out" not in blocks[0].extra  # nothing tracked, nothing left out


def test_a_deleted_paragraph_mark_joins_the_paragraph_to_the_next():
    d = docx.Document()
    first = d.add_paragraph("Models with Dread suffer -2 Discipline")
    mark = f'<w:rPr {W}><w:del w:id="5" w:author="Оля" w:date="{WHEN}"/></w:rPr>'
    first._p.get_or_add_pPr().append(parse_xml(mark))
    d.add_paragraph(" while they are Engaged.")
    d.add_paragraph("Roll once.")
    blocks = read(_save(d))
    assert [(b.raw, b.lines) for b in blocks] == [
        ("Models with Dread suffer -2 Discipline while they are Engaged.", (1, 2)),
        ("Roll once.", (3, 3)),
    ]
    assert blocks[0].extra["left_out"] == (
        "tracked changes read as accepted: 1 paragraph joined to the next (mark deleted)"
    )


def test_a_move_reads_at_its_new_place_only():
    d = docx.Document()
    _paragraph(
        d,
        f'<w:moveFrom w:id="1" w:author="A" w:date="{WHEN}">{_run("first ")}'
        f"</w:moveFrom>{_run('Roll a D6 ')}"
        f'<w:moveTo w:id="2" w:author="A" w:date="{WHEN}">{_run("first")}'
        f"</w:moveTo>{_run('.')}",
    )
    blocks = read(_save(d))
    assert [b.raw for b in blocks] == ["Roll a D6 first."]
    assert "1 insertion read, 1 deletion (6 characters) left out" in blocks[0].extra["left_out"]


def test_comments_and_notes_are_counted_as_not_read():
    d = docx.Document()
    p = d.add_paragraph("Models with Fear suffer -1 Discipline.")
    d.add_comment(p.runs, text="Should this be -2?", author="Оля")
    data = _save(d)
    notes = (
        f'<w:footnotes {W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/>'
        f'</w:r></w:p></w:footnote><w:footnote w:id="1"><w:p>{_run("See page 45.")}</w:p>'
        "</w:footnote></w:footnotes>"
    ).encode()
    data = _with_part(data, "word/footnotes.xml", notes)
    blocks = read(data)
    assert [b.raw for b in blocks] == ["Models with Fear suffer -1 Discipline."]
    assert blocks[0].extra["left_out"] == "1 comment, 1 footnote or endnote not read"


def _with_part(data: bytes, name: str, body: bytes) -> bytes:
    """The archive with one more member (not linked from the document: only counted)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        dst.writestr(name, body)
    return out.getvalue()


def test_the_build_says_a_file_was_read_with_its_changes_accepted(tmp_path):
    corpus = make_corpus(tmp_path / "c", {"review.docx": reviewed_document()})
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out))
    assert result.returncode == 0, result.stderr
    notice = (
        "tracked changes read as accepted: 1 insertion read, 2 deletions (32 characters) left out"
    )
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["skipped"] == [{"drop": "d", "file": "review.docx", "reason": notice}]
    assert manifest["inputs"][0]["segments"] == 4  # the file is read, its deletions are not
    assert f"  skipped    d/review.docx: {notice}" in result.stdout.splitlines()
    with (out / "segments.jsonl").open(encoding="utf-8") as fh:
        texts = [json.loads(line)["text"] for line in fh]
    assert "Отряд получает +1 к силе." in texts


def test_text_boxes_and_equations_are_counted_as_not_read():
    d = docx.Document()
    box = f"<w:txbxContent><w:p>{_run('Reminder: roll twice.')}</w:p></w:txbxContent>"
    math = "<m:oMath><m:r><m:t>x+1</m:t></m:r></m:oMath>"
    _paragraph(
        d,
        _run("Roll a D6. ")
        # Word writes a text box twice: as a drawing, and as the fallback for older readers
        + f"<w:r><mc:AlternateContent {MC}><mc:Choice Requires='wps'><w:drawing>{box}"
        f"</w:drawing></mc:Choice><mc:Fallback><w:pict>{box}</w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r>" + f"<m:oMathPara {MATH}>{math}</m:oMathPara>",
    )
    blocks = read(_save(d))
    assert [b.raw for b in blocks] == ["Roll a D6."]
    assert blocks[0].extra["left_out"] == "1 text box, 1 equation not read"
