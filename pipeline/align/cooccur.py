"""Word pairs read from the sure links by co-occurrence alone.

The term induction (`suggest`) pairs rule terms: capitalised runs, names, the core
vocabulary's words. A hand that writes its rule words in lower case and varies them
leaves many words of the drop unpaired, and a translation of few numbers then has little
to be told apart by. Over the sure links, a word of the English and a word of the
translation that occur in the same links and hardly ever apart (Dice coefficient), each
the other's clearest partner, translate each other (paragraph-level co-occurrence as in
Moore's bootstrapped sentence alignment). Such pairs are read as induced terms for the
next round; `bootstrap.honoured` still drops a pair the two texts of the sure links do
not carry alike.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache

from ..glossary import Glossary, Term
from ..lang import tokenize
from ..model import Segment

#: A pair must occur together in this many sure links ...
MIN_TOGETHER = 2
#: ... with at least this Dice coefficient (2 x together / (links of one + of the other)).
MIN_DICE = 0.8
#: Sure links read: enough for a drop's vocabulary, and a bound on the cost of a large one.
MAX_LINKS = 2_000
_LETTERS = {"en": re.compile(r"^[a-z]{3,}$"), "ru": re.compile(r"^[а-я]{3,}$")}


@cache
def _stop_words(lang: str) -> frozenset[str]:
    from spacy.util import get_lang_class

    try:
        return frozenset(get_lang_class(lang).Defaults.stop_words)
    except ImportError:
        return frozenset()


def content_words(segment: Segment) -> frozenset[str]:
    """The lemmas of a text's words that are not function words, in its own script."""
    letters = _LETTERS.get(segment.lang, _LETTERS["en"])
    stop = _stop_words(segment.lang)
    return frozenset(
        t.lemma_
        for t in tokenize(segment.text, segment.lang)
        if letters.match(t.lemma_) and t.lemma_ not in stop and t.lower_ not in stop
    )


def word_pairs(
    sure: Sequence[tuple[str, str]],
    by_id: Mapping[str, Segment],
    lang: str,
    known: Mapping[str, frozenset[str]],
) -> list[tuple[str, str]]:
    """(English lemma, `lang` lemma) pairs of the sure (source, target) links, each the
    other's only best partner; words of `known` (lemmas already anchored, by language)
    are left out, so a pair adds what the texts had no anchor for."""
    english: Counter[str] = Counter()
    target: Counter[str] = Counter()
    read = []
    for source, translation in sure[:MAX_LINKS]:
        e = content_words(by_id[source]) - known.get("en", frozenset())
        t = content_words(by_id[translation]) - known.get(lang, frozenset())
        english.update(e)
        target.update(t)
        read.append((e, t))
    together: Counter[tuple[str, str]] = Counter()
    for e, t in read:
        e2 = [w for w in e if english[w] >= MIN_TOGETHER]
        t2 = [w for w in t if target[w] >= MIN_TOGETHER]
        together.update((a, b) for a in e2 for b in t2)
    best_e: dict[str, list[tuple[float, str]]] = {}
    best_t: dict[str, list[tuple[float, str]]] = {}
    for (a, b), n in together.items():
        if n < MIN_TOGETHER:
            continue
        dice = 2 * n / (english[a] + target[b])
        best_e.setdefault(a, []).append((dice, b))
        best_t.setdefault(b, []).append((dice, a))
    out = []
    for a, found in sorted(best_e.items()):
        top = _only_best(found)
        if top is None or top[0] < MIN_DICE:
            continue
        back = _only_best(best_t[top[1]])
        if back is not None and back[1] == a:
            out.append((a, top[1]))
    return out


def _only_best(found: list[tuple[float, str]]) -> tuple[float, str] | None:
    """The best (score, word), or None when another word scores as well."""
    found.sort(reverse=True)
    if len(found) > 1 and found[1][0] >= found[0][0]:
        return None
    return found[0]


def as_glossary(pairs: Mapping[str, list[tuple[str, str]]], languages: Sequence[str]) -> Glossary:
    """The pairs as single-word terms (matched on lemmas), one per English word with its
    partner in each language."""
    merged: dict[str, dict[str, tuple[str, ...]]] = {}
    for lang, found in sorted(pairs.items()):
        for a, b in found:
            merged.setdefault(a, {"en": (a,)})[lang] = (b,)
    terms = tuple(Term(f"cooccur-{a}", forms, {}) for a, forms in sorted(merged.items()))
    return Glossary("co-occurrence", "", tuple(languages), terms)


def known_words(*glossaries: Glossary) -> dict[str, frozenset[str]]:
    """Language -> the lemmas of every word of the glossaries' renderings."""
    out: dict[str, set[str]] = {}
    for glossary in glossaries:
        for term in glossary.terms:
            for lang, forms in term.renderings.items():
                words = out.setdefault(lang, set())
                for form in forms:
                    words.update(t.lemma_ for t in tokenize(form, lang))
    return {lang: frozenset(words) for lang, words in out.items()}
