"""Text helpers shared by the checks: scripts, words and sentences with their spans."""

from __future__ import annotations

import re
from functools import lru_cache

from .model import Span

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?…]+[\"»”')\]]*(?=\s+[\"«“(\[]?[A-ZА-ЯЁ0-9\-–])")
BBCODE_TAG = re.compile(r"\[/?[A-Za-z]{1,10}(?:=[^\]\n]{0,200})?\]")
_ABBREV = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|см|т\.е|т\.к|т\.д|т\.п|напр|стр|p)\.?)$", re.I)


def is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def is_latin(ch: str) -> bool:
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("\u00c0" <= ch <= "\u024f")


def script_of(text: str) -> str:
    """ "cyrl" when Cyrillic letters outnumber Latin ones, else "latn"."""
    cyr = sum(1 for ch in text if is_cyrillic(ch))
    lat = sum(1 for ch in text if is_latin(ch))
    return "cyrl" if cyr > lat else "latn"


def mask_tags(text: str) -> str:
    """BBCode tags blanked with spaces, so offsets stay those of the raw text."""
    if "[" not in text:
        return text
    return BBCODE_TAG.sub(lambda m: " " * len(m.group()), text)


@lru_cache(maxsize=4096)
def sentences(text: str) -> tuple[Span, ...]:
    """Sentence spans (leading/trailing space excluded); abbreviations do not end a sentence."""
    spans: list[Span] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if _ABBREV.search(text, max(start, m.start() - 6), m.end()):
            continue
        spans.append((start, m.end()))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
    return tuple(out)


def words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in WORD.finditer(text)]
