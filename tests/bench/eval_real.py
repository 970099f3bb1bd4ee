"""Evaluation on real army-builder data: build it, count what executes, check attack cases.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/eval_real.py [FOLDER_OR_FILE ...]

By default every folder under ../shared/data/ is one corpus, each of its BattleScribe files
(.gst, .cat, .gstz, .catz) a drop of its own. Per file it prints the rules from that file,
its units, the share of its rules with effects to execute, and its unresolved references;
per corpus the build time and the attack cases below, each computed by the interpreter from
the rule files of the build and compared with the number worked out here from the rules of
T9A 2nd edition (a case whose rules the data lacks is skipped, not failed). The reading is
not fitted to one revision: point it at another revision's folder (BSData/The-9th-Age) and
it runs unchanged.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.build import build
from pipeline.build_folder import read_json
from pipeline.errors import InputError
from pipeline.interpret.attack import resolve, scenario_from_dict
from pipeline.interpret.rules import Build

REPO = Path(__file__).resolve().parents[2]
# ../shared/data beside the checkout (or beside the folder of worktrees), or RULEPIPE_DATA
DATA = Path(
    os.environ.get("RULEPIPE_DATA")
    or next(
        (str(p / "shared" / "data") for p in REPO.parents if (p / "shared" / "data").is_dir()),
        str(REPO.parent / "shared" / "data"),
    )
)
SUFFIXES = {".gst", ".cat", ".gstz", ".catz"}

# Base: 1 model, 1 attack, OS 4, S 3, AP 0, Agi 3 against DS 4, R 3, HP 1, Armour 0:
# to hit 4+ (1/2), to wound 4+ (1/2), no save.
BASE_ATT = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 3,
            "armour_penetration": 0, "agility": 3}  # fmt: skip
BASE_DEF = {"defensive_skill": 4, "resilience": 3, "health_points": 1, "armour": 0}


def case(
    name: str,
    measure: str,
    expected: F,
    att: list[str],
    dfd: list[str] = (),  # type: ignore[assignment]
    *,
    charging: bool = False,
    conditions: list[str] = (),  # type: ignore[assignment]
    attacker: dict[str, Any] | None = None,
    defender: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "measure": measure,
        "expected": expected,
        "scenario": {
            "attacker": BASE_ATT | (attacker or {}) | {"rules": att, "charging": charging},
            "defender": BASE_DEF | (defender or {}) | {"rules": list(dfd)},
            "conditions": list(conditions),
        },
    }


def shot(
    name: str,
    expected: F,
    att: list[str],
    dfd: list[str] = (),  # type: ignore[assignment]
    *,
    conditions: list[str] = (),  # type: ignore[assignment]
    defender: dict[str, Any] | None = None,
    measure: str = "hits",
) -> dict[str, Any]:
    """A shooting case: one shot at Aim 4+, Strength 3, against Resilience 3; measures hits."""
    return {
        "name": name,
        "measure": measure,
        "expected": expected,
        "scenario": {
            "mode": "shooting",
            "attacker": {"models": 1, "attacks": 1, "aim": 4, "strength": 3,
                         "armour_penetration": 0, "rules": att},
            "defender": {"resilience": 3, "health_points": 1, "armour": 0, "rules": list(dfd)}
                        | (defender or {}),
            "conditions": list(conditions),
        },
    }  # fmt: skip


CASES = [
    # S 5 (2+), AP 2 vs Armour 3: save 6+
    case("great weapon", "unsaved", F(1, 2) * F(5, 6) * F(5, 6), ["great-weapon"],
         defender={"armour": 3}),
    # no +1 to hit with a Great Weapon
    case("great weapon + lightning reflexes", "hits", F(1, 2),
         ["great-weapon", "lightning-reflexes"]),
    case("lightning reflexes", "hits", F(2, 3), ["lightning-reflexes"]),
    # S 4 (3+), AP 1 vs Armour 2: save 6+; a natural 6 to wound: AP 10
    case("halberd + lethal strike", "unsaved", F(1, 2) * (F(1, 6) + F(3, 6) * F(5, 6)),
         ["halberd", "lethal-strike"], defender={"armour": 2}),
    # Fortitude 4+, denied on a natural 6 to wound
    case("lethal strike vs fortitude", "unsaved", F(1, 2) * (F(1, 6) + F(2, 6) * F(1, 2)),
         ["lethal-strike"], ["fortitude(4+)"]),
    # lance, charging, front: S 5 (2+), AP 2 vs Armour 2: no save
    case("lance charging in front", "unsaved", F(1, 2) * F(5, 6), ["lance"],
         charging=True, conditions=["front-facing"], defender={"armour": 2}),
    # not charging: Armour 2 saves on 5+
    case("lance not charging", "unsaved", F(1, 2) * F(1, 2) * F(2, 3), ["lance"],
         conditions=["front-facing"], defender={"armour": 2}),
    # Devastating Charge (+1 Strength, Poison Attacks), charging: 1/6 + 2/6 * 2/3
    case("devastating charge with poison", "wounds", F(1, 6) + F(2, 6) * F(2, 3),
         ["devastating-charge(+1 Strength, Poison Attacks)"], charging=True),
    # Shield: Parry (DS 5 in the front) and Armour +1 (6+ save)
    case("shield in front", "unsaved", F(1, 2) * F(1, 2) * F(5, 6), [], ["shield"],
         conditions=["front-facing"]),
    # Paired Weapons: 2 attacks, OS 5, Parry ignored: 3+
    case("paired weapons vs shield", "unsaved", 2 * F(2, 3) * F(1, 2) * F(5, 6),
         ["paired-weapons"], ["shield"], conditions=["front-facing"]),
    case("hatred, first round", "hits", F(3, 4), ["hatred"], conditions=["first-round"]),
    case("hatred, later rounds", "hits", F(1, 2), ["hatred"]),
    case("poison attacks", "wounds", F(1, 6) + F(2, 6) * F(1, 2), ["poison-attacks"]),
    case("distracting defender", "hits", F(1, 3), [], ["distracting"]),
    # a natural 6 to hit is two hits: 2/6 + 2 * 1/6
    case("battle focus", "hits", F(2, 3), ["battle-focus"]),
    # Fortitude cannot be taken against Flaming Attacks
    case("flaming attacks vs fortitude", "unsaved", F(1, 4), ["flaming-attacks"],
         ["fortitude(4+)"]),
    # Aegis 4+ against Flaming Attacks only
    case("aegis against flaming, flaming", "unsaved", F(1, 8), ["flaming-attacks"],
         ["aegis(4+, against Flaming Attacks)"]),
    case("aegis against flaming, plain", "unsaved", F(1, 4), [],
         ["aegis(4+, against Flaming Attacks)"]),
    # shots at Aim 4+: long range -1 (5+), Accurate ignores it
    shot("shooting at long range", F(1, 3), [], conditions=["long-range"]),
    shot("accurate at long range", F(1, 2), ["accurate"], conditions=["long-range"]),
    shot("quick to fire, moving", F(1, 2), ["quick-to-fire"],
         conditions=["moving-and-shooting"]),
    shot("hard target", F(1, 3), [], ["hard-target"]),
    # cumulative: -1 for each instance
    shot("hard target twice", F(1, 6), [], ["hard-target", "hard-target"]),
    # Unwieldy: -1 more when moving (6+); Quick to Fire drops only the normal -1 (5+)
    shot("unwieldy, moving", F(1, 6), ["unwieldy"], conditions=["moving-and-shooting"]),
    shot("unwieldy + quick to fire, moving", F(1, 3), ["unwieldy", "quick-to-fire"],
         conditions=["moving-and-shooting"]),
    # Volley Fire ignores the Cover of intervening models only
    shot("volley fire, models' cover", F(1, 2), ["volley-fire"],
         conditions=["soft-cover", "intervening-models"]),
    shot("volley fire, other cover", F(1, 3), ["volley-fire"], conditions=["soft-cover"]),
    # Area Attack (1×5) on 20 models 5 wide: 4 ranks, a hit in each
    shot("area attack (1x5), 4 ranks", 4 * F(1, 2), ["area-attack(1×5)"],
         defender={"models": 20, "files": 5}),
    # from a flank: 5 files of 4, a hit in each
    shot("area attack (1x5), flank", 5 * F(1, 2), ["area-attack(1×5)"],
         conditions=["flank-facing"], defender={"models": 20, "files": 5}),
    # Penetrating: a hit per rank, at most 5: 8 ranks give 5
    shot("penetrating, 8 ranks", 5 * F(1, 2), ["penetrating"],
         defender={"models": 40, "files": 5}),
    # Breath Attack (Str 4, AP 1, Flaming Attacks): 2D6 hits (7), S 4 (3+), Fortitude ignored
    case("breath attack vs fortitude", "unsaved", 7 * F(2, 3),
         ["breath-attack(Str 4, AP 1, Flaming Attacks)"], ["fortitude(4+)"],
         attacker={"attacks": 0}),
    # Weapon Master takes Paired Weapons against R 3 (2 * 2/3 * 1/2), the Great Weapon
    # against R 5 and Armour 4 (1/2 * 1/2 * 2/3)
    case("weapon master vs R 3", "unsaved", F(2, 3),
         ["weapon-master", "great-weapon", "paired-weapons"]),
    case("weapon master vs R 5 A 4", "unsaved", F(1, 6),
         ["weapon-master", "great-weapon", "paired-weapons"],
         defender={"resilience": 5, "armour": 4}),
]  # fmt: skip

MEASURES: dict[str, Callable[[Any], F]] = {
    "hits": lambda r: r.hits.mean(),
    "wounds": lambda r: r.wounds.mean(),
    "unsaved": lambda r: r.unsaved_wounds.mean(),
}


def run_cases(out: Path) -> list[tuple[str, str, str]]:
    rows = []
    engine = Build(out)
    for c in CASES:
        try:
            scenario = scenario_from_dict(c["scenario"], c["name"])
            got = MEASURES[c["measure"]](resolve(scenario, engine))
        except InputError as exc:
            rows.append((c["name"], "skip", str(exc).split(";")[0][-80:]))
            continue
        status = "ok" if got == c["expected"] else "WRONG"
        rows.append((c["name"], status, f"{c['measure']} {got} (expected {c['expected']})"))
    return rows


def attack_time(out: Path, repeat: int = 20) -> float | None:
    """Best time of an attack with five rules a side, the build's rule files already read."""
    att = ["great-weapon", "lightning-reflexes", "lethal-strike", "hatred", "poison-attacks"]
    dfd = ["shield", "fortitude(4+)", "distracting", "parry", "aegis(5+)"]
    sc = case("five a side", "unsaved", F(0), att, dfd, conditions=["front-facing"])
    engine = Build(out)
    try:
        scenario = scenario_from_dict(sc["scenario"], "timing")
        resolve(scenario, engine)
    except InputError:
        return None
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        resolve(scenario, engine)
        best = min(best, time.perf_counter() - t)
    return best


def _cpu() -> float:
    """CPU seconds of this process and its finished workers (the build may use both cores)."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def evaluate(files: list[Path], label: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        for f in files:
            drop = corpus / "drops" / f.stem
            drop.mkdir(parents=True)
            shutil.copy(f, drop / f.name)
        t, cpu = time.perf_counter(), _cpu()
        try:
            build(corpus, Path(tmp) / "out")
        except InputError as exc:  # e.g. a game system with no rule texts yet
            print(f"== {label}: {len(files)} files, not built: {exc}")
            return
        took, cpu = time.perf_counter() - t, _cpu() - cpu
        out = Path(tmp) / "out"
        rules = read_json(out / "rules.json", "rules")
        units = read_json(out / "units.json", "units")
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(
            f"== {label}: {len(files)} files, build {took:.1f} s wall, {cpu:.1f} s CPU "
            f"(load average {load})"
        )
        print(f"{'file':<40} {'rules':>6} {'units':>6} {'executable':>11} {'unresolved':>11}")
        for f in files:
            mine = [
                r
                for r in rules
                if any(s["drop"] == f.stem for t_ in r["texts"].values() for s in t_["sources"])
            ]
            n_units = sum(1 for u in units if u["source"]["drop"] == f.stem)
            runs = sum(1 for r in mine if r["effects"])
            unresolved = sum(
                1 for r in mine for g in r["flags"] if g["flag"] == "unresolved-reference"
            )
            share = f"{runs / len(mine):.1%}" if mine else "-"
            print(f"{f.name:<40} {len(mine):>6} {n_units:>6} {share:>11} {unresolved:>11}")
        print("attack cases:")
        for name, status, detail in run_cases(out):
            print(f"  {status:<6} {name:<36} {detail}")
        best = attack_time(out)
        if best is not None:
            print(f"attack, five rules a side, after the build is read: {best * 1000:.2f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", type=Path, help=f"folders or files (default {DATA}/*)")
    args = ap.parse_args()
    paths = args.paths or sorted(p for p in DATA.iterdir() if p.is_dir())
    for path in paths:
        files = (
            sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
            if path.is_dir()
            else [path]
        )
        if files:
            evaluate(files, str(path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
