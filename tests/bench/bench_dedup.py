"""Benchmark: `pipeline.dedup` against datasketch's MinHashLSH on one generated corpus.

    .venv/bin/python tests/bench/bench_dedup.py [-n 200000] [--seed 0]

Both tools run on the same segments, each in a forked child (so neither inherits the
other's garbage and each peak memory is its own). datasketch gets 128 permutations,
threshold 0.8, and word 3-shingles of the same normalised, lower-cased words our matching
key uses (computed before its clock starts, so its time is MinHash + LSH only); it inserts
and queries every paragraph, which is what finding all near duplicates takes.

On top of the generator's plants, `reword` copies replace, add or drop one ordinary
word (not a name, a number or a meaning word of `lang/<code>/reworded.yaml`, also once
folded by `synonyms.yaml`: "противника" reads as the meaning word "врага"): dedup should
call them `reworded`. A reworded join between two texts that were not planted as copies
of each other is counted as a distinct rule merged. About 0.3% of these plants are not one
word apart once the matching key has folded them, and are missed by design: a dropped
word leaves a doubled one that the key collapses ("as evenly as" -> "as as"), an inserted
filler doubles its neighbour (then `cosmetic`), or the word was half of a two-word
synonym ("that is" -> "i.e.").

Recall counts planted copies found: for us, in the original's cluster with the expected
relation; for datasketch, the original among the copy's LSH candidates. `distinct` plants
(another rule name) should *not* be found: the table shows how many were.

Every generated paragraph opens with a label of two rule names ("Name Name: body"), so
two texts that differ by one word there are two rules, not a rewording, even when the
word is also an ordinary word of the body or the label doubles a name ("Отряды Отряды:").
`--show N` prints the texts of the first N pairs counted as distinct rules merged, to
tell whether the reader or the generator is at fault.

Times are wall seconds and CPU seconds of the child: on a shared machine the wall clock
also counts waiting for a core, the CPU time does not.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import pickle
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish

from pipeline.dedup import REWORDED_MIN_WORDS, _meaning_words, dedup, lang_data
from pipeline.model import Segment
from pipeline.normalise import normalise
from tests.bench.gen import Corpus, Paragraph, Plant, generate

NUM_PERM = 128
THRESHOLD = 0.8
SHINGLE = 3
_WORD = re.compile(r"\w+")
_PLAIN = re.compile(r"(?<=\s)[a-zа-яё]{2,}(?=\s)")
FILLERS = {
    "en": ("also", "then", "still", "simply", "usually", "normally"),
    "ru": ("также", "тоже", "затем", "просто", "обычно", "сразу"),
}


def plant_rewordings(corpus: Corpus, share: float, seed: int) -> Corpus:
    """The corpus with `share` x its size more copies, each one ordinary word replaced,
    added or dropped (in turn), appended after everything else."""
    import random

    rng = random.Random(seed + 1)
    planted = {p.copy for p in corpus.plants}
    originals = [
        p
        for p in corpus.paragraphs
        if p.id not in planted and len(_WORD.findall(p.text)) >= REWORDED_MIN_WORDS + 2
    ]
    copies: list[Paragraph] = []
    plants: list[Plant] = []
    seen = {p.text for p in corpus.paragraphs}
    for k in range(int(len(corpus.paragraphs) * share)):
        source = rng.choice(originals)
        meaning, synonyms = _meaning_words(source.lang), lang_data(source.lang).synonyms
        spots = [
            m
            for m in _PLAIN.finditer(source.text)
            if synonyms.get(m.group(), m.group()) not in meaning
        ]
        if not spots:
            continue
        m = rng.choice(spots)
        filler = rng.choice([w for w in FILLERS[source.lang] if w != m.group()])
        how = k % 3
        if how == 0:  # replaced
            text = source.text[: m.start()] + filler + source.text[m.end() :]
        elif how == 1:  # dropped
            text = source.text[: m.start()] + source.text[m.end() + 1 :]
        else:  # added
            text = source.text[: m.start()] + filler + " " + source.text[m.start() :]
        if text in seen:
            continue
        seen.add(text)
        copy_id = f"{source.id}-reword{k}"
        copies.append(Paragraph(copy_id, source.lang, text))
        plants.append(Plant(source.id, copy_id, "reword", "reworded"))
    return Corpus(corpus.paragraphs + copies, corpus.plants + plants)


def segments_of(corpus: Corpus) -> list[Segment]:
    out = []
    for block, p in enumerate(corpus.paragraphs):
        text = normalise(p.text)
        out.append(
            Segment(
                id=p.id,
                drop="bench",
                file=f"gen-{p.lang}.txt",
                block=block,
                lines=(block + 1, block + 1),
                sha256=hashlib.sha256(text.encode()).hexdigest(),
                kind="paragraph",
                lang=p.lang,
                lang_confidence=1.0,
                raw=p.text,
                text=text,
            )
        )
    return out


def shingles(text: str) -> list[bytes]:
    words = _WORD.findall(text.casefold())
    if len(words) < SHINGLE:
        return [" ".join(words).encode()]
    return [" ".join(words[i : i + SHINGLE]).encode() for i in range(len(words) - SHINGLE + 1)]


def _peak_rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def in_child(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `work` in a forked child; return its result with seconds and peak memory (MiB)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read)
        with contextlib.suppress(OSError):  # reset the peak to now
            Path("/proc/self/clear_refs").write_text("5")
        start_rss = _rss_kib()
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        result["seconds"] = time.perf_counter() - start
        result["cpu_seconds"] = time.process_time() - start_cpu
        result["peak_mib"] = (_peak_rss_kib() - start_rss) / 1024
        with os.fdopen(write, "wb") as out:
            pickle.dump(result, out)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as inp:
        data = inp.read()
    os.waitpid(pid, 0)
    return pickle.loads(data)


def run_ours(
    corpus: Corpus, segments: list[Segment], show: int = 0
) -> Callable[[], dict[str, Any]]:
    def work() -> dict[str, Any]:
        start, start_cpu = time.perf_counter(), time.process_time()
        clusters = dedup(segments)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        where: dict[str, tuple[int, str]] = {}
        for n, c in enumerate(clusters):
            for m in c.members:
                where[m.segment.id] = (n, m.relation)
        found: Counter[str] = Counter()
        merged: list[tuple[str, str]] = []  # (original or canonical, copy or member)
        for p in corpus.plants:
            same = where[p.original][0] == where[p.copy][0]
            if p.expected == "distinct":
                found[p.edit] += same
                if same:
                    merged.append((p.original, p.copy))
            else:
                found[p.edit] += same and where[p.copy][1] == p.expected
        statuses = Counter(c.status for c in clusters)
        root = {p.copy: p.original for p in corpus.plants if p.expected != "distinct"}

        def origin(segment: str) -> str:
            while segment in root:
                segment = root[segment]
            return segment

        unplanted = [
            (c.canonical, m.segment.id)
            for c in clusters
            for m in c.members
            if m.relation == "reworded" and origin(m.segment.id) != origin(c.canonical)
        ]
        return {
            "found": found,
            "clusters": len(clusters),
            "statuses": statuses,
            "t": seconds,
            "cpu": cpu,
            "unplanted_reworded": len(unplanted),
            "merged": (merged + unplanted)[:show],
        }

    return work


def run_datasketch(corpus: Corpus, segments: list[Segment]) -> Callable[[], dict[str, Any]]:
    from datasketch import MinHash, MinHashLSH

    sets = [shingles(s.text) for s in segments]
    index = {s.id: i for i, s in enumerate(segments)}

    def work() -> dict[str, Any]:
        start, start_cpu = time.perf_counter(), time.process_time()
        lsh = MinHashLSH(threshold=THRESHOLD, num_perm=NUM_PERM)
        hashes = MinHash.bulk(sets, num_perm=NUM_PERM)
        with lsh.insertion_session() as session:
            for i, h in enumerate(hashes):
                session.insert(i, h, check_duplication=False)
        candidates = [lsh.query(h) for h in hashes]  # every document, as dedup needs
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        found: Counter[str] = Counter()
        for p in corpus.plants:
            found[p.edit] += index[p.original] in candidates[index[p.copy]]
        pairs = sum(len(c) - 1 for c in candidates) // 2
        return {"found": found, "pairs": pairs, "t": seconds, "cpu": cpu}

    return work


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--paragraphs", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plant-share", type=float, default=0.1)
    parser.add_argument("--ru-share", type=float, default=0.3)
    parser.add_argument("--reword-share", type=float, default=0.02)
    parser.add_argument("--skip-baseline", action="store_true")
    parser.add_argument("--show", type=int, default=0, help="print N distinct rules merged")
    add_flag(parser)
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    corpus = generate(args.paragraphs, args.seed, args.ru_share, args.plant_share)
    corpus = plant_rewordings(corpus, args.reword_share, args.seed)
    segments = segments_of(corpus)
    planted = Counter(p.edit for p in corpus.plants)
    expected = {p.edit: p.expected for p in corpus.plants}
    langs = Counter(s.lang for s in segments)
    print(
        f"corpus: {len(segments)} paragraphs ({dict(langs)}), {len(corpus.plants)} planted "
        f"copies, generated in {time.perf_counter() - t0:.1f}s"
    )

    ours = in_child(run_ours(corpus, segments, args.show))
    results = {"rulepipe dedup": ours}
    if not args.skip_baseline:
        results["datasketch MinHashLSH"] = in_child(run_datasketch(corpus, segments))

    edits = sorted(planted, key=lambda e: (expected[e] == "distinct", expected[e], e))
    head = f"{'':24}{'time s':>8}{'cpu s':>8}{'peak MiB':>10}" + "".join(f"{e:>13}" for e in edits)
    print()
    print(f"{'planted':24}{'':26}" + "".join(f"{planted[e]:>6} {expected[e]:>6}" for e in edits))
    print(head)
    for name, r in results.items():
        cells = "".join(f"{r['found'][e] / planted[e]:>13.4f}" for e in edits)
        print(f"{name:24}{r['t']:>8.2f}{r['cpu']:>8.2f}{r['peak_mib']:>10.0f}{cells}")
    print()
    for name, r in results.items():
        copies = [p for p in corpus.plants if p.expected != "distinct"]
        recall = sum(r["found"][e] for e in planted if expected[e] != "distinct") / len(copies)
        wrong = sum(r["found"][e] for e in planted if expected[e] == "distinct")
        print(
            f"{name}: recall of planted copies {recall:.4f}; "
            f"different rules (another name) merged/flagged: {wrong}/{planted['name']}"
        )
    print(f"rulepipe: {ours['clusters']} clusters, by status {dict(ours['statuses'])}")
    print(
        "rulepipe: reworded joins of texts not planted as copies of each other "
        f"(distinct rules merged): {ours['unplanted_reworded']}"
    )
    if "datasketch MinHashLSH" in results:
        base = results["datasketch MinHashLSH"]
        print(f"datasketch: {base['pairs']} candidate pairs (before any verification)")
        print(
            f"time ratio datasketch / rulepipe: {base['t'] / ours['t']:.2f}x wall, "
            f"{base['cpu'] / ours['cpu']:.2f}x CPU"
        )
    texts = {p.id: p.text for p in corpus.paragraphs}
    for a, b in ours["merged"]:
        print(f"\nmerged, distinct rules:\n  {a}: {texts[a]}\n  {b}: {texts[b]}")
    header = ["", "wall s", "CPU s", "peak MiB"]
    header += [f"{e} ({planted[e]:,} {expected[e]})" for e in edits]
    rows = [
        [name, f"{r['t']:.2f}", f"{r['cpu']:.2f}", f"{r['peak_mib']:,.0f}"]
        + [f"{r['found'][e] / planted[e]:.4f}" for e in edits]
        for name, r in results.items()
    ]
    notes = (
        f"{len(segments):,} generated paragraphs; each cell the share of planted copies found"
        " (for `distinct` plants, another rule's name, the share wrongly found)."
    )
    publish(args, "Near-duplicate search", header, rows, notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
