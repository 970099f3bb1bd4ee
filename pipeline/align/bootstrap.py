"""Alignment that bootstraps its own glossary when a build is given none.

Without a glossary, paragraphs are compared by numbers, Latin words and the core
vocabulary only, and texts that differ in their rule terms alone cannot be told apart.
So the surest links of one round (linked, with a high score) are read for term pairs
(`suggest`, the same induction `rulepipe glossary suggest` runs), the pairs become a
glossary, the clusters' texts are matched against it, and alignment runs again; at most
a few rounds, going on while no round links fewer and the terms change (a round that links
as many may have moved links to better texts, whose terms teach the next). Every round is
reported.

A proposed pair is also checked against the whole texts of the sure links before it is
used: a term whose rendering the translations do not carry as often as the English
carries the term (a pair read from one sentence that the rest of the text contradicts,
a rendering that is only part of the term) would add an anchor to one side only and
make true pairs look less alike, so it is left out.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..dedup import Cluster
from ..extract.facts import Facts
from ..extract.keywords import core_words, keyword_spans
from ..glossary import Glossary, Term
from ..lang import fold, tokenize
from ..model import Segment
from .common_terms import COMMON_BASES
from .links import MASTER, Link, align
from .named import bracketed_names
from .suggest import Bead, suggest
from .terms import english_key

MAX_ROUNDS = 3
#: A link this sure teaches terms to the next round.
SURE_SCORE = 0.6
#: Beads read per language and round: enough to see every common term many times, and a
#: bound on the cost on a large corpus.
MAX_BEADS = 20_000
#: Doubts that keep a proposal out of the induced glossary (a rendering written in lower
#: case is the house style of some terms: "раунд боя").
DOUBTS = ("one occurrence", "another rendering scores close")
#: A term is kept when both sides of at least this share of the sure links that carry it
#: carry it as many times.
AGREEMENT = 0.9


def _beads(links: Sequence[Link], by_id: Mapping[str, Segment], lang: str) -> list[Bead]:
    beads = []
    for link in links:
        if link.status != "linked" or link.score < SURE_SCORE or link.target_lang != lang:
            continue
        assert link.source is not None
        source, target = by_id[link.source].raw, by_id[link.target].raw
        for bead in link.sentences:
            if bead.source_spans and bead.target_spans:
                beads.append(
                    Bead(
                        " ".join(source[a:b] for a, b in bead.source_spans),
                        " ".join(target[a:b] for a, b in bead.target_spans),
                        link.id,
                        link.source,
                        link.target,
                        bead.type == "1-1",
                    )
                )
    return beads


def induce(links: Sequence[Link], by_id: Mapping[str, Segment]) -> Glossary:
    """A glossary of the term pairs the sure links show, every language merged by term;
    pairs the induction is unsure of are left out."""
    renderings: dict[str, dict[str, tuple[str, ...]]] = {}
    langs = sorted({link.target_lang for link in links})
    # the vocabulary's subjects (unit, model) are read as its words already: as terms too,
    # every paragraph would count them twice; so are the dice and rolls the quantities
    # read, and the sides the vocabulary's adjectives say (`common_terms`)
    subjects = {
        english_key(form.split())
        for t in core_words().terms
        if t.kind == "subject"
        for form in t.renderings.get(MASTER, ())
    }
    for lang in langs:
        # no verbs of the rules (`verb_terms`): the glossary alignment induces stays the
        # nouns and names it is measured with
        for s in suggest(_beads(links, by_id, lang)[:MAX_BEADS], lang, verbs=False):
            if any(doubt in s.note for doubt in DOUBTS):
                continue
            if english_key(s.source.split()) in subjects:
                continue
            if s.note.split(";")[0] in COMMON_BASES:  # a die, a roll, a side: read already
                continue
            term = renderings.setdefault(s.term, {"en": (s.source,)})
            term[lang] = (s.target, *s.variants)
    terms = tuple(Term(t, forms, {}) for t, forms in sorted(renderings.items()))
    return Glossary("induced", "", (MASTER, *langs), terms)


def _with_terms(
    facts: Mapping[str, Facts],
    segments: Sequence[Segment],
    glossary: Glossary,
    words: Glossary | None = None,
) -> dict[str, Facts]:
    """The facts with their glossary terms read again from `glossary` (and their core
    vocabulary from `words`, when given)."""
    out = dict(facts)
    for seg in segments:
        doc = tokenize(seg.text, seg.lang)
        terms = keyword_spans(doc, seg.lang, glossary)
        if words is None:
            out[seg.id] = dataclasses.replace(facts[seg.id], terms=terms)
        else:
            found = keyword_spans(doc, seg.lang, words)
            out[seg.id] = dataclasses.replace(facts[seg.id], terms=terms, words=found)
    return out


def with_vocabulary(glossary: Glossary) -> Glossary:
    """The core vocabulary with the renderings the induced terms give its words (by an
    English form: the drop's "пробивание брони" for Armour Penetration). The English
    carries such a term as a term and as a word of the vocabulary; read so, the
    translation carries it twice too, not once."""
    core = core_words()
    by_english = {english_key(f.split()): t.id for t in core.terms for f in t.renderings["en"]}
    taken = {
        (lang, _fold_form(f)) for t in core.terms for lang, fs in t.renderings.items() for f in fs
    }
    added: dict[str, dict[str, list[str]]] = {}
    for term in glossary.terms:
        keys = (english_key(f.split()) for f in term.renderings["en"])
        word = next((by_english[k] for k in keys if k in by_english), None)
        if word is None:
            continue
        for lang, forms in term.renderings.items():
            for form in forms:
                if lang != MASTER and (lang, _fold_form(form)) not in taken:
                    taken.add((lang, _fold_form(form)))
                    added.setdefault(word, {}).setdefault(lang, []).append(form)
    terms = tuple(
        dataclasses.replace(
            t,
            renderings={
                lang: (*t.renderings.get(lang, ()), *added.get(t.id, {}).get(lang, ()))
                for lang in {*t.renderings, *added.get(t.id, {})}
            },
        )
        for t in core.terms
    )
    return dataclasses.replace(core, terms=terms)


def _fold_form(form: str) -> str:
    return " ".join(fold(form.lower()).split())


def _sure(links: Sequence[Link]) -> list[Link]:
    return [link for link in links if link.status == "linked" and link.score >= SURE_SCORE]


def honoured(glossary: Glossary, links: Sequence[Link], facts: Mapping[str, Facts]) -> Glossary:
    """The terms of `glossary` that both sides of the sure links carry alike (`facts` read
    with `glossary`): a term counted differently in the two texts of more than a tenth of
    the links that carry it is dropped."""
    seen: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    for link in _sure(links):
        assert link.source is not None
        source = Counter(facts[link.source].terms.ids)
        target = Counter(facts[link.target].terms.ids)
        for term in source.keys() | target.keys():
            seen[term] += 1
            agree[term] += source[term] == target[term]
    keep = tuple(t for t in glossary.terms if agree[t.id] >= AGREEMENT * seen[t.id])
    return dataclasses.replace(glossary, terms=keep)


def _linked(links: Sequence[Link]) -> int:
    return sum(link.status == "linked" for link in links)


def bootstrap(
    segments: Sequence[Segment],
    clusters: Sequence[Cluster],
    facts: Mapping[str, Facts],
    max_rounds: int = MAX_ROUNDS,
) -> tuple[list[Link], list[dict[str, Any]]]:
    """Links after the last round that helped, and one record per round run."""
    links = align(segments, clusters, facts)
    rounds: list[dict[str, Any]] = [{"round": 1, "terms": 0, "linked": _linked(links), "gain": 0}]
    if not any(c.lang not in (MASTER, "und") for c in clusters):
        return links, rounds
    by_id = {s.id: s for s in segments}
    canonical = [by_id[c.canonical] for c in clusters if c.lang != "und"]
    english = [s for s in canonical if s.lang == MASTER]
    foreign = [s for s in canonical if s.lang != MASTER]
    known: tuple[Term, ...] = ()
    for n in range(2, max_rounds + 1):
        glossary = induce(links, by_id)
        named = bracketed_names(foreign, english, glossary)
        glossary = dataclasses.replace(glossary, terms=(*glossary.terms, *named.terms))
        if glossary.terms:
            sure = {i for link in _sure(links) for i in (link.source, link.target)}
            read = _with_terms(facts, [by_id[i] for i in sorted(sure) if i], glossary)
            glossary = honoured(glossary, links, read)
        if not glossary.terms or glossary.terms == known:
            break
        known = glossary.terms
        words = with_vocabulary(glossary)
        again = align(segments, clusters, _with_terms(facts, canonical, glossary, words))
        gain = _linked(again) - _linked(links)
        rounds.append(
            {"round": n, "terms": len(glossary.terms), "linked": _linked(again), "gain": gain}
        )
        if gain < 0:
            break
        links = again  # as many linked may still be better links, teaching more terms
    return links, rounds
