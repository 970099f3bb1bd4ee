"""Dice tables of the rule files: outcome probabilities with modifiers, natural results, chains.

A table (rule `table` object, schema `$defs/table`) has a die, rows by range of the modified
result, and rows keyed on the natural result that take precedence over the ranges. A natural row
with `when: modified` applies only when a modifier is in effect: LotOW's jump reads "if in the
result of such a jump [one with the -1] the die shows 1, roll on the Fall from Horse table",
while a plain natural 1 only refuses. A modified result below the first row reads the lowest
row (above the last, the highest), as players read these tables. A row's `chain` rolls another
table; the outcomes reported are those where the chain ends.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.dice import distribution, parse
from pipeline.interpret.rules import Build

MAX_CHAIN = 10
MODIFIED = "modified"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A final outcome of a table roll with its exact probability and the tables rolled."""

    outcome: str
    table: str
    path: tuple[str, ...]
    p: Fraction


def roll_table(
    build: Build,
    rule_id: str,
    modifier: int = 0,
    conditions: Collection[str] = (),
) -> list[Outcome]:
    """Exact probabilities of the final outcomes of rolling `rule_id` with `modifier`.

    `conditions` name situations that switch on the table's own modifiers (`when`).
    Outcomes reached along different paths are merged per (table, outcome).
    """
    acc: dict[tuple[str, str], Outcome] = {}
    _roll(build, rule_id, modifier, frozenset(conditions), Fraction(1), (), acc)
    return list(acc.values())


def _roll(
    build: Build,
    rule_id: str,
    modifier: int,
    conditions: frozenset[str],
    weight: Fraction,
    path: tuple[str, ...],
    acc: dict[tuple[str, str], Outcome],
) -> None:
    if rule_id in path or len(path) >= MAX_CHAIN:
        raise InputError(rule_id, f"table chain loops: {' -> '.join((*path, rule_id))}")
    rule = build.rule(rule_id)
    if rule.table is None:
        raise InputError(str(rule.path), f"rule {rule_id!r} has no table", "table")
    table = rule.table
    path = (*path, rule_id)
    total = modifier + sum(
        int(m["by"]) for m in table.get("modifiers", []) if m["when"] in conditions
    )
    rows = sorted(table["rows"], key=lambda r: r["range"][0])
    die = parse(str(table["die"]), source=str(rule.path))
    for natural, p in distribution(die):
        row = _natural_row(table.get("natural", []), natural, total, conditions)
        if row is None:
            row = _range_row(rows, natural + total, rule)
        if row.get("chain"):
            _roll(build, str(row["chain"]), 0, conditions, weight * p, path, acc)
            continue
        key = (rule_id, str(row["outcome"]))
        prev = acc.get(key)
        acc[key] = Outcome(key[1], rule_id, path, weight * p + (prev.p if prev else 0))


def _natural_row(
    natural_rows: list[dict[str, Any]], natural: int, total: int, conditions: frozenset[str]
) -> dict[str, Any] | None:
    for row in natural_rows:
        values = row["value"] if isinstance(row["value"], list) else [row["value"]]
        if natural not in values:
            continue
        when = row.get("when")
        if when is None or (when == MODIFIED and total != 0) or when in conditions:
            return row
    return None


def _range_row(rows: list[dict[str, Any]], result: int, rule: Any) -> dict[str, Any]:
    for row in rows:
        lo, hi = row["range"]
        if lo <= result <= hi:
            return row
    if result < rows[0]["range"][0]:
        return rows[0]
    if result > max(r["range"][1] for r in rows):
        return max(rows, key=lambda r: r["range"][1])
    raise InputError(
        str(rule.path), f"no row of the table covers a result of {result}", "table.rows"
    )


def table_conditions(build: Build, rule_id: str, path: tuple[str, ...] = ()) -> set[str]:
    """The situations (`when`) that the table and the tables it chains to switch on, so that
    a `--when` no table knows is refused rather than silently ignored."""
    if rule_id in path or len(path) >= MAX_CHAIN:
        return set()
    table = build.rule(rule_id).table or {}
    found = {str(m["when"]) for m in table.get("modifiers", [])}
    found |= {str(r["when"]) for r in table.get("natural", []) if r.get("when")}
    for row in table.get("rows", []):
        if row.get("chain"):
            found |= table_conditions(build, str(row["chain"]), (*path, rule_id))
    return found - {MODIFIED}
