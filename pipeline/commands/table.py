"""`rulepipe table RULE`: outcome probabilities of a dice table, chains followed."""

from __future__ import annotations

import argparse

from . import options


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "table",
        help="outcome probabilities of a dice table, chains followed",
        description="Outcome probabilities of a dice table rule; rows that lead to another "
        "table are followed and their final outcomes reported.",
        epilog="example:\n  rulepipe table trudnaya-mestnost-i-prepyatstviya --modifier -1",
        formatter_class=options.FORMATTER,
    )
    p.add_argument(
        "rule",
        help="rule id of the table (e.g. trudnaya-mestnost-i-prepyatstviya, the LotOW jump table)",
    )
    p.add_argument(
        "--modifier", type=int, default=0, metavar="N", help="added to the die result (e.g. -1)"
    )
    options.when(p, "a situation that switches on the table's own modifiers (repeatable)")
    options.build_dir(p, "build folder whose rules/<id>.yaml files are read")
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..interpret.report import print_outcomes, table_json
    from ..interpret.rules import Build, parse_ref
    from ..interpret.tables import roll_table, table_conditions
    from .output import print_json

    build = Build(args.build)
    rule_id = parse_ref(args.rule, "table").id
    options.check_conditions(args.when, table_conditions(build, rule_id), f"table {rule_id}")
    outcomes = roll_table(build, rule_id, args.modifier, args.when or ())
    if args.json:
        print_json(table_json(rule_id, args.modifier, outcomes))
        return 0
    mod = f" {args.modifier:+d}" if args.modifier else ""
    print_outcomes(f"table {rule_id}{mod}", outcomes)
    return 0
