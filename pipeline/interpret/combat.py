"""Rounds of close combat between two units, both striking, exactly.

Each model part's attacks come from the attack chain (`attack.sources`, one model at a time):
its Initiative Step, and per roll the unsaved wounds it causes. A round walks the Initiative
Steps from the highest down; at each step both sides strike at once, each with the models it
has left when the step begins (a unit that strikes later strikes back with its survivors).
The front rank makes its full attacks, the ranks behind it Supporting Attacks (up to the
Attack Value, capped by Height; Fight in Extra Rank adds a rank), all from `combat.yaml`.

The state is the joint distribution of (casualties, damage on the model in front) of both
units, as exact fractions. Wounds land one at a time as in `attack.casualties`: a model is
removed when its damage reaches its Health Points; what is left of one Multiple Wounds roll
is lost. The combat score of a round is the Health Points each side took off the other,
its Rank Bonus after the casualties, +1 for charging (first round) and +1 for a Standard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce
from math import gcd, lcm
from typing import Any

import icepool

from pipeline.errors import InputError
from pipeline.interpret.attack import (
    MAX_ROLLS,
    Scenario,
    Source,
    _holds,
    _integer_weights,
    sources,
)
from pipeline.interpret.break_test import BreakProfile, full_ranks, p_pass
from pipeline.interpret.break_test import profile as break_profile
from pipeline.interpret.dice import distribution, parse
from pipeline.interpret.rules import Build, parse_ref
from pipeline.interpret.scenario import Force, Part, Units, combat_data, effects_of, force


@dataclass(frozen=True, slots=True)
class Strike:
    """One source of one part: per-model count, whether supporting ranks make it, and how."""

    part: str
    source: Source
    per_model: icepool.Die
    supporting: bool
    support_ranks: int
    support_cap: int


@dataclass(frozen=True, slots=True)
class Combat:
    """Two forces in base contact, the situations that hold, and how many rounds to follow."""

    attacker: Force
    defender: Force
    conditions: frozenset[str]
    rounds: int = 1
    source: str = "scenario"


@dataclass(frozen=True, slots=True)
class RoundResult:
    """After a round: each side's casualties so far, and this round's combat score."""

    round: int
    attacker_casualties: dict[int, Fraction]
    defender_casualties: dict[int, Fraction]
    score_difference: dict[int, Fraction]  # attacker's score minus the defender's
    steps: tuple[dict[str, Any], ...]
    # this round's Break Tests: the chance that each side breaks in it, and that it has
    # broken by its end; `untestable` when a loser's Discipline is no number (not tested)
    attacker_breaks: Fraction = Fraction(0)
    defender_breaks: Fraction = Fraction(0)
    attacker_broken: Fraction = Fraction(0)
    defender_broken: Fraction = Fraction(0)
    untestable: bool = False

    def p_fought(self) -> Fraction:
        """The chance that this round was fought (no side broke before it)."""
        return sum(self.score_difference.values(), start=Fraction(0))

    def p_win(self) -> Fraction:
        return sum((p for d, p in self.score_difference.items() if d > 0), start=Fraction(0))

    def p_draw(self) -> Fraction:
        return self.score_difference.get(0, Fraction(0))

    def p_lose(self) -> Fraction:
        return sum((p for d, p in self.score_difference.items() if d < 0), start=Fraction(0))


def is_combat(data: Any) -> bool:
    """Whether a scenario asks for rounds of combat: a side names a unit, the defender can
    strike back (its own `attacks`), or `rounds` is given."""
    if not isinstance(data, dict) or data.get("mode", "melee") != "melee":
        return False
    sides = [data.get("attacker"), data.get("defender")]
    named = any(isinstance(s, dict) and "unit" in s for s in sides)
    back = isinstance(sides[1], dict) and "attacks" in sides[1]
    return named or back or "rounds" in data


def combat_from_dict(
    data: Any, build: Build, source: str = "scenario", units: Units | None = None
) -> Combat:
    """A combat scenario: `attacker`, `defender` (units or written out), `conditions`,
    `rounds`."""
    if not isinstance(data, dict):
        raise InputError(source, "a scenario is a mapping with 'attacker' and 'defender'")
    unknown = set(data) - {"attacker", "defender", "conditions", "rounds", "mode"}
    if unknown:
        raise InputError(source, f"unknown field {min(unknown)!r}")
    if data.get("mode", "melee") != "melee":
        raise InputError(source, "rounds of combat are melee only", "mode")
    named = any(
        isinstance(data.get(k), dict) and "unit" in data[k] for k in ("attacker", "defender")
    )
    if named and units is None:
        units = Units(build)
    att = force(data.get("attacker"), build, units, source, "attacker")
    dfd = force(data.get("defender"), build, units, source, "defender")
    conditions = data.get("conditions") or []
    if not isinstance(conditions, list) or not all(isinstance(c, str) for c in conditions):
        raise InputError(source, "'conditions' must be a list of names", "conditions")
    rounds = data.get("rounds", 1)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 20:
        raise InputError(source, "rounds must be a whole number from 1 to 20", "rounds")
    return Combat(att, dfd, frozenset(conditions), rounds, source)


def _extra_ranks(part: Part, build: Build, conditions: set[str]) -> int:
    """Ranks a part's rules add to its Supporting Attacks (Fight in Extra Rank)."""
    extra = set(combat_data()["supporting_attacks"].get("extra_rank_rules") or [])
    effects = effects_of(build, part.side.rules)
    own = {parse_ref(r).id for r in part.side.rules}
    granted = {str(e.get("rule")) for e in effects if e.op == "grant" and _holds(e, conditions)}
    return len(extra & (own | granted | {e.rule for e in effects}))


def _formation(target: Force) -> dict[str, int]:
    """The target's characteristics with its width as the files that Area Attack and
    Penetrating count, unless the scenario gave them."""
    chars = dict(target.defence.chars)
    chars["files"] = chars.get("files") or target.width
    return chars


def strikes(
    striker: Force, target: Force, build: Build, conditions: frozenset[str], first: bool, src: str
) -> tuple[list[Strike], int]:
    """Every source of every part of `striker` against `target`, per model, and the target's
    Health Points as the rules leave them."""
    sup = combat_data()["supporting_attacks"]
    conds = set(conditions) | {"melee"} | ({"first-round"} if first else set())
    out: list[Strike] = []
    hp = 1
    for part in striker.parts:
        side = replace(part.side, models=1, charging=striker.charging and first)
        dfd = replace(target.defence, chars=_formation(target), charging=target.charging and first)
        scenario = Scenario(side, dfd, frozenset(conds), src, "melee")
        srcs, defender = sources(scenario, build)
        hp = int(defender["health_points"])
        cap = int(sup["max_by_height"].get(part.height, sup["max_by_height"]["standard"]))
        ranks = int(sup["ranks"]) + _extra_ranks(part, build, conds)
        no_support = part.role in (sup.get("no_support_roles") or [])
        for s in srcs:
            supporting = s.name == "attacks" and not no_support
            out.append(Strike(part.name, s, s.count, supporting, ranks, cap))
    return out, hp


def _count(strike: Strike, alive: int, width: int) -> icepool.Die:
    """The rolls of one source with `alive` models: the front rank in full, the supporting
    ranks up to their cap."""
    front = min(alive, width)
    die = front @ strike.per_model if front else icepool.Die([0])
    if strike.supporting:
        behind = min(max(alive - width, 0), width * strike.support_ranks)
        if behind:
            capped = strike.per_model.map(lambda v: min(v, strike.support_cap))
            die = die + behind @ capped
    return die


Weights = tuple[dict[tuple[int, int], int], int]
"""A distribution as integer weights over one denominator: exact without a gcd per sum."""


class _Chain:
    """(kills, damage) after n rolls of one source, from a given damage, as integer weights
    over `den ** n`; cached per source and starting damage."""

    def __init__(self, seqs: Mapping[tuple[int, ...], Fraction], hp: int) -> None:
        weights, self.den = _integer_weights(dict(enumerate(seqs.values())))
        self.seqs = [(seq, weights[i]) for i, seq in enumerate(seqs) if weights.get(i)]
        self.hp = hp
        self.prefix: dict[int, list[dict[tuple[int, int], int]]] = {}

    def after(self, n: int, damage: int) -> dict[tuple[int, int], int]:
        rows = self.prefix.setdefault(damage, [{(0, damage): 1}])
        while len(rows) <= n:
            nxt: dict[tuple[int, int], int] = {}
            for (k, d), p in rows[-1].items():
                for seq, q in self.seqs:
                    kk, dd = k, d
                    for c in seq:
                        if dd + c >= self.hp:
                            kk, dd = kk + 1, 0
                        else:
                            dd += c
                    nxt[(kk, dd)] = nxt.get((kk, dd), 0) + p * q
            rows.append(nxt)
        return rows[n]


@dataclass
class _Side:
    force: Force
    strikes: list[Strike]
    hp: int  # this side's Health Points as the enemy's rules leave them
    chains: dict[int, _Chain]
    cache: dict[tuple[int, int, int], Weights]
    counts: dict[tuple[int, int], tuple[list[tuple[int, int]], int]]


def _counts(side: _Side, i: int, alive: int) -> tuple[list[tuple[int, int]], int]:
    """The rolls of strike `i` with `alive` models as (n, weight) pairs and their total."""
    key = (i, alive)
    if key not in side.counts:
        s = side.strikes[i]
        if len(s.per_model) == 1:  # a fixed Attack Value: a fixed number of rolls
            [v] = s.per_model.outcomes()
            front = min(alive, side.force.width)
            behind = min(max(alive - side.force.width, 0), side.force.width * s.support_ranks)
            n = front * int(v) + (behind * min(int(v), s.support_cap) if s.supporting else 0)
            if n > MAX_ROLLS:
                raise InputError(s.source.name, f"exact results stop at {MAX_ROLLS} rolls")
            side.counts[key] = ([(n, 1)], 1)
            return side.counts[key]
        count = _count(s, alive, side.force.width)
        if int(max(count.outcomes())) > MAX_ROLLS:
            raise InputError(
                s.source.name, f"too many attack rolls; exact results stop at {MAX_ROLLS}"
            )
        pairs = [(int(n), int(w)) for n, w in count.items() if w]
        side.counts[key] = (pairs, sum(w for _, w in pairs))
    return side.counts[key]


def _inflict(side: _Side, step: int, alive: int, damage: int, hp: int) -> Weights:
    """(kills, damage) on the enemy from `side`'s strikes at `step` with `alive` models."""
    key = (step, alive, damage)
    if key in side.cache:
        return side.cache[key]
    dist: dict[tuple[int, int], int] = {(0, damage): 1}
    den = 1
    for i, s in enumerate(side.strikes):
        if s.source.step != step:
            continue
        pairs, total = _counts(side, i, alive)
        chain = side.chains.setdefault(i, _Chain(s.source.per_roll.seqs, hp))
        nmax = max(n for n, _ in pairs)
        scale = {n: w * chain.den ** (nmax - n) for n, w in pairs}
        nxt: dict[tuple[int, int], int] = {}
        for (k0, d0), p in dist.items():
            for n, w in scale.items():
                q = p * w
                for (k, d), r in chain.after(n, d0).items():
                    nxt[(k0 + k, d)] = nxt.get((k0 + k, d), 0) + q * r
        dist, den = nxt, den * total * chain.den**nmax
    side.cache[key] = (dist, den)
    return dist, den


def _rank_bonus(f: Force, alive: int) -> int:
    rb = combat_data()["combat_score"]["rank_bonus"]
    full = int(rb["full_rank_by_height"].get(f.height, rb["full_rank_by_height"]["standard"]))
    behind, width = alive - f.width, f.width  # the models behind the front rank
    ranks = 0
    if behind > 0 and width >= max(full, 1):
        # each whole rank of `width` counts, and the last, shorter one if it is full
        # (counted, not walked: a side of 10^9 models is as quick as one of 10)
        last = behind % width
        ranks = behind // width + (last > 0 and last >= full)
    return min(ranks, int(rb["max"])) * int(rb["per_full_rank"])


def _round(
    start: tuple[int, int, int, int], a: _Side, b: _Side, steps: Sequence[int]
) -> tuple[dict[tuple[int, int, int, int], int], int]:
    """The joint state after one round from one start state (integer weights inside)."""
    ma, mb = a.force.models, b.force.models
    joint: dict[tuple[int, int, int, int], int] = {start: 1}
    den = 1
    for step in steps:
        parts = []
        for (ac, ad, bc, bd), p in joint.items():
            on_b = _inflict(a, step, ma - ac, bd, b.hp) if ma > ac else ({(0, bd): 1}, 1)
            on_a = _inflict(b, step, mb - bc, ad, a.hp) if mb > bc else ({(0, ad): 1}, 1)
            parts.append(((ac, bc), p, on_a, on_b))
        common = 1
        for *_, (_, da), (_, db) in parts:
            common = lcm(common, da * db)
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (ac, bc), p, (dist_a, da), (dist_b, db) in parts:
            p *= common // (da * db)
            for (ka, da2), pa in dist_a.items():
                ac2, da3 = (ma, 0) if ac + ka >= ma else (ac + ka, da2)
                for (kb, db2), pb in dist_b.items():
                    bc2, db3 = (mb, 0) if bc + kb >= mb else (bc + kb, db2)
                    key = (ac2, da3, bc2, db3)
                    nxt[key] = nxt.get(key, 0) + p * pa * pb
        g = reduce(gcd, nxt.values(), den * common)
        joint = {k: v // g for k, v in nxt.items()}
        den = den * common // g
    return joint, den


ONGOING, ATTACKER_BROKE, DEFENDER_BROKE = 0, 1, 2
State = tuple[int, int, int, int, int]  # casualties, damage of both sides; who broke


def break_profiles(combat: Combat, build: Build) -> tuple[BreakProfile, BreakProfile]:
    """How the attacker and the defender take their Break Tests against each other."""
    conds = set(combat.conditions) | {"melee"}
    att, dfd = combat.attacker, combat.defender
    return (
        break_profile(att.discipline, att.defence.rules, dfd.defence.rules, build, conds),
        break_profile(dfd.discipline, dfd.defence.rules, att.defence.rules, build, conds),
    )


def _full(f: Force, alive: int) -> int:
    threshold = combat_data()["combat_score"]["rank_bonus"]["full_rank_by_height"]
    return full_ranks(alive, f.width, int(threshold.get(f.height, threshold["standard"])))


class _Breaks:
    """The loser's chance to pass, as a weight over 36ths (the Break Test's 2D6), cached."""

    def __init__(self, combat: Combat, profiles: tuple[BreakProfile, BreakProfile]) -> None:
        data = combat_data()["break_test"]
        self.dice = str(data["dice"])
        self.steadfast = bool(data.get("steadfast", True))
        self.combat = combat
        self.profiles = profiles
        self.den = _outcomes(self.dice)
        self.cache: dict[tuple[int, int, int, int], int | None] = {}

    def passing(
        self, loser: int, difference: int, alive_loser: int, alive_winner: int
    ) -> int | None:
        """Weight (over `den`) of the loser's (0 attacker, 1 defender) passing; None when its
        Discipline is no number."""
        key = (loser, difference, alive_loser, alive_winner)
        if key not in self.cache:
            sides = (self.combat.attacker, self.combat.defender)
            steadfast = self.steadfast and _full(sides[loser], alive_loser) > _full(
                sides[1 - loser], alive_winner
            )
            p = p_pass(self.profiles[loser], difference, steadfast, self.dice)
            self.cache[key] = None if p is None else int(p * self.den)
        return self.cache[key]


def _roll_values(dice: str) -> list[tuple[int, Fraction]]:
    return distribution(parse(dice))


def _outcomes(dice: str) -> int:
    return lcm(*(q.denominator for _, q in _roll_values(dice)))


def resolve_combat(combat: Combat, build: Build) -> list[RoundResult]:
    """Each round's casualties (so far), combat score difference and Break Tests, exactly.

    After each round the side with the lower score tests (both sides still standing); a
    broken side ends the combat: the rounds after it are fought only by the combats that go
    on, so a later round's score is that of the combats still fought."""
    cs = combat_data()["combat_score"]
    att, dfd = combat.attacker, combat.defender
    breaks = _Breaks(combat, break_profiles(combat, build))
    k = breaks.den
    state: dict[State, int] = {(0, 0, 0, 0, ONGOING): 1}  # integer weights
    state_den = 1
    results: list[RoundResult] = []
    untestable = False
    for r in range(1, combat.rounds + 1):
        first = r == 1
        sa, hp_b = strikes(att, dfd, build, combat.conditions, first, combat.source)
        sb, hp_a = strikes(dfd, att, build, combat.conditions, first, combat.source)
        a = _Side(att, sa, hp_a, {}, {}, {})
        b = _Side(dfd, sb, hp_b, {}, {}, {})
        steps = sorted({s.source.step for s in [*sa, *sb]}, reverse=True)
        bonus_a = (cs["charge"] if att.charging and first else 0) + (
            cs["standard"] if att.standard else 0
        )
        bonus_b = (cs["charge"] if dfd.charging and first else 0) + (
            cs["standard"] if dfd.standard else 0
        )
        fighting = [(st, p) for st, p in state.items() if st[4] == ONGOING]
        ends = [(st, p, *_round(st[:4], a, b, steps)) for st, p in fighting]
        common = reduce(lcm, (den for *_, den in ends), 1)
        new: dict[State, int] = {}
        for st, p in state.items():  # combats already over stay as they ended
            if st[4] != ONGOING:
                new[st] = p * common * k
        diff_w: dict[int, int] = {}
        broke_w = [0, 0]
        for start, p, joint, den in ends:
            p *= common // den
            for end, q in joint.items():
                w = p * q * k
                lost_b = (end[2] * hp_b + end[3]) - (start[2] * hp_b + start[3])
                lost_a = (end[0] * hp_a + end[1]) - (start[0] * hp_a + start[1])
                score_a = lost_b * cs["per_wound"] + bonus_a
                score_b = lost_a * cs["per_wound"] + bonus_b
                alive_a, alive_b = att.models - end[0], dfd.models - end[2]
                if alive_a > 0:
                    score_a += _rank_bonus(att, alive_a)
                if alive_b > 0:
                    score_b += _rank_bonus(dfd, alive_b)
                d = score_a - score_b
                diff_w[d] = diff_w.get(d, 0) + w
                passing: int | None = k
                if d and alive_a > 0 and alive_b > 0:
                    loser = 0 if d < 0 else 1
                    alive = (alive_a, alive_b)
                    passing = breaks.passing(loser, abs(d), alive[loser], alive[1 - loser])
                    if passing is None:
                        untestable = True
                        passing = k
                    if passing < k:
                        flag = ATTACKER_BROKE if loser == 0 else DEFENDER_BROKE
                        key = (*end, flag)
                        new[key] = new.get(key, 0) + w // k * (k - passing)
                        broke_w[loser] += w // k * (k - passing)
                key = (*end, ONGOING)
                new[key] = new.get(key, 0) + w // k * passing
        total = state_den * common * k
        g = reduce(gcd, new.values(), total)
        state, state_den = {key: v // g for key, v in new.items()}, total // g
        diff = {d: Fraction(w, total) for d, w in diff_w.items()}
        cas_w: tuple[dict[int, int], dict[int, int]] = ({}, {})
        over = [0, 0]
        for (ac, _, bc, _, flag), w in state.items():
            cas_w[0][ac] = cas_w[0].get(ac, 0) + w
            cas_w[1][bc] = cas_w[1].get(bc, 0) + w
            if flag:
                over[flag - 1] += w
        cas_a = {key: Fraction(w, state_den) for key, w in cas_w[0].items()}
        cas_b = {key: Fraction(w, state_den) for key, w in cas_w[1].items()}
        info = tuple(
            {"side": side, "part": s.part, "source": s.source.name, **dict(s.source.profile)}
            for side, ss in (("attacker", sa), ("defender", sb))
            for s in ss
        )
        results.append(
            RoundResult(
                r,
                dict(sorted(cas_a.items())),
                dict(sorted(cas_b.items())),
                dict(sorted(diff.items())),
                info,
                attacker_breaks=Fraction(broke_w[0], total),
                defender_breaks=Fraction(broke_w[1], total),
                attacker_broken=Fraction(over[0], state_den),
                defender_broken=Fraction(over[1], state_den),
                untestable=untestable,
            )
        )
    return results


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), start=Fraction(0))


def _dist(d: Mapping[int, Fraction]) -> dict[str, Any]:
    return {
        "distribution": [{"value": v, "p": str(p)} for v, p in d.items() if p],
        "mean": str(mean(d)),
    }


def not_played() -> list[str]:
    """What a round here does not play (pursuit, fleeing, challenges ...): named in answers."""
    return [str(x) for x in combat_data()["break_test"].get("not_played") or ()]


def _pct(p: Fraction) -> str:
    return f"{float(p):.1%}"


def round_lines(r: RoundResult) -> list[str]:
    """A round's combat score and Break Tests as a person reads them (percentages)."""
    fought = r.p_fought()
    head = "" if fought == 1 else f" (fought in {_pct(fought)} of combats; the rest ended)"
    lines = [
        f"combat score difference (attacker - defender): mean "
        f"{float(mean(r.score_difference) / fought if fought else 0):+.2f}{head}; attacker "
        f"wins {_pct(r.p_win())}, draw {_pct(r.p_draw())}, defender wins {_pct(r.p_lose())}",
        f"break tests: the defender breaks {_pct(r.defender_breaks)}, the attacker breaks "
        f"{_pct(r.attacker_breaks)}; broken so far: defender {_pct(r.defender_broken)}, "
        f"attacker {_pct(r.attacker_broken)}",
    ]
    if r.untestable:
        lines.append("  a loser whose Discipline is no number took no Break Test")
    return lines


def profile_lines(profiles: tuple[BreakProfile, BreakProfile]) -> list[str]:
    out = []
    for who, p in zip(("attacker", "defender"), profiles, strict=True):
        how = "; ".join(p.sources) or "no rule changes it"
        dis = "no Discipline stated" if p.discipline is None else f"Discipline {p.discipline}"
        out.append(f"{who} Break Test: {dis}, modifier {p.modifier:+d} ({how})")
        if p.not_played:
            out.append(f"  not played (its text names Break Tests): {', '.join(p.not_played)}")
    return out


def combat_json(
    combat: Combat,
    results: Sequence[RoundResult],
    profiles: tuple[BreakProfile, BreakProfile] | None = None,
) -> dict[str, Any]:
    """The combat as one JSON document: both sides as resolved, how each takes its Break
    Tests, each round (fractions) and what the rounds do not play."""
    from pipeline.interpret.scenario import describe

    out: dict[str, Any] = {
        "attacker": describe(combat.attacker),
        "defender": describe(combat.defender),
        "conditions": sorted(combat.conditions),
    }
    if profiles is not None:
        out["break_tests"] = {
            "attacker": profiles[0].to_json(),
            "defender": profiles[1].to_json(),
        }
    return {
        **out,
        "not_played": not_played(),
        "rounds": [
            {
                "round": r.round,
                "attacker_casualties": _dist(r.attacker_casualties),
                "defender_casualties": _dist(r.defender_casualties),
                "score_difference": _dist(r.score_difference),
                "p_win": str(r.p_win()),
                "p_draw": str(r.p_draw()),
                "p_lose": str(r.p_lose()),
                "p_fought": str(r.p_fought()),
                "p_attacker_breaks": str(r.attacker_breaks),
                "p_defender_breaks": str(r.defender_breaks),
                "attacker_broken": str(r.attacker_broken),
                "defender_broken": str(r.defender_broken),
                **({"untestable": True} if r.untestable else {}),
                "strikes": list(r.steps),
            }
            for r in results
        ],
    }
