"""The terse summary on the terminal: counts per check and severity, then the worst findings."""

from __future__ import annotations

from .model import RANK, SEVERITIES, Report

_SHOW = 20
_COLOUR = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m"}


def _paint(severity: str, text: str, colour: bool) -> str:
    return f"{_COLOUR[severity]}{text}\x1b[0m" if colour else text


def summary_line(report: Report) -> str:
    """`checked 3 pair(s) and 2 segment(s) checked alone: 1 error(s), 0 warning(s), 4 info`."""
    counts = report.counts()
    n_pairs = sum(1 for p in report.pairs if p.target is not None)
    n_segs = len(report.pairs) - n_pairs
    totals = {s: sum(c[s] for c in counts.values()) for s in SEVERITIES}
    return (
        f"checked {n_pairs:,} pair(s)"
        + (f" and {n_segs:,} segment(s) checked alone" if n_segs else "")
        + f": {totals['error']:,} error(s), {totals['warning']:,} warning(s),"
        f" {totals['info']:,} info"
    )


def report_text(report: Report, fail_on: str, colour: bool = False) -> str:
    """The summary line, counts per check, the worst findings; severities coloured on a
    terminal (`colour`), plain in a pipe or a file."""
    counts = report.counts()
    lines = [summary_line(report)]
    width = max((len(c) for c, n in counts.items() if any(n.values())), default=0)
    for check, n in counts.items():
        if any(n.values()):
            parts = ", ".join(_paint(s, f"{n[s]:,} {s}", colour) for s in SEVERITIES if n[s])
            lines.append(f"  {check:<{width}}  {parts}")
    worst = sorted(report.findings, key=lambda f: -RANK[f.severity])[:_SHOW]
    for f in worst:
        severity = _paint(f.severity, f"{f.severity:<7}", colour)
        lines.append(f"  {severity} {f.check:<24} {f.pair_id}: {f.message}")
    if len(report.findings) > _SHOW:
        lines.append(f"  ... {len(report.findings) - _SHOW:,} more in the reports")
    failing = len(report.at_or_above(fail_on)) if fail_on != "never" else 0
    if failing:
        lines.append(f"{failing} finding(s) at or above --fail-on {fail_on}")
    return "\n".join(lines) + "\n"
