"""The T9A attack chain as exact distributions, driven by the effects of the rules in play.

hits -> wounds -> armour saves -> special saves -> Multiple Wounds (capped at Health Points)
-> casualties. The tables (to hit by Offensive minus Defensive Skill, to wound by Strength
minus Resilience, the armour save formula, natural 1s and 6s) come from `core.yaml`; what a
rule does comes from its effects (`modify`, `strike-at`, `roll`, `on-natural`,
`multiple-wounds`, `hits`, `special-save`). No rule is known here by name.

How casualties are counted. Each attack (or automatic hit) is independent and ends in one of:
no unsaved wound, or an unsaved wound worth `c` wounds, where `c` is the Multiple Wounds roll
capped at the target's Health Points. Wounds land on one model at a time: a model with damage
`d` that takes `c` more is removed when `d + c >= HP`, and what is left of `c` is lost (Multiple
Wounds of one attack never spill over to the next model); otherwise its damage becomes `d + c`.
This is a Markov chain over (models removed, damage on the model in front), run attack by attack
with exact integer weights. Sources strike in Initiative Step order (highest first; Impact Hits
before the attacks at the same step), carrying the damage across. With a defender `models`
count, casualties are capped at it (the unit is gone; later wounds land nowhere).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb, lcm
from typing import Any

import icepool

from pipeline.errors import InputError
from pipeline.interpret import limits
from pipeline.interpret.core import core, need_from_rows
from pipeline.interpret.dice import parse, repeat_sum
from pipeline.interpret.limits import MAX_ROLLS
from pipeline.interpret.rules import (
    AGAINST_MODES,
    BoundEffect,
    Build,
    as_int,
    bracket_profile,
    effect_conditions,
    holds,
    parse_ref,
    split_params,
)
from pipeline.lookup import did_you_mean
from pipeline.slug import slugify

ATTACKER_FIELDS = (
    "models",
    "attacks",
    "offensive_skill",
    "strength",
    "armour_penetration",
    "agility",
)
DEFENDER_FIELDS = ("defensive_skill", "resilience", "health_points", "armour")
# a shooting attack hits by the weapon's Aim, not by Offensive against Defensive Skill
SHOOTER_FIELDS = ("models", "attacks", "aim", "strength", "armour_penetration")
TARGET_FIELDS = ("resilience", "health_points", "armour")
MODES = ("melee", "shooting")
INT_FIELDS = {
    "models",
    "ranks",  # the target's formation, for Area Attack and Penetrating
    "files",
    "aim",
    "offensive_skill",
    "strength",
    "armour_penetration",
    "agility",
    "defensive_skill",
    "resilience",
    "health_points",
    "armour",
}


# --- distributions with integer weights -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dist:
    """A distribution over 0..n as integer weights over one denominator (exact, and fast)."""

    weights: tuple[int, ...]
    denominator: int

    @staticmethod
    def point(value: int = 0) -> Dist:
        return Dist((0,) * value + (1,), 1)

    def __add__(self, other: Dist) -> Dist:
        """The distribution of the sum of two independent counts (convolution)."""
        a, b = self.weights, other.weights
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b):
                    out[i + j] += x * y
        return Dist(tuple(out), self.denominator * other.denominator)

    def capped(self, cap: int | None) -> Dist:
        """min(value, cap)."""
        if cap is None or cap >= len(self.weights) - 1:
            return self
        w = self.weights
        return Dist((*w[:cap], sum(w[cap:])), self.denominator)

    def items(self) -> list[tuple[int, Fraction]]:
        """(value, probability), values ascending, zero weights left out."""
        return [(v, Fraction(w, self.denominator)) for v, w in enumerate(self.weights) if w]

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in enumerate(self.weights)), self.denominator)

    def p_at_least(self) -> list[tuple[int, Fraction]]:
        """P(value >= k) for k = 1 .. the largest possible value."""
        out, tail = [], 0
        for k in range(len(self.weights) - 1, 0, -1):
            tail += self.weights[k]
            out.append((k, Fraction(tail, self.denominator)))
        return out[::-1]


def binomial_mixture(count: Iterable[tuple[int, int]], p: Fraction) -> Dist:
    """Successes of `n` independent trials of probability `p`, `n` drawn from `count`.

    `count` is (n, weight) pairs. Closed form C(n, k) a^k b^(n-k) / D^n with p = a/D.
    """
    pairs = [(int(n), int(w)) for n, w in count if w]
    a, den = p.numerator, p.denominator
    b = den - a
    nmax = max(n for n, _ in pairs)
    apow, bpow = [1], [1]
    for _ in range(nmax):
        apow.append(apow[-1] * a)
        bpow.append(bpow[-1] * b)
    total_w = sum(w for _, w in pairs)
    out = [0] * (nmax + 1)
    for n, w in pairs:
        scale = w * den ** (nmax - n)
        for k in range(n + 1):
            out[k] += scale * comb(n, k) * apow[k] * bpow[n - k]
    return Dist(tuple(out), total_w * den**nmax)


def mixture(count: Iterable[tuple[int, int]], per: tuple[Fraction, ...]) -> Dist:
    """The sum of `n` independent per-roll counts distributed as `per`, `n` drawn from `count`."""
    if len(per) <= 2:
        return binomial_mixture(count, per[1] if len(per) == 2 else Fraction(0))
    w, den = _integer_weights(dict(enumerate(per)))
    one = Dist(tuple(w.get(i, 0) for i in range(len(per))), den)
    pairs = sorted((int(n), int(q)) for n, q in count if q)
    total_w = sum(q for _, q in pairs)
    nmax = pairs[-1][0]
    out = [0] * ((len(per) - 1) * nmax + 1)
    cur = Dist.point(0)
    for n in range(nmax + 1):
        if n:
            cur = cur + one
        for m, q in pairs:
            if m == n:
                scale = q * den ** (nmax - n)
                for i, x in enumerate(cur.weights):
                    out[i] += scale * x
    return Dist(tuple(out), total_w * den**nmax)


# --- scenario ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a fight: characteristics, the rules it has, whether it charged."""

    chars: Mapping[str, int]
    attacks: str
    rules: tuple[str, ...]
    models: int | None
    charging: bool = False
    keywords: tuple[str, ...] = ()  # its types and height (`large`, `infantry`)


@dataclass(frozen=True, slots=True)
class Scenario:
    """Who attacks whom, how (`melee` or `shooting`), and the situations that hold.

    Conditions are names (`front-facing`, `first-round`, ...); the mode is one of them too,
    so that a rule written for Shooting Attacks (Hard Target) holds only when shooting.
    """

    attacker: Side
    defender: Side
    conditions: frozenset[str]
    source: str = "scenario"
    mode: str = "melee"


SCENARIO_KEYS = ("attacker", "defender", "conditions", "mode", "rounds")
SIDE_KEYS = ("rules", "attacks", "charging", "keywords")


def unknown_field(source: str, name: str, known: Iterable[str], where: str | None = None) -> None:
    """Refuse a field nothing reads, naming the closest fields."""
    raise InputError(source, f"unknown field {name!r}{did_you_mean(name, known)}", where)


def scenario_from_dict(data: Any, source: str = "scenario") -> Scenario:
    """Check and convert a scenario mapping (`attacker`, `defender`, optional `conditions`)."""
    if not isinstance(data, dict):
        raise InputError(source, "a scenario is a mapping with 'attacker' and 'defender'")
    for key in data:
        if key not in SCENARIO_KEYS:
            unknown_field(source, str(key), SCENARIO_KEYS)
    mode = data.get("mode", "melee")
    if mode not in MODES:
        raise InputError(source, f"mode must be one of {', '.join(MODES)}", "mode")
    fields = (
        (("attacker", SHOOTER_FIELDS), ("defender", TARGET_FIELDS))
        if mode == "shooting"
        else (("attacker", ATTACKER_FIELDS), ("defender", DEFENDER_FIELDS))
    )
    sides = {}
    for name, required in fields:
        side = data.get(name)
        if not isinstance(side, dict):
            raise InputError(source, f"missing {name!r} mapping", name)
        sides[name] = _side(side, required, source, name)
    conditions = data.get("conditions") or []
    if not isinstance(conditions, list) or not all(isinstance(c, str) for c in conditions):
        raise InputError(source, "'conditions' must be a list of names", "conditions")
    return Scenario(
        sides["attacker"], sides["defender"], frozenset([*conditions, mode]), source, mode
    )


def _side(data: dict[str, Any], required: tuple[str, ...], source: str, name: str) -> Side:
    for key in required:
        if key not in data:
            raise InputError(source, f"missing field {key!r}", name)
    chars: dict[str, int] = {}
    for key, value in data.items():
        if key in SIDE_KEYS:
            continue
        if key in INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(source, f"{key} must be a whole number >= 0", f"{name}.{key}")
            chars[key] = value
        else:
            unknown_field(source, str(key), (*INT_FIELDS, *SIDE_KEYS), name)
    if name == "defender" and chars["health_points"] < 1:
        raise InputError(source, "health_points must be at least 1", f"{name}.health_points")
    rules = data.get("rules") or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise InputError(source, "rules must be a list of rule ids", f"{name}.rules")
    attacks = data.get("attacks", 0)
    if isinstance(attacks, bool) or not isinstance(attacks, int | str):
        raise InputError(source, "attacks must be a number or dice expression", f"{name}.attacks")
    charging = data.get("charging", False)
    if not isinstance(charging, bool):
        raise InputError(source, "charging must be true or false", f"{name}.charging")
    models = chars.pop("models", None)
    return Side(chars, str(attacks), tuple(rules), models, charging, keywords(data, source, name))


def keywords(data: Mapping[str, Any], source: str, name: str) -> tuple[str, ...]:
    """A side's `keywords` (types and height), each one core.yaml knows."""
    value = data.get("keywords") or []
    if not isinstance(value, list) or not all(isinstance(k, str) for k in value):
        raise InputError(source, "keywords must be a list of names", f"{name}.keywords")
    known = core()["keywords"]
    for k in value:
        if k not in known:
            hint = did_you_mean(k, known) or f"; known: {', '.join(known)}"
            raise InputError(source, f"unknown keyword {k!r}{hint}", f"{name}.keywords")
    return tuple(value)


# --- resolution -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PerRoll:
    """What one attack roll (or automatic hit) leads to, exactly.

    A roll can cause more than one hit (Battle Focus), so each count is a distribution per
    roll (index = count), and `seqs` gives the unsaved wounds of one roll in order: a tuple of
    their sizes `c` (Multiple Wounds capped at Health Points), `()` for none.
    """

    hits: tuple[Fraction, ...]
    wounds: tuple[Fraction, ...]
    unsaved: tuple[Fraction, ...]
    seqs: Mapping[tuple[int, ...], Fraction]


@dataclass(frozen=True, slots=True)
class Source:
    """A group of identical attack rolls: the attacks, or Impact Hits."""

    name: str
    count: icepool.Die
    step: int
    profile: Mapping[str, Any]
    per_roll: PerRoll


@dataclass(frozen=True, slots=True)
class AttackResult:
    """Marginal distributions of the four counts, and the sources that produced them."""

    hits: Dist
    wounds: Dist
    unsaved_wounds: Dist
    casualties: Dist
    sources: tuple[Source, ...] = field(default=())


def _holds(
    e: BoundEffect,
    conditions: Collection[str],
    own: Collection[str] = (),
    other: Collection[str] = (),
) -> bool:
    """Whether the effect's `when` holds (see `rules.holds`)."""
    return holds(e.get("when"), conditions, own, other)


def side_conditions(scenario: Scenario, me: Side, other: Side, attacking: bool) -> set[str]:
    """The situations that hold for one side: the scenario's, its charge and the other's,
    and in close combat the facings seen from it (core.yaml `situations`)."""
    out = set(scenario.conditions)
    if me.charging:
        out |= {"charging", "first-round"}
    if other.charging:
        out |= {"enemy-charging", "first-round"}
    facings = [f for f in core()["facings"] if f"{f}-facing" in out]
    if scenario.mode == "melee" and facings:
        # the attacker fights with its front, at the facing of the defender the scenario names
        if attacking:
            out |= {"engaged-front", *(f"enemy-{f}" for f in facings)}
        else:
            out |= {"enemy-front", *(f"engaged-{f}" for f in facings)}
    return out


def known_conditions(effects: Iterable[BoundEffect]) -> set[str]:
    """The names a scenario may give in `conditions`: the core situations, the shooting
    situations, the modes, and every situation the rules in play name."""
    c = core()
    return (
        set(c["situations"])
        | set(c["shooting"]["modifiers"])
        | {"intervening-models", *MODES}
        | effect_conditions(effects)
    )


def check_conditions(names: Iterable[str], effects: Iterable[BoundEffect], source: str) -> None:
    """Refuse a condition nothing reads (a typo would silently change the odds)."""
    known = known_conditions(effects)
    for name in names:
        if name not in known:
            hint = did_you_mean(name, known) or f"; known: {', '.join(sorted(known))}"
            raise InputError(source, f"unknown condition {name!r}{hint}", "conditions")


def _scope(e: BoundEffect) -> str:
    """Whom a `modify` changes: a rule granted to the attacks (`applies_to: attack` on the
    grant) changes the attacks only; the bearer's unit is the bearer's side."""
    scope = str(e.get("applies_to", "model"))
    if scope == "unit":
        return "model"
    return "attack" if scope == "model" and e.attack_only else scope


def _modified(
    base: Mapping[str, Any],
    effects: Iterable[BoundEffect],
    applies: Collection[str],
    enemy: Iterable[BoundEffect] = (),
) -> dict[str, Any]:
    """Characteristics after the `modify` effects of the side (those whose scope is in
    `applies`) and the other side's on it (`enemy`): set values (`to`) first, then every
    change by a value, then the changes a limit bounds (never past it, never lowered by it),
    then the limits alone, then the core bounds."""
    out = dict(base)
    mods = [e for e in effects if e.op == "modify" and _scope(e) in applies]
    mods += [e for e in enemy if e.op == "modify" and _scope(e) == "enemy"]
    bounds = core()["characteristics"]["bounds"]

    def num(e: BoundEffect, key: str) -> int:
        return as_int(e.get(key), e.bindings, str(e.path), e.where())

    def limited(e: BoundEffect) -> bool:
        return "min" in e.effect or "max" in e.effect

    def current(char: str, e: BoundEffect) -> int:
        text = str(out.get(char, 0))
        if not re.fullmatch(r"\d+", text):
            raise InputError(str(e.path), f"{char} {text!r} is rolled: it cannot be bounded")
        return int(text)

    for e in [e for e in mods if "to" in e.effect]:
        out[str(e.get("characteristic"))] = num(e, "to")
    for e in [e for e in mods if "by" in e.effect and not limited(e)]:
        char, by = str(e.get("characteristic")), num(e, "by")
        cur = out.get(char, 0)
        if char == "attacks" and not re.fullmatch(r"\d+", str(cur)):
            out[char] = f"({cur})+({by})"  # a rolled Attack Value (D6+1) stays a roll
        else:
            out[char] = int(cur) + by
    for e in [e for e in mods if "by" in e.effect and limited(e)]:
        char = str(e.get("characteristic"))
        before = current(char, e)
        new = before + num(e, "by")
        if "max" in e.effect:
            new = min(new, max(num(e, "max"), before))
        if "min" in e.effect:
            new = max(new, min(num(e, "min"), before))
        out[char] = new
    for e in [e for e in mods if "by" not in e.effect and limited(e)]:
        char = str(e.get("characteristic"))
        cur = current(char, e)
        cur = min(cur, num(e, "max")) if "max" in e.effect else cur
        out[char] = max(cur, num(e, "min")) if "min" in e.effect else cur
    for char in {str(e.get("characteristic")) for e in mods}:
        if char == "attacks":  # a count, not a characteristic on the 0..10 scale
            out[char] = str(out[char])
        else:
            out[char] = min(max(int(out[char]), bounds["min"]), bounds["max"])
    return out


def _face_die(reroll: Collection[int]) -> list[tuple[int, Fraction]]:
    die = icepool.d6
    if reroll:
        die = die.reroll(sorted(reroll), depth=int(core()["dice"].get("reroll_depth", 1)))
    den = die.denominator()
    return [(int(v), Fraction(q, den)) for v, q in die.items() if q]


@dataclass
class _RollRule:
    """How one kind of roll is made: what it needs, its modifier, its limits, its re-rolls."""

    need: int | None  # None: no roll possible (no save) / automatic
    modifier: int = 0
    natural_fail: int | None = None
    natural_success: int | None = None
    reroll: set[int] = field(default_factory=set)
    reroll_failed: bool = False
    reroll_ok: bool = False
    may_reroll: set[int] = field(default_factory=set)  # rerolled only when they fail
    need_min: int | None = None  # "never better than N+"
    need_max: int | None = None  # "never worse than N+"
    result: str | None = None  # "pass" / "fail" without a roll

    def threshold(self) -> int:
        """The natural roll needed, modifiers and limits applied."""
        assert self.need is not None
        t = self.need - self.modifier
        if self.need_min is not None:
            t = max(t, self.need_min)
        if self.need_max is not None:
            t = min(t, self.need_max)
        return t

    def ok(self, v: int) -> bool:
        if self.result is not None:
            return self.result == "pass"
        if self.need is None:
            return False
        if self.natural_fail is not None and v == self.natural_fail:
            return False
        if self.natural_success is not None and v == self.natural_success:
            return True
        return v >= self.threshold()

    def faces(self) -> list[tuple[int, Fraction]]:
        rr = set(self.reroll)
        if self.reroll_failed:
            rr |= {v for v in range(1, 7) if not self.ok(v)}
        if self.reroll_ok:
            rr |= {v for v in range(1, 7) if self.ok(v)}
        rr |= {v for v in self.may_reroll if not self.ok(v)}
        if len(rr) >= 6 or self.result is not None:
            rr = set()
        return _face_die(rr)

    def p(self) -> Fraction:
        if self.result is not None:
            return Fraction(self.result == "pass")
        if self.need is None:
            return Fraction(0)
        return sum((p for v, p in self.faces() if self.ok(v)), start=Fraction(0))


def _roll_rule(
    name: str, need: int | None, effects: Iterable[BoundEffect], section: Mapping[str, Any]
) -> _RollRule:
    rule = _RollRule(need, 0, section.get("natural_fail"), section.get("natural_success"))
    stated: list[int] = []
    for e in effects:
        if e.op != "roll":
            continue
        rolls = e.get("roll")
        if name not in (rolls if isinstance(rolls, list) else [rolls]):
            continue
        rr = e.get("reroll")
        if e.get("may"):  # the roller's choice: a face that succeeds is kept
            if rr == "failed":
                rule.reroll_failed = True
            elif isinstance(rr, list):
                rule.may_reroll |= {int(v) for v in rr}
        elif rr == "failed":
            rule.reroll_failed = True
        elif rr == "successful":
            rule.reroll_ok = True
        elif isinstance(rr, list):
            rule.reroll |= {int(v) for v in rr}
        if "modifier" in e.effect:
            rule.modifier += as_int(e.get("modifier"), e.bindings, str(e.path), e.where())
        if "need" in e.effect:
            stated.append(int(e.get("need")))
        if "need_min" in e.effect:
            rule.need_min = max(rule.need_min or 0, int(e.get("need_min")))
        if "need_max" in e.effect:
            rule.need_max = min(rule.need_max or 7, int(e.get("need_max")))
        if "result" in e.effect:  # a roll that fails without rolling wins over one that passes
            rule.result = "fail" if "fail" in (rule.result, e.get("result")) else "pass"
    if stated and rule.need is not None:
        rule.need = min(stated)
    return rule


def _save_against(e: BoundEffect, attacker_has: Collection[str]) -> bool:
    """Whether a special save holds against this attack: `Aegis (4+, against Flaming Attacks)`
    only against an attacker with that rule, `against Shooting Attacks` only when shooting."""
    against = e.get("against")
    if against is None:
        return True
    text = str(e.bindings.get(str(against), against)).strip()
    if text == against and re.fullmatch(r"[A-Z]", text):
        return True  # the parameter was not given: no restriction
    name = re.sub(r"^against\s+", "", text, flags=re.I)
    what = slugify(name, fallback="")
    return AGAINST_MODES.get(what, what) in attacker_has


def _naturals(effects: Iterable[BoundEffect], roll: str) -> list[BoundEffect]:
    return [e for e in effects if e.op == "on-natural" and e.get("roll") == roll]


def _matches(e: BoundEffect, v: int | None) -> bool:
    values = e.get("value")
    return v is not None and v in (values if isinstance(values, list) else [values])


@dataclass(frozen=True, slots=True)
class BracketHit:
    """The one hit of an attack that takes the square-bracket values (`Str 3 [7]`) and
    attributes (`[Multiple Wounds (D3)]`) of Area Attack and Penetrating weapons."""

    strength: int
    ap: int
    effects: list[BoundEffect]
    mw_amount: icepool.Die | None
    has: Collection[str]


def _hitter(
    strength: int,
    ap: int,
    defender: Mapping[str, int],
    attacker_effects: list[BoundEffect],
    defender_effects: list[BoundEffect],
    mw_amount: icepool.Die | None,
    attacker_has: Collection[str],
) -> tuple[Callable[[list[BoundEffect]], list[tuple[int, int, Fraction]]], Any, Any, list[Any]]:
    """What one hit at this Strength and AP does: (wounded, unsaved wound size, probability)
    per outcome, given the natural to-hit roll's effects; with the to-wound and save rules."""
    c = core()
    hp = int(defender["health_points"])
    own = [e for e in attacker_effects if e.get("applies_to") != "enemy"]
    against = [e for e in defender_effects if e.op != "roll" or e.get("applies_to") == "enemy"]
    wound = _roll_rule(
        "to-wound",
        need_from_rows(c["to_wound"]["rows"], strength - defender["resilience"]),
        [*own, *against],
        c["to_wound"],
    )
    nat_wound = _naturals(attacker_effects, "to-wound")
    specials = [e for e in defender_effects if e.op == "special-save"]
    arm = c["armour_save"]
    # the defender's own saves, and what the attacker imposes on them ("no saves allowed")
    imposed = [x for x in attacker_effects if x.op == "roll" and x.get("applies_to") == "enemy"]
    own_saves = [x for x in defender_effects if x.op == "roll" and x.get("applies_to") != "enemy"]
    saves = own_saves + imposed

    def save_rule(ap_now: int, denied: set[str]) -> _RollRule:
        margin = defender["armour"] - ap_now
        no_save = margin <= arm["no_save_at_or_below"] or denied & {"armour", "all"}
        need = None if no_save else int(arm["base"]) - margin
        return _roll_rule("armour-save", need, saves, arm)

    def special_fail(denied: set[str]) -> Fraction:
        best = Fraction(0)
        if denied & {"special", "all"}:
            return Fraction(1)
        for e in specials:
            if e.get("kind") in denied or not _save_against(e, attacker_has):
                continue
            need = as_int(e.get("value"), e.bindings, str(e.path), e.where())
            kind = e.get("kind")
            # the attacker's changes to this save (Divine Attacks on Aegis)
            on_it = [x for x in imposed if x.get("save", kind) == kind]
            changes = [*own_saves, *on_it]
            rule = _roll_rule("special-save", need, changes, c["special_save"])
            best = max(best, rule.p())
        return 1 - best

    if mw_amount is None:
        chunk = [(1, Fraction(1))]
    else:
        den = mw_amount.denominator()
        acc: dict[int, Fraction] = {}
        for v, q in mw_amount.items():
            cv = min(max(int(v), 1), hp)
            acc[cv] = acc.get(cv, Fraction(0)) + Fraction(q, den)
        chunk = sorted(acc.items())

    wound_faces = wound.faces()

    def one_hit(hit_nats: list[BoundEffect]) -> list[tuple[int, int, Fraction]]:
        """(wounded, size of the unsaved wound or 0, probability) of one hit."""
        auto_wound = wound.result == "pass" or (
            wound.result is None and any(e.get("effect") == "auto-wound" for e in hit_nats)
        )
        wfaces: list[tuple[int | None, Fraction]] = (
            [(None, Fraction(1))] if auto_wound else list(wound_faces)
        )
        out: list[tuple[int, int, Fraction]] = []
        for wv, wp in wfaces:
            if not auto_wound and not wound.ok(wv):  # type: ignore[arg-type]
                out.append((0, 0, wp))
                continue
            ap_now, denied = ap, set()
            for e in [*hit_nats, *(x for x in nat_wound if _matches(x, wv))]:
                if e.get("effect") == "set-ap":
                    ap_now = as_int(e.get("ap"), e.bindings, str(e.path), e.where())
                elif e.get("effect") == "deny-save":
                    denied.add(str(e.get("save")))
            fail = (1 - save_rule(ap_now, denied).p()) * special_fail(denied)
            out.append((1, 0, wp * (1 - fail)))
            out.extend((1, cv, wp * fail * cp) for cv, cp in chunk)
        return out

    return one_hit, wound, save_rule, specials


def per_roll(
    *,
    auto_hit: bool,
    offensive_skill: int,
    strength: int,
    ap: int,
    defender: Mapping[str, int],
    attacker_effects: list[BoundEffect],
    defender_effects: list[BoundEffect],
    mw_amount: icepool.Die | None,
    aim: int | None = None,
    shooting_modifier: int = 0,
    attacker_has: Collection[str] = (),
    hits_per_roll: int = 1,
    bracket: BracketHit | None = None,
) -> tuple[PerRoll, dict[str, Any]]:
    """Exact outcome of one attack roll against the defender, and the needed rolls.

    With `aim` the to-hit roll is a shot: it needs the Aim with `shooting_modifier` and the
    rules' modifiers, has no automatic natural 6, and a need above 6 is a 6 then a second roll.
    A successful roll makes `hits_per_roll` hits (Area Attack, Penetrating); one of them, the
    one the natural roll's effects go with, takes the `bracket` values and attributes.
    """
    c = core()
    # the attacker's own roll changes, and the defender's on rolls made against it
    own = [e for e in attacker_effects if e.get("applies_to") != "enemy"]
    against = [e for e in defender_effects if e.op != "roll" or e.get("applies_to") == "enemy"]
    if aim is not None:
        hit = _roll_rule("to-hit", aim, [*own, *against], c["shooting"])
        hit.modifier += shooting_modifier
    else:
        hit = _roll_rule(
            "to-hit",
            None
            if auto_hit
            else need_from_rows(c["to_hit"]["rows"], offensive_skill - defender["defensive_skill"]),
            [*own, *against],
            c["to_hit"],
        )
    if hit.result == "pass":  # "hits automatically": no roll, no natural result
        auto_hit = True
    nat_hit = _naturals(attacker_effects, "to-hit")
    one_hit, wound, save_rule, specials = _hitter(
        strength, ap, defender, attacker_effects, defender_effects, mw_amount, attacker_has
    )
    first_hit = one_hit
    if bracket is not None:
        first_hit = _hitter(
            bracket.strength,
            bracket.ap,
            defender,
            bracket.effects,
            defender_effects,
            bracket.mw_amount,
            bracket.has,
        )[0]
    plain_hit = one_hit([])
    hits: dict[int, Fraction] = {}
    wounds: dict[int, Fraction] = {}
    unsaved: dict[int, Fraction] = {}
    seqs: dict[tuple[int, ...], Fraction] = {}

    def add(table: dict[Any, Fraction], key: Any, p: Fraction) -> None:
        if p:
            table[key] = table.get(key, Fraction(0)) + p

    hit_faces: list[tuple[int | None, Fraction]] = (
        [(None, Fraction(1))] if auto_hit else list(hit.faces())
    )
    beyond = c["shooting"]["beyond_six"]
    short = None if hit.need is None or auto_hit else hit.threshold()
    if aim is not None and short is not None and short > 6:
        # a 6, then a second roll; a face 0 stands for "a 6 whose second roll failed"
        second = Fraction(7 - int(beyond[short]), 6) if short in beyond else Fraction(0)
        hit.modifier, hit.natural_success = 0, 6
        hit.need, hit.need_min, hit.need_max = 7, None, None  # only a natural 6 goes on
        hit_faces = [(v, p) for v, p in hit_faces if v != 6]
        hit_faces += [(6, p * second) for v, p in hit.faces() if v == 6]
        hit_faces += [(0, p * (1 - second)) for v, p in hit.faces() if v == 6]
    for hv, hp_ in hit_faces:
        if not auto_hit and not hit.ok(hv):  # type: ignore[arg-type]
            add(hits, 0, hp_)
            add(wounds, 0, hp_)
            add(unsaved, 0, hp_)
            add(seqs, (), hp_)
            continue
        hit_nats = [e for e in nat_hit if _matches(e, hv)]
        # an extra hit (Battle Focus) is a hit of its own, without the natural roll's effects
        extra = sum(
            as_int(e.get("hits", 1), e.bindings, str(e.path), e.where())
            for e in hit_nats
            if e.get("effect") == "extra-hit"
        )
        extra += hits_per_roll - 1
        limits.check_extra_hits(len(plain_hit), extra, str(hit_nats[0].path) if hit_nats else "")
        joint: dict[tuple[int, tuple[int, ...]], Fraction] = {(0, ()): hp_}
        for outcomes in [first_hit(hit_nats), *([plain_hit] * extra)]:
            nxt: dict[tuple[int, tuple[int, ...]], Fraction] = {}
            for (w, seq), p in joint.items():
                for dw, size, q in outcomes:
                    new = (*seq, size) if size else seq
                    if hits_per_roll > 1:  # the wounds of one multiplied hit, largest first
                        new = tuple(sorted(new, reverse=True))
                    add(nxt, (w + dw, new), p * q)
            joint = nxt
        add(hits, 1 + extra, hp_)
        for (w, seq), p in joint.items():
            add(wounds, w, p)
            add(unsaved, len(seq), p)
            add(seqs, seq, p)

    def vec(table: dict[int, Fraction]) -> tuple[Fraction, ...]:
        return tuple(table.get(i, Fraction(0)) for i in range(max(table, default=0) + 1))

    roll = PerRoll(vec(hits), vec(wounds), vec(unsaved), seqs)
    info = {
        "to_hit": None if auto_hit else (short if aim is not None else hit.need),
        "to_wound": wound.need,
        "armour_save": save_rule(ap, set()).need,
        "special_save": min(
            (as_int(e.get("value"), e.bindings, str(e.path), e.where()) for e in specials),
            default=None,
        ),
    }
    return roll, info


def sources(scenario: Scenario, build: Build) -> tuple[list[Source], dict[str, int]]:
    """The attack sources of the attacker, with everything their rules change, and the
    defender; a condition that neither the core data nor a rule in play names is refused."""
    att, dfd = scenario.attacker, scenario.defender
    att_cond = side_conditions(scenario, att, dfd, attacking=True)
    dfd_cond = side_conditions(scenario, dfd, att, attacking=False)
    a_all = build.effects(att.rules, scenario.source)
    d_all = build.effects(dfd.rules, scenario.source)
    check_conditions(scenario.conditions, [*a_all, *d_all], scenario.source)
    a_ids = {parse_ref(r).id for r in att.rules} | {e.rule for e in a_all} | set(att.keywords)
    d_ids = {parse_ref(r).id for r in dfd.rules} | {e.rule for e in d_all} | set(dfd.keywords)
    # a rule the other side ignores (Paired Weapons: Parry; "attacks against the bearer with
    # Lethal Strike lose this Attack Attribute") does nothing in this exchange
    a_ignored = {
        str(e.get("what")) for e in a_all if e.op == "ignore" and _holds(e, att_cond, a_ids, d_ids)
    }
    d_ignored = {
        str(e.get("what")) for e in d_all if e.op == "ignore" and _holds(e, dfd_cond, d_ids, a_ids)
    }
    a_ids -= d_ignored
    d_ids -= a_ignored
    a_eff = [e for e in a_all if e.rule not in d_ignored and _holds(e, att_cond, a_ids, d_ids)]
    d_eff = [e for e in d_all if e.rule not in a_ignored and _holds(e, dfd_cond, d_ids, a_ids)]
    # what only the one hit with the square-bracket values has (`Str 3 [7]`, `[Multiple Wounds]`)
    bracketed = [e for e in a_eff if e.bracket_hit or e.get("applies_to") == "bracket-hit"]
    a_eff = [e for e in a_eff if e not in bracketed]
    ignored = a_ignored

    base = {**att.chars, "attacks": att.attacks}
    model = _modified(base, a_eff, {"model"}, d_eff)
    weapon = _modified(base, a_eff, {"model", "attack"}, d_eff)
    defender = _modified(dfd.chars, d_eff, {"model"}, a_eff)
    for e in d_eff:  # "or equal to the attacker's ..., whichever is higher" (Parry)
        if e.op == "modify" and e.get("or_enemy") and _scope(e) == "model":
            char = str(e.get("characteristic"))
            defender[char] = max(int(defender[char]), int(weapon[str(e.get("or_enemy"))]))
    defender["health_points"] = max(1, defender["health_points"])
    n_models = att.models if att.models is not None else 1

    def per_model(expr: str, e: BoundEffect | None, what: str) -> icepool.Die:
        bindings = e.bindings if e is not None else {}
        src = str(e.path) if e is not None else scenario.source
        die = parse(str(expr), bindings, src)
        if min(die.outcomes()) < 0:
            raise InputError(src, f"{what} cannot be negative: {expr}")
        if n_models * int(max(die.outcomes())) > MAX_ROLLS:
            raise InputError(src, f"too many {what}; exact results stop at {MAX_ROLLS} rolls")
        return repeat_sum(die, n_models, src)

    def mw(effects: list[BoundEffect]) -> icepool.Die | None:
        found = [e for e in effects if e.op == "multiple-wounds"]
        # the amount is X; a rule named after it (Clipped Wings) is a condition, not dice
        amounts = [split_params(str(e.get("amount")))[0] for e in found]
        dice = [parse(a, e.bindings, str(e.path)) for a, e in zip(amounts, found, strict=True)]
        return max(dice, key=lambda d: d.mean(), default=None)

    model_effects = [
        e for e in a_eff if e.get("applies_to", "attack") == "model" and not e.attack_only
    ]
    out: list[Source] = []
    for e in a_eff:
        if e.op != "hits":
            continue
        # Breath Attack (Str 4, AP 1, Flaming Attacks): the values and rules of its bracket
        stated, named = bracket_profile(e.params, str(e.path))
        attrs: list[BoundEffect] = []
        if e.get("attributes") == "bracket":
            known = [r for r in named if (build.rules_dir / f"{r.id}.yaml").is_file()]
            attrs = build.effects(known, str(e.path))
            attrs = [x for x in attrs if _holds(x, att_cond, a_ids, d_ids)]
        values = {"self": None, "bracket": None}
        strength = e.get("strength", "self")
        ap = e.get("ap", "self")
        strength = model["strength"] if strength in values else strength
        ap = model["armour_penetration"] if ap in values else ap
        if e.get("strength") == "bracket":
            strength = stated.get("strength", strength)
        if e.get("ap") == "bracket":
            ap = stated.get("armour_penetration", ap)
        strength = as_int(strength, e.bindings, str(e.path), e.where())
        ap = as_int(ap, e.bindings, str(e.path), e.where())
        roll, info = per_roll(
            auto_hit=True,
            offensive_skill=int(model.get("offensive_skill", 0)),
            strength=strength,
            ap=ap,
            defender=defender,
            attacker_effects=[x for x in model_effects if x.op != "hits"]
            + [x for x in a_eff if x.op == "roll"]
            + [x for x in attrs if x.op != "hits"],
            defender_effects=d_eff,
            mw_amount=mw([*model_effects, *attrs]),
            attacker_has=a_ids | att_cond | {x.rule for x in attrs},
        )
        step = int(e.get("step", model.get("agility", 0)))
        profile = {"strength": strength, "armour_penetration": ap, "step": step, **info}
        out.append(Source(e.rule, per_model(e.get("count"), e, "hits"), step, profile, roll))

    strike = [e for e in a_eff if e.op == "strike-at"]
    strike = [e for e in strike if e.get("overrides")] or strike
    stated = strike[-1].get("step") if strike else "agility"
    step = int(weapon.get("agility", 0)) if stated == "agility" else int(stated)
    shooting = scenario.mode == "shooting"
    situations = core()["shooting"]["modifiers"]
    shot_mod = sum(
        int(v) for k, v in situations.items() if k in scenario.conditions and k not in ignored
    )
    own_effects = [x for x in a_eff if x.op != "hits"]
    bracket = None
    if bracketed:
        b_weapon = _modified(weapon, bracketed, {"bracket-hit", "attack", "model"})
        b_effects = [*own_effects, *(x for x in bracketed if x.op not in ("hits", "modify"))]
        bracket = BracketHit(
            int(b_weapon["strength"]),
            int(b_weapon["armour_penetration"]),
            b_effects,
            mw(b_effects),
            a_ids | att_cond | {x.rule for x in bracketed},
        )
    multiply = [e for e in a_eff if e.op == "multiply-hits"]
    hits_per_roll = max(
        (_hits_per_roll(e, dfd, att_cond, scenario.source) for e in multiply), default=1
    )
    roll, info = per_roll(
        auto_hit=False,
        offensive_skill=int(weapon.get("offensive_skill", 0)),
        strength=weapon["strength"],
        ap=weapon["armour_penetration"],
        defender=defender,
        attacker_effects=own_effects,
        defender_effects=d_eff,
        mw_amount=mw(a_eff),
        aim=int(weapon["aim"]) if shooting else None,
        shooting_modifier=shot_mod if shooting else 0,
        attacker_has=a_ids | att_cond,
        hits_per_roll=hits_per_roll,
        bracket=bracket,
    )
    if hits_per_roll > 1:
        info["hits_per_hit"] = hits_per_roll
    if bracket is not None:
        info["bracket_hit"] = {"strength": bracket.strength, "armour_penetration": bracket.ap}
    profile = {
        "offensive_skill": weapon.get("offensive_skill"),
        "strength": weapon["strength"],
        "armour_penetration": weapon["armour_penetration"],
        "step": step,
        **info,
    }
    out.append(
        Source("attacks", per_model(weapon["attacks"], None, "attacks"), step, profile, roll)
    )
    out.sort(key=lambda s: -s.step)  # stable: Impact Hits first at equal steps
    rolls = sum(int(max(s.count.outcomes())) for s in out)
    if rolls > MAX_ROLLS:
        raise InputError(
            scenario.source, f"up to {rolls} attack rolls; exact results stop at {MAX_ROLLS}"
        )
    return out, defender


def _line_sizes(target: Side, flank: bool) -> list[int | None] | None:
    """The models in each rank of the target (each file from a flank), None where unknown;
    None when even the number of ranks (files) is unknown. The unit's width is `files`; a
    last rank that is not full stands in its first files."""
    models, files, ranks = target.models, target.chars.get("files"), target.chars.get("ranks")
    if files and models:
        full, rest = divmod(models, files)
        if flank:
            return [full + (1 if j < rest else 0) for j in range(files)]
        return [files] * full + ([rest] if rest else [])
    if flank:
        return [ranks] * files if files and ranks else ([None] * files if files else None)
    return [files] * ranks if ranks and files else ([None] * ranks if ranks else None)


def _hits_per_roll(e: BoundEffect, target: Side, conditions: Collection[str], source: str) -> int:
    """The hits one hit of an Area Attack or Penetrating attack becomes on this target."""
    per_line = as_int(e.get("per_line"), e.bindings, str(e.path), e.where())
    lines = e.get("lines", 1)
    sizes = _line_sizes(target, "flank-facing" in conditions)
    if lines == "all":
        if sizes is None:
            raise InputError(
                source,
                f"{e.rule} counts the target's ranks and files: give the defender's "
                "'ranks', or its 'models' and 'files' (models per rank)",
                "defender",
            )
        chosen = sizes[: e.get("max_lines", len(sizes))]
    else:
        count = as_int(lines, e.bindings, str(e.path), e.where())
        known = sorted(sizes, key=lambda v: -(v if v is not None else 10**9)) if sizes else None
        chosen = known[:count] if known is not None else [None] * count
    capped = e.get("cap") == "line-models"
    total = sum(per_line if not capped or n is None else min(per_line, n) for n in chosen)
    if target.models is not None:  # never more hits than there are models in the unit
        total = min(total, target.models)
    return max(total, 1)


def _integer_weights(probs: Mapping[int, Fraction]) -> tuple[dict[int, int], int]:
    den = 1
    for p in probs.values():
        den = lcm(den, p.denominator)
    return {k: int(p * den) for k, p in probs.items()}, den


def _wound(part: Any, c: int) -> Any:
    """One unsaved wound of size c: damage d on the front model becomes d + c, or (at d + c
    >= Health Points) the model is removed. A shift of rows, not an HP x HP matrix."""
    import numpy as np  # here, not at the top: only a target of several Health Points needs it

    hp, cols = part.shape
    nxt = np.zeros((hp, cols + 1), dtype=object)
    if c < hp:
        nxt[c:, :cols] = part[: hp - c]
    nxt[0, 1:] += part[max(hp - c, 0) :].sum(axis=0)
    return nxt


def _fold(state: Any, models: int | None) -> Any:
    """Casualties past the unit's models are the unit gone: kept in one column."""
    if models is None or state.shape[1] <= models + 1:
        return state
    out = state[:, : models + 1].copy()
    out[:, models] += state[:, models + 1 :].sum(axis=1)
    return out


def _roll_once(cur: Any, w: Mapping[tuple[int, ...], int], grow: int) -> Any:
    """The chain's state after one more roll: each sequence of unsaved wounds, in order."""
    import numpy as np

    hp = cur.shape[0]
    out = np.zeros((hp, cur.shape[1] + grow), dtype=object)
    for seq, x in w.items():
        part = cur
        for c in seq:
            part = _wound(part, c)
        out[:, : part.shape[1]] += part * x
    return out


def casualties(srcs: list[Source], hp: int, models: int | None) -> Dist:
    """Models removed, by the Markov chain described in the module docstring."""
    if hp == 1:  # every unsaved wound removes a model
        total = Dist.point(0)
        for s in srcs:
            total = total + mixture(s.count.items(), s.per_roll.unsaved)
        return total.capped(models)
    import numpy as np

    state = np.zeros((hp, 1), dtype=object)  # rows: damage on the front model; cols: kills
    state[0, 0] = 1
    den_total = 1
    for s in srcs:
        w, den = _integer_weights(dict(s.per_roll.seqs))
        grow = max(len(seq) for seq in w)

        counts = {int(n): int(q) for n, q in s.count.items() if q}
        nmax = max(counts)
        mix = None
        cur = state
        for n in range(nmax + 1):
            if n:
                cur = _fold(_roll_once(cur, w, grow), models)
            if len(counts) > 1 and n in counts:
                part = cur * (counts[n] * den ** (nmax - n))
                if mix is None:
                    mix = np.zeros((hp, state.shape[1] + nmax * grow), dtype=object)
                mix[:, : part.shape[1]] += part
        if mix is not None:
            state, den_total = mix, den_total * den**nmax * sum(counts.values())
        else:
            state, den_total = cur, den_total * den**nmax
    weights = tuple(int(x) for x in state.sum(axis=0))
    return Dist(weights, den_total).capped(models)


def resolve(scenario: Scenario, build: Build) -> AttackResult:
    """Distributions of hits, wounds, unsaved wounds and casualties for a scenario."""
    options = _weapon_options(scenario, build)
    if len(options) < 2:
        return _resolve(scenario, build)
    best: tuple[tuple[Fraction, Fraction], str, AttackResult] | None = None
    for name, rules in options:  # Weapon Master: the weapon that removes the most models
        attacker = replace(scenario.attacker, rules=rules)
        res = _resolve(replace(scenario, attacker=attacker), build)
        score = (res.casualties.mean(), res.unsaved_wounds.mean())
        if best is None or score > best[0]:
            best = (score, name, res)
    assert best is not None
    _, name, res = best
    srcs = tuple(
        replace(s, profile={**s.profile, "weapon": name}) if s.name == "attacks" else s
        for s in res.sources
    )
    return replace(res, sources=srcs)


def _weapon_options(scenario: Scenario, build: Build) -> list[tuple[str, tuple[str, ...]]]:
    """(weapon, the attacker's rules fighting with it) for each weapon a model part that
    chooses its weapon (Weapon Master) may take: each of its melee weapons, and with
    `hand_weapon` its Hand Weapon (none of them); [] when it has no choice to make."""
    att = scenario.attacker
    if scenario.mode != "melee":
        return []
    cond = side_conditions(scenario, att, scenario.defender, attacking=True)
    effects = build.effects(att.rules, scenario.source)
    ids = {parse_ref(r).id for r in att.rules} | {e.rule for e in effects} | set(att.keywords)
    choose = [e for e in effects if e.op == "choose-weapon" and _holds(e, cond, ids)]
    if not choose:
        return []
    weapons = []
    for ref in att.rules:
        rule = build.rule(parse_ref(ref).id, scenario.source)
        if rule.kind == "weapon" and (rule.data.get("profile") or {}).get("weapon", "melee") in (
            "melee",
            None,
        ):
            weapons.append(ref)
    rest = tuple(r for r in att.rules if r not in weapons)
    options = [(parse_ref(w).id, (*rest, w)) for w in weapons]
    if any(e.get("hand_weapon") for e in choose):
        options.append(("hand-weapon", rest))
    return options


def _resolve(scenario: Scenario, build: Build) -> AttackResult:
    srcs, defender = sources(scenario, build)
    limits.check_attack(
        [
            (
                int(max(s.count.outcomes())),
                [len(q) for q in s.per_roll.seqs],
                _integer_weights(dict(s.per_roll.seqs))[1].bit_length(),
            )
            for s in srcs
        ],
        int(defender["health_points"]),
        scenario.defender.models,
        scenario.source,
    )
    hits = wounds = unsaved = Dist.point(0)
    for s in srcs:
        items = list(s.count.items())
        hits = hits + mixture(items, s.per_roll.hits)
        wounds = wounds + mixture(items, s.per_roll.wounds)
        unsaved = unsaved + mixture(items, s.per_roll.unsaved)
    cas = casualties(srcs, int(defender["health_points"]), scenario.defender.models)
    return AttackResult(hits, wounds, unsaved, cas, tuple(srcs))
