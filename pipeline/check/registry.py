"""The check registry: each check declared once, by a decorator on the function that runs it.

A declaration gives the check's id, its severity (the worst a finding of it can be: what
`--fail-on` may stop on), its scope and one line saying what it finds. The runner takes the
checks from here; `CHECK_IDS`, the reports' legends and the table of docs/checks.md are made
from the same declarations, so none of them can drift from what runs.

Scopes say what a check reads and so where the runner calls it:

- `segment`: one text, with its side of the pair (`Side`): each translation, and each
  source text once (the segment of a build, or the source of each pair in a pairs file);
- `pair`: a source beside its translation (`PairContext`), once per pair with a target;
- `corpus`: all pairs of the run at once (`Corpus`), after the pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from .model import SEVERITIES, Finding

Scope = Literal["segment", "pair", "corpus"]
SCOPES: tuple[Scope, ...] = ("segment", "pair", "corpus")
Run = Callable[[Any], Iterable[Finding]]


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    severity: str
    scope: Scope
    finds: str
    run: Run


_DECLARED: dict[str, Check] = {}


def check(id: str, severity: str, scope: Scope, finds: str) -> Callable[[Run], Run]:
    """Declare the decorated function as the check `id`; declaration order is report order."""
    if severity not in SEVERITIES:
        raise ValueError(f"check {id!r}: unknown severity {severity!r}")
    if scope not in SCOPES:
        raise ValueError(f"check {id!r}: unknown scope {scope!r}")

    def declare(fn: Run) -> Run:
        if id in _DECLARED:
            raise ValueError(f"check {id!r} declared twice")
        _DECLARED[id] = Check(id, severity, scope, finds, fn)
        return fn

    return declare


def declared() -> tuple[Check, ...]:
    """Every declared check, in declaration order."""
    return tuple(_DECLARED.values())


def markdown_table(checks: Iterable[Check]) -> str:
    """The table of checks in docs/checks.md."""
    rows = ["| check | scope | severity | finds |", "|---|---|---|---|"]
    rows += [f"| `{c.id}` | {c.scope} | {c.severity} | {c.finds} |" for c in checks]
    return "\n".join(rows) + "\n"
