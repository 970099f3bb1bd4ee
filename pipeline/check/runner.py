"""Run every declared check (catalogue.py) over a list of pairs and segments checked alone,
in a stable order."""

from __future__ import annotations

from ..gc_pause import gc_paused
from ..glossary import Glossary
from ..pairs import Pair
from ..parallel import map_in_order, workers_for
from ..progress import Report as Progress
from .across_pairs import PairTerms
from .catalogue import CHECK_IDS, CHECKS
from .context import Corpus, PairContext, Run
from .effects import prepare
from .model import Finding, Report
from .registry import Check

PAIRS, ALONE, ACROSS = "pairs", "texts alone", "across pairs"
"""The bars `progress` hears of: the pairs, then the segments checked alone, then the
checks over the whole corpus (one step)."""
# A pair of this many characters weighs as much as a segment to extract (see parallel.py):
# checking 3,000 such pairs takes long enough for a second process to pay.
_CHARS_PER_WEIGHT = 250


def _scope(scope: str) -> tuple[Check, ...]:
    return tuple(c for c in CHECKS if c.scope == scope)


def _check_pair(
    ctx: PairContext, segment: tuple[Check, ...], pair: tuple[Check, ...]
) -> list[Finding]:
    """The findings of one pair: each of its texts alone, then the pair if it has a target."""
    found: list[Finding] = []
    for side in ctx.sides():
        for c in segment:
            found.extend(c.run(side))
    if ctx.pair.target is not None:
        for c in pair:
            found.extend(c.run(ctx))
    return found


@gc_paused()
def run_checks(
    pairs: list[Pair],
    glossary: Glossary | None = None,
    alone: list[Pair] | None = None,
    inputs: dict | None = None,
    progress: Progress | None = None,
) -> Report:
    """All findings for `pairs` (source/target) and `alone` (segments checked on their own).

    With `alone` None, the single-text checks run on each pair's source instead, as for a
    pairs file; a build passes its segments, so each text is checked once. `progress`, when
    given, hears of each text checked (in a worker's piece at a time when they run in
    parallel) under the stage names PAIRS, ALONE and ACROSS.
    """
    segment, pair_checks, corpus = _scope("segment"), _scope("pair"), _scope("corpus")
    run = Run(glossary)
    for pair in pairs:  # built here, so forked workers inherit them and the corpus sees them
        run.index(pair.source_lang)
        run.index(pair.target_lang or "und")
    own_source = alone is None
    texts = [*pairs, *(alone or ())]
    weights = [1 + (len(t.source) + len(t.target or "")) // _CHARS_PER_WEIGHT for t in texts]
    translated = [p for p in pairs if p.target is not None]
    forks = workers_for(sum(weights)) > 1
    for lang in sorted(
        {p.source_lang for p in translated} | {p.target_lang or "und" for p in translated}
    ):
        # likewise the patterns of the languages whose effects are compared, and the
        # interpreter when workers fork (a run that large has pairs that need it)
        prepare(lang, interpreter=forks)

    def one(k: int) -> tuple[list[Finding], PairTerms | None, tuple[int, int]]:
        """The findings of the k-th text (a pair, then the segments alone) and, for a pair
        with a target, what the checks across pairs keep of it and how many of its
        sentences have no mark of meaning."""
        if k >= len(pairs):
            ctx = PairContext(texts[k], run, own_source=True)
            return _check_pair(ctx, segment, ()), None, (0, 0)
        ctx = PairContext(pairs[k], run, own_source=own_source)
        found = _check_pair(ctx, segment, pair_checks)
        if pairs[k].target is None:
            return found, None, (0, 0)
        return found, ctx.terms_row(), ctx.unread

    def tick(done: int, total: int) -> None:
        """Texts come back in order: the first len(pairs) are pairs, the rest alone."""
        assert progress is not None
        progress(PAIRS, min(done, len(pairs)), len(pairs))
        if alone:
            progress(ALONE, max(0, done - len(pairs)), len(alone))

    if progress is not None:
        tick(0, len(texts))

    results = map_in_order(
        one,
        range(len(texts)),
        weights=weights,
        progress=tick if progress is not None else None,
    )
    findings: list[Finding] = []
    rows: list[PairTerms] = []
    unread: dict[str, tuple[int, int]] = {}
    for pair, (found, row, not_read) in zip(pairs, results[: len(pairs)], strict=True):
        findings.extend(found)
        if row is not None:
            rows.append(row)
        if any(not_read):
            unread[pair.id] = not_read
    everything = Corpus(rows, run, [p.target for p in pairs if p.target is not None])
    for k, c in enumerate(corpus):
        if progress is not None:
            progress(ACROSS, k, len(corpus))
        findings.extend(c.run(everything))
    if progress is not None:
        progress(ACROSS, len(corpus), len(corpus))
    for found, _, _ in results[len(pairs) :]:
        findings.extend(found)
    all_pairs = [*pairs, *(alone or ())]
    order = {p.id: i for i, p in enumerate(all_pairs)}
    check_order = {c: i for i, c in enumerate(CHECK_IDS)}
    findings.sort(
        key=lambda f: (
            order.get(f.pair_id, len(order)),
            (f.source_span or f.target_span or (0, 0))[0],
            check_order[f.check],
        )
    )
    return Report(all_pairs, _dedupe(findings), dict(inputs or {}), unread)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """The first of the findings alike in check, pair, spans and message, in order."""
    first: dict[tuple, Finding] = {}
    for f in findings:
        first.setdefault((f.check, f.pair_id, f.source_span, f.target_span, f.message), f)
    return list(first.values())
