"""PDF rulebooks: text by page, with the page in each block's provenance.

Read with pdfminer.six's layout analysis, which groups characters into lines and lines
into text boxes in reading order. Text boxes are joined into paragraphs as a page layout
is read in text.py: over a page break when a sentence goes on, past the page furniture
(running headers and page numbers, told by their place on the pages), which is left out.
A block is on the page it starts on (`page`; its `lines` counted on that page, the last
one on the page it ends on). Headings are told from font size where the document lets
it be told: the size most of the text is set in is the body size, and a short box set
clearly larger (by HEADING_RATIO) is a heading, the largest size level 1, written with
Markdown marks (`## Charges`) so that sections nest as in a Markdown file; in a document
set in one size no heading is guessed. Bold characters become `[b]..[/b]`.

Hostile files are refused before the layout is read: a page tree that states more than
MAX_PAGES pages (or walks past them), a compressed stream that expands past
MAX_STREAM_BYTES (a PDF zip bomb), an object that refers to itself through references
(pdfminer would follow it forever), a page tree so deep that walking it recurses without
end. A PDF with no text layer (scanned pages)
gives no block, and the build lists it as not read.
"""

from __future__ import annotations

import io
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..errors import InputError
from ..model import Block
from . import reader
from .text import goes_on

MAX_PAGES = 5000  # a rulebook has hundreds
MAX_STREAM_BYTES = 64 * 1024 * 1024  # one stream, uncompressed
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # every stream, uncompressed
HEADING_RATIO = 1.15  # a heading's size over the body size
MAX_HEADING_CHARS = 120


def _refuse(name: str, why: str) -> InputError:
    return InputError(name, f"PDF refused: {why}")


_COUNT = re.compile(rb"/Count\s+(\d{1,12})")


def _check_count(name: str, data: bytes) -> None:
    """Refuse a page tree that states more than MAX_PAGES pages, before it is parsed (its
    parsing alone takes minutes at a million pages)."""
    for m in _COUNT.finditer(data):
        if int(m.group(1)) > MAX_PAGES:
            raise _refuse(name, f"its page tree states {int(m.group(1))} pages (limit {MAX_PAGES})")


def _check_objects(name: str, document: Any) -> None:
    """No object is a chain of references that loops (pdfminer would follow it forever),
    and every Flate stream expands within the limits (checked with a bounded inflater
    before pdfminer inflates any of it whole)."""
    from pdfminer.pdftypes import LITERALS_FLATE_DECODE, PDFObjRef, PDFStream

    total = 0
    seen: set[int] = set()
    for xref in document.xrefs:
        for objid in xref.get_objids():
            if objid in seen:
                continue
            seen.add(objid)
            try:
                obj = document.getobj(objid)
                chain = {objid}
                while isinstance(obj, PDFObjRef):
                    if obj.objid in chain:
                        raise _refuse(name, f"object {objid} refers to itself (a reference loop)")
                    chain.add(obj.objid)
                    obj = document.getobj(obj.objid)
            except InputError:
                raise
            except Exception:  # a broken object: pdfminer reports it when it reads it
                continue
            if not isinstance(obj, PDFStream):
                continue
            filters = obj.get_filters()
            if not filters or filters[0][0] not in LITERALS_FLATE_DECODE:
                continue
            inflater = zlib.decompressobj()
            try:
                out = inflater.decompress(obj.rawdata or b"", MAX_STREAM_BYTES + 1)
            except zlib.error:
                continue
            if len(out) > MAX_STREAM_BYTES:
                raise _refuse(
                    name,
                    f"stream {objid} expands past {MAX_STREAM_BYTES} bytes (a compression bomb)",
                )
            total += len(out)
            if total > MAX_TOTAL_BYTES:
                raise _refuse(name, f"its streams expand past {MAX_TOTAL_BYTES} bytes in all")


def _pages(name: str, data: bytes) -> Iterator[Any]:
    """The laid-out pages (pdfminer LTPage), after the file is checked."""
    from pdfminer.layout import LAParams
    from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser, PDFSyntaxError
    from pdfminer.psexceptions import PSException

    _check_count(name, data)
    try:
        document = PDFDocument(PDFParser(io.BytesIO(data)))
        _check_objects(name, document)
        pages = list(_first_pages(name, PDFPage.create_pages(document)))
    except PDFPasswordIncorrect:
        raise _refuse(name, "it is encrypted") from None
    except (PDFSyntaxError, PSException, ValueError, KeyError, TypeError) as exc:
        raise InputError(name, f"not a readable PDF: {exc}") from None
    except RecursionError:
        raise _refuse(name, "its page tree nests or loops without end") from None
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager

    manager = PDFResourceManager()
    device = PDFPageAggregator(manager, laparams=LAParams())
    interpreter = PDFPageInterpreter(manager, device)
    for page in pages:
        try:
            interpreter.process_page(page)
        except RecursionError:
            raise _refuse(name, "a page's content nests without end") from None
        except (PSException, ValueError, KeyError, TypeError) as exc:
            raise InputError(name, f"not a readable PDF: {exc}") from None
        yield device.get_result()


def _first_pages(name: str, pages: Iterator[Any]) -> Iterator[Any]:
    for n, page in enumerate(pages, start=1):
        if n > MAX_PAGES:
            raise _refuse(name, f"more than {MAX_PAGES} pages")
        yield page


def _line_text(line: Any) -> tuple[str, float]:
    """A text line with its bold runs as [b]..[/b], spaces collapsed, and the font size
    most of its characters are set in."""
    from pdfminer.layout import LTChar

    out: list[str] = []
    sizes: Counter[float] = Counter()
    bold = False
    for item in line:
        text = item.get_text().replace("\n", " ")
        is_bold = isinstance(item, LTChar) and "bold" in (item.fontname or "").lower()
        if text.strip():
            if isinstance(item, LTChar):
                sizes[round(item.size, 1)] += 1
            if is_bold != bold:
                out.append("[b]" if is_bold else "[/b]")
                bold = is_bold
        out.append(text)
    if bold:
        out.append("[/b]")
    text = " ".join("".join(out).split()).replace(" [/b]", "[/b] ").replace("[b] ", " [b]")
    return text.strip(), (sizes.most_common(1)[0][0] if sizes else 0.0)


_Line = tuple[int, int, int, str, float]  # page, line on the page, box, text, size
_Box = tuple[float, float, list[tuple[str, float]]]  # bottom, top, its lines (text, size)

MAX_FURNITURE_LINES = 2  # a running header's box: a title and a page number
MAX_EDGE_BOXES = 2  # furniture boxes at a page's top, or at its bottom: a header and a number
MIN_REPEATS = 2  # pages a box is repeated on, at the same place, to be a running header
_NUMBER = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^\d{1,4}$")


def _boxes(name: str, data: bytes) -> list[list[_Box]]:
    """Per page, its text boxes in reading order (top to bottom, then left to right), each
    with its place on the page and its text lines."""
    from pdfminer.layout import LTTextBox

    pages: list[list[_Box]] = []
    for page in _pages(name, data):
        boxes = sorted((b for b in page if isinstance(b, LTTextBox)), key=lambda b: (-b.y1, b.x0))
        found = []
        for box in boxes:
            lines = [_line_text(line) for line in box]
            found.append((box.y0, box.y1, [x for x in lines if x[0]]))
        pages.append(found)
    return pages


def _place(box: _Box) -> tuple[str, int]:
    """What a running header keeps from page to page: its words, numbers read as one
    (the page number changes), and its height on the page."""
    text = " ".join(t for t, _ in box[2]).replace("[b]", "").replace("[/b]", "")
    return _NUMBER.sub("#", " ".join(text.split())), round(box[1])


def _furniture(pages: list[list[_Box]]) -> set[tuple[int, int]]:
    """(page, box) of the page furniture: the boxes at the top or the bottom of a page
    (MAX_EDGE_BOXES at most, none but furniture above or below them) of one or two short
    lines that are repeated at the same place on MIN_REPEATS pages or more (a running
    header, a page number in its corner), or that are only a number (a page number on a
    page of its own). A line repeated in the middle of its pages, or a number there (a
    table's value), is text."""
    seen: Counter[tuple[str, int]] = Counter()
    for boxes in pages:
        seen.update({_place(b) for b in boxes if b[2]})

    def shaped(box: _Box) -> bool:
        lines = box[2]
        if not lines or len(lines) > MAX_FURNITURE_LINES:
            return False
        if sum(len(t) for t, _ in lines) > MAX_HEADING_CHARS:
            return False
        whole = " ".join(t for t, _ in lines)
        return seen[_place(box)] >= MIN_REPEATS or _PAGE_NUMBER.match(whole) is not None

    out: set[tuple[int, int]] = set()
    for page_no, boxes in enumerate(pages, start=1):
        for order in (range(len(boxes)), range(len(boxes) - 1, -1, -1)):
            for box_no in list(order)[:MAX_EDGE_BOXES]:
                if not shaped(boxes[box_no]):
                    break
                out.add((page_no, box_no))
    return out


def _lines(name: str, data: bytes) -> list[_Line]:
    """Every text line of the document in reading order: page by page, box by box (top to
    bottom, then left to right), line by line; page furniture (`_furniture`) left out, its
    lines still counted on its page."""
    pages = _boxes(name, data)
    furniture = _furniture(pages)
    found: list[_Line] = []
    for page_no, boxes in enumerate(pages, start=1):
        line_no = 0
        for box_no, (_, _, lines) in enumerate(boxes):
            for text, size in lines:
                line_no += 1
                if (page_no, box_no) not in furniture:
                    found.append((page_no, line_no, box_no, text, size))
    return found


_SENTENCE_END = (".", "!", "?", ":", "…", ")", "»", '"', "”")
_BOLD_TAG = re.compile(r"\[/?b\]")


def _goes_on(last: _Line, line: _Line) -> bool:
    """Whether a paragraph whose last line is `last` goes on at `line`: in the next box of
    its page unless `last` ends a sentence; on the next page, at its first line that is
    not page furniture, when `last` ends mid-sentence as a page's layout is read in text
    (`text.goes_on`)."""
    if last[0] == line[0]:
        return last[2] == line[2] or not last[3].endswith(_SENTENCE_END)
    return line[0] == last[0] + 1 and goes_on(
        _BOLD_TAG.sub("", last[3]), _BOLD_TAG.sub("", line[3])
    )


@reader(".pdf")
def read_pdf(name: str, data: bytes) -> list[Block]:
    """Blocks of a PDF, page by page in reading order: a heading line alone, body lines
    joined into paragraphs (`_goes_on`: into the next box of its page, or over a page
    break mid-sentence), page furniture left out. A paragraph that goes on over a page
    break is on the page it starts on; its last line is counted on the page it ends on."""
    lines = _lines(name, data)
    if not lines:
        return []
    body: Counter[float] = Counter()
    for *_, text, size in lines:
        body[size] += len(text)
    body_size = body.most_common(1)[0][0]
    larger = sorted({x[4] for x in lines if x[4] >= body_size * HEADING_RATIO}, reverse=True)
    blocks: list[Block] = []
    run: list[_Line] = []

    def close() -> None:
        if run:
            text = "\n".join(x[3] for x in run)
            blocks.append(Block("paragraph", text, (run[0][1], run[-1][1]), page=run[0][0]))
            run.clear()

    for line in lines:
        page_no, line_no, _, text, size = line
        if size in larger and len(text) <= MAX_HEADING_CHARS:
            close()
            level = min(larger.index(size) + 1, 6)
            plain = text.replace("[b]", "").replace("[/b]", "")
            blocks.append(Block("heading", f"{'#' * level} {plain}", (line_no,) * 2, page=page_no))
            continue
        if run and not _goes_on(run[-1], line):
            close()
        run.append(line)
    close()
    return blocks
