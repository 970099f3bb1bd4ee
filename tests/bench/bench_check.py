"""Benchmark of `rulepipe check` beside translate-toolkit's `pofilter` on the same pairs.

Pairs are generated from the labelled set's faithful translations of master paragraphs
(tests/data/checks/labelled.yaml): each copy gets its numbers changed alike on both sides
and a paragraph number, so that no two pairs have the same texts (no cache sees a repeat)
and most stay clean; one in ten gets one error injected (a number, a die, a homoglyph, a
dropped tag or sentence). The glossary is the project's, grown to `--terms` terms with
generated adjective-noun terms (English and inflectable Russian), as a team's would be.

Both tools run as commands on the same pairs: `rulepipe check --pairs FILE.jsonl
--glossary FILE.yaml` and `pofilter --language=ru` on a PO file of the pairs (with the
glossary's English words as its `--musttranslatefile`, pofilter's nearest to a glossary).
Each runs on all pairs and on ten of them; the difference is the time the pairs take
without either tool's start-up. The two tools run one after the other, so a loaded
machine slows both alike; `--rounds` repeats them and keeps each one's best time.

    .venv/bin/python tests/bench/bench_check.py -n 6000 [--markdown]
    .venv/bin/python tests/bench/bench_check.py -n 50000 --in-process   # run_checks alone
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

import yaml  # noqa: E402
from benchdoc import add_flag, compile_package, publish  # noqa: E402

from pipeline.check import Pair, run_checks  # noqa: E402
from pipeline.glossary import load_glossary  # noqa: E402
from tests.helpers.labelled import load_labelled  # noqa: E402

_NUM = re.compile(r"(?<![\w.])([1-9])(?![\d½])")
# Generated terms: every adjective with every noun, in both languages (Russian in the
# nominative; the checks match any inflected form).
_ADJECTIVES = [
    ("Heavy", "Тяжёлый"),
    ("Light", "Лёгкий"),
    ("Ancient", "Древний"),
    ("Iron", "Железный"),
    ("Sacred", "Священный"),
    ("Burning", "Горящий"),
    ("Silent", "Тихий"),
    ("Frozen", "Ледяной"),
    ("Wild", "Дикий"),
    ("Royal", "Королевский"),
    ("Black", "Чёрный"),
    ("Golden", "Золотой"),
    ("Hidden", "Скрытый"),
    ("Cursed", "Проклятый"),
]
_NOUNS = [
    ("Banner", "Знамя"),
    ("Shield", "Щит"),
    ("Spear", "Копьё"),
    ("Helmet", "Шлем"),
    ("Tower", "Башня"),
    ("River", "Река"),
    ("Forest", "Лес"),
    ("Wall", "Стена"),
    ("Gate", "Ворота"),
    ("Crown", "Корона"),
    ("Blade", "Клинок"),
    ("Horn", "Рог"),
    ("Stone", "Камень"),
]


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


def write_glossary(path: Path, size: int) -> int:
    """The project glossary grown to `size` terms; returns the number of terms written."""
    data = yaml.safe_load((ROOT / "corpus" / "glossary.yaml").read_text("utf-8"))
    terms = data["terms"]
    for (adj_en, adj_ru), (noun_en, noun_ru) in ((a, b) for a in _ADJECTIVES for b in _NOUNS):
        if len(terms) >= size:
            break
        terms.append(
            {
                "id": f"{adj_en}-{noun_en}".lower(),
                "en": [f"{adj_en} {noun_en}"],
                "ru": [f"{adj_ru} {noun_ru.lower()}"],
            }
        )
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return len(terms)


def write_inputs(folder: Path, pairs: list[Pair], name: str) -> tuple[Path, Path]:
    """The pairs as JSON Lines (rulepipe) and as a PO file (pofilter)."""
    from translate.storage import po

    jsonl = folder / f"{name}.jsonl"
    with jsonl.open("w", encoding="utf-8") as f:
        for p in pairs:
            row = {
                "id": p.id,
                "source": p.source,
                "target": p.target,
                "source_lang": p.source_lang,
                "target_lang": p.target_lang,
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    store = po.pofile()
    for p in pairs:
        unit = store.addsourceunit(p.source)
        unit.target = p.target
        unit.setcontext(p.id)
    po_file = folder / f"{name}.po"
    po_file.write_bytes(bytes(store))
    return jsonl, po_file


@dataclass
class Timing:
    wall: float
    cpu: float  # user + system of the command and its children


def timed(cmd: list[str]) -> Timing:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=False, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def commands(folder: Path, glossary: Path, musttranslate: Path) -> dict[str, object]:
    py = sys.executable
    pofilter = str(Path(py).with_name("pofilter"))

    def rulepipe(name: str) -> list[str]:
        return [
            *(py, "-m", "pipeline", "check", "--pairs", str(folder / f"{name}.jsonl")),
            *("--glossary", str(glossary), "-o", str(folder / f"out-{name}")),
            *("--format", "json", "--fail-on", "never"),
        ]

    def pofilter_cmd(name: str) -> list[str]:
        return [
            *(pofilter, "--language=ru", "--progress=none"),
            *("--musttranslatefile", str(musttranslate)),
            *("-i", str(folder / f"{name}.po"), "-o", str(folder / f"out-{name}.po")),
        ]

    return {"rulepipe check": rulepipe, "pofilter": pofilter_cmd}


def _children_cpu() -> float:
    """User and system seconds of the finished child processes (the check's workers)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def in_process(pairs: list[Pair], glossary_path: Path) -> None:
    glossary = load_glossary(glossary_path)
    run_checks(pairs[:50], glossary)  # warm the per-process caches
    # run_checks may fork workers: their CPU is counted with this process's
    start, cpu_start, kids = time.perf_counter(), time.process_time(), _children_cpu()
    report = run_checks(pairs, glossary)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start + _children_cpu() - kids
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    by_sev: dict[str, int] = {}
    for f in report.findings:
        by_sev[f.severity] = by_sev.get(f.severity, 0) + 1
    print(f"run_checks: {elapsed:.2f} s wall, {cpu:.2f} s CPU (workers included)")
    print(f"speed:      {len(pairs) / elapsed:,.0f} pairs/s wall")
    print(f"peak RSS:   {peak_mb:,.0f} MB")
    print(f"findings:   {len(report.findings):,} {by_sev}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=6000, help="number of pairs (default 6000)")
    ap.add_argument("--terms", type=int, default=180, help="glossary terms (default 180)")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each command (best kept)")
    ap.add_argument("--in-process", action="store_true", help="time run_checks alone, no commands")
    add_flag(ap)
    args = ap.parse_args()
    compile_package()
    pairs = generate(args.n)
    chars = sum(len(p.source) + len(p.target or "") for p in pairs)
    print(f"pairs:      {len(pairs):,} ({chars / len(pairs):.0f} characters a pair on average)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        glossary = folder / "glossary.yaml"
        print(f"glossary:   {write_glossary(glossary, args.terms)} terms")
        if args.in_process:
            in_process(pairs, glossary)
            return
        musttranslate = folder / "musttranslate.txt"
        words = {
            w
            for t in load_glossary(glossary).terms
            for f in t.renderings.get("en", ())
            for w in f.split()
        }
        musttranslate.write_text("\n".join(sorted(words)) + "\n", "utf-8")
        write_inputs(folder, pairs, "all")
        write_inputs(folder, pairs[:10], "ten")
        best: dict[tuple[str, str], Timing] = {}
        for _ in range(args.rounds):
            for tool, cmd in commands(folder, glossary, musttranslate).items():
                for name in ("ten", "all"):
                    t = timed(cmd(name))  # type: ignore[operator]
                    old = best.get((tool, name))
                    if old is None or t.wall < old.wall:
                        best[(tool, name)] = t
        findings = json.loads((folder / "out-all" / "checks.json").read_text("utf-8"))
        print(f"rulepipe findings: {len(findings.get('findings', []))}")
    n = len(pairs) - 10
    print()
    header = [
        "tool",
        "all wall s",
        "all CPU s",
        "start-up wall s",
        "start-up CPU s",
        "pairs/s wall",
        "pairs/s CPU",
    ]
    rows = []
    rate: dict[str, tuple[float, float]] = {}
    for tool in ("rulepipe check", "pofilter"):
        a, t = best[(tool, "all")], best[(tool, "ten")]
        wall_rate = n / max(a.wall - t.wall, 1e-9)
        cpu_rate = n / max(a.cpu - t.cpu, 1e-9)
        rate[tool] = (wall_rate, cpu_rate)
        rows.append(
            [
                tool,
                f"{a.wall:.2f}",
                f"{a.cpu:.2f}",
                f"{t.wall:.2f}",
                f"{t.cpu:.2f}",
                f"{wall_rate:,.0f}",
                f"{cpu_rate:,.0f}",
            ]
        )
    ours, theirs = rate["rulepipe check"], rate["pofilter"]
    end_to_end = best[("pofilter", "all")].wall / best[("rulepipe check", "all")].wall
    notes = (
        f"{len(pairs):,} pairs ({chars / len(pairs):.0f} characters a pair on average), best of"
        f" {args.rounds} run(s) of each command; start-up is the run on ten pairs."
        f" rulepipe / pofilter: {ours[0] / theirs[0]:.2f}x pairs/s wall,"
        f" {ours[1] / theirs[1]:.2f}x pairs/s CPU (start-up excluded); {end_to_end:.2f}x end"
        " to end."
    )
    publish(args, "Checks beside pofilter", header, rows, notes)


if __name__ == "__main__":
    main()
