"""Which script each letter is written in, and words that mix Cyrillic and Latin.

A text copied out of a PDF, or typed on two keyboards, writes "Бoевом" with a Latin "o":
it reads the same to a person and not to a lemmatiser, a term matcher or a spell checker.
The checks report such words (pipeline/check/script.py); the readers of terms read them
in the script of the rest of the word (`unmix`). One table, `homoglyphs.yaml`, serves both.
"""

from __future__ import annotations

import re
from functools import cache

from .service import shared

LETTERS = r"[^\W\d_]"
CYRILLIC_RANGE = "\u0400-\u04ff"
_MIXED = re.compile(
    rf"{LETTERS}*?(?:[A-Za-z]{LETTERS}*?[{CYRILLIC_RANGE}]|[{CYRILLIC_RANGE}]{LETTERS}*?[A-Za-z])"
    rf"{LETTERS}*"
)
_SEAM = re.compile(f"[A-Za-z][{CYRILLIC_RANGE}]|[{CYRILLIC_RANGE}][A-Za-z]")
ANY_LATIN = re.compile(r"[A-Za-z]")
ANY_CYRILLIC = re.compile(f"[{CYRILLIC_RANGE}]")


def is_cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def is_latin(ch: str) -> bool:
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("\u00c0" <= ch <= "\u024f")


@cache
def homoglyphs() -> dict[str, str]:
    """Cyrillic letter -> the Latin letter it looks like."""
    table = shared("homoglyphs").get("cyrillic_to_latin") or {}
    return {str(k): str(v) for k, v in table.items()}


@cache
def latin_to_cyrillic() -> dict[str, str]:
    return {v: k for k, v in homoglyphs().items()}


def mixed_words(text: str) -> list[re.Match[str]]:
    """Words that mix the scripts. Such a word has a Latin letter next to a Cyrillic one, so
    one fast search for that seam rules out almost every text."""
    if not _SEAM.search(text):
        return []
    return list(_MIXED.finditer(text))


def swapped(word: str, to: str) -> str | None:
    """`word` with its letters of the other script swapped for their look-alikes in `to`
    ("cyrl" or "latn"), or None if one has none."""
    table = homoglyphs() if to == "latn" else latin_to_cyrillic()
    odd = is_cyrillic if to == "latn" else is_latin
    out = []
    for ch in word:
        if odd(ch):
            if ch not in table:
                return None
            out.append(table[ch])
        else:
            out.append(ch)
    return "".join(out)


def unmix(text: str) -> str:
    """`text` with each mixed-script word written in its majority script (same length), so
    that "Mодель" still counts as the term "модель" and "Бoевом" is read as a Russian word."""
    if not (ANY_LATIN.search(text) and ANY_CYRILLIC.search(text)):
        return text
    out = text
    for m in mixed_words(text):
        word = m.group()
        cyr = sum(1 for ch in word if is_cyrillic(ch))
        fixed = swapped(word, "cyrl" if cyr * 2 >= len(word) else "latn")
        if fixed is not None:
            out = out[: m.start()] + fixed + out[m.end() :]
    return out
