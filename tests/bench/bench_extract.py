"""Benchmark extraction alone: names, kinds, keywords, quantities, tables and effects.

Reads a corpus generated from the seeds (tests/bench/corpus.py) at the given factors,
ingests it, and times `extract_all` over every segment, with the project glossary.
Prints paragraphs per second and the peak memory of the process.

    python tests/bench/bench_extract.py --factors 1 10 [--markdown]
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish  # noqa: E402

from corpus import make_corpus  # noqa: E402
from pipeline.build import extract_all  # noqa: E402
from pipeline.glossary import load_glossary  # noqa: E402
from pipeline.ingest import ingest  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factors", type=int, nargs="+", default=[1, 10])
    add_flag(ap)
    args = ap.parse_args()
    glossary = load_glossary(ROOT / "corpus" / "glossary.yaml")
    extract_all(ingest(ROOT / "corpus").segments, glossary)  # load spaCy, pymorphy3, patterns
    rows = []
    for factor in args.factors:
        with tempfile.TemporaryDirectory() as tmp:
            corpus = Path(tmp) / "corpus"
            make_corpus(corpus, factor)
            segments = ingest(corpus).segments
            start = time.perf_counter()
            facts = extract_all(segments, glossary)
            wall = time.perf_counter() - start
            assert len(facts) == len(segments)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            rate = len(segments) / wall
            rows.append([f"{factor}x", f"{len(segments):,}", f"{wall:.2f}", f"{rate:,.0f}",
                         f"{peak:,}"])  # fmt: skip
    header = ["corpus", "segments", "extract s", "segments/s", "peak MiB"]
    notes = "`extract_all` in this process (its workers from 3,000 segments a core)."
    publish(args, "Extraction", header, rows, notes)


if __name__ == "__main__":
    main()
