"""The core vocabulary typed with a slip: "объвляет" says "объявлять" (declare), "jтряда"
"отряд" (unit), "шернги" "шеренга" (rank), in a drop typed fast in a messenger. Such a word
says its vocabulary word as surely as the word spelled right, so alignment reads it as that
word (`w:` anchor), by the language's reader of slips (`pipeline/lang/typos.py`: a word
the dictionary does not know, one edit from words of one dictionary form only).

That reader asks the dictionary about every edit of a word, which costs; a word is handed
to it only where the dictionary does not know it and an inflected form of a one-word
vocabulary rendering that begins with the word's first two letters (or those two swapped)
is one edit from it, or where it mixes Latin letters into the language's own: a slip in
the first two letters ("тряд") is not read. Texts are read token by
token, each token's answer kept for the process (`sounds.any_token_speaks`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache, lru_cache

from ..lang import fold, shared, word_forms
from ..lang.typos import edits, known, mended, min_letters
from .sounds import any_token_speaks

_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile("[a-z]")


def _renderings(lang: str) -> list[tuple[str, str]]:
    """(one-word rendering of the vocabulary in lower case, its id)."""
    return [
        (fold(str(form).lower()), str(term["id"]))
        for term in shared("lexicon").get("terms") or ()
        for form in term.get(lang) or ()
        if " " not in str(form)
    ]


@cache
def _ids(lang: str) -> dict[str, str]:
    """The dictionary form of each one-word rendering -> the id of its one entry."""
    from ..lang import lemma

    ids: dict[str, set[str]] = {}
    for low, term in _renderings(lang):
        ids.setdefault(lemma(low, lang), set()).add(term)
    return {k: next(iter(v)) for k, v in ids.items() if len(v) == 1}


@cache
def _forms(lang: str, start: str) -> frozenset[str]:
    """Every inflected form of the one-word renderings that begin with `start` (two
    letters): a slip is looked for among the words its own first two letters begin, read
    on first need (the inflections of the whole vocabulary take longer to make than a
    build spends on all its slips)."""
    return frozenset(
        fold(f) for low, _ in _renderings(lang) if low.startswith(start) for f in word_forms(low)
    )


@cache
def _tokens(lang: str) -> tuple[set[str], set[str]]:
    """The tokens (split at white space) with a word typed with a slip, and those without."""
    return set(), set()


@lru_cache(maxsize=100_000)
def _says(word: str, lang: str) -> str | None:
    """The vocabulary id a word typed with a slip says, or None."""
    low = fold(word.lower())
    if len(low) < min_letters(lang) or low.isascii() or known(low):  # most words
        return None
    if not _LATIN.search(low):
        forms = _forms(lang, low[:2]) | _forms(lang, low[1::-1])  # or the two swapped
        if low in forms:  # a form the dictionary lacks ("бронебойности"): read as it is
            return None
        if forms.isdisjoint(edits(low, lang)):
            return None  # one edit from no vocabulary form: the dictionary is not asked
    found = mended(word, lang)
    return _ids(lang).get(found) if found else None


def _speaks_in(token: str, lang: str) -> bool:
    return any(_says(w, lang) for w in _WORD.findall(token))


def vocabulary_by_slip(
    text: str, lang: str, read: Iterable[Iterable[int]], tokens: list[str] | None = None
) -> Counter[str]:
    """The vocabulary ids (`w:` anchors) of the words of `text` typed with a slip, but those
    starting at an offset of `read` (where the vocabulary or the glossary was found);
    `tokens`, the text split at white space, where the caller has it."""
    if lang == "en" or not min_letters(lang):
        return Counter()
    tokens = text.split() if tokens is None else tokens
    if not any_token_speaks(tokens, _tokens(lang), lambda token: _speaks_in(token, lang)):
        return Counter()
    taken = {start for starts in read for start in starts}
    out: Counter[str] = Counter()
    for m in _WORD.finditer(text):
        if m.start() not in taken and (found := _says(m.group(), lang)):
            out["w:" + found] += 1
    return out
