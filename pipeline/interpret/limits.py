"""The interpreter's bounds, in one place: each input is priced by the work it implies
before any of that work is done, and refused (exit 2, the limit named) when it is too dear.

A price is an estimate in *steps*, roughly 0.1 to 0.3 microseconds each on small weights:
one big-integer addition over a dense array, a tenth of a pair of outcomes combined in a
Python loop (products, sparse sums), a state of icepool's drop/keep evaluation, one state of
the casualty chain moved by one wound. docs/limits.md lists the bounds with their comments
here (made by tests/gen_docs.py; a test keeps the two equal).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.errors import InputError

MAX_SIDES = 1000  # faces of one die
MAX_KEEP_SIDES = 100  # faces of the dice of a pool with drop/keep (sorted face by face)
MAX_DICE = 1000  # dice in one pool (NdS)
MAX_OUTCOMES = 20_000  # distinct outcomes of one distribution
MAX_STEPS = 50_000_000  # estimated work of one roll, table, charge or attack
MAX_NESTING = 64  # parentheses, unary minus and variables nested in a dice expression
MAX_VARIABLE_DEPTH = 8  # variables bound to expressions that use variables
MAX_ROLLS = 2000  # attack rolls (and automatic hits) of one attack
MAX_TABLE_CHAIN = 10  # tables one roll chains through
MAX_GRANT_DEPTH = 8  # rules granting rules granting rules
MAX_GRANTS = 10_000  # rule references a side's rules expand to, grants followed

# what a pair of outcomes combined in a Python loop costs against one element of a dense
# convolution (measured: 10^4 pairs of D100*D100 in 0.03 s)
PAIR_STEPS = 10
# a step on weights of this many bits takes twice as long as one on small weights
BITS_PER_STEP = 3000


@dataclass(frozen=True, slots=True)
class Size:
    """What a distribution may hold, known before computing it: at most `outcomes` distinct
    values between `lo` and `hi`, and the `steps` its computation takes."""

    outcomes: int
    lo: int
    hi: int
    steps: int = 0
    uniform: bool = False  # one die: equal weights on every value of its range
    bits: int = 0  # size of its integer weights: big numbers add slower

    @property
    def span(self) -> int:
        return self.hi - self.lo + 1

    @property
    def dense(self) -> bool:
        """Whether its values fill their range well enough for an array convolution."""
        return dense(self.outcomes, self.span)


def dense(outcomes: int, span: int) -> bool:
    """The rule both the estimate and the computation follow to pick a convolution."""
    return span <= 4 * outcomes + 16


def constant(value: int) -> Size:
    return Size(1, value, value)


def die(outcomes: int, lo: int, hi: int, uniform: bool = False, bits: int = 0) -> Size:
    return Size(outcomes, lo, hi, 0, uniform and outcomes == hi - lo + 1, bits)


def _slow(bits: int) -> int:
    """How much longer an addition of weights of `bits` bits takes than one of small ones."""
    return 1 + bits // BITS_PER_STEP


def sum_steps(a: Size, b: Size) -> int:
    """Steps of one convolution: a running sum when one side is a uniform die, shifted adds
    of dense arrays, or pairs of sparse values."""
    slow = _slow(a.bits + b.bits)
    if a.dense and b.dense:
        if a.uniform or b.uniform:
            return 2 * (a.span + b.span) * slow
        return min(a.outcomes, b.outcomes) * (a.span + b.span) * slow
    return PAIR_STEPS * a.outcomes * b.outcomes * slow // 2


def add(a: Size, b: Size) -> Size:
    """a + b (and a - b, with b negated)."""
    lo, hi = a.lo + b.lo, a.hi + b.hi
    outcomes = min(a.outcomes * b.outcomes, hi - lo + 1)
    return Size(outcomes, lo, hi, a.steps + b.steps + sum_steps(a, b), bits=a.bits + b.bits)


def negate(a: Size) -> Size:
    return Size(a.outcomes, -a.hi, -a.lo, a.steps + a.outcomes, bits=a.bits)


def multiply(a: Size, b: Size) -> Size:
    corners = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
    lo, hi = min(corners), max(corners)
    outcomes = min(a.outcomes * b.outcomes, hi - lo + 1)
    steps = PAIR_STEPS * a.outcomes * b.outcomes * _slow(a.bits + b.bits)
    return Size(outcomes, lo, hi, a.steps + b.steps + steps, bits=a.bits + b.bits)


def repeat(face: Size, count: int) -> Size:
    """The sum of `count` dice like `face` (count times folding one more die in)."""
    lo, hi = face.lo * count, face.hi * count
    span = hi - lo + 1
    outcomes = min(span, face.outcomes**count if count < 64 else span)
    slow = _slow(count * face.bits // 2)  # the weights grow die by die
    if face.uniform:
        steps = count * (span + face.span) * slow
    elif face.dense:
        steps = count * face.outcomes * (span + face.span) * slow // 2
    else:
        steps = PAIR_STEPS * count * face.outcomes * outcomes * slow // 2
    return Size(outcomes, lo, hi, face.steps + steps, bits=count * face.bits)


def pool(face: Size, count: int, kept: int) -> Size:
    """`count` dice like `face`, `kept` of them summed (drop/keep): icepool's pool evaluation
    walks the faces, with every split of the dice left and every partial sum."""
    lo, hi = face.lo * kept, face.hi * kept
    outcomes = min(hi - lo + 1, face.outcomes**kept if kept < 64 else hi - lo + 1)
    steps = face.outcomes * (count + 1) * (count + 1) * outcomes
    return Size(outcomes, lo, hi, face.steps + steps, bits=count * face.bits)


def random_count(count: Size, face: Size) -> Size:
    """A number of dice that is itself rolled (`(D3)D6`): every count up to the largest."""
    most = max(count.hi, 0)
    total = repeat(face, most)
    lo = min(0, face.lo * most)
    hi = max(0, face.hi * most)
    steps = count.steps + total.steps + most * total.span * _slow(total.bits)
    bits = count.bits + total.bits
    return Size(min(hi - lo + 1, total.outcomes * (most + 1)), lo, hi, steps, bits=bits)


def casualty_steps(
    sources: Sequence[tuple[int, Sequence[int], int]], hp: int, models: int | None
) -> int:
    """The casualty chain: every roll of a source moves each state (damage on the front
    model x models removed) once per unsaved wound of each way the roll can end, on weights
    that grow by the bits of one roll's denominator at every roll.

    `sources` gives, per source, its most rolls, the lengths of the wound sequences one roll
    can end in, and the bits of one roll's denominator.
    """
    if hp == 1:  # a closed form per source: rolls x rolls
        return sum(rolls * rolls * max(len(seqs), 1) for rolls, seqs, _ in sources)
    steps, cols, bits = 0, 1, 0
    for rolls, seqs, roll_bits in sources:
        grow = max(seqs, default=0)
        end = cols + rolls * grow
        wide = min((cols + end) // 2 + 1, end if models is None else models + 1)
        slow = _slow(bits + rolls * roll_bits // 2)
        steps += rolls * sum(n + 1 for n in seqs) * hp * wide * slow
        cols = end if models is None else min(end, models + 1)
        bits += rolls * roll_bits
    return steps


def check_attack(
    sources: Sequence[tuple[int, Sequence[int], int]], hp: int, models: int | None, source: str
) -> None:
    """Refuse an attack whose casualty chain costs too much, before it is run."""
    check_steps(casualty_steps(sources, hp, models), "the attack", source)


def table_steps(tables: Sequence[tuple[int, int]], rows: int) -> int:
    """A table roll with its chains: each table reached is rolled once (`faces` values) and
    merges the outcomes (at most `rows` of them) of each table it chains to."""
    return sum(PAIR_STEPS * (faces + chains * rows) for faces, chains in tables)


def check_extra_hits(outcomes: int, extra: int, source: str) -> None:
    """Refuse extra hits of one roll (Battle Focus) whose wound sequences, each hit ending in
    one of `outcomes` ways, cost too much to list: outcomes ^ (extra + 1) of them."""
    steps = PAIR_STEPS
    for _ in range(extra + 1):
        steps *= max(outcomes, 1)
        if steps > MAX_STEPS:
            check_steps(
                PAIR_STEPS * max(outcomes, 2) ** min(extra + 1, 64), "the extra hits", source
            )
    check_steps(steps, "the extra hits", source)


def about(n: int) -> str:
    """A count in words a reader takes in at once: 950, 2×10^5, 10^9."""
    if n < 10_000:
        return f"{n:,}"
    exp = len(str(n)) - 1
    lead = round(n / 10**exp, 1)
    if lead >= 10:
        lead, exp = 1, exp + 1
    return f"10^{exp}" if lead == 1 else f"{lead:g}×10^{exp}"


def check(size: Size, what: str, source: str) -> Size:
    """Refuse, before computing, a distribution that has too many outcomes or costs too much."""
    if size.outcomes > MAX_OUTCOMES:
        raise InputError(
            source,
            f"{what} would have about {about(size.outcomes)} outcomes; "
            f"the limit is {about(MAX_OUTCOMES)}",
        )
    check_steps(size.steps, what, source)
    return size


def check_steps(steps: int, what: str, source: str) -> None:
    if steps > MAX_STEPS:
        raise InputError(
            source,
            f"{what} would need about {about(steps)} steps; the limit is {about(MAX_STEPS)}",
        )


def refuse_count(count: int, limit: int, what: str, source: str, where: str | None = None) -> None:
    """Refuse a count past its limit, naming both."""
    if count > limit:
        raise InputError(source, f"{what} is {about(count)}; the limit is {about(limit)}", where)
