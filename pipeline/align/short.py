"""Short forms: a word or a phrase a hand writes short after its first use.

A tutorial hand writes "активный игрок" once and "АИ" after it; a wiki hand writes
"хар-ка" for "характеристика". Read as written, the short form carries none of the
anchors its long form does, and its paragraph looks less like its English than it is.
Two ways of writing short are read, both rules of how texts are written, not lists:

- initials in capitals ("АИ", "КС") stand for the phrase whose words start with those
  letters that the drop introduces them with ("активный игрок (дальше просто АИ)"), where
  every introduction carries the same anchors (the bracket that introduces them is not
  one more mention: the phrase is said there once), or, with no introduction, the one
  phrase of the core vocabulary they are the initials of ("ОЗ": "очки здоровья");
- a contraction cut by a hyphen ("хар-ка", "хар-ке") stands for the one word of the core
  vocabulary that starts with its first part and has a form ending with its second.

Only texts that write such a form are read again, once per alignment.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache

from ..extract.facts import Facts
from .anchors import Anchors

# Two to five capitals of a script with cases, not Latin (an English name kept in a
# translation is no short form), alone as a word. Most texts write none: the search looks
# for two such capitals side by side first.
_CAPITAL = "".join(c for c in map(chr, range(0x80, 0x2000)) if c.isupper() and c.isalpha())
_TWO_CAPITALS = re.compile(f"[{_CAPITAL}]{{2}}")
_INITIALS = re.compile(f"(?<![^\\W\\d_])[{_CAPITAL}]{{2,5}}(?![^\\W\\d_])")
# A first part of three letters or more, a hyphen, an ending of one to three letters.
_LETTER_HYPHEN = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")
_CONTRACTION = re.compile(r"(?<![^\W\d_-])([^\W\d_]{3,})-([^\W\d_]{1,3})(?![^\W\d_-])")
_MIN_WORD = 3  # a word of a phrase written as initials: "а" and "и" are no such words


def _initials(text: str) -> list[re.Match[str]]:
    if not _TWO_CAPITALS.search(text):
        return []
    return list(_INITIALS.finditer(text))


def _contractions(text: str) -> list[re.Match[str]]:
    if "-" not in text or not _LETTER_HYPHEN.search(text):
        return []
    return list(_CONTRACTION.finditer(text))


def read_short_forms(found: Sequence[Anchors], facts: Mapping[str, Facts]) -> list[Anchors]:
    """`found` with each short form counted as the anchors of its long form (and a text's
    length as if it were written whole). Texts writing none are returned as they are."""
    short = {}
    for i, a in enumerate(found):
        inits, conts = _initials(a.text), _contractions(a.text)
        if inits or conts:
            short[i] = (inits, conts)
    if not short:
        return list(found)
    wanted = {m.group() for inits, _ in short.values() for m in inits}
    long_forms = _long_forms(wanted, found, facts) if wanted else {}
    out = list(found)
    for i, (inits, conts) in short.items():
        a = found[i]
        keys: Counter[str] = Counter()
        grown = 0
        for m in inits:
            long = long_forms.get(m.group()) or _vocabulary_initials(a.lang).get(m.group())
            if long and not _introduced(a.text, m):
                keys.update(long[0])
                grown += long[1] - len(m.group())
        for m in conts:
            if word := _contracted(m.group(1).lower(), m.group(2).lower(), a.lang):
                keys["w:" + word] += 1
        if keys:
            out[i] = replace(a, keys=a.keys + keys, length=a.length + max(grown, 0))
    return out


def _introduction(initials: str) -> re.Pattern[str]:
    """The phrase right before a bracket that gives its initials, a word or two of the
    hand's own before them: "активный игрок (АИ)", "кубики силы (дальше КС)"."""
    words = [rf"{c}[^\W\d_]{{{_MIN_WORD - 1},}}" for c in initials.lower()]
    return re.compile(
        r"(?<![^\W\d_])(?P<phrase>"
        + r"\s+".join(words)
        + r")\s*\((?:[^\W\d_]+\s+){0,2}?"
        + re.escape(initials)
        + r"\)",
        re.IGNORECASE,
    )


def _long_forms(
    wanted: set[str], found: Sequence[Anchors], facts: Mapping[str, Facts]
) -> dict[str, tuple[Counter[str], int]]:
    """Initials -> the anchors of the phrase they stand for and its length: the phrase
    the drop introduces them with, where every introduction carries the same anchors, at
    least one. Any two words of a text have initials; a hand that shortens a phrase says
    which."""
    out: dict[str, tuple[Counter[str], int]] = {}
    for initials in sorted(wanted):
        pattern = _introduction(initials)
        seen: set[tuple[tuple[str, int], ...]] = set()
        length = 0
        for a in found:
            if "(" not in a.text or initials not in a.text:
                continue
            for m in pattern.finditer(a.text):
                keys = _anchors_in(facts[a.segment], m.start(), m.end("phrase"))
                seen.add(tuple(sorted(keys.items())))
                length = length or len(m.group("phrase"))
        if len(seen) == 1 and (only := next(iter(seen))):
            out[initials] = (Counter(dict(only)), length)
    return out


def _anchors_in(facts: Facts, start: int, end: int) -> Counter[str]:
    """The glossary terms and vocabulary words that start inside a span of the text."""
    keys: Counter[str] = Counter()
    for prefix, occurrences in (("t:", facts.terms), ("w:", facts.words)):
        keys.update(prefix + term for term, at in occurrences if start <= at < end)
    return keys


def _introduced(text: str, m: re.Match[str]) -> bool:
    """Whether the initials are the bracket that introduces them, after their phrase:
    "активный игрок (АИ)" says the phrase once, not twice."""
    opening = text.rfind("(", 0, m.start())
    if opening < 0 or text.find(")", m.end()) != m.end():
        return False
    return any(
        i.end() == m.end() + 1 for i in _introduction(m.group()).finditer(text, 0, m.end() + 1)
    )


def _contracted(first: str, ending: str, lang: str) -> str | None:
    """The vocabulary word a contraction stands for: the one word of the core vocabulary
    of `lang` that starts with `first` and has a form ending with `ending`, and is longer
    than the two ("хар-ка" for "характеристика"); None when none or several are."""
    matches = {
        term
        for word, term in _vocabulary_words(lang)
        if word.startswith(first) and len(word) > len(first) + len(ending)
        if any(f.endswith(ending) for f in _forms(word))
    }
    return matches.pop() if len(matches) == 1 else None


@cache
def _vocabulary_words(lang: str) -> tuple[tuple[str, str], ...]:
    """(word, vocabulary id) of the one-word renderings of the core vocabulary."""
    from ..extract.keywords import core_words

    return tuple(
        (form.lower(), term.id)
        for term in core_words(lang).terms
        for form in term.renderings.get(lang, ())
        if " " not in form and "-" not in form
    )


@cache
def _forms(word: str) -> frozenset[str]:
    from ..lang import word_forms

    return frozenset(word_forms(word))


@cache
def _vocabulary_initials(lang: str) -> dict[str, tuple[Counter[str], int]]:
    """Initials -> (anchors, length) of the one core-vocabulary term a phrase of which
    they are the initials renders ("ОЗ": "очки здоровья"), every word of the phrase
    `_MIN_WORD` letters or more; initials of two terms' phrases stand for neither."""
    from ..extract.keywords import core_words

    found: dict[str, set[str]] = {}
    length: dict[str, int] = {}
    for term in core_words(lang).terms:
        for form in term.renderings.get(lang, ()):
            words = form.split()
            if len(words) > 1 and all(len(w) >= _MIN_WORD for w in words):
                initials = "".join(w[0] for w in words).upper()
                found.setdefault(initials, set()).add(term.id)
                length[initials] = max(length.get(initials, 0), len(form))
    return {
        k: (Counter({"w:" + ids.pop(): 1}), length[k]) for k, ids in found.items() if len(ids) == 1
    }
