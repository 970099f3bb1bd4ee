"""The terse summary on the terminal: counts per check and severity, then the worst findings,
each once for all copies of its text and under its rule's name."""

from __future__ import annotations

from ..textsafe import one_line
from .model import RANK, SEVERITIES, Report
from .review import Review, review

_SHOW = 20
_COLOUR = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m"}


def _paint(severity: str, text: str, colour: bool) -> str:
    return f"{_COLOUR[severity]}{text}\x1b[0m" if colour else text


def summary_line(report: Report, seen: Review | None = None) -> str:
    """`checked 3 pair(s) and 2 segment(s) checked alone: 1 error(s), 0 warning(s), 4 info`,
    then how many findings an accepted-findings file set apart."""
    seen = seen or review(report)
    counts = seen.counts()
    n_pairs = sum(1 for p in report.pairs if p.target is not None)
    n_segs = len(report.pairs) - n_pairs
    totals = {s: sum(c[s] for c in counts.values()) for s in SEVERITIES}
    line = (
        f"checked {n_pairs:,} pair(s)"
        + (f" and {n_segs:,} segment(s) checked alone" if n_segs else "")
        + f": {totals['error']:,} error(s), {totals['warning']:,} warning(s),"
        f" {totals['info']:,} info"
    )
    if seen.accepted:
        line += f"; {len(seen.accepted):,} accepted"
    return line


def report_text(
    report: Report, fail_on: str, colour: bool = False, seen: Review | None = None
) -> str:
    """The summary line, counts per check, the worst findings; severities coloured on a
    terminal (`colour`), plain in a pipe or a file."""
    seen = seen or review(report)
    counts = seen.counts()
    lines = [summary_line(report, seen)]
    width = max((len(c) for c, n in counts.items() if any(n.values())), default=0)
    for check, n in counts.items():
        if any(n.values()):
            parts = ", ".join(_paint(s, f"{n[s]:,} {s}", colour) for s in SEVERITIES if n[s])
            lines.append(f"  {check:<{width}}  {parts}")
    worst = sorted(seen.open, key=lambda it: -RANK[it.finding.severity])[:_SHOW]
    for it in worst:
        f = it.finding
        severity = _paint(f.severity, f"{f.severity:<7}", colour)
        title = seen.title(it.pair, f.pair_id)
        where = f.pair_id if title == f.pair_id else f"{title} ({f.pair_id})"
        if it.copies:
            n = len(it.copies)
            where += f" and {n:,} {'copy' if n == 1 else 'copies'}"
        # ids, titles and messages come from the input: shown, never acting on the terminal
        lines.append(f"  {severity} {f.check:<24} {one_line(where)}: {one_line(f.message)}")
    if len(seen.open) > _SHOW:
        lines.append(f"  ... {len(seen.open) - _SHOW:,} more in the reports")
    source, target = report.unread_total()
    if source or target:
        lines.append(
            f"{source + target:,} sentence(s) say nothing the comparison of meaning reads"
            f" ({source:,} of the sources, {target:,} of the translations): not compared"
        )
    if seen.stale:
        lines.append(
            f"{len(seen.stale):,} accepted finding(s) of {seen.accepted_file} no longer found"
        )
    failing = len(seen.at_or_above(fail_on)) if fail_on != "never" else 0
    if failing:
        lines.append(f"{failing} finding(s) at or above --fail-on {fail_on}")
    return "\n".join(lines) + "\n"
