"""Numbers the pages chart, computed by the interpreter on the build's own rule files:
table outcomes (with and without the table's modifiers, chains followed) and a worked
attack example (a reference scenario with and without a rule)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...files import read_data
from ...interpret.attack import Dist, resolve, scenario_from_dict
from ...interpret.rules import Build
from ...interpret.tables import roll_table

DATA = Path(__file__).resolve().parent / "scenario.yaml"


@dataclass(frozen=True, slots=True)
class TableRun:
    """One roll of a table: the `rulepipe table` arguments that give it, and its outcomes."""

    args: tuple[str, ...]
    caption: str
    outcomes: tuple[tuple[str, str, Fraction], ...]  # (table id, outcome, p)


def table_runs(build: Build, rule: dict[str, Any]) -> list[TableRun]:
    """The table without modifiers, with each of its own modifiers, and with all of them."""
    mods = [m for m in rule["table"].get("modifiers", []) if isinstance(m, dict)]
    variants: list[tuple[tuple[str, ...], str]] = [((), "no modifier")]
    whens = sorted({str(m["when"]) for m in mods if "when" in m})
    for when in whens:
        by = sum(int(m["by"]) for m in mods if m.get("when") == when)
        variants.append(((when,), f"when {when} ({by:+d})"))
    if len(whens) > 1:
        by = sum(int(m["by"]) for m in mods if "when" in m)
        variants.append((tuple(whens), f"when {' and '.join(whens)} ({by:+d})"))
    runs = []
    for conditions, caption in variants:
        try:
            outcomes = roll_table(build, rule["id"], 0, conditions)
        except InputError:
            return runs
        args = tuple(a for c in conditions for a in ("--when", c))
        runs.append(TableRun(args, caption, tuple((o.table, o.outcome, o.p) for o in outcomes)))
    return runs


@lru_cache(maxsize=1)
def reference() -> dict[str, Any]:
    return read_data(DATA)


@dataclass(frozen=True, slots=True)
class Example:
    """Casualties of the reference scenario without and with a rule on one side."""

    side: str
    ref: str
    scenario: dict[str, Any]
    without: Dist
    with_rule: Dist


def _casualties(doc: dict[str, Any], build: Build) -> Dist:
    return resolve(scenario_from_dict(doc, "reference scenario"), build).casualties


def attack_example(build: Build, rule: dict[str, Any], base: Dist) -> Example | None:
    """The reference fight with the rule on the attacker (or else the defender), when the
    rule changes its casualties; None for a rule that does not touch an attack."""
    ref = reference()
    ops = set(ref["ops"])
    if not any(isinstance(e, dict) and e.get("op") in ops for e in rule.get("effects") or ()):
        return None
    params = rule.get("params") or []
    if not params and "(" in str(rule.get("signature", "")):
        params = ["X"]
    refs = (
        [rule["id"]]
        if not params
        else [f"{rule['id']}({', '.join([v] * len(params))})" for v in ref["params"]]
    )
    for side in ("attacker", "defender"):
        for r in refs:
            doc = {k: (dict(v) if isinstance(v, dict) else v) for k, v in ref.items()}
            doc.pop("params")
            doc.pop("ops")
            doc[side]["rules"] = [r]
            try:
                dist = _casualties(doc, build)
            except (InputError, ValueError, KeyError, TypeError, ZeroDivisionError):
                continue
            if dist.items() != base.items():
                return Example(side, r, doc, base, dist)
    return None


def base_casualties(build: Build) -> Dist:
    doc = {k: v for k, v in reference().items() if k not in ("params", "ops")}
    return _casualties(doc, build)
