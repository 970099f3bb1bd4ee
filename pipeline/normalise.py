"""Normalisation for matching: NFC, folded quotes, ligatures and inch glyphs, single spaces,
HTML character references read (`&#8243;` is ″), a tag that ends a line (`<br>`) a space.

NFC keeps a typesetter's ligatures ("ﬁ"); they read as their letters (their NFKC, "fi"),
which NFKC of the whole text would not leave alone elsewhere ("½", "²", full-width forms).

The raw text is never replaced; `normalise_with_map` also returns, for every
character of the normalised text, the offset in the raw text it came from, so
spans found on normalised text can be shown on the raw text.
"""

from __future__ import annotations

import html
import html.entities
import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from .bbcode import ends_line
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
# The Latin ligatures of Unicode's alphabetic presentation forms, as their letters.
LIGATURE_FOLD = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFB00, 0xFB07)}
GLYPH_FOLD = {**QUOTE_FOLD, **LIGATURE_FOLD}
INCH_AFTER_DIGIT = ("''", "\u2032\u2032", "\u2033", '"', "\u201d")  # '' ′′ ″ " ”
_DOUBLED = {g[0] for g in INCH_AFTER_DIGIT if len(g) == 2}  # a mark written twice
_SINGLE = {g for g in INCH_AFTER_DIGIT if len(g) == 1}
DIGITS_AND_FRACTIONS = set("0123456789½¼¾⅓⅔")


def _kept(raw: str, remove: Iterable[Span]) -> tuple[str, list[int]]:
    """`raw` without the `remove` spans, and the raw offset of each character kept: what
    `normalise` composes is the kept text, so a combining mark after a removed tag joins
    the letter before the tag on both paths."""
    spans = sorted(remove)
    if not spans:
        return decode_references(raw, list(range(len(raw))))
    pieces: list[str] = []
    where: list[int] = []
    at = 0
    for start, end in [*spans, (len(raw), len(raw))]:
        if start > at:
            pieces.append(raw[at:start])
            where.extend(range(at, start))
        if breaks_line(raw, start, end):
            pieces.append("\n")
            where.append(start)
        at = max(at, end)
    return decode_references("".join(pieces), where)


_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _referenced(m: re.Match[str]) -> str:
    """The characters a reference stands for (Python's `html` module: `&#8243;`, `&#x2033;`,
    `&nbsp;`); an unknown name (`&foo;`) stands for itself."""
    ref = m.group()
    if ref[1] == "#":
        return html.unescape(ref)
    return html.entities.html5.get(ref[1:], ref)


def decode_references(text: str, where: list[int] | None = None) -> tuple[str, list[int]]:
    """`text` with its HTML character references read as the characters they stand for,
    and `where` (a raw offset per character) with each decoded character at its
    reference's. Only a reference closed by `;` is one: "AT&T" and "&copy" in a word stay."""
    if "&" not in text:
        return text, where if where is not None else []
    out: list[str] = []
    offsets: list[int] = []
    at = 0
    for m in _REFERENCE.finditer(text):
        chars = _referenced(m)
        out.append(text[at : m.start()] + chars)
        if where is not None:
            offsets.extend(where[at : m.start()])
            offsets.extend([where[m.start()]] * len(chars))
        at = m.end()
    out.append(text[at:])
    if where is not None:
        offsets.extend(where[at:])
    return "".join(out), offsets


def breaks_line(raw: str, start: int, end: int) -> bool:
    """Whether a span left out is a tag that ends a line (`bbcode.ends_line`)."""
    return raw[start : start + 1] == "<" and ends_line(raw[start:end])


# Characters of combining class 0 that NFC composes with the character before them (the
# second code point of a canonical pair, per Unicode 14, Python 3.11's database; a test
# checks this against `unicodedata`): Hangul vowel and final jamo, and the vowel and length
# marks of Bengali, Oriya, Tamil, Kannada, Malayalam, Sinhala, Tibetan, Myanmar, Balinese,
# Chakma, Grantha, Tirhuta, Siddham and Dives Akuru.
COMPOSES_AFTER = frozenset(
    [chr(c) for c in range(0x1161, 0x1176)]
    + [chr(c) for c in range(0x11A8, 0x11C3)]
    + [
        chr(c)
        for c in (
            0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5,
            0x0CD6, 0x0D3E, 0x0D57, 0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35,
            0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA, 0x114BD, 0x115AF, 0x11930,
        )
    ]
)  # fmt: skip


@cache
def _join_kind(ch: str) -> int:
    """0: never part of what comes before; 1: always (a combining mark, or a character
    whose decomposition starts with one, which canonical ordering can move backwards:
    Tibetan U+0F73); 2: when it composes with it."""
    if unicodedata.combining(ch) or unicodedata.combining(unicodedata.normalize("NFD", ch)[0]):
        return 1
    return 2 if ch in COMPOSES_AFTER else 0


def _joins(cluster: str, ch: str) -> bool:
    """Whether NFC makes `ch` part of the stretch `cluster` before it."""
    if ord(ch) < 0x300:  # nothing below U+0300 combines or composes with what precedes
        return False
    kind = _join_kind(ch)
    if kind < 2:
        return bool(kind)
    nfc = unicodedata.normalize
    return nfc("NFC", cluster + ch) != nfc("NFC", cluster) + nfc("NFC", ch)


def _clusters(raw: str, skip: list[Span]) -> Iterable[tuple[int, str]]:
    """Yield (raw offset, NFC text) per stretch that NFC treats as one: a base character
    with its combining marks, or the jamo or vowel signs it composes with. White space
    takes no marks (`normalise` splits there). Cut only where NFC of the whole equals the
    NFC of the pieces, so that the pieces joined are `normalise`'s text."""
    kept, where = _kept(raw, skip)
    i = 0
    n = len(kept)
    while i < n:
        j = i + 1
        if not kept[i].isspace():
            while j < n and not kept[j].isspace() and _joins(kept[i:j], kept[j]):
                j += 1
        yield where[i], unicodedata.normalize("NFC", kept[i:j])
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
        (pos, "".join(GLYPH_FOLD.get(c, c) for c in piece))
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


_QUOTE_TABLE = str.maketrans(GLYPH_FOLD)
_QUOTE = re.compile(f"[{''.join(GLYPH_FOLD)}]")  # told first: most texts have none to fold
_INCH = re.compile(r"(?<=[0-9½¼¾⅓⅔])(?:''|\u2032\u2032|[\u2033\"])")


def normalise(raw: str, remove: Iterable[Span] = ()) -> str:
    """The text of `normalise_with_map`, computed with whole-string operations (fast path)."""
    spans = sorted(remove)
    if spans:
        pieces, at = [], 0
        for start, end in spans:
            if start > at:
                pieces.append(raw[at:start])
            if breaks_line(raw, start, end):
                pieces.append("\n")
            at = max(at, end)
        pieces.append(raw[at:])
        raw = "".join(pieces)
    raw = decode_references(raw)[0]
    text = unicodedata.normalize("NFC", raw)
    if _QUOTE.search(text):
        text = text.translate(_QUOTE_TABLE)
    return " ".join(_INCH.sub('"', text).split())


def to_raw_span(offsets: list[int], start: int, end: int) -> Span:
    """Map a span of normalised text back to the raw text."""
    if end <= start:
        return offsets[start], offsets[start]
    return offsets[start], offsets[end - 1] + 1


def to_input_span(raw: str, offsets: list[int], start: int, end: int) -> Span:
    """`to_raw_span`, the end carried past the marks and jamo that NFC joined to the last
    character (`e` + U+0301 is one character of normalised text, two of the raw), and past
    the rest of a character reference (`″` is `&#8243;` in the raw)."""
    a, b = to_raw_span(offsets, start, end)
    if end > start:
        limit = offsets[end] if end < len(offsets) else len(raw)
        while b < min(limit, len(raw)) and ord(raw[b]) >= 0x300 and _join_kind(raw[b]):
            b += 1
        if raw[b - 1 : b] == "&":  # a reference read as its character: the whole of it
            m = _REFERENCE.match(raw, b - 1)
            if m is not None and _referenced(m) != m.group():
                b = m.end()
    return a, b
