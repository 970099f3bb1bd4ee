"""Units of realm.cat (written for these tests, with combat.gst) in scenarios: minimum
sizes, points, mounts, weapons a model may take, shooting, and the Break Test after each
round. Every expected number is worked by hand beside it.

The units (1 Health Point, Defensive Skill 3, Resilience 3, Armour 0, one attack at Off 3,
Str 3, Agi 3 unless said): Yeomen (Dis 7, 10-30 models, 10 pts + 6 a model, Bow (4+)),
Lord (Dis 9, 3 HP, Def 5, Res 4, Arm 1, 3 attacks at Off 5, Str 4, AP 1, Agi 5; mounts
Destrier (HP C, Arm C+2, 1 attack) and Wyrm (Dread)), Wardens (Grim Resolve: ignores the
combat score penalty), Golems (Dis 5, Undaunted: passes Break Tests), Shades (Dread: -1
Discipline to the enemy), Steel Wardens (Steely: immune to Dread), Bolt Engine (a war
machine that may not declare charges; Aim 3+, Str 5, AP 2), Outriders (Grudge: a rule of
Break Tests no effect is read from).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import InputError
from pipeline.interpret.attack import resolve
from pipeline.interpret.combat import mean
from pipeline.interpret.rules import Build
from pipeline.interpret.shooting import shooting_scenario

from .conftest import run_cli
from .helpers.battlescribe import build_fixtures, fight

F = Fraction


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("realm"), "combat.gst", "realm.cat")


# a defender that cannot strike back
GOLEMS = {"unit": "Golems", "attacks": 0}


def test_a_unit_is_its_minimum_size_with_its_points(out: Path) -> None:
    combat, _ = fight(out, {"unit": "Yeomen"}, GOLEMS)
    assert combat.attacker.models == 10 and combat.defender.models == 5
    assert combat.attacker.points == 10 + 6 * 10
    # options priced per model: Spear and Shield, +1 a model each
    combat, _ = fight(out, {"unit": "Yeomen", "models": 12, "options": ["spear", "shield"]}, GOLEMS)
    assert combat.attacker.points == 10 + 6 * 12 + 12 + 12


def test_a_character_on_its_mount(out: Path) -> None:
    # The Lord: 3 attacks, Off 5 against Def 3 hits on 3+ (2/3), Str 4 against Res 3 wounds
    # on 3+ (2/3), no armour: 3 x 4/9 = 4/3 Golems. The Destrier adds its own attack: Off 3
    # against Def 3 hits on 4+, Str 3 wounds on 4+: 1/4. At most 4 wounds, 5 Golems.
    _, [foot] = fight(out, {"unit": "Lord"}, GOLEMS)
    assert mean(foot.defender_casualties) == F(4, 3)
    combat, [ridden] = fight(out, {"unit": "Lord", "mount": "Destrier"}, GOLEMS)
    assert mean(ridden.defender_casualties) == F(4, 3) + F(1, 4)
    assert [p.name for p in combat.attacker.parts] == ["Lord", "Destrier"]
    assert combat.attacker.defence.chars["armour"] == 3  # Arm C+2 on the Lord's 1
    assert combat.attacker.points == 120 + 40 and combat.attacker.mount == "Destrier"
    # the mount's name among the options is the same choice
    combat, _ = fight(out, {"unit": "Lord", "options": ["destrier"]}, GOLEMS)
    assert combat.attacker.mount == "Destrier"
    with pytest.raises(InputError, match="did you mean: destrier"):
        fight(out, {"unit": "Lord", "mount": "Destrer"}, GOLEMS)
    with pytest.raises(InputError, match="no profile for the mount 'Cloud Chariot'"):
        fight(out, {"unit": "Lord", "mount": "Cloud Chariot"}, GOLEMS)


def test_a_weapon_the_model_cannot_use_is_refused_with_its_rule(out: Path) -> None:
    with pytest.raises(InputError) as refused:
        fight(out, {"unit": "Lord", "weapon": "Warlance"}, GOLEMS)
    assert "Infantry cannot use Warlances." in refused.value.what
    assert refused.value.where == "attacker.weapon"
    # on a Destrier the Lord is Cavalry: the Warlance's +2 Str, Str 6 against Res 3 wounds
    # on 2+ (5/6): 3 x 2/3 x 5/6 = 5/3, and the Destrier's 1/4
    _, [r] = fight(out, {"unit": "Lord", "mount": "Destrier", "weapon": "Warlance"}, GOLEMS)
    assert mean(r.defender_casualties) == F(5, 3) + F(1, 4)


def test_every_model_may_fight_with_its_hand_weapon(out: Path) -> None:
    # the Lord's options are a Warlance and a Great Weapon; a Hand Weapon is every model's
    combat, [r] = fight(out, {"unit": "Lord", "weapon": "hand-weapon"}, GOLEMS)
    assert mean(r.defender_casualties) == F(4, 3)
    assert "hand-weapon" in combat.attacker.parts[0].side.rules
    with pytest.raises(InputError, match="is not a weapon"):
        fight(out, {"unit": "Yeomen", "weapon": "shield"}, GOLEMS)
    with pytest.raises(InputError, match="shooting weapon"):
        fight(out, {"unit": "Yeomen", "weapon": "bow"}, GOLEMS)


# --- Break Tests -------------------------------------------------------------------------------
#
# 5 Yeomen that make no attacks, charging with a standard: combat score 2 to 0 (no ranks
# behind the first on either side, one Full Rank each: nobody is Steadfast). The loser tests
# 2D6 against Discipline 7 - 2 = 5: passes 10/36, breaks 26/36 = 13/18.

SCORER = {"unit": "Yeomen", "models": 5, "attacks": 0, "charging": True, "standard": True}


def quiet(unit: str, models: int = 5, **kw: Any) -> dict[str, Any]:
    return {"unit": unit, "models": models, "attacks": 0, **kw}


def test_the_loser_breaks_by_its_discipline_and_the_score(out: Path) -> None:
    _, [r] = fight(out, SCORER, quiet("Yeomen"))
    assert r.score_difference == {2: F(1)}
    assert r.defender_breaks == r.defender_broken == F(13, 18)
    assert r.attacker_breaks == 0


def test_steadfast_by_ranks(out: Path) -> None:
    # 10 Yeomen 5 wide: +1 Rank Bonus (difference 1) and 2 Full Ranks against 1: Steadfast,
    # the penalty ignored: breaks on 8+, 15/36 = 5/12
    _, [r] = fight(out, SCORER, quiet("Yeomen", 10, width=5))
    assert r.score_difference == {1: F(1)}
    assert r.defender_breaks == F(5, 12)
    # 10 wide: one Full Rank, no Rank Bonus, not Steadfast: 13/18 again
    _, [r] = fight(out, SCORER, quiet("Yeomen", 10, width=10))
    assert r.defender_breaks == F(13, 18)


def test_rules_that_change_the_break_test(out: Path) -> None:
    # Grim Resolve ignores the score: breaks on 8+ (5/12); Undaunted never breaks
    assert fight(out, SCORER, quiet("Wardens"))[1][0].defender_breaks == F(5, 12)
    assert fight(out, SCORER, quiet("Golems"))[1][0].defender_breaks == 0
    # the Shades' Dread: -1 Discipline to the enemy: 2D6 <= 4 passes (6/36), breaks 5/6;
    # Steely and Dread itself are immune to it
    dread = {**SCORER, "unit": "Shades"}
    assert fight(out, dread, quiet("Yeomen"))[1][0].defender_breaks == F(5, 6)
    assert fight(out, dread, quiet("Steel Wardens"))[1][0].defender_breaks == F(13, 18)
    assert fight(out, dread, quiet("Shades"))[1][0].defender_breaks == F(13, 18)


def test_a_broken_unit_ends_the_combat(out: Path) -> None:
    # round 2 is fought only where the Yeomen passed (5/18); there the standard alone makes
    # it 1 to 0: breaks on 7+ (21/36 = 7/12)
    _, (_r1, r2) = fight(out, SCORER, quiet("Yeomen"), rounds=2)
    assert r2.p_fought() == F(5, 18)
    assert r2.score_difference == {1: F(5, 18)}
    assert r2.defender_breaks == F(5, 18) * F(7, 12)
    assert r2.defender_broken == F(13, 18) + F(5, 18) * F(7, 12)


def test_the_answer_names_what_it_does_not_play(out: Path, tmp_path: Path) -> None:
    scenario = tmp_path / "grudge.yaml"
    scenario.write_text(json.dumps({"attacker": SCORER, "defender": quiet("Outriders")}), "utf-8")
    done = run_cli("attack", str(scenario), "--build", str(out), "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert "pursuit and overrun" in doc["not_played"] and "challenges" in doc["not_played"]
    # Grudge speaks of Break Tests, and nothing of it is read: named, not silently dropped
    assert doc["break_tests"]["defender"]["not_played"] == ["Grudge"]
    assert doc["rounds"][0]["p_defender_breaks"] == "13/18"
    text = run_cli("attack", str(scenario), "--build", str(out))
    assert "the defender breaks 72.2%" in text.stdout
    assert "not played (its text names Break Tests): Grudge" in text.stdout
    assert "not played: pursuit and overrun" in text.stdout


def _simulate(rng: random.Random) -> tuple[int, int, int]:
    """One round: the Lord on a Destrier charges 10 Yeomen (5 wide) who strike back with
    their survivors; the loser takes its Break Test. (Yeomen lost, Lord's HP lost, who
    broke: 0 nobody, 1 the Lord, 2 the Yeomen.)"""

    def d6() -> int:
        return rng.randint(1, 6)

    # Initiative Step 5: the Lord's 3 attacks, hit 3+, wound 3+, no save (Arm 0)
    kills = sum(1 for _ in range(3) if d6() >= 3 and d6() >= 3)
    alive = 10 - kills
    # Step 3 at once: the Destrier (hit 4+, wound 4+) and every surviving Yeoman (front rank
    # and one supporting rank, 1 attack each): Off 3 vs Def 5 hits on 4+, Str 3 vs Res 4
    # wounds on 5+, the Lord's Armour 3 saves on 4+
    kills += 1 if d6() >= 4 and d6() >= 4 else 0
    wounds = sum(1 for _ in range(alive) if d6() >= 4 and d6() >= 5 and d6() < 4)
    lost = min(wounds, 3)
    alive = 10 - kills
    lord = kills + 1  # the charge
    yeomen = lost + (1 if alive >= 10 else 0)  # a Full Rank behind the first
    diff = lord - yeomen
    roll = d6() + d6()
    if diff > 0:
        steadfast = alive >= 5  # a Full Rank against the Lord's none
        need = 7 if steadfast else 7 - diff
        return kills, lost, 2 if roll > need else 0
    if diff < 0 and lost < 3:
        return kills, lost, 1 if roll > 9 + diff else 0
    return kills, lost, 0


def test_a_seeded_simulation_of_a_whole_round_agrees(out: Path) -> None:
    _, [r] = fight(
        out,
        {"unit": "Lord", "mount": "Destrier", "charging": True},
        {"unit": "Yeomen", "models": 10, "width": 5},
    )
    rng = random.Random(4040)
    n = 40_000
    games = [_simulate(rng) for _ in range(n)]
    checks = [
        (mean(r.defender_casualties), [g[0] for g in games]),
        (mean(r.attacker_casualties), [int(g[1] == 3) for g in games]),
        (r.defender_breaks, [int(g[2] == 2) for g in games]),
        (r.attacker_breaks, [int(g[2] == 1) for g in games]),
    ]
    for exact, values in checks:
        avg = sum(values) / n
        sd = (sum((v - avg) ** 2 for v in values) / (n - 1)) ** 0.5
        assert abs(avg - float(exact)) < 4 * sd / n**0.5 + 1e-12, (float(exact), avg)
    assert r.defender_breaks > 0 and r.attacker_breaks > 0  # both can happen here


# --- shooting ----------------------------------------------------------------------------------


def shoot(out: Path, attacker: dict[str, Any], defender: dict[str, Any], **kw: Any) -> Any:
    b = Build(out)
    data = {"mode": "shooting", "attacker": attacker, "defender": defender, **kw}
    scenario, _ = shooting_scenario(data, b, "test")
    return resolve(scenario, b)


def test_a_unit_shoots_with_its_weapon_and_aim(out: Path) -> None:
    # 10 Yeomen, Bow (4+): hit on 4+ (1/2), Str 3 against Res 3 on 4+ (1/2): 10/4 Wardens
    r = shoot(out, {"unit": "Yeomen"}, {"unit": "Wardens", "models": 10})
    assert r.casualties.mean() == F(5, 2)
    # at long range the Aim needs 5+: 10 x 1/3 x 1/2
    r = shoot(out, {"unit": "Yeomen"}, {"unit": "Wardens", "models": 10}, conditions=["long-range"])
    assert r.casualties.mean() == F(5, 3)
    # the war machine: its crew's Bolt Engine (3+), Str 5 against Res 3 on 2+: 2/3 x 5/6
    r = shoot(out, {"unit": "Bolt Engine"}, {"unit": "Wardens"})
    assert r.casualties.mean() == F(5, 9)


def test_shooting_without_a_shooting_weapon_is_refused(out: Path) -> None:
    with pytest.raises(InputError, match="no shooting weapon"):
        shoot(out, {"unit": "Lord"}, {"unit": "Wardens"})
    with pytest.raises(InputError, match="melee weapon"):
        shoot(out, {"unit": "Yeomen", "weapon": "spear"}, {"unit": "Wardens"})


def test_attack_command_shoots_by_unit(out: Path, tmp_path: Path) -> None:
    scenario = tmp_path / "volley.yaml"
    scenario.write_text(
        "mode: shooting\nattacker: {unit: Yeomen}\ndefender: {unit: Wardens, models: 10}\n", "utf-8"
    )
    done = run_cli("attack", str(scenario), "--build", str(out), "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["casualties"]["mean"] == "5/2"
    assert doc["attacker"]["aim"] == 4 and doc["attacker"]["models"] == 10
