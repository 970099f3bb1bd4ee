"""Units of the army books in a build (`units.json`), linked to the build's rules.

A BattleScribe catalogue states each unit's model parts (rider, mount, crew) with their
characteristics and the rules named in their profiles, the rules and equipment linked to the
unit, and its equipment options (`ingest/battlescribe.read_units`). Here the characteristics
take the interpreter's names and numbers, and every rule or piece of equipment is linked to
the id of a rule of the build, with its bracket parameters (`Devastating Charge (+1 Str)` is
`devastating-charge` with `+1 Str`); a name the build has no rule for keeps `id: null`.
A unit whose model profile is a choice (a race, a mount) lists each choice as a variant with
its parts. Sizes (models, from the data's constraints) and points (what the unit pays once
and per model; what an option or a mount costs) are carried as the data states them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.errors import InputError
from pipeline.extract.names import rule_id
from pipeline.files import read_bytes
from pipeline.ingest.army import read_drop_units
from pipeline.lang import data as lang_data
from pipeline.lookup import fold, known_id
from pipeline.slug import unique
from pipeline.xmlsafe import read_zip

_REF = re.compile(r"^(?P<name>[^()\[\]]+?)\s*(?:[(\[](?P<params>.*)[)\]])?\s*$")
_NUMBER = re.compile(r"^\s*(\d+)\s*(?:\"|″|”|'')?\s*$")
_SUFFIXES = (".cat", ".catz", ".gst", ".gstz")


def link(name: str, ids: Iterable[str] | set[str], lang: str = "en") -> dict[str, Any]:
    """A stated rule name as {name, id, params}; `id` is None when the build has no such rule.
    A name in the plural is its singular's rule; a combined option (`Light Lance and Shield`)
    whose every part names a rule lists them as `combines`."""
    known = ids if isinstance(ids, set) else set(ids)
    out = _link_one(name, known, lang)
    if out["id"] is None:
        parts = _split_joined(name, lang_data(lang, "names").get("option_joiners") or ())
        if len(parts) > 1:
            linked = [_link_one(p, known, lang) for p in parts]
            if all(x["id"] is not None for x in linked):
                out["combines"] = linked
    return out


def _link_one(name: str, ids: set[str], lang: str) -> dict[str, Any]:
    m = _REF.match(name)
    base = m.group("name").strip() if m else name
    params = [p.strip() for p in (m.group("params") or "").split(",") if p.strip()] if m else []
    found = rule_id(base)
    if found not in ids:
        plural = lang_data(lang, "names").get("plural_endings") or ()
        found = known_id(base, ids, plural) or found
    out: dict[str, Any] = {"name": name, "id": found if found in ids else None}
    if params:
        out["params"] = params
    return out


def _split_joined(name: str, joiners: Iterable[str]) -> list[str]:
    """`Heavy Armour and Crossbow (4+)` at its joiners outside brackets, parts stripped."""
    parts, depth, last, i = [], 0, 0, 0
    seps = sorted(joiners, key=len, reverse=True)
    while i < len(name):
        ch = name[i]
        depth += ch in "(["
        depth -= ch in ")]"
        sep = next((s for s in seps if depth == 0 and name.startswith(s, i)), None)
        if sep:
            parts.append(name[last:i].strip())
            i += len(sep)
            last = i
            continue
        i += 1
    parts.append(name[last:].strip())
    return [p for p in parts if p]


def _characteristics(stated: Mapping[str, str], lang: str = "en") -> dict[str, Any]:
    """Characteristics under the interpreter's names (numbers where stated as one); Height,
    Type and Base under `size`; a column the language data does not name under its own
    name in lower case, as stated."""
    profiles = lang_data(lang, "profiles")
    columns = profiles["columns"]
    descriptive = {c.lower() for c in profiles.get("descriptive_columns") or ()}
    out: dict[str, Any] = {}
    size: dict[str, str] = {}
    for key, value in stated.items():
        char = columns.get(key)
        if char is None:
            if key.lower() in descriptive:
                size[key.lower()] = value
            elif key not in _rule_columns(lang):
                out[key.lower()] = value
            continue
        m = _NUMBER.match(value)
        out[char] = int(m.group(1)) if m else value
    if size:
        out["size"] = size
    return out


def _rule_columns(lang: str) -> dict[str, str]:
    """Profile columns whose value is a rule's bracket (`Aeg 5+` is Aegis (5+))."""
    return dict(lang_data(lang, "units").get("rule_columns") or {})


def _column_rules(stated: Mapping[str, str], lang: str = "en") -> list[str]:
    out = []
    for key, rule in _rule_columns(lang).items():
        value = (stated.get(key) or "").strip()
        if value and value not in ("0", "-", "C"):
            out.append(f"{rule} ({value})")
    return out


def _options(raw: Sequence[Mapping[str, Any]], ids: set[str]) -> list[dict[str, Any]]:
    """Option groups with their choices linked; a choice stated by its name alone is kept
    when the name is a rule's (a weapon of the game system)."""
    out = []
    for o in raw:
        choices = [_choice(c, ids) for c in o["choices"]]
        kept = [
            c
            for c, r in zip(choices, o["choices"], strict=True)
            if not r.get("named") or c["id"] or c.get("combines")
        ]
        if kept:
            out.append({"group": o["group"], "choices": kept})
    return out


def _choice(choice: Mapping[str, Any], ids: set[str]) -> dict[str, Any]:
    out = link(choice["name"], ids)
    if choice.get("points"):
        out["points"] = choice["points"]
    return out


def units_of(
    raw: Sequence[dict[str, Any]], drop: str, file: str, ids: set[str]
) -> list[dict[str, Any]]:
    """The units of one catalogue with characteristics read and rules linked."""
    out = []
    for unit in raw:
        if not unit["name"]:  # units.json names every unit; an id needs a name to come from
            where = str(unit["lines"][0])
            raise InputError(f"{drop}/{file}", "a unit entry has no name (or only spaces)", where)
        out.append(
            {
                "id": rule_id(unit["name"]),
                "name": unit["name"],
                "source": {
                    "drop": drop,
                    "file": file,
                    "lines": unit["lines"],
                    **({"book": unit["book"]} if unit.get("book") else {}),
                },
                "parts": _parts(unit["parts"], ids),
                "rules": [link(r, ids) for r in unit["rules"]],
                "equipment": [link(e, ids) for e in unit["equipment"]],
                "options": _options(unit["options"], ids),
                "size": unit["size"],
                **({"points": unit["points"]} if unit.get("points") else {}),
            }
        )
        if unit.get("variants"):
            out[-1]["variants"] = [_variant(v, ids) for v in unit["variants"]]
        _name_stated_weapons(out[-1])
    return out


def _name_stated_weapons(unit: dict[str, Any]) -> None:
    """A part's rule that names a weapon the unit states by a longer name is that weapon:
    a war machine's crew with `Scorpion (4+)` beside the profile `Scorpion Artillery Weapon`
    (the bracket, the Aim, kept)."""
    stated = [e for e in unit["equipment"] if e["id"]]
    parts = [*unit["parts"], *(p for v in unit.get("variants") or [] for p in v["parts"])]
    for part in parts:
        for rule in part["rules"]:
            m = _REF.match(rule["name"])
            if rule["id"] is not None or not m:
                continue
            base = fold(m.group("name").strip()) + " "
            found = [e for e in stated if fold(e["name"]).startswith(base)]
            if len(found) == 1:
                rule["id"] = found[0]["id"]


def _variant(v: Mapping[str, Any], ids: set[str]) -> dict[str, Any]:
    out = {
        "group": v["group"],
        "name": v["name"],
        "default": v["default"],
        "kind": v["kind"],
        "parts": _parts(v["parts"], ids),
        "rules": [link(r, ids) for r in v["rules"]],
        "equipment": [link(e, ids) for e in v["equipment"]],
    }
    if v.get("points"):
        out["points"] = v["points"]
    return out


def _parts(raw: Sequence[dict[str, Any]], ids: set[str]) -> list[dict[str, Any]]:
    return [
        {
            "name": p["name"],
            "role": p["role"],
            "characteristics": _characteristics(p["characteristics"]),
            "rules": [link(r, ids) for r in [*p["rules"], *_column_rules(p["characteristics"])]],
        }
        for p in raw
    ]


def corpus_units(inputs: Iterable[tuple[str, str, Path]], ids: set[str]) -> list[dict[str, Any]]:
    """Units of every BattleScribe file of the corpus, ordered by id, ids made unique. The
    files of one drop are read together: a catalogue's choices may be entries of its game
    system."""
    by_drop: dict[str, list[tuple[str, str, bytes]]] = {}
    for drop, file, path in inputs:  # the path read, not one made of the escaped name
        suffix = Path(file).suffix.lower()
        if suffix not in _SUFFIXES:
            continue
        data = read_bytes(path, "file", follow=False)
        name = f"{drop}/{file}"
        if suffix.endswith("z"):
            [member] = read_zip(name, data, max_members=1)
            data, name = member.data, f"{name}!{member.name}"
        by_drop.setdefault(drop, []).append((file, name, data))
    units: list[dict[str, Any]] = []
    for drop, files in by_drop.items():
        read = read_drop_units([(name, data) for _, name, data in files])
        for file, name, _ in files:
            units.extend(units_of(read.get(name, []), drop, file, ids))
    units.sort(key=lambda u: (u["id"], u["source"]["drop"], u["source"]["file"]))
    for unit, unit_id in zip(units, unique([u["id"] for u in units]), strict=True):
        unit["id"] = unit_id
    return units


# --- what a unit's page shows -----------------------------------------------------------------


def points_text(p: Mapping[str, Any] | None, models: int | None = None) -> str:
    """A cost as a person reads it: `260 pts for 6 models (48 a model, -28 once)`, `65 pts`,
    `+1 pts a model`."""
    if not p:
        return ""
    base, per = float(p.get("base") or 0), float(p.get("per_model") or 0)
    if per and models:
        text = f"{base + per * models:g} pts for {models} models ({per:g} a model, {base:+g} once)"
    elif per:
        text = f"{per:+g} pts a model" + (f", {base:+g} once" if base else "")
    else:
        text = f"{base:g} pts"
    return text + (" (conditions change it)" if p.get("conditional") else "")


def link_text(link: Mapping[str, Any]) -> str:
    cost = points_text(link.get("points"))
    rule = link.get("id") or "no rule in the build"
    return f"{link['name']} ({rule})" + (f", {cost}" if cost else "")


CHARACTERISTICS = (
    ("advance_rate", "Adv"),
    ("march_rate", "Mar"),
    ("discipline", "Dis"),
    ("health_points", "HP"),
    ("defensive_skill", "Def"),
    ("resilience", "Res"),
    ("armour", "Arm"),
    ("attacks", "Att"),
    ("offensive_skill", "Off"),
    ("strength", "Str"),
    ("armour_penetration", "AP"),
    ("agility", "Agi"),
)


def unit_view(unit: Mapping[str, Any], rule_too: bool = False) -> dict[str, Any]:
    """What a unit's page shows (`show`, the site), as rows a printer lays out: title, facts
    (book, size, points), a table of its parts' characteristics and rules, the lists of its
    rules, equipment and options, and its variants (races, mounts) each with its parts."""
    size = unit.get("size") or {}
    high = size.get("max")
    sized = f"{size.get('min')}" + ("" if high == size.get("min") else f"-{high or 'any'}")
    facts = [
        f"{unit['id']} · unit · {unit['source'].get('book') or unit['source']['file']}",
        f"size {sized} models" + (" (conditions change it)" if size.get("conditional") else ""),
    ]
    if unit.get("points"):
        facts.append(f"points {points_text(unit['points'], int(size.get('min') or 1))}")
    if rule_too:
        facts.append(f"a rule has this id too: rulepipe show {unit['id']}")

    def table(parts: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[list[str]]]:
        header = ["part", "role", *(short for _, short in CHARACTERISTICS), "size", "rules"]
        rows = []
        for p in parts:
            chars = p["characteristics"]
            size_ = chars.get("size") or {}
            rows.append(
                [
                    p["name"],
                    p["role"],
                    *(str(chars.get(k, "")) for k, _ in CHARACTERISTICS),
                    " ".join(str(v) for v in size_.values()),
                    ", ".join(link_text(r) for r in p["rules"]),
                ]
            )
        return header, rows

    lists = [
        ("rules", [link_text(r) for r in unit["rules"]]),
        ("equipment", [link_text(e) for e in unit["equipment"]]),
        *((f"option: {o['group']}", [link_text(c) for c in o["choices"]]) for o in unit["options"]),
    ]
    variants = []
    for v in unit.get("variants") or []:
        cost = points_text(v.get("points"))
        head = f"{v.get('kind', 'race')}: {v['name']} ({v['group']})" + (
            ", default" if v["default"] else ""
        )
        head += f", {cost}" if cost else ""
        extra = [link_text(x) for x in [*v["rules"], *v["equipment"]]]
        if extra:
            head += f"; with {', '.join(extra)}"
        variants.append((head, table(v["parts"]) if v["parts"] else None))
    src = unit["source"]
    return {
        "title": unit["name"],
        "facts": facts,
        "parts": table(unit["parts"]),
        "lists": lists,
        "variants": variants,
        "source": f"{src['drop']}/{src['file']} lines {src['lines'][0]}-{src['lines'][1]}",
    }
