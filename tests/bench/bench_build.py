"""Benchmark `rulepipe build` on corpora many times the seeds' size.

Prints, per size: files, segments, wall time, segments per second, peak memory of the
build process. Run: .venv/bin/python tests/bench/bench_build.py --factors 10 100
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import make_corpus


def run_build(corpus: Path, out: Path) -> tuple[float, int]:
    """Build in a child process; return wall seconds and the child's peak RSS in MiB."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(out), "-q"]
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"build failed with status {status}")
    return wall, usage.ru_maxrss // 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--factors", type=int, nargs="+", default=[10, 100])
    args = ap.parse_args()
    print(f"{'factor':>7} {'files':>7} {'segments':>9} {'wall s':>8} {'seg/s':>8} {'peak MiB':>9}")
    for factor in args.factors:
        with tempfile.TemporaryDirectory() as tmp:
            corpus = make_corpus(Path(tmp) / "corpus", factor)
            out = Path(tmp) / "out"
            wall, peak = run_build(corpus, out)
            with (out / "segments.jsonl").open() as fh:
                segments = sum(1 for _ in fh)
            files = sum(1 for _ in (corpus / "drops").rglob("*.txt"))
            rate = segments / wall
            print(f"{factor:>7} {files:>7} {segments:>9} {wall:>8.2f} {rate:>8.0f} {peak:>9}")


if __name__ == "__main__":
    main()
