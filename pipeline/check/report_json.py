"""checks.json: the report as data (schemas/checks.schema.json)."""

from __future__ import annotations

from typing import Any

from .. import __version__
from .model import SEVERITIES, Report


def report_data(report: Report) -> dict[str, Any]:
    counts = report.counts()
    by_severity = dict.fromkeys(SEVERITIES, 0)
    for f in report.findings:
        by_severity[f.severity] += 1
    return {
        "tool": f"rulepipe {__version__}",
        "inputs": report.inputs,
        "summary": {
            "pairs": sum(1 for p in report.pairs if p.target is not None),
            "segments": sum(1 for p in report.pairs if p.target is None),
            "findings": len(report.findings),
            "by_severity": by_severity,
            "by_check": {c: n for c, n in counts.items() if any(n.values())},
        },
        "pairs": [p.to_json() for p in report.pairs],
        "findings": [f.to_json() for f in report.findings],
    }
