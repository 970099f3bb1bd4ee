"""Every unit of one army against every unit of another: one combat per cell.

A cell is the scenario a user could have written (`attacker: {unit, models, charging}`,
`defender: {unit, models}`, front facing) and its result: the expected casualties of both
sides and the chances that the attacker wins, draws or loses the combat score after the
last round. Cells are independent, so they are spread over the cores (`parallel`); a unit
that cannot be resolved (a characteristic that is not a number, a rule file that does not
read) gives a cell with the reason instead of stopping the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.combat import combat_from_dict, mean, resolve_combat
from pipeline.interpret.limits import MAX_CELLS
from pipeline.interpret.rules import Build
from pipeline.interpret.scenario import Units
from pipeline.parallel import map_in_order

CELL_WEIGHT = 200  # a cell costs about as much as this many segments of a build
CONDITIONS = ("front-facing",)


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


@dataclass(frozen=True, slots=True)
class Matchup:
    attackers: list[dict[str, Any]]
    defenders: list[dict[str, Any]]
    models: int
    defender_models: int
    charging: bool
    rounds: int
    cells: list[Cell]


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


def scenario(
    attacker: str, defender: str, models: int, defender_models: int, charging: bool, rounds: int
) -> dict[str, Any]:
    return {
        "attacker": {"unit": attacker, "models": models, "charging": charging},
        "defender": {"unit": defender, "models": defender_models},
        "conditions": list(CONDITIONS),
        "rounds": rounds,
    }


def _solve(build: Build, units: Units, data: dict[str, Any]) -> Cell:
    att, dfd = data["attacker"]["unit"], data["defender"]["unit"]
    try:
        combat = combat_from_dict(data, build, "matchup", units)
        last = resolve_combat(combat, build)[-1]
    except (InputError, ValueError) as exc:  # a unit the rules data cannot resolve
        return Cell(att, dfd, data, error=str(exc))
    return Cell(
        att,
        dfd,
        data,
        mean(last.attacker_casualties),
        mean(last.defender_casualties),
        last.p_win(),
        last.p_draw(),
        last.p_lose(),
    )


def matchup(
    build: Build,
    attackers: Sequence[Mapping[str, Any]],
    defenders: Sequence[Mapping[str, Any]],
    models: int = 20,
    defender_models: int | None = None,
    charging: bool = True,
    rounds: int = 1,
    progress: Callable[[int, int], None] | None = None,
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
    items = [
        scenario(a["id"], d["id"], models, dm, charging, rounds)
        for a in attackers
        for d in defenders
    ]
    for u in [*attackers, *defenders]:  # read every rule once, before the workers fork
        for link in _links(u):
            with suppress(InputError):  # the cell says so
                build.effects([str(link["id"])])
    cells = map_in_order(
        lambda data: _solve(build, units, data),
        items,
        weights=[CELL_WEIGHT] * len(items),
        progress=progress,
    )
    return Matchup(list(attackers), list(defenders), models, dm, charging, rounds, cells)


def _links(unit: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    found = [*unit["rules"], *unit["equipment"]]
    found += [r for p in unit["parts"] for r in p["rules"]]
    found += [c for o in unit["options"] for c in o["choices"]]
    return [link for link in found if link.get("id")]


def _f(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


def matchup_json(m: Matchup) -> dict[str, Any]:
    """One JSON document: the units, the settings, and every cell with exact fractions."""
    return {
        "models": m.models,
        "defender_models": m.defender_models,
        "charging": m.charging,
        "rounds": m.rounds,
        "attackers": [{"id": u["id"], "name": u["name"]} for u in m.attackers],
        "defenders": [{"id": u["id"], "name": u["name"]} for u in m.defenders],
        "cells": [
            {
                "attacker": c.attacker,
                "defender": c.defender,
                "scenario": c.scenario,
                **(
                    {"error": c.error}
                    if c.error
                    else {
                        "attacker_casualties": _f(c.attacker_casualties),
                        "defender_casualties": _f(c.defender_casualties),
                        "p_win": _f(c.p_win),
                        "p_draw": _f(c.p_draw),
                        "p_lose": _f(c.p_lose),
                    }
                ),
            }
            for c in m.cells
        ],
    }
