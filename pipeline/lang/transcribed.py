"""English words written in another alphabet: "чардж" is Charge, "стедфаст" Steadfast.

Translators and players often keep an English rule name by writing it in their own letters
instead of translating it. Such a word says the English word as surely as one kept in Latin
letters, so alignment reads both as one sound skeleton (`<code>/transcription.yaml`): the
consonants of the word as coarse classes (b and p one class, d, t and th another, g and j
and "дж" another ...), letters of one class side by side read once, vowels left out but
for a word's first letter. The rule of a match:

- a written word is a candidate only where the language's dictionary does not know it and
  it has a vowel: "стол" and "марш" are words of the language whatever English they sound
  like, "БСБ" is initials;
- its key is the skeleton of its stem without the inflection the language added
  ("чарджат" is "чардж"), never of the inflected word: "флаем" (Fly, instrumental) is
  "фла", too short, not the "flm" of Flaming;
- an English word answers to its own skeleton, its stem's without an English inflection
  ("charged" is "charg"), and every beginning of its skeleton of `min_prefix_classes` (4)
  or more: "регенер" is Regeneration written short;
- a key needs `min_classes` (3) consonant classes: "флай" and Fly share f and l with many
  words, and three that begin a longer word match by chance ("виверна" and Frenzied).

Alignment (`pipeline/align/sounds.py`) reads so the core vocabulary's English words in a
foreign text ("армор" for Armour), as the vocabulary word itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .service import data, lemmatised

SOUND = "~"  # the prefix of a skeleton key, which no word kept in Latin letters has
_VOWEL = "a"


@dataclass(frozen=True, slots=True)
class _Spelling:
    """How one side writes sounds: rewrites applied in order, then a table of letters."""

    rewrites: tuple[tuple[re.Pattern[str], str], ...]
    letters: dict[str, str]

    def skeleton(self, word: str) -> str:
        """The word's classes, lower case: its first vowel kept, other vowels dropped,
        runs of one class read once ("steadfast" and "стедфаст" are both "stfst")."""
        text = word.lower()
        for pattern, replacement in self.rewrites:
            text = pattern.sub(replacement, text)
        out: list[str] = []
        last = ""
        for ch in text:
            sound = ch if ch.isupper() else self.letters.get(ch, "")
            for cls in sound:
                if cls != last and (cls != _VOWEL or not out):
                    out.append(cls)
                last = cls
        return "".join(out).lower()


@dataclass(frozen=True, slots=True)
class _Tables:
    foreign: _Spelling
    english: _Spelling
    alphabet: frozenset[str]  # the letters of a written word (any other: not one)
    foreign_ending: re.Pattern[str] | None
    english_ending: re.Pattern[str] | None
    min_classes: int
    min_prefix_classes: int


def _spelling(raw: dict[str, Any]) -> _Spelling:
    return _Spelling(
        rewrites=tuple((re.compile(p), str(r)) for p, r in raw.get("rewrites") or ()),
        letters={str(k): str(v) for k, v in (raw.get("letters") or {}).items()},
    )


def _ending(raw: dict[str, Any]) -> re.Pattern[str] | None:
    return re.compile(raw["ending"]) if raw.get("ending") else None


@cache
def _tables(lang: str) -> _Tables | None:
    raw = data(lang, "transcription", fallback=False)
    if not raw or lang not in lemmatised():  # a written word is one the dictionary lacks
        return None
    foreign = _spelling(raw["cyrillic"])
    letters = set(foreign.letters)
    for pattern, _ in foreign.rewrites:  # letters only rewritten: "ь", "ц"
        letters.update(c for c in pattern.pattern if c.isalpha())
    min_classes = int(raw.get("min_classes", 3))
    return _Tables(
        foreign=foreign,
        english=_spelling(raw["english"]),
        alphabet=frozenset(letters | {c.upper() for c in letters}),
        foreign_ending=_ending(raw["cyrillic"]),
        english_ending=_ending(raw["english"]),
        min_classes=min_classes,
        min_prefix_classes=int(raw.get("min_prefix_classes", min_classes)),
    )


def _classes(skeleton: str) -> int:
    return len(skeleton) - skeleton.startswith(_VOWEL)


def _known(word: str) -> bool:
    from .words import morph

    try:
        return bool(morph().word_is_known(word))
    except ValueError:  # a letter with no Unicode name
        return True


def _forms(word: str, ending: re.Pattern[str] | None) -> list[str]:
    """The word's stem without an inflection, then the word (one of them if the same)."""
    stem = ending.sub("", word) if ending is not None else word
    return [stem, word] if stem and stem != word else [word]


@lru_cache(maxsize=65_536)
def written_keys(word: str, lang: str) -> tuple[str, ...]:
    """The key of the English word a word of `lang` may write (a tuple, empty for a word
    the dictionary knows, one of other letters or without a vowel, or a skeleton too
    short to tell)."""
    tables = _tables(lang)
    if tables is None or not set(word) <= tables.alphabet:
        return ()
    low = word.lower()
    if not any(tables.foreign.letters.get(c) == _VOWEL for c in low) or _known(low):
        return ()
    skeleton = tables.foreign.skeleton(_forms(low, tables.foreign_ending)[0])
    return (SOUND + skeleton,) if _classes(skeleton) >= tables.min_classes else ()


@lru_cache(maxsize=65_536)
def spelled_keys(word: str, lang: str, prefixes: bool = True) -> tuple[str, ...]:
    """The keys an English word answers to in `lang`'s letters: its skeleton, its stem's,
    and (`prefixes`) each beginning of its skeleton long enough ("charging": "crg",
    "crgn", "crgng")."""
    tables = _tables(lang)
    if tables is None:
        return ()
    low = word.lower()
    found: set[str] = set()
    for form in _forms(low, tables.english_ending):
        skeleton = tables.english.skeleton(form)
        if _classes(skeleton) >= tables.min_classes:
            found.add(skeleton)
    whole = tables.english.skeleton(low)
    shortest = tables.min_prefix_classes + whole.startswith(_VOWEL)
    for end in range(shortest, len(whole)) if prefixes else ():
        found.add(whole[:end])
    return tuple(sorted(SOUND + s for s in found))


def transcribes(lang: str) -> bool:
    """Whether `lang` has English words written in its letters to read."""
    return _tables(lang) is not None
