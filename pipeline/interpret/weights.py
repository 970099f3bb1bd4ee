"""Exact distributions as integer weights, summed by convolution.

icepool adds two dice by enumerating every pair of outcomes and sums n dice by recursion
(`1000 @ d6` passes the recursion limit; a sum of 1,000 dice takes minutes). Here a sum
runs over dense lists of Python integers: a uniform die (D6, D3, D1000) is folded in with a
running sum, two additions per value whatever its faces; any other dense distribution with
one shifted add per outcome; sparse ones (`1000*D6`) pair by pair. Weights stay exact. The
lists are added by `map` over `operator.add`, element by element in C as numpy's object
arrays did, without numpy's import (a tenth of a second) at every start. icepool is
imported only to turn weights into its `Die`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from operator import add, mul, sub
from typing import TYPE_CHECKING

from pipeline.interpret.limits import dense

if TYPE_CHECKING:
    import icepool


class Weights:
    """Integer weights of values: dense (`arr[i]` weighs `lo + i`) or a sparse mapping."""

    __slots__ = ("arr", "lo", "table")

    def __init__(self, lo: int = 0, arr: list[int] | None = None, table: dict | None = None):
        self.lo = lo
        self.arr = arr
        self.table = table

    # --- building and reading ---------------------------------------------------------------
    @staticmethod
    def of(items: Iterable[tuple[int, int]]) -> Weights:
        """From (value, weight) pairs; dense when the values fill their range."""
        table: dict[int, int] = {}
        for v, q in items:
            if q:
                table[int(v)] = table.get(int(v), 0) + int(q)
        if not table:
            raise ValueError("a distribution needs at least one value")
        lo, hi = min(table), max(table)
        if not dense(len(table), hi - lo + 1):
            return Weights(table=table)
        arr = [0] * (hi - lo + 1)
        for v, q in table.items():
            arr[v - lo] = q
        return Weights(lo, arr)

    @staticmethod
    def point(value: int) -> Weights:
        return Weights(value, [1])

    @staticmethod
    def of_die(die: icepool.Die) -> Weights:
        return Weights.of((int(v), int(q)) for v, q in die.items())

    def items(self) -> list[tuple[int, int]]:
        """(value, weight), values ascending, zero weights left out."""
        if self.table is not None:
            return sorted(self.table.items())
        assert self.arr is not None
        return [(self.lo + i, q) for i, q in enumerate(self.arr) if q]

    def die(self) -> icepool.Die:
        import icepool

        return icepool.Die(dict(self.items()))

    def total(self) -> int:
        if self.table is not None:
            return sum(self.table.values())
        assert self.arr is not None
        return sum(self.arr)

    denominator = total  # read like an icepool die's by `dice.distribution` and `mean`

    def sparse(self) -> dict[int, int]:
        return dict(self.items()) if self.table is None else self.table

    # --- arithmetic -------------------------------------------------------------------------
    def negate(self) -> Weights:
        if self.table is not None:
            return Weights(table={-v: q for v, q in self.table.items()})
        assert self.arr is not None
        return Weights(-(self.lo + len(self.arr) - 1), self.arr[::-1])

    def scale(self, factor: int) -> Weights:
        if self.table is not None:
            return Weights(table={v: q * factor for v, q in self.table.items()})
        assert self.arr is not None
        return Weights(self.lo, list(map(mul, self.arr, itertools.repeat(factor))))

    def __add__(self, other: Weights) -> Weights:
        """The sum of two independent values (convolution)."""
        if self.arr is None or other.arr is None:
            return _pairs(self.sparse(), other.sparse(), int.__add__)
        a, b = (self, other) if len(self.arr) >= len(other.arr) else (other, self)
        assert a.arr is not None and b.arr is not None
        lo = a.lo + b.lo
        step = _uniform(b.arr)
        if step is not None:  # a running sum over a window as wide as the die
            m = len(b.arr)
            run = [0] * m + list(itertools.accumulate(a.arr + [0] * (m - 1)))
            out = list(map(sub, run[m:], run[:-m]))
            return Weights(lo, out if step == 1 else list(map(mul, out, itertools.repeat(step))))
        n = len(a.arr)
        out = [0] * (n + len(b.arr) - 1)
        for i, q in enumerate(b.arr):
            if q:
                row = a.arr if q == 1 else map(mul, a.arr, itertools.repeat(q))
                out[i : i + n] = map(add, out[i : i + n], row)
        return Weights(lo, out)

    def __mul__(self, other: Weights) -> Weights:
        return _pairs(self.sparse(), other.sparse(), int.__mul__)

    def merge(self, other: Weights) -> Weights:
        """Both weightings together (a mixture of two weighted branches)."""
        table = dict(self.sparse())
        for v, q in other.items():
            table[v] = table.get(v, 0) + q
        return Weights.of(table.items())


def _uniform(arr: list[int]) -> int | None:
    """The common weight of a distribution that weighs every value of its range alike."""
    first = arr[0]
    if not first or any(q != first for q in arr[1:]):
        return None
    return first


def _pairs(a: dict[int, int], b: dict[int, int], op) -> Weights:  # type: ignore[no-untyped-def]
    out: dict[int, int] = {}
    for x, p in a.items():
        for y, q in b.items():
            v = op(x, y)
            out[v] = out.get(v, 0) + p * q
    return Weights.of(out.items())


def repeat(face: Weights, count: int) -> Weights:
    """The sum of `count` independent values weighted like `face`, one folded in at a time."""
    out = Weights.point(0)
    for _ in range(count):
        out = out + face
    return out


def reroll(face: Weights, values: set[int], depth: int) -> Weights:
    """A die whose `values` are re-rolled, `depth` times at most: the first roll kept when
    it is not one of them, else the die re-rolled (icepool's `Die.reroll`, same weights)."""
    items = face.items()
    total = face.total()
    again = sum(q for v, q in items if v in values)
    out, out_total = items, total
    for _ in range(depth):
        out = [(v, (0 if v in values else q * out_total) + again * r)
               for (v, q), (_, r) in zip(items, out, strict=True)]  # fmt: skip
        out_total *= total
    return Weights.of(out)


def random_count(count: Weights, face: Weights) -> Weights:
    """The sum of N values like `face`, N itself weighted by `count` (`(D3)D6`)."""
    counts = count.sparse()
    most = max(counts)
    total = face.total()
    out: Weights | None = None
    cur = Weights.point(0)
    for n in range(most + 1):
        if n:
            cur = cur + face
        if counts.get(n):
            part = cur.scale(counts[n] * total ** (most - n))
            out = part if out is None else out.merge(part)
    assert out is not None
    return out
