"""Scale benchmark: `rulepipe build` (and `check`, `diff` once they exist) on corpora of
1x, 10x, 100x, 1000x the seeds, generated with variation in every seed language.

Per command and size: wall time, CPU time and peak memory of the command's process (its
workers included: their CPU summed, the largest resident set of any of them), and the cost
per paragraph (segment), so that growth with the corpus shows. The manifest's accounting
must balance on every corpus (blocks = in rules + copies + unassigned); the script stops if
it does not.

Run: .venv/bin/python tests/bench/bench_scale.py --factors 1 10 100 [1000] [--markdown]
The 1000x corpus (~155,000 segments, ~80 MB) takes a few minutes on two cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdoc import add_flag, compile_package, publish

from corpus import make_corpus

ROOT = Path(__file__).resolve().parents[2]

# command -> its arguments, given the corpus, this build and the seeds' build. A command
# is measured only if `rulepipe COMMAND --help` succeeds, so new ones are one line here.
Args = Callable[[Path, Path, Path], list[str]]
COMMANDS: dict[str, Args] = {
    "build": lambda corpus, out, seeds: ["build", str(corpus), "-o", str(out), "-q"],
    "check": lambda corpus, out, seeds: [
        "check",
        "--build",
        str(out),
        "-o",
        str(out.parent / "checks"),
        "--fail-on",
        "never",
    ],
    "diff": lambda corpus, out, seeds: ["diff", str(seeds), str(out)],
}


@dataclass(frozen=True, slots=True)
class Run:
    wall: float
    cpu: float
    peak_kib: int


def run(args: list[str], quiet: bool = True) -> Run:
    """Run `python -m pipeline ARGS` in a child; wall and CPU seconds and its peak RSS (KiB)."""
    start = time.perf_counter()
    sink = subprocess.DEVNULL if quiet else None
    child = subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=sink)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: findings, for check
        raise SystemExit(f"rulepipe {' '.join(args)} failed with exit code {code}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)


def available(command: str) -> bool:
    probe = subprocess.run(
        [sys.executable, "-m", "pipeline", command, "--help"], cwd=ROOT, capture_output=True
    )
    return probe.returncode == 0


def balanced(out: Path) -> tuple[int, dict[str, int]]:
    """The segment count; raise if the manifest's accounting does not balance."""
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    acc = manifest["accounting"]
    total = acc["in_rules"] + acc["copies"] + acc["unassigned"]
    if not (acc["balanced"] and total == acc["blocks"] == manifest["counts"]["segments"]):
        raise SystemExit(f"{out}: accounting does not balance: {acc}")
    return acc["blocks"], {k: acc[k] for k in ("in_rules", "copies", "unassigned")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--factors", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--commands", nargs="+", default=list(COMMANDS), choices=list(COMMANDS))
    ap.add_argument("--tmp", type=Path, help="folder for corpora and outputs (default: a temp one)")
    add_flag(ap)
    args = ap.parse_args()
    compile_package()
    commands = [c for c in args.commands if available(c)]
    skipped = sorted(set(args.commands) - set(commands))
    print(f"load average at start: {os.getloadavg()[0]:.2f}; cores: {os.cpu_count()}")
    if skipped:
        print(f"not measured (no such command yet): {', '.join(skipped)}")
    rows: list[list[object]] = []
    if args.tmp is not None:
        args.tmp.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        base = Path(tmp)
        seeds_out = base / "seeds-out"
        run(COMMANDS["build"](ROOT / "corpus", seeds_out, seeds_out))
        for factor in args.factors:
            corpus = make_corpus(base / f"corpus-{factor}", factor)
            out = base / f"out-{factor}"
            files = sum(1 for p in (corpus / "drops").rglob("*") if p.is_file())
            segments = 0
            for command in commands:
                measured = run(COMMANDS[command](corpus, out, seeds_out))
                if command == "build":
                    segments, parts = balanced(out)
                    accounting = " + ".join(f"{v} {k}" for k, v in parts.items())
                else:
                    accounting = ""
                ms = 1000 * measured.wall / segments
                kib = measured.peak_kib / segments
                first = [f"{factor}x", f"{files:,}", f"{segments:,}"]
                if command != commands[0]:
                    first = ["", "", ""]
                rows.append([*first, command, f"{measured.wall:.1f}", f"{measured.cpu:.1f}",
                             f"{ms:.2f}", f"{measured.peak_kib / 1024:,.0f}", f"{kib:.1f}",
                             accounting])  # fmt: skip
                print("  ".join(str(c) for c in rows[-1]), flush=True)
            for path in (corpus, out):
                shutil.rmtree(path)
    header = ["corpus", "files", "segments", "command", "wall s", "CPU s", "ms/segment",
              "peak MiB", "KiB/segment", "accounting"]  # fmt: skip
    notes = (
        "Each command in a child process: its wall and CPU time (workers included) and the"
        " largest resident set of it or any worker. `check` runs on the build, `diff` against"
        " the seeds' build; the accounting is blocks in rules + copies + unassigned."
    )
    publish(args, "Scale", header, rows, notes)


if __name__ == "__main__":
    main()
