"""Coverage of a build: which sentences of each rule became effects and which did not.

Read from the rules themselves (effect spans, `unformalised` and `unresolved-reference`
flags), so that the report says what the interpreter will and will not execute, sentence by
sentence, and how the rules share out between `full`, `partial` and `descriptive`. The same
summary is in `manifest.json` (`coverage`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.sentences import sentences

STATES = ("full", "partial", "descriptive")


def summary(rules: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rules in each coverage state, their shares, and how many have effects to execute."""
    n = len(rules)
    counts = Counter(str(r.get("coverage")) for r in rules)
    executable = sum(1 for r in rules if r.get("effects"))
    return {
        "rules": n,
        "by_state": {s: counts.get(s, 0) for s in STATES},
        "share": {s: round(counts.get(s, 0) / n, 4) if n else 0.0 for s in STATES},
        "executable": executable,
        "executable_share": round(executable / n, 4) if n else 0.0,
        "unresolved_references": sum(
            1 for r in rules for f in r.get("flags", []) if f["flag"] == "unresolved-reference"
        ),
    }


def _overlaps(a: Sequence[int], b: Sequence[int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def rule_coverage(rule: dict[str, Any]) -> dict[str, Any]:
    """Per sentence of the rule's first text: the effects read from it, or why none."""
    lang, body = next(iter(rule["texts"].items()))
    text = body["text"]
    flags = [f for f in rule.get("flags", []) if f.get("lang", lang) == lang]
    left = [s for f in flags if f["flag"] == "unformalised" for s in f.get("spans", [])]
    unresolved = [s for f in flags if f["flag"] == "unresolved-reference" for s in f["spans"]]
    rows = []
    for a, b in sentences(text, 0):
        ops = [
            e["op"] for e in rule.get("effects", []) if "span" in e and _overlaps(e["span"], (a, b))
        ]
        if ops:
            state = "effects"
        elif any(_overlaps(s, (a, b)) for s in left):
            state = "not-read"
        else:
            state = "no-effect-needed"
        row: dict[str, Any] = {"span": [a, b], "text": text[a:b], "state": state}
        if ops:
            row["effects"] = ops
        if any(_overlaps(s, (a, b)) for s in unresolved):
            row["unresolved"] = True
        rows.append(row)
    return {"id": rule["id"], "kind": rule["kind"], "coverage": rule["coverage"], "sentences": rows}


def report_text(rules: Iterable[dict[str, Any]], all_rules: Sequence[dict[str, Any]]) -> str:
    s = summary(all_rules)
    lines = [
        f"rules {s['rules']}: "
        + ", ".join(f"{k} {s['by_state'][k]} ({s['share'][k]:.1%})" for k in STATES)
        + f"; executable {s['executable']} ({s['executable_share']:.1%});"
        + f" unresolved references {s['unresolved_references']}"
    ]
    for rule in rules:
        cov = rule_coverage(rule)
        lines.append(f"{cov['id']} [{cov['kind']}] {cov['coverage']}")
        for row in cov["sentences"]:
            mark = {"effects": "+", "not-read": "-", "no-effect-needed": " "}[row["state"]]
            ops = f" -> {', '.join(row['effects'])}" if "effects" in row else ""
            lines.append(f"  {mark} {row['span'][0]}-{row['span'][1]} {row['text']}{ops}")
    return "\n".join(lines) + "\n"
