"""PDF rulebooks: text by page, with the page in each block's provenance.

Read with pdfminer.six's layout analysis, which groups characters into lines and lines
into text boxes in reading order. Each text box is a block on its page (`page`; its
`lines` counted on that page). Headings are told from font size where the document lets
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


def _lines(name: str, data: bytes) -> list[_Line]:
    """Every text line of the document in reading order: page by page, box by box (top to
    bottom, then left to right), line by line."""
    from pdfminer.layout import LTTextBox

    found: list[_Line] = []
    for page_no, page in enumerate(_pages(name, data), start=1):
        line_no = 0
        boxes = sorted((b for b in page if isinstance(b, LTTextBox)), key=lambda b: (-b.y1, b.x0))
        for box_no, box in enumerate(boxes):
            for line in box:
                text, size = _line_text(line)
                if text:
                    line_no += 1
                    found.append((page_no, line_no, box_no, text, size))
    return found


_SENTENCE_END = (".", "!", "?", ":", "…", ")", "»", '"', "”")


@reader(".pdf")
def read_pdf(name: str, data: bytes) -> list[Block]:
    """Blocks of a PDF, page by page in reading order: a heading line alone, body lines
    joined into paragraphs (a paragraph goes on into the next box of its page unless its
    last line ends a sentence)."""
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
        page_no, line_no, box_no, text, size = line
        if size in larger and len(text) <= MAX_HEADING_CHARS:
            close()
            level = min(larger.index(size) + 1, 6)
            plain = text.replace("[b]", "").replace("[/b]", "")
            blocks.append(Block("heading", f"{'#' * level} {plain}", (line_no,) * 2, page=page_no))
            continue
        if run:
            last = run[-1]
            if last[0] != page_no or (last[2] != box_no and last[3].endswith(_SENTENCE_END)):
                close()
        run.append(line)
    close()
    return blocks
