"""Word documents (.docx), as translators send them: paragraphs, headings, lists, tables.

Read with python-docx after the archive is checked as every zip is (size, ratio, members,
encryption: xmlsafe.read_zip) and each XML part for entity declarations and DTDs, so a
hostile file is refused before any part is parsed. The body is read in order:

- a paragraph in a heading style (`Heading 1` ... `Heading 9`, `Title`) is a heading,
  written with Markdown marks for its level (`## Charges`) so that sections nest as in a
  Markdown file; a paragraph that is only a bold label is a heading too, as in text files;
- a paragraph in a list style, or numbered by Word, is a list item;
- other paragraphs are paragraphs; bold, italic and underlined runs become BBCode
  (`[b]..[/b]`), the markup the rest of the pipeline reads;
- a table is one table block: its rows as cells, its raw text a pipe table.

A paragraph's runs are read wherever Word nests them (python-docx's `runs` are only the
paragraph's own children): in tracked insertions, hyperlinks, smart tags, content controls
and simple fields, as the file reads with its tracked changes accepted (`wordml.py`).
A block's lines are its place in the body: each paragraph one line, each table row one.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from typing import Any

from ..errors import InputError
from ..model import Block, SegmentKind
from ..xmlsafe import check_prolog, read_zip
from . import reader
from .text import is_bold_heading
from .wordml import (
    COMMENTS,
    NOTES,
    Changes,
    blocks_of,
    count_part,
    count_unread,
    deleted_mark,
    row_deleted,
    runs,
)

MAX_DOCX_MEMBERS = 2000
_HEADING_STYLE = re.compile(r"(?:heading|заголовок|titolo)\s*([1-9])", re.I)
_LIST_STYLE = re.compile(r"list|спис", re.I)
_MARKS = (("bold", "b"), ("italic", "i"), ("underline", "u"))


def _run_text(run: Any) -> str:
    """A run's text wrapped in the BBCode of its bold, italic and underline."""
    text = run.text
    if not text.strip():
        return text
    for attr, tag in _MARKS:
        if getattr(run, attr):
            text = f"[{tag}]{text}[/{tag}]"
    return text


def _merge_tags(text: str) -> str:
    """`[b]a[/b][b]b[/b]` -> `[b]ab[/b]`: Word splits runs where nothing visible changes."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"\[/(b|i|u)\](\s*)\[\1\]", r"\2", text)
    return text


def _paragraph_text(paragraph: Any, changes: Changes, marks: bool = True) -> str:
    """A paragraph's text as it reads with its changes accepted, with BBCode if `marks`."""
    from docx.text.run import Run

    found = (Run(r, paragraph) for r in runs(paragraph._p, changes))
    if not marks:
        return "".join(r.text for r in found)
    return "".join(_run_text(r) for r in found)


def _paragraph(paragraph: Any, raw: str) -> tuple[SegmentKind, str] | None:
    raw = _merge_tags(raw).strip()
    if not raw:
        return None
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    m = _HEADING_STYLE.search(style)
    if m or style.lower() == "title":
        level = int(m.group(1)) if m else 1
        plain = re.sub(r"\[/?[biu]\]", "", raw)
        return "heading", f"{'#' * min(level, 6)} {plain}"
    numbered = paragraph._p.pPr is not None and paragraph._p.pPr.numPr is not None
    if _LIST_STYLE.search(style) or numbered:
        return "list-item", raw
    if is_bold_heading(raw):
        return "heading", raw
    return "paragraph", raw


def _cell(cell: Any, changes: Changes) -> str:
    """A cell's plain text: its paragraphs, also those in content controls and tables in it."""
    from docx.text.paragraph import Paragraph

    texts = []
    for item in blocks_of(cell._tc, changes, deep=True):
        texts.append(_paragraph_text(Paragraph(item, cell), changes, marks=False))
    return " ".join(" ".join(texts).split()).replace("|", "\\|")


def _table(table: Any, changes: Changes) -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in table.rows:
        if row_deleted(row._tr, changes):
            continue
        cells = tuple(_cell(c, changes) for c in row.cells)
        if any(cells):
            rows.append(cells)
    return tuple(rows)


def _checked(name: str, data: bytes) -> Changes:
    """Refuse a hostile archive before python-docx opens it; count its comments and notes."""
    changes = Changes()
    for member in read_zip(name, data, max_members=MAX_DOCX_MEMBERS):
        if member.name.lower().endswith((".xml", ".rels")):
            check_prolog(f"{name}:{member.name}", member.data)
        where = f"{name}:{member.name}"
        if member.name == COMMENTS:
            changes.comments = count_part(where, member.data, "comment")
        elif member.name in NOTES:
            changes.notes += count_part(where, member.data, member.name[5:-5].rstrip("s"))
    return changes


@reader(".docx")
def read_docx(name: str, data: bytes) -> list[Block]:
    """Blocks of a Word document's body, in reading order, its tracked changes accepted."""
    changes = _checked(name, data)
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError) as exc:
        raise InputError(name, f"not a Word document (.docx): {exc}") from None
    body = document._body
    count_unread(body._element, changes)
    blocks: list[Block] = []
    line = 0
    # a paragraph whose mark a tracked change deleted joins the next: its text waits here
    joined, first = "", 0

    def close(paragraph: Any) -> None:
        nonlocal joined
        found = _paragraph(paragraph, joined)
        if found is not None:
            blocks.append(Block(found[0], found[1], (first, line)))
        joined = ""

    last = None
    for element in blocks_of(body._element, changes):
        if element.tag.endswith("}tbl"):
            if joined:
                close(last)
            item = Table(element, body)
            rows = _table(item, changes)
            if rows:
                raw = "\n".join("| " + " | ".join(r) + " |" for r in rows)
                span = (line + 1, line + len(item.rows))  # all its rows, deleted or empty too
                blocks.append(Block("table", raw, span, rows=rows))
            line += len(item.rows)
            continue
        line += 1
        last = Paragraph(element, body)
        if not joined:
            first = line
        joined += _paragraph_text(last, changes)
        if not deleted_mark(element, changes):
            close(last)
    if joined:
        close(last)
    if blocks and (notice := changes.notice()):
        blocks[0] = replace(blocks[0], extra={**blocks[0].extra, "left_out": notice})
    return blocks
