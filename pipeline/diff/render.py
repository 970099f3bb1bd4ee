"""The diff as Markdown, for a changelog or a review."""

from __future__ import annotations

import json
from typing import Any

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
    for q in entry["quantities"]:
        where = f"{q['type']} ({q['lang']})"
        if q["change"] == "changed":
            lines.append(f"- quantity {where}: {_value(q['old'])} → {_value(q['new'])}")
        elif q["change"] == "added":
            lines.append(f"- quantity {where} added: {_value(q['new'])}")
        else:
            lines.append(f"- quantity {where} removed: {_value(q['old'])}")
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
        old = json.dumps(f["old"], ensure_ascii=False, sort_keys=True)
        new = json.dumps(f["new"], ensure_ascii=False, sort_keys=True)
        lines.append(f"- {f['field']}: `{_short(old)}` → `{_short(new)}`")
    lines += _stale(entry.get("stale", []))
    lines += _translations(entry.get("translations", []))
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
    return "\n".join(lines).rstrip("\n") + "\n"
