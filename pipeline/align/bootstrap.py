"""Alignment that bootstraps its own glossary when a build is given none.

Without a glossary, paragraphs are compared by numbers, Latin words and the core
vocabulary only, and texts that differ in their rule terms alone cannot be told apart.
So the surest links of one round (linked, with a high score) are read for term pairs
(`suggest`, the same induction `rulepipe glossary suggest` runs), the pairs become a
glossary, the clusters' texts are matched against it, and alignment runs again; at most
a few rounds, stopping when a round links nothing more. Every round is reported.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..dedup import Cluster
from ..extract.facts import Facts
from ..extract.keywords import keyword_spans
from ..glossary import Glossary, Term
from ..lang import tokenize
from ..model import Segment
from . import MASTER, Link, align
from .suggest import Bead, suggest

MAX_ROUNDS = 3
#: A link this sure teaches terms to the next round.
SURE_SCORE = 0.6
#: Beads read per language and round: enough to see every common term many times, and a
#: bound on the cost on a large corpus.
MAX_BEADS = 20_000
#: Doubts that keep a proposal out of the induced glossary (a rendering written in lower
#: case is the house style of some terms: "раунд боя").
DOUBTS = ("one occurrence", "another rendering scores close")


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
    for lang in langs:
        for s in suggest(_beads(links, by_id, lang)[:MAX_BEADS], lang):
            if any(doubt in s.note for doubt in DOUBTS):
                continue
            term = renderings.setdefault(s.term, {"en": (s.source,)})
            term[lang] = (s.target, *s.variants)
    terms = tuple(Term(t, forms, {}) for t, forms in sorted(renderings.items()))
    return Glossary("induced", "", (MASTER, *langs), terms)


def _with_terms(
    facts: Mapping[str, Facts], segments: Sequence[Segment], glossary: Glossary
) -> dict[str, Facts]:
    """The facts with their glossary terms read again from `glossary`."""
    out = dict(facts)
    for seg in segments:
        terms = keyword_spans(tokenize(seg.text, seg.lang), seg.lang, glossary)
        out[seg.id] = dataclasses.replace(facts[seg.id], terms=terms)
    return out


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
    known: tuple[Term, ...] = ()
    for n in range(2, max_rounds + 1):
        glossary = induce(links, by_id)
        if not glossary.terms or glossary.terms == known:
            break
        known = glossary.terms
        again = align(segments, clusters, _with_terms(facts, canonical, glossary))
        gain = _linked(again) - _linked(links)
        rounds.append(
            {"round": n, "terms": len(glossary.terms), "linked": _linked(again), "gain": gain}
        )
        if gain < 0:
            break
        links = again
        if gain == 0:
            break
    return links, rounds
