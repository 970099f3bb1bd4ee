"""Records of the checks: a pair to check, a finding about it, the report of a run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Span = tuple[int, int]

CHECK_IDS: tuple[str, ...] = (
    "untranslated",
    "number_mismatch",
    "dice_mismatch",
    "distance_mismatch",
    "modifier_mismatch",
    "markup_mismatch",
    "glossary",
    "inconsistent_translation",
    "homoglyph",
    "omission",
    "doubled_word",
    "punctuation",
    "whitespace",
    "spelling_variant",
)
SEVERITIES: tuple[str, ...] = ("error", "warning", "info")
RANK = {"error": 3, "warning": 2, "info": 1, "never": 99}


@dataclass(frozen=True, slots=True)
class Pair:
    """A source (English master) and its translation; `target` None for a segment checked alone.

    `sentences` are sentence links from a build's alignment, when there are any:
    (type, source spans, target spans) as in alignments.json.
    """

    id: str
    source: str
    target: str | None
    source_lang: str = "en"
    target_lang: str | None = None
    sentences: tuple[tuple[str, tuple[Span, ...], tuple[Span, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source_lang": self.source_lang,
            "target_lang": self.target_lang,
            "source": self.source,
            "target": self.target,
        }


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
    pairs: list[Pair]
    findings: list[Finding]
    inputs: dict[str, Any] = field(default_factory=dict)

    def counts(self) -> dict[str, dict[str, int]]:
        """Findings per check and severity, every check id present (zeros included)."""
        out = {c: dict.fromkeys(SEVERITIES, 0) for c in CHECK_IDS}
        for f in self.findings:
            out[f.check][f.severity] += 1
        return out

    def at_or_above(self, level: str) -> list[Finding]:
        return [f for f in self.findings if RANK[f.severity] >= RANK[level]]
