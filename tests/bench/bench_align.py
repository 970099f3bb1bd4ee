"""Benchmark: paragraph and sentence alignment of N Russian against N English paragraphs.

The paragraphs are generated from the seed Ricochet pair and the Russian test drop's
translations (tests/data/align/translations.yaml): each copy renumbers the template's
numbers the same way in both languages and adds a sentence with two random numbers, so
paragraphs of one template differ only in their numbers. The Russian side is shuffled into
a file of its own; the English side is a file of its own, so adjacency gives nothing.

Prints the time of extraction (for reference) and of alignment, peak memory, and the share
of Russian paragraphs linked to the English paragraph they were made from.

`--terms` makes a drop that numbers cannot align: only a share (`--sure`) of the copies get
numbers of their own, the others keep the template's numbers and differ from each other
only in the rule terms of the added sentence. It then compares alignment with no glossary
(one round), with the glossary a team would have (tests/data/align/glossary.yaml plus the
added sentence's terms), and bootstrapped (`pipeline.align.bootstrap`), printing precision
and recall of each and the rounds.

`--unseen` builds each drop of tests/data/align/unseen/ (an English chapter and a Russian
translation by another hand, shuffled, with look-alikes and near copies; bench/unseen.py)
as a new team would, with no glossary and with the terms its translators used, and prints
precision and recall per Russian paragraph, the rounds of the bootstrap and the mistakes
(the held-out drop's mistakes are counted, not listed).

    python tests/bench/bench_align.py -n 10000
    python tests/bench/bench_align.py --terms -n 600
    python tests/bench/bench_align.py --unseen
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchdoc import add_flag, publish  # noqa: E402

from pipeline.align.links import align  # noqa: E402
from pipeline.build import extract_all  # noqa: E402
from pipeline.dedup import dedup  # noqa: E402
from pipeline.ingest import make_segment  # noqa: E402
from pipeline.model import Block  # noqa: E402

SEEDS = ROOT / "corpus" / "drops" / "seed"
_NUMBER = re.compile(r"(?<![DdДК\d])\d+")
EXTRA = (
    'This applies within {a}" of the {who}, up to {b} times per {when}, {what}.',
    'Это действует в пределах {a}" от {who}, не более {b} раз за {when}, {what}.',
)
WHO = [
    ("General", "Генерала"),
    ("Battle Standard Bearer", "Носителя боевого знамени"),
    ("Wizard", "Мага"),
    ("Champion", "Чемпиона"),
    ("Character", "Персонажа"),
    ("War Machine", "Боевой машины"),
    ("Forest", "леса"),
    ("enemy unit", "вражеского отряда"),
    ("friendly unit", "дружественного отряда"),
    ("Board Edge", "края стола"),
]
WHEN = [
    ("game", "игру"),
    ("Player Turn", "ход игрока"),
    ("Round of Combat", "раунд боя"),
    ("Movement Phase", "фазу Движения"),
    ("Shooting Phase", "фазу Стрельбы"),
    ("Magic Phase", "фазу Магии"),
    ("Melee Phase", "фазу Ближнего боя"),
    ("Deployment", "Расстановку"),
]
WHAT = [
    ("unless the model is Fleeing", "если только модель не Бежит"),
    ("unless the unit is Engaged", "если только отряд не участвует в бою"),
    ("after rolling to hit", "после броска на попадание"),
    ("before rolling to wound", "до броска на ранение"),
    ("and the owner chooses the target", "и владелец выбирает цель"),
    ("ignoring Terrain", "игнорируя ландшафт"),
    ("even if the unit has Marched", "даже если отряд совершил Марш"),
    ("and Panic Tests are passed automatically", "и тесты на Панику проходятся автоматически"),
]


# The added sentence's rule terms in their dictionary forms, as a team's glossary has them.
TERMS = [
    ("General", "Генерал"),
    ("Battle Standard Bearer", "Носитель боевого знамени"),
    ("Wizard", "Маг"),
    ("Champion", "Чемпион"),
    ("Character", "Персонаж"),
    ("War Machine", "Боевая машина"),
    ("Player Turn", "ход игрока"),
    ("Round of Combat", "раунд боя"),
    ("Movement Phase", "фаза Движения"),
    ("Shooting Phase", "фаза Стрельбы"),
    ("Magic Phase", "фаза Магии"),
    ("Melee Phase", "фаза Ближнего боя"),
    ("Deployment", "Расстановка"),
    ("Fleeing", "Бежать"),
    ("Terrain", "ландшафт"),
    ("Marched", "Марш"),
    ("Panic Test", "тест на Панику"),
]


def templates() -> list[tuple[str, str]]:
    data = yaml.safe_load((ROOT / "tests/data/align/translations.yaml").read_text("utf-8"))
    english = [
        line for line in (SEEDS / "002_c7ff2043f171b6ae.txt").read_text("utf-8").splitlines()
    ]
    pairs = [
        (next(e for e in english if e.startswith(p["en"])), p["ru"])
        for p in data["pairs"]
        if p["en"]
    ]
    ricochet = (SEEDS / "000_745db052e7f633dc.txt").read_text("utf-8").strip()
    pairs.append((english[0], ricochet))
    return pairs


def renumber(text: str, mapping: dict[str, str]) -> str:
    return _NUMBER.sub(lambda m: mapping.get(m.group(), m.group()), text)


def generate(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    base = templates()
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        en, ru = base[len(out) % len(base)]
        numbers = sorted(set(_NUMBER.findall(en)) & set(_NUMBER.findall(ru)))
        mapping = {x: str(rng.randint(1, 30)) for x in numbers}
        a, b = rng.randint(2, 48), rng.randint(2, 40)
        who, when, what = rng.choice(WHO), rng.choice(WHEN), rng.choice(WHAT)
        en_extra = EXTRA[0].format(a=a, b=b, who=who[0], when=when[0], what=what[0])
        ru_extra = EXTRA[1].format(a=a, b=b, who=who[1], when=when[1], what=what[1])
        en_text = renumber(en, mapping) + " " + en_extra
        ru_text = renumber(ru, mapping) + " " + ru_extra
        if en_text in seen:
            continue
        seen.add(en_text)
        out.append((en_text, ru_text))
    return out


def generate_terms(n: int, seed: int, sure: float) -> list[tuple[str, str]]:
    """Copies of the templates; a share `sure` renumbered, the rest told apart by terms."""
    rng = random.Random(seed)
    base = templates()
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    while len(out) < n:
        en, ru = base[len(out) % len(base)]
        a, b = 6, 2
        if rng.random() < sure:
            numbers = sorted(set(_NUMBER.findall(en)) & set(_NUMBER.findall(ru)))
            mapping = {x: str(rng.randint(1, 30)) for x in numbers}
            en, ru = renumber(en, mapping), renumber(ru, mapping)
            a, b = rng.randint(2, 48), rng.randint(2, 40)
        who, when, what = rng.choice(WHO), rng.choice(WHEN), rng.choice(WHAT)
        en_text = en + " " + EXTRA[0].format(a=a, b=b, who=who[0], when=when[0], what=what[0])
        ru_text = ru + " " + EXTRA[1].format(a=a, b=b, who=who[1], when=when[1], what=what[1])
        if en_text in seen or ru_text in seen:
            continue
        seen.update((en_text, ru_text))
        out.append((en_text, ru_text))
    return out


def team_glossary() -> Path:
    """The glossary of the test drop plus the added sentence's terms (dictionary forms)."""
    import tempfile

    data = yaml.safe_load((ROOT / "tests/data/align/glossary.yaml").read_text("utf-8"))
    have = {form for t in data["terms"] for form in t["en"]}
    for en, ru in TERMS:
        if en not in have:
            data["terms"].append({"id": en.lower().replace(" ", "-"), "en": [en], "ru": [ru]})
    path = Path(tempfile.mkdtemp()) / "glossary.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


def score_links(links, clusters, truth) -> tuple[float, float]:
    canonical = {c.id: c.canonical for c in clusters}
    members = {c.canonical: {m.segment.id for m in c.members} for c in clusters}
    made = right = 0
    for link in links:
        if link.status == "linked" and link.source_cluster is not None:
            made += 1
            right += truth.get(link.target) in members[canonical[link.source_cluster]]
    foreign = sum(c.lang == "ru" for c in clusters)
    return right / max(made, 1), right / max(foreign, 1)


def main_terms(args: argparse.Namespace) -> None:
    from pipeline.align.bootstrap import bootstrap
    from pipeline.glossary import load_glossary

    pairs = generate_terms(args.n, args.seed, args.sure)
    order = list(range(len(pairs)))
    random.Random(args.seed + 1).shuffle(order)
    english = [
        make_segment("bench", "en.txt", i, Block("paragraph", en, (i, i), lang_hint="en"))
        for i, (en, _) in enumerate(pairs, start=1)
    ]
    russian = [
        make_segment("bench", "ru.txt", k, Block("paragraph", pairs[i][1], (k, k), lang_hint="ru"))
        for k, i in enumerate(order, start=1)
    ]
    truth = {russian[k].id: english[i].id for k, i in enumerate(order)}
    segments = tuple(english + russian)
    clusters = tuple(dedup(segments))
    plain = extract_all(segments, None)
    glossary = load_glossary(team_glossary())
    with_glossary = extract_all(segments, glossary)
    print(f"paragraphs      {len(english):,} en x {len(russian):,} ru, sure share {args.sure}")
    for name, run in (
        ("no glossary", lambda: (align(segments, clusters, plain), None)),
        ("team glossary", lambda: (align(segments, clusters, with_glossary), None)),
        ("bootstrapped", lambda: bootstrap(segments, clusters, plain)),
    ):
        t0 = time.perf_counter()
        links, rounds = run()
        took = time.perf_counter() - t0
        precision, recall = score_links(links, clusters, truth)
        print(f"{name:15} precision {precision:.4f}  recall {recall:.4f}  {took:6.2f} s")
        for r in rounds or ():
            print(
                f"{'':15} round {r['round']}: {r['terms']} terms,"
                f" {r['linked']} linked, gain {r['gain']:+d}"
            )


def main_unseen(args: argparse.Namespace) -> None:
    import tempfile

    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    from unseen import build_drop, drops, score_links

    rows = []
    for drop in drops():
        label = f"{drop.name} (held out)" if drop.held_out else drop.name
        rows.append([label])
        with tempfile.TemporaryDirectory() as tmp:
            for name, glossary in (
                ("no glossary", None),
                ("team glossary", drop.team_glossary(Path(tmp))),
            ):
                t0 = time.perf_counter()
                built = build_drop(drop, Path(tmp), glossary)
                took = time.perf_counter() - t0
                s = score_links(drop, built)
                rows[-1].append(
                    f"{s['precision']:.2f} / {s['recall']:.2f} ({s['right']} of {s['made']})"
                )
                print(
                    f"{label:20} {name:14} precision {s['precision']:.4f}"
                    f"  recall {s['recall']:.4f}  ({s['right']} right of {s['made']} linked,"
                    f" {s['wanted']} translating)  build {took:5.2f} s"
                )
                for r in s["rounds"] or ():
                    print(
                        f"{'':35} round {r['round']}: {r['terms']} terms,"
                        f" {r['linked']} linked, gain {r['gain']:+d}"
                    )
                if not drop.held_out:
                    for rid, want, got, status, score in s["mistakes"]:
                        print(f"{'':35} {rid}: wants {want}, got {got} ({status}, {score})")
    header = ["drop", "no glossary: P / R (right of linked)", "the team's terms as a glossary"]
    notes = (
        "Each drop has 32 translating paragraphs, 8 look-alikes and 2 near copies among its 40"
        " Russian ones (tests/data/align/unseen/). A held-out drop is reported by its counts"
        " only."
    )
    publish(args, "Unseen drops: alignment", header, rows, notes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10_000, help="paragraphs per language")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--terms", action="store_true", help="a drop told apart by terms")
    parser.add_argument("--sure", type=float, default=0.5, help="--terms: share renumbered")
    parser.add_argument("--unseen", action="store_true", help="the unseen drops of the tests")
    add_flag(parser)
    args = parser.parse_args()
    if args.unseen:
        main_unseen(args)
        return
    if args.terms:
        main_terms(args)
        return

    pairs = generate(args.n, args.seed)
    order = list(range(len(pairs)))
    random.Random(args.seed + 1).shuffle(order)
    english = [
        make_segment("bench", "en.txt", i, Block("paragraph", en, (i, i), lang_hint="en"))
        for i, (en, _) in enumerate(pairs, start=1)
    ]
    russian = [
        make_segment("bench", "ru.txt", k, Block("paragraph", pairs[i][1], (k, k), lang_hint="ru"))
        for k, i in enumerate(order, start=1)
    ]
    truth = {russian[k].id: english[i].id for k, i in enumerate(order)}
    segments = tuple(english + russian)

    t0 = time.perf_counter()
    clusters = tuple(dedup(segments))
    t1 = time.perf_counter()
    facts = extract_all(segments, None)
    t2 = time.perf_counter()
    links = align(segments, clusters, facts)
    t3 = time.perf_counter()

    canonical = {c.id: c.canonical for c in clusters}
    members = {c.canonical: {m.segment.id for m in c.members} for c in clusters}
    right = 0
    for link in links:
        if link.status == "linked" and link.source_cluster is not None:
            source = canonical[link.source_cluster]
            right += truth.get(link.target) in members[source]
    foreign = sum(c.lang == "ru" for c in clusters)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"paragraphs      {len(english):,} en x {len(russian):,} ru ({foreign:,} ru clusters)")
    print(f"dedup           {t1 - t0:8.2f} s")
    print(f"extract         {t2 - t1:8.2f} s  (not part of alignment; for reference)")
    print(f"align           {t3 - t2:8.2f} s  ({len(links) / (t3 - t2):,.0f} ru clusters/s)")
    print(f"linked right    {right:,} of {foreign:,} ({right / max(foreign, 1):.4f})")
    statuses = {s: sum(link.status == s for link in links) for s in ("linked", "ambiguous")}
    print(f"status          linked {statuses['linked']:,}, ambiguous {statuses['ambiguous']:,}")
    print(f"peak memory     {peak:,.0f} MiB")


if __name__ == "__main__":
    main()
