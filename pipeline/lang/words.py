"""Tokens and lemmas: one blank spaCy pipeline per language and one pymorphy3 analyser.

Both are loaded on first use and kept for the process (extraction runs on every paragraph
of a build), and imported only then, so commands that never read words do not pay for them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .service import fold, lemmatised

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.matcher import PhraseMatcher
    from spacy.tokens import Doc

_WORD = re.compile(r"\w", re.UNICODE)


def _import_spacy() -> ModuleType:
    """spaCy without its command line: `spacy/__init__` imports `spacy.cli.info`, and with
    it typer, weasel, requests and jinja2 (360 modules, 0.17 s of a 0.65 s import) that a
    library never calls. Stand-ins hold the place of `spacy.cli` during the import and leave
    after it, so a later `import spacy.cli` finds the real one; a spaCy that needs more of
    its command line at import is imported whole."""
    if "spacy" in sys.modules:
        return sys.modules["spacy"]
    cli, info = ModuleType("spacy.cli"), ModuleType("spacy.cli.info")
    cli.__path__ = []
    info.info = None  # type: ignore[attr-defined]
    stand_ins = {"spacy.cli": cli, "spacy.cli.info": info}
    sys.modules.update(stand_ins)
    try:
        import spacy

        return spacy
    except ImportError:
        pass
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    import spacy as whole

    return whole


@cache
def nlp(lang: str) -> Language:
    """A blank spaCy pipeline (tokenizer only); unknown languages use the multi-language one."""
    spacy = _import_spacy()
    try:
        return spacy.blank(lang)
    except Exception:  # spaCy raises several types for an unknown language code
        return spacy.blank("xx")


@lru_cache(maxsize=1)
def morph() -> Any:
    """The one pymorphy3 analyser of the process (its dictionaries take time and memory).
    Its dictionaries are named by their package: left to find them, pymorphy3 reads the
    entry points of every installed package (0.03 s of a 0.1 s `check`), unless
    PYMORPHY2_DICT_PATH names them, which still wins."""
    import pymorphy3
    import pymorphy3_dicts_ru

    path = os.environ.get(pymorphy3.MorphAnalyzer.DICT_PATH_ENV_VARIABLE)
    return pymorphy3.MorphAnalyzer(path or pymorphy3_dicts_ru.get_path(), lang="ru")


@lru_cache(maxsize=8192)
def parses(word: str) -> tuple[Any, ...]:
    """pymorphy3's readings of `word`, likeliest first, kept for the last 8,192 words (the
    core lexicon's 6,400 inflections, parsed for their part of speech and again for their
    lemmas; lemma() keeps its own results for a whole corpus's words, these weigh more)."""
    return tuple(morph().parse(word))


@lru_cache(maxsize=200_000)
def lemma(word: str, lang: str) -> str:
    """The dictionary form of a word, lower case, folded (English: the word lower-cased,
    plurals made singular)."""
    low = fold(word.lower())
    if not _WORD.search(low):
        return low
    if lang not in lemmatised():
        return singular(low)
    return lemmas(word, lang)[0]  # one parse gives both, and both are asked for a word


@lru_cache(maxsize=200_000)
def lemmas(word: str, lang: str) -> tuple[str, ...]:
    """Every dictionary form a word may have, the likeliest first: "Броне" is "броня" (and
    "брон" by another reading), so a term matches whichever reading the text means."""
    if lang not in lemmatised():
        return (lemma(word, lang),)
    low = fold(word.lower())
    try:
        read = parses(low)
    except ValueError:  # pymorphy3 names each letter: one with no Unicode name ("𗀀") fails
        return (low,)
    first = fold(read[0].normal_form) if _WORD.search(low) else low
    forms = {fold(p.normal_form) for p in read}
    forms.discard(first)
    return (first, *sorted(forms))


def word_forms(word: str) -> set[str]:
    """All inflected forms of one word (its lexeme) and their folds, so data can list
    lemmas only."""
    read = parses(word)
    own = [p for p in read if p.normal_form == word] or read[:1]
    forms = {word}
    for parse in own:
        forms.update(f.word for f in parse.lexeme)
    return forms | {fold(f) for f in forms}


def singular(low: str) -> str:
    """A plural English noun's singular, enough for term matching ("hits" is "hit")."""
    if len(low) > 3 and low.endswith("ies"):
        return low[:-3] + "y"
    if len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return low[:-1]
    return low


@cache
def _lemma_ids(lang: str) -> dict[int, int]:
    """Word id -> lemma id in the language's vocabulary, filled as words are met: setting
    lemmas by id on the whole Doc avoids a Python token object per word."""
    return {}


def tokenize(text: str, lang: str) -> Doc:
    """A Doc whose tokens carry lemmas as `lemma_` (set here; blank pipelines have none)."""
    doc = nlp(lang).make_doc(text)
    from spacy.attrs import LEMMA, ORTH

    if not len(doc):
        return doc
    known = _lemma_ids(lang)
    strings = doc.vocab.strings
    orths = doc.to_array(ORTH)
    ids = []
    for orth in orths.tolist():
        found = known.get(orth)
        if found is None:
            found = known[orth] = strings.add(lemma(strings[orth], lang))
        ids.append(found)
    orths[:] = ids
    doc.from_array([LEMMA], orths.reshape(-1, 1))
    return doc


def phrase_matcher(phrases: Iterable[tuple[str, str]], lang: str) -> PhraseMatcher:
    """A PhraseMatcher over (key, phrase) pairs, on lemmas (any inflected form matches)."""
    vocab = nlp(lang).vocab
    from spacy.matcher import PhraseMatcher

    matcher = PhraseMatcher(vocab, attr="LEMMA")
    grouped: dict[str, list[Doc]] = {}
    for key, phrase in phrases:
        grouped.setdefault(key, []).append(tokenize(phrase, lang))
    for key, docs in grouped.items():
        matcher.add(key, docs)
    return matcher


def longest(matches: Iterable[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The (key, start, end) matches left when overlaps are settled in favour of the
    longest, then the first, in text order: spaCy's `filter_spans` on plain tuples, which
    are made far faster than the spans it takes."""
    ranked = sorted(matches, key=lambda m: (m[2] - m[1], -m[1]), reverse=True)
    taken: set[int] = set()
    kept = []
    for match in ranked:
        _, start, end = match
        if start not in taken and end - 1 not in taken:
            kept.append(match)
            taken.update(range(start, end))
    kept.sort(key=lambda m: m[1])
    return kept
