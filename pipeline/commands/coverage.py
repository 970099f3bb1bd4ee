"""`rulepipe coverage`: which clauses of each rule became effects, and which did not."""

from __future__ import annotations

import argparse

from . import options


def add(sub: argparse._SubParsersAction) -> None:
    from ..coverage import STATES

    p = sub.add_parser(
        "coverage",
        help="which clauses of each rule became effects, and the share of rules per state",
        description="Per rule of a build: the clauses read and not read, then each sentence "
        "with its span, marked `+` when effects were read from it (they are named), `~` when "
        "effects were read but a clause of it was not (the clause is shown), `-` when it names "
        "a game quantity no effect was read from, blank when it needs none; first the share "
        "of rules in each state and of clauses read. A rule is full only when every clause "
        "naming a roll, a characteristic, a number or a situation was read.",
        epilog="examples:\n  rulepipe coverage --state partial\n"
        "  rulepipe coverage --rule ricochet",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("--rule", action="append", metavar="ID", help="only this rule (repeatable)")
    p.add_argument("--state", choices=STATES, help="only rules in this state")
    options.build_dir(p)
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..build_folder import read_rules
    from ..coverage import report_text, rule_coverage, summary
    from ..errors import InputError
    from ..lookup import did_you_mean
    from ..textsafe import terminal
    from .output import print_json

    rules = read_rules(args.build)
    ids = {r["id"] for r in rules}
    for wanted in args.rule or ():
        if wanted not in ids:
            raise InputError(str(args.build), f"no rule {wanted!r}{did_you_mean(wanted, ids)}")
    chosen = [r for r in rules if not args.rule or r["id"] in args.rule]
    if args.state:
        chosen = [r for r in chosen if r["coverage"] == args.state]
    if args.json:
        print_json({"summary": summary(rules), "rules": [rule_coverage(r) for r in chosen]})
    else:
        print(terminal(report_text(chosen, rules)), end="")
    return 0
