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

A block's lines are its place in the body: each paragraph one line, each table row one.
"""

from __future__ import annotations

import io
import re
from typing import Any

from ..errors import InputError
from ..model import Block, SegmentKind
from ..xmlsafe import check_prolog, read_zip
from . import reader
from .text import is_bold_heading

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


def _paragraph(paragraph: Any) -> tuple[SegmentKind, str] | None:
    raw = _merge_tags("".join(_run_text(r) for r in paragraph.runs)).strip()
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


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _table(table: Any) -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in table.rows:
        cells = tuple(_cell(c.text) for c in row.cells)
        if any(cells):
            rows.append(cells)
    return tuple(rows)


def _checked(name: str, data: bytes) -> None:
    """Refuse a hostile archive before python-docx opens it."""
    for member in read_zip(name, data, max_members=MAX_DOCX_MEMBERS):
        if member.name.lower().endswith((".xml", ".rels")):
            check_prolog(f"{name}:{member.name}", member.data)


@reader(".docx")
def read_docx(name: str, data: bytes) -> list[Block]:
    """Blocks of a Word document's body, in reading order."""
    _checked(name, data)
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError) as exc:
        raise InputError(name, f"not a Word document (.docx): {exc}") from None
    blocks: list[Block] = []
    line = 0
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            rows = _table(item)
            if rows:
                raw = "\n".join("| " + " | ".join(r) + " |" for r in rows)
                blocks.append(Block("table", raw, (line + 1, line + len(rows)), rows=rows))
            line += len(item.rows)
            continue
        line += 1
        found = _paragraph(item)
        if found is not None:
            blocks.append(Block(found[0], found[1], (line, line)))
    return blocks
