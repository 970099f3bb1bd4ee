"""`rulepipe matchup ATTACKERS DEFENDERS`: every unit of one army against every unit of another."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from . import options

EPILOG = """\
ATTACKERS and DEFENDERS are each an army book (its catalogue's file name, e.g. knights for
knights.cat) or a comma-separated list of units (ids or names, as `units.json` has them).
Each cell is one combat, front facing: the attacking unit (charging unless --no-charge)
against the defending one, both striking, survivors striking back, for --rounds rounds.

examples:
  rulepipe build corpus/examples/army -o army-build
  rulepipe matchup knights goblins --build army-build --models 10
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
    p.add_argument("--models", type=_count, default=20, metavar="N", help="attacking models")
    p.add_argument(
        "--defender-models", type=_count, metavar="N", help="defending models (default: --models)"
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


def _count(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 1000:
        raise argparse.ArgumentTypeError("expected a whole number from 1 to 1000")
    return int(value)


def run(args: argparse.Namespace) -> int:
    from ..files import write_output
    from ..interpret.matchup import matchup, matchup_json, pick
    from ..interpret.matchup_html import render
    from ..interpret.report import print_lines
    from ..interpret.rules import Build
    from ..interpret.scenario import Units
    from ..interpret.unread import lines
    from ..progress import stage_progress
    from .output import print_json, print_table

    build = Build(args.build)
    units = Units(build)
    attackers, defenders = pick(units, args.attackers), pick(units, args.defenders)
    found = _unread(build, [*attackers, *defenders], args.strict)
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
        )
    if args.out:
        title = f"{args.attackers} against {args.defenders}"
        write_output(render(m, title), args.out)
    if args.json:
        print_json({**matchup_json(m), "unread": found})
        return 0
    names = {u["id"]: u["name"] for u in [*attackers, *defenders]}
    rows = [
        [
            names[c.attacker],
            names[c.defender],
            f"{float(c.attacker_casualties):.2f}" if c.attacker_casualties is not None else "",
            f"{float(c.defender_casualties):.2f}" if c.defender_casualties is not None else "",
            f"{float(c.p_win):.1%}" if c.p_win is not None else f"n/a: {c.error}",
            f"{float(c.p_draw):.1%}" if c.p_draw is not None else "",
        ]
        for c in m.cells
    ]
    header = ["attacker", "defender", "attacker lost", "defender lost", "P(win)", "P(draw)"]
    print_table(header, rows, f"{m.models} against {m.defender_models} models, {m.rounds} round(s)")
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
