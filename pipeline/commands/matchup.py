"""`rulepipe matchup ATTACKERS DEFENDERS`: every unit of one army against every unit of another."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import options

BY = ("break", "score")  # as interpret.matchup.BY, without importing the interpreter

EPILOG = """\
ATTACKERS and DEFENDERS are each an army book (its catalogue's file name, e.g. knights for
knights.cat) or a comma-separated list of units (ids or names, as `units.json` has them).
Each cell is one combat, front facing: the attacking unit (charging unless --no-charge, or
unless its rules forbid it to declare charges) against the defending one, both striking,
survivors striking back, for --rounds rounds, the loser taking a Break Test after each.
Each unit fights at its minimum size, or at --models, or with --points at the most whole
models its points buy within its size. The grid is coloured by the chance that the
defender has broken (--by break) or that the attacker wins the combat score (--by score).

examples:
  rulepipe build corpus/examples/army -o army-build
  rulepipe matchup knights goblins --build army-build
  rulepipe matchup knights goblins --build army-build --points 300 --rounds 2
  rulepipe matchup knights goblins --build army-build --json
  rulepipe matchup knights "Goblin Spears,Wolf Riders" --build army-build -o matchup.html"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "matchup",
        help="every unit of one army against every unit of another: casualties, P(win)",
        description="Units of one army book (or a list) against units of another: expected "
        "casualties of both sides and the attacker's chance to win the combat, as text, JSON "
        "or an HTML grid whose cells link to their worked scenarios.",
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("attackers", help="army book or comma-separated units that attack")
    p.add_argument("defenders", help="army book or comma-separated units that defend")
    p.add_argument(
        "--models", type=_count, metavar="N", help="attacking models (default: each unit's minimum)"
    )
    p.add_argument(
        "--defender-models", type=_count, metavar="N", help="defending models (default: --models)"
    )
    p.add_argument(
        "--points",
        type=_points,
        metavar="N",
        help="each unit at the most whole models that cost at most N points, within its size",
    )
    p.add_argument(
        "--by",
        choices=BY,
        default="break",
        help="colour the grid by P(defender broken or destroyed) or P(attacker wins the score)",
    )
    p.add_argument(
        "--no-charge", dest="charging", action="store_false", help="the attacker does not charge"
    )
    p.add_argument("--rounds", type=_count, default=1, metavar="N", help="rounds of combat")
    options.build_dir(p, "build folder whose units.json and rules are read")
    options.json_flag(p)
    options.strict(p)
    p.add_argument("-o", "--out", type=Path, metavar="FILE.html", help="write the HTML grid")
    p.set_defaults(run=run)


def _points(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 100_000:
        raise argparse.ArgumentTypeError("expected a whole number of points from 1 to 100000")
    return int(value)


def _count(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 1000:
        raise argparse.ArgumentTypeError("expected a whole number from 1 to 1000")
    return int(value)


def run(args: argparse.Namespace) -> int:
    from ..files import write_output
    from ..interpret.matchup import book_title, cell_notes, matchup, matchup_json, pick
    from ..interpret.matchup_html import render
    from ..interpret.report import print_lines
    from ..interpret.rules import Build
    from ..interpret.scenario import Units
    from ..interpret.unread import lines
    from ..progress import stage_progress
    from .output import print_json, print_table

    if args.points and (args.models or args.defender_models):
        from ..errors import InputError

        raise InputError("matchup", "give --points or --models, not both")
    build = Build(args.build)
    units = Units(build)
    attackers, defenders = pick(units, args.attackers), pick(units, args.defenders)
    found = _unread(build, [*attackers, *defenders], args.strict)
    books = (book_title(attackers), book_title(defenders))
    with stage_progress(enabled=not args.json) as report:
        progress = (lambda done, total: report("matchup", done, total)) if report else None
        m = matchup(
            build,
            attackers,
            defenders,
            args.models,
            args.defender_models,
            args.charging,
            args.rounds,
            progress,
            points=args.points,
            books=books,
        )
    if args.out:
        write_output(render(m, f"{books[0]} against {books[1]}", args.by), args.out)
    if args.json:
        print_json({**matchup_json(m), "unread": found})
        return 0
    names = {u["id"]: u["name"] for u in [*attackers, *defenders]}

    def who(c_id: str, side: str) -> str:
        s = m.sizes[f"{side}:{c_id}"]
        cost = "" if s.points is None else f", {s.points:g} pts"
        return f"{names[c_id]} ({s.models}{cost})"

    def pct(x: object) -> str:
        return f"{float(x):.1%}" if x is not None else ""  # type: ignore[arg-type]

    rows = [
        [
            who(c.attacker, "a"),
            who(c.defender, "d"),
            f"{float(c.attacker_casualties):.2f}" if c.attacker_casualties is not None else "",
            f"{float(c.defender_casualties):.2f}" if c.defender_casualties is not None else "",
            pct(c.defender_broken) if c.error is None else f"n/a: {c.error}",
            pct(c.defender_destroyed),
            pct(c.attacker_broken),
            pct(c.attacker_destroyed),
            pct(c.p_win),
            pct(c.p_draw),
        ]
        for c in m.cells
    ]
    header = [
        "attacker",
        "defender",
        "attacker lost",
        "defender lost",
        "P(defender broken)",
        "P(defender destroyed)",
        "P(attacker broken)",
        "P(attacker destroyed)",
        "P(win score)",
        "P(draw)",
    ]
    size = (
        "each unit's minimum size"
        if not (args.models or args.points)
        else (
            f"{args.points} points a unit"
            if args.points
            else f"{m.models} against {m.defender_models} models"
        )
    )
    print_table(header, rows, f"{books[0]} against {books[1]}: {size}, {m.rounds} round(s)")
    _footer([*(f"note: {n}" for n in cell_notes(m.cells)), _not_played()])
    print_lines(lines(found))
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _unread(build: Any, units: list[dict[str, Any]], strict: bool) -> list[dict[str, Any]]:
    """The clauses not read of every rule the units fight with (as each cell takes them);
    with --strict, a refusal instead."""
    from ..errors import InputError
    from ..interpret.scenario import unit_force
    from ..interpret.unread import refuse, unread

    refs: list[str] = []
    for unit in {u["id"]: u for u in units}.values():
        try:
            force = unit_force(unit, {}, build, "matchup", unit["id"])
        except InputError:
            continue  # its cells say why
        refs += [r for p in force.parts for r in p.side.rules]
    found = unread(build, dict.fromkeys(refs), "attack", "matchup")
    if strict:
        refuse(found, "matchup")
    return found


def _footer(lines: list[str]) -> None:
    """Lines after the table: as they are on a terminal, as `#` comments after the
    tab-separated rows of a pipe or a file."""
    import sys

    from ..textsafe import one_line

    mark = "" if sys.stdout.isatty() else "# "
    for line in lines:
        sys.stdout.write(f"{mark}{one_line(line)}\n")


def _not_played() -> str:
    from ..interpret.combat import not_played

    return f"not played: {', '.join(not_played())}"
