"""Glossary keywords of a text, and the language machinery the other extractors share.

English terms are matched on lower-cased tokens, Russian ones on pymorphy3 lemmas with ё read
as е, so any inflected form counts ("Открытым ландшафтом" is the term "Открытый ландшафт").
The spaCy blank pipelines, the lemma cache and the per-language data files are loaded once
per process: extraction runs on every paragraph of a build, so nothing is rebuilt per call.
"""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import spacy
import yaml
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc
from spacy.util import filter_spans

from pipeline.glossary import Glossary

Span = tuple[int, int]

LANG_DIR = Path(__file__).resolve().parent.parent / "lang"
LEMMA_LANGS = frozenset({"ru"})
_WORD = re.compile(r"\w", re.UNICODE)


@cache
def lang_data(lang: str, name: str) -> dict[str, Any]:
    """`pipeline/lang/<lang>/<name>.yaml`, or English's when the language has none."""
    path = LANG_DIR / lang / f"{name}.yaml"
    if not path.is_file():
        path = LANG_DIR / "en" / f"{name}.yaml"
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    return data


@cache
def nlp(lang: str) -> Language:
    """A blank spaCy pipeline (tokenizer only); unknown languages use the multi-language one."""
    try:
        return spacy.blank(lang)
    except Exception:  # spaCy raises several types for an unknown language code
        return spacy.blank("xx")


@lru_cache(maxsize=1)
def morph() -> Any:
    """The one pymorphy3 analyser of the process (its dictionaries take time and memory)."""
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=200_000)
def lemma(word: str, lang: str) -> str:
    """The dictionary form of a word, lower case, ё = е (English: the word lower-cased)."""
    low = word.lower().replace("ё", "е")
    if not _WORD.search(low):
        return low
    if lang not in LEMMA_LANGS:
        return _singular(low)
    return morph().parse(low)[0].normal_form.replace("ё", "е")


def _singular(low: str) -> str:
    """A plural English noun's singular, enough for term matching ("hits" is "hit")."""
    if len(low) > 3 and low.endswith("ies"):
        return low[:-3] + "y"
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


def tokenize(text: str, lang: str) -> Doc:
    """A Doc whose tokens carry lemmas as `lemma_` (set here; blank pipelines have none)."""
    doc = nlp(lang).make_doc(text)
    for tok in doc:
        tok.lemma_ = lemma(tok.text, lang)
    return doc


def phrase_matcher(phrases: Iterable[tuple[str, str]], lang: str) -> PhraseMatcher:
    """A PhraseMatcher over (key, phrase) pairs, on lemmas (any inflected form matches)."""
    matcher = PhraseMatcher(nlp(lang).vocab, attr="LEMMA")
    grouped: dict[str, list[Doc]] = {}
    for key, phrase in phrases:
        grouped.setdefault(key, []).append(tokenize(phrase, lang))
    for key, docs in grouped.items():
        matcher.add(key, docs)
    return matcher


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

    return load_glossary(LANG_DIR / "lexicon.yaml")


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
    spans = filter_spans(matcher(doc, as_spans=True))
    return Occurrences(
        tuple(sys.intern(span.label_) for span in spans),
        array("I", (span.start_char for span in spans)),
    )


def find_keywords(doc: Doc, lang: str, glossary: Glossary | None) -> tuple[str, ...]:
    """Sorted unique ids of the glossary terms whose renderings (any form) occur in `doc`."""
    return tuple(sorted({term for term, _ in keyword_spans(doc, lang, glossary)}))
