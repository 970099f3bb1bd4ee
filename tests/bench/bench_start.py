"""Start-up time of the light commands: `--help`, `roll 3D6`, `charge` (median of N runs).

Usage: python tests/bench/bench_start.py [-n 7]
Prints the median wall time of each command and the modules it imported that a light
command should not need (spaCy, lingua, pymorphy3, jsonschema, lxml).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=7, help="runs per command (default: 7)")
    n = parser.parse_args().n
    for args in COMMANDS:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True)
            times.append(time.perf_counter() - start)
        label = " ".join(a for a in args if not a.startswith("/"))
        print(
            f"{label:45} median {statistics.median(times):.3f} s"
            f"  min {min(times):.3f} s  heavy: {', '.join(heavy_imports(args)) or 'none'}"
        )


if __name__ == "__main__":
    main()
