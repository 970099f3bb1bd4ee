"""Time of whole-army matchups on real army books (every unit of one book against every unit
of another, each at its minimum size from the data, one round each, both striking, Break
Tests), spread over the cores.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/bench_matchup.py [FOLDER] [--build DIR] [--models N]
        [--points N] [--rounds N] [--repeat N] [--markdown]

FOLDER (default ../shared/data/t9a-2.1.5) is built as one drop into a temporary folder (or
`--build DIR` reads an earlier build). Each army book then fights the next one in name
order (four books: four matchups), `--repeat` times each, and the time per matchup (the
fastest and the slowest run) and per cell is printed. The machine may be shared: give the
spread, and compare two versions of the code by running them alternately.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish
from eval_units import DATA, build_folder

from pipeline.interpret.matchup import matchup
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units
from pipeline.parallel import cores


def bench(out: Path, args: argparse.Namespace) -> list[list[object]]:
    b = Build(out)
    units = Units(b)
    books = sorted({Path(u["source"]["file"]).stem for u in units.all})
    sizes = (
        f"{args.points} points a unit"
        if args.points
        else f"{args.models} models"
        if args.models
        else "minimum sizes"
    )
    print(f"{len(books)} army books, {len(units.all)} units, {cores()} cores, {sizes}")
    rows: list[list[object]] = []
    for i, book in enumerate(books):
        other = books[(i + 1) % len(books)]
        if other == book:
            continue
        att, dfd = units.of_army(book), units.of_army(other)
        times = []
        for _ in range(args.repeat):
            b = Build(out)  # nothing read before: each run reads the rules it needs
            start = time.perf_counter()
            m = matchup(b, att, dfd, args.models, None, True, args.rounds, points=args.points)
            times.append(time.perf_counter() - start)
        errors = sum(1 for c in m.cells if c.error)
        spread = f"{min(times):.1f}-{max(times):.1f} s" if len(times) > 1 else f"{times[0]:.1f} s"
        print(
            f"{book} ({len(att)}) against {other} ({len(dfd)}): {len(m.cells)} cells in "
            f"{spread} ({1000 * min(times) / len(m.cells):.0f} ms a cell), {errors} not resolved"
        )
        rows.append(
            [
                f"{book} against {other}",
                len(m.cells),
                spread,
                f"{1000 * min(times) / len(m.cells):.0f}",
                errors,
            ]
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DATA / "t9a-2.1.5")
    ap.add_argument("--build", type=Path, help="an earlier build of the folder to read")
    ap.add_argument("--models", type=int, help="every unit at N models (default: its minimum)")
    ap.add_argument("--points", type=int, help="every unit at the models N points buy")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    add_flag(ap)
    args = ap.parse_args()
    if args.build:
        rows = bench(args.build, args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            rows = bench(build_folder(args.folder, Path(tmp)), args)
    load = os.getloadavg()[0]
    notes = (
        f"Each matchup: every unit of one book against every unit of the next, "
        f"{'at ' + str(args.points) + ' points' if args.points else 'at minimum sizes'}, "
        f"{args.rounds} round(s) with Break Tests, {cores()} cores; load average {load:.1f} "
        "at the end (a shared machine: the spread is of runs on the same machine)."
    )
    header = ["matchup", "cells", "time (fastest-slowest)", "ms a cell", "not resolved"]
    publish(args, "Matchups of real army books", header, rows, notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
