"""Sentence alignment inside a linked pair of paragraphs.

A dynamic programme over beads (1-1, 1-2, 2-1, 1-0, 0-1) in the manner of Gale and Church:
each bead costs its type's prior plus how far the lengths are from the language's expected
ratio, less a bonus for the quantities and glossary terms both sides share. A source sentence
left in a 1-0 bead is one the translation dropped; checks point at it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .paragraphs import params

Span = tuple[int, int]
_MOVES = {"1-1": (1, 1), "1-2": (1, 2), "2-1": (2, 1), "1-0": (1, 0), "0-1": (0, 1)}


@dataclass(frozen=True, slots=True)
class Bead:
    """Source sentences `source` aligned with target sentences `target` (indices)."""

    type: str
    source: tuple[int, ...]
    target: tuple[int, ...]


def _jaccard(a: Counter[str], b: Counter[str]) -> float:
    union = sum((a | b).values())
    return sum((a & b).values()) / union if union else 0.0


def align_sentences(
    source_lengths: Sequence[int],
    target_lengths: Sequence[int],
    source_anchors: Sequence[Counter[str]],
    target_anchors: Sequence[Counter[str]],
    ratio: float,
) -> list[Bead]:
    """The cheapest sequence of beads covering both sides in order."""
    p = params()["sentences"]
    n, m = len(source_lengths), len(target_lengths)
    inf = math.inf
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[str | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            for kind, (di, dj) in _MOVES.items():
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                c = here + p["prior"][kind]
                if di and dj:
                    ls = sum(source_lengths[i:ni])
                    lt = sum(target_lengths[j:nj])
                    c += p["length"] * abs(math.log((lt + 1) / (ratio * ls + 1)))
                    a = sum(source_anchors[i:ni], Counter())
                    b = sum(target_anchors[j:nj], Counter())
                    if a and b:
                        c -= p["anchors"] * _jaccard(a, b)
                if c < cost[ni][nj]:
                    cost[ni][nj] = c
                    back[ni][nj] = kind
    beads: list[Bead] = []
    i, j = n, m
    while i or j:
        kind = back[i][j]
        assert kind is not None
        di, dj = _MOVES[kind]
        beads.append(Bead(kind, tuple(range(i - di, i)), tuple(range(j - dj, j))))
        i, j = i - di, j - dj
    beads.reverse()
    return beads
