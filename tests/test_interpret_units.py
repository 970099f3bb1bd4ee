"""Combats of units named from an army book: tests/data/battlescribe/arena.cat (written for
these tests, with the rules of combat.gst). Every expected number is worked by hand below.

The arena's units, one Health Point each, Defensive Skill 3, Resilience 3, Armour 0 unless
said: Halberdiers (Off 3, Str 3, Agi 3; a choice of Halberd or Great Weapon, and a Shield),
Boar Riders (rider Str 3 Agi 3, boar Str 4 Agi 4, one attack each), Wisps (Distracting),
Practice Dummies (Agi 2), Pikemen (Fight in Extra Rank), Brutes (Large, 3 HP, Res 4, 3 attacks).
Offensive 3 against Defensive 3 hits on 4+ (1/2); Str 3 against Res 3 wounds on 4+ (1/2).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.interpret.combat import mean
from pipeline.interpret.rules import Build
from pipeline.interpret.unread import unread

from .conftest import run_cli
from .helpers.battlescribe import build_fixtures, fight

DATA = Path(__file__).parent / "data" / "battlescribe"
F = Fraction


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("arena"), "combat.gst", "arena.cat")


# a defender that cannot strike back: what the attacker does, alone
DUMMIES = {"unit": "Practice Dummies", "models": 10, "attacks": 0}


def test_a_unit_with_a_choice_of_weapons(out: Path) -> None:
    # 5 Halberdiers in one rank, one attack each.
    # Halberd: Str 4 against Res 3 wounds on 3+ (2/3): 5 x 1/2 x 2/3 = 5/3 dummies.
    # Great Weapon: Str 5 wounds on 2+ (5/6): 5 x 1/2 x 5/6 = 25/12, at Initiative Step 0.
    for weapon, expected in (("halberd", F(5, 3)), ("great weapon", F(25, 12))):
        att = {"unit": "Halberdiers", "models": 5, "weapon": weapon}
        _, [r] = fight(out, att, DUMMIES)
        assert mean(r.defender_casualties) == expected
        assert mean(r.attacker_casualties) == 0
    _, [r] = fight(out, {"unit": "halberdiers", "models": 5, "weapon": "great-weapon"}, DUMMIES)
    [strike] = [s for s in r.steps if s["side"] == "attacker"]
    assert strike["step"] == 0 and strike["strength"] == 5 and strike["armour_penetration"] == 2


def test_the_shield_counts_in_defence_unless_a_two_handed_weapon_is_wielded(out: Path) -> None:
    # 5 Boar Riders charge 10 Halberdiers (who do not strike back: attacks 0).
    # With a Shield the Halberdiers have Armour 1: a 6+ save. Rider: 1/2 x 1/2 x 5/6 = 5/24
    # each; boar (Str 4, wounds on 3+): 1/2 x 2/3 x 5/6 = 5/18 each; 5 x (5/24 + 5/18) = 175/72.
    att = {"unit": "Boar Riders", "models": 5}
    shield = {"unit": "Halberdiers", "models": 10, "options": ["shield"], "attacks": 0}
    _, [r] = fight(out, att, shield)
    assert mean(r.defender_casualties) == F(175, 72)
    # a halberd is Two-Handed: no Shield against melee, no save: 5 x (1/4 + 1/3) = 35/12
    _, [r] = fight(out, att, {**shield, "weapon": "halberd"})
    assert mean(r.defender_casualties) == F(35, 12)


def test_a_rider_and_its_mount_strike_each_with_their_own(out: Path) -> None:
    # One Boar Rider: the rider (Str 3, Agi 3) kills 1/2 x 1/2 = 1/4, the boar (Str 4, Agi 4)
    # 1/2 x 2/3 = 1/3: 7/12 in all, the boar at step 4 and the rider at step 3.
    combat, [r] = fight(out, {"unit": "Boar Riders", "models": 1}, DUMMIES)
    assert [p.role for p in combat.attacker.parts] == ["rider", "mount"]
    assert mean(r.defender_casualties) == F(7, 12)
    steps = {s["part"]: s["step"] for s in r.steps if s["side"] == "attacker"}
    assert steps == {"Rider": 3, "Boar": 4}


def test_a_rule_that_changes_the_other_sides_rolls(out: Path) -> None:
    # Distracting: -1 to hit the Wisps: 5+ (1/3). 5 halberds: 5 x 1/3 x 2/3 = 10/9.
    wisps = {"unit": "Wisps", "models": 10, "attacks": 0}
    _, [r] = fight(out, {"unit": "Halberdiers", "models": 5, "weapon": "halberd"}, wisps)
    assert mean(r.defender_casualties) == F(10, 9)


def test_the_defender_strikes_back_with_its_survivors(out: Path) -> None:
    # 2 Halberdiers (Agi 3) against 2 Practice Dummies (Agi 2), one rank each: the
    # halberdiers strike first and kill K ~ Binomial(2, 1/4); the 2 - K dummies left strike
    # back, each killing 1/4. E[attacker casualties] = (2 - 1/2) x 1/4 = 3/8;
    # P(no halberdier lost) = 9/16 x 9/16 + 6/16 x 3/4 + 1/16 = 169/256.
    att = {"unit": "Halberdiers", "models": 2}
    dfd = {"unit": "Practice Dummies", "models": 2}
    _, [r] = fight(out, att, dfd)
    assert mean(r.defender_casualties) == F(1, 2)
    assert mean(r.attacker_casualties) == F(3, 8)
    assert r.attacker_casualties[0] == F(169, 256)
    # combat score: each side scores the wounds it caused (no charge, ranks or standard):
    # the attacker wins when it killed more. P(K = 2) x 1 + P(K = 1) x P(0 of 1 back)
    # = 1/16 + 6/16 x 3/4 = 22/64 = 11/32
    assert r.p_win() == F(11, 32)
    # at the same Initiative Step both strike with all their models: 2 x 1/4 each
    _, [r] = fight(out, att, {**dfd, "agility": 3})
    assert mean(r.attacker_casualties) == F(1, 2) == mean(r.defender_casualties)


def test_supporting_attacks_ranks_and_combat_score(out: Path) -> None:
    # 10 Halberdiers 5 wide: 5 front-rank attacks and 5 Supporting Attacks; 15 Pikemen 5 wide
    # with Fight in Extra Rank: 5 + 10. Each attack kills 1/4 (no weapon, Str 3); 30 dummies
    # are more than any of these can kill.
    MANY = {**DUMMIES, "models": 30}
    _, [r] = fight(out, {"unit": "Halberdiers", "models": 10}, MANY)
    assert mean(r.defender_casualties) == F(10, 4)
    _, [r] = fight(out, {"unit": "Pikemen", "models": 15, "width": 5}, MANY)
    assert mean(r.defender_casualties) == F(15, 4)
    _, [r] = fight(out, {"unit": "Halberdiers", "models": 15, "width": 5}, MANY)
    assert mean(r.defender_casualties) == F(10, 4)
    # Brutes (Large: up to 3 Supporting Attacks of their 3): 2 wide, 4 models: 6 + 6 attacks,
    # Str 4 on Res 3 (3+): 12 x 1/2 x 2/3 = 4 dummies
    _, [r] = fight(out, {"unit": "Brutes", "models": 4, "width": 2}, MANY)
    assert mean(r.defender_casualties) == 4


def test_combat_score_counts_charge_ranks_and_standard(out: Path) -> None:
    # 1 charging Halberdier that makes no attacks (attacks: 0) against
    # 10 Dummies 5 wide who cannot strike: the attacker scores +1 charge, the defender +1 for
    # its one Full Rank behind the first: a draw, always. A Standard tips it.
    att = {"unit": "Halberdiers", "models": 1, "attacks": 0, "charging": True}
    _, [r] = fight(out, att, DUMMIES)
    assert r.score_difference == {0: F(1)}
    _, [r] = fight(out, {**att, "standard": True}, DUMMIES)
    assert r.score_difference == {1: F(1)}


def test_rounds_follow_the_casualties(out: Path) -> None:
    # 1 Halberdier (halberd) against 1 Dummy that cannot strike: round 1 kills with 1/3;
    # round 2 only if the dummy still stands: P(dead after 2) = 1 - (2/3)^2 = 5/9
    att = {"unit": "Halberdiers", "models": 1, "weapon": "halberd"}
    _, rounds = fight(out, att, {**DUMMIES, "models": 1}, rounds=2)
    assert [r.defender_casualties.get(1) for r in rounds] == [F(1, 3), F(5, 9)]


def test_unknown_unit_or_option_names_the_closest(out: Path) -> None:
    with pytest.raises(InputError, match="did you mean: halberdiers"):
        fight(out, {"unit": "Halberdeers"}, DUMMIES)
    with pytest.raises(InputError, match="did you mean: great-weapon"):
        fight(out, {"unit": "Halberdiers", "weapon": "great weapn"}, DUMMIES)
    scenario = out.parent / "bad.yaml"
    scenario.write_text("attacker: {unit: Wisp}\ndefender: {unit: Dummies}\n", "utf-8")
    done = run_cli("attack", str(scenario), "--build", str(out))
    assert done.returncode == 2
    assert "no unit 'Wisp'" in done.stderr and "wisps" in done.stderr


def test_attack_command_prints_both_sides_and_exact_json(out: Path) -> None:
    scenario = out.parent / "duel.yaml"
    scenario.write_text(
        "attacker: {unit: Halberdiers, models: 2}\ndefender: {unit: Practice Dummies, models: 2}\n",
        "utf-8",
    )
    done = run_cli("attack", str(scenario), "--build", str(out), "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    [r] = doc["rounds"]
    assert r["attacker_casualties"]["mean"] == "3/8" and r["p_win"] == "11/32"
    done = run_cli("attack", str(scenario), "--build", str(out), "--rounds", "2")
    assert done.returncode == 0, done.stderr
    assert "round 2" in done.stdout and "Practice Dummies" in done.stdout


# --- a seeded simulation of whole rounds agrees with the exact result -------------------------


def _simulate(rng: random.Random) -> tuple[int, int]:
    """One round, dice rolled: 8 Halberdiers with halberds (Agi 3), 4 wide, charge 8 Brutes
    (3 HP, Res 4, 3 attacks, Large, Agi 2), 4 wide. Returns (halberdiers lost, brutes lost)."""

    def d6() -> int:
        return rng.randint(1, 6)

    def attacks(alive: int, width: int, value: int, cap: int) -> int:
        front = min(alive, width)
        return front * value + min(max(alive - width, 0), width) * min(value, cap)

    # halberdiers: Str 4 vs Res 4 -> 4+; hit 4+; no armour: each unsaved wound is 1 HP
    brutes_lost, damage = 0, 0
    for _ in range(attacks(8, 4, 1, 1)):
        if d6() >= 4 and d6() >= 4:
            damage += 1
            if damage == 3:
                brutes_lost, damage = brutes_lost + 1, 0
    # brutes strike back with survivors: Str 4 vs Res 3 -> 3+; hit 4+
    lost = 0
    for _ in range(attacks(8 - brutes_lost, 4, 3, 3)):
        if d6() >= 4 and d6() >= 3:
            lost += 1
    return min(lost, 8), brutes_lost


def test_simulation_agrees_with_the_exact_round(out: Path) -> None:
    att = {"unit": "Halberdiers", "models": 8, "width": 4, "weapon": "halberd", "charging": True}
    dfd = {"unit": "Brutes", "models": 8, "width": 4}
    _, [r] = fight(out, att, dfd)
    rng = random.Random(1234)
    n = 20000
    games = [_simulate(rng) for _ in range(n)]
    for k, dist in ((0, r.attacker_casualties), (1, r.defender_casualties)):
        exact = float(mean(dist))
        values = [g[k] for g in games]
        avg = sum(values) / n
        sd = (sum((v - avg) ** 2 for v in values) / (n - 1)) ** 0.5
        assert abs(avg - exact) < 4 * sd / n**0.5, (k, avg, exact)


@pytest.fixture(scope="module")
def green(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The arena with greenskins.cat: units whose profile or equipment is a choice."""
    return build_fixtures(
        tmp_path_factory.mktemp("green"), "combat.gst", "arena.cat", "greenskins.cat"
    )


def test_a_unit_whose_defensive_profile_is_a_race_choice(green: Path) -> None:
    # Brawlers state no Defensive profile of their own: their race gives it. The default
    # Tough Brawler has Res 4: 5 halberds (Str 4) hit on 4+ (1/2) and wound on 4+ (1/2):
    # 5 x 1/2 x 1/2 = 5/4.
    halberds = {"unit": "Halberdiers", "models": 5, "weapon": "halberd"}
    brawlers = {"unit": "Brawlers", "models": 10, "attacks": 0}
    _, [r] = fight(green, halberds, brawlers)
    assert mean(r.defender_casualties) == F(5, 4)
    # Wild Brawlers: Res 3 (wounds on 3+, 2/3) and Distracting (-1 to hit: 5+, 1/3):
    # 5 x 1/3 x 2/3 = 10/9.
    _, [r] = fight(green, halberds, {**brawlers, "options": ["Wild Brawler"]})
    assert mean(r.defender_casualties) == F(10, 9)
    # the Wild race's Hatred rerolls failed to-hit rolls: 1/2 + 1/2 x 1/2 = 3/4 to hit;
    # Str 3 against the dummies' Res 3 wounds on 4+: 5 x 3/4 x 1/2 = 15/8 (Tough: 5/4)
    wild = {"unit": "Brawlers", "models": 5, "options": ["wild-brawler"]}
    _, [r] = fight(green, wild, DUMMIES)
    assert mean(r.defender_casualties) == F(15, 8)
    _, [r] = fight(green, {"unit": "Brawlers", "models": 5}, DUMMIES)
    assert mean(r.defender_casualties) == F(5, 4)
    with pytest.raises(InputError, match="exclude each other"):
        fight(green, {**wild, "options": ["Wild Brawler", "Tough Brawler"]}, DUMMIES)


def test_multiple_wounds_with_a_rule_after_its_value(green: Path) -> None:
    # The Gnawing Ram's Multiple Wounds (D3, Clipped Wings): X is D3; Clipped Wings only
    # changes wounds on models with Fly. One Rammer (Str 3) against one Brute (Res 4, 3 HP):
    # hits on 4+ (1/2), wounds on 5+ (1/3), no armour; the Brute falls only when the D3
    # rolls 3: 1/2 x 1/3 x 1/3 = 1/18.
    brute = {"unit": "Brutes", "models": 1, "attacks": 0}
    _, [r] = fight(green, {"unit": "Rammers", "models": 1}, brute)
    assert mean(r.defender_casualties) == F(1, 18)
    # the same bracket on a rule of the model, Gnashing Bite (D3, Clipped Wings), X bound to
    # D3: one Gnawer (its Chomping left out), the same 1/18
    _, [r] = fight(green, {"unit": "Gnawers", "models": 1}, brute)
    assert mean(r.defender_casualties) == F(1, 18)


def test_a_rule_whose_value_no_bracket_gives_is_reported_not_fatal(green: Path) -> None:
    # Chomping grants Impact Hits but states no (X): the charging Gnawers fight without it
    # and say why. 5 Gnawers, one attack each: 5 x 1/2 x 1/2 = 5/4 dummies.
    combat, [r] = fight(green, {"unit": "Gnawers", "models": 5, "charging": True}, DUMMIES)
    assert mean(r.defender_casualties) == F(5, 4)
    [note] = combat.attacker.unresolved
    assert note.startswith("Chomping: Impact Hits: X is not given")
    # its second sentence (whose subject no part reads) is listed as not read
    found = unread(Build(green), ["chomping"])
    assert [f["text"] for f in found] == [
        "A charging unit of Gnawers causes D3 hits for each 5 Gnawers in the unit, rounding up"
    ]


def test_a_combined_or_plural_option_is_its_rules(green: Path) -> None:
    # 5 Brawlers (Str 3) against the dummies (Res 3), hitting on 4+ (1/2):
    # Halberd and Shield: Str 4 wounds on 3+: 5 x 1/2 x 2/3 = 5/3;
    # Great Weapons: Str 5 wounds on 2+: 5 x 1/2 x 5/6 = 25/12.
    for weapon, expected in (("Halberd and Shield", F(5, 3)), ("great weapons", F(25, 12))):
        combat, [r] = fight(green, {"unit": "Brawlers", "models": 5, "weapon": weapon}, DUMMIES)
        assert mean(r.defender_casualties) == expected
    [part] = combat.attacker.parts
    assert "great-weapon" in part.side.rules
