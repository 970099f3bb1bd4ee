"""Evaluation of units from real army books: can every unit fight?

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/eval_units.py [FOLDER] [--build DIR]

The BattleScribe files of FOLDER (default ../shared/data/t9a-2.1.5) are built as one drop
into a temporary folder (or `--build DIR` reads an earlier build). Every unit of every army
book is then put into a round of combat against a reference target (20 models, Offensive
and Defensive Skill 3, Strength and Resilience 3, 1 Health Point, no armour, 1 attack at
Agility 3), charging, 20 models a side unless it is a single model. A unit that cannot be
resolved is listed with the reason: a missing profile, a characteristic that is not a
number, a weapon or rule the build has no rule for, or an error of the combat itself.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from eval_real import DATA, SUFFIXES  # the same data folder and file kinds

from pipeline.build import build
from pipeline.errors import InputError
from pipeline.interpret.combat import combat_from_dict, mean, resolve_combat
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units

TARGET = {
    "models": 20,
    "attacks": 1,
    "offensive_skill": 3,
    "strength": 3,
    "armour_penetration": 0,
    "agility": 3,
    "defensive_skill": 3,
    "resilience": 3,
    "health_points": 1,
    "armour": 0,
}


def build_folder(folder: Path, work: Path) -> Path:
    drop = work / "corpus" / "drops" / folder.name
    drop.mkdir(parents=True)
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in SUFFIXES:
            shutil.copy(f, drop / f.name)
    build(work / "corpus", work / "out")
    return work / "out"


def unresolved_links(unit: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind of problem, name) for every weapon, option or rule the build has no rule for."""
    found = []
    for part in unit["parts"]:
        found += [("unresolved rule", r["name"]) for r in part["rules"] if r["id"] is None]
    found += [("unresolved rule", r["name"]) for r in unit["rules"] if r["id"] is None]
    found += [("unknown weapon", e["name"]) for e in unit["equipment"] if e["id"] is None]
    variants = {v["name"] for v in unit.get("variants") or []}
    for option in unit["options"]:
        found += [
            ("unknown option", c["name"])
            for c in option["choices"]
            if c["id"] is None and c["name"] not in variants and not c.get("combines")
        ]
    return sorted(set(found))


def evaluate(out: Path) -> int:
    b = Build(out)
    units = Units(b)
    problems: list[tuple[str, str, str, str]] = []
    fought = 0
    start = time.perf_counter()
    for unit in units.all:
        book = Path(unit["source"]["file"]).stem
        if not unit["parts"]:
            problems.append((book, unit["name"], "missing profile", "no model profile"))
            continue
        links = unresolved_links(unit)
        for kind, name in links:
            problems.append((book, unit["name"], kind, name))
        single = any(p["characteristics"].get("health_points", 1) != 1 for p in unit["parts"])
        data = {
            "attacker": {"unit": unit["id"], "models": 1 if single else 20, "charging": True},
            "defender": TARGET,
            "conditions": ["front-facing"],
        }
        try:
            combat = combat_from_dict(data, b, "eval", units)
            stated = {name for _, name in links}
            for note in combat.attacker.unresolved:  # a rule left out, with the reason
                if note not in stated:
                    problems.append((book, unit["name"], "unresolved rule", note))
            [r] = resolve_combat(combat, b)
            fought += 1
            _ = mean(r.defender_casualties)
        except InputError as exc:
            problems.append((book, unit["name"], "cannot fight", exc.what))
    took = time.perf_counter() - start
    print(f"units {len(units.all)}, fought a round {fought}, in {took:.1f} s")
    kinds = Counter(k for _, _, k, _ in problems)
    print("problems:", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")
    for book, name, kind, what in problems:
        print(f"  {book}: {name}: {kind}: {what}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", type=Path, default=DATA / "t9a-2.1.5")
    ap.add_argument("--build", type=Path, help="an earlier build of the folder to read")
    args = ap.parse_args()
    if args.build:
        return evaluate(args.build)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        out = build_folder(args.folder, Path(tmp))
        print(f"built {args.folder} in {time.perf_counter() - start:.1f} s")
        return evaluate(out)


if __name__ == "__main__":
    raise SystemExit(main())
