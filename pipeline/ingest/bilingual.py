"""A translator's bilingual working file: each sentence of the translation follows the
source sentence it renders, on the line before or before a " / ".

Such a paragraph is one block of the translation. Its source sentences are the
translator's copy of the English text, not text of the translation and not a source of
their own: they are set apart as asides (`SOURCE_COPY`), kept in the raw text and the
hash, left out of the text that is matched, detected and checked.

The layout decides, not the words: the block is cut into pieces at line breaks, at " / "
and at sentence ends, each piece told by its script (Latin, the English master's; Cyrillic
or a Cyrillic sentence that keeps English terms, the translation's), runs of one script
joined into halves. The halves must alternate, source first, every half must end a
sentence, and each pair must read as a sentence and its translation: lengths within
`MAX_RATIO` of each other, the numbers of one among the other's ("two 6s" may be "две
шестёрки"). A Russian paragraph that quotes an English term or sentence, or keeps English
terms inside its sentences, has no such pairs and is read as before.
"""

from __future__ import annotations

import re

from ..lang import mixed_language
from ..lang.scripts import ANY_CYRILLIC, is_cyrillic, is_latin
from ..sentences import ends_sentence

SOURCE_COPY = "source-copy"
MAX_RATIO = 2.0  # the longer half of a pair at most twice the shorter (in letters)
_CUT = re.compile(r"\r?\n|[ \t]+/[ \t]+|(?<=[.!?…])[ \t]+(?=[\"«“(]?[^\W\d_])")
_NUMBER = re.compile(r"\d+")

Span = tuple[int, int]


def _script(piece: str) -> str:
    """A piece's script: "latn" with no Cyrillic letter; "cyrl" with Cyrillic letters the
    majority, or a Russian sentence that keeps English terms (`mixed_language`); else
    "mixed", which pairs with nothing."""
    cyrillic = sum(1 for c in piece if is_cyrillic(c))
    if not cyrillic:
        return "latn"
    latin = sum(1 for c in piece if is_latin(c))
    if cyrillic >= latin or mixed_language(piece) == "ru":
        return "cyrl"
    return "mixed"


def _halves(raw: str) -> list[tuple[str, int, int]]:
    """The block cut into runs of one script: (script, start, end), pieces of letters only."""
    out: list[tuple[str, int, int]] = []
    at = 0
    for m in [*_CUT.finditer(raw), None]:
        end = m.start() if m else len(raw)
        piece = raw[at:end]
        stripped = piece.strip()
        if stripped:
            start = at + len(piece) - len(piece.lstrip())
            stop = start + len(stripped)
            if not any(c.isalpha() for c in stripped):
                return []  # a piece with no letters ("—", "12"): no sentence of either half
            script = _script(stripped)
            if out and out[-1][0] == script:
                out[-1] = (script, out[-1][1], stop)
            else:
                out.append((script, start, stop))
        at = m.end() if m else len(raw)
    return out


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def _a_pair(source: str, target: str) -> bool:
    """A sentence and its translation: both end a sentence, lengths within MAX_RATIO,
    the numbers of one among the other's."""
    for half in (source, target):
        if not ends_sentence(half):
            return False
    a, b = _letters(source), _letters(target)
    if max(a, b) > MAX_RATIO * min(a, b):
        return False
    ours, theirs = set(_NUMBER.findall(source)), set(_NUMBER.findall(target))
    return ours <= theirs or theirs <= ours


def source_copies(raw: str) -> list[Span]:
    """Raw spans of the source sentences of a bilingual paragraph, each with the separator
    after it (" / ", a line break) up to its translation; [] when the block is not one
    (the halves do not alternate source, translation, or a pair is no pair)."""
    if raw.isascii():  # most English blocks
        return []
    lead = next((c for c in raw if c.isalpha()), "")
    if not is_latin(lead) or ANY_CYRILLIC.search(raw) is None:
        return []  # most Russian blocks open with a Cyrillic letter: no source sentence
    halves = _halves(raw)
    if len(halves) < 2 or len(halves) % 2:
        return []
    spans: list[Span] = []
    for (first, s0, e0), (second, s1, e1) in zip(halves[::2], halves[1::2], strict=True):
        if first != "latn" or second != "cyrl" or not _a_pair(raw[s0:e0], raw[s1:e1]):
            return []
        spans.append((s0, s1))
    return spans


def is_bilingual(lines: list[str]) -> bool:
    """Whether lines (with their line ends) are one bilingual paragraph: two or more lines
    whose halves are pairs (`source_copies`)."""
    return len(lines) > 1 and bool(source_copies("".join(lines).rstrip("\r\n")))
