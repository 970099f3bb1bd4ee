"""Benchmark of `pipeline.check.run_checks`: pairs per second and peak memory.

Pairs are generated from the labelled set's faithful translations of master paragraphs
(tests/data/checks/labelled.yaml): each copy gets its numbers changed alike on both sides
and a paragraph number, so that no two pairs have the same texts (no cache sees a repeat)
and most stay clean; one in ten gets one error injected (a number, a die, a homoglyph, a
dropped tag or sentence).

    .venv/bin/python tests/bench/bench_check.py -n 50000
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.check import Pair, run_checks  # noqa: E402
from pipeline.glossary import load_glossary  # noqa: E402
from tests.test_check_labelled import load_labelled  # noqa: E402

_NUM = re.compile(r"(?<![\w.])([1-9])(?![\d½])")


def _errors(rng: random.Random, target: str) -> str:
    kind = rng.randrange(5)
    if kind == 0:
        return _NUM.sub(lambda m: str(int(m.group(1)) % 9 + 1), target, count=1)
    if kind == 1:
        return target.replace("D6", "D3", 1).replace("D3+", "D6+", 1)
    if kind == 2:
        return target.replace("о", "o", 1)
    if kind == 3:
        return target.replace("[b]", "", 1)
    sentences = re.split(r"(?<=\.)\s+", target)
    if len(sentences) > 2:
        del sentences[rng.randrange(len(sentences))]
    return " ".join(sentences)


def generate(n: int, seed: int = 7) -> list[Pair]:
    rng = random.Random(seed)
    clean = [it.pair for it in load_labelled() if it.label is None]
    out = []
    for i in range(n):
        base = clean[i % len(clean)]

        def bump(m: re.Match[str], shift: int = i // len(clean)) -> str:
            return str(int(m.group(1)) + shift)

        source = f"§{i}. " + _NUM.sub(bump, base.source)
        target = f"§{i}. " + _NUM.sub(bump, base.target)
        if rng.random() < 0.1:
            target = _errors(rng, target)
        out.append(Pair(f"p{i}", source, target, "en", "ru"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=50_000, help="number of pairs (default 50000)")
    args = ap.parse_args()
    glossary = load_glossary(ROOT / "corpus" / "glossary.yaml")
    pairs = generate(args.n)
    chars = sum(len(p.source) + len(p.target or "") for p in pairs)
    distinct = len({(p.source, p.target) for p in pairs})
    # Warm the per-process caches (grammars, morphology, glossary index) on a few pairs.
    run_checks(pairs[:50], glossary)
    start, cpu_start = time.perf_counter(), time.process_time()
    report = run_checks(pairs, glossary)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    by_sev: dict[str, int] = {}
    for f in report.findings:
        by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
    print(
        f"pairs:      {len(pairs):,} ({distinct:,} distinct;"
        f" {chars / len(pairs):.0f} characters a pair on average)"
    )
    print(f"time:       {elapsed:.1f} s wall, {cpu:.1f} s CPU (the machine may be shared)")
    print(
        f"speed:      {len(pairs) / elapsed:,.0f} pairs/s wall, {len(pairs) / cpu:,.0f} pairs/s CPU"
    )
    print(f"peak RSS:   {peak_mb:,.0f} MB")
    print(f"findings:   {len(report.findings):,} {by_sev}")


if __name__ == "__main__":
    main()
