"""Glossary suggestions: term pairs proposed from the linked pairs of a build.

English capitalised terms ("Unit Spacing", "Round of Combat") are counted against Russian
lemma n-grams in the same aligned sentence beads; a pair that keeps turning up together and
rarely apart (Dice coefficient) is proposed, with its counts, as a TSV row a terminologist
reviews and merges into the glossary. Terms the glossary already has are left out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..glossary import Glossary
from ..lang import data as lang_data
from ..lang import lemma, nlp, tokenize

_CAPITALISED = re.compile(r"^[A-Z][a-z'’!-]*[a-z!]$|^[A-Z]{2,}$")
_JOINERS = frozenset({"of", "the", "to"})
_RU_WORD = re.compile(r"^[а-яё-]+$", re.IGNORECASE)
MAX_NGRAM = 3


@dataclass(frozen=True, slots=True)
class Suggestion:
    source: str  # English term
    target: str  # Russian rendering as most often written
    together: int  # beads with both
    source_count: int
    target_count: int
    score: float


def english_terms(text: str) -> set[str]:
    """Runs of capitalised words, joined by "of"/"the"; a lone sentence-initial word is not one."""
    found: set[str] = set()
    words = [t.text for t in nlp("en").make_doc(text)]
    i = 0
    while i < len(words):
        if not _CAPITALISED.match(words[i]):
            i += 1
            continue
        j = i + 1
        while j < len(words):
            if _CAPITALISED.match(words[j]):
                j += 1
            elif words[j] in _JOINERS and j + 1 < len(words) and _CAPITALISED.match(words[j + 1]):
                j += 2
            else:
                break
        initial = i == 0 or words[i - 1] in {".", "!", "?", "(", ":", "-", "–"}
        if j - i > 1 or not initial:
            found.add(" ".join(words[i:j]))
        i = j
    return found


def russian_ngrams(text: str) -> dict[str, str]:
    """Lemma n-grams (up to three words, no stop word at either end) -> the words as written."""
    stop = nlp("ru").Defaults.stop_words
    doc = tokenize(text, "ru")
    out: dict[str, str] = {}
    run: list[tuple[str, str]] = []
    for tok in [*doc, None]:
        if tok is not None and _RU_WORD.match(tok.text):
            run.append((tok.lemma_, tok.text))
            continue
        for i in range(len(run)):
            for n in range(1, MAX_NGRAM + 1):
                part = run[i : i + n]
                if len(part) < n or part[0][0] in stop or part[-1][0] in stop:
                    continue
                out.setdefault(" ".join(w for w, _ in part), " ".join(s for _, s in part))
        run = []
    return out


def _fits(gram: str, lang: str) -> bool:
    """False when the n-gram starts or ends with a word that introduces a term rather than
    being part of it ("правилу Расстояния" for Unit Spacing); the list is language data."""
    edges = set(lang_data(lang, "align").get("not_term_edges", ()))
    words = gram.split()
    return words[0] not in edges and words[-1] not in edges


def _known(glossary: Glossary | None) -> tuple[set[str], set[str]]:
    if glossary is None:
        return set(), set()
    english: set[str] = set()
    russian: set[str] = set()
    for term in glossary.terms:
        english.update(f.lower() for f in term.renderings.get("en", ()))
        for form in (*term.renderings.get("ru", ()), *term.deprecated.get("ru", ())):
            russian.add(" ".join(lemma(w, "ru") for w in form.split()))
    return english, russian


def _rank(s: Suggestion) -> tuple[float, bool, int, str]:
    """Higher score first; then a rendering with a capitalised word (rule names are
    capitalised in both languages), then the shorter one."""
    capitalised = any(w[:1].isupper() for w in s.target.split())
    return (s.score, capitalised, -len(s.target.split()), s.target)


def suggest(
    beads: Iterable[tuple[str, str]],
    glossary: Glossary | None = None,
    min_count: int = 2,
    min_score: float = 0.5,
) -> list[Suggestion]:
    """Term pairs from (English text, Russian text) beads, best first."""
    known_en, known_ru = _known(glossary)
    en_count: Counter[str] = Counter()
    ru_count: Counter[str] = Counter()
    together: Counter[tuple[str, str]] = Counter()
    surfaces: dict[str, Counter[str]] = {}
    for source, target in beads:
        terms = {t for t in english_terms(source) if t.lower() not in known_en}
        grams = russian_ngrams(target)
        for gram, surface in grams.items():
            surfaces.setdefault(gram, Counter())[surface] += 1
        en_count.update(terms)
        ru_count.update(grams.keys())
        together.update((t, g) for t in terms for g in grams if g not in known_ru)
    best: dict[str, Suggestion] = {}
    for (term, gram), both in together.items():
        if both < min_count or not _fits(gram, "ru"):
            continue
        score = 2 * both / (en_count[term] + ru_count[gram])
        surface = surfaces[gram].most_common(1)[0][0]
        found = Suggestion(term, surface, both, en_count[term], ru_count[gram], round(score, 3))
        if term not in best or _rank(found) > _rank(best[term]):
            best[term] = found
    kept = [s for s in best.values() if s.score >= min_score]
    return sorted(kept, key=lambda s: (-s.score, -s.together, s.source))


def build_beads(
    alignments: dict[str, Any], raw: Mapping[str, str], lang: str
) -> list[tuple[str, str]]:
    """(English, translation) text of every sentence bead with both sides, linked pairs only."""
    beads = []
    for link in alignments["links"]:
        if link["status"] != "linked" or link["target_lang"] != lang:
            continue
        source, target = raw[link["source"]], raw[link["target"]]
        for bead in link["sentences"]:
            if bead["source_spans"] and bead["target_spans"]:
                beads.append(
                    (
                        " ".join(source[a:b] for a, b in bead["source_spans"]),
                        " ".join(target[a:b] for a, b in bead["target_spans"]),
                    )
                )
    return beads


def to_tsv(suggestions: Sequence[Suggestion]) -> str:
    """Header `en<TAB>ru<TAB>count<TAB>score`: the language columns load as a glossary."""
    rows = ["en\tru\tcount\tscore"]
    rows += [f"{s.source}\t{s.target}\t{s.together}\t{s.score}" for s in suggestions]
    return "\n".join(rows) + "\n"
