"""What the reports show of a run: each finding once for all copies of its text, titled by
the rule it belongs to, and split into open and accepted findings.

A build holds many copies of one paragraph (a translation memory repeats its sources), and
each copy gives the same findings; a translator fixes the text once, so the reports list
the finding once with the ids of its copies. The three writers (JSON, HTML, text) and the
exit code all read this one view, so their counts agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..pairs import Pair
from .accepted import Accepted, entry_line, finding_hash
from .catalogue import tally
from .model import RANK, Finding, Report


@dataclass(frozen=True, slots=True)
class Item:
    """One reported finding: that of the first copy, with the ids of the other copies."""

    finding: Finding
    pair: Pair | None
    copies: tuple[str, ...]
    hash: str
    accepted: Accepted | None = None

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.finding.pair_id, *self.copies)

    def line(self) -> str:
        """The line of the accepted-findings file that accepts this finding."""
        return entry_line(self.finding.check, self.finding.pair_id, self.hash, self.finding.message)


@dataclass(slots=True)
class Review:
    report: Report
    open: list[Item]
    accepted: list[Item]
    stale: list[Accepted]
    rule_names: dict[str, str] = field(default_factory=dict)
    accepted_file: str | None = None

    def counts(self) -> dict[str, dict[str, int]]:
        """Open findings per check and severity, every check present, in registry order."""
        return tally(it.finding for it in self.open)

    def at_or_above(self, level: str) -> list[Item]:
        """Open findings of severity `level` or worse: what `--fail-on` stops on."""
        return [it for it in self.open if RANK[it.finding.severity] >= RANK[level]]

    def title(self, pair: Pair | None, pair_id: str) -> str:
        """The name of the pair's rule when the build says, else the pair's own id."""
        if pair is not None and pair.rule:
            return self.rule_names.get(pair.rule) or pair.rule
        return pair_id

    def lines(self) -> list[str]:
        """The accepted-findings file as it stands: its entries in their order, each with
        its finding's message as a comment, the stale ones marked so."""
        lines: dict[int, str] = {}
        for it in self.accepted:
            a = it.accepted
            if a is not None:
                lines[a.entry] = entry_line(a.check, a.id, a.hash, it.finding.message, a.note)
        for a in self.stale:
            lines[a.entry] = entry_line(a.check, a.id, a.hash, "no longer found", a.note)
        return [line for _, line in sorted(lines.items())]


def _text_key(pair: Pair | None) -> tuple:
    if pair is None:
        return ()
    return (pair.source, pair.target, pair.source_lang, pair.target_lang)


def review(
    report: Report,
    accepted: Iterable[Accepted] = (),
    rule_names: dict[str, str] | None = None,
    accepted_file: str | None = None,
) -> Review:
    """Group the findings of `report` by copies of one text, and set apart those that an
    entry of `accepted` names (by check, hash and the id of any copy)."""
    pairs = {p.id: p for p in report.pairs}
    groups: dict[tuple, list[Finding]] = {}
    for f in report.findings:
        pair = pairs.get(f.pair_id)
        key = (
            f.check,
            f.severity,
            f.message,
            f.source_span,
            f.target_span,
            f.expected,
            f.found,
            _text_key(pair),
        )
        groups.setdefault(key, []).append(f)
    wanted = {(a.check, a.id, a.hash): a for a in accepted}
    used: set[tuple[str, str, str]] = set()
    open_: list[Item] = []
    done: list[Item] = []
    for members in groups.values():
        first = members[0]
        pair = pairs.get(first.pair_id)
        h = finding_hash(first, pair)
        copies = tuple(dict.fromkeys(m.pair_id for m in members[1:] if m.pair_id != first.pair_id))
        match = None
        for pid in (first.pair_id, *copies):
            match = wanted.get((first.check, pid, h))
            if match is not None:
                used.add((first.check, pid, h))
                break
        item = Item(first, pair, copies, h, match)
        (done if match else open_).append(item)
    stale = [a for k, a in wanted.items() if k not in used]
    return Review(report, open_, done, stale, dict(rule_names or {}), accepted_file)
