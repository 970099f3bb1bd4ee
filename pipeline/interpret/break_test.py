"""The Break Test of the side that lost a Round of Combat, from its Discipline and its rules.

A Break Test is a Discipline Test (2D6, passed at or under the Discipline) with a penalty
equal to the combat score difference (`combat.yaml`, `break_test`). What changes it is read
from the effects of the rules in play, never from rule names: a rule that makes the unit pass
Break Tests (`auto-pass` of test `break`: Unbreakable), one that ignores the combat score
penalty (`ignore` of `combat-score-penalties`: Stubborn), Discipline modifiers of its own
and of the enemy's rules (`modify discipline`, `applies_to: enemy`: Fear's -1), and
immunities to an enemy rule (`immune` to `fear`: Fearless). A unit with more Full Ranks than
the enemy is Steadfast and ignores the penalty too. A rule in play whose text speaks of
Break Tests but from which none of these was read is named as not played.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.attack import _holds
from pipeline.interpret.dice import distribution, parse
from pipeline.interpret.rules import BoundEffect, Build, parse_ref
from pipeline.interpret.scenario import effects_of
from pipeline.lang import data as lang_data


@dataclass(frozen=True, slots=True)
class BreakProfile:
    """How one side takes its Break Tests against one enemy."""

    discipline: int | None  # None: the data states no number
    modifier: int = 0  # from its own rules and the enemy's (Fear's -1)
    auto_pass: str | None = None  # the rule that makes it pass (Unbreakable)
    ignores_penalty: str | None = None  # the rule that ignores the score penalty (Stubborn)
    sources: tuple[str, ...] = ()  # what changed the test, for reports
    not_played: tuple[str, ...] = field(default=())  # rules about Break Tests not read

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"discipline": self.discipline, "modifier": self.modifier}
        if self.auto_pass:
            out["auto_pass"] = self.auto_pass
        if self.ignores_penalty:
            out["ignores_penalty"] = self.ignores_penalty
        out["from"] = list(self.sources)
        if self.not_played:
            out["not_played"] = list(self.not_played)
        return out


@lru_cache(maxsize=1)
def _terms() -> tuple[str, ...]:
    return tuple(str(t) for t in lang_data("en", "units").get("break_test_terms") or ())


def _about_break_tests(e: BoundEffect) -> bool:
    """An effect whose situation is the Break Test itself ("when taking Break Tests")."""
    when = str(e.get("when") or "").lower()
    return any(t.lower() in when for t in _terms())


def _applies(e: BoundEffect, conditions: Collection[str], own: set[str], other: set[str]) -> bool:
    return e.get("when") is None or _holds(e, conditions, own, other) or _about_break_tests(e)


def _name(build: Build, rule_id: str) -> str:
    try:
        return str(build.rule(rule_id).names.get("en") or rule_id)
    except InputError:
        return rule_id


def profile(
    discipline: Any,
    own_rules: Iterable[str],
    enemy_rules: Iterable[str],
    build: Build,
    conditions: Collection[str],
) -> BreakProfile:
    """The Break Test of a side with `own_rules` fighting a side with `enemy_rules`."""
    own_refs, enemy_refs = list(own_rules), list(enemy_rules)
    own = effects_of(build, own_refs)
    enemy = effects_of(build, enemy_refs)
    own_ids = {parse_ref(r).id for r in own_refs} | {e.rule for e in own}
    enemy_ids = {parse_ref(r).id for r in enemy_refs} | {e.rule for e in enemy}
    immune = {str(e.get("to")) for e in own if e.op == "immune"}
    auto = ignore = None
    modifier = 0
    sources: list[str] = []
    used: set[str] = set()
    for e in own:
        if not _applies(e, conditions, own_ids, enemy_ids):
            continue
        if e.op == "auto-pass" and e.get("test") == "break" and auto is None:
            auto = _name(build, e.rule)
            used.add(e.rule)
        elif e.op == "ignore" and e.get("what") == "combat-score-penalties" and ignore is None:
            ignore = _name(build, e.rule)
            used.add(e.rule)
        elif _discipline_by(e, ("model",)) is not None:
            modifier += _discipline_by(e, ("model",)) or 0
            sources.append(f"{_name(build, e.rule)} {_discipline_by(e, ('model',)):+d}")
            used.add(e.rule)
    for e in enemy:
        by = _discipline_by(e, ("enemy",))
        if by is None or not _applies(e, conditions, enemy_ids, own_ids):
            continue
        if e.rule in immune:
            sources.append(f"enemy {_name(build, e.rule)}: immune")
            continue
        modifier += by
        sources.append(f"enemy {_name(build, e.rule)} {by:+d}")
    if auto:
        sources.append(f"{auto}: passes")
    if ignore:
        sources.append(f"{ignore}: ignores the combat score")
    unread = tuple(
        _name(build, r) for r in sorted(own_ids - used) if _speaks_of_break_tests(build, r)
    )
    number = (
        discipline if isinstance(discipline, int) and not isinstance(discipline, bool) else None
    )
    return BreakProfile(number, modifier, auto, ignore, tuple(sources), unread)


def _discipline_by(e: BoundEffect, applies: tuple[str, ...]) -> int | None:
    if e.op != "modify" or e.get("characteristic") != "discipline":
        return None
    if e.get("applies_to", "model") not in applies or e.get("by") is None:
        return None
    try:
        return int(e.get("by"))
    except (TypeError, ValueError):
        return None


def _speaks_of_break_tests(build: Build, rule_id: str) -> bool:
    """Whether a rule's text names Break Tests (so that one not read is named, not lost)."""
    try:
        rule = build.rule(rule_id)
    except InputError:
        return False
    text = str(((rule.data.get("texts") or {}).get("en") or {}).get("text") or "")
    reads = {e.get("op") for e in rule.effects}
    pattern = "|".join(re.escape(t) for t in _terms())
    return (
        bool(pattern)
        and bool(re.search(pattern, text, re.IGNORECASE))
        and not (reads & {"auto-pass", "ignore"})
    )


@cache
def _test_roll(dice: str) -> tuple[tuple[int, Fraction], ...]:
    return tuple(distribution(parse(dice)))


def p_pass(p: BreakProfile, difference: int, steadfast: bool, dice: str) -> Fraction | None:
    """The chance that the loser by `difference` passes; None when its Discipline is not a
    number."""
    if p.auto_pass:
        return Fraction(1)
    if p.discipline is None:
        return None
    penalty = 0 if (steadfast or p.ignores_penalty) else difference
    need = p.discipline + p.modifier - penalty
    return sum((q for v, q in _test_roll(dice) if v <= need), start=Fraction(0))


def full_ranks(alive: int, width: int, threshold: int) -> int:
    """Ranks of `width` holding at least `threshold` models, the first rank included."""
    if width < 1 or alive < 1:
        return 0
    full = alive // width if width >= threshold else 0
    return full + (1 if alive % width > 0 and alive % width >= threshold else 0)
