"""Peak memory of `rulepipe check --pairs` on pairs files at the input limit.

`check` keeps its pairs and findings in memory (its reports are streamed), so its memory
grows with the pairs a file can hold: the most pairs come with the shortest ones. Each
shape below fills a pairs file up to `--size` bytes (the input limit, `MAX_FILE_BYTES`, by
default) with distinct pairs, one in ten with a number changed, and runs the command in a
child; the table gives its wall time and largest resident set. docs/limits.md quotes it.

    .venv/bin/python tests/bench/bench_check_limit.py [--size BYTES] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from benchdoc import add_flag, compile_package, publish  # noqa: E402

from pipeline.files import MAX_FILE_BYTES  # noqa: E402

RULEPIPE = Path(sys.executable).parent / "rulepipe"


def _tiny(k: int) -> tuple[str, str]:
    return f"Go {k}.", f"Иди {k}."


def _sentence(k: int) -> tuple[str, str]:
    return (
        f"Models with Fear {k} suffer -1 Discipline until the end of the turn.",
        f"Модели со Страхом {k} получают -1 к Дисциплине до конца хода.",
    )


def _paragraph(k: int) -> tuple[str, str]:
    return (
        f"Rule {k}. A unit with this rule may reroll failed to-hit rolls of 1. It gains +1"
        " Strength in the first round of combat. Its Armour Penetration is not changed.",
        f"Правило {k}. Отряд с этим правилом может перебросить проваленные броски на"
        " попадание, равные 1. Он получает +1 к Силе в первом раунде боя. Его Пробивание"
        " брони не меняется.",
    )


SHAPES: dict[str, Callable[[int], tuple[str, str]]] = {
    "a short phrase": _tiny,
    "one sentence": _sentence,
    "four sentences": _paragraph,
}


def write_pairs(path: Path, shape: Callable[[int], tuple[str, str]], size: int) -> int:
    """Fill `path` with distinct pairs up to `size` bytes; return how many."""
    written = n = 0
    with path.open("wb") as out:
        while True:
            source, target = shape(n)
            if n % 10 == 9:
                target = target.replace("-1", "-2").replace("+1", "+2")
            row = {
                "id": f"p{n}",
                "source": source,
                "target": target,
                "source_lang": "en",
                "target_lang": "ru",
            }
            line = json.dumps(row, ensure_ascii=False).encode("utf-8") + b"\n"
            if written + len(line) > size:
                return n
            out.write(line)
            written += len(line)
            n += 1


def run_check(pairs: Path, folder: Path) -> tuple[float, int]:
    """Wall seconds and largest resident set (bytes) of one `check` child or any of
    its workers (`wait4` reports the largest of a child and the children it waited for)."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [str(RULEPIPE), "check", "--pairs", str(pairs), "-o", str(folder), "--fail-on", "never"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"check exited {child.returncode}: {child.stderr.read().decode()}")
    child.stderr.close()
    return wall, usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=MAX_FILE_BYTES, help="bytes of each file")
    add_flag(parser)
    args = parser.parse_args()
    compile_package()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, shape in SHAPES.items():
            pairs = Path(tmp) / "pairs.jsonl"
            n = write_pairs(pairs, shape, args.size)
            size = pairs.stat().st_size
            wall, peak = run_check(pairs, Path(tmp) / name.replace(" ", "-"))
            rows.append(
                [
                    name,
                    f"{n:,}",
                    f"{size / 1024**2:.1f}",
                    f"{peak / 1024**2:,.0f}",
                    f"{peak / size:.1f}",
                    f"{wall:.0f}",
                ]
            )
            print(*rows[-1], sep="\t", file=sys.stderr)
    publish(
        args,
        "Check at the input limit",
        ["pairs of", "pairs", "file MiB", "peak MiB", "peak / file", "wall s"],
        rows,
        "Each file is filled with distinct pairs up to the input limit (one in ten with a"
        " number changed) and checked by `rulepipe check --pairs` in a child: its wall time"
        " and the largest resident set of it or any of its workers (forked, they share"
        " pages with it).",
    )


if __name__ == "__main__":
    main()
