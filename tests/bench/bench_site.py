"""Benchmark of `rulepipe export --format site`: time, size and page count of the site of
the seed build and of a real army-builder drop (T9A 2.1.5 BattleScribe data, built as the
one drop of a temporary corpus). Each site is written in a child process (as a user runs
it), twice, to check that the same build gives the same bytes.

    .venv/bin/python tests/bench/bench_site.py [--t9a ../shared/data/t9a-2.1.5] [--markdown]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdoc import add_flag, compile_package, publish

ROOT = Path(__file__).resolve().parents[2]
# ../shared/data/t9a-2.1.5 beside the checkout (or beside a folder above it)
DEFAULT_T9A = next(
    (p / "shared" / "data" / "t9a-2.1.5" for p in ROOT.parents if (p / "shared" / "data").is_dir()),
    ROOT.parent / "shared" / "data" / "t9a-2.1.5",
)


def cli(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, check=True)
    return time.perf_counter() - start


def digest(folder: Path) -> tuple[int, int, str]:
    """Files, bytes, and one hash over every file's path and content."""
    h, files, size = hashlib.sha256(), 0, 0
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            h.update(str(p.relative_to(folder)).encode() + b"\0" + data)
            files, size = files + 1, size + len(data)
    return files, size, h.hexdigest()


def measure(name: str, corpus: Path, work: Path) -> list[object]:
    build = work / f"{name}-build"
    t_build = cli("build", str(corpus), "-o", str(build), "-q")
    sites = [work / f"{name}-site-{n}" for n in (1, 2)]
    times = [cli("export", "--format", "site", "--build", str(build), "-o", str(s)) for s in sites]
    (files, size, h1), (_, _, h2) = digest(sites[0]), digest(sites[1])
    pages = sum(1 for _ in sites[0].rglob("*.html"))
    largest = max(p.stat().st_size for p in sites[0].rglob("*.html"))
    return [name, f"{t_build:.1f}", f"{min(times):.1f}", pages, files, f"{size / 1024:,.0f}",
            f"{largest / 1024:,.0f}", "yes" if h1 == h2 else "NO"]  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t9a", type=Path, default=DEFAULT_T9A, help="folder of .gst/.cat files")
    add_flag(ap)
    args = ap.parse_args()
    compile_package()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        work = Path(tmp)
        rows.append(measure("seeds", ROOT / "corpus", work))
        if args.t9a.is_dir():
            corpus = work / "t9a-corpus"
            drop = corpus / "drops" / "t9a-2.1.5"
            drop.mkdir(parents=True)
            for f in sorted(args.t9a.iterdir()):
                if f.suffix in (".gst", ".cat", ".gstz", ".catz"):
                    shutil.copy(f, drop / f.name)
            for g in (ROOT / "corpus").glob("glossary.*"):
                shutil.copy(g, corpus / g.name)
            rows.append(measure("t9a-2.1.5", corpus, work))
        else:
            print(f"(no T9A data at {args.t9a})")
    header = ["corpus", "build s", "site s", "pages", "files", "size KiB", "largest page KiB",
              "same bytes"]  # fmt: skip
    notes = "The site written twice from one build, each in a new process; the faster time."
    publish(args, "Static site", header, rows, notes)


if __name__ == "__main__":
    main()
