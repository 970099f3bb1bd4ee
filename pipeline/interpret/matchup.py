"""Every unit of one army against every unit of another: one combat per cell.

A cell is the scenario a user could have written (`attacker: {unit, models, charging}`,
`defender: {unit, models}`, front facing) and its result: the expected casualties of both
sides, the chances that the attacker wins, draws or loses the combat score, and that each
side has broken by the end of the last round (Break Tests after every round). Each unit
fights at its minimum size, at `models` when given, or with `points` at the most whole
models that cost no more (within its size); a unit whose rules forbid it to declare charges
does not charge. Cells are independent, so they are spread over the cores (`parallel`); a
unit that cannot be resolved gives a cell with the reason instead of stopping the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret import choices
from pipeline.interpret.combat import combat_from_dict, mean, not_played, resolve_combat
from pipeline.interpret.limits import MAX_CELLS
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units, effects_of
from pipeline.parallel import map_in_order

CELL_WEIGHT = 200  # a cell costs about as much as this many segments of a build
CONDITIONS = ("front-facing",)
BY = ("break", "score")  # what the grid is coloured by


@dataclass(frozen=True, slots=True)
class Size:
    """A unit's models in the matchup, what they cost, and why when it is not as asked."""

    models: int
    points: float | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    """One attacker unit against one defender unit."""

    attacker: str
    defender: str
    scenario: dict[str, Any]
    attacker_casualties: Fraction | None = None
    defender_casualties: Fraction | None = None
    p_win: Fraction | None = None
    p_draw: Fraction | None = None
    p_lose: Fraction | None = None
    error: str | None = None
    defender_broken: Fraction | None = None
    attacker_broken: Fraction | None = None
    defender_destroyed: Fraction | None = None
    attacker_destroyed: Fraction | None = None
    notes: tuple[str, ...] = ()

    def value(self, by: str) -> Fraction | None:
        """What the grid shows: P(the defender broken or destroyed) or P(win the score)."""
        if by == "score":
            return self.p_win
        if self.defender_broken is None or self.defender_destroyed is None:
            return None
        return self.defender_broken + self.defender_destroyed


@dataclass(frozen=True, slots=True)
class Matchup:
    attackers: list[dict[str, Any]]
    defenders: list[dict[str, Any]]
    models: int | None
    defender_models: int | None
    charging: bool
    rounds: int
    cells: list[Cell]
    points: int | None = None
    sizes: dict[str, Size] = field(default_factory=dict)
    books: tuple[str, str] = ("", "")


def pick(units: Units, what: str) -> list[dict[str, Any]]:
    """An army book (its catalogue name) or a comma-separated list of units."""
    try:
        return units.of_army(what)
    except InputError:
        if "," not in what and not any(u["id"] == what or u["name"] == what for u in units.all):
            books = sorted({u["source"]["file"].rsplit(".", 1)[0] for u in units.all})
            try:
                return [units.find(what, what)]
            except InputError as exc:
                raise InputError(what, f"{exc.what}; or an army book: {', '.join(books)}") from None
    return [units.find(name.strip(), what) for name in what.split(",") if name.strip()]


def book_title(units: Sequence[Mapping[str, Any]]) -> str:
    """The army books the units come from: the catalogue's name (its file's stem when the
    data gives none)."""
    books = {str(u["source"].get("book") or Path(u["source"]["file"]).stem): None for u in units}
    return ", ".join(books)


def size(unit: Mapping[str, Any], models: int | None = None, points: int | None = None) -> Size:
    """The unit's models: `models` when given, else the most whole models within its size
    that cost at most `points`, else its minimum size."""
    stated = unit.get("size") or {}
    low = int(stated.get("min") or 1)
    high = stated.get("max")
    cost = unit.get("points")
    if models is not None:
        price = choices.points(unit, models, [])
        return Size(models, price)
    if points is None or not cost:
        price = choices.points(unit, low, [])
        note = None if points is None else "the data states no points: its minimum size"
        return Size(low, price, note)
    base, per = float(cost["base"]), float(cost["per_model"])
    if base + per * low > points:
        price = choices.points(unit, low, [])
        return Size(low, price, f"its minimum size costs {price:g} points")
    n = low
    if per > 0:
        n = int((points - base) // per)
        n = max(low, n if high is None else min(int(high), n))
    elif high is not None:
        n = int(high)
    note = "conditional costs not counted" if cost.get("conditional") else None
    return Size(n, choices.points(unit, n, []), note)


def cannot_charge(unit: Mapping[str, Any], build: Build) -> str | None:
    """The rule that forbids the unit to declare charges (War Machine), if one does."""
    for link in _links(unit, options=False):
        with suppress(InputError):
            for e in effects_of(build, [str(link["id"])]):
                if e.op == "forbid" and e.get("action") == "declare-charge" and not e.get("when"):
                    return str(build.rule(e.rule).names.get("en") or e.rule)
    return None


def scenario(
    attacker: str, defender: str, models: int, defender_models: int, charging: bool, rounds: int
) -> dict[str, Any]:
    return {
        "attacker": {"unit": attacker, "models": models, "charging": charging},
        "defender": {"unit": defender, "models": defender_models},
        "conditions": list(CONDITIONS),
        "rounds": rounds,
    }


def _solve(build: Build, units: Units, item: tuple[dict[str, Any], tuple[str, ...]]) -> Cell:
    data, notes = item
    att, dfd = data["attacker"]["unit"], data["defender"]["unit"]
    try:
        combat = combat_from_dict(data, build, "matchup", units)
        last = resolve_combat(combat, build)[-1]
    except (InputError, ValueError) as exc:  # a unit the rules data cannot resolve
        return Cell(att, dfd, data, error=str(exc), notes=notes)
    return Cell(
        att,
        dfd,
        data,
        mean(last.attacker_casualties),
        mean(last.defender_casualties),
        last.p_win(),
        last.p_draw(),
        last.p_lose(),
        defender_broken=last.defender_broken,
        attacker_broken=last.attacker_broken,
        defender_destroyed=last.defender_casualties.get(combat.defender.models, Fraction(0)),
        attacker_destroyed=last.attacker_casualties.get(combat.attacker.models, Fraction(0)),
        notes=notes
        + (("a loser took no Break Test: Discipline no number",) if last.untestable else ()),
    )


def matchup(
    build: Build,
    attackers: Sequence[Mapping[str, Any]],
    defenders: Sequence[Mapping[str, Any]],
    models: int | None = None,
    defender_models: int | None = None,
    charging: bool = True,
    rounds: int = 1,
    progress: Callable[[int, int], None] | None = None,
    points: int | None = None,
    books: tuple[str, str] = ("", ""),
) -> Matchup:
    """Every attacker against every defender, cells in row order."""
    if len(attackers) * len(defenders) > MAX_CELLS:  # priced before any is fought
        raise InputError(
            "matchup",
            f"{len(attackers):,} attackers against {len(defenders):,} defenders make"
            f" {len(attackers) * len(defenders):,} combats; the limit is {MAX_CELLS:,}:"
            " name fewer units (a comma-separated list)",
        )
    units = Units(build)
    dm = defender_models or models
    sizes: dict[str, Size] = {}
    for u in attackers:
        sizes.setdefault(f"a:{u['id']}", size(u, models, points))
    for u in defenders:
        sizes.setdefault(f"d:{u['id']}", size(u, dm, points))
    held = {u["id"]: cannot_charge(u, build) for u in attackers} if charging else {}
    items = []
    for a in attackers:
        for d in defenders:
            sa, sd = sizes[f"a:{a['id']}"], sizes[f"d:{d['id']}"]
            rule = held.get(a["id"])
            notes = tuple(
                n
                for n in (
                    f"{a['name']} does not charge: {rule}" if rule else None,
                    f"{a['name']}: {sa.note}" if sa.note else None,
                    f"{d['name']}: {sd.note}" if sd.note else None,
                )
                if n
            )
            data = scenario(a["id"], d["id"], sa.models, sd.models, charging and not rule, rounds)
            items.append((data, notes))
    for u in [*attackers, *defenders]:  # read every rule once, before the workers fork
        for link in _links(u):
            with suppress(InputError):  # the cell says so
                build.effects([str(link["id"])])
    cells = map_in_order(
        lambda item: _solve(build, units, item),
        items,
        weights=[CELL_WEIGHT] * len(items),
        progress=progress,
    )
    return Matchup(
        list(attackers), list(defenders), models, dm, charging, rounds, cells, points, sizes, books
    )


def _links(unit: Mapping[str, Any], options: bool = True) -> list[Mapping[str, Any]]:
    found: list[Mapping[str, Any]] = [*unit["rules"], *unit["equipment"]]
    found += [r for p in unit["parts"] for r in p["rules"]]
    if options:
        found += [c for o in unit["options"] for c in o["choices"]]
    return [link for link in found if link.get("id")]


def _f(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def matchup_json(m: Matchup) -> dict[str, Any]:
    """One JSON document: the units with their sizes and points, the settings, and every
    cell with exact fractions."""

    def unit(u: Mapping[str, Any], side: str) -> dict[str, Any]:
        s = m.sizes.get(f"{side}:{u['id']}")
        out: dict[str, Any] = {"id": u["id"], "name": u["name"]}
        if s is not None:
            out["models"] = s.models
            out["points"] = s.points
        return out

    return {
        "models": m.models,
        "defender_models": m.defender_models,
        "points": m.points,
        "charging": m.charging,
        "rounds": m.rounds,
        "books": list(m.books),
        "attackers": [unit(u, "a") for u in m.attackers],
        "defenders": [unit(u, "d") for u in m.defenders],
        "not_played": not_played(),
        "cells": [
            {
                "attacker": c.attacker,
                "defender": c.defender,
                "scenario": c.scenario,
                **({"notes": list(c.notes)} if c.notes else {}),
                **(
                    {"error": c.error}
                    if c.error
                    else {
                        "attacker_casualties": _f(c.attacker_casualties),
                        "defender_casualties": _f(c.defender_casualties),
                        "p_win": _f(c.p_win),
                        "p_draw": _f(c.p_draw),
                        "p_lose": _f(c.p_lose),
                        "defender_broken": _f(c.defender_broken),
                        "attacker_broken": _f(c.attacker_broken),
                        "defender_destroyed": _f(c.defender_destroyed),
                        "attacker_destroyed": _f(c.attacker_destroyed),
                    }
                ),
            }
            for c in m.cells
        ],
    }


def cell_notes(cells: Iterable[Cell]) -> list[str]:
    """The notes of the cells, each once, in order."""
    return list(dict.fromkeys(n for c in cells for n in c.notes))
