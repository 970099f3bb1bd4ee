"""Evaluation of units from real army books: which units fight, at which sizes, and why any
cannot.

Not a test (pytest does not collect it). Run from the repository root:

    .venv/bin/python tests/bench/eval_units.py [FOLDER ...] [--git REPO:REV[:PREFIX] ...]
        [--build DIR] [--markdown]

Each FOLDER (default ../shared/data/t9a-2.1.5) and each `--git` revision (the `.cat` and
`.gst` files of a git repository at REV whose names start with PREFIX, e.g. the BSData
mirror at 238530b for every 2.1.5 book, or at HEAD with prefix `2nd-` for the 2024 books)
is built as one drop into a temporary folder (or `--build DIR` reads an earlier build).
Every unit of every army book then fights a round, at its minimum size from the data and
charging unless its rules forbid it, against a reference target (20 models, Offensive and
Defensive Skill 3, Strength and Resilience 3, 1 Health Point, no armour, 1 attack at Agility
3, Discipline 7), the loser taking a Break Test; every mount of a character fights the same
round; every unit with a shooting weapon shoots at the target with each of its weapons. A
unit that cannot is listed with the reason: the data states no model profile, a
characteristic that is not a number, a weapon or rule the build has no rule for, a
Discipline that is not a number (no Break Test), or an error of the combat itself.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish
from eval_real import DATA, SUFFIXES  # the same data folder and file kinds

from pipeline.build import build
from pipeline.errors import InputError
from pipeline.interpret.attack import resolve
from pipeline.interpret.combat import combat_from_dict, resolve_combat
from pipeline.interpret.matchup import cannot_charge
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units
from pipeline.interpret.shooting import shooting_scenario

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
    "discipline": 7,
}
SHOT_TARGET = {"models": 20, "resilience": 3, "health_points": 1, "armour": 0}


def build_folder(folder: Path, work: Path) -> Path:
    drop = work / "corpus" / "drops" / folder.name
    drop.mkdir(parents=True)
    for f in sorted(folder.iterdir()):
        if f.suffix.lower() in SUFFIXES:
            shutil.copy(f, drop / f.name)
    build(work / "corpus", work / "out")
    return work / "out"


def extract(spec: str, into: Path) -> list[Path]:
    """The army-book files of REPO at REV (names starting with PREFIX), a folder for each
    game system with its catalogues (a repository may hold another system's homebrew)."""
    repo, rev, *rest = spec.split(":")
    prefix = rest[0] if rest else ""
    names = subprocess.run(
        ["git", "-C", repo, "ls-tree", "--name-only", rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    folder = into / f"{rev}{' ' + prefix + '*' if prefix else ''}"
    folder.mkdir(parents=True)
    for name in names:
        if name.startswith(prefix) and Path(name).suffix.lower() in (".cat", ".gst"):
            data = subprocess.run(
                ["git", "-C", repo, "show", f"{rev}:{name}"], check=True, capture_output=True
            ).stdout
            (folder / name.replace("/", "_")).write_bytes(data)
    return by_system(folder)


def by_system(folder: Path) -> list[Path]:
    """The files of a folder split by game system: each `.gst` with the catalogues whose
    gameSystemId is its id (one folder when there is one game system)."""
    import re

    systems: dict[str, list[Path]] = {}
    for f in sorted(folder.iterdir()):
        head = f.read_bytes()[:2000].decode("utf-8", "replace")
        key = "gameSystemId" if f.suffix == ".cat" else "id"
        m = re.search(rf'<(?:catalogue|gameSystem)\b[^>]*?\s{key}="([^"]+)"', head)
        systems.setdefault(m.group(1) if m else "", []).append(f)
    if len(systems) == 1:
        return [folder]
    out = []
    for files in sorted(systems.values(), key=len, reverse=True):
        system = next((f.stem for f in files if f.suffix == ".gst"), "no game system")
        sub = folder.parent / f"{folder.name} ({system})"
        sub.mkdir()
        for f in files:
            shutil.copy(f, sub / f.name)
        out.append(sub)
    return out


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


def _fight(b: Build, units: Units, side: dict[str, Any]) -> Any:
    data = {"attacker": side, "defender": TARGET, "conditions": ["front-facing"]}
    combat = combat_from_dict(data, b, "eval", units)
    [r] = resolve_combat(combat, b)
    return combat, r


def _shots(b: Build, units: Units, unit: dict[str, Any]) -> tuple[int, list[str]]:
    """(weapons shot with, reasons a weapon could not be) for a unit's shooting weapons."""
    from pipeline.interpret.choices import weapon_kind

    links = [*unit["equipment"], *(c for o in unit["options"] for c in o["choices"])]
    links += [r for p in unit["parts"] for r in p["rules"]]
    weapons = sorted(
        {
            str(p["id"])
            for x in links
            for p in (x.get("combines") or [x])
            if p.get("id") and weapon_kind(b, str(p["id"])) == "ranged"
        }
    )
    shot, why = 0, []
    for w in weapons:
        data = {
            "mode": "shooting",
            "attacker": {"unit": unit["id"], "weapon": w},
            "defender": SHOT_TARGET,
        }
        try:
            scenario, _ = shooting_scenario(data, b, "eval", units)
            resolve(scenario, b)
            shot += 1
        except (InputError, ValueError) as exc:
            why.append(f"{w}: {getattr(exc, 'what', exc)}")
    return shot, why


def evaluate(out: Path, label: str) -> dict[str, Any]:
    """Every unit, mount and shooting weapon of a build tried; counts and reasons."""
    b = Build(out)
    units = Units(b)
    problems: list[tuple[str, str, str, str]] = []
    c: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    start = time.perf_counter()
    for unit in units.all:
        book = Path(unit["source"]["file"]).stem
        c["units"] += 1
        if not unit["parts"]:
            problems.append((book, unit["name"], "no model profile", "the data states none"))
            continue
        c["with profile"] += 1
        for kind, name in unresolved_links(unit):
            problems.append((book, unit["name"], kind, name))
        held = cannot_charge(unit, b)
        c["cannot charge"] += bool(held)
        size = unit.get("size") or {}
        sizes["1 model" if size.get("max") == 1 else f"{size.get('min')}+ models"] += 1
        try:
            combat, r = _fight(b, units, {"unit": unit["id"], "charging": not held})
            c["fought"] += 1
            c["break test"] += not r.untestable
            if r.untestable:
                problems.append((book, unit["name"], "no Break Test", "Discipline not a number"))
            stated = {name for _, name in unresolved_links(unit)}
            for note in combat.attacker.unresolved:  # a rule left out, with the reason
                if note not in stated:
                    problems.append((book, unit["name"], "unresolved rule", note))
        except (InputError, ValueError) as exc:
            problems.append((book, unit["name"], "cannot fight", getattr(exc, "what", str(exc))))
        for v in unit.get("variants") or []:
            if v.get("kind") != "mount":
                continue
            c["mounts"] += 1
            if not v["parts"]:
                problems.append((book, f"{unit['name']} on {v['name']}", "mount", "no profile"))
                continue
            try:
                _fight(b, units, {"unit": unit["id"], "mount": v["name"], "charging": True})
                c["mounts fought"] += 1
            except (InputError, ValueError) as exc:
                what = getattr(exc, "what", str(exc))
                problems.append((book, f"{unit['name']} on {v['name']}", "mount", what))
        shot, why = _shots(b, units, unit)
        c["shooting weapons"] += shot + len(why)
        c["shot"] += shot
        problems += [(book, unit["name"], "cannot shoot", w) for w in why]
    took = time.perf_counter() - start
    print(
        f"{label}: units {c['units']}, with a model profile {c['with profile']}, fought a round"
        f" {c['fought']} (Break Test {c['break test']}), mounts {c['mounts fought']} of "
        f"{c['mounts']}, shooting weapons {c['shot']} of {c['shooting weapons']}, cannot "
        f"charge {c['cannot charge']}; in {took:.1f} s"
    )
    print("  sizes:", ", ".join(f"{k} {n}" for k, n in sorted(sizes.items(), key=_size_key)))
    kinds = Counter(k for _, _, k, _ in problems)
    print("  problems:", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none")
    for book, name, kind, what in problems:
        print(f"    {book}: {name}: {kind}: {what}")
    return {"label": label, "counts": c, "problems": kinds, "reasons": _reasons(problems)}


def _size_key(item: tuple[str, int]) -> tuple[int, str]:
    first = item[0].split()[0].rstrip("+")
    return (int(first) if first.isdigit() else 0, item[0])


def _reasons(problems: Iterable[tuple[str, str, str, str]]) -> Counter[str]:
    """The reasons units cannot fight, by their first words (characteristic, no profile)."""
    out: Counter[str] = Counter()
    for _, _, kind, what in problems:
        if kind == "cannot fight":
            out[what.split(": ", 1)[-1].split(" is ")[0][:60]] += 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", type=Path)
    ap.add_argument("--git", action="append", default=[], metavar="REPO:REV[:PREFIX]")
    ap.add_argument("--build", type=Path, help="an earlier build to read")
    add_flag(ap)
    args = ap.parse_args()
    results = []
    if args.build:
        results.append(evaluate(args.build, str(args.build)))
    with tempfile.TemporaryDirectory() as tmp:
        sources = list(args.folders)
        sources += [f for spec in args.git for f in extract(spec, Path(tmp) / "git")]
        if not sources and not args.build:
            sources = [DATA / "t9a-2.1.5"]
        for n, folder in enumerate(sources):
            start = time.perf_counter()
            out = build_folder(folder, Path(tmp) / f"b{n}")
            print(f"built {folder} in {time.perf_counter() - start:.1f} s")
            results.append(evaluate(out, folder.name))
    rows = [
        [
            r["label"],
            r["counts"]["units"],
            r["counts"]["with profile"],
            r["counts"]["fought"],
            r["counts"]["break test"],
            f"{r['counts']['mounts fought']} of {r['counts']['mounts']}",
            f"{r['counts']['shot']} of {r['counts']['shooting weapons']}",
            r["counts"]["cannot charge"],
            ", ".join(f"{k} {n}" for k, n in r["reasons"].most_common(4)) or "-",
        ]
        for r in results
    ]
    header = [
        "army books",
        "units",
        "with a model profile",
        "fight a round",
        "with a Break Test",
        "mounts that fight",
        "shooting weapons that shoot",
        "cannot charge",
        "why a unit cannot fight (most common)",
    ]
    notes = (
        "Each unit at its minimum size, charging unless a rule forbids it, against 20 "
        "reference models (Off/Def/Str/Res 3, 1 HP, Dis 7), one round and a Break Test; "
        "each mount the same; each shooting weapon against the same models. A unit without "
        "a model profile is one the army-builder data gives no characteristics."
    )
    publish(args, "Units of real army books", header, rows, notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
