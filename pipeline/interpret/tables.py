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
from pipeline.interpret import limits
from pipeline.interpret.dice import distribution, parse
from pipeline.interpret.limits import MAX_TABLE_CHAIN
from pipeline.interpret.rules import Build

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
    Outcomes reached along different paths are merged per (table, outcome); each keeps the
    path of the last roll (in face order) that reached it.
    """
    conds = frozenset(conditions)
    check_tables(build, rule_id)
    memo: dict[tuple[str, int], _Rolled] = {}
    rolled = _roll(build, rule_id, modifier, conds, (), memo)
    return [Outcome(key[1], key[0], path, p) for key, (p, path, _) in rolled.outcomes.items()]


@dataclass(slots=True)
class _Rolled:
    """The final outcomes of one table (with one modifier), chains followed: per (table,
    outcome) its probability, the path from this table, and the face order of its last
    visit; `height` is the number of tables the longest chain rolls."""

    outcomes: dict[tuple[str, str], tuple[Fraction, tuple[str, ...], int]]
    height: int


def _roll(
    build: Build,
    rule_id: str,
    modifier: int,
    conditions: frozenset[str],
    path: tuple[str, ...],
    memo: dict[tuple[str, int], _Rolled],
) -> _Rolled:
    """A table rolled once per (table, modifier): a chained table is computed the first time
    it is reached and reused, its outcomes weighted by every face that leads to it at once."""
    if rule_id in path or len(path) >= MAX_TABLE_CHAIN:
        raise InputError(rule_id, f"table chain loops: {' -> '.join((*path, rule_id))}")
    known = memo.get((rule_id, modifier))
    if known is not None:
        if len(path) + known.height > MAX_TABLE_CHAIN:
            raise InputError(rule_id, f"table chain loops: {' -> '.join((*path, rule_id))}")
        return known
    rule = build.rule(rule_id)
    if rule.table is None:
        raise InputError(str(rule.path), f"rule {rule_id!r} has no table", "table")
    table = rule.table
    here = (*path, rule_id)
    total = modifier + sum(
        int(m["by"]) for m in table.get("modifiers", []) if m["when"] in conditions
    )
    rows = sorted(table["rows"], key=lambda r: r["range"][0])
    die = parse(str(table["die"]), source=str(rule.path))
    # first pass: what each face leads to; chains summed per table, with their last face
    faces: list[tuple[int, Fraction, dict[str, Any]]] = []
    chained: dict[str, tuple[Fraction, int]] = {}
    for i, (natural, p) in enumerate(distribution(die)):
        row = _natural_row(table.get("natural", []), natural, total, conditions)
        if row is None:
            row = _range_row(rows, natural + total, rule)
        faces.append((i, p, row))
        if row.get("chain"):
            target = str(row["chain"])
            chained[target] = (chained.get(target, (Fraction(0), i))[0] + p, i)
    out: dict[tuple[str, str], tuple[Fraction, tuple[str, ...], int]] = {}
    height = 1

    def add(key: tuple[str, str], p: Fraction, where: tuple[str, ...], last: int) -> None:
        prev = out.get(key)
        if prev is None:
            out[key] = (p, where, last)
        else:  # the path of the later visit, as a roll in face order would meet them
            out[key] = (prev[0] + p, where if last >= prev[2] else prev[1], max(last, prev[2]))

    for i, p, row in faces:
        target = str(row.get("chain") or "")
        if not target:
            add((rule_id, str(row["outcome"])), p, (rule_id,), i)
            continue
        weight, last = chained.pop(target, (None, i))
        if weight is None:
            continue  # this table's outcomes were added at its first face
        sub = _roll(build, target, 0, conditions, here, memo)
        height = max(height, 1 + sub.height)
        for key, (q, where, _) in sub.outcomes.items():
            add(key, weight * q, (rule_id, *where), last)
    rolled = _Rolled(out, height)
    memo[(rule_id, modifier)] = rolled
    return rolled


def check_tables(build: Build, rule_id: str) -> None:
    """Price a table roll before it is made: every table it reaches rolled once, each merging
    the outcomes of the tables it chains to."""
    seen: dict[str, tuple[int, int, int]] = {}  # table -> (faces, chained tables, rows)
    todo = [rule_id]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        table = build.rule(current).table or {}
        chains = {str(r["chain"]) for r in table.get("rows", []) if r.get("chain")}
        chains |= {str(r["chain"]) for r in table.get("natural", []) if r.get("chain")}
        die = parse(str(table.get("die", "D6")), source=str(build.rule(current).path))
        seen[current] = (len(die), len(chains), len(table.get("rows", ())))
        todo.extend(chains)
    rows = sum(r for _, _, r in seen.values())
    limits.check_steps(
        limits.table_steps([(faces, chains) for faces, chains, _ in seen.values()], rows),
        f"table {rule_id}",
        rule_id,
    )


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


def table_conditions(build: Build, rule_id: str) -> set[str]:
    """The situations (`when`) that the table and the tables it chains to switch on, so that
    a `--when` no table knows is refused rather than silently ignored. Each table is read
    once, however many rows lead to it."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [rule_id]
    while todo:
        current = todo.pop()
        if current in seen or len(seen) > MAX_TABLE_CHAIN * MAX_TABLE_CHAIN:
            continue
        seen.add(current)
        table = build.rule(current).table or {}
        found |= {str(m["when"]) for m in table.get("modifiers", [])}
        found |= {str(r["when"]) for r in table.get("natural", []) if r.get("when")}
        todo.extend(str(row["chain"]) for row in table.get("rows", []) if row.get("chain"))
    return found - {MODIFIED}
