"""The meaning set (tests/data/checks/meaning.yaml): faithful translations, copies changed
in meaning, and the translator-facing cases of the checks, loaded and scored here for the
tests and for tests/bench/eval_checks.py, which prints the same figures on the held-out
third."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pipeline.check import Finding, Pair, run_checks
from pipeline.glossary import load_glossary

DATA = Path(__file__).resolve().parents[1] / "data" / "checks"
SET = DATA / "meaning.yaml"
GLOSSARY = DATA / "meaning-glossary.yaml"
MEANING = "effect_mismatch"


@dataclass(frozen=True)
class Case:
    pair: Pair
    group: str  # faithful | changed | defects
    labels: tuple[str, ...]  # check ids that must report it (none: nothing may)
    held: bool
    change: str | None = None
    context: tuple[str, ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)


def load_cases() -> list[Case]:
    data = yaml.safe_load(SET.read_text("utf-8"))
    out = []
    for group in ("faithful", "changed", "defects"):
        for e in data[group]:
            pair = Pair(e["id"], e["source"], e["target"], "en", "ru")
            if group == "faithful":
                labels: tuple[str, ...] = ()
            elif group == "changed":
                labels = (MEANING,)
            else:
                labels = tuple(e.get("labels") or ())
            out.append(
                Case(
                    pair,
                    group,
                    labels,
                    bool(e.get("held")),
                    e.get("change"),
                    tuple(e.get("context") or ()),
                    dict(e.get("expect") or {}),
                )
            )
    return out


def findings_of(cases: list[Case]) -> dict[str, list[Finding]]:
    """Each case checked with the set's glossary (and the pairs its `context` names), as
    `rulepipe check --pairs` would check them."""
    glossary = load_glossary(GLOSSARY)
    by_id = {c.pair.id: c for c in cases}
    out: dict[str, list[Finding]] = {}
    for c in cases:
        report = run_checks([*(by_id[k].pair for k in c.context), c.pair], glossary)
        out[c.pair.id] = [f for f in report.findings if f.pair_id == c.pair.id]
    return out


def _marked(text: str, span: Any) -> str:
    return text[span[0] : span[1]].strip() if span else ""


def unmet(case: Case, found: list[Finding]) -> list[str]:
    """What of the case's `expect` its findings do not satisfy (empty: all of it)."""
    e, bad = case.expect, []
    first = case.labels[0] if case.labels else None
    mine = [f for f in found if f.check == first] if first else []
    if "count" in e and len(mine) > e["count"]:
        bad.append(f"{len(mine)} {first} findings, at most {e['count']}")
    for check in e.get("absent", ()):
        if any(f.check == check for f in found):
            bad.append(f"a {check} finding")
    for words in e.get("not_in_message", ()):
        if any(words in f.message for f in found):
            bad.append(f"{words!r} in a message")
    if "expected" in e and not any(f.expected == e["expected"] for f in mine):
        bad.append(f"no {first} finding expecting {e['expected']!r}")
    for side, text in (("source_span", case.pair.source), ("target_span", case.pair.target)):
        if side in e:
            marks = [_marked(text or "", getattr(f, side)) for f in mine]
            if not any(e[side] in m for m in marks if m):
                bad.append(f"no {first} finding marking {e[side]!r} ({marks})")
    return bad


@dataclass(frozen=True)
class CheckScore:
    check: str
    found: int  # labelled cases it reported
    labelled: int
    said: int  # cases it reported
    right: int  # of those, cases labelled with it

    @property
    def recall(self) -> float | None:
        return self.found / self.labelled if self.labelled else None

    @property
    def precision(self) -> float | None:
        return self.right / self.said if self.said else None


def scores(
    cases: Iterable[Case], found: dict[str, list[Finding]], checks: Iterable[str]
) -> list[CheckScore]:
    """Per check: recall over the cases labelled with it, precision over the cases it
    reported (a finding of any severity counts)."""
    cases = list(cases)
    out = []
    for check in checks:
        said = [c for c in cases if any(f.check == check for f in found[c.pair.id])]
        labelled = [c for c in cases if check in c.labels]
        out.append(
            CheckScore(
                check,
                sum(1 for c in labelled if c in said),
                len(labelled),
                len(said),
                sum(1 for c in said if check in c.labels),
            )
        )
    return out


def clean_with_error(cases: Iterable[Case], found: dict[str, list[Finding]]) -> list[str]:
    """Cases that nothing may report (faithful, or defects without labels) with an error."""
    return [
        c.pair.id
        for c in cases
        if not c.labels and any(f.severity == "error" for f in found[c.pair.id])
    ]
