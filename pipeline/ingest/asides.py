"""Marks text that is not rule text (translators' comments) so later stages skip it.

A span is set apart only when it reads as a person's remark: a pattern of asides.yaml
matches it, and it holds no rule content (no digit or number word, no term of the core
vocabulary or of the glossary); a signed remark must also be in the first person. So
"(on a 1 or 2, the unit may not move - Stupidity)" stays rule text, while
"(тут, я чуть не упал под стол, - Oleon)" is an aside. Anything in doubt stays text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from ..lang import shared
from ..model import Aside

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_STEM_MIN = 5  # a term this long also matches its inflections (Russian cases)
_STEM_SLACK = 3


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    data = shared("asides")
    return tuple((re.compile(a["pattern"], re.IGNORECASE), a["reason"]) for a in data["asides"])


@cache
def _remark() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """First-person words, reasons that need one, and number words (all languages)."""
    data = shared("asides")["remark"]
    first = frozenset(w for words in data["first_person"].values() for w in words)
    numbers = frozenset(w for words in data["number_words"].values() for w in words)
    return first, frozenset(data["needs_first_person"]), numbers


@cache
def _core_terms() -> tuple[str, ...]:
    terms = shared("lexicon")["terms"]
    return tuple(
        form
        for term in terms
        for lang, forms in term.items()
        if lang != "id" and isinstance(forms, list)
        for form in forms
    )


def _term_in(words: list[str], text: str, term: str) -> bool:
    term = term.lower().replace("ё", "е")
    if " " in term or "-" in term:
        return term in text
    if len(term) < _STEM_MIN:
        return term in words
    stem = term[:-1]
    return any(w.startswith(stem) and len(w) - len(term) <= _STEM_SLACK for w in words)


def has_rule_content(text: str, terms: Iterable[str] = ()) -> bool:
    """Whether text holds a quantity (a digit or number word) or a rule or glossary term."""
    if any(c.isdigit() for c in text):
        return True
    lowered = text.lower().replace("ё", "е")
    words = _WORD.findall(lowered)
    _, _, numbers = _remark()
    if any(w in numbers for w in words):
        return True
    return any(_term_in(words, lowered, t) for t in (*_core_terms(), *terms))


def _is_remark(text: str, reason: str, terms: Iterable[str]) -> bool:
    first, needs_first, _ = _remark()
    if reason in needs_first and not any(w in first for w in _WORD.findall(text.lower())):
        return False
    return not has_rule_content(text, terms)


def notes(text: str) -> list[tuple[int, int]]:
    """The spans of `text` a pattern of asides.yaml reads as a translator's note
    ("[прим. пер.: в прошлой редакции было 6″]"), whatever they hold: a note that cites
    numbers stays in the text (`has_rule_content`), but its numbers are the note's own (an
    older edition's, a comparison), not the rule's. Cheap for a text with no bracket."""
    if "[" not in text and "(" not in text:
        return []
    return [m.span() for pattern in _note_patterns() for m in pattern.finditer(text)]


@cache
def _note_patterns() -> tuple[re.Pattern[str], ...]:
    return tuple(pattern for pattern, reason in _patterns() if reason == "translator-note")


def find_asides(raw: str, terms: Iterable[str] = ()) -> tuple[Aside, ...]:
    """Return non-overlapping asides; each span takes the white space before it.
    `terms` are glossary terms (any language): a span holding one is rule text."""
    terms = tuple(terms)
    found: list[Aside] = []
    for pattern, reason in _patterns():
        for m in pattern.finditer(raw):
            if not _is_remark(m.group(), reason, terms):
                continue
            start = m.start()
            while start > 0 and raw[start - 1] in " \t":
                start -= 1
            if not any(a.start < m.end() and start < a.end for a in found):
                found.append(Aside(start, m.end(), reason))
    return tuple(sorted(found, key=lambda a: a.start))
