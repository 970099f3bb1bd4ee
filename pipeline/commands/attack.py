"""`rulepipe attack SCENARIO`: hits, wounds, unsaved wounds and casualties of a scenario."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options

EPILOG = """\
a scenario (rule ids with bracket parameters, as `rulepipe rules` lists them):
  attacker: {models: 5, attacks: 1, offensive_skill: 4, strength: 4,
             armour_penetration: 0, agility: 3, charging: true,
             rules: [great-weapon, impact-hits(D3)]}
  defender: {defensive_skill: 4, resilience: 4, health_points: 1, armour: 2,
             rules: [fortitude(5+)], models: 10}
  conditions: [front-facing]

example:
  rulepipe attack corpus/examples/attack.yaml"""


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
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..interpret.attack import load_scenario, resolve
    from ..interpret.report import attack_json, print_distribution, print_lines
    from ..interpret.rules import Build
    from .output import print_json

    result = resolve(load_scenario(args.scenario), Build(args.build))
    doc = attack_json(result)
    if args.json:
        print_json(doc)
        return 0
    for s in doc["sources"]:
        print_lines([", ".join(f"{k} {v}" for k, v in s.items() if v is not None)])
    for key in ("hits", "wounds", "unsaved_wounds", "casualties"):
        d = getattr(result, key)
        print_distribution(key.replace("_", " "), d.items(), d.mean())
    return 0
