"""`rulepipe roll EXPR`: the exact distribution of a dice expression."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ..errors import InputError
from . import options

EPILOG = """\
examples:
  rulepipe roll 3D6
  rulepipe roll 'D3+1'
  rulepipe roll 'X+D6' --set X=3
  rulepipe roll '4D6 drop lowest'
  rulepipe roll '2D6 maximised'   (Maximised Roll: 3D6, lowest dropped)
  rulepipe roll 'D6 reroll 1'     (a die is re-rolled at most once)
  rulepipe roll 3D6 --all-equal   (also P(all three dice equal))"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "roll",
        help="exact distribution of a dice expression",
        description="Exact distribution of a dice expression (fractions, not samples).",
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
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
    options.json_flag(p)
    p.set_defaults(run=run)


def bindings(pairs: Sequence[str] | None) -> dict[str, str]:
    """`--set X=3` as {"X": "3"}; a Cyrillic Х is read as the Latin X it stands for."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        name = name.strip().replace("Х", "X")
        if not sep or len(name) != 1 or not name.isupper() or not value.strip():
            raise InputError("--set", f"expected NAME=VALUE like X=3 or X=D3, got {pair!r}")
        out[name] = value.strip()
    return out


def run(args: argparse.Namespace) -> int:
    from ..interpret.dice import distribution, mean, p_all_equal, weigh
    from ..interpret.report import print_distribution, print_lines, roll_json
    from .output import print_json

    expr = " ".join(args.expr)
    bound = bindings(args.set)
    die = weigh(expr, bound)
    equal = p_all_equal(expr, bound) if args.all_equal else None
    doc = roll_json(expr, die, equal)
    if args.json:
        print_json(doc)
        return 0
    print_distribution(f"roll {expr}", distribution(die), mean(die))
    if equal is not None:
        print_lines([f"P(all dice equal) = {doc['p_all_equal']} = {float(equal):.4%}"])
    return 0
