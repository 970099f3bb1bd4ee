"""Is any build stage worse than linear? Builds of near-identical paragraphs at several sizes,
with each stage's time and memory per segment (from `build --timings`).

Two corpora per size N:

- `template`: N paragraphs of one template with their numbers varied (every one a near
  duplicate of every other: the worst case for near-duplicate search and alignment), in
  files of 100 paragraphs;
- `one-file`: the same N paragraphs in a single file (the worst case for per-file work:
  headings and tables read their neighbours, extraction is spread over files).

A linear stage keeps its ms per segment flat as N grows; the last column gives the ratio of
the largest size's ms per segment to the smallest's (about 1: linear; about the ratio of the
sizes: quadratic). Each build runs in a child process, one after the other.

    .venv/bin/python tests/bench/bench_linear.py --sizes 2500 5000 10000 20000 [--markdown]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish  # noqa: E402

from pipeline.build import STAGES  # noqa: E402

TEMPLATE = (
    "Models with Vanguard may move up to {a}″ after deployment. A unit with this rule"
    " gains +{b} Strength when it charges, and rolls {c}D6 for its Charge Range."
)
PER_FILE = 100


def paragraphs(n: int) -> list[str]:
    """N variants of one template: only the numbers differ."""
    return [TEMPLATE.format(a=3 + i % 20, b=1 + i // 20 % 3, c=2 + i // 60 % 2) for i in range(n)]


def write_corpus(folder: Path, n: int, one_file: bool) -> Path:
    drop = folder / "drops" / "linear"
    drop.mkdir(parents=True)
    paras = paragraphs(n)
    size = n if one_file else PER_FILE
    for k in range(0, n, size):
        text = "\n\n".join(f"§{k + i}. {p}" for i, p in enumerate(paras[k : k + size]))
        (drop / f"part{k // size:05d}.txt").write_text(text + "\n", "utf-8")
    return folder


def build(corpus: Path, out: Path) -> tuple[dict, float]:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(out), "-q", "--timings"],
        check=True,
        cwd=ROOT,
    )
    wall = time.perf_counter() - start
    return json.loads((out / "manifest.json").read_text("utf-8")), wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2500, 5000, 10000, 20000])
    add_flag(ap)
    args = ap.parse_args()
    table = []
    for shape in ("template", "one-file"):
        rows: dict[int, dict] = {}
        for n in args.sizes:
            with tempfile.TemporaryDirectory() as tmp:
                corpus = write_corpus(Path(tmp) / "corpus", n, shape == "one-file")
                manifest, wall = build(corpus, Path(tmp) / "out")
            rows[n] = manifest["timings"]["stages"]
            segs = manifest["counts"]["segments"]
            print(f"{shape} N={n:,}: {segs:,} segments, {wall:.1f} s wall", flush=True)
        print()
        print(f"{shape}: ms per segment (peak MiB at the stage's end)")
        print(f"{'stage':15}" + "".join(f"{n:>18,}" for n in args.sizes) + f"{'growth':>9}")
        for stage in STAGES:
            cells, per = [], []
            for n in args.sizes:
                t = rows[n][stage]
                ms = 1000 * t["seconds"] / max(t["segments"], 1)
                per.append(ms)
                cells.append(f"{ms:>9.3f} ({t['peak_mib']:>5.0f})")
            growth = per[-1] / per[0] if per[0] > 0 else float("nan")
            print(f"{stage:15}" + "".join(f"{c:>18}" for c in cells) + f"{growth:>8.1f}x")
            table.append([shape, stage, *(f"{ms:.3f}" for ms in per), f"{growth:.1f}"])
        print()
    header = ["corpus", "stage", *(f"ms/segment at {n:,}" for n in args.sizes), "growth"]
    notes = (
        "Growth: the largest size's ms per segment over the smallest's (about 1: linear)."
        " Each build in a child process with `--timings`."
    )
    publish(args, "Linear growth", header, table, notes)


if __name__ == "__main__":
    main()
