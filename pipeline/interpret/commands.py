"""The interpreter's commands: `roll`, `table`, `charge`, `attack`.

`add_commands` registers them on the main `rulepipe` parser; each handler returns an exit code
and raises `InputError` for bad input (the CLI prints it and exits 2). `main` runs them alone
(`python -m pipeline.interpret roll 3D6`), which is also how the tests drive them.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.attack import load_scenario, resolve
from pipeline.interpret.charge import charge
from pipeline.interpret.dice import p_all_equal, parse
from pipeline.interpret.report import (
    attack_json,
    charge_json,
    print_distribution,
    print_lines,
    print_outcomes,
    roll_json,
    table_json,
)
from pipeline.interpret.rules import Build, parse_ref
from pipeline.interpret.tables import roll_table

Handler = Callable[[argparse.Namespace], int]


def _emit(doc: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def _bindings(pairs: Sequence[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        name = name.strip().replace("Х", "X")
        if not sep or len(name) != 1 or not name.isupper() or not value.strip():
            raise InputError("--set", f"expected NAME=VALUE like X=3 or X=D3, got {pair!r}")
        out[name] = value.strip()
    return out


def cmd_roll(args: argparse.Namespace) -> int:
    """Exact distribution of a dice expression."""
    expr = " ".join(args.expr)
    bindings = _bindings(args.set)
    die = parse(expr, bindings)
    equal = p_all_equal(expr, bindings) if args.all_equal else None
    doc = roll_json(expr, die, equal)
    if args.json:
        _emit(doc)
        return 0
    from pipeline.interpret.dice import distribution, mean

    print_distribution(f"roll {expr}", distribution(die), mean(die))
    if equal is not None:
        print_lines([f"P(all dice equal) = {doc['p_all_equal']} = {float(equal):.4%}"])
    return 0


def cmd_table(args: argparse.Namespace) -> int:
    """Final outcome probabilities of a dice table, chains followed."""
    build = Build(args.build)
    rule_id = parse_ref(args.rule, "table").id
    outcomes = roll_table(build, rule_id, args.modifier, args.when or ())
    if args.json:
        _emit(table_json(rule_id, args.modifier, outcomes))
        return 0
    mod = f" {args.modifier:+d}" if args.modifier else ""
    print_outcomes(f"table {rule_id}{mod}", outcomes)
    return 0


def cmd_charge(args: argparse.Namespace) -> int:
    """Charge range distribution and the odds of reaching the distance."""
    rules = list(args.rules or ())
    effects = Build(args.build).effects(rules, "--rules") if rules else []
    if not math.isfinite(args.distance):
        raise InputError("--distance", "must be a number of inches")
    distance = math.ceil(args.distance)
    result = charge(distance, args.advance, effects, args.when or ())
    doc = charge_json(result, args.advance, rules)
    doc["distance"] = args.distance if args.distance != distance else distance
    if args.json:
        _emit(doc)
        return 0
    from pipeline.interpret.dice import distribution, mean

    print_distribution(
        f"charge range {result.expr}", distribution(result.range), mean(result.range)
    )
    pct = f"{float(result.p_success):.4%}"
    print_lines([f'P(charge of {doc["distance"]}" succeeds) = {doc["p_success"]} = {pct}'])
    return 0


def cmd_attack(args: argparse.Namespace) -> int:
    """Distributions of hits, wounds, unsaved wounds and casualties of a scenario."""
    scenario = load_scenario(args.scenario)
    result = resolve(scenario, Build(args.build))
    doc = attack_json(result)
    if args.json:
        _emit(doc)
        return 0
    for s in doc["sources"]:
        print_lines([", ".join(f"{k} {v}" for k, v in s.items())])
    for key in ("hits", "wounds", "unsaved_wounds", "casualties"):
        d = getattr(result, key)
        print_distribution(key.replace("_", " "), d.items(), d.mean())
    return 0


def _build_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--build",
        type=Path,
        default=Path("output"),
        metavar="DIR",
        help="build folder whose rules/<id>.yaml files are read (default: ./output)",
    )


def _when_arg(p: argparse.ArgumentParser, help: str) -> None:
    p.add_argument("--when", action="append", metavar="CONDITION", help=help)


def _json_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document (exact fractions)")


def _register(sub: argparse._SubParsersAction, name: str, handler: Handler, **kw: Any) -> Any:
    p = sub.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter, **kw)
    p.set_defaults(func=handler, handler=handler)
    return p


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register `roll`, `table`, `charge` and `attack` on the main parser's subparsers."""
    p = _register(
        subparsers,
        "roll",
        cmd_roll,
        help="exact distribution of a dice expression",
        description="Exact distribution of a dice expression (fractions, not samples).",
        epilog="examples:\n  rulepipe roll 3D6\n  rulepipe roll 'D3+1'\n"
        "  rulepipe roll 'X+D6' --set X=3\n  rulepipe roll '4D6 drop lowest'\n"
        "  rulepipe roll '2D6 maximised'   (Maximised Roll: 3D6, lowest dropped)\n"
        "  rulepipe roll 'D6 reroll 1'     (a die is re-rolled at most once)\n"
        "  rulepipe roll 3D6 --all-equal   (also P(all three dice equal))",
    )
    p.add_argument(
        "expr",
        nargs="+",
        help="dice expression: NdS, D3, constants, + - *, "
        "drop/keep lowest/highest [N], reroll 1 | reroll <=2, maximised, variables",
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="X=VALUE",
        help="bind a variable to a number or expression (repeatable)",
    )
    p.add_argument(
        "--all-equal",
        action="store_true",
        help="also report P(every die of the pool shows the same face)",
    )
    _json_arg(p)

    p = _register(
        subparsers,
        "table",
        cmd_table,
        help="outcome probabilities of a dice table, chains followed",
        description="Outcome probabilities of a dice table rule; rows that lead to another "
        "table are followed and their final outcomes reported.",
        epilog="example:\n  rulepipe table trudnaya-mestnost-i-prepyatstviya --modifier -1",
    )
    p.add_argument(
        "rule",
        help="rule id of the table (e.g. trudnaya-mestnost-i-prepyatstviya, the LotOW jump table)",
    )
    p.add_argument(
        "--modifier", type=int, default=0, metavar="N", help="added to the die result (e.g. -1)"
    )
    _when_arg(p, "a situation that switches on the table's own modifiers (repeatable)")
    _build_arg(p)
    _json_arg(p)

    p = _register(
        subparsers,
        "charge",
        cmd_charge,
        help="charge range distribution and the odds of reaching a distance",
        description="Charge Range = 2D6 + Advance Rate (core data), changed by the rules' "
        "roll effects (Swiftstride: Maximised Roll).",
        epilog="example:\n  rulepipe charge --distance 12 --advance 7 --rules swiftstride",
    )
    p.add_argument(
        "--distance", type=float, required=True, metavar="D", help="inches to the target"
    )
    p.add_argument(
        "--advance",
        type=int,
        required=True,
        metavar="A",
        help="the lowest Advance Rate in the unit",
    )
    p.add_argument("--rules", nargs="*", metavar="RULE", help="rule ids of the charging unit")
    _when_arg(p, "a named situation for conditional effects (repeatable)")
    _build_arg(p)
    _json_arg(p)

    p = _register(
        subparsers,
        "attack",
        cmd_attack,
        help="distributions of hits, wounds, unsaved wounds and casualties",
        description="Exact attack chain of a scenario file: to hit, to wound, armour and "
        "special saves, Multiple Wounds capped at Health Points, casualties.",
        epilog="scenario.yaml:\n"
        "  attacker: {models: 5, attacks: 1, offensive_skill: 4, strength: 4,\n"
        "             armour_penetration: 1, agility: 3, charging: true,\n"
        "             rules: [great-weapon, impact-hits(D3), multiple-wounds(D3)]}\n"
        "  defender: {defensive_skill: 3, resilience: 3, health_points: 1, armour: 2,\n"
        "             rules: [aegis(5+)], models: 10}\n"
        "  conditions: [front-facing]",
    )
    p.add_argument("scenario", type=Path, help="scenario YAML file")
    _build_arg(p)
    _json_arg(p)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one interpreter command alone; bad input prints one line and returns 2."""
    parser = argparse.ArgumentParser(prog="rulepipe", description="rulepipe interpreter")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return 2
