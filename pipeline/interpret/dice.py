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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import icepool

from pipeline.errors import InputError
from pipeline.interpret.core import core
from pipeline.lang import notation

Binding = int | str | icepool.Die
Bindings = Mapping[str, Binding]

MAX_DICE = 200
MAX_SIDES = 1000
MAX_DEPTH = 8

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


@dataclass
class _PoolSpec:
    """NdS with its modifiers, turned into a die only once all modifiers are read."""

    count: int | icepool.Die
    sides: int
    reroll: set[int] = field(default_factory=set)
    drop_lowest: int = 0
    drop_highest: int = 0
    keep: tuple[str, int] | None = None


def single_die(sides: int) -> icepool.Die:
    """One die of `sides` faces; D3 is read from the core data (half a D6 rounded up)."""
    spec = core().get("dice", {}).get(f"D{sides}")
    if spec is not None:
        base = single_die(int(str(spec["from"]).lstrip("Dd")))
        faces = list(spec["map"])
        return base.map(lambda v: faces[v - 1])
    return icepool.d(sides)


class _Parser:
    def __init__(self, text: str, bindings: Bindings, source: str, depth: int) -> None:
        self.text = text
        self.source = source
        self.bindings = bindings
        self.depth = depth
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

    # --- grammar -------------------------------------------------------------------------
    def parse(self) -> icepool.Die:
        die = self.expr()
        if self.peek() is not None:
            raise self.error(f"unexpected {self.peek().text!r}")  # type: ignore[union-attr]
        return die

    def expr(self) -> icepool.Die:
        die = self.term()
        while True:
            if self.take("op", "+"):
                die = die + self.term()
            elif self.take("op", "-"):
                die = die - self.term()
            else:
                return die

    def term(self) -> icepool.Die:
        die = self.unary()
        while self.take("op", "*") or self.take("op", "×"):
            die = die * self.unary()
        return die

    def unary(self) -> icepool.Die:
        if self.take("op", "-"):
            return -self.unary()
        return self.pool()

    def pool(self) -> icepool.Die:
        start = self.peek()
        value = self.primary()
        if not isinstance(value, _PoolSpec):
            if self.peek() is not None and self.peek().kind == "kw":  # type: ignore[union-attr]
                raise self.error("drop/keep/reroll/maximised need dice before them")
            return value
        while (tok := self.take("kw")) is not None:
            self.modifier(value, tok)
        return self.realise(value, start)

    def primary(self) -> icepool.Die | _PoolSpec:
        tok = self.peek()
        if tok is None:
            raise self.error("expected a number, a die or a variable")
        count: int | icepool.Die | None = None
        if self.take("num"):
            count = int(tok.text)
        elif self.take("var"):
            count = self.variable(tok)
        elif self.take("op", "("):
            count = self.expr()
            self.need("op", ")")
        elif tok.kind != "die":
            raise self.error(f"unexpected {tok.text!r}")
        if self.take("die"):
            sides = self.number("the number of sides after D")
            if not 1 <= sides <= MAX_SIDES:
                raise self.error(f"a die needs 1 to {MAX_SIDES} sides, not {sides}")
            if count is None:
                count = 1
            if isinstance(count, icepool.Die):
                if len(count) == 1:
                    count = int(count.outcomes()[0])
                elif min(count.outcomes()) < 0:
                    raise self.error("a number of dice cannot be negative")
            if isinstance(count, int) and not 0 <= count <= MAX_DICE:
                raise self.error(f"a roll takes 0 to {MAX_DICE} dice, not {count}")
            return _PoolSpec(count, sides)
        assert count is not None
        return icepool.Die([count]) if isinstance(count, int) else count

    def variable(self, tok: Token) -> icepool.Die:
        if tok.text not in self.bindings:
            raise self.error(
                f"{tok.text} is not given (bind it: --set {tok.text}=3, or rule(3) in a reference)",
                tok,
            )
        return to_die(self.bindings[tok.text], self.bindings, self.source, self.depth + 1)

    def modifier(self, spec: _PoolSpec, tok: Token) -> None:
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
            if isinstance(spec.count, icepool.Die):
                raise self.error("a maximised roll needs a fixed number of dice", tok)
            extra = core().get("dice", {}).get("maximised_roll", {"extra_dice": 1})
            spec.count += int(extra.get("extra_dice", 1))
            spec.drop_lowest += int(extra.get("extra_dice", 1))
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

    def realise(self, spec: _PoolSpec, start: Token | None) -> icepool.Die:
        die = single_die(spec.sides)
        if spec.reroll:
            depth = int(core().get("dice", {}).get("reroll_depth", 1))
            if set(die.outcomes()) <= spec.reroll:
                raise self.error("every face would be re-rolled", start)
            die = die.reroll(sorted(spec.reroll), depth=depth)
        dropped = spec.drop_lowest + spec.drop_highest
        if isinstance(spec.count, icepool.Die):
            if dropped or spec.keep:
                raise self.error("drop/keep need a fixed number of dice", start)
            return spec.count @ die
        n = spec.count
        if spec.keep is not None:
            side, k = spec.keep
            if dropped:
                raise self.error("use either keep or drop, not both", start)
            if k > n:
                raise self.error(f"cannot keep {k} of {n} dice", start)
            pool = die.pool(n)
            return (pool.highest(k) if side == "highest" else pool.lowest(k)).sum()
        if dropped:
            if dropped >= n:
                raise self.error(f"cannot drop {dropped} of {n} dice", start)
            return _drop(die, n, spec)
        return n @ die if n != 1 else die


def _drop(die: icepool.Die, n: int, spec: _PoolSpec) -> icepool.Die:
    """Sum of n dice without the lowest and highest ones named by the spec."""
    pool = die.pool(n)
    keep = n - spec.drop_lowest - spec.drop_highest
    sorted_pool = pool.lowest(n - spec.drop_highest) if spec.drop_highest else pool
    return sorted_pool.highest(keep).sum()


def to_die(
    value: Binding, bindings: Bindings | None = None, source: str = "expression", depth: int = 0
) -> icepool.Die:
    """A number, an expression string or a die, as a die."""
    if isinstance(value, icepool.Die):
        return value
    if isinstance(value, bool):
        raise InputError(source, f"expected a number or dice expression, not {value!r}")
    if isinstance(value, int):
        return icepool.Die([value])
    if not isinstance(value, str):
        raise InputError(source, f"expected a number or dice expression, not {value!r}")
    if depth > MAX_DEPTH:
        raise InputError(source, f"variables refer to each other too deeply in {value!r}")
    binds = dict(bindings or {})
    if not binds and depth == 0:
        return _parse_cached(value, source)
    return _Parser(value, binds, source, depth).parse()


@lru_cache(maxsize=512)
def _parse_cached(text: str, source: str) -> icepool.Die:
    return _Parser(text, {}, source, 0).parse()


def parse(text: str, bindings: Bindings | None = None, source: str = "expression") -> icepool.Die:
    """Read a dice expression into an exact distribution.

    >>> parse("3D6").mean()
    Fraction(21, 2)
    """
    return to_die(text, bindings, source)


def distribution(die: icepool.Die) -> list[tuple[int, Fraction]]:
    """(value, exact probability) pairs, values ascending, zero-probability values left out."""
    total = die.denominator()
    return [(int(v), Fraction(q, total)) for v, q in sorted(die.items()) if q]


def mean(die: icepool.Die) -> Fraction:
    """The exact mean as a fraction."""
    total = die.denominator()
    return Fraction(sum(int(v) * q for v, q in die.items()), total)


def p_all_equal(text: str, bindings: Bindings | None = None) -> Fraction:
    """P(every die of a pool like `3D6` shows the same face): Shambolic's triple.

    Only a plain pool NdS (optionally with re-rolls) has a meaning here.
    """
    parser = _Parser(text, dict(bindings or {}), "expression", 0)
    spec = parser.primary()
    while (tok := parser.take("kw")) is not None and isinstance(spec, _PoolSpec):
        parser.modifier(spec, tok)
    if parser.peek() is not None or not isinstance(spec, _PoolSpec):
        raise InputError("expression", f"'all equal' needs a plain pool like 3D6, not {text!r}")
    if not isinstance(spec.count, int) or spec.drop_lowest or spec.drop_highest or spec.keep:
        raise InputError("expression", f"'all equal' needs a plain pool like 3D6, not {text!r}")
    die = single_die(spec.sides)
    if spec.reroll:
        die = die.reroll(sorted(spec.reroll), depth=int(core()["dice"].get("reroll_depth", 1)))
    total = die.denominator()
    return sum(
        (Fraction(q, total) ** spec.count for _, q in die.items()),
        start=Fraction(0),
    )
