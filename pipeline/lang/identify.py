"""The language identifier (lingua's n-gram models), built on first use only, its models
loaded as texts need them: lingua rules out the candidates a text's letters exclude before
it loads any model (a Latin text never loads Russian), and reads a long text (a few hundred
letters, such as a BattleScribe file's sample) by its trigrams alone, so a corpus of long
texts loads those models only, in a tenth of a second instead of the seconds that loading
every model of every candidate takes. The models, and so every answer, are the same."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import TYPE_CHECKING

from .service import shared

if TYPE_CHECKING:
    from lingua import LanguageDetector


@cache
def detector() -> LanguageDetector:
    """A detector over the candidate languages of `languages.yaml`."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    codes = shared("languages")["languages"]
    langs = [Language.from_iso_code_639_1(getattr(IsoCode639_1, c.upper())) for c in codes]
    return LanguageDetectorBuilder.from_languages(*langs).build()


def min_letters() -> int:
    """Fewer letters than this carry too little evidence to tell a language."""
    return int(shared("languages")["min_letters"])


_NEUTRAL = frozenset("PSZ")  # Unicode categories of punctuation, symbols and spaces
_BREAKS = frozenset("\t\n\v\f\r")


def neutral(c: str) -> bool:
    """Punctuation, a symbol or a space that belongs to no script: those of the Latin,
    Greek and Cyrillic blocks and of General Punctuation to Miscellaneous Symbols and Arrows
    (the detector reads the marks of other scripts, such as CJK or Devanagari, as theirs)."""
    o = ord(c)
    return (o < 0x900 or 0x2000 <= o < 0x2C00) and unicodedata.category(c)[0] in _NEUTRAL


@cache
def _alphabets() -> tuple[tuple[str, frozenset[str], re.Pattern[str]], ...]:
    """Per alphabet of a candidate: its language, its letters, and a pattern finding a
    word character that is not one of them (a letter of another alphabet, a digit)."""
    data = shared("languages")
    candidates = set(data["languages"])
    out = []
    for lang, letters in (data.get("alphabets") or {}).items():
        if lang in candidates:
            other = re.compile(f"[^{re.escape(str(letters))}\\W_]")
            out.append((str(lang), frozenset(str(letters)), other))
    return tuple(out)


def alphabet_language(text: str) -> str | None:
    """The language of `alphabets` whose letters are every letter of `text` (the rest
    punctuation, symbols and spaces), else None: the detector gives such a text that
    language with confidence 1.0, and is not asked."""
    for lang, letters, other in _alphabets():
        if other.search(text) is not None:
            continue  # most texts: at their first word
        chars = set(text)
        if not chars.isdisjoint(letters) and all(
            c in _BREAKS or neutral(c) for c in chars - letters
        ):
            return lang
    return None
