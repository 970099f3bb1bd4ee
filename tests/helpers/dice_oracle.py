"""Brute-force enumeration of the dice of one attack, written apart from the interpreter.

A case states, per roll, the faces that succeed and the faces rolled again; this walks every
face of every die (a rerolled die: every face of the second die) and adds up the exact
probability of each count. It imports nothing of `pipeline`: it checks the arithmetic of a
hand-worked fraction, and so the interpreter against an independent computation.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

FACES = range(1, 7)
SIXTH = Fraction(1, 6)


def _roll(spec: Mapping[str, Any] | None) -> Iterator[tuple[int | None, Fraction]]:
    """(natural face kept, probability) of one roll; None for a roll not made (automatic)."""
    if spec is None or spec.get("auto"):
        yield None, Fraction(1)
        return
    again = set(spec.get("reroll", ()))
    for face in FACES:
        if face in again:
            for second in FACES:
                yield second, SIXTH * SIXTH
        else:
            yield face, SIXTH


def _passes(spec: Mapping[str, Any] | None, face: int | None) -> bool:
    if spec is None:
        return False  # no such roll: nothing saves
    return face is None or face in spec["ok"]


def _unsaved(dice: Mapping[str, Any], wound_face: int | None) -> Fraction:
    """Probability that a wound is saved by neither the armour nor the special save."""
    save, special = dice.get("save"), dice.get("special")
    fail = Fraction(0)
    no_armour = wound_face is not None and wound_face in dice.get("wound", {}).get("no_save", ())
    for s_face, sp in _roll(None if no_armour else save):
        if not no_armour and save is not None and _passes(save, s_face):
            continue
        for x_face, xp in _roll(special):
            if special is not None and _passes(special, x_face):
                continue
            fail += sp * xp
    return fail


def _after_hit(dice: Mapping[str, Any], auto_wound: bool) -> tuple[Fraction, Fraction]:
    """(P wound, P unsaved wound) of one hit."""
    if auto_wound:
        return Fraction(1), _unsaved(dice, None)
    wound = dice.get("wound")
    if wound is None:
        return Fraction(0), Fraction(0)
    p_wound = p_unsaved = Fraction(0)
    for face, p in _roll(wound):
        if _passes(wound, face):
            p_wound += p
            p_unsaved += p * _unsaved(dice, face)
    return p_wound, p_unsaved


def expected(dice: Mapping[str, Any], measure: str) -> Fraction:
    """Mean hits, wounds or unsaved wounds of `dice['attacks']` attacks (default 1)."""
    hit = dice.get("hit")
    totals = {"hits": Fraction(0), "wounds": Fraction(0), "unsaved": Fraction(0)}
    for face, p in _roll(hit):
        if not _passes(hit, face):
            continue
        extra = int((hit or {}).get("extra", {}).get(face, 0))
        auto = face is not None and face in (hit or {}).get("auto_wound", ())
        first = _after_hit(dice, auto)
        plain = _after_hit(dice, False)
        totals["hits"] += p * (1 + extra)
        totals["wounds"] += p * (first[0] + extra * plain[0])
        totals["unsaved"] += p * (first[1] + extra * plain[1])
    return totals[measure] * int(dice.get("attacks", 1))
