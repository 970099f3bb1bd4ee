"""A benchmark's table, printed and, with `--markdown`, written into docs/benchmarks.md.

Each benchmark owns one part of that file, headed by its title and script name; a run with
`--markdown` replaces its part whole (no history: git keeps it), with the command line, the
date and the machine it ran on. A script calls `add_flag(parser)` and then
`publish(args, title, header, rows, notes)`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
HEAD = """\
# Benchmarks

Each part below is written by the script it names (in `tests/bench/`, not run by the
tests), run with `--markdown`: a new run replaces its part. The machine is named with each
table; on a machine shared with other work the figures move from run to run, so compare
two versions of the code by running them alternately on the same machine.
"""


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--markdown",
        action="store_true",
        help=f"also write the table into {BENCHMARKS.relative_to(ROOT)}",
    )


def machine() -> str:
    """The processor, cores, memory, system and Python that the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        info = Path("/proc/cpuinfo").read_text()
        cpu = re.search(r"model name\s*:\s*(.+)", info).group(1).strip()  # type: ignore[union-attr]
        kib = int(re.search(r"MemTotal:\s*(\d+)", Path("/proc/meminfo").read_text()).group(1))  # type: ignore[union-attr]
        memory = f", {kib / 1024**2:.0f} GiB"
    except (OSError, AttributeError):
        memory = ""
    load = os.getloadavg()[0]
    return (
        f"{cpu}, {os.cpu_count()} cores{memory}, {platform.system()} {platform.release()},"
        f" Python {platform.python_version()}; load average {load:.1f} at the end"
    )


def compile_package() -> None:
    """Let the timed child commands read the package's bytecode, as an installed copy
    does: compile it now and drop a PYTHONDONTWRITEBYTECODE the shell may set, with which
    every run would compile the whole package again (seconds of a small build)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "pipeline")], check=True)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table; columns whose cells are numbers are aligned right."""
    numeric = [
        all(re.fullmatch(r"[-+]?[\d,.]+( \S+)?|", str(r[i])) for r in rows)
        for i in range(len(header))
    ]
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---:" if n else "---" for n in numeric) + "|")
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def publish(
    args: argparse.Namespace,
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    notes: str = "",
) -> None:
    """Print the table; with --markdown, also replace this script's part of benchmarks.md."""
    table = markdown_table(header, rows)
    print(table, end="")
    if notes:
        print(notes)
    if not getattr(args, "markdown", False):
        return
    script = Path(sys.argv[0]).name
    given = [os.path.relpath(a, ROOT) if os.path.isabs(a) else a for a in sys.argv[1:]]
    command = " ".join(["python", f"tests/bench/{script}", *given]).replace(" --markdown", "")
    date = datetime.date.today().isoformat()
    part = f"## {title} (`{script}`)\n\n`{command}`, {date}: {machine()}.\n\n{table}"
    if notes:
        part += f"\n{notes.strip()}\n"
    text = BENCHMARKS.read_text("utf-8") if BENCHMARKS.exists() else HEAD
    parts = re.split(r"(?m)^(?=## )", text)
    mine = [i for i, p in enumerate(parts) if p.startswith("## ") and f"(`{script}`)" in p]
    if mine:
        parts[mine[0]] = part + ("\n" if mine[0] < len(parts) - 1 else "")
    else:
        parts[-1] = parts[-1].rstrip("\n") + "\n\n"
        parts.append(part)
    BENCHMARKS.write_text("".join(parts), "utf-8")
    print(f"written: {BENCHMARKS.relative_to(ROOT)}")
