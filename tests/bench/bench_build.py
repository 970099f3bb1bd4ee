"""Benchmark `rulepipe build` on generated corpora and on real data folders.

Per corpus: files, segments, wall time (median and range of the runs), segments per second,
peak memory of the build process. A generated corpus is FACTOR copies of the seeds
(tests/bench/corpus.py); a data folder (`--data`, e.g. ../shared/data/t9a-2.1.5) is built
as the one drop of a temporary corpus with the project's glossary.

Run: .venv/bin/python tests/bench/bench_build.py --factors 10 100 --data DIR [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdoc import add_flag, compile_package, publish

from corpus import make_corpus

ROOT = Path(__file__).resolve().parents[2]


def run_build(corpus: Path, out: Path) -> tuple[float, int]:
    """Build in a child process; return wall seconds and the child's peak RSS in MiB."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(out), "-q"], cwd=ROOT
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"build failed with status {status}")
    return wall, usage.ru_maxrss // 1024


def data_corpus(folder: Path, dest: Path) -> Path:
    drop = dest / "drops" / folder.name
    drop.mkdir(parents=True)
    for f in sorted(folder.iterdir()):
        if f.is_file() and not f.name.startswith(".") and f.suffix.lower() != ".md":
            shutil.copy(f, drop / f.name)
    shutil.copy(ROOT / "corpus" / "glossary.yaml", dest / "glossary.yaml")
    return dest


def measure(name: str, corpus: Path, out: Path, runs: int) -> list[object]:
    walls, peaks = [], []
    for _ in range(runs):
        if out.exists():
            shutil.rmtree(out)
        wall, peak = run_build(corpus, out)
        walls.append(wall)
        peaks.append(peak)
    with (out / "segments.jsonl").open() as fh:
        segments = sum(1 for _ in fh)
    files = sum(1 for p in (corpus / "drops").rglob("*") if p.is_file())
    mid = statistics.median(walls)
    spread = f"{min(walls):.2f} to {max(walls):.2f}" if runs > 1 else ""
    return [name, files, f"{segments:,}", f"{mid:.2f}", spread, f"{segments / mid:,.0f}",
            f"{max(peaks):,}"]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--factors", type=int, nargs="*", default=[10, 100])
    ap.add_argument("--data", type=Path, nargs="*", default=[], help="folders of input files")
    ap.add_argument("--runs", type=int, default=1, help="builds of each corpus (default: 1)")
    add_flag(ap)
    args = ap.parse_args()
    compile_package()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for folder in args.data:
            corpus = data_corpus(folder.resolve(), Path(tmp) / f"data-{folder.name}")
            rows.append(measure(folder.name, corpus, Path(tmp) / "out", args.runs))
        for factor in args.factors:
            corpus = make_corpus(Path(tmp) / f"corpus-{factor}", factor)
            rows.append(measure(f"{factor}x seeds", corpus, Path(tmp) / "out", args.runs))
            shutil.rmtree(corpus)
    header = ["corpus", "files", "segments", "wall s", "range s", "segments/s", "peak MiB"]
    notes = (
        f"{args.runs} build(s) of each corpus, each in a new process into a new folder,"
        " the package's bytecode compiled."
    )
    publish(args, "Build", header, rows, notes)


if __name__ == "__main__":
    main()
