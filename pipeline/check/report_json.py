"""checks.json: the report as data (schemas/checks.schema.json).

`findings` lists each open finding once for all copies of its text (`copies` names the
others) with the `hash` that keys it in an accepted-findings file; `accepted` lists the
findings that file accepts, apart. The summary counts the open findings, as `--fail-on`
does, and the sentences with no mark of meaning (whose meaning is not compared), per pair
and in all.
"""

from __future__ import annotations

from typing import Any

from .. import __version__
from .model import SEVERITIES, Report
from .review import Item, Review, review


def _item(it: Item) -> dict[str, Any]:
    return {**it.finding.to_json(), "copies": list(it.copies), "hash": it.hash}


def _sides(counts: tuple[int, int]) -> dict[str, int]:
    return {"source": counts[0], "target": counts[1]}


def _pair(p: Any, seen: Review, unread: dict[str, tuple[int, int]]) -> dict[str, Any]:
    out = {**p.to_json(), "rule": p.rule, "title": seen.title(p, p.id)}
    if p.target is not None:
        out["unread_sentences"] = _sides(unread.get(p.id, (0, 0)))
    return out


def report_data(report: Report, seen: Review | None = None) -> dict[str, Any]:
    seen = seen or review(report)
    counts = seen.counts()
    by_severity = dict.fromkeys(SEVERITIES, 0)
    for it in seen.open:
        by_severity[it.finding.severity] += 1
    return {
        "tool": f"rulepipe {__version__}",
        "inputs": {**report.inputs, "accepted": seen.accepted_file},
        "summary": {
            "pairs": sum(1 for p in report.pairs if p.target is not None),
            "segments": sum(1 for p in report.pairs if p.target is None),
            "findings": len(seen.open),
            "copies": sum(len(it.copies) for it in seen.open),
            "accepted": len(seen.accepted),
            "stale_accepted": len(seen.stale),
            "unread_sentences": _sides(report.unread_total()),
            "by_severity": by_severity,
            "by_check": {c: n for c, n in counts.items() if any(n.values())},
        },
        "pairs": [_pair(p, seen, report.unread) for p in report.pairs],
        "findings": [_item(it) for it in seen.open],
        "accepted": [_item(it) for it in seen.accepted],
    }
