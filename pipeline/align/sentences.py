"""Sentence alignment inside a pair of paragraphs (a linked pair, or a pair being checked).

Gale and Church (1993): a translation's length in characters is about proportional to its
source's, with a variance that grows with length. A dynamic programme picks the cheapest
sequence of beads (1-1, 1-2, 2-1, 2-2, 1-3, 3-1, 1-0, 0-1): each costs minus the log of its
prior, minus the log of the normal tail of its length difference, and a price for every
anchor (quantity, glossary term) found on one side of it only. A source sentence left in a
1-0 bead is one the translation dropped; checks point at it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence, Set
from dataclasses import dataclass
from functools import cache

from .paragraphs import params

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Bead:
    """Source sentences `source` aligned with target sentences `target` (indices)."""

    type: str
    source: tuple[int, ...]
    target: tuple[int, ...]


@cache
def _costs() -> tuple[tuple[int, int, float], ...]:
    """(source count, target count, -log prior) per bead type, from params.yaml."""
    priors = params()["sentences"]["priors"]
    out = []
    for kind, prior in priors.items():
        di, dj = (int(x) for x in kind.split("-"))
        out.append((di, dj, -math.log(prior)))
    return tuple(out)


def _length_cost(ls: int, lt: int, ratio: float) -> float:
    if ls == 0 or lt == 0:
        # A sentence with no counterpart costs its prior only: the normal model would make
        # any long dropped sentence cheaper to hide in a 2-1 bead than to show.
        return 0.0
    mean = (ls + lt / ratio) / 2
    delta = (lt - ls * ratio) / math.sqrt(max(mean, 1.0) * params()["sentences"]["variance"])
    tail = math.erfc(abs(delta) / math.sqrt(2))  # two-sided tail of the normal
    return -math.log(max(tail, 1e-300))


def align_sentences(
    source_lengths: Sequence[int],
    target_lengths: Sequence[int],
    source_anchors: Sequence[Set[str]] = (),
    target_anchors: Sequence[Set[str]] = (),
    ratio: float = 1.0,
) -> list[Bead]:
    """The cheapest sequence of beads covering both sides in order.

    `ratio` is the expected target length per source character; anchors, when given, are
    one set per sentence.
    """
    anchor_weight = params()["sentences"]["anchor_weight"]
    sa, ta = list(source_anchors), list(target_anchors)
    n, m = len(source_lengths), len(target_lengths)
    inf = math.inf
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            for di, dj, prior in _costs():
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                ls = sum(source_lengths[i:ni])
                lt = sum(target_lengths[j:nj])
                total = here + prior + _length_cost(ls, lt, ratio)
                if sa and ta and di and dj:
                    a = set().union(*sa[i:ni])
                    b = set().union(*ta[j:nj])
                    total += anchor_weight * len(a ^ b)
                if total < cost[ni][nj]:
                    cost[ni][nj] = total
                    back[ni][nj] = (di, dj)
    beads: list[Bead] = []
    i, j = n, m
    while i or j:
        step = back[i][j]
        assert step is not None
        di, dj = step
        beads.append(Bead(f"{di}-{dj}", tuple(range(i - di, i)), tuple(range(j - dj, j))))
        i, j = i - di, j - dj
    beads.reverse()
    return beads
