"""Dice expressions -> exact distributions (icepool dice).

The rule texts write dice the way players say them (`2D6`, `D3+1`, `X+D6`, `4D6 drop lowest`),
sometimes with Cyrillic letters (`Д6`, `К6`, `Х+D6`). This module reads that notation into an
icepool `Die`, whose outcomes carry integer weights, so every probability stays an exact
fraction.

Grammar (case of keywords free, spaces free)::

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "×") unary)*
    unary   := "-" unary | pool
    pool    := primary modifier*
    primary := NUMBER | VAR | [NUMBER | VAR | "(" expr ")"] "D" NUMBER | "(" expr ")"
    modifier:= "drop" ("lowest" | "highest") [NUMBER]
             | "keep" ("highest" | "lowest") [NUMBER]
             | "reroll" (NUMBER ("," NUMBER)* | ("<=" | "<" | ">=" | ">") NUMBER)
             | "maximised" | "maximized"          (one extra die, the lowest dropped)

`D3` is half a D6 rounded up (core data); a re-roll happens at most once. Variables are single
capital letters (`X`) bound by the caller to a number or another expression.

An expression is read into a tree first, priced (its outcomes and steps, `limits`) and only
then computed: sums and re-rolls by convolution (`weights`), drop/keep pools by icepool,
which is imported then only: `roll 3D6` starts without it (a third of its time).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from pipeline.errors import InputError
from pipeline.interpret import limits, weights
from pipeline.interpret.core import core
from pipeline.interpret.limits import (
    MAX_DICE,
    MAX_KEEP_SIDES,
    MAX_NESTING,
    MAX_SIDES,
    MAX_VARIABLE_DEPTH,
)
from pipeline.interpret.weights import Weights
from pipeline.lang import notation

if TYPE_CHECKING:
    import icepool

    Binding = int | str | icepool.Die
    Bindings = Mapping[str, Binding]

# Letters that mean "D" before the number of sides (Д6, К6) and the homoglyphs of X are
# language data (pipeline/lang/folds.yaml).
_NOTATION = notation()
_DIE = _NOTATION.die_letters
_FOLD = str.maketrans(
    dict.fromkeys(_NOTATION.looks_like("X"), "X")
    | {"−": "-", "–": "-", "—": "-", "≤": "<=", "≥": ">="}
)

_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<num>\d+)
  | (?P<kw>(?i:drop|keep|highest|lowest|reroll|re-roll|maximi[sz]ed)(?![A-Za-z]))
  | (?P<die>[{_DIE}])(?=\d)
  | (?P<var>[A-Z])(?=[{_DIE}]\d|[^A-Za-zА-Яа-я]|$)
  | (?P<op><=|>=|<|>|,|\+|-|\*|×|\(|\))
    """,
    re.VERBOSE,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    text: str
    pos: int


def tokenize(text: str, source: str = "expression") -> list[Token]:
    """Split an expression into tokens; an unknown character is an error with its column."""
    folded = text.translate(_FOLD)
    tokens: list[Token] = []
    pos = 0
    while pos < len(folded):
        m = _TOKEN.match(folded, pos)
        if m is None:
            raise InputError(
                source, f"unexpected {folded[pos]!r} in dice expression {text!r}", f"col {pos + 1}"
            )
        kind = m.lastgroup or ""
        if kind != "ws":
            word = m.group()
            if kind == "kw":
                word = word.lower().replace("re-roll", "reroll").replace("maximized", "maximised")
            tokens.append(Token(kind, word, pos))
        pos = m.end()
    if not tokens:
        raise InputError(source, "empty dice expression")
    return tokens


# --- the expression tree: read first, priced (limits), then computed -----------------------


@dataclass(frozen=True, slots=True)
class _Const:
    value: int


@dataclass(frozen=True, slots=True)
class _Given:
    """A variable bound to a die by the caller."""

    die: icepool.Die


@dataclass
class _Pool:
    """NdS with its modifiers; `count` is a number or an expression rolled for it."""

    count: int | _Node
    sides: int
    start: Token | None = None
    reroll: set[int] = field(default_factory=set)
    drop_lowest: int = 0
    drop_highest: int = 0
    keep: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class _Neg:
    inner: _Node


@dataclass(frozen=True, slots=True)
class _Sum:
    terms: tuple[_Node, ...]  # subtraction is the sum of a negated term


@dataclass(frozen=True, slots=True)
class _Product:
    factors: tuple[_Node, ...]


_Node = _Const | _Given | _Pool | _Neg | _Sum | _Product


def single_die(sides: int) -> Weights:
    """One die of `sides` faces; D3 is read from the core data (half a D6 rounded up)."""
    spec = core().get("dice", {}).get(f"D{sides}")
    if spec is not None:
        base = single_die(int(str(spec["from"]).lstrip("Dd")))
        faces = list(spec["map"])
        return Weights.of((faces[v - 1], q) for v, q in base.items())
    return Weights(1, [1] * sides)


class _Parser:
    """Recursive descent over the tokens; every nested level (a parenthesis, a unary minus, a
    variable) counts against MAX_NESTING, so no input reaches the interpreter's stack limit."""

    def __init__(
        self, text: str, bindings: Bindings, source: str, depth: int, nesting: int = 0
    ) -> None:
        self.text = text
        self.source = source
        self.bindings = bindings
        self.depth = depth
        self.nesting = nesting
        self.tokens = tokenize(text, source)
        self.i = 0

    # --- helpers -------------------------------------------------------------------------
    def error(self, what: str, tok: Token | None = None) -> InputError:
        tok = tok if tok is not None else self.peek()
        where = f"col {tok.pos + 1}" if tok is not None else f"col {len(self.text) + 1}"
        return InputError(self.source, f"{what} in dice expression {self.text!r}", where)

    def peek(self) -> Token | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, kind: str, text: str | None = None) -> Token | None:
        tok = self.peek()
        if tok is not None and tok.kind == kind and (text is None or tok.text == text):
            self.i += 1
            return tok
        return None

    def need(self, kind: str, text: str | None = None, what: str = "") -> Token:
        tok = self.take(kind, text)
        if tok is None:
            got = self.peek()
            found = repr(got.text) if got else "the end"
            raise self.error(f"expected {what or text or kind}, found {found}")
        return tok

    def number(self, what: str) -> int:
        return int(self.need("num", what=what).text)

    def enter(self, tok: Token | None) -> None:
        self.nesting += 1
        if self.nesting > MAX_NESTING:
            raise self.error(f"more than {MAX_NESTING} nested levels (the limit)", tok)

    # --- grammar -------------------------------------------------------------------------
    def parse(self) -> _Node:
        node = self.expr()
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return node

    def expr(self) -> _Node:
        terms = [self.term()]
        while True:
            if self.take("op", "+"):
                terms.append(self.term())
            elif self.take("op", "-"):
                terms.append(_Neg(self.term()))
            else:
                return terms[0] if len(terms) == 1 else _Sum(tuple(terms))

    def term(self) -> _Node:
        factors = [self.unary()]
        while self.take("op", "*") or self.take("op", "×"):
            factors.append(self.unary())
        return factors[0] if len(factors) == 1 else _Product(tuple(factors))

    def unary(self) -> _Node:
        tok = self.take("op", "-")
        if tok is not None:
            self.enter(tok)
            node = _Neg(self.unary())
            self.nesting -= 1
            return node
        return self.pool()

    def pool(self) -> _Node:
        value = self.primary()
        if not isinstance(value, _Pool):
            if self.peek() is not None and self.peek().kind == "kw":  # type: ignore[union-attr]
                raise self.error("drop/keep/reroll/maximised need dice before them")
            return value
        while (tok := self.take("kw")) is not None:
            self.modifier(value, tok)
        self.check_pool(value)
        return value

    def primary(self) -> _Node:
        tok = self.peek()
        if tok is None:
            raise self.error("expected a number, a die or a variable")
        count: _Node | None = None
        if self.take("num"):
            count = _Const(int(tok.text))
        elif self.take("var"):
            count = self.variable(tok)
        elif self.take("op", "("):
            self.enter(tok)
            count = self.expr()
            self.need("op", ")")
            self.nesting -= 1
        elif tok.kind != "die":
            raise self.error(f"unexpected {tok.text!r}")
        if self.take("die"):
            sides = self.number("the number of sides after D")
            if not 1 <= sides <= MAX_SIDES:
                raise self.error(f"a die needs 1 to {MAX_SIDES} sides, not {sides}")
            n: int | _Node = 1 if count is None else _fixed(count)
            if not isinstance(n, int):
                size = _size(n, self.source, repr(self.text))
                if size.lo < 0:
                    raise self.error("a number of dice cannot be negative")
                n = size.lo if size.outcomes == 1 and size.lo == size.hi else n
                if not isinstance(n, int) and size.hi > MAX_DICE:
                    raise self.error(f"a roll takes 0 to {MAX_DICE} dice, not up to {size.hi}")
            if isinstance(n, int) and not 0 <= n <= MAX_DICE:
                raise self.error(f"a roll takes 0 to {MAX_DICE} dice, not {n}")
            return _Pool(n, sides, tok)
        assert count is not None
        return count

    def variable(self, tok: Token) -> _Node:
        if tok.text not in self.bindings:
            raise self.error(
                f"{tok.text} is not given (bind it: --set {tok.text}=3, or rule(3) in a reference)",
                tok,
            )
        value = self.bindings[tok.text]
        if isinstance(value, bool) or not isinstance(value, int | str):
            if _is_die(value):
                return _Given(value)  # type: ignore[arg-type]
            raise InputError(self.source, f"expected a number or dice expression, not {value!r}")
        if isinstance(value, int):
            return _Const(value)
        if self.depth + 1 > MAX_VARIABLE_DEPTH:
            raise _too_deep(self.source, value)
        self.enter(tok)
        inner = _Parser(value, self.bindings, self.source, self.depth + 1, self.nesting).parse()
        self.nesting -= 1
        return inner

    def modifier(self, spec: _Pool, tok: Token) -> None:
        if tok.text in ("drop", "keep"):
            side = self.take("kw", "lowest") or self.take("kw", "highest")
            if side is None:
                raise self.error(f"'{tok.text}' needs 'lowest' or 'highest'")
            n = int(self.take("num").text) if self.peek() and self.peek().kind == "num" else 1  # type: ignore[union-attr]
            if tok.text == "drop":
                if side.text == "lowest":
                    spec.drop_lowest += n
                else:
                    spec.drop_highest += n
            else:
                spec.keep = (side.text, n)
        elif tok.text == "maximised":
            if not isinstance(spec.count, int):
                raise self.error("a maximised roll needs a fixed number of dice", tok)
            extra = core().get("dice", {}).get("maximised_roll", {"extra_dice": 1})
            spec.count += int(extra.get("extra_dice", 1))
            spec.drop_lowest += int(extra.get("extra_dice", 1))
            if spec.count > MAX_DICE:
                raise self.error(f"a roll takes 0 to {MAX_DICE} dice, not {spec.count}", tok)
        elif tok.text == "reroll":
            spec.reroll |= self.reroll_values(spec.sides)
        else:
            raise self.error(f"'{tok.text}' needs a drop/keep before it", tok)

    def reroll_values(self, sides: int) -> set[int]:
        for op, test in (
            ("<=", lambda v, n: v <= n),
            (">=", lambda v, n: v >= n),
            ("<", lambda v, n: v < n),
            (">", lambda v, n: v > n),
        ):
            if self.take("op", op):
                n = self.number("a face value")
                return {v for v in range(1, sides + 1) if test(v, n)}
        values = {self.number("the face values to re-roll")}
        while self.take("op", ","):
            values.add(self.number("a face value"))
        return values

    def check_pool(self, spec: _Pool) -> None:
        """The modifiers of a pool fit together (before anything is rolled)."""
        start = spec.start
        if spec.reroll and {v for v, _ in _face(spec).items()} <= spec.reroll:
            raise self.error("every face would be re-rolled", start)
        dropped = spec.drop_lowest + spec.drop_highest
        if not isinstance(spec.count, int):
            if dropped or spec.keep:
                raise self.error("drop/keep need a fixed number of dice", start)
            return
        if (dropped or spec.keep) and spec.sides > MAX_KEEP_SIDES:
            raise self.error(
                f"drop/keep take dice of up to {MAX_KEEP_SIDES} sides (the limit), "
                f"not {spec.sides}",
                start,
            )
        n = spec.count
        if spec.keep is not None:
            k = spec.keep[1]
            if dropped:
                raise self.error("use either keep or drop, not both", start)
            if k > n:
                raise self.error(f"cannot keep {k} of {n} dice", start)
        elif dropped and dropped >= n:
            raise self.error(f"cannot drop {dropped} of {n} dice", start)


def _too_deep(source: str, value: str) -> InputError:
    limit = MAX_VARIABLE_DEPTH
    return InputError(source, f"variables refer to each other more than {limit} deep in {value!r}")


def _is_die(value: object) -> bool:
    """An icepool die given by a caller; only a value that is no number or text is asked,
    so that reading an expression imports no icepool."""
    import icepool

    return isinstance(value, icepool.Die)


def _fixed(node: _Node) -> int | _Node:
    return node.value if isinstance(node, _Const) else node


@lru_cache(maxsize=64)
def _face_of(sides: int, reroll: tuple[int, ...]) -> Weights:
    die = single_die(sides)
    faces = die.items()
    if reroll and not {v for v, _ in faces} <= set(reroll):
        die = weights.reroll(die, set(reroll), int(core().get("dice", {}).get("reroll_depth", 1)))
    return die


def _face(spec: _Pool) -> Weights:
    """One die of the pool, re-rolls applied."""
    return _face_of(spec.sides, tuple(sorted(spec.reroll)))


def _kept(spec: _Pool) -> int | None:
    """How many dice a drop/keep pool sums, None for a plain sum."""
    if not isinstance(spec.count, int):
        return None
    if spec.keep is not None:
        return spec.keep[1]
    dropped = spec.drop_lowest + spec.drop_highest
    return spec.count - dropped if dropped else None


def _die_size(die: Weights) -> limits.Size:
    faces = die.items()
    values = [v for v, _ in faces]
    bits = die.total().bit_length()
    return limits.die(len(values), min(values), max(values), len({q for _, q in faces}) == 1, bits)


def _size(node: _Node, source: str, what: str = "the expression") -> limits.Size:
    """The outcomes and the work of a node, priced before anything is computed; a node past
    the limits is refused here."""
    if isinstance(node, _Const):
        size = limits.constant(node.value)
    elif isinstance(node, _Given):
        size = _die_size(Weights.of_die(node.die))
    elif isinstance(node, _Neg):
        size = limits.negate(_size(node.inner, source, what))
    elif isinstance(node, _Sum):
        size = _size(node.terms[0], source, what)
        for t in node.terms[1:]:
            size = limits.check(limits.add(size, _size(t, source, what)), what, source)
    elif isinstance(node, _Product):
        size = _size(node.factors[0], source, what)
        for f in node.factors[1:]:
            size = limits.check(limits.multiply(size, _size(f, source, what)), what, source)
    else:
        face = _die_size(_face(node))
        kept = _kept(node)
        if isinstance(node.count, int):
            n = node.count
            size = limits.repeat(face, n) if kept is None else limits.pool(face, n, kept)
        else:
            size = limits.random_count(_size(node.count, source, what), face)
    return limits.check(size, what, source)


def _compute(node: _Node) -> Weights:
    if isinstance(node, _Const):
        return Weights.point(node.value)
    if isinstance(node, _Given):
        return Weights.of_die(node.die)
    if isinstance(node, _Neg):
        return _compute(node.inner).negate()
    if isinstance(node, _Sum):
        out = _compute(node.terms[0])
        for t in node.terms[1:]:
            if isinstance(t, _Pool) and isinstance(t.count, int) and _kept(t) is None:
                face = _face(t)  # its dice one by one: each a running sum
                for _ in range(t.count):
                    out = out + face
            else:
                out = out + _compute(t)
        return out
    if isinstance(node, _Product):
        out = _compute(node.factors[0])
        for f in node.factors[1:]:
            out = out * _compute(f)
        return out
    face = _face(node)
    kept = _kept(node)
    if not isinstance(node.count, int):
        return weights.random_count(_compute(node.count), face)
    if kept is None:
        return weights.repeat(face, node.count)
    pool = face.die().pool(node.count)
    if node.keep is not None:
        side, k = node.keep
        return Weights.of_die((pool.highest(k) if side == "highest" else pool.lowest(k)).sum())
    if node.drop_highest:
        pool = pool.lowest(node.count - node.drop_highest)
    return Weights.of_die(pool.highest(kept).sum())


def evaluate(text: str, node: _Node, source: str) -> Weights:
    """Price the expression (refused past the limits, naming them), then compute it."""
    _size(node, source, repr(text))
    return _compute(node)


def repeat_sum(die: icepool.Die, count: int, source: str = "expression") -> icepool.Die:
    """The sum of `count` rolls of `die`, priced first (icepool's `count @ die` recurses once
    per roll and enumerates every pair)."""
    if count == 1:
        return die
    face = Weights.of_die(die)
    limits.check(limits.repeat(_die_size(face), count), f"{count} rolls of a die", source)
    return weights.repeat(face, count).die()


def to_die(
    value: Binding, bindings: Bindings | None = None, source: str = "expression"
) -> icepool.Die:
    """A number, an expression string or a die, as a die."""
    if isinstance(value, str) and not bindings:
        return _parse_cached(value, source)
    if isinstance(value, str):
        return weigh(value, bindings, source).die()
    if isinstance(value, bool) or not (isinstance(value, int) or _is_die(value)):
        raise InputError(source, f"expected a number or dice expression, not {value!r}")
    import icepool

    return icepool.Die([value]) if isinstance(value, int) else value  # type: ignore[return-value]


def weigh(
    text: str, bindings: Bindings | None = None, source: str = "expression", depth: int = 0
) -> Weights:
    """A dice expression's exact weights; only drop/keep pools and dice given as
    bindings import icepool."""
    if depth > MAX_VARIABLE_DEPTH:
        raise _too_deep(source, text)
    return evaluate(text, _Parser(text, dict(bindings or {}), source, depth).parse(), source)


@lru_cache(maxsize=512)
def _parse_cached(text: str, source: str) -> icepool.Die:
    return weigh(text, None, source).die()


def parse(text: str, bindings: Bindings | None = None, source: str = "expression") -> icepool.Die:
    """Read a dice expression into an exact distribution.

    >>> parse("3D6").mean()
    Fraction(21, 2)
    """
    return to_die(text, bindings, source)


def distribution(die: icepool.Die | Weights) -> list[tuple[int, Fraction]]:
    """(value, exact probability) pairs, values ascending, zero-probability values left out."""
    total = die.denominator()
    return [(int(v), Fraction(q, total)) for v, q in sorted(die.items()) if q]


def mean(die: icepool.Die | Weights) -> Fraction:
    """The exact mean as a fraction."""
    total = die.denominator()
    return Fraction(sum(int(v) * q for v, q in die.items()), total)


def p_all_equal(text: str, bindings: Bindings | None = None) -> Fraction:
    """P(every die of a pool like `3D6` shows the same face): Shambolic's triple.

    Only a plain pool NdS (optionally with re-rolls) has a meaning here.
    """
    spec = _Parser(text, dict(bindings or {}), "expression", 0).parse()
    if (
        not isinstance(spec, _Pool)
        or not isinstance(spec.count, int)
        or spec.drop_lowest
        or spec.drop_highest
        or spec.keep
    ):
        raise InputError("expression", f"'all equal' needs a plain pool like 3D6, not {text!r}")
    die = _face(spec)
    total = die.denominator()
    return sum(
        (Fraction(q, total) ** spec.count for _, q in die.items()),
        start=Fraction(0),
    )
