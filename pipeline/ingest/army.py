"""The units of BattleScribe catalogues as an army builder states them.

A unit entry (`selectionEntry type="unit"`) holds its model entries (`type="model"`, or an
upgrade that carries the model profiles and a minimum count), whose `min`/`max` constraints
are the unit's size and whose `pts` cost is the cost of a model; the unit's own cost is paid
once. Its model profiles (typed `Global`, `Defensive`, `Offensive`, `Size`, with or without
an army's suffix such as `Defensive (DL)`) are its parts; infoLinks give its rules and
equipment; groups of choices give its options, each with what it costs (a fixed cost, and
an increment per model where the data repeats it per model). A choice may be a link
(`entryLink`) to an entry elsewhere in the catalogue or in the game system, so the entries of
all files of a drop are read together.

Two kinds of choices give the model a profile: a choice that completes it (a race whose
Defensive characteristics the unit lacks) and a choice that rides under it (a mount, a
chariot, a crew: Offensive characteristics of its own and the whole model's Global,
Defensive and Size). Both are variants of the unit. A mount's `C` characteristics are the
character's (`C+2` adds 2), as the rulebook's multipart models read them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from lxml import etree

from ..xmlsafe import line_span, local, parse_xml
from .battlescribe import NAMESPACES

MODEL_TYPES = ("global", "defensive", "offensive", "size")
WHOLE = frozenset({"global", "defensive", "size"})  # the whole model's, not one part's
_COST_NAME = "pts"
_CHARACTER = re.compile(r"^\s*C\s*(?:([+-])\s*(\d+))?\s*$")

Rows = tuple[tuple[str, str], ...]
Profile = tuple[str, str, Rows]  # part name, profile type, rows


def profile_type(profile: etree._Element) -> str:
    """`2 Defensive (DL)` -> `defensive`: the sort number and an army's suffix dropped."""
    name = re.sub(r"^\s*\d+\s*", "", profile.get("typeName") or "")
    return re.sub(r"\s*\([^()]*\)\s*$", "", name).strip().lower()


def _children(el: etree._Element, *names: str) -> list[etree._Element]:
    """Direct children named `names[0]`, then their children named `names[1]`, ..."""
    found = [el]
    for name in names:
        found = [c for f in found for c in f if local(c) == name]
    return found


def _rows(profile: etree._Element) -> Rows:
    rows: list[tuple[str, str]] = []
    for holder in _children(profile, "characteristics"):
        for ch in _children(holder, "characteristic"):
            text = "".join(ch.itertext()).strip()
            rows.append(((ch.get("name") or "").strip(), text or (ch.get("value") or "").strip()))
    return tuple(rows)


def _name(el: etree._Element) -> str:
    """A name as stated, without the zero-width spaces some files carry."""
    return re.sub(r"[\u200b\u200c\u200d\ufeff]", "", el.get("name") or "").strip()


class Index:
    """Entries, groups and profiles of the files of one drop, by id, for links to resolve."""

    def __init__(self, roots: Iterable[etree._Element]) -> None:
        self.by_id: dict[str, etree._Element] = {}
        kinds = ("selectionEntry", "selectionEntryGroup", "profile", "rule")
        for root in roots:
            for el in root.iter():
                if local(el) in kinds and el.get("id"):
                    self.by_id.setdefault(el.get("id", ""), el)

    def target(self, link: etree._Element) -> etree._Element | None:
        return self.by_id.get(link.get("targetId") or "")


class Choice:
    """An entry as a unit offers it: through a link (its name and cost) or directly."""

    def __init__(self, entry: etree._Element, link: etree._Element | None = None) -> None:
        self.entry = entry
        self.link = link
        self.name = _name(link if link is not None else entry)

    def cost(self) -> float:
        for el in (self.link, self.entry):
            if el is not None:
                found = _cost(el)
                if found is not None:
                    return found
        return 0.0

    def elements(self) -> list[etree._Element]:
        return [self.entry] + ([self.link] if self.link is not None else [])


def _cost(el: etree._Element) -> float | None:
    costs = _children(el, "costs", "cost")
    named = [c for c in costs if (c.get("name") or "").strip().lower() == _COST_NAME]
    for c in named or costs[:1]:
        try:
            return float(c.get("value") or 0)
        except ValueError:
            return None
    return None


def _cost_ids(el: etree._Element) -> set[str]:
    return {c.get("typeId") or "" for c in _children(el, "costs", "cost")}


def _per_model(choice: Choice, models: frozenset[str]) -> tuple[float, bool]:
    """(cost added per model, whether a condition changes the cost) from the choice's
    modifiers: an unconditional increment repeated once per model (`model`, or the id of
    the unit's model entry) is a cost per model."""
    ids = set().union(*(_cost_ids(e) for e in choice.elements())) - {""}
    per, conditional = 0.0, False
    for el in choice.elements():
        for mod in _children(el, "modifiers", "modifier"):
            if mod.get("field") not in ids:
                continue
            repeats = _children(mod, "repeats", "repeat")
            conditions = list(mod.iter("{*}condition"))
            per_model = (
                mod.get("type") == "increment"
                and len(repeats) == 1
                and (repeats[0].get("childId") or "") in models | {"model"}
                and (repeats[0].get("value") or "").strip() in ("1", "1.0")
                and not conditions
            )
            if per_model:
                per += float(mod.get("value") or 0)
            else:
                conditional = True
    return per, conditional


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _choices(el: etree._Element, index: Index) -> list[Choice]:
    """The entries a unit or group offers: its own and those it links to."""
    out = [Choice(e) for e in _children(el, "selectionEntries", "selectionEntry")]
    for link in _children(el, "entryLinks", "entryLink"):
        target = index.target(link)
        if target is not None and local(target) == "selectionEntry":
            out.append(Choice(target, link))
    return out


def _groups(el: etree._Element, index: Index) -> list[tuple[str, etree._Element]]:
    """(name, group) of the groups a unit offers: its own and those it links to."""
    out = [(_name(g), g) for g in _children(el, "selectionEntryGroups", "selectionEntryGroup")]
    for link in _children(el, "entryLinks", "entryLink"):
        target = index.target(link)
        if target is not None and local(target) == "selectionEntryGroup":
            out.append((_name(link) or _name(target), target))
    return out


def _profiles(entry: etree._Element) -> list[Profile]:
    """(part name, profile type, rows) of the model profiles stated in an entry."""
    out = []
    for profile in _children(entry, "profiles", "profile"):
        kind = profile_type(profile)
        if kind not in MODEL_TYPES:
            continue
        name = _name(profile)
        part = re.sub(rf"\s+{kind}$", "", name, flags=re.IGNORECASE).strip() or name
        out.append((part, kind, _rows(profile)))
    return out


def _link_name(link: etree._Element) -> str:
    """An infoLink's name with what its modifiers append (`Multiple Wounds` + ` (D3)`)."""
    name = _name(link)
    for mod in _children(link, "modifiers", "modifier"):
        if mod.get("type") == "append" and mod.get("field") == "name":
            name += mod.get("value") or ""
    return name.strip()


def _links(entries: Iterable[etree._Element], kind: str) -> list[str]:
    return _unique(
        _link_name(x)
        for e in entries
        for x in _children(e, "infoLinks", "infoLink")
        if x.get("type") == kind
    )


def _ranged(entries: Iterable[etree._Element]) -> list[str]:
    """Names of the shooting-weapon profiles stated in the entries themselves (a war
    machine's Artillery Weapon)."""
    return _unique(
        _name(p)
        for e in entries
        for p in _children(e, "profiles", "profile")
        if "weapon" in profile_type(p) and "melee" not in profile_type(p)
    )


def _size(models: Sequence[etree._Element]) -> tuple[dict[str, int | None], bool]:
    """{min, max} models of a unit and whether a condition changes them: the constraints of
    its model entries (a unit without one is a single model)."""
    if not models:
        return {"min": 1, "max": 1}, False
    low, high, conditional = 0, 0, False
    unbounded = False
    for m in models:
        bounds: dict[str, int] = {}
        ids = {}
        for c in _children(m, "constraints", "constraint"):
            if c.get("field") == "selections" and c.get("scope") == "parent":
                try:
                    bounds[c.get("type") or ""] = int(float(c.get("value") or 0))
                except ValueError:
                    continue
                ids[c.get("id")] = c.get("type")
        low += bounds.get("min", 0)
        if "max" in bounds:
            high += bounds["max"]
        else:
            unbounded = True
        conditional |= any(mod.get("field") in ids for mod in _children(m, "modifiers", "modifier"))
    return {"min": max(low, 1), "max": None if unbounded else max(high, 1)}, conditional


def _model_entries(unit: etree._Element) -> list[etree._Element]:
    """A unit's model entries: `type="model"`, else an upgrade that states the model's
    profiles and a minimum count of its own."""
    kids = _children(unit, "selectionEntries", "selectionEntry")
    models = [m for m in kids if m.get("type") == "model"]
    if models or _profiles(unit):
        return models
    return [
        m
        for m in kids
        if {k for _, k, _ in _profiles(m)} >= {"offensive"}
        and any(
            c.get("type") == "min" and c.get("scope") == "parent"
            for c in _children(m, "constraints", "constraint")
        )
    ]


def _unit_points(unit: etree._Element, models: Sequence[etree._Element]) -> dict[str, Any] | None:
    """The unit's cost: what it pays once and what each model adds; None when the data
    states no cost."""
    if _cost(unit) is None and all(_cost(m) is None for m in models[:1]):
        return None
    base = _cost(unit) or 0.0
    per = sum((_cost(m) or 0.0) for m in models[:1])
    conditional = False
    for el in (unit, *models[:1]):
        ids = _cost_ids(el) - {""}
        conditional |= any(
            mod.get("field") in ids for mod in _children(el, "modifiers", "modifier")
        )
    out: dict[str, Any] = {"base": _number(base), "per_model": _number(per)}
    if conditional:
        out["conditional"] = True
    return out


def _option_points(choice: Choice, models: frozenset[str]) -> dict[str, Any] | None:
    """A choice's cost: fixed, per model, and whether a condition changes it; None when it
    costs nothing that the data states."""
    fixed = choice.cost()
    per, conditional = _per_model(choice, models)
    if not fixed and not per and not conditional:
        return None
    out: dict[str, Any] = {"base": _number(fixed), "per_model": _number(per)}
    if conditional:
        out["conditional"] = True
    return out


def _equipment_names(choice: Choice) -> list[str]:
    entry = choice.entry
    names = [_link_name(x) for x in _children(entry, "infoLinks", "infoLink")]
    names += [_name(p) for p in _children(entry, "profiles", "profile")]
    return [n for n in names if n]


def _options(
    unit: etree._Element, index: Index, variants: set[int], models: frozenset[str]
) -> list[dict[str, Any]]:
    """Equipment choices: groups and upgrades whose entries carry a profile (a weapon,
    armour), each choice with its cost; the choices already read as variants are left out.
    A choice that is nothing but its name (the 2024 game system's weapons) is kept marked
    `named`: it is an option when its name is a rule's (units.py links it)."""
    out: list[dict[str, Any]] = []

    def entry(c: Choice, name: str | None = None) -> dict[str, Any]:
        item: dict[str, Any] = {"name": name or c.name}
        points = _option_points(c, models)
        if points:
            item["points"] = points
        return item

    for name, group in _groups(unit, index):
        found = [c for c in _choices(group, index) if id(c.entry) not in variants]
        choices = [entry(c) for c in found if _equipment_names(c)]
        choices += [{**entry(c), "named": True} for c in found if _bare(c.entry)]
        if choices:
            out.append({"group": name, "choices": choices})
    for c in _choices(unit, index):
        if c.entry.get("type") == "upgrade" and id(c.entry) not in variants:
            names = _equipment_names(c)
            if names:
                points = _option_points(c, models)
                items = [{"name": n} for n in names]
                if points and len(items) == 1:
                    items[0]["points"] = points
                out.append({"group": c.name, "choices": items})
            elif _bare(c.entry):
                out.append({"group": c.name, "choices": [{**entry(c), "named": True}]})
    return out


def _bare(entry: etree._Element) -> bool:
    """An entry that states nothing but its name (and its cost and limits)."""
    said = {"profiles", "infoLinks", "selectionEntries", "selectionEntryGroups", "entryLinks"}
    return entry.get("type") == "upgrade" and not any(local(c) in said for c in entry)


def read_units(
    name: str, data: bytes | etree._Element, index: Index | None = None
) -> list[dict[str, Any]]:
    """The units of a catalogue (`index`: the entries of the other files of its drop).

    Each unit: its parts (model profiles with characteristics and the rules named in them),
    the rules and equipment linked to it, its options, its size and points; variants for
    the choices that give the model a profile (a race, a mount), each with its parts,
    rules, equipment and points.
    """
    root = data if isinstance(data, etree._Element) else parse_xml(name, data)
    if local(root) not in NAMESPACES:
        return []
    index = index or Index([root])
    units = []
    book = _name(root)
    for unit in root.iter():
        if local(unit) != "selectionEntry" or unit.get("type") != "unit":
            continue
        units.append({**_unit(unit, index), "book": book})
    return units


def _unit(unit: etree._Element, index: Index) -> dict[str, Any]:
    models = _model_entries(unit)
    entries = [unit, *models]
    profiles = [x for m in entries for x in _profiles(m)]
    base = {kind for _, kind, _ in profiles}
    ids = frozenset(m.get("id") or "" for m in models) - {""}
    races = _completions(entries, index, WHOLE - base, ids)
    defaults = [x for c in races if c["default"] for x in c["profiles"]]
    stated = base | {k for _, k, _ in defaults}
    mounts = _mounts(unit, index, stated, models) if profiles else []
    size, size_varies = _size(models)
    out: dict[str, Any] = {
        "name": _name(unit),
        "parts": _parts(profiles + defaults),
        "rules": _links(entries, "rule"),
        "equipment": _unique([*_links(entries, "profile"), *_ranged(entries)]),
        "options": _options(
            unit, index, {id(c["entry"]) for c in [*races, *mounts]} | {id(m) for m in models}, ids
        ),
        "lines": list(line_span(unit)),
        "size": size,
    }
    points = _unit_points(unit, models)
    if points is not None:
        out["points"] = points
    if size_varies:
        out["size"]["conditional"] = True
    variants = []
    for c in races:
        variants.append(_variant(c, _parts(profiles + c["profiles"] + _others(races, c)), "race"))
    for c in mounts:
        parts = _parts(profiles + defaults + c["profiles"]) if c["profiles"] else []
        if parts and not any(k == "size" for _, k, _ in c["profiles"]):
            for part in parts:  # the mount's Type and Base are not stated: not the rider's
                for key in [k for k in part["characteristics"] if k.lower() in ("type", "base")]:
                    del part["characteristics"][key]
        variants.append(_variant(c, parts, "mount"))
    if variants:
        out["variants"] = variants
    return out


def _variant(c: dict[str, Any], parts: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    out = {
        "group": c["group"],
        "name": c["name"],
        "default": c["default"],
        "kind": kind,
        "parts": parts,
        "rules": c["rules"],
        "equipment": c["equipment"],
    }
    if c.get("points"):
        out["points"] = c["points"]
    return out


def _choice_record(
    group: str, c: Choice, profiles: list[Profile], models: frozenset[str] = frozenset()
) -> dict[str, Any]:
    entries = [c.entry]
    out = {
        "group": group,
        "name": c.name,
        "entry": c.entry,
        "profiles": profiles,
        "rules": _links(entries, "rule"),
        "equipment": _unique([*_links(entries, "profile"), *_ranged(entries)]),
    }
    points = _option_points(c, models)
    if points:
        out["points"] = points
    return out


def _completions(
    models: Iterable[etree._Element],
    index: Index,
    missing: set[str] | frozenset[str],
    ids: frozenset[str],
) -> list[dict[str, Any]]:
    """Choices of a group that complete the model's profile (a race with its own Defensive
    characteristics), and whether the group defaults to each (a group without a stated
    default takes its first choice).

    A choice completes the model when every whole-model profile it states (Global,
    Defensive, Size) is one the unit lacks; a choice that restates one is another model (a
    champion) or a mount, not a completion."""
    out: list[dict[str, Any]] = []
    for model in models:
        for group_name, group in _groups(model, index):
            stated = [(c, _profiles(c.entry)) for c in _choices(group, index)]
            stated = [(c, p) for c, p in stated if p]
            whole = [{k for _, k, _ in p} & WHOLE for _, p in stated]
            if not stated or not all(w and w <= missing for w in whole):
                continue
            found = [_choice_record(group_name, c, p, ids) for c, p in stated]
            default = group.get("defaultSelectionEntryId")
            if not any(c["entry"].get("id") == default for c in found):
                default = found[0]["entry"].get("id")
            for c in found:
                c["default"] = c["entry"].get("id") == default
            out += found
    return out


def _mounts(
    unit: etree._Element, index: Index, base: set[str], models: Sequence[etree._Element]
) -> list[dict[str, Any]]:
    """Choices the model rides (a mount, a chariot) or is crewed by: each states Offensive
    characteristics of its own and restates a whole-model profile the unit has. A group
    with such choices offers them all (those the data gives no profile are variants without
    parts); an upgrade of the unit that is one is a group of its own."""
    out: list[dict[str, Any]] = []

    def rides(profiles: list[Profile]) -> bool:
        kinds = {k for _, k, _ in profiles}
        return "offensive" in kinds and bool(kinds & WHOLE & base)

    for group_name, group in _groups(unit, index):
        choices = [(c, _profiles(c.entry)) for c in _choices(group, index)]
        if not any(rides(p) for _, p in choices):
            continue
        for c, p in choices:
            if rides(p) or not p:
                out.append(
                    {**_choice_record(group_name, c, p if rides(p) else []), "default": False}
                )
    for c in _choices(unit, index):
        p = _profiles(c.entry)
        if c.entry.get("type") == "upgrade" and rides(p) and c.entry not in models:
            out.append({**_choice_record(c.name, c, p), "default": False})
    return out


def _others(choices: list[dict[str, Any]], chosen: dict[str, Any]) -> list[Profile]:
    """The profiles of the default choices of the groups other than the chosen one's."""
    return [
        x for c in choices if c["default"] and c["group"] != chosen["group"] for x in c["profiles"]
    ]


def _parts(profiles: Iterable[Profile]) -> list[dict[str, Any]]:
    """Model parts from (part, profile type, rows): Global, Defensive and Size rows belong
    to the whole model, so every part carries them; a later profile's value replaces an
    earlier one, its `C` standing for the earlier (the character's) value."""
    parts: dict[str, dict[str, Any]] = {}
    shared: dict[str, str] = {}
    shared_rules: list[str] = []
    sized = False
    for part, kind, rows in profiles:
        target = parts.setdefault(part, {"name": part, "characteristics": {}, "rules": []})
        if kind == "size":
            if sized:  # a mount's size replaces the rider's
                for key in [k for k in shared if k.lower() in ("height", "type", "base")]:
                    del shared[key]
            sized = True
        for key, value in rows:
            if key.lower() in ("rules", "special rules"):
                names = _split_names(value)
                if kind == "offensive":
                    target["rules"].extend(names)
                else:
                    shared_rules.extend(names)
            elif value:
                if kind == "offensive":
                    target["characteristics"][key] = value
                else:
                    shared[key] = _character_value(shared.get(key), value)
    attacking = [p for p in parts.values() if p["characteristics"]] or list(parts.values())
    for i, part in enumerate(attacking):
        part["characteristics"] = {**shared, **part["characteristics"]}
        part["rules"] = _unique(shared_rules + part["rules"])
        part["role"] = _role(part["name"], i, len(attacking))
    return attacking


def _character_value(before: str | None, value: str) -> str:
    """A mount's `C` (the character's value), `C+2` or `C-1` on the character's number; the
    stated text when there is no number to start from."""
    m = _CHARACTER.match(value)
    if not m or before is None:
        return value
    sign, amount = m.groups()
    if not sign:
        return before
    number = re.match(r"^\s*(\d+)", before)
    if not number:
        return value
    total = int(number.group(1)) + (int(amount) if sign == "+" else -int(amount))
    return str(total)


def _role(part: str, index: int, count: int) -> str:
    """rider / mount / crew of a multipart model, `model` for a model of one part."""
    if count == 1:
        return "model"
    if re.search(r"\bcrew\b", part, re.IGNORECASE):
        return "crew"
    return "rider" if index == 0 else "mount"


def _split_names(value: str) -> list[str]:
    names, depth, last = [], 0, 0
    for i, ch in enumerate(value + ","):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            item = value[last:i].strip().rstrip(".")
            if item:
                names.append(item)
            last = i + 1
    return names


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(i for i in items if i))


def read_drop_units(files: Sequence[tuple[str, bytes]]) -> dict[str, list[dict[str, Any]]]:
    """The units of every catalogue of one drop, by file name; links between the files
    (a catalogue's choices that are entries of the game system) are followed."""
    roots = {}
    for name, data in files:
        root = parse_xml(name, data)
        if local(root) in NAMESPACES:
            roots[name] = root
    catalogues = [n for n, r in roots.items() if local(r) == "catalogue"]
    index = Index(
        [roots[n] for n in catalogues] + [r for n, r in roots.items() if n not in catalogues]
    )
    return {n: read_units(n, roots[n], index) for n in roots}
