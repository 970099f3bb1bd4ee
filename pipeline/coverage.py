"""Coverage of a build: which clauses of each rule were read into effects and which were not.

Read from the rules themselves (effect spans, the `unread` clauses, the `clauses` counts and
`unresolved-reference` flags), so that the report says what the interpreter will and will
not execute, clause by clause. A clause counts when it names a game quantity (a roll, a
characteristic, a number, a situation) or gives an effect: it is read whole, or listed in
the rule's `unread`. A rule is `full` only when every such clause was read, `partial` when
one was not, `descriptive` when it gives no effect. The same summary is in `manifest.json`
(`coverage`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pipeline.sentences import sentences

STATES = ("full", "partial", "descriptive")


def summary(rules: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rules in each coverage state, their shares, how many have effects to execute, and the
    clauses read and not read."""
    n = len(rules)
    counts = Counter(str(r.get("coverage")) for r in rules)
    executable = sum(1 for r in rules if r.get("effects"))
    read = sum(int((r.get("clauses") or {}).get("read", 0)) for r in rules)
    unread = sum(int((r.get("clauses") or {}).get("unread", 0)) for r in rules)
    return {
        "rules": n,
        "by_state": {s: counts.get(s, 0) for s in STATES},
        "share": {s: round(counts.get(s, 0) / n, 4) if n else 0.0 for s in STATES},
        "executable": executable,
        "executable_share": round(executable / n, 4) if n else 0.0,
        "unresolved_references": sum(
            1 for r in rules for f in r.get("flags", []) if f["flag"] == "unresolved-reference"
        ),
        "clauses": {
            "read": read,
            "unread": unread,
            "read_share": round(read / (read + unread), 4) if read + unread else 0.0,
        },
    }


def _overlaps(a: Sequence[int], b: Sequence[int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def rule_coverage(rule: dict[str, Any]) -> dict[str, Any]:
    """Per sentence of the rule's first text: the effects read from it and its clauses not
    read (with their spans), or that it needs none."""
    lang, body = next(iter(rule["texts"].items()))
    text = body["text"]
    unread = [u for u in rule.get("unread", []) if u.get("lang", lang) == lang]
    unresolved = [
        s
        for f in rule.get("flags", [])
        if f["flag"] == "unresolved-reference" and f.get("lang", lang) == lang
        for s in f["spans"]
    ]
    rows = []
    for a, b in sentences(text, 0):
        ops = [
            e["op"] for e in rule.get("effects", []) if "span" in e and _overlaps(e["span"], (a, b))
        ]
        left = [u for u in unread if _overlaps(u["span"], (a, b))]
        if ops and left:
            state = "partial"
        elif ops:
            state = "effects"
        elif left:
            state = "not-read"
        else:
            state = "no-effect-needed"
        row: dict[str, Any] = {"span": [a, b], "text": text[a:b], "state": state}
        if ops:
            row["effects"] = ops
        if left:
            row["unread"] = [{"text": u["text"], "span": list(u["span"])} for u in left]
        if any(_overlaps(s, (a, b)) for s in unresolved):
            row["unresolved"] = True
        rows.append(row)
    clauses = rule.get("clauses") or {"read": 0, "unread": len(unread)}
    return {
        "id": rule["id"],
        "kind": rule["kind"],
        "coverage": rule["coverage"],
        "clauses": {"read": clauses["read"], "unread": clauses["unread"]},
        "sentences": rows,
    }


_MARKS = {"effects": "+", "partial": "~", "not-read": "-", "no-effect-needed": " "}


def report_text(rules: Iterable[dict[str, Any]], all_rules: Sequence[dict[str, Any]]) -> str:
    s = summary(all_rules)
    c = s["clauses"]
    lines = [
        f"rules {s['rules']}: "
        + ", ".join(f"{k} {s['by_state'][k]} ({s['share'][k]:.1%})" for k in STATES)
        + f"; executable {s['executable']} ({s['executable_share']:.1%});"
        + f" unresolved references {s['unresolved_references']}",
        f"clauses: read {c['read']}, not read {c['unread']} ({c['read_share']:.1%} read)",
    ]
    for rule in rules:
        cov = rule_coverage(rule)
        n = cov["clauses"]
        lines.append(
            f"{cov['id']} [{cov['kind']}] {cov['coverage']}"
            f" (clauses read {n['read']}, not read {n['unread']})"
        )
        for row in cov["sentences"]:
            mark = _MARKS[row["state"]]
            ops = f" -> {', '.join(row['effects'])}" if "effects" in row else ""
            lines.append(f"  {mark} {row['span'][0]}-{row['span'][1]} {row['text']}{ops}")
            for u in row.get("unread", ()) if row["state"] == "partial" else ():
                lines.append(f"      not read {u['span'][0]}-{u['span'][1]}: {u['text']}")
    return "\n".join(lines) + "\n"
