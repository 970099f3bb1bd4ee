"""Benchmark: the interpreter's attack chain against the same chain written directly in icepool.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/bench_attack.py [--repeat 5] [--attacks 10 40 100] [--markdown]

Scenario: N single-attack models, Offensive Skill 4 vs Defensive Skill 4 (4+ to hit),
Strength 4 vs Resilience 4 (4+ to wound), Armour 2 vs AP 0 (5+ save), Multiple Wounds (D3)
against Health Points 3. Both sides compute exact distributions of hits, wounds, unsaved
wounds and casualties; the script checks that they agree and prints the best of `--repeat`
timings. The engine's time includes reading and checking the rule files of a fresh build
(no caches of earlier runs are used for the chain itself).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import icepool

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish

from pipeline.interpret.attack import resolve, scenario_from_dict
from pipeline.interpret.rules import Build

HP = 3
MW_RULE = """id: multiple-wounds
kind: special-rule
names: {en: Multiple Wounds}
effects:
  - {op: multiple-wounds, amount: X}
"""


def direct_icepool(n: int) -> dict[str, icepool.Die]:
    """The same chain by hand in icepool: per-attack dice, sums, and a Markov chain."""
    d6, d3 = icepool.d6, icepool.d3
    hit = d6.map(lambda v: int(v >= 4))
    wound = icepool.map(lambda h, w: int(h >= 4 and w >= 4), d6, d6)
    chunk = icepool.map(
        lambda h, w, s, m: min(m, HP) if (h >= 4 and w >= 4 and s < 5) else 0, d6, d6, d6, d3
    )
    unsaved = chunk.map(lambda c: int(c > 0))

    def step(state: tuple[int, int], c: int) -> tuple[int, int]:
        kills, dmg = state
        if c == 0:
            return state
        if dmg + c >= HP:
            return (kills + 1, 0)
        return (kills, dmg + c)

    chain = icepool.map(step, icepool.Die([(0, 0)]), chunk, repeat=n, star=False)
    return {
        "hits": n @ hit,
        "wounds": n @ wound,
        "unsaved_wounds": n @ unsaved,
        "casualties": chain.map(lambda s: s[0], star=False),
    }


def engine(n: int, root: Path) -> dict[str, list[tuple[int, Fraction]]]:
    scenario = scenario_from_dict(
        {
            "attacker": {
                "models": n,
                "attacks": 1,
                "offensive_skill": 4,
                "strength": 4,
                "armour_penetration": 0,
                "agility": 3,
                "rules": ["multiple-wounds(D3)"],
            },
            "defender": {"defensive_skill": 4, "resilience": 4, "health_points": HP, "armour": 2},
        }
    )
    r = resolve(scenario, Build(root))
    return {k: getattr(r, k).items() for k in ("hits", "wounds", "unsaved_wounds", "casualties")}


def as_items(die: icepool.Die) -> list[tuple[int, Fraction]]:
    den = die.denominator()
    return [(int(v), Fraction(q, den)) for v, q in sorted(die.items()) if q]


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


FIVE_A_SIDE = {
    "attacker": {
        "models": 5, "attacks": 2, "offensive_skill": 4, "strength": 4,
        "armour_penetration": 0, "agility": 4, "charging": True,
        "rules": ["great-weapon", "lightning-reflexes", "lethal-strike", "hatred",
                  "devastating-charge(+1 Strength, Poison Attacks)"],
    },
    "defender": {
        "models": 10, "defensive_skill": 4, "resilience": 4, "health_points": 1, "armour": 2,
        "rules": ["shield", "fortitude(5+)", "distracting", "parry", "aegis(6+)"],
    },
    "conditions": ["front-facing", "first-round"],
}  # fmt: skip


def five_a_side(build: Path, repeat: int) -> float:
    """An attack with five rules on each side, after the build's rule files are read once."""
    engine_ = Build(build)
    scenario = scenario_from_dict(FIVE_A_SIDE, "five-a-side")
    resolve(scenario, engine_)  # reads and checks the rule files
    return 1e3 * best_of(lambda: resolve(scenario, engine_), repeat)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--attacks", type=int, nargs="+", default=[10, 40, 100])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument(
        "--build",
        type=Path,
        help="a build of real data (e.g. T9A 2.1.5): also time an attack with five rules a side",
    )
    add_flag(ap)
    args = ap.parse_args()
    notes = ""
    if args.build is not None:
        took = five_a_side(args.build, max(args.repeat, 20))
        notes = f"Five rules a side, 10 attacks, on a build of {args.build.name}: {took:.2f} ms."
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "rules").mkdir()
        (root / "rules" / "multiple-wounds.yaml").write_text(MW_RULE, encoding="utf-8")
        engine(1, root)  # import-time work (schema, core data) out of the timings
        for n in args.attacks:
            t_engine = best_of(lambda n=n: engine(n, root), args.repeat)
            t_direct = best_of(lambda n=n: direct_icepool(n), max(1, args.repeat // 2))
            ours = engine(n, root)
            theirs = {k: as_items(v) for k, v in direct_icepool(n).items()}
            same = all(ours[k] == theirs[k] for k in ours)
            rows.append([n, f"{t_engine * 1e3:.2f}", f"{t_direct * 1e3:.2f}",
                         f"{t_direct / t_engine:.1f}", "yes" if same else "NO"])  # fmt: skip
    header = ["attacks", "rulepipe ms", "icepool directly ms", "icepool / rulepipe", "same"]
    notes = (notes + f" Best of {args.repeat} runs each.").strip()
    publish(args, "Attack chain", header, rows, notes)


if __name__ == "__main__":
    main()
