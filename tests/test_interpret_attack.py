"""The T9A attack chain against brute force written out here, and a seeded simulation.

The test's own reading of the rules (T9A 2nd edition core): to hit by OS - DS (>=4: 2+, 1..3:
3+, 0..-3: 4+, -4..-7: 5+, <=-8: 6+), to wound by S - R (>=2: 2+, 1: 3+, 0: 4+, -1: 5+,
<=-2: 6+), natural 1 fails and natural 6 succeeds; armour save 7 - (A - AP), none at A - AP <= 0,
natural 1 fails; a special save after a failed armour save; Multiple Wounds per unsaved wound
capped at Health Points; wounds land on one model at a time and never spill over.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.commands import main
from pipeline.errors import InputError
from pipeline.interpret.attack import resolve, scenario_from_dict
from pipeline.interpret.rules import Build

D6 = range(1, 7)
HALF = Fraction(1, 6)

RULES = {
    "great-weapon": {
        "kind": "weapon",
        "names": {"en": "Great Weapon"},
        "effects": [
            {"op": "modify", "characteristic": "strength", "by": 2, "applies_to": "attack"},
            {"op": "modify", "characteristic": "armour_penetration", "by": 2,
             "applies_to": "attack"},
            {"op": "strike-at", "step": 0},
        ],
    },
    "impact-hits": {
        "kind": "special-rule",
        "names": {"en": "Impact Hits"},
        "params": ["X"],
        "effects": [{"op": "hits", "count": "X", "strength": "self", "ap": "self", "step": 10,
                     "when": "charging"}],
    },
    "multiple-wounds": {
        "kind": "special-rule",
        "names": {"en": "Multiple Wounds"},
        "effects": [{"op": "multiple-wounds", "amount": "X"}],
    },
    "aegis": {
        "kind": "special-rule",
        "names": {"en": "Aegis"},
        "effects": [{"op": "special-save", "kind": "aegis", "value": "X"}],
    },
    "poisoned-attacks": {
        "kind": "special-rule",
        "names": {"en": "Poisoned Attacks"},
        "effects": [{"op": "on-natural", "roll": "to-hit", "value": 6, "effect": "auto-wound"}],
    },
    "lethal-strike": {
        "kind": "special-rule",
        "names": {"en": "Lethal Strike"},
        "effects": [
            {"op": "on-natural", "roll": "to-wound", "value": 6, "effect": "set-ap", "ap": 10},
            {"op": "on-natural", "roll": "to-wound", "value": 6, "effect": "deny-save",
             "save": "aegis"},
        ],
    },
    "shield": {
        "kind": "weapon",
        "names": {"en": "Shield"},
        "effects": [{"op": "modify", "characteristic": "armour", "by": 1, "when": "front-facing"}],
    },
    "hatred": {
        "kind": "special-rule",
        "names": {"en": "Hatred"},
        "effects": [{"op": "roll", "roll": "to-hit", "reroll": "failed", "when": "first-round"}],
    },
    "lance": {
        "kind": "weapon",
        "names": {"en": "Lance"},
        "effects": [{"op": "grant", "rule": "great-weapon", "when": "charging"}],
    },
}  # fmt: skip


def write_rules(build: Path, rules: dict[str, dict]) -> Path:
    (build / "rules").mkdir(parents=True, exist_ok=True)
    for rule_id, rule in rules.items():
        doc = {"id": rule_id, **rule}
        (build / "rules" / f"{rule_id}.yaml").write_text(yaml.safe_dump(doc, sort_keys=False))
    return build


@pytest.fixture
def build(tmp_path: Path) -> Path:
    return write_rules(tmp_path / "output", RULES)


# --- the independent computation ---------------------------------------------------------------


def need_hit(os_: int, ds: int) -> int:
    d = os_ - ds
    return 2 if d >= 4 else 3 if d >= 1 else 4 if d >= -3 else 5 if d >= -7 else 6


def need_wound(s: int, r: int) -> int:
    d = s - r
    return 2 if d >= 2 else 3 if d == 1 else 4 if d == 0 else 5 if d == -1 else 6


def armour_need(armour: int, ap: int) -> int | None:
    return None if armour - ap <= 0 else 7 - (armour - ap)


@dataclass(frozen=True)
class Roll:
    """One kind of attack roll, as the test reads the rules."""

    hit: int | None  # None: hits automatically
    wound: int
    armour: int
    ap: int
    special: int | None = None
    mw: tuple[int, ...] = (1,)  # equally likely Multiple Wounds results
    hp: int = 1
    poisoned: bool = False
    lethal: bool = False
    reroll_failed_hits: bool = False


def passes(v: int, need: int | None) -> bool:
    return need is not None and v != 1 and (v == 6 or v >= need)


def saves(v: int, need: int | None) -> bool:
    return need is not None and v != 1 and v >= need


def per_roll(r: Roll) -> dict[tuple[int, int, int], Fraction]:
    """(hit, wound, wounds dealt) of one roll, by enumerating every die involved."""
    out: Counter = Counter()
    if r.hit is None:
        hit_faces = [(None, Fraction(1))]
    else:
        hit_faces = []
        for first, second in itertools.product(D6, D6):
            v = second if (r.reroll_failed_hits and not passes(first, r.hit)) else first
            hit_faces.append((v, Fraction(1, 36)))
    for hv, p_h in hit_faces:
        if hv is not None and not passes(hv, r.hit):
            out[(0, 0, 0)] += p_h
            continue
        auto = r.poisoned and hv == 6
        for wv in [None] if auto else D6:
            p_w = p_h * (1 if auto else HALF)
            if not auto and not passes(wv, r.wound):
                out[(1, 0, 0)] += p_w
                continue
            lethal = r.lethal and wv == 6
            need = armour_need(r.armour, 10 if lethal else r.ap)
            special = None if lethal else r.special
            for sv, av in itertools.product(D6, D6):
                p = p_w * HALF * HALF
                if saves(sv, need) or saves(av, special):
                    out[(1, 1, 0)] += p
                    continue
                for m in r.mw:
                    out[(1, 1, min(m, r.hp))] += p / len(r.mw)
    return dict(out)


def chain(groups: list[tuple[dict[int, Fraction], Roll]], hp: int, models: int | None = None):
    """Forward enumeration of the joint state (hits, wounds, unsaved, kills, damage).

    `groups` are (distribution of the number of rolls, kind of roll), in striking order.
    """
    state: Counter = Counter({(0, 0, 0, 0, 0): Fraction(1)})
    for counts, roll in groups:
        outcomes = per_roll(roll)
        after: Counter = Counter()
        for n, p_n in counts.items():
            cur = state
            for _ in range(n):
                nxt: Counter = Counter()
                for (h, w, u, k, d), p in cur.items():
                    for (hit, wound, c), q in outcomes.items():
                        k2, d2 = k, d
                        if c:
                            if models is not None and k >= models:
                                pass
                            elif d + c >= hp:
                                k2, d2 = k + 1, 0
                            else:
                                d2 = d + c
                        nxt[(h + hit, w + wound, u + (c > 0), k2, d2)] += p * q
                cur = nxt
            for key, p in cur.items():
                after[key] += p * p_n
        state = after
    marg = {name: Counter() for name in ("hits", "wounds", "unsaved_wounds", "casualties")}
    for (h, w, u, k, _), p in state.items():
        marg["hits"][h] += p
        marg["wounds"][w] += p
        marg["unsaved_wounds"][u] += p
        marg["casualties"][k] += p
    return {name: dict(sorted((v, p) for v, p in m.items() if p)) for name, m in marg.items()}


def engine(build: Path, scenario: dict) -> dict[str, dict[int, Fraction]]:
    r = resolve(scenario_from_dict(scenario), Build(build))
    return {
        k: dict(getattr(r, k).items()) for k in ("hits", "wounds", "unsaved_wounds", "casualties")
    }


def fixed(n: int) -> dict[int, Fraction]:
    return {n: Fraction(1)}


def d3_sum(models: int) -> dict[int, Fraction]:
    out: Counter = Counter()
    for faces in itertools.product(D6, repeat=models):
        out[sum((f + 1) // 2 for f in faces)] += Fraction(1, 6**models)
    return dict(out)


def attacker(**kw) -> dict:
    base = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 4,
            "armour_penetration": 0, "agility": 3, "rules": []}  # fmt: skip
    return {**base, **kw}


def defender(**kw) -> dict:
    base = {"defensive_skill": 3, "resilience": 3, "health_points": 1, "armour": 2, "rules": []}
    return {**base, **kw}


# --- tests -------------------------------------------------------------------------------------


def test_plain_attacks_equal_the_product_over_every_die(build: Path) -> None:
    """2 attacks, by the raw product of all 6 dice (no shortcut in the test)."""
    got = engine(build, {"attacker": attacker(attacks=2), "defender": defender()})
    hits: Counter = Counter()
    kills: Counter = Counter()
    for dice in itertools.product(D6, repeat=6):
        h = k = 0
        for i in range(2):
            hv, wv, sv = dice[3 * i : 3 * i + 3]
            if passes(hv, 3):
                h += 1
                if passes(wv, 3) and not saves(sv, 5):
                    k += 1
        hits[h] += 1
        kills[k] += 1
    total = 6**6
    assert got["hits"] == {v: Fraction(c, total) for v, c in sorted(hits.items())}
    assert got["casualties"] == {v: Fraction(c, total) for v, c in sorted(kills.items())}
    assert got["unsaved_wounds"] == got["casualties"]


def test_great_weapon_with_multiple_wounds_against_3_hp(build: Path) -> None:
    scen = {
        "attacker": attacker(models=2, attacks=2, rules=["great-weapon", "multiple-wounds(D3)"]),
        "defender": defender(resilience=4, health_points=3, armour=3),
    }
    roll = Roll(hit=need_hit(4, 3), wound=need_wound(6, 4), armour=3, ap=2, mw=(1, 2, 3), hp=3)
    assert engine(build, scen) == chain([(fixed(4), roll)], hp=3)


def test_editing_great_weapon_changes_the_numbers(build: Path) -> None:
    scen = {
        "attacker": attacker(models=3, attacks=1, rules=["great-weapon"]),
        "defender": defender(resilience=4, armour=4),
    }
    before = engine(build, scen)
    path = build / "rules" / "great-weapon.yaml"
    rule = yaml.safe_load(path.read_text())
    assert rule["effects"][0] == {
        "op": "modify", "characteristic": "strength", "by": 2, "applies_to": "attack"
    }  # fmt: skip
    rule["effects"][0]["by"] = 1
    path.write_text(yaml.safe_dump(rule, sort_keys=False))
    after = engine(build, scen)
    assert after != before
    assert after["wounds"] != before["wounds"]
    plus2 = Roll(hit=need_hit(4, 3), wound=need_wound(6, 4), armour=4, ap=2)
    plus1 = Roll(hit=need_hit(4, 3), wound=need_wound(5, 4), armour=4, ap=2)
    assert before == chain([(fixed(3), plus2)], hp=1)
    assert after == chain([(fixed(3), plus1)], hp=1)
    mean = lambda d: sum(v * p for v, p in d.items())  # noqa: E731
    assert mean(after["casualties"]) < mean(before["casualties"])


def test_impact_hits_d3_strike_first_and_use_the_models_strength(build: Path) -> None:
    scen = {
        "attacker": attacker(
            models=2, charging=True, rules=["impact-hits(D3)", "great-weapon", "multiple-wounds(2)"]
        ),
        "defender": defender(health_points=2, armour=3, resilience=4),
    }
    impact = Roll(hit=None, wound=need_wound(4, 4), armour=3, ap=0, hp=2)
    attacks = Roll(hit=need_hit(4, 3), wound=need_wound(6, 4), armour=3, ap=2, mw=(2,), hp=2)
    want = chain([(d3_sum(2), impact), (fixed(2), attacks)], hp=2)
    assert engine(build, scen) == want
    # not charging: no Impact Hits
    scen["attacker"]["charging"] = False
    assert engine(build, scen) == chain([(fixed(2), attacks)], hp=2)


def test_natural_six_effects_and_special_save(build: Path) -> None:
    scen = {
        "attacker": attacker(attacks=3, strength=3, rules=["poisoned-attacks", "lethal-strike"]),
        "defender": defender(resilience=4, armour=3, rules=["aegis(5+)"], health_points=1),
    }
    roll = Roll(hit=3, wound=5, armour=3, ap=0, special=5, poisoned=True, lethal=True)
    assert engine(build, scen) == chain([(fixed(3), roll)], hp=1)
    # against the same roll without the natural-6 rules, more wounds are saved
    plain = chain([(fixed(3), Roll(hit=3, wound=5, armour=3, ap=0, special=5))], hp=1)
    assert engine(build, scen)["unsaved_wounds"] != plain["unsaved_wounds"]


def test_conditions_front_facing_and_first_round_reroll(build: Path) -> None:
    base = {
        "attacker": attacker(attacks=2, rules=["hatred"]),
        "defender": defender(armour=1, rules=["shield"]),
    }
    flank = engine(build, base)
    front = engine(build, {**base, "conditions": ["front-facing"]})
    assert flank == chain([(fixed(2), Roll(hit=3, wound=3, armour=1, ap=0))], hp=1)
    assert front == chain([(fixed(2), Roll(hit=3, wound=3, armour=2, ap=0))], hp=1)
    charging = {**base, "attacker": {**base["attacker"], "charging": True}}
    rerolled = Roll(hit=3, wound=3, armour=1, ap=0, reroll_failed_hits=True)
    assert engine(build, charging) == chain([(fixed(2), rerolled)], hp=1)


def test_conditional_grant(build: Path) -> None:
    scen = {"attacker": attacker(rules=["lance"], charging=True), "defender": defender(armour=4)}
    assert engine(build, scen) == chain([(fixed(1), Roll(hit=3, wound=2, armour=4, ap=2))], hp=1)
    scen["attacker"]["charging"] = False
    assert engine(build, scen) == chain([(fixed(1), Roll(hit=3, wound=3, armour=4, ap=0))], hp=1)


def test_random_number_of_attacks_and_unit_size_cap(build: Path) -> None:
    scen = {
        "attacker": attacker(models=2, attacks="D3", rules=["multiple-wounds(D3)"]),
        "defender": defender(health_points=2, models=2),
    }
    roll = Roll(hit=3, wound=3, armour=2, ap=0, mw=(1, 2, 3), hp=2)
    assert engine(build, scen) == chain([(d3_sum(2), roll)], hp=2, models=2)


def test_no_rule_is_named_in_the_interpreter_code() -> None:
    src = Path(__file__).resolve().parents[1] / "pipeline" / "interpret"
    code = "\n".join(p.read_text() for p in src.glob("*.py"))
    ops = set(json.loads((src.parents[1] / "schemas" / "effect.schema.json").read_text())["$defs"])
    for rule_id in set(RULES) - ops:  # `multiple-wounds` is also the name of an effect op
        assert re.search(rf"['\"]{rule_id}['\"]", code) is None, rule_id


def test_attack_command_json(build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    scen = {
        "attacker": attacker(
            models=4, charging=True, rules=["great-weapon", "multiple-wounds(D3)"]
        ),
        "defender": defender(resilience=4, health_points=3, armour=3),
    }
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scen))
    assert main(["attack", str(path), "--build", str(build), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    roll = Roll(hit=3, wound=2, armour=3, ap=2, mw=(1, 2, 3), hp=3)
    want = chain([(fixed(4), roll)], hp=3)
    for key in ("hits", "wounds", "unsaved_wounds", "casualties"):
        got = {d["value"]: Fraction(d["p"]) for d in doc[key]["distribution"]}
        assert got == want[key], key
        assert Fraction(doc[key]["mean"]) == sum(v * p for v, p in want[key].items())
    at_least = {d["value"]: Fraction(d["p"]) for d in doc["casualties"]["p_at_least"]}
    for k in range(1, max(want["casualties"]) + 1):
        assert at_least[k] == sum(p for v, p in want["casualties"].items() if v >= k)
    assert doc["hits"]["distribution"][0] == {"value": 0, "p": "1/81"}


def test_attack_command_text(build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump({"attacker": attacker(), "defender": defender()}))
    assert main(["attack", str(path), "--build", str(build)]) == 0
    out = capsys.readouterr().out
    assert "casualties" in out and "2/3" in out  # P(hit) = 2/3 for 3+ to hit


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        ({"attacker": attacker(), "defender": {"armour": 1}}, "defensive_skill"),
        ({"attacker": attacker(strength=-1), "defender": defender()}, "strength"),
        ({"attacker": attacker(rules=["no-such-rule"]), "defender": defender()}, "no-such-rule"),
        ({"attacker": attacker(attacks="2D"), "defender": defender()}, "2D"),
        ({"attacker": attacker(rules=["multiple-wounds"]), "defender": defender()}, "X"),
        ([1, 2], "mapping"),
        ({"attacker": attacker(models=3000), "defender": defender()}, "2000"),
    ],
)
def test_bad_scenarios_exit_2(
    build: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], scenario, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(scenario))
    assert main(["attack", str(path), "--build", str(build), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert message in out.err


def test_a_bad_effect_names_its_file_and_index(build: Path) -> None:
    broken = {**RULES["great-weapon"]}
    broken["effects"] = [
        *broken["effects"],
        {"op": "modify", "characteristic": "strenght", "by": 1},
    ]
    write_rules(build, {"great-weapon": broken})
    scen = {"attacker": attacker(rules=["great-weapon"]), "defender": defender()}
    with pytest.raises(InputError) as info:
        resolve(scenario_from_dict(scen), Build(build))
    assert "great-weapon.yaml" in str(info.value)
    assert "effects[3]" in str(info.value)


# --- seeded simulation ------------------------------------------------------------------------


def simulate(rng: random.Random) -> tuple[int, int, int, int]:
    """One fight: 3 charging models, Impact Hits (D3), Great Weapon, Multiple Wounds (D3),
    against Resilience 4, Armour 3, Aegis (5+), Health Points 3."""
    d6 = lambda: rng.randint(1, 6)  # noqa: E731
    hits = wounds = unsaved = kills = dmg = 0

    def land(strength: int, ap: int, mw: bool) -> None:
        nonlocal wounds, unsaved, kills, dmg
        w = d6()
        if w == 1 or (w != 6 and w < need_wound(strength, 4)):
            return
        wounds += 1
        if saves(d6(), armour_need(3, ap)) or saves(d6(), 5):
            return
        unsaved += 1
        c = min((d6() + 1) // 2, 3) if mw else 1
        if dmg + c >= 3:
            kills, dmg = kills + 1, 0
        else:
            dmg += c

    for _ in range(3):  # Impact Hits: model Strength 4, AP 0, at step 10
        for _ in range((d6() + 1) // 2):
            hits += 1
            land(4, 0, mw=False)
    for _ in range(3 * 2):  # attacks: Strength 6, AP 2, Multiple Wounds (D3)
        h = d6()
        if h != 1 and (h == 6 or h >= need_hit(4, 3)):
            hits += 1
            land(6, 2, mw=True)
    return hits, wounds, unsaved, kills


def test_seeded_simulation_agrees_with_the_exact_chain(build: Path) -> None:
    scen = {
        "attacker": attacker(
            models=3,
            attacks=2,
            charging=True,
            rules=["impact-hits(D3)", "great-weapon", "multiple-wounds(D3)"],
        ),
        "defender": defender(resilience=4, armour=3, health_points=3, rules=["aegis(5+)"]),
    }
    exact = engine(build, scen)
    rng = random.Random(20240611)
    trials = 200_000
    samples = [simulate(rng) for _ in range(trials)]
    for i, key in enumerate(("hits", "wounds", "unsaved_wounds", "casualties")):
        mean = sum(v * p for v, p in exact[key].items())
        var = sum((v - mean) ** 2 * p for v, p in exact[key].items())
        observed = sum(s[i] for s in samples) / trials
        assert abs(observed - float(mean)) < 5 * math.sqrt(float(var) / trials), key
    counts = Counter(s[3] for s in samples)
    for k, p in exact["casualties"].items():
        se = math.sqrt(float(p * (1 - p)) / trials)
        assert abs(counts[k] / trials - float(p)) < 5 * se + 1e-4, k
