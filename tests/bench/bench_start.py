"""Start-up and fixed costs of the commands a user runs often, against a bare Python.

Usage: python tests/bench/bench_start.py [-n 7] [--markdown]
Each command runs once to fill a bytecode cache (PYTHONPYCACHEPREFIX in a temporary folder,
as an installed copy starts), then N times: the median and least wall time, the median
processor time (user + system), the median as a multiple of `python -c pass`, and the
heavy modules the command loaded (spaCy, lingua, pymorphy3, jsonschema, lxml, numpy,
icepool) that it may not need.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdoc import add_flag, publish

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = str(ROOT / "output")
HEAVY = ("spacy", "lingua", "pymorphy3", "jsonschema", "lxml", "numpy", "icepool")


def commands(pairs: Path) -> list[list[str]]:
    return [
        ["--help"],
        ["roll", "3D6"],
        ["table", "trudnaya-mestnost-i-prepyatstviya", "--build", OUTPUT],
        ["charge", "--distance", "12", "--advance", "7", "--build", OUTPUT],
        ["rules", "ricochet", "--build", OUTPUT],
        ["check", "--pairs", str(pairs), "--format", "text", "-o", str(pairs.parent / "checks")],
    ]


def ten_pairs(folder: Path) -> Path:
    """Ten pairs of the bundled examples, each with an id of its own."""
    lines = (ROOT / "corpus" / "examples" / "pairs.jsonl").read_text("utf-8").splitlines()
    path = folder / "pairs.jsonl"
    records = [json.loads(lines[i % len(lines)]) | {"id": f"p{i}"} for i in range(10)]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def heavy_imports(args: list[str], env: dict[str, str]) -> list[str]:
    code = (
        "import sys\nfrom pipeline.commands import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, env=env
    )
    last = (done.stderr.strip().splitlines() or [""])[-1]
    return [m for m in last.split(",") if m in HEAVY]


def timed(argv: list[str], n: int, env: dict[str, str]) -> tuple[float, float, float]:
    """Median and least wall time, and median processor time (user + system): on a loaded
    machine the wall time moves with the other jobs, the least and the processor time less."""
    wall, cpu = [], []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, capture_output=True, env=env)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=7, help="runs per command (default: 7)")
    add_flag(parser)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "cache")
        bare, bare_least, bare_cpu = timed([sys.executable, "-c", "pass"], args.n, env)
        rows.append(["`python -c pass`", f"{bare:.3f}", f"{bare_least:.3f}", f"{bare_cpu:.3f}",
                     "1.0", ""])  # fmt: skip
        for command in commands(ten_pairs(Path(tmp))):
            argv = [sys.executable, "-m", "pipeline", *command]
            timed(argv, 1, env)  # fills the bytecode cache
            mid, least, cpu = timed(argv, args.n, env)
            label = " ".join(a if not a.startswith("/") else Path(a).name for a in command)
            label = label.replace("pairs.jsonl", "10-pairs.jsonl")
            heavy = ", ".join(heavy_imports(command, env)) or "none"
            rows.append([f"`{label}`", f"{mid:.3f}", f"{least:.3f}", f"{cpu:.3f}",
                         f"{mid / bare:.1f}", heavy])  # fmt: skip
    header = ["command", "median s", "least s", "CPU s", "× bare Python", "heavy modules"]
    notes = f"{args.n} runs each, bytecode cached; `rulepipe` run as `python -m pipeline`."
    publish(args, "Start-up", header, rows, notes)


if __name__ == "__main__":
    main()
