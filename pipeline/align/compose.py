"""Terms composed of the core vocabulary: "Round of Combat" is round + combat, and so is
"раунд боя"; "Shooting Attack" is shooting + attack, and so is "стрелковая атака".

The core vocabulary (lang/lexicon.yaml) pairs everyday words of rules across languages.
A multi-word term whose every word the vocabulary knows, rendered by a phrase whose every
word renders those same words, is a translation on the vocabulary's word, even when it is
seen once. Words are read in any of their dictionary forms ("брони" may be "бронь" or
"броня"), a vocabulary phrase of two words counts as one ("ближний бой"), and the words
that join a term ("of", "на") count for nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache, lru_cache

from ..extract.keywords import core_lexicon
from ..lang import data as lang_data
from ..lang import lemmas, singular

_EN_JOINERS = frozenset({"of", "the", "to", "a", "an", "and"})
MAX_PHRASE = 2  # words of the longest vocabulary phrase read as one


@cache
def english_forms() -> dict[tuple[str, ...], str]:
    """Each English form of the vocabulary, lower case and singular word by word -> term."""
    out: dict[tuple[str, ...], str] = {}
    for term in core_lexicon().terms:
        for form in term.renderings.get("en", ()):
            out.setdefault(tuple(singular(w) for w in form.lower().split()), term.id)
    return out


@cache
def _vocabulary(lang: str) -> tuple[dict[str, frozenset[str]], dict[tuple[str, ...], str]]:
    """The vocabulary's renderings in `lang`: any dictionary form of a one-word rendering
    -> the terms with it; a rendering of several words, by their first readings -> term."""
    readings: dict[str, set[str]] = {}
    phrases: dict[tuple[str, ...], str] = {}
    for term in core_lexicon().terms:
        for form in term.renderings.get(lang, ()):
            words = form.split()
            if len(words) == 1:
                for reading in lemmas(words[0], lang):
                    readings.setdefault(reading, set()).add(term.id)
            elif 1 < len(words) <= MAX_PHRASE:
                phrases.setdefault(tuple(lemmas(w, lang)[0] for w in words), term.id)
    return {k: frozenset(v) for k, v in readings.items()}, phrases


@cache
def _joiners(lang: str) -> frozenset[str]:
    return frozenset(lang_data(lang, "align").get("term_links", ())) | {"и"}


def joining_words(lang: str) -> frozenset[str]:
    """The words that join a term and count for nothing in it, English's and `lang`'s."""
    return _EN_JOINERS | _joiners(lang)


def _english_words(words: tuple[str, ...]) -> list[str]:
    """An English term's content words, lower case and singular ("to-hit" is "hit")."""
    pieces = [p for w in words for p in w.lower().split("-")]
    return [singular(w) for w in pieces if w and w not in _EN_JOINERS]


def _content(words: tuple[str, ...], lang: str) -> list[str]:
    """A foreign phrase's words but those that join a term."""
    joiners = _joiners(lang)
    return [w for w in words if w.lower() not in joiners]


@lru_cache(maxsize=100_000)
def english_parts(words: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The vocabulary terms each content word (or two-word phrase) of an English term may
    be; an empty set for a word the vocabulary does not know."""
    low = _english_words(words)
    table = english_forms()
    parts: list[frozenset[str]] = []
    i = 0
    while i < len(low):
        pair = tuple(low[i : i + 2])
        if len(pair) == 2 and pair in table:
            parts.append(frozenset({table[pair]}))
            i += 2
            continue
        found = table.get((low[i],))
        parts.append(frozenset({found}) if found else frozenset())
        i += 1
    return tuple(parts)


@lru_cache(maxsize=100_000)
def foreign_parts(words: tuple[str, ...], lang: str) -> tuple[frozenset[str], ...]:
    """As `english_parts`, for a phrase of `lang` as written."""
    content = _content(words, lang)
    readings, phrases = _vocabulary(lang)
    parts: list[frozenset[str]] = []
    i = 0
    while i < len(content):
        if i + 1 < len(content):
            pair = (lemmas(content[i], lang)[0], lemmas(content[i + 1], lang)[0])
            if pair in phrases:
                parts.append(frozenset({phrases[pair]}))
                i += 2
                continue
        ids: set[str] = set()
        for reading in lemmas(content[i], lang):
            ids |= readings.get(reading, frozenset())
        parts.append(frozenset(ids))
        i += 1
    return tuple(parts)


def composed(english: tuple[str, ...], foreign: tuple[str, ...], lang: str) -> bool:
    """Whether a term of two or more parts and a phrase are made of the same vocabulary
    terms, every part of each known and each used once."""
    ours, theirs = english_parts(english), foreign_parts(foreign, lang)
    if len(ours) < 2 or len(ours) != len(theirs) or not all(ours) or not all(theirs):
        return False
    wanted = Counter(next(iter(p)) for p in ours if len(p) == 1)
    return sum(wanted.values()) == len(ours) and _left(wanted, theirs) is not None


def _left(wanted: Counter[str], theirs: tuple[frozenset[str], ...]) -> Counter[str] | None:
    """The wanted terms left once each known foreign part takes one it may be (few parts:
    greedily, rarest choice first), or None where a part finds none."""
    left = Counter(wanted)
    for part in sorted((p for p in theirs if p), key=len):
        pick = next((t for t in sorted(part) if left[t] > 0), None)
        if pick is None:
            return None
        left[pick] -= 1
    return left


def _with_induced(
    parts: tuple[frozenset[str], ...], words: list[str], induced: Mapping[str, frozenset[str]]
) -> tuple[frozenset[str], ...]:
    """Parts with what the induced pairs say of each word added (word by word, so only
    where no two words were read as one phrase)."""
    if not induced or len(parts) != len(words):
        return parts
    return tuple(p | induced.get(w, frozenset()) for p, w in zip(parts, words, strict=True))


def composed_but_one(
    english: tuple[str, ...],
    foreign: tuple[str, ...],
    lang: str,
    induced: tuple[Mapping[str, frozenset[str]], Mapping[str, frozenset[str]]] | None,
    absent: Callable[[str], bool],
) -> bool:
    """Whether a term and a phrase of two or more parts each are made of the same
    vocabulary words but for one word on each side that the vocabulary does not know
    ("Special Save" and "особый спасбросок": save = спасбросок, special = особый).

    `induced`: what pairs the drop itself settled add to the vocabulary, by English word
    (lower case, singular) and by the foreign word's first reading: Charge rendered
    "натиск" makes "реакция на натиск" Charge and a word for Reaction.

    `absent`: whether a vocabulary word has no rendering in the whole sentence; then the
    English word left over may be that word, rendered by the drop's own ("Rally Test",
    "проверка сбора": test = проверка, and "сбор" is not the vocabulary's word for rally;
    not where "тип" is in the sentence beside "заклинание урона" for "Spell Types")."""
    ours, theirs = english_parts(english), foreign_parts(foreign, lang)
    if induced is not None:
        en_words = _english_words(english)
        words = [lemmas(w, lang)[0] for w in _content(foreign, lang)]
        ours = _with_induced(ours, en_words, induced[0])
        theirs = _with_induced(theirs, words, induced[1])
    if len(ours) < 2 or len(ours) != len(theirs):
        return False
    # one foreign word unknown; none where the drop's own pairs make the whole phrase
    # ("дистанция преследования" once Pursuit and Distance have the drop's words)
    unknown = sum(not p for p in theirs)
    if unknown not in ((0, 1) if induced else (1,)) or sum(not p for p in ours) > unknown:
        return False
    if not unknown and composed(english, foreign, lang):
        return False  # the vocabulary's alone: `composed` says when that is a term
    if any(len(p) > 1 for p in ours):
        return False
    # every known foreign word takes one English word it renders; the English word left is
    # unknown, or known and rendered by the drop's own word
    left = _left(Counter(next(iter(p)) for p in ours if p), theirs)
    if left is None:
        return False
    rest = [t for t, k in left.items() if k > 0]
    return not rest or all(absent(t) for t in rest)
