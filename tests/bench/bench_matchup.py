"""Time of whole-army matchups on real army books (every unit of one book against every unit
of another, one round each, both striking), spread over the cores.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/bench_matchup.py [FOLDER] [--build DIR] [--models N]

FOLDER (default ../shared/data/t9a-2.1.5) is built as one drop into a temporary folder (or
`--build DIR` reads an earlier build). Each army book then fights the next one in name
order (four books: four matchups), and the time per matchup and per cell is printed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_units import DATA, build_folder

from pipeline.interpret.matchup import matchup
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units
from pipeline.parallel import cores


def bench(out: Path, models: int) -> None:
    b = Build(out)
    units = Units(b)
    books = sorted({Path(u["source"]["file"]).stem for u in units.all})
    print(f"{len(books)} army books, {len(units.all)} units, {cores()} cores, {models} models")
    total = 0.0
    for i, book in enumerate(books):
        other = books[(i + 1) % len(books)]
        if other == book:
            continue
        att, dfd = units.of_army(book), units.of_army(other)
        start = time.perf_counter()
        m = matchup(b, att, dfd, models=models)
        took = time.perf_counter() - start
        total += took
        errors = sum(1 for c in m.cells if c.error)
        print(
            f"{book} ({len(att)}) against {other} ({len(dfd)}): {len(m.cells)} cells in "
            f"{took:.1f} s ({1000 * took / len(m.cells):.0f} ms a cell), {errors} not resolved"
        )
    print(f"all matchups: {total:.1f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DATA / "t9a-2.1.5")
    ap.add_argument("--build", type=Path, help="an earlier build of the folder to read")
    ap.add_argument("--models", type=int, default=20)
    args = ap.parse_args()
    if args.build:
        bench(args.build, args.models)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        bench(build_folder(args.folder, Path(tmp)), args.models)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
