"""`rulepipe attack SCENARIO`: hits, wounds, unsaved wounds and casualties of a scenario."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import options

EPILOG = """\
a scenario (rule ids with bracket parameters, as `rulepipe rules` lists them):
  attacker: {models: 5, attacks: 1, offensive_skill: 4, strength: 4,
             armour_penetration: 0, agility: 3, charging: true,
             rules: [great-weapon, impact-hits(D3)]}
  defender: {defensive_skill: 4, resilience: 4, health_points: 1, armour: 2,
             rules: [fortitude(5+)], models: 10}
  conditions: [front-facing]

a round of combat between units of the build (both sides strike, survivors strike back;
fields written beside `unit` override the unit's):
  attacker: {unit: Knights, models: 5, charging: true}
  defender: {unit: Men-at-Arms, models: 20, width: 5, weapon: halberd, options: [shield]}
  conditions: [front-facing]

examples:
  rulepipe attack corpus/examples/attack.yaml
  rulepipe build corpus/examples/army -o army-build
  rulepipe attack corpus/examples/combat.yaml --build army-build --rounds 2"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "attack",
        help="distributions of hits, wounds, unsaved wounds and casualties",
        description="Exact attack chain of a scenario file: to hit, to wound, armour and "
        "special saves, Multiple Wounds capped at Health Points, casualties.",
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("scenario", type=Path, help="scenario YAML file")
    options.build_dir(p, "build folder whose rules/<id>.yaml files are read")
    p.add_argument(
        "--rounds",
        type=_rounds,
        metavar="N",
        help="resolve N rounds of combat, both sides striking (default: the scenario's "
        "`rounds`, else one round when a side names a unit)",
    )
    options.json_flag(p)
    options.strict(p)
    p.set_defaults(run=run)


def _rounds(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 20:
        raise argparse.ArgumentTypeError("rounds must be a whole number from 1 to 20")
    return int(value)


def run(args: argparse.Namespace) -> int:
    from ..files import read_yaml
    from ..interpret.attack import resolve, scenario_from_dict
    from ..interpret.combat import is_combat
    from ..interpret.report import attack_json, print_distribution, print_lines
    from ..interpret.rules import Build
    from ..interpret.unread import lines as unread_lines
    from .output import print_json

    data = read_yaml(args.scenario, "scenario file")
    if args.rounds or is_combat(data):
        return _combat(args, data)
    build = Build(args.build)
    scenario = scenario_from_dict(data, str(args.scenario))
    found = _unread(args, build, [*scenario.attacker.rules, *scenario.defender.rules])
    result = resolve(scenario, build)
    doc = {**attack_json(result), "unread": found}
    if args.json:
        print_json(doc)
        return 0
    for s in doc["sources"]:
        print_lines([", ".join(f"{k} {v}" for k, v in s.items() if v is not None)])
    for key in ("hits", "wounds", "unsaved_wounds", "casualties"):
        d = getattr(result, key)
        print_distribution(key.replace("_", " "), d.items(), d.mean())
    print_lines(unread_lines(found))
    return 0


def _unread(args: argparse.Namespace, build: Any, rules: list[str]) -> list[dict[str, Any]]:
    """The clauses not read of the rules in play; with --strict, a refusal instead."""
    from ..interpret.unread import refuse, unread

    found = unread(build, rules, "attack", str(args.scenario))
    if args.strict:
        refuse(found, str(args.scenario))
    return found


def _combat(args: argparse.Namespace, data: dict) -> int:
    """Rounds of combat: casualties of both sides and the combat score, round by round."""
    from ..errors import InputError
    from ..interpret.attack import check_conditions
    from ..interpret.combat import combat_from_dict, combat_json, mean, resolve_combat
    from ..interpret.report import print_distribution, print_lines
    from ..interpret.rules import Build
    from ..interpret.unread import lines as unread_lines
    from .output import print_json

    if isinstance(data, dict) and args.rounds:
        data = {**data, "rounds": args.rounds}
    if isinstance(data, dict) and data.get("mode", "melee") != "melee":
        raise InputError(str(args.scenario), "rounds of combat are melee only", "mode")
    build = Build(args.build)
    combat = combat_from_dict(data, build, str(args.scenario))
    rules = [r for f in (combat.attacker, combat.defender) for p in f.parts for r in p.side.rules]
    source = str(args.scenario)
    check_conditions(combat.conditions, build.effects(rules, source), source)
    found = _unread(args, build, rules)
    results = resolve_combat(combat, build)
    if args.json:
        print_json({**combat_json(combat, results), "unread": found})
        return 0
    for who, f in (("attacker", combat.attacker), ("defender", combat.defender)):
        parts = "; ".join(
            f"{p.name}: A {p.side.attacks}, Off {p.side.chars.get('offensive_skill')}, "
            f"Str {p.side.chars.get('strength')}, AP {p.side.chars.get('armour_penetration')}, "
            f"Agi {p.side.chars.get('agility')}, rules {', '.join(p.side.rules) or '-'}"
            for p in f.parts
        )
        head = f"{who}: {f.models} {f.name}, {f.width} wide" + (", charging" if f.charging else "")
        print_lines([head, f"  {parts}"])
        if f.unresolved:
            print_lines([f"  not executed (no rule in the build): {', '.join(f.unresolved)}"])
    for r in results:
        print_lines([f"round {r.round}"])
        print_distribution(
            f"{combat.attacker.name} (attacker) casualties so far",
            list(r.attacker_casualties.items()),
            mean(r.attacker_casualties),
        )
        print_distribution(
            f"{combat.defender.name} (defender) casualties so far",
            list(r.defender_casualties.items()),
            mean(r.defender_casualties),
        )
        print_lines(
            [
                f"combat score difference (attacker - defender): mean "
                f"{float(mean(r.score_difference)):+.2f}; attacker wins "
                f"{float(r.p_win()):.1%}, draw {float(r.p_draw()):.1%}, "
                f"defender wins {float(r.p_lose()):.1%}"
            ]
        )
    print_lines(unread_lines(found))
    return 0
