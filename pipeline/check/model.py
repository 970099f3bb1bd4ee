"""Records of the checks: a finding about a pair, the report of a run (the pair record
itself is `pipeline.pairs.Pair`, shared with the exports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Span
from ..pairs import Pair

SEVERITIES: tuple[str, ...] = ("error", "warning", "info")
RANK = {"error": 3, "warning": 2, "info": 1, "never": 99}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a translator can act on: where it is on each side and what was expected."""

    check: str
    severity: str
    pair_id: str
    message: str
    source_span: Span | None = None
    target_span: Span | None = None
    expected: str | None = None
    found: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "severity": self.severity,
            "pair_id": self.pair_id,
            "message": self.message,
            "source_span": list(self.source_span) if self.source_span else None,
            "target_span": list(self.target_span) if self.target_span else None,
            "expected": self.expected,
            "found": self.found,
        }


@dataclass(slots=True)
class Report:
    """The pairs of a run, its findings in report order, and what it read."""

    pairs: list[Pair]
    findings: list[Finding]
    inputs: dict[str, Any] = field(default_factory=dict)
    unread: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Pair id -> sentences of its source and of its translation with no mark of meaning
    (their meaning is not compared); pairs with none are left out."""

    def unread_total(self) -> tuple[int, int]:
        """Sentences of all sources and of all translations with no mark of meaning."""
        return (
            sum(s for s, _ in self.unread.values()),
            sum(t for _, t in self.unread.values()),
        )

    def at_or_above(self, level: str) -> list[Finding]:
        return [f for f in self.findings if RANK[f.severity] >= RANK[level]]
