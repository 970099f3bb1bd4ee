"""Glossary keywords of a text: which terms occur, where.

English terms are matched on lower-cased tokens, Russian ones on lemmas (`pipeline.lang`),
so any inflected form counts ("Открытым ландшафтом" is the term "Открытый ландшафт").
Matchers are built once per glossary and language: extraction runs on every paragraph of a
build, so nothing is rebuilt per call.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from pipeline.glossary import Glossary
from pipeline.lang import longest, phrase_matcher, shared_path

if TYPE_CHECKING:
    from spacy.matcher import PhraseMatcher
    from spacy.tokens import Doc

_GLOSSARY_MATCHERS: dict[tuple[int, str], tuple[Glossary, PhraseMatcher]] = {}


def _glossary_matcher(glossary: Glossary, lang: str) -> PhraseMatcher:
    """One matcher per glossary object and language (a Glossary holds dicts: not hashable)."""
    hit = _GLOSSARY_MATCHERS.get((id(glossary), lang))
    if hit is not None and hit[0] is glossary:
        return hit[1]
    pairs: list[tuple[str, str]] = []
    for term in glossary.terms:
        forms = list(term.renderings.get(lang, ())) + list(term.deprecated.get(lang, ()))
        pairs.extend((term.id, form) for form in forms)
    matcher = phrase_matcher(pairs, lang)
    _GLOSSARY_MATCHERS[(id(glossary), lang)] = (glossary, matcher)
    return matcher


@cache
def core_lexicon() -> Glossary:
    """The core vocabulary of rulebooks (`pipeline/lang/lexicon.yaml`), in glossary form."""
    from pipeline.glossary import load_glossary

    return load_glossary(shared_path("lexicon"))


@cache
def core_words(lang: str | None = None) -> Glossary:
    """The core vocabulary as texts are read for it: each rendering of a language matched
    on lemmas also under the dictionary form its inflections are mistaken for, when that
    reading is the same part of speech ("брони" reads first as "бронь", yet is "броня";
    "леса" as "леса", yet is "лес"). Alignment compares texts by these words, and a word
    missed in one language only makes a translation look less like its source. With
    `lang`, only that language's renderings are read so (the rest as listed): a text is
    matched on its own language's alone, and an English build parses no Russian word."""
    from dataclasses import replace as with_

    from pipeline.lang import lemmatised

    lexicon = core_lexicon()
    misread = lemmatised() if lang is None else lemmatised() & {lang}
    terms = []
    for term in lexicon.terms:
        renderings = dict(term.renderings)
        for code in set(renderings) & misread:
            forms = list(renderings[code])
            for form in renderings[code]:
                forms.extend(f for f in _misread(form, code) if f not in forms)
            renderings[code] = tuple(forms)
        terms.append(with_(term, renderings=renderings))
    return with_(lexicon, terms=tuple(terms))


MAX_MISREAD = 8  # variants of one rendering


@cache  # core_words(lang) and core_words() ask for the same renderings
def _misread(form: str, lang: str) -> tuple[str, ...]:
    """`form` with a word replaced by another first reading of one of its inflections."""
    from pipeline.lang import lemma, parses, word_forms

    out: list[str] = []
    words = form.split()
    for i, word in enumerate(words):
        low = word.lower()
        own = parses(low)[0].tag.POS
        for inflected in sorted(word_forms(low)):
            parse = parses(inflected)[0]
            read = lemma(inflected, lang)
            if own == parse.tag.POS and read != lemma(low, lang):
                variant = " ".join([*words[:i], read, *words[i + 1 :]])
                if variant not in out and len(out) < MAX_MISREAD:
                    out.append(variant)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Occurrences:
    """Where glossary terms occur in a text: ids (interned) and start offsets, in text order.

    A build keeps these for every segment, millions of them on a large corpus, so they are
    two flat sequences rather than a tuple per occurrence. Iterating gives (id, start).
    """

    ids: tuple[str, ...] = ()
    starts: array[int] = field(default_factory=lambda: array("I"))

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return zip(self.ids, self.starts, strict=True)

    def __len__(self) -> int:
        return len(self.ids)


def keyword_spans(doc: Doc, lang: str, glossary: Glossary | None) -> Occurrences:
    """Every glossary term occurrence in `doc`, in text order; the longest match wins
    ("Armour Penetration", not "Armour")."""
    if glossary is None:
        return Occurrences()
    matcher = _glossary_matcher(glossary, lang)
    matches = longest(matcher(doc))
    strings = doc.vocab.strings
    return Occurrences(
        tuple(sys.intern(strings[key]) for key, _, _ in matches),
        array("I", (doc[start].idx for _, start, _ in matches)),
    )


def find_keywords(doc: Doc, lang: str, glossary: Glossary | None) -> tuple[str, ...]:
    """Sorted unique ids of the glossary terms whose renderings (any form) occur in `doc`."""
    return tuple(sorted({term for term, _ in keyword_spans(doc, lang, glossary)}))
