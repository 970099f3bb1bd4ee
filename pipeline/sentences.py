"""Sentence spans: one splitter for every stage that reads sentences (effects, alignment,
checks, diff), so a sentence means the same thing in each of them."""

from __future__ import annotations

import re

Span = tuple[int, int]

# Sentence-final punctuation, closing quotes or brackets, then space and a capital, a
# digit, a bracket, a quote or a dash.
_SENTENCE_END = re.compile(r"[.!?…]+[\"»”')\]]*(?=\s+[\"«“(\[•+]?[A-ZА-ЯЁ0-9\-–])")
# An abbreviation's full stop ends no sentence ("e.g. Flying Movement", "т. е.").
#: What ends a sentence at the end of a line or text, and the closing marks it may stand in.
FULL_STOP = tuple(".!?…")
CLOSERS = ')»"”’]'


def ends_sentence(text: str) -> bool:
    """Whether `text` ends a sentence: a full stop, perhaps inside closing marks ("...».")."""
    return text.rstrip().rstrip(CLOSERS).endswith(FULL_STOP)


# "п. 4.2.1", "пп. 4.2.1 и 4.3.1": a section cited in a numbered document.
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|см|т\.е|т\.к|т\.д|т\.п|напр|стр|пп?|p)\.?)$", re.I)


# The last text split and its spans: extraction splits each paragraph three times (for its
# name, its bearer's sentences and its effects), the same string object each time.
_LAST: list[object] = [None, 0, 0, ()]


def sentences(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """Sentence spans of `text[start:end]`, without leading or trailing space."""
    end = len(text) if end is None else end
    if _LAST[0] is text and _LAST[1] == start and _LAST[2] == end:
        return list(_LAST[3])  # type: ignore[call-overload]
    out = _split(text, start, end)
    _LAST[:] = [text, start, end, tuple(out)]
    return out


# A hand typing fast in a messenger writes no capitals: a text that opens with a lower-case
# letter ends a sentence also at a full stop after a word of five letters or more (longer
# than the abbreviations "прим.", "напр.", "табл.") and before a lower-case letter.
_LOWER_END = re.compile(r"(?<=[^\W\d_]{5})[.!?…]+(?=\s+[a-zа-яё])")
_FIRST = re.compile(r"\S")


def _ends(text: str, start: int, end: int) -> list[re.Match[str]]:
    """The sentence ends of `text[start:end]`, those `_LOWER_END` finds too in a text
    opening in lower case ("маунты в вызове: ... скакуна. атаки ...")."""
    ends = list(_SENTENCE_END.finditer(text, start, end))
    first = _FIRST.search(text)
    if first is not None and first.group().islower():
        ends.extend(_LOWER_END.finditer(text, start, end))
        ends.sort(key=lambda m: m.start())
    return ends


def _split(text: str, start: int, end: int) -> list[Span]:
    spans: list[Span] = []
    at = start
    for m in _ends(text, start, end):
        if _ABBREV.search(text, max(at, m.start() - 6), m.end()):
            continue
        spans.append((at, m.end()))
        at = m.end()
    spans.append((at, end))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return out
