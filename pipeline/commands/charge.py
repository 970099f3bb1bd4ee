"""`rulepipe charge`: the charge range distribution and the odds of reaching a distance."""

from __future__ import annotations

import argparse
import math

from ..errors import InputError
from . import options


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "charge",
        help="charge range distribution and the odds of reaching a distance",
        description="Charge Range = 2D6 + Advance Rate (core data), changed by the rules' "
        "roll effects (Swiftstride: Maximised Roll).",
        epilog="example:\n  rulepipe charge --distance 12 --advance 7 --rules swiftstride",
        formatter_class=options.FORMATTER,
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
    options.when(p, "a named situation for conditional effects (repeatable)")
    options.build_dir(p, "build folder whose rules/<id>.yaml files are read")
    options.json_flag(p)
    options.strict(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..interpret.charge import charge
    from ..interpret.dice import distribution, mean
    from ..interpret.report import charge_json, print_distribution, print_lines
    from ..interpret.rules import Build, effect_conditions
    from ..interpret.unread import lines, refuse, unread
    from .output import print_json

    rules = list(args.rules or ())
    build = Build(args.build)
    effects = build.effects(rules, "--rules") if rules else []
    options.check_conditions(args.when, effect_conditions(effects), "a charge with these rules")
    found = unread(build, rules, "charge", "--rules") if rules else []
    if args.strict:
        refuse(found, "--rules")
    if not math.isfinite(args.distance):
        raise InputError("--distance", "must be a number of inches")
    distance = math.ceil(args.distance)
    result = charge(distance, args.advance, effects, args.when or ())
    doc = charge_json(result, args.advance, rules)
    doc["distance"] = args.distance if args.distance != distance else distance
    doc["unread"] = found
    if args.json:
        print_json(doc)
        return 0
    print_distribution(
        f"charge range {result.expr}", distribution(result.range), mean(result.range)
    )
    pct = f"{float(result.p_success):.4%}"
    print_lines([f'P(charge of {doc["distance"]}" succeeds) = {doc["p_success"]} = {pct}'])
    print_lines(lines(found))
    return 0
