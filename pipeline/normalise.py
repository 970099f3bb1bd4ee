"""Normalisation for matching: NFC, folded quotes and inch glyphs, single spaces.

The raw text is never replaced; `normalise_with_map` also returns, for every
character of the normalised text, the offset in the raw text it came from, so
spans found on normalised text can be shown on the raw text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .model import Span

# One place for the glyph folds. Inch marks only count as such right after a digit.
QUOTE_FOLD = {
    "\u201c": '"',  # “
    "\u201d": '"',  # ”
    "\u201e": '"',  # „
    "\u201f": '"',  # ‟
    "\u00ab": '"',  # «
    "\u00bb": '"',  # »
    "\u2018": "'",  # ‘
    "\u2019": "'",  # ’
    "\u201a": "'",  # ‚
    "\u201b": "'",  # ‛
}
INCH_AFTER_DIGIT = ("''", "\u2032\u2032", "\u2033", '"', "\u201d")  # '' ′′ ″ " ”
_DOUBLED = {g[0] for g in INCH_AFTER_DIGIT if len(g) == 2}  # a mark written twice
_SINGLE = {g for g in INCH_AFTER_DIGIT if len(g) == 1}
DIGITS_AND_FRACTIONS = set("0123456789½¼¾⅓⅔")


def _clusters(raw: str, skip: list[Span]) -> Iterable[tuple[int, str]]:
    """Yield (raw offset, NFC text) per base character with its combining marks."""
    skip = sorted(skip)
    k = 0
    i = 0
    n = len(raw)
    while i < n:
        while k < len(skip) and skip[k][1] <= i:
            k += 1
        if k < len(skip) and skip[k][0] <= i < skip[k][1]:
            i = skip[k][1]
            continue
        j = i + 1
        while j < n and unicodedata.combining(raw[j]) and not raw[i].isspace():
            j += 1
        yield i, unicodedata.normalize("NFC", raw[i:j])
        i = j


def normalise_with_map(raw: str, remove: Iterable[Span] = ()) -> tuple[str, list[int]]:
    """Return the normalised text and, per character, its offset in `raw`.

    `remove` lists raw spans left out (markup tags, asides). The map has one extra
    entry at the end, the raw length, so that an end offset can be mapped too.
    """
    out: list[str] = []
    offsets: list[int] = []
    pending_space = -1
    chars = [
        (pos, "".join(QUOTE_FOLD.get(c, c) for c in piece))
        for pos, piece in _clusters(raw, list(remove))
    ]
    idx = 0
    while idx < len(chars):
        pos, piece = chars[idx]
        idx += 1
        if piece.isspace():
            if out and pending_space < 0:
                pending_space = pos
            continue
        if out and out[-1] in DIGITS_AND_FRACTIONS and pending_space < 0:
            # The mark itself folds; combining marks on it stay, as in `normalise`.
            nxt_pos, nxt = chars[idx] if idx < len(chars) else (pos, "")
            if piece in _DOUBLED and nxt[:1] == piece:  # '' or ′′
                out.append('"')
                offsets.append(pos)
                out.extend(nxt[1:])
                offsets.extend([nxt_pos] * (len(nxt) - 1))
                idx += 1
                continue
            if piece[0] in _SINGLE:
                out.append('"')
                offsets.append(pos)
                out.extend(piece[1:])
                offsets.extend([pos] * (len(piece) - 1))
                continue
        if pending_space >= 0:
            out.append(" ")
            offsets.append(pending_space)
            pending_space = -1
        for ch in piece:
            out.append(ch)
            offsets.append(pos)
    offsets.append(len(raw))
    return "".join(out), offsets


_QUOTE_TABLE = str.maketrans(QUOTE_FOLD)
_INCH = re.compile(r"(?<=[0-9½¼¾⅓⅔])(?:''|\u2032\u2032|[\u2033\"])")


def normalise(raw: str, remove: Iterable[Span] = ()) -> str:
    """The text of `normalise_with_map`, computed with whole-string operations (fast path)."""
    spans = sorted(remove)
    if spans:
        pieces, at = [], 0
        for start, end in spans:
            if start > at:
                pieces.append(raw[at:start])
            at = max(at, end)
        pieces.append(raw[at:])
        raw = "".join(pieces)
    text = unicodedata.normalize("NFC", raw).translate(_QUOTE_TABLE)
    return " ".join(_INCH.sub('"', text).split())


def to_raw_span(offsets: list[int], start: int, end: int) -> Span:
    """Map a span of normalised text back to the raw text."""
    if end <= start:
        return offsets[start], offsets[start]
    return offsets[start], offsets[end - 1] + 1
