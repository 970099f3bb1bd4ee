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


@cache
def _length_costs(ratio: float) -> dict[tuple[int, int], float]:
    """(source length, target length) -> `_length_cost` at `ratio`, shared by every pair:
    paragraphs of one book repeat their sentence lengths, so most are worked out once."""
    return {}


#: Entries `_length_costs` keeps per ratio between searches (about 8 MB): one long pair
#: (a chapter in one translation unit) may add millions, not kept past its search.
_MAX_LENGTH_COSTS = 1 << 16


#: Grids up to this many cells are searched whole: every alignment is weighed (the
#: paragraphs of real books have tens of sentences, 2,500 cells at most).
FULL_GRID = 40_000
#: A longer pair (one translation unit of a whole chapter) is searched in a band around
#: the diagonal, widened while the best path touches its edge, up to this many cells:
#: linear in the sentences instead of their product (3,000 sentences a side: 9 million
#: cells, minutes, before).
MAX_GRID = 400_000
_BAND = 16  # the first band's half-width, in sentences either side of the diagonal


def align_sentences(
    source_lengths: Sequence[int],
    target_lengths: Sequence[int],
    source_anchors: Sequence[Set[str]] = (),
    target_anchors: Sequence[Set[str]] = (),
    ratio: float = 1.0,
) -> list[Bead]:
    """The cheapest sequence of beads covering both sides in order.

    `ratio` is the expected target length per source character; anchors, when given, are
    one set per sentence. A pair whose grid is larger than FULL_GRID is searched in a band
    around the diagonal (see MAX_GRID).
    """
    grid = _Grid(source_lengths, target_lengths, source_anchors, target_anchors, ratio)
    n, m = grid.n, grid.m
    if (n + 1) * (m + 1) <= FULL_GRID:
        return grid.search(None)[0]
    # the first band as wide as _BAND, or narrower to stay within MAX_GRID (never under
    # 2: a band that narrow still reaches the far corner whatever the lengths)
    width = max(2, min(_BAND, (MAX_GRID // (n + 1) - 1) // 2 - grid.reach(0)))
    while True:
        beads, touches = grid.search(width)
        wider = width * 2
        if not touches or (n + 1) * (2 * grid.reach(wider) + 1) > MAX_GRID:
            return beads
        width = wider


class _Grid:
    """The dynamic programme of one pair, searched whole or in a band."""

    def __init__(
        self,
        source_lengths: Sequence[int],
        target_lengths: Sequence[int],
        source_anchors: Sequence[Set[str]],
        target_anchors: Sequence[Set[str]],
        ratio: float,
    ) -> None:
        self.n, self.m = len(source_lengths), len(target_lengths)
        self.ratio = ratio
        self.ps = _prefix(source_lengths)
        self.pt = _prefix(target_lengths)
        sa, ta = list(source_anchors), list(target_anchors)
        self.anchored = bool(sa and ta)
        # the union of the anchors of k sentences from each place, made once each
        self.sa = _unions(sa, {di for di, _, _ in _costs()}) if self.anchored else {}
        self.ta = _unions(ta, {dj for _, dj, _ in _costs()}) if self.anchored else {}
        self.weight = params()["sentences"]["anchor_weight"]
        self._length = _length_costs(ratio)

    def reach(self, width: int) -> int:
        """Half the band's width in target sentences: `width` and the diagonal's slope."""
        return width + -(-self.m // max(self.n, 1))

    def search(self, width: int | None) -> tuple[list[Bead], bool]:
        """The best beads in the whole grid (width None), or in the band of `width` with
        whether the best path comes near the band's edge (then a wider band may do
        better)."""
        n, m = self.n, self.m
        if width is None:
            lo = [0] * (n + 1)
            hi = [m] * (n + 1)
        else:
            reach = self.reach(width)
            lo = [max(0, i * m // max(n, 1) - reach) for i in range(n + 1)]
            hi = [min(m, -(-i * m // max(n, 1)) + reach) for i in range(n + 1)]
            if n == 0:
                hi = [m]
        inf = math.inf
        cost = [[inf] * (hi[i] - lo[i] + 1) for i in range(n + 1)]
        back: list[list[int]] = [[-1] * (hi[i] - lo[i] + 1) for i in range(n + 1)]
        cost[0][0] = 0.0
        beads = _costs()
        ps, pt, memo, ratio = self.ps, self.pt, self._length, self.ratio
        anchored, weight, sa, ta = self.anchored, self.weight, self.sa, self.ta
        for i in range(n + 1):
            row, low = cost[i], lo[i]
            for j in range(low, hi[i] + 1):
                here = row[j - low]
                if here == inf:
                    continue
                for k, (di, dj, prior) in enumerate(beads):
                    ni, nj = i + di, j + dj
                    if ni > n or nj < lo[ni] or nj > hi[ni]:
                        continue
                    key = (ps[ni] - ps[i], pt[nj] - pt[j])
                    length = memo.get(key)
                    if length is None:  # worked out once for each pair of lengths
                        length = memo[key] = _length_cost(key[0], key[1], ratio)
                    total = here + prior + length
                    if anchored and di and dj:
                        total += weight * len(sa[di][i] ^ ta[dj][j])
                    at = nj - lo[ni]
                    if total < cost[ni][at]:
                        cost[ni][at] = total
                        back[ni][at] = k
        path: list[Bead] = []
        touches = False
        i, j = n, m
        while i or j:
            k = back[i][j - lo[i]]
            assert k >= 0
            di, dj, _ = beads[k]
            path.append(Bead(f"{di}-{dj}", tuple(range(i - di, i)), tuple(range(j - dj, j))))
            i, j = i - di, j - dj
            near = (j - lo[i] < 3 and lo[i] > 0) or (hi[i] - j < 3 and hi[i] < m)
            touches = touches or near
        path.reverse()
        if len(memo) > _MAX_LENGTH_COSTS:
            memo.clear()
        return path, touches


def _prefix(lengths: Sequence[int]) -> list[int]:
    out = [0]
    for x in lengths:
        out.append(out[-1] + x)
    return out


def _unions(anchors: list[Set[str]], sizes: Set[int]) -> dict[int, list[frozenset[str]]]:
    """k -> the union of the anchors of the k sentences from each place, for each bead
    size k."""
    return {
        k: [frozenset().union(*anchors[i : i + k]) for i in range(len(anchors))] for k in sizes if k
    }
