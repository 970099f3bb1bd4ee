"""Start-up time of the light commands: `--help`, `roll 3D6`, `charge` (median of N runs).

Usage: python tests/bench/bench_start.py [-n 7]
Prints the median wall time of each command twice: as this environment runs it (with
PYTHONDONTWRITEBYTECODE set, the package's modules are compiled on every run) and with the
bytecode cached, as an installed or once-run copy starts (a warm-up run fills a cache in a
temporary folder, PYTHONPYCACHEPREFIX). Then the modules each command imported that a
light command should not need (spaCy, lingua, pymorphy3, jsonschema, lxml, numpy).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = [
    ["--help"],
    ["roll", "3D6"],
    ["charge", "--distance", "12", "--advance", "7", "--build", str(ROOT / "output")],
    ["rules", "ricochet", "--build", str(ROOT / "output")],
]
HEAVY = ("spacy", "lingua", "pymorphy3", "jsonschema", "lxml", "numpy")


def heavy_imports(args: list[str]) -> list[str]:
    code = (
        "import sys, runpy; sys.argv = ['rulepipe', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('pipeline', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True
    )
    last = (done.stderr.strip().splitlines() or [""])[-1]
    return [m for m in last.split(",") if m in HEAVY]


def median_time(args: list[str], n: int, env: dict[str, str]) -> tuple[float, float, float]:
    """Median and least wall time, and median processor time (user + system) of the
    command: on a loaded machine the wall time varies with the other jobs; the least wall
    time and the processor time far less."""
    wall, cpu = [], []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, env=env
        )
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=7, help="runs per command (default: 7)")
    n = parser.parse_args().n
    here = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        cached = {k: v for k, v in here.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = cache
        print(f"{'median / min wall (median cpu)':45} {'as run here':>26}   {'cached':>24}"
              f"  (bytecode written here: "
              f"{'no' if here.get('PYTHONDONTWRITEBYTECODE') else 'yes'})")  # fmt: skip
        for args in COMMANDS:
            median_time(args, 1, cached)  # warm-up: fills the bytecode cache
            label = " ".join(a for a in args if not a.startswith("/"))
            cells = []
            for env in (here, cached):
                mid, least, cpu = median_time(args, n, env)
                cells.append(f"{mid:.3f} / {least:.3f} s ({cpu:.3f} s)")
            print(
                f"{label:45} {cells[0]:>26}   {cells[1]:>24}"
                f"  heavy: {', '.join(heavy_imports(args)) or 'none'}"
            )


if __name__ == "__main__":
    main()
