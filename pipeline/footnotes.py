"""A translator's footnotes in a paragraph: notes after the text, each opening with the
mark its reference carries in the text. Both the alignment (`pipeline/align/anchors.py`
`note_spans`) and the quantity reader (a reference's mark is no part of the number it
touches: "2D6* дюймов" is 2D6″) read them here."""

from __future__ import annotations

import re

Span = tuple[int, int]

FOOTNOTE_MARKS = "¹²³⁴⁵⁶⁷⁸⁹†‡"
_MARK_CHARS = f"[*{FOOTNOTE_MARKS}"


# A footnote written after the text, on a line of its own or after a sentence's end (the
# reader joins a paragraph's lines with a space): it opens with a mark ("¹", "[1]", "*")
# that the text before it carries attached to a word or number ("слово¹", "слово[1]",
# "2D6*"); "2*3" (a digit or letter after the "*") carries no mark.
_OPENING_MARK = re.compile(
    f"(\\s+)([{FOOTNOTE_MARKS}]+|\\[\\d{{1,2}}\\]|\\*{{1,3}}(?=\\s))\\s*(?=\\S)"
)
_BEFORE_FOOTNOTE = f".!?;…»)]*{FOOTNOTE_MARKS}"


def _reference(text: str, mark: str, end: int) -> list[Span]:
    """Where `text[:end]` carries `mark` attached to the word or number before it (the
    mark's own span, no part of that word or number); empty if nowhere."""
    found = []
    for m in re.finditer(re.escape(mark), text[:end]):
        a, b = m.span()
        if a == 0 or text[a - 1].isspace() or text[a - 1] in "*[":
            continue
        if b < end and (text[b].isalnum() or text[b] in "*]"):  # "2*3", "**", "[12]"
            continue
        found.append((a, b))
    return found


def carries(text: str, mark: str) -> bool:
    """Whether `text` carries `mark` attached to a word or number: a footnote's reference
    (the reader keeps a line opening with that mark in the paragraph)."""
    return bool(_reference(text, mark, len(text)))


def footnotes(text: str) -> list[Span]:
    """The footnotes of `text`, each opening with its mark, and the marks of their
    references in the text: from the first mark the text before it carries to the
    paragraph's end, every later footnote's mark a reference too."""
    if not any(c in text for c in _MARK_CHARS):  # most texts carry no mark
        return []
    attached: dict[str, list[Span]] = {}  # each mark's references, found once

    def references(mark: str, end: int) -> list[Span]:
        if mark not in attached:
            attached[mark] = _reference(text, mark, len(text))
        return [r for r in attached[mark] if r[1] <= end]

    for m in _OPENING_MARK.finditer(text):
        start = m.start()
        if start == 0 or ("\n" not in m.group(1) and text[start - 1] not in _BEFORE_FOOTNOTE):
            continue
        if refs := references(m.group(2), start):
            marks = {
                r
                for n in _OPENING_MARK.finditer(text, start)
                for r in references(n.group(2), start)
            }
            return [*sorted({*refs, *marks}), (start, len(text))]
    return []


def reference_marks(text: str) -> list[Span]:
    """The marks of the references in `text` that a footnote after it opens with ("[1]"
    in "6″[1]", "*" in "2D6*"): no part of the word or number they touch."""
    return footnotes(text)[:-1]
