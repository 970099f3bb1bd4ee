"""The diff as Markdown, for a changelog or a review."""

from __future__ import annotations

import json
from typing import Any

from ..textsafe import terminal

_MAX_TEXT = 160


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _quote(text: str) -> str:
    return "“" + _short(text).replace("|", "\\|") + "”"


def _value(v: dict[str, Any]) -> str:
    return f"`{v.get('surface', '')}`"


def _title(entry: dict[str, Any]) -> str:
    name = f" ({entry['name']})" if entry.get("name") else ""
    return f"`{entry['id']}`{name}"


def _changed(entry: dict[str, Any]) -> list[str]:
    head = f"### {_title(entry)}: {entry['nature']}"
    if entry.get("old_id"):
        head += f" (was `{entry['old_id']}`)"
    lines = [head, ""]
    name = entry.get("name") or entry["id"]
    for q in entry["quantities"]:
        lang = "" if q["lang"] == "en" else f" ({q['lang']})"
        if q["change"] == "changed":
            lines.append(f"- {name}: {_changed_words(q)}{lang}")
        elif q["change"] == "added":
            lines.append(f"- {name}: {_value(q['new'])} added{lang}")
        else:
            lines.append(f"- {name}: {_value(q['old'])} removed{lang}")
    for e in entry["effects"]:
        verb = "appeared" if e["change"] == "added" else "disappeared"
        body = json.dumps(e["effect"], ensure_ascii=False, sort_keys=True)
        lines.append(f"- effect {verb}: `{body}`")
    for s in entry["sentences"]:
        lang = s["lang"]
        if s["change"] == "changed":
            what = "numbers" if s["numbers"] else "wording"
            lines.append(
                f"- sentence changed ({lang}, {what}): {_quote(s['old'])} → {_quote(s['new'])}"
            )
        elif s["change"] == "added":
            lines.append(f"- sentence added ({lang}): {_quote(s['new'])}")
        else:
            lines.append(f"- sentence removed ({lang}): {_quote(s['old'])}")
    for f in entry["fields"]:
        lines += _field_lines(name, f)
    lines += _stale(entry.get("stale", []))
    lines += _translations(entry.get("translations", []))
    return [*lines, ""]


def _changed_words(q: dict[str, Any]) -> str:
    """`-1 → -2 Discipline`: the words both surfaces share said once, around the change."""
    a = str(q["old"].get("surface", "")).split()
    b = str(q["new"].get("surface", "")).split()
    head = 0
    while head < min(len(a), len(b)) - 1 and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head - 1 and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    before = " ".join(a[:head])
    after = " ".join(a[len(a) - tail :]) if tail else ""
    middle = f"{' '.join(a[head : len(a) - tail])} → {' '.join(b[head : len(b) - tail])}"
    return " ".join(x for x in (before, middle, after) if x)


def _field_lines(name: str, f: dict[str, Any]) -> list[str]:
    """A changed field: a mapping (a weapon's profile) key by key, anything else whole."""
    old, new = f["old"], f["new"]
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in dict.fromkeys([*old, *new]):
            if old.get(key) != new.get(key):
                was = json.dumps(old.get(key), ensure_ascii=False, sort_keys=True)
                now = json.dumps(new.get(key), ensure_ascii=False, sort_keys=True)
                out.append(f"- {name}, {f['field']} {key}: {_short(was)} → {_short(now)}")
        return out
    was = json.dumps(old, ensure_ascii=False, sort_keys=True)
    now = json.dumps(new, ensure_ascii=False, sort_keys=True)
    return [f"- {name}, {f['field']}: `{_short(was)}` → `{_short(now)}`"]


def _units(doc: dict[str, Any]) -> list[str]:
    """The army data's changes: units added and removed, each change of a changed unit."""
    u = doc.get("units")
    if not u:
        return []
    s = u["summary"]
    lines = [
        "## Army data",
        "",
        f"{s['added']} units added, {s['removed']} removed, {s['changed']} changed, "
        f"{s['unchanged']} unchanged.",
        "",
    ]
    for e in u["entries"]:
        if e["change"] == "changed":
            lines += [f"- {c['text']}" for c in e["changes"]]
        else:
            lines.append(f"- {e['name']} ({e['book']}) {e['change']}")
    return [*lines, ""]


def _translations(found: list[dict[str, Any]]) -> list[str]:
    """One line per translation a newer drop gave the rule, with the text it replaced."""
    lines = []
    for t in found:
        where = f" from {t['drop']}/{t['file']}" if t.get("drop") else ""
        if t["change"] == "revised":
            lines.append(
                f"- revised translation ({t['lang']}){where}: {_quote(t['old'])} →"
                f" {_quote(t['new'])}"
            )
        elif t["change"] == "added":
            lines.append(f"- translation added ({t['lang']}){where}: {_quote(t['new'])}")
        else:
            lines.append(f"- translation removed ({t['lang']}): {_quote(t['old'])}")
    return lines


def _stale(stale: list[dict[str, Any]]) -> list[str]:
    """One line per outdated translation: what changed in the source, what it still says."""
    lines = []
    for t in stale:
        n = len(t["sentences"])
        what = f"{n} sentence{'s' if n != 1 else ''}" + (", numbers" if t["numbers"] else "")
        line = f"- translation outdated ({t['lang']}): the {t['source']} text changed ({what})"
        changed = [q for q in t["quantities"] if q["change"] == "changed"]
        if changed:
            line += "; " + ", ".join(f"{_value(q['old'])} → {_value(q['new'])}" for q in changed)
        line += f", the {t['lang']} text did not"
        if t.get("still"):
            line += " and still says " + ", ".join(f"`{s['translation']}`" for s in t["still"])
        lines.append(line)
    return lines


def to_markdown(doc: dict[str, Any]) -> str:
    """The changelog as Markdown, text for people (read in a terminal as often as not):
    a control character of a rule's name or text is spelled as `terminal` spells it."""
    s = doc["summary"]
    lines = [
        f"# Rules changes: {doc['old']['path']} → {doc['new']['path']}",
        "",
        f"{s['added']} added, {s['removed']} removed, {s['renamed']} renamed,"
        f" {s['changed']} changed, {s['unchanged']} unchanged"
        + (f", {s['stale']} translation(s) outdated." if s.get("stale") else "."),
        "",
    ]
    sections = {"added": "Added", "removed": "Removed", "renamed": "Renamed", "changed": "Changed"}
    for change, title in sections.items():
        entries = [e for e in doc["entries"] if e["change"] == change]
        if not entries:
            continue
        lines += [f"## {title}", ""]
        for e in entries:
            if change in ("added", "removed"):
                text = next(iter(e["texts"].values()), "")
                lines.append(f"- {_title(e)}, {e['kind']}: {_quote(text)}")
            elif change == "renamed":
                names = ""
                if "names" in e:
                    names = f" (names {e['old_names']} → {e['names']})"
                lines.append(f"- `{e['old_id']}` → `{e['id']}`{names}")
            else:
                lines += _changed(e)
        if change != "changed":
            lines.append("")
    lines += _units(doc)
    return terminal("\n".join(lines).rstrip("\n") + "\n")
