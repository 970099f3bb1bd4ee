"""WordprocessingML as a reviewed file reads with its tracked changes accepted.

python-docx gives a paragraph's runs as its own `w:r` children only, and a body's blocks as
its own `w:p` and `w:tbl` children: the text Word nests deeper (a tracked insertion, a
hyperlink, a smart tag, a content control, a simple field's result, a custom XML tag) was
lost without a word. Here runs and blocks are found in document order wherever they are
nested; what a tracked change deleted (`w:del`, `w:moveFrom`) is left out and counted, and so
is what the reader does not read (comments, footnotes, text boxes, equations, imported
parts), so the build can say so (`Changes.notice`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from ..xmlsafe import parse_xml

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
COMMENTS = "word/comments.xml"
NOTES = ("word/footnotes.xml", "word/endnotes.xml")
_R, _P, _TBL, _TR, _TC = f"{_W}r", f"{_W}p", f"{_W}tbl", f"{_W}tr", f"{_W}tc"
_SDT, _SDT_CONTENT = f"{_W}sdt", f"{_W}sdtContent"
_INSERTED = frozenset({f"{_W}ins", f"{_W}moveTo"})
_DELETED = frozenset({f"{_W}del", f"{_W}moveFrom"})
# properties, never text; a content control's are its title, tag and placeholder's name
_PROPERTIES = frozenset(
    {f"{_W}pPr", f"{_W}rPr", f"{_W}sdtPr", f"{_W}sdtEndPr", f"{_W}tblPr", f"{_W}trPr"}
)
# what holds blocks (paragraphs and tables) inside a body or a cell
_BLOCK_HOLDERS = frozenset({_SDT_CONTENT, f"{_W}customXml", f"{_W}ins", f"{_W}moveTo"})
_TEXT = frozenset({f"{_W}t", f"{_W}delText"})
_ALTERNATE, _FALLBACK = f"{_MC}AlternateContent", f"{_MC}Fallback"
_TEXT_BOX, _ALT_CHUNK = f"{_W}txbxContent", f"{_W}altChunk"


@dataclass(slots=True)
class Changes:
    """What a file's tracked changes did to its text, and what of it is not read."""

    inserted: int = 0  # insertions (and moves to) read, holding text
    deleted: int = 0  # deletions (and moves from) left out, holding text
    deleted_chars: int = 0
    joined: int = 0  # paragraphs whose mark was deleted: joined to the next
    rows: int = 0  # table rows deleted
    comments: int = 0
    notes: int = 0  # footnotes and endnotes with text
    text_boxes: int = 0
    equations: int = 0
    imported: int = 0  # altChunk parts (a file imported whole)

    def notice(self) -> str | None:
        """One line for the user, or None when the file held nothing of the kind."""
        tracked = [
            _count(self.inserted, "insertion") + " read" if self.inserted else "",
            _count(self.deleted, "deletion") + f" ({self.deleted_chars} characters) left out"
            if self.deleted
            else "",
            _count(self.joined, "paragraph") + " joined to the next (mark deleted)"
            if self.joined
            else "",
            _count(self.rows, "table row") + " deleted, left out" if self.rows else "",
        ]
        others = [
            _count(self.comments, "comment") if self.comments else "",
            _count(self.notes, "footnote or endnote", "footnotes or endnotes")
            if self.notes
            else "",
            _count(self.text_boxes, "text box", "text boxes") if self.text_boxes else "",
            _count(self.equations, "equation") if self.equations else "",
            _count(self.imported, "imported part (altChunk)", "imported parts (altChunk)")
            if self.imported
            else "",
        ]
        parts = []
        if any(tracked):
            parts.append("tracked changes read as accepted: " + ", ".join(t for t in tracked if t))
        if any(others):
            parts.append(", ".join(o for o in others if o) + " not read")
        return "; ".join(parts) or None


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _text(element: etree._Element) -> str:
    """All the text under an element, deleted text included (to count what is left out)."""
    return "".join(e.text or "" for e in element.iter(*_TEXT))


def _placeholder(sdt: etree._Element) -> bool:
    """A content control still showing its prompt ("Click here to enter text."): no text."""
    props = sdt.find(f"{_W}sdtPr")
    return props is not None and props.find(f"{_W}showingPlcHdr") is not None


def runs(element: etree._Element, changes: Changes) -> Iterator[etree._Element]:
    """The `w:r` of a paragraph (or of anything in one) in document order, wherever they
    are nested, the deleted ones left out and counted. A run's own content (a drawing, a
    text box) is not looked into: a run is read as python-docx reads it."""
    for child in element.iterchildren(tag=etree.Element):
        tag = child.tag
        if tag == _R:
            yield child
        elif tag in _DELETED:
            if text := _text(child):
                changes.deleted += 1
                changes.deleted_chars += len(text)
        elif tag in _PROPERTIES or (tag == _SDT and _placeholder(child)):
            continue
        elif tag == _ALTERNATE:  # the same content twice: the fallback is plain WordprocessingML
            fallback = child.find(_FALLBACK)
            if fallback is not None:
                yield from runs(fallback, changes)
        elif tag in _INSERTED:
            found = list(runs(child, changes))
            if any(_text(r) for r in found):
                changes.inserted += 1
            yield from found
        else:  # w:hyperlink, w:smartTag, w:sdt, w:sdtContent, w:fldSimple, w:customXml ...
            yield from runs(child, changes)


def _marked_deleted(element: etree._Element, props: str) -> bool:
    """Whether the properties `props` of `element` carry a tracked deletion."""
    found = element.find(props)
    return found is not None and any(found.find(t) is not None for t in _DELETED)


def deleted_mark(paragraph: etree._Element, changes: Changes) -> bool:
    """Whether a tracked change deleted the paragraph's mark: accepted, it joins the next."""
    if not _marked_deleted(paragraph, f"{_W}pPr/{_W}rPr"):
        return False
    changes.joined += 1
    return True


def row_deleted(row: etree._Element, changes: Changes) -> bool:
    """Whether a tracked change deleted the table row (counted)."""
    if not _marked_deleted(row, f"{_W}trPr"):
        return False
    changes.rows += 1
    return True


def blocks_of(
    element: etree._Element, changes: Changes, deep: bool = False
) -> Iterator[etree._Element]:
    """The `w:p` and `w:tbl` of a body or a cell in document order, also those inside
    content controls and custom XML tags. `deep`: a table's paragraphs instead of the
    table (a cell read as one text), its deleted rows left out."""
    for child in element.iterchildren(tag=etree.Element):
        tag = child.tag
        if tag == _P:
            yield child
        elif tag == _TBL:
            if not deep:
                yield child
                continue
            for row in child.iterchildren(_TR):
                if not row_deleted(row, changes):
                    for cell in row.iterchildren(_TC):
                        yield from blocks_of(cell, changes, deep)
        elif tag == _SDT:
            if not _placeholder(child):
                yield from blocks_of(child, changes, deep)
        elif tag in _BLOCK_HOLDERS:
            yield from blocks_of(child, changes, deep)
        elif tag == _ALTERNATE:
            fallback = child.find(_FALLBACK)
            if fallback is not None:
                yield from blocks_of(fallback, changes, deep)
        elif tag == _ALT_CHUNK:
            changes.imported += 1


def count_unread(body: etree._Element, changes: Changes) -> None:
    """Count the body's text boxes and equations that hold text (a text box once: Word
    writes it twice, as a drawing and as its fallback)."""
    for box in body.iter(_TEXT_BOX):
        if _text(box).strip() and not any(a.tag == _FALLBACK for a in box.iterancestors()):
            changes.text_boxes += 1
    for math in body.iter(f"{_M}oMath"):
        if any((t.text or "").strip() for t in math.iter(f"{_M}t")) and not any(
            a.tag == f"{_M}oMath" for a in math.iterancestors()
        ):
            changes.equations += 1


def count_part(name: str, data: bytes, what: str) -> int:
    """The entries of a comments or notes part that hold text (a notes part's separators
    hold none)."""
    root = parse_xml(name, data)
    return sum(1 for e in root.iterchildren(f"{_W}{what}") if _text(e).strip())
