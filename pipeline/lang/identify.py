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


_WORD = re.compile(r"[^\W\d_]+")


def mixed_language(text: str) -> str | None:
    """The language of `alphabets` a text written in its alphabet and in another one
    ("Monster с 6 или больше Health Points делает D6 Stomp Attacks") is written in, else
    None (the detector decides). A draft that keeps the rules' English terms is in the
    language whose function words carry its grammar (a mixed sentence's "matrix
    language"): the detector, counting letters, calls such a draft English. The alphabet's
    language wins with `mixed_words` function words or more and `mixed_lead` times as many
    as any other candidate has (spaCy's stop words), so an English rule with a Russian
    gloss in brackets ("Vanguard (Авангард): models ...") stays the detector's."""
    for lang, own_letter, other_letter in _scripts():
        if own_letter.search(text) is None or other_letter.search(text) is None:
            continue
        least, lead, stop = _function_words()
        words = [w.casefold() for w in _WORD.findall(text)]
        count = {code: sum(w in s for w in words) for code, s in stop.items()}
        own = count.pop(lang, 0)
        if own >= least and own >= lead * max(count.values(), default=0):
            return lang
    return None


@cache
def _scripts() -> tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]:
    """Per alphabet of a candidate: its language, and patterns finding one of its letters
    and a letter of another alphabet."""
    return tuple(
        (
            lang,
            re.compile(f"[{re.escape(''.join(letters))}]"),
            re.compile(f"[^{re.escape(''.join(letters))}\\W\\d_]"),
        )
        for lang, letters, _other in _alphabets()
    )


@cache
def _function_words() -> tuple[int, float, dict[str, frozenset[str]]]:
    """`mixed_language`'s thresholds and every candidate's function words."""
    data = shared("languages")
    stop = {c: _stop_words(c) for c in data["languages"]}
    return int(data["mixed_words"]), float(data["mixed_lead"]), stop


def _stop_words(lang: str) -> frozenset[str]:
    """spaCy's stop words of a language, read from their data module alone: importing a
    language's pipeline to get them costs seconds (French's alone 2 s; spaCy itself 0.6),
    and a build that meets one mixed text would pay it for seven languages. Empty for a
    language spaCy has none for."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("spacy")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    path = Path(spec.submodule_search_locations[0]) / "lang" / lang / "stop_words.py"
    if not path.is_file():
        return frozenset()
    module_spec = importlib.util.spec_from_file_location(f"_stop_words_{lang}", path)
    if module_spec is None or module_spec.loader is None:
        return frozenset()
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return frozenset(getattr(module, "STOP_WORDS", ()))
