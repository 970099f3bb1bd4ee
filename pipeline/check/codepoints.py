"""Letters named by their code points: a Cyrillic `Х` and a Latin `X` look the same on any
screen, so a homoglyph finding that only quoted them would read `expected "X" found "X"`."""

from __future__ import annotations

import unicodedata


def name(ch: str) -> str:
    """`Х U+0425 CYRILLIC CAPITAL LETTER HA`: the letter, its code point and its name."""
    return f"{ch} U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED CHARACTER')}"


def swaps(found: str, expected: str | None) -> list[tuple[str, str]]:
    """The letters of `found` that `expected` writes otherwise, as (found, expected) pairs in
    order and without repeats; empty when the two are not the same length."""
    if expected is None or len(found) != len(expected):
        return []
    return list(dict.fromkeys((a, b) for a, b in zip(found, expected, strict=True) if a != b))
