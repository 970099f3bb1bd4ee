"""Combat rules read from BattleScribe data (tests/data/battlescribe/combat.gst, written for
these tests) and executed: every expected number is worked out by hand from the rule's wording.

Base case unless a test says otherwise: one model, one attack, Offensive Skill 4, Strength 3,
AP 0, Agility 3, against Defensive Skill 4, Resilience 3, 1 Health Point, Armour 0: to hit
4+ (1/2), to wound 4+ (1/2), no armour save.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.build import build
from pipeline.errors import InputError
from pipeline.interpret.attack import resolve, scenario_from_dict, sources
from pipeline.interpret.rules import Build

from .helpers.battlescribe import build_fixtures

FIXTURE = Path(__file__).parent / "data" / "battlescribe" / "combat.gst"
F = Fraction


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("combat"), FIXTURE.name)


def rule(out: Path, rule_id: str) -> dict[str, Any]:
    return yaml.safe_load((out / "rules" / f"{rule_id}.yaml").read_text(encoding="utf-8"))


def scenario(
    att_rules: list[str] = (),  # type: ignore[assignment]
    def_rules: list[str] = (),  # type: ignore[assignment]
    conditions: list[str] = (),  # type: ignore[assignment]
    charging: bool = False,
    attacker: dict[str, Any] | None = None,
    defender: dict[str, Any] | None = None,
) -> Any:
    att = {
        "models": 1,
        "attacks": 1,
        "offensive_skill": 4,
        "strength": 3,
        "armour_penetration": 0,
        "agility": 3,
        "rules": list(att_rules),
        "charging": charging,
    }
    dfd = {
        "defensive_skill": 4,
        "resilience": 3,
        "health_points": 1,
        "armour": 0,
        "rules": list(def_rules),
    }
    att |= attacker or {}
    dfd |= defender or {}
    return scenario_from_dict(
        {"attacker": att, "defender": dfd, "conditions": list(conditions)}, "test"
    )


def unsaved(out: Path, **kw: Any) -> Fraction:
    return resolve(scenario(**kw), Build(out)).unsaved_wounds.mean()


def profile(out: Path, **kw: Any) -> dict[str, Any]:
    srcs, _ = sources(scenario(**kw), Build(out))
    return dict(next(s for s in srcs if s.name == "attacks").profile)


def test_weapon_profiles_are_weapons_read_from_their_columns(out: Path) -> None:
    gw = rule(out, "great-weapon")
    assert gw["kind"] == "weapon"
    mods = [e for e in gw["effects"] if e["op"] == "modify"]
    assert {(e["characteristic"], e["by"]) for e in mods} == {
        ("strength", 2),
        ("armour_penetration", 2),
    }
    text = gw["texts"]["en"]["text"]
    for e in gw["effects"]:  # every effect points at its column or attribute
        a, b = e["span"]
        assert text[a:b].strip()
    assert text[slice(*mods[0]["span"])] == "Str +2"
    # the later wording lists attributes: one a rule of the build, one an effect
    assert {"op": "grant", "rule": "two-handed"} in [
        {k: v for k, v in e.items() if k in ("op", "rule")} for e in gw["effects"]
    ]
    assert any(e["op"] == "strike-at" and e["step"] == 0 for e in gw["effects"])
    assert not [f for f in gw["flags"] if f["flag"] == "unresolved-reference"]
    assert rule(out, "shield")["kind"] == "armour"


def test_great_weapon_from_columns(out: Path) -> None:
    # S 5 vs R 3: 2+ (5/6); AP 2 against Armour 3: save 6+ (1/6 saves); strikes at 0
    p = unsaved(out, att_rules=["great-weapon"], defender={"armour": 3})
    assert p == F(1, 2) * F(5, 6) * F(5, 6)
    assert profile(out, att_rules=["great-weapon"])["step"] == 0
    # without it: wound 4+, save 4+
    assert unsaved(out, defender={"armour": 3}) == F(1, 2) * F(1, 2) * F(1, 2)


def test_great_weapon_with_lightning_reflexes(out: Path) -> None:
    # Lightning Reflexes alone: +1 to hit, 4+ becomes 3+ (2/3)
    assert unsaved(out, att_rules=["lightning-reflexes"]) == F(2, 3) * F(1, 2)
    # with a Great Weapon: no +1 (1/2), and the attack strikes at Agility 3, not at 0
    p = profile(out, att_rules=["great-weapon", "lightning-reflexes"])
    assert p["step"] == 3 and p["to_hit"] == 4 and p["strength"] == 5
    assert unsaved(out, att_rules=["great-weapon", "lightning-reflexes"]) == F(1, 2) * F(5, 6)


def test_spear_counts_its_ap_once_and_its_agility_only_when_not_charging(out: Path) -> None:
    plain = profile(out, att_rules=["spear"])
    assert plain["armour_penetration"] == 1  # column and text say the same +1
    first = profile(out, att_rules=["spear"], conditions=["first-round"])
    assert first["step"] == 3 + 3  # +3 Agility: first round, not charging
    charging = profile(out, att_rules=["spear"], charging=True)
    assert charging["step"] == 3  # "provided their unit is not Charging"
    effects = rule(out, "spear")["effects"]
    agi = next(e for e in effects if e.get("characteristic") == "agility")
    assert set(agi["when"].split(" & ")) == {"first-round", "not-charging", "melee"}


def test_lance_only_charging_and_in_the_front(out: Path) -> None:
    both = profile(out, att_rules=["lance"], charging=True, conditions=["front-facing"])
    assert (both["strength"], both["armour_penetration"]) == (5, 2)
    for kw in ({"charging": True}, {"conditions": ["front-facing"]}, {}):
        p = profile(out, att_rules=["lance"], **kw)
        assert (p["strength"], p["armour_penetration"]) == (3, 0), kw  # no double +2 either


def test_paired_weapons_against_parry(out: Path) -> None:
    front = ["front-facing"]
    # Shield: +1 Armour (save 6+) and Parry: DS max(4 + 1, OS 4) = 5, OS - DS = -1: 4+
    base = unsaved(out, def_rules=["shield"], conditions=front)
    assert base == F(1, 2) * F(1, 2) * F(5, 6)
    # Parry equals the attacker's Offensive Skill when that is higher: OS 6 vs DS 6: 4+
    high = profile(out, def_rules=["shield"], conditions=front, attacker={"offensive_skill": 6})
    assert high["to_hit"] == 4
    # not in the front: no Parry, OS 6 vs DS 4: 3+
    side = profile(out, def_rules=["shield"], attacker={"offensive_skill": 6})
    assert side["to_hit"] == 3
    # Paired Weapons: 2 attacks at OS 5, Parry ignored (DS 4): 3+ each
    res = resolve(
        scenario(att_rules=["paired-weapons"], def_rules=["shield"], conditions=front),
        Build(out),
    )
    assert res.unsaved_wounds.mean() == 2 * F(2, 3) * F(1, 2) * F(5, 6)


def test_lethal_strike_against_fortitude(out: Path) -> None:
    # Fortitude 4+; a natural 6 to wound ignores it: per hit 1/6 + (2/6)(1/2) = 1/3
    p = unsaved(out, att_rules=["lethal-strike"], def_rules=["fortitude(4+)"])
    assert p == F(1, 2) * F(1, 3)
    assert unsaved(out, def_rules=["fortitude(4+)"]) == F(1, 2) * F(1, 2) * F(1, 2)


def test_halberd_with_lethal_strike(out: Path) -> None:
    # S 4 vs R 3: 3+; AP 1 vs Armour 2: save 6+; a natural 6 sets AP 10: no save
    p = unsaved(out, att_rules=["halberd", "lethal-strike"], defender={"armour": 2})
    assert p == F(1, 2) * (F(1, 6) + F(3, 6) * F(5, 6))


def test_devastating_charge_with_poison_attacks(out: Path) -> None:
    rules = ["devastating-charge(+1 Strength, Poison Attacks)"]
    # charging: S 4 (3+), a natural 6 to hit wounds at once: 1/6 + (2/6)(2/3)
    charged = resolve(scenario(att_rules=rules, charging=True), Build(out)).wounds.mean()
    assert charged == F(1, 6) + F(2, 6) * F(2, 3)
    # not charging: nothing from the bracket
    assert resolve(scenario(att_rules=rules), Build(out)).wounds.mean() == F(1, 4)
    # the example in the rule ("+3 Strength, Hatred") is no effect of it
    dc = rule(out, "devastating-charge")
    assert [e["op"] for e in dc["effects"]] == ["bracket"]


def test_hatred_first_round_only(out: Path) -> None:
    hits = resolve(scenario(att_rules=["hatred"], conditions=["first-round"]), Build(out)).hits
    assert hits.mean() == F(1, 2) + F(1, 2) * F(1, 2)
    assert resolve(scenario(att_rules=["hatred"]), Build(out)).hits.mean() == F(1, 2)


def test_distracting_hinders_the_attacks_against_it_not_its_own(out: Path) -> None:
    against = resolve(scenario(def_rules=["distracting"]), Build(out)).hits.mean()
    assert against == F(2, 6)  # 4+ with -1: 5 and 6 hit
    own = resolve(scenario(att_rules=["distracting"]), Build(out)).hits.mean()
    assert own == F(1, 2)


def test_multiple_wounds_takes_its_bracket_not_the_example(out: Path) -> None:
    mw = rule(out, "multiple-wounds")
    assert [e.get("amount") for e in mw["effects"] if e["op"] == "multiple-wounds"] == ["X"]
    res = resolve(
        scenario(att_rules=["multiple-wounds(D3)"], defender={"health_points": 3}), Build(out)
    )
    # one unsaved wound (1/4) worth D3: casualties need 3 wounds on one model, P = 1/4 * 1/3
    assert res.casualties.mean() == F(1, 4) * F(1, 3)


def test_divine_attacks_reroll_aegis(out: Path) -> None:
    # Aegis 4+ saves 1/2; rerolled successes save 1/4
    assert unsaved(out, def_rules=["aegis(4+)"]) == F(1, 4) * F(1, 2)
    assert unsaved(out, att_rules=["divine-attacks"], def_rules=["aegis(4+)"]) == F(1, 4) * F(3, 4)


def test_toxic_and_flaming_attacks(out: Path) -> None:
    # Toxic: Strength 3 and AP 10 whatever the model's: S 3 vs R 3 (4+), Armour 4 gives no save
    p = unsaved(out, att_rules=["toxic-attacks"], attacker={"strength": 6}, defender={"armour": 4})
    assert p == F(1, 2) * F(1, 2)
    # Flaming ignores Fortitude; rerolls failed wounds against Flammable: 1/2 + 1/4
    assert unsaved(out, att_rules=["flaming-attacks"], def_rules=["fortitude(4+)"]) == F(1, 4)
    p = unsaved(out, att_rules=["flaming-attacks"], def_rules=["flammable"])
    assert p == F(1, 2) * F(3, 4)


def test_impact_hits_only_when_charging(out: Path) -> None:
    # Impact Hits (2): two automatic hits at S 3 (4+ to wound) before the attack, charging only
    charged = resolve(scenario(att_rules=["impact-hits(2)"], charging=True), Build(out))
    assert charged.hits.mean() == 2 + F(1, 2)
    assert charged.wounds.mean() == 2 * F(1, 2) + F(1, 4)
    still = resolve(scenario(att_rules=["impact-hits(2)"]), Build(out))
    assert still.hits.mean() == F(1, 2)


def test_shooting_only_and_special_attack_rules_leave_melee_alone(out: Path) -> None:
    # Hard Target hinders Shooting Attacks: no effect on a close combat attack
    assert resolve(scenario(def_rules=["hard-target"]), Build(out)).hits.mean() == F(1, 2)
    effects = rule(out, "hard-target")["effects"]
    assert [e.get("when") for e in effects] == ["shooting"]
    # the Multiple Wounds of Crush Attack's one special attack is no Multiple Wounds of the model
    assert not [e for e in rule(out, "crush-attack")["effects"] if e["op"] == "multiple-wounds"]


def test_unknown_rule_in_a_scenario_names_the_closest(out: Path) -> None:
    with pytest.raises(InputError, match="did you mean: great-weapon"):
        resolve(scenario(att_rules=["great-weapn"]), Build(out))


def test_a_grant_of_no_rule_is_flagged_and_never_breaks_attack(tmp_path: Path) -> None:
    drop = tmp_path / "corpus" / "drops" / "gst"
    drop.mkdir(parents=True)
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "Two-Handed</characteristic>", "Two-Handed, Unheard Of</characteristic>"
    )
    (drop / "combat.gst").write_text(text, encoding="utf-8")
    build(tmp_path / "corpus", tmp_path / "out")
    halberd = rule(tmp_path / "out", "halberd")
    [flag] = [f for f in halberd["flags"] if f["flag"] == "unresolved-reference"]
    a, b = flag["spans"][0]
    assert halberd["texts"]["en"]["text"][a:b] == "Unheard Of"
    p = unsaved(tmp_path / "out", att_rules=["halberd"])
    assert p == F(1, 2) * F(2, 3)  # S 4 vs R 3: 3+; the unknown grant does nothing


def test_battle_focus_a_natural_six_hits_twice(out: Path) -> None:
    bf = rule(out, "battle-focus")
    assert [(e["op"], e["effect"]) for e in bf["effects"]] == [("on-natural", "extra-hit")]
    res = resolve(scenario(att_rules=["battle-focus"]), Build(out))
    # to hit 4+: a 4 or 5 is one hit (2/6), a 6 two hits (1/6)
    assert res.hits.items() == [(0, F(1, 2)), (1, F(1, 3)), (2, F(1, 6))]
    # every hit wounds on 4+ on its own: P(2 wounds) = 1/6 * 1/4
    assert res.wounds.mean() == (F(2, 6) + 2 * F(1, 6)) * F(1, 2)
    assert dict(res.wounds.items())[2] == F(1, 6) * F(1, 4)
    # two Health Points: only a 6 to hit with both its hits wounding removes the model
    res = resolve(scenario(att_rules=["battle-focus"], defender={"health_points": 2}), Build(out))
    assert res.casualties.mean() == F(1, 6) * F(1, 2) * F(1, 2)
    # with Poison Attacks the natural 6 wounds at once; its extra hit rolls to wound (4+)
    both = resolve(scenario(att_rules=["battle-focus", "poison-attacks"]), Build(out))
    assert both.wounds.mean() == F(2, 6) * F(1, 2) + F(1, 6) * (1 + F(1, 2))


def shot(out: Path, att_rules=(), def_rules=(), conditions=(), aim: int = 4, what="hits"):  # type: ignore[no-untyped-def]
    """The mean hits (or `what`) of one shot at Aim `aim` (4 means 4+)."""
    data = {
        "mode": "shooting",
        "attacker": {
            "models": 1,
            "attacks": 1,
            "aim": aim,
            "strength": 3,
            "armour_penetration": 0,
            "rules": list(att_rules),
        },
        "defender": {"resilience": 3, "health_points": 1, "armour": 0, "rules": list(def_rules)},
        "conditions": list(conditions),
    }
    return getattr(resolve(scenario_from_dict(data, "test"), Build(out)), what).mean()


def test_shooting_hits_by_aim_with_the_situations_modifiers(out: Path) -> None:
    assert shot(out) == F(1, 2)  # Aim 4+, no Offensive or Defensive Skill in play
    assert shot(out, aim=3) == F(2, 3)
    assert shot(out, conditions=["long-range"]) == F(1, 3)  # -1: 5+
    assert shot(out, conditions=["long-range", "moving-and-shooting"]) == F(1, 6)  # 6+
    assert shot(out, conditions=["stand-and-shoot"]) == F(1, 3)
    assert shot(out, conditions=["soft-cover"]) == F(1, 3)
    assert shot(out, conditions=["hard-cover"]) == F(1, 6)  # -2: 6+
    # 8+: a 6, then 5+ on a second roll
    assert shot(out, conditions=["hard-cover", "long-range", "moving-and-shooting"]) == F(1, 6) * F(
        1, 3
    )
    # Hard Target holds against shots: -1
    assert shot(out, def_rules=["hard-target"]) == F(1, 3)
    # 9+: a 6 then a 6; 10+ cannot hit
    four = ["hard-cover", "long-range", "moving-and-shooting"]
    assert shot(out, def_rules=["hard-target"], conditions=four) == F(1, 36)
    assert shot(out, def_rules=["hard-target"], conditions=[*four, "stand-and-shoot"]) == 0


def test_accurate_and_quick_to_fire_drop_their_own_modifier_only(out: Path) -> None:
    assert shot(out, att_rules=["accurate"], conditions=["long-range"]) == F(1, 2)
    both = ["long-range", "moving-and-shooting"]
    assert shot(out, att_rules=["accurate"], conditions=both) == F(1, 3)
    assert shot(out, att_rules=["quick-to-fire"], conditions=both) == F(1, 3)
    assert shot(out, att_rules=["accurate", "quick-to-fire"], conditions=both) == F(1, 2)
    assert shot(out, att_rules=["quick-to-fire"], conditions=["hard-cover"]) == F(1, 6)


def test_close_combat_rules_leave_shooting_alone(out: Path) -> None:
    # Lightning Reflexes and Distracting speak of Close Combat Attacks
    assert shot(out, att_rules=["lightning-reflexes"]) == F(1, 2)
    assert shot(out, def_rules=["distracting"]) == F(1, 2)


def test_aegis_against_only_what_its_bracket_names(out: Path) -> None:
    flaming = ["aegis(4+, against Flaming Attacks)"]
    # hit 1/2, wound 1/2, no armour; the Aegis 4+ saves half, only against Flaming Attacks
    assert unsaved(out, def_rules=flaming) == F(1, 4)
    assert unsaved(out, att_rules=["flaming-attacks"], def_rules=flaming) == F(1, 4) * F(1, 2)
    shooting = ["aegis(4+, against Shooting Attacks)"]
    assert unsaved(out, def_rules=shooting) == F(1, 4)
    assert shot(out, def_rules=shooting, what="unsaved_wounds") == F(1, 4) * F(1, 2)
    assert shot(out, def_rules=["aegis(4+)"], what="unsaved_wounds") == F(1, 4) * F(1, 2)


def test_fortitude_not_against_lethal_strike_sixes_or_flaming_attacks(out: Path) -> None:
    fort = rule(out, "fortitude")
    assert [e["op"] for e in fort["effects"]] == ["special-save"]
    # Fortitude 4+ against Flaming Attacks: no save at all, counted once
    assert unsaved(out, att_rules=["flaming-attacks"], def_rules=["fortitude(4+)"]) == F(1, 4)
    # against Lethal Strike: the natural 6 to wound (1/3 of the wounds) is never saved
    p = unsaved(out, att_rules=["lethal-strike"], def_rules=["fortitude(4+)"])
    assert p == F(1, 2) * (F(1, 6) + F(2, 6) * F(1, 2))
    # an Aegis is still taken against the Lethal Strike six
    p = unsaved(out, att_rules=["lethal-strike"], def_rules=["aegis(4+)"])
    assert p == F(1, 4) * F(1, 2)


# --- special attacks and shooting: tests/data/battlescribe/attacks.gst ----------------------
#
# Shooting base: one model, one shot at Aim 4+ (1/2), Strength 3 against Resilience 3 (4+,
# 1/2), no armour, 1 Health Point, unless a test says otherwise.

ATTACKS = Path(__file__).parent / "data" / "battlescribe" / "attacks.gst"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("attacks"), ATTACKS.name)


def fire(
    out: Path,
    rules: list[str],
    defender: dict[str, Any] | None = None,
    conditions: list[str] = (),  # type: ignore[assignment]
    def_rules: list[str] = (),  # type: ignore[assignment]
    mode: str = "shooting",
    attacker: dict[str, Any] | None = None,
) -> Any:
    if mode == "shooting":
        att = {"models": 1, "attacks": 1, "aim": 4, "strength": 3, "armour_penetration": 0}
        dfd = {"resilience": 3, "health_points": 1, "armour": 0}
    else:
        att = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 3,
               "armour_penetration": 0, "agility": 3}  # fmt: skip
        dfd = {"defensive_skill": 4, "resilience": 3, "health_points": 1, "armour": 0}
    data = {
        "mode": mode,
        "attacker": att | (attacker or {}) | {"rules": rules},
        "defender": dfd | (defender or {}) | {"rules": list(def_rules)},
        "conditions": list(conditions),
    }
    return resolve(scenario_from_dict(data, "test"), Build(out))


def test_area_attack_hits_a_rank_each_and_one_hit_takes_the_brackets(built: Path) -> None:
    st = rule(built, "stone-thrower")
    text = st["texts"]["en"]["text"]
    bracket = [e for e in st["effects"] if e.get("applies_to") == "bracket-hit"]
    assert {(e["op"], e.get("characteristic"), e.get("to", e.get("amount"))) for e in bracket} == {
        ("modify", "strength", 6),
        ("modify", "armour_penetration", 3),
        ("multiple-wounds", None, "D3"),
    }
    assert text[slice(*bracket[-1]["span"])] == "Multiple Wounds (D3)"
    # 20 models, 5 a rank: Area Attack (1×3) takes 3 of the 4 ranks, 1 hit each
    twenty = {"models": 20, "files": 5, "armour": 3}
    res = fire(built, ["stone-thrower"], twenty)
    assert res.hits.mean() == F(1, 2) * 3
    # one hit at S 6 (2+) and AP 3 (Armour 3: no save); two at S 3 (4+) and AP 0 (save 4+)
    assert res.wounds.mean() == F(1, 2) * (F(5, 6) + 2 * F(1, 2))
    assert res.unsaved_wounds.mean() == F(1, 2) * (F(5, 6) + 2 * F(1, 2) * F(1, 2))
    # a unit of one: the one hit is the bracketed one, its D3 Multiple Wounds against
    # 2 Health Points removes the model on a 2 or 3 (2/3)
    one = fire(built, ["stone-thrower"], {"models": 1, "files": 1, "health_points": 2})
    assert one.hits.mean() == F(1, 2)
    assert one.casualties.mean() == F(1, 2) * F(5, 6) * F(2, 3)


def test_area_attack_ranks_files_and_caps(built: Path) -> None:
    def hits(rules: list[str], defender: dict[str, Any], conditions: list[str] = ()) -> Any:  # type: ignore[assignment]
        return fire(built, rules, defender, conditions).hits.mean() / F(1, 2)

    # 8 models 4 wide: 2 ranks from the front (2 hits), 4 files of 2 from a flank (3 of them)
    assert hits(["stone-thrower"], {"models": 8, "files": 4}) == 2
    assert hits(["stone-thrower"], {"models": 8, "files": 4}, ["flank-facing"]) == 3
    # (3×2): 3 hits in each of 2 lines, never more than a line's models
    assert hits(["area-attack(3×2)"], {"models": 5, "files": 5}) == 3  # one rank of 5
    assert hits(["area-attack(3×2)"], {"models": 5, "files": 5}, ["flank-facing"]) == 2
    assert hits(["area-attack(3×2)"], {"models": 10, "files": 5}) == 6
    # no formation given: every line full; never more hits than the unit's models
    assert hits(["area-attack(3×2)"], {}) == 6
    assert hits(["area-attack(3×2)"], {"models": 4}) == 4


def test_penetrating_hits_every_rank_up_to_five(built: Path) -> None:
    pen = rule(built, "penetrating")
    assert [(e["op"], e["lines"], e["max_lines"]) for e in pen["effects"]] == [
        ("multiply-hits", "all", 5)
    ]
    # 12 models 5 wide: 3 ranks, 3 hits; the bracketed one S 7 with Flaming Attacks
    target = {"models": 12, "files": 5, "armour": 2}
    res = fire(built, ["bolt-thrower"], target, def_rules=["fortitude(4+)"])
    assert res.hits.mean() == F(1, 2) * 3
    # bracket hit: S 7 (2+), AP 1 vs Armour 2 (6+), Fortitude ignored by Flaming Attacks;
    # the others: S 4 (3+), 6+ save, Fortitude 4+
    bracket_hit = F(5, 6) * F(5, 6)
    plain = F(2, 3) * F(5, 6) * F(1, 2)
    assert res.unsaved_wounds.mean() == F(1, 2) * (bracket_hit + 2 * plain)
    # from a flank: 5 files; 40 models 5 wide are 8 ranks, but never more than 5
    assert fire(built, ["bolt-thrower"], target, ["flank-facing"]).hits.mean() == F(5, 2)
    assert fire(built, ["bolt-thrower"], {"models": 40, "files": 5}).hits.mean() == F(5, 2)
    # one rank: one hit, and that one is the bracketed hit
    single = fire(built, ["bolt-thrower"], {"models": 4, "files": 4, "armour": 2})
    assert single.unsaved_wounds.mean() == F(1, 2) * bracket_hit
    with pytest.raises(InputError, match="ranks"):
        fire(built, ["bolt-thrower"])


def test_breath_attack_takes_its_brackets(built: Path) -> None:
    breath = rule(built, "breath-attack")
    [hits] = breath["effects"]  # the example "(Str 2, AP 0, Hatred)" is no effect of it
    assert (hits["count"], hits["strength"], hits["attributes"]) == ("2D6", "bracket", "bracket")
    target = {"armour": 3}
    # 2D6 hits (7 on average) at S 5 (2+), AP 2 against Armour 3 (6+ save), no attacks of its own
    flaming = ["breath-attack(Str 5, AP 2, Flaming Attacks)"]
    res = fire(built, flaming, target, def_rules=["fortitude(4+)"], attacker={"attacks": 0})
    assert res.hits.mean() == 7
    assert res.unsaved_wounds.mean() == 7 * F(5, 6) * F(5, 6)
    # without Flaming Attacks in the bracket, Fortitude 4+ saves half
    plain = ["breath-attack(Strength 5, Armour Penetration 2)"]
    res = fire(built, plain, target, def_rules=["fortitude(4+)"], attacker={"attacks": 0})
    assert res.unsaved_wounds.mean() == 7 * F(5, 6) * F(5, 6) * F(1, 2)
    # a bracket of four items reads as well; two models roll their hits apiece
    four = ["breath-attack(Str 5, AP 2, Flaming Attacks, Magical Attacks)"]
    res = fire(built, four, target, attacker={"attacks": 0, "models": 2})
    assert res.hits.mean() == 14
    # in combat, at the model's Agility, beside its attacks
    res = fire(built, flaming, mode="melee", attacker={"agility": 5})
    breath_src = next(s for s in res.sources if s.name == "breath-attack")
    assert breath_src.profile["step"] == 5
    assert res.hits.mean() == 7 + F(1, 2)


def test_weapon_master_fights_with_the_better_weapon(built: Path) -> None:
    rules = ["weapon-master", "great-weapon", "paired-weapons"]

    def chosen(res: Any) -> str:
        return next(s for s in res.sources if s.name == "attacks").profile["weapon"]

    # against R 3, A 0: Great Weapon 1/2 * 5/6 = 5/12; Paired Weapons 2 * 2/3 * 1/2 = 2/3
    res = fire(built, rules, mode="melee")
    assert (chosen(res), res.casualties.mean()) == ("paired-weapons", F(2, 3))
    # against R 5, A 4: Great Weapon 1/2 * 1/2 * 2/3 = 1/6; Paired 2 * 2/3 * 1/6 * 1/3 = 2/27
    res = fire(built, rules, {"resilience": 5, "armour": 4}, mode="melee")
    assert (chosen(res), res.casualties.mean()) == ("great-weapon", F(1, 6))
    # the Hand Weapon is one of the choices: against Defensive Skill 8 a Heavy Flail (OS 0,
    # 6+ to hit, S 5: 1/6 * 5/6 = 5/36) does worse than the hand (5+, S 3: 1/3 * 1/2 = 1/6)
    flail = ["weapon-master", "heavy-flail"]
    res = fire(built, flail, {"defensive_skill": 8}, mode="melee")
    assert (chosen(res), res.casualties.mean()) == ("hand-weapon", F(1, 6))
    res = fire(built, ["heavy-flail"], {"defensive_skill": 8}, mode="melee")
    assert res.casualties.mean() == F(5, 36)
    res = fire(built, flail, {"defensive_skill": 8}, ["enchanted-weapon"], mode="melee")
    assert res.casualties.mean() == F(5, 36)
    wm = rule(built, "weapon-master")["effects"]
    assert [(e["op"], e.get("hand_weapon")) for e in wm] == [("choose-weapon", True)]
    # an enchanted weapon must still be used: no choice; nor when shooting
    res = fire(built, rules, conditions=["enchanted-weapon"], mode="melee")
    assert "weapon" not in next(s for s in res.sources if s.name == "attacks").profile
    res = fire(built, rules, mode="shooting")
    assert "weapon" not in next(s for s in res.sources if s.name == "attacks").profile


def test_shooting_modifiers_unwieldy_volley_fire_and_hard_target(built: Path) -> None:
    def hits(rules: list[str], conditions: list[str] = (), def_rules: list[str] = ()) -> Any:  # type: ignore[assignment]
        return fire(built, rules, conditions=conditions, def_rules=def_rules).hits.mean()

    moving = ["moving-and-shooting"]
    # Unwieldy: a further -1 when moving (6+), none when not; Quick to Fire drops only the
    # normal -1 (5+)
    assert hits(["unwieldy"]) == F(1, 2)
    assert hits(["unwieldy"], moving) == F(1, 6)
    assert hits(["unwieldy", "quick-to-fire"], moving) == F(1, 3)
    assert hits(["quick-to-fire"], moving) == F(1, 2)
    # Volley Fire ignores the Cover of intervening models, not other Cover
    assert hits([], ["soft-cover"]) == F(1, 3)
    assert hits(["volley-fire"], ["soft-cover"]) == F(1, 3)
    assert hits(["volley-fire"], ["soft-cover", "intervening-models"]) == F(1, 2)
    assert hits(["volley-fire"], ["hard-cover", "intervening-models"]) == F(1, 2)
    assert hits([], ["hard-cover", "intervening-models"]) == F(1, 6)
    # Hard Target, worded as in the 1.3 rules: -1 per instance, shooting only
    assert hits([], def_rules=["hard-target"]) == F(1, 3)
    assert hits([], def_rules=["hard-target", "hard-target"]) == F(1, 6)
    melee = fire(built, [], def_rules=["hard-target"], mode="melee")
    assert melee.hits.mean() == F(1, 2)
    # Accurate, worded "for Shooting at Long Range"
    assert hits(["accurate"], ["long-range"]) == F(1, 2)
    assert hits([], ["long-range"]) == F(1, 3)


def test_a_combat_gives_area_attack_the_target_formation_from_its_width(built: Path) -> None:
    from pipeline.interpret.combat import combat_from_dict, mean, resolve_combat

    b = Build(built)
    att = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 3,
           "armour_penetration": 0, "agility": 3, "defensive_skill": 3, "resilience": 3,
           "health_points": 1, "armour": 0, "rules": ["area-attack(3×2)"]}  # fmt: skip
    target = {"models": 10, "attacks": 0, "defensive_skill": 4, "resilience": 3,
              "health_points": 1, "armour": 0, "offensive_skill": 1, "strength": 1,
              "armour_penetration": 0, "agility": 1}  # fmt: skip
    # 10 models 5 wide are two ranks: 3 hits in each (6), 1/2 to hit and 1/2 to wound: 3/2;
    # 10 wide they are one rank: 3 hits, 3/4
    for width, expected in ((5, F(3, 2)), (10, F(3, 4))):
        combat = combat_from_dict(
            {"attacker": att, "defender": target | {"width": width}, "rounds": 1}, b, "test"
        )
        [res] = resolve_combat(combat, b)
        assert mean(res.defender_casualties) == expected
    one_way = fire(built, ["area-attack(3×2)"], {"models": 10, "files": 5}, mode="melee")
    assert one_way.casualties.mean() == F(3, 2)
