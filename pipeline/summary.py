"""What `build` tells the user on the terminal when it is done: a summary."""

from __future__ import annotations

from pathlib import Path

from .build import BuildResult
from .textsafe import terminal


def _fmt(tally: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])))


def _rules_line(total: int, kinds: dict[str, int]) -> str:
    """Rules by kind; a unit's model profiles (parts of the unit, not rules of their own)
    counted apart."""
    from .lookup import UNLISTED_KINDS

    rules = {k: v for k, v in kinds.items() if k not in UNLISTED_KINDS}
    parts = sum(v for k, v in kinds.items() if k in UNLISTED_KINDS)
    tail = f"; and {parts} model profiles of units" if parts else ""
    return f"  rules      {total - parts}: {_fmt(rules)}{tail}"


def print_summary(result: BuildResult, corpus: Path) -> None:
    m = result.manifest
    counts = m["counts"]
    drops = sorted({i["drop"] for i in m["inputs"]})
    size = sum(i["bytes"] for i in m["inputs"])
    acc = m["accounting"]
    lines = [
        f"rulepipe build: {corpus} -> {result.out}",
        f"  inputs     {len(m['inputs'])} files in {len(drops)} drop(s), {size:,} bytes",
        f"  segments   {counts['segments']}: {_fmt(counts['by_kind'])}",
        f"  languages  {_fmt(counts['by_lang'])}",
        f"  clusters   {sum(counts['clusters'].values())}: {_fmt(counts['clusters'])}",
        f"  conflicts  {len(m['conflicts'])}",
        f"  links      {sum(counts['links'].values())} foreign clusters: {_fmt(counts['links'])}",
        _rules_line(len(result.rules), counts["rules"]),
        f"  accounting {acc['blocks']} blocks = {acc['in_rules']} in rules + {acc['copies']} copies"
        f" + {acc['unassigned']} unassigned",
    ]
    for skipped in m["skipped"]:
        lines.append(f"  skipped    {skipped['drop']}/{skipped['file']}: {skipped['reason']}")
    print(terminal("\n".join(lines)))
