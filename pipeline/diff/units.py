"""The changelog of army data: units added, removed and changed between two builds, in the
terms a player reads ("Knights of the Realm, Knight: Strength 4 → 5", "points 48 → 50 a
model", "option Lance added").

Units are matched by army book and name: the book is the catalogue's name without its
edition ("Kingdom of Equitaine 2.1.5" and "Kingdom of Equitaine 2024 Released 5" are one
book), so two revisions of a book compare unit by unit; a unit whose book is not matched is
matched by name when the name is unique on both sides. Parts are matched by name (a part
renamed is one removed and one added); characteristics, rules, equipment, options, points,
sizes and mounts are compared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..lang import data as lang_data

Unit = Mapping[str, Any]


def book_key(unit: Unit) -> str:
    """The army book a unit belongs to, without its edition: the catalogue's name up to the
    first word that starts with a digit (its file's stem when the data gives no name)."""
    name = str(unit["source"].get("book") or Path(unit["source"]["file"]).stem)
    words = []
    for word in name.split():
        if word[:1].isdigit():
            break
        words.append(word)
    return " ".join(words).casefold() or name.casefold()


def _names() -> dict[str, str]:
    return dict(lang_data("en", "units").get("characteristic_names") or {})


def _match(old: Sequence[Unit], new: Sequence[Unit]) -> tuple[list[tuple[Unit, Unit]], list, list]:
    """(pairs, removed, added): by book and name, then by a name unique on both sides."""
    key = lambda u: (book_key(u), u["name"].casefold())  # noqa: E731
    a = {key(u): u for u in old}
    b = {key(u): u for u in new}
    pairs = [(a.pop(k), b.pop(k)) for k in sorted(set(a) & set(b))]
    by_name_a: dict[str, list] = {}
    by_name_b: dict[str, list] = {}
    for k in a:
        by_name_a.setdefault(k[1], []).append(k)
    for k in b:
        by_name_b.setdefault(k[1], []).append(k)
    for name in sorted(set(by_name_a) & set(by_name_b)):
        if len(by_name_a[name]) == len(by_name_b[name]) == 1:
            pairs.append((a.pop(by_name_a[name][0]), b.pop(by_name_b[name][0])))
    return pairs, list(a.values()), list(b.values())


def _value(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _links(links: Iterable[Mapping[str, Any]]) -> list[str]:
    return [str(x["name"]) for x in links]


def _added_removed(
    what: str, old: Iterable[str], new: Iterable[str], head: str, **extra: Any
) -> list[dict[str, Any]]:
    a, b = list(dict.fromkeys(old)), list(dict.fromkeys(new))
    out = []
    for name in (n for n in a if n not in b):
        out.append(
            {
                "what": what,
                "change": "removed",
                "name": name,
                **extra,
                "text": f"{head}{what} {name} removed",
            }
        )
    for name in (n for n in b if n not in a):
        out.append(
            {
                "what": what,
                "change": "added",
                "name": name,
                **extra,
                "text": f"{head}{what} {name} added",
            }
        )
    return out


def _points(p: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"base": (p or {}).get("base", 0), "per_model": (p or {}).get("per_model", 0)}


def _points_changes(old: Mapping | None, new: Mapping | None, head: str, **extra: Any) -> list:
    out = []
    a, b = _points(old), _points(new)
    for field, label in (("per_model", " a model"), ("base", "")):
        if a[field] != b[field]:
            out.append(
                {
                    "what": "points",
                    "field": field,
                    "old": a[field],
                    "new": b[field],
                    **extra,
                    "text": f"{head}points {_value(a[field])} → {_value(b[field])}{label}",
                }
            )
    return out


def _parts(old: Sequence[Unit], new: Sequence[Unit], head: str) -> list[dict[str, Any]]:
    names = _names()
    a = {p["name"]: p for p in old}
    b = {p["name"]: p for p in new}
    out = _added_removed("part", a, b, head)
    for name in (n for n in a if n in b):
        ca, cb = a[name]["characteristics"], b[name]["characteristics"]
        pairs = [(k, ca.get(k), cb.get(k)) for k in dict.fromkeys([*ca, *cb]) if k != "size"]
        sa, sb = ca.get("size") or {}, cb.get("size") or {}
        pairs += [(k, sa.get(k), sb.get(k)) for k in dict.fromkeys([*sa, *sb])]
        for char, was, now in pairs:
            if was == now:
                continue
            label = names.get(char, char.replace("_", " ").capitalize())
            out.append(
                {
                    "what": "characteristic",
                    "part": name,
                    "characteristic": char,
                    "old": was,
                    "new": now,
                    "text": f"{head}{name}: {label} {was} → {now}",
                }
            )
        rules = _added_removed(
            "rule", _links(a[name]["rules"]), _links(b[name]["rules"]), f"{head}{name}: "
        )
        out += [{**c, "part": name} for c in rules]
    return out


def _options(old: Unit, new: Unit, head: str) -> list[dict[str, Any]]:
    def choices(u: Unit) -> dict[str, Mapping[str, Any]]:
        return {c["name"]: c for o in u["options"] for c in o["choices"]}

    a, b = choices(old), choices(new)
    out = _added_removed("option", a, b, head)
    for name in (n for n in a if n in b):
        out += _points_changes(
            a[name].get("points"), b[name].get("points"), f"{head}option {name}: ", option=name
        )
    return out


def _variants(old: Unit, new: Unit, head: str) -> list[dict[str, Any]]:
    a = {v["name"]: v for v in old.get("variants") or []}
    b = {v["name"]: v for v in new.get("variants") or []}
    out = _added_removed("variant", a, b, head)
    for name in (n for n in a if n in b):
        out += _points_changes(
            a[name].get("points"), b[name].get("points"), f"{head}{name}: ", variant=name
        )
        parts = _parts(a[name]["parts"], b[name]["parts"], f"{head}on {name}, ")
        out += [{**c, "variant": name} for c in parts]
    return out


def _size(old: Unit, new: Unit, head: str) -> list[dict[str, Any]]:
    a, b = old.get("size") or {}, new.get("size") or {}
    return [
        {
            "what": "size",
            "field": k,
            "old": a.get(k),
            "new": b.get(k),
            "text": f"{head}{k} size {a.get(k)} → {b.get(k)} models",
        }
        for k in ("min", "max")
        if a.get(k) != b.get(k)
    ]


def compare_unit(old: Unit, new: Unit) -> list[dict[str, Any]]:
    """What changed in a unit, each change with a line a player reads."""
    head = f"{new['name']}, "
    out = _size(old, new, head)
    out += _points_changes(old.get("points"), new.get("points"), head)
    out += _parts(old["parts"], new["parts"], head)
    out += _added_removed("rule", _links(old["rules"]), _links(new["rules"]), head)
    out += _added_removed("equipment", _links(old["equipment"]), _links(new["equipment"]), head)
    out += _options(old, new, head)
    out += _variants(old, new, head)
    for c in out:
        c["text"] = re.sub(r", $", "", c["text"])
    return out


def diff_units(old: Sequence[Unit], new: Sequence[Unit]) -> dict[str, Any]:
    """Units added, removed and changed, with a count of each and of those unchanged."""
    pairs, removed, added = _match(old, new)
    entries: list[dict[str, Any]] = []
    unchanged = 0
    for a, b in pairs:
        changes = compare_unit(a, b)
        if not changes:
            unchanged += 1
            continue
        entries.append({"change": "changed", **_summary(b), "changes": changes})
    entries += [{"change": "removed", **_summary(u)} for u in removed]
    entries += [{"change": "added", **_summary(u)} for u in added]
    order = {"added": 0, "removed": 1, "changed": 2}
    entries.sort(key=lambda e: (order[e["change"]], e["book"], e["name"]))
    summary = {k: sum(1 for e in entries if e["change"] == k) for k in order}
    summary["unchanged"] = unchanged
    return {"summary": summary, "entries": entries}


def _summary(u: Unit) -> dict[str, Any]:
    return {"id": u["id"], "name": u["name"], "book": book_key(u)}
