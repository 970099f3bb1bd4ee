"""Charge range: the core dice (2D6) plus Advance Rate, changed by the unit's `roll` effects.

Effects on the `charge` roll: `extra_dice` + `drop` (Swiftstride's Maximised Roll: one extra
die, the lowest discarded), `reroll` of face values (each die at most once) or `failed` (the
whole charge re-rolled once when it falls short), and `modifier`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from fractions import Fraction

import icepool

from pipeline.errors import InputError
from pipeline.interpret.core import core
from pipeline.interpret.dice import parse
from pipeline.interpret.rules import BoundEffect, as_int, holds

ROLL = "charge"


@dataclass(frozen=True, slots=True)
class Charge:
    """The distribution of the charge range and the odds of reaching `distance`."""

    expr: str
    range: icepool.Die
    distance: int
    p_success: Fraction


def _applies(
    effect: BoundEffect, roll: str, conditions: Collection[str], own: Collection[str]
) -> bool:
    rolls = effect.get("roll")
    rolls = rolls if isinstance(rolls, list) else [rolls]
    return effect.op == "roll" and roll in rolls and holds(effect.get("when"), conditions, own)


def charge(
    distance: int,
    advance: int,
    effects: Iterable[BoundEffect] = (),
    conditions: Collection[str] = (),
) -> Charge:
    """Exact charge range distribution and P(range >= distance)."""
    if advance < 0 or distance < 0:
        raise InputError("charge", "distance and advance rate cannot be negative")
    spec = str(core()["charge"]["dice"])
    m = re.fullmatch(r"(\d*)[Dd](\d+)", spec)
    if m is None:
        raise InputError("core.yaml", f"charge dice {spec!r} must be NdS", "charge.dice")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    extra, drops, faces, mod, reroll_failed = 0, {"lowest": 0, "highest": 0}, set(), 0, False
    effects = list(effects)
    own = {e.rule for e in effects}
    for e in effects:
        if not _applies(e, ROLL, conditions, own):
            continue
        src = str(e.path)
        if "extra_dice" in e.effect:
            n = as_int(e.get("extra_dice"), e.bindings, src, e.where())
            extra += n
            drops[str(e.get("drop", "lowest"))] += n
        rr = e.get("reroll")
        if rr == "failed":
            reroll_failed = True
        elif isinstance(rr, list):
            faces |= {int(v) for v in rr}
        if "modifier" in e.effect:
            mod += as_int(e.get("modifier"), e.bindings, src, e.where())
    expr = f"{count + extra}D{sides}"
    if faces:
        expr += " reroll " + ",".join(str(v) for v in sorted(faces))
    for side, n in drops.items():
        if n:
            expr += f" drop {side} {n}"
    expr += f" + {advance}" + (f" + {mod}" if mod > 0 else f" - {-mod}" if mod < 0 else "")
    die = parse(expr)
    if reroll_failed:
        # keep a roll that reaches, otherwise roll again (once) and keep that one
        die = die.reroll(lambda v: v < distance, depth=1)
    total = die.denominator()
    p = Fraction(sum(q for v, q in die.items() if v >= distance), total)
    return Charge(expr, die, distance, p)
