"""Words hyphenated across a line break, as text pasted from a page layout has them.

A hyphen that ends a line between two letters is either the layout's, cutting one word
("со-\\nперника", "charg-\\ning"), or the word's own ("кто-\\nто", "из-\\nза",
"Stand-\\nand-Shoot"). Which one is told by dictionaries, not by a list of words: the
hyphenated form is a word (pymorphy3 knows "кто-то"), else the joined form is a word
("соперника"), else both halves are words of their own (a compound: "to-hit", "well-known")
and the hyphen stays; two pieces that are no words are one word cut ("Несокру-\\nшимость").
Russian is looked up in pymorphy3's dictionary, English in pyspellchecker's word list (the
spaCy vocabulary has no lexicon); a word in another script is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache


@cache
def _english_words() -> Callable[[str], bool]:
    """Whether a lower-case word is in the English word list (frequency above 0)."""
    from spellchecker import SpellChecker

    words = SpellChecker(language="en", distance=1).word_frequency
    return lambda w: words[w] > 0


def _russian_known(word: str) -> bool:
    from ..lang.words import morph

    return bool(morph().word_is_known(word))


def _script(text: str) -> str | None:
    """The language whose dictionary reads `text`: Cyrillic letters Russian, Latin ones
    English; None for other scripts or a mixture."""
    if all("\u0400" <= c <= "\u04ff" for c in text):
        return "ru"
    if all(c.isascii() for c in text):
        return "en"
    return None


@lru_cache(maxsize=4096)
def keeps_hyphen(left: str, right: str) -> bool | None:
    """Whether "left-" at a line's end and "right" on the next line are one word written
    with a hyphen (True), one word the layout cut (False), or in a script with no
    dictionary here (None: left as it is)."""
    lang = _script(left + right)
    if lang is None:
        return None
    known = _russian_known if lang == "ru" else _english_words()
    low_left, low_right = left.lower(), right.lower()
    if known(f"{low_left}-{low_right}"):
        return True
    if known(low_left + low_right):
        return False
    return known(low_left) and known(low_right)
