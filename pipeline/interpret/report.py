"""Distributions as JSON (exact fraction strings) and as small text tables for people.

Probabilities are written as `"1/216"` so that a figure can be checked by hand and compared
exactly; the text view adds percentages. A distribution's table is drawn here, in rich's
box characters, so that `roll` and `charge` start without importing rich; the tables of
outcomes, whose texts may need wrapping, are rich's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pipeline.console import console
from pipeline.interpret.dice import distribution, mean
from pipeline.textsafe import terminal

if TYPE_CHECKING:  # only named in annotations: `roll` need not load the attack chain
    import icepool

    from pipeline.interpret.attack import AttackResult, Dist
    from pipeline.interpret.charge import Charge
    from pipeline.interpret.tables import Outcome
    from pipeline.interpret.weights import Weights


def frac(x: Fraction | int) -> str:
    """An exact probability or mean as a string: `1/216`, `21/2`, `1`."""
    return str(Fraction(x))


def dist_items(items: Iterable[tuple[int, Fraction]]) -> list[dict[str, Any]]:
    return [{"value": v, "p": frac(p)} for v, p in items]


def dist_block(d: Dist) -> dict[str, Any]:
    return {"distribution": dist_items(d.items()), "mean": frac(d.mean())}


def roll_json(
    expr: str, die: icepool.Die | Weights, p_all_equal: Fraction | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "expr": expr,
        "distribution": dist_items(distribution(die)),
        "mean": frac(mean(die)),
    }
    if p_all_equal is not None:
        out["p_all_equal"] = frac(p_all_equal)
    return out


def table_json(rule: str, modifier: int, outcomes: Sequence[Outcome]) -> dict[str, Any]:
    return {
        "rule": rule,
        "modifier": modifier,
        "outcomes": [
            {"outcome": o.outcome, "p": frac(o.p), "table": o.table, "path": list(o.path)}
            for o in outcomes
        ],
    }


def charge_json(c: Charge, advance: int, rules: Sequence[str]) -> dict[str, Any]:
    return {
        "distance": c.distance,
        "advance": advance,
        "rules": list(rules),
        "roll": c.expr,
        "p_success": frac(c.p_success),
        "distribution": dist_items(distribution(c.range)),
        "mean": frac(mean(c.range)),
    }


def attack_json(r: AttackResult) -> dict[str, Any]:
    cas = dist_block(r.casualties)
    cas["p_at_least"] = [{"value": k, "p": frac(p)} for k, p in r.casualties.p_at_least()]
    return {
        "hits": dist_block(r.hits),
        "wounds": dist_block(r.wounds),
        "unsaved_wounds": dist_block(r.unsaved_wounds),
        "casualties": cas,
        "sources": [
            {"name": s.name, "rolls_mean": frac(mean(s.count)), **dict(s.profile)}
            for s in r.sources
        ],
    }


# --- text -------------------------------------------------------------------------------------


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.2f}%"


def _short(p: Fraction, width: int = 20) -> str:
    """The exact fraction when it is readable; `--json` always has it in full."""
    text = frac(p)
    return text if len(text) <= width else f"≈{float(p):.6g}"


def _mean(avg: Fraction) -> str:
    """`14`, or `21/2 = 10.5`: the decimal only where it says something the fraction does not."""
    exact = _short(avg)
    return exact if avg.denominator == 1 or exact.startswith("≈") else f"{exact} = {float(avg):.4g}"


def print_distribution(title: str, items: Sequence[tuple[int, Fraction]], avg: Fraction) -> None:
    """Value, exact p, percent, and P(at least value), with the mean in the caption."""
    rows = [("value", "p", "%", "P(>= value)")]
    tail = Fraction(1)
    for v, p in items:
        rows.append((f"{v:,}", _short(p), _pct(p), _pct(tail)))
        tail -= p
    widths = [max(len(row[i]) for row in rows) for i in range(4)]

    def line(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    def cells(row: Sequence[str], bar: str) -> str:
        return bar + bar.join(f" {c:>{w}} " for c, w in zip(row, widths, strict=True)) + bar

    text = [title, line("┏", "━", "┳", "┓"), cells(rows[0], "┃"), line("┡", "━", "╇", "┩")]
    text += [cells(row, "│") for row in rows[1:]]
    text += [line("└", "─", "┴", "┘"), f"mean {_mean(avg)}"]
    print_lines(text)


def print_outcomes(
    title: str,
    outcomes: Sequence[Outcome],
    langs: Sequence[tuple[str, Sequence[str]]] = (),
) -> None:
    """One line per outcome; `langs` (code, words per outcome), when given, replaces the
    outcome column by one column per language."""
    from rich.table import Table

    table = Table(title=title)
    words = [col for col, _ in langs] or ["outcome"]
    cols = [*((w, "left") for w in words), ("table", "left"), ("p", "right"), ("%", "right")]
    for col, just in cols:
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for k, o in enumerate(outcomes):
        cells = [per[k] for _, per in langs] or [o.outcome]
        table.add_row(*cells, " -> ".join(o.path), _short(o.p), _pct(o.p))
    console().print(table)


def print_lines(lines: Iterable[str]) -> None:
    """Lines for a terminal: a unit's or a rule's name in them is shown as `terminal`
    spells it."""
    sys.stdout.write("".join(f"{terminal(line)}\n" for line in lines))
