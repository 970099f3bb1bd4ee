"""BattleScribe game systems and catalogues (`.gst`, `.cat`; zipped `.gstz`, `.catz`).

Community army-builder data states what a plain text drop leaves implicit: every
`<rule name=..><description>..</description></rule>` (shared rules and those nested in
entries) is a paragraph whose rule name is recorded in `Block.name`, and every
`<profile name=.. typeName=..>` is a `profile` block whose rows are its characteristics
(name, value), in the file's order, and whose `role` is its profile type (`typeName`, e.g.
"5 Melee Weapon"), so that extraction reads the columns by type. The file's `name`,
`revision` and type (game system or catalogue) are its version, carried to the build
manifest. Nothing is deduplicated here: a rule repeated across entries is a copy for dedup
to cluster.

A BattleScribe drop also serves as a reference list: the stated names reach paragraphs
elsewhere through `pipeline/extract/references.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

from lxml import etree

from ..errors import InputError
from ..model import Block
from ..xmlsafe import line_span, parse_xml, read_zip
from . import reader
from .inline import local
from .langid import identify

NAMESPACES = {
    "gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema",
    "catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
}
_LANG_SAMPLE = 20_000


def _clean(text: str | None) -> str:
    """Description text as stated, without the indentation of its first and last line."""
    return (text or "").strip()


def _characteristics(profile: etree._Element) -> tuple[tuple[str, str], ...]:
    rows: list[tuple[str, str]] = []
    for holder in (c for c in profile if local(c) == "characteristics"):
        for ch in (c for c in holder if local(c) == "characteristic"):
            text = "".join(ch.itertext()).strip()
            value = text if text else (ch.get("value") or "").strip()  # BattleScribe 1.x
            rows.append(((ch.get("name") or "").strip(), value))
    return tuple(rows)


def profile_text(name: str, rows: Iterable[tuple[str, str]]) -> str:
    """A profile as one line in the rulebook's style: `Name. Range 48″, Shots 1, Str 3`."""
    body = ", ".join(f"{k} {v}" if k else v for k, v in rows if v)
    return f"{name}. {body}" if body else name


def _language(root: etree._Element) -> str:
    """The file's language, identified once over its rule texts; English when unsure."""
    sample: list[str] = []
    size = 0
    for el in root.iter():
        if local(el) == "description" and el.text:
            sample.append(el.text)
            size += len(el.text)
            if size > _LANG_SAMPLE:
                break
    found = identify(" ".join(sample)) if sample else None
    return found[0] if found and found[1] >= 0.5 else "en"


def read_document(name: str, data: bytes) -> list[Block]:
    """Blocks of a game system or catalogue XML document."""
    root = parse_xml(name, data)
    kind = local(root)
    namespace = etree.QName(root).namespace
    if kind not in NAMESPACES:
        raise InputError(
            name, f"not a BattleScribe game system or catalogue (root element <{kind}>)", "1"
        )
    if namespace != NAMESPACES[kind]:
        raise InputError(
            name, f"<{kind}> in namespace {namespace!r}; expected {NAMESPACES[kind]!r}", "1"
        )
    version = {"name": (root.get("name") or "").strip()}
    if root.get("revision"):
        version["revision"] = root.get("revision", "").strip()
    version["type"] = kind
    lang = _language(root)
    blocks: list[Block] = []
    for el in root.iter():
        what = local(el)
        if what == "rule":
            description = next((c for c in el if local(c) == "description"), None)
            raw = _clean(description.text if description is not None else None)
            if not raw:
                continue
            blocks.append(
                Block(
                    kind="paragraph",
                    raw=raw,
                    lines=line_span(description),
                    lang_hint=lang,
                    name=(el.get("name") or "").strip() or None,
                    extra={"version": version},
                )
            )
        elif what == "profile":
            rows = _characteristics(el)
            profile_name = (el.get("name") or "").strip()
            if not rows and not profile_name:
                continue
            blocks.append(
                Block(
                    kind="profile",
                    raw=profile_text(profile_name, rows),
                    lines=line_span(el),
                    rows=rows,
                    role=(el.get("typeName") or "").strip() or None,
                    lang_hint=lang,
                    name=profile_name or None,
                    extra={"version": version},
                )
            )
    return blocks


@reader(".gst", ".cat")
def read_battlescribe(name: str, data: bytes) -> list[Block]:
    return read_document(name, data)


@reader(".gstz", ".catz")
def read_battlescribe_zip(name: str, data: bytes) -> list[Block]:
    """A zipped game system or catalogue: a zip archive of exactly one `.gst`/`.cat`."""
    members = read_zip(name, data, max_members=1)
    if len(members) != 1:
        raise InputError(name, f"expected one zipped .gst or .cat file, found {len(members)}")
    [member] = members
    if PurePosixPath(member.name).suffix.lower() not in (".gst", ".cat", ".xml"):
        raise InputError(name, f"zip member {member.name!r} is not a .gst or .cat file")
    return read_document(f"{name}!{member.name}", member.data)


# --- units of a catalogue ---------------------------------------------------------------------

_MODEL_TYPES = ("global", "defensive", "offensive", "size")


def _children(el: etree._Element, *names: str) -> list[etree._Element]:
    """Direct children named `names[0]`, then their children named `names[1]`, ..."""
    found = [el]
    for name in names:
        found = [c for f in found for c in f if local(c) == name]
    return found


def _link_name(link: etree._Element) -> str:
    """An infoLink's name with what its modifiers append (`Multiple Wounds` + ` (D3)`)."""
    name = (link.get("name") or "").strip()
    for mod in _children(link, "modifiers", "modifier"):
        if mod.get("type") == "append" and mod.get("field") == "name":
            name += mod.get("value") or ""
    return name.strip()


def _part_profiles(entry: etree._Element) -> list[tuple[str, str, tuple[tuple[str, str], ...]]]:
    """(part name, profile type, rows) of the model profiles stated in an entry."""
    out = []
    for profile in _children(entry, "profiles", "profile"):
        kind = re.sub(r"^\s*\d+\s*", "", profile.get("typeName") or "").lower()
        if kind not in _MODEL_TYPES:
            continue
        name = (profile.get("name") or "").strip()
        part = re.sub(rf"\s+{kind}$", "", name, flags=re.IGNORECASE).strip() or name
        out.append((part, kind, _characteristics(profile)))
    return out


def _options(entry: etree._Element) -> list[dict[str, Any]]:
    """Equipment choices: groups and upgrades whose entries carry a profile (a weapon, armour)."""
    out: list[dict[str, Any]] = []

    def equipment(el: etree._Element) -> list[str]:
        names = [_link_name(x) for x in _children(el, "infoLinks", "infoLink")]
        names += [(p.get("name") or "").strip() for p in _children(el, "profiles", "profile")]
        return [n for n in names if n]

    for group in _children(entry, "selectionEntryGroups", "selectionEntryGroup"):
        choices = [
            (e.get("name") or "").strip()
            for e in _children(group, "selectionEntries", "selectionEntry")
            if equipment(e)
        ]
        if choices:
            out.append({"group": (group.get("name") or "").strip(), "choices": choices})
    for up in _children(entry, "selectionEntries", "selectionEntry"):
        if up.get("type") == "upgrade" and equipment(up):
            out.append({"group": (up.get("name") or "").strip(), "choices": equipment(up)})
    return out


def read_units(name: str, data: bytes) -> list[dict[str, Any]]:
    """The units of a catalogue: model parts with characteristics and the rules named in their
    profiles, the rules and default equipment linked to the unit, and its equipment options.
    A unit whose profile is a choice (a race) has its default choice's profiles in its parts
    and every choice as a variant (its parts, rules and equipment).

    A part is named by its profiles ("Warhorse Offensive" is the part Warhorse); Global and
    Defensive characteristics belong to the whole model, so every part carries them.
    """
    root = parse_xml(name, data)
    if local(root) not in NAMESPACES:
        return []
    units = []
    for entry in root.iter():
        if local(entry) != "selectionEntry" or entry.get("type") != "unit":
            continue
        models = [entry] + [
            m
            for m in _children(entry, "selectionEntries", "selectionEntry")
            if m.get("type") == "model"
        ]
        profiles = [x for m in models for x in _part_profiles(m)]
        base = {kind for _, kind, _ in profiles}
        choices = _profile_choices(models, {"global", "defensive", "size"} - base)
        defaults = [x for c in choices if c["default"] for x in c["profiles"]]
        links = [x for m in models for x in _children(m, "infoLinks", "infoLink")]
        units.append(
            {
                "name": (entry.get("name") or "").strip(),
                "parts": _parts(profiles + defaults),
                "rules": _unique(_link_name(x) for x in links if x.get("type") == "rule"),
                "equipment": _unique(_link_name(x) for x in links if x.get("type") == "profile"),
                "options": _options(entry),
                "lines": list(line_span(entry)),
            }
        )
        if choices:
            units[-1]["variants"] = [
                {
                    "group": c["group"],
                    "name": c["name"],
                    "default": c["default"],
                    "parts": _parts(profiles + c["profiles"] + _others(choices, c)),
                    "rules": c["rules"],
                    "equipment": c["equipment"],
                }
                for c in choices
            ]
    return units


def _parts(profiles: Iterable[tuple[str, str, tuple[tuple[str, str], ...]]]) -> list[dict]:
    """Model parts from (part, profile type, rows): Global and Defensive rows are shared."""
    parts: dict[str, dict[str, Any]] = {}
    shared: dict[str, str] = {}
    shared_rules: list[str] = []
    for part, kind, rows in profiles:
        target = parts.setdefault(part, {"name": part, "characteristics": {}, "rules": []})
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
                    shared[key] = value
    attacking = [p for p in parts.values() if p["characteristics"]] or list(parts.values())
    for i, part in enumerate(attacking):
        part["characteristics"] = {**shared, **part["characteristics"]}
        part["rules"] = _unique(shared_rules + part["rules"])
        part["role"] = _role(part["name"], i, len(attacking))
    return attacking


def _profile_choices(models: Iterable[etree._Element], missing: set[str]) -> list[dict[str, Any]]:
    """Choices of a group that complete the model's profile (a race with its own Defensive
    characteristics): each with its profiles, rules and equipment, and whether the group
    defaults to it (a group without a stated default takes its first choice).

    A choice completes the model when every whole-model profile it states (Global, Defensive,
    Size) is one the unit lacks; a choice that restates one is another model (a champion) or
    a mount, not a completion."""
    out: list[dict[str, Any]] = []
    for model in models:
        for group in _children(model, "selectionEntryGroups", "selectionEntryGroup"):
            found = []
            entries = _children(group, "selectionEntries", "selectionEntry")
            stated = [(e, _part_profiles(e)) for e in entries]
            stated = [(e, p) for e, p in stated if p]
            whole = [{k for _, k, _ in p} & {"global", "defensive", "size"} for _, p in stated]
            if not stated or not all(w and w <= missing for w in whole):
                continue
            for e, profiles in stated:
                links = _children(e, "infoLinks", "infoLink")
                found.append(
                    {
                        "group": (group.get("name") or "").strip(),
                        "name": (e.get("name") or "").strip(),
                        "id": e.get("id"),
                        "profiles": profiles,
                        "rules": _unique(_link_name(x) for x in links if x.get("type") == "rule"),
                        "equipment": _unique(
                            _link_name(x) for x in links if x.get("type") == "profile"
                        ),
                    }
                )
            default = group.get("defaultSelectionEntryId")
            if found and not any(c["id"] == default for c in found):
                default = found[0]["id"]
            for c in found:
                c["default"] = c.pop("id") == default
            out += found
    return out


def _others(choices: list[dict[str, Any]], chosen: dict[str, Any]) -> list:
    """The profiles of the default choices of the groups other than the chosen one's."""
    return [
        x for c in choices if c["default"] and c["group"] != chosen["group"] for x in c["profiles"]
    ]


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
