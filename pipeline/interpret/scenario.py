"""Sides of a fight named by unit: `{unit: Imperial Guard, models: 25, weapon: halberd}`.

A player names a unit, not its Offensive Skill. The build's `units.json` gives each model
part (rider and mount, crew) its characteristics and rules, the unit its equipment and
options; a chosen weapon replaces the unit's default weapons, chosen options join its
equipment. Each part strikes with its own characteristics and rules (a mount does not wield
the rider's halberd); the model defends with the Defensive characteristics every part shares
and all the rules of its parts and equipment (a Shield's +1 Armour, Parry). Fields written in
the scenario override what the unit states. A model whose profile is a choice (a race) is
its default choice unless an option names another; a rule whose value no bracket gives is
left out and reported in `unresolved`. A side without `unit` is written out in full, as
`attack` has always read it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from pipeline.build_folder import require_build
from pipeline.errors import InputError
from pipeline.files import read_data
from pipeline.interpret.attack import (
    ATTACKER_FIELDS,
    DEFENDER_FIELDS,
    INT_FIELDS,
    Side,
    unknown_field,
)
from pipeline.interpret.core import core
from pipeline.interpret.rules import Build, parse_ref
from pipeline.lookup import did_you_mean, fold
from pipeline.slug import slugify

COMBAT_PATH = Path(__file__).with_name("combat.yaml")
SIDE_KEYS = {
    "unit",
    "models",
    "weapon",
    "options",
    "charging",
    "rules",
    "attacks",
    "width",
    "ranks",
    "standard",
    "height",
}
# what a part lacks it does not have: a Chassis with no Offensive profile makes no attacks
PART_DEFAULTS = {
    "attacks": 0,
    "offensive_skill": 0,
    "strength": 0,
    "armour_penetration": 0,
    "agility": 0,
}


@lru_cache(maxsize=1)
def combat_data() -> dict[str, Any]:
    """The close-combat data of `combat.yaml` (read once per process)."""
    return read_data(COMBAT_PATH)


@dataclass(frozen=True, slots=True)
class Part:
    """One model part that strikes: its attacker side (characteristics per model, rules)."""

    name: str
    role: str
    side: Side
    height: str


@dataclass(frozen=True, slots=True)
class Force:
    """One side of a combat: the parts that strike, the model that defends, the formation."""

    name: str
    parts: tuple[Part, ...]
    defence: Side
    models: int
    width: int
    charging: bool = False
    standard: bool = False
    height: str = "standard"
    unit: str | None = None
    options: tuple[str, ...] = ()
    unresolved: tuple[str, ...] = field(default=())

    def rule_ids(self) -> set[str]:
        return {parse_ref(r).id for p in self.parts for r in p.side.rules}


class Units:
    """The units of a build (`units.json`), found by id or name as a user types them."""

    def __init__(self, build: Build | Path | str) -> None:
        self.build = build if isinstance(build, Build) else Build(build)
        path = self.build.root / "units.json"
        if not path.is_file():
            require_build(self.build.root)
            raise InputError(str(self.build.root), "this build has no units.json")
        try:
            self.all: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(str(path), f"cannot read units: {exc}") from None
        self._by_key: dict[str, dict[str, Any]] = {}
        for unit in self.all:
            self._by_key.setdefault(unit["id"], unit)
        for unit in self.all:
            self._by_key.setdefault(fold(unit["name"]), unit)
            self._by_key.setdefault(slugify(unit["name"], fallback=""), unit)

    def find(self, query: str, source: str = "scenario", where: str | None = None) -> dict:
        """The unit named `query` (id, name, any case); a miss names the closest units."""
        for key in (query, fold(query), slugify(query, fallback="")):
            if key in self._by_key:
                return self._by_key[key]
        hint = did_you_mean(slugify(query, fallback=query), (u["id"] for u in self.all))
        raise InputError(source, f"no unit {query!r} in this build{hint}", where)

    def of_army(self, army: str) -> list[dict[str, Any]]:
        """The units of one army book: its catalogue file name, with or without suffix."""
        want = fold(Path(army).stem)
        found = [u for u in self.all if fold(Path(u["source"]["file"]).stem) == want]
        if not found:
            books = sorted({Path(u["source"]["file"]).stem for u in self.all})
            raise InputError(
                army, f"no army book {army!r} in this build{did_you_mean(army, books)}"
            )
        return found


def _kind(build: Build, rule_id: str) -> str | None:
    try:
        return build.rule(rule_id).kind
    except InputError:
        return None


def _choice(unit: Mapping[str, Any], query: str, source: str, where: str) -> dict[str, Any]:
    """An option choice (or a piece of equipment) of the unit, by id or name."""
    links = [c for o in unit["options"] for c in o["choices"]] + list(unit["equipment"])
    for link in links:
        names = {fold(link["name"]), slugify(link["name"], fallback="")}
        try:
            base = parse_ref(link["name"], source).id if link["name"].strip() else ""
        except InputError:  # a name that is no reference (`Longbow (4+) & Braziers`)
            base = ""
        if link["id"] in (query, slugify(query, fallback="")) or fold(query) in names | {base}:
            return link
        if slugify(query, fallback="") == base:
            return link
    ids = sorted({c["id"] or slugify(c["name"], fallback="x") for c in links})
    ids += sorted(slugify(v["name"], fallback="x") for v in unit.get("variants") or [])
    hint = did_you_mean(slugify(query, fallback=query), ids)
    if not hint:
        hint = f"; its options: {', '.join(ids)}" if ids else "; it has no options"
    raise InputError(source, f"unit {unit['name']!r} has no option {query!r}{hint}", where)


def _variant(unit: Mapping[str, Any], query: str) -> dict[str, Any] | None:
    """The variant (a race giving the model its profile) named `query`, if the unit has one."""
    for v in unit.get("variants") or []:
        if fold(query) == fold(v["name"]) or slugify(query, fallback="") == slugify(
            v["name"], fallback=""
        ):
            return v
    return None


def _with_variants(
    unit: Mapping[str, Any], picked: list[dict[str, Any]], source: str, where: str
) -> Mapping[str, Any]:
    """The unit as its chosen variants make it: one choice a group, the default where none is
    picked; their parts replace the unit's and their rules and equipment join it."""
    variants = unit.get("variants") or []
    if not variants:
        return unit
    groups = {}
    for v in picked:
        if v["group"] in groups and groups[v["group"]] is not v:
            raise InputError(
                source,
                f"{groups[v['group']]['name']!r} and {v['name']!r} exclude each other",
                where,
            )
        groups[v["group"]] = v
    chosen = [groups.get(v["group"], v) for v in variants if v["default"]]
    chosen += [v for v in picked if v not in chosen]
    new = [v for v in chosen if not v["default"]]
    if len(new) > 1:
        names = ", ".join(repr(v["name"]) for v in new)
        raise InputError(source, f"{unit['name']}: choose one of {names}, not several", where)
    return {
        **unit,
        "parts": new[0]["parts"] if new else unit["parts"],
        "rules": [*unit["rules"], *(r for v in chosen for r in v["rules"])],
        "equipment": [*unit["equipment"], *(e for v in chosen for e in v["equipment"])],
    }


def _ref(link: Mapping[str, Any]) -> str:
    params = link.get("params") or []
    return f"{link['id']}({', '.join(params)})" if params else str(link["id"])


def _ints(data: Mapping[str, Any], source: str, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(source, f"{key} must be a whole number >= 0", f"{where}.{key}")
            out[key] = value
    return out


def _list(data: Mapping[str, Any], key: str, source: str, where: str) -> list[str]:
    value = data.get(key) or []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InputError(source, f"{key} must be a list of names", f"{where}.{key}")
    return value


def _positive(data: Mapping[str, Any], key: str, source: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InputError(source, f"{key} must be a whole number >= 1", f"{where}.{key}")
    return value


def _formation(
    data: Mapping[str, Any], models: int | None, source: str, where: str
) -> tuple[int, int]:
    """(models, width): `width` models a rank; `ranks` gives the models when none are."""
    width = _positive(data, "width", source, where)
    ranks = _positive(data, "ranks", source, where)
    if models is None:
        models = (width or 1) * ranks if ranks else 1
    if width is None:
        width = min(models, int(combat_data()["formation"]["default_width"]))
    return models, max(1, width)


def force(data: Any, build: Build, units: Units | None, source: str, where: str) -> Force:
    """One side of a scenario as a Force, from a unit of the build or from its own fields."""
    if not isinstance(data, dict):
        raise InputError(source, f"missing {where!r} mapping", where)
    if "unit" not in data:
        return _written(data, source, where)
    unknown = set(data) - SIDE_KEYS - INT_FIELDS
    if unknown:
        unknown_field(source, sorted(unknown)[0], (*SIDE_KEYS, *INT_FIELDS), where)
    if units is None:
        units = Units(build)
    if not isinstance(data["unit"], str):
        raise InputError(source, "unit must be a unit's name or id", f"{where}.unit")
    unit = units.find(data["unit"], source, f"{where}.unit")
    return unit_force(unit, data, build, source, where)


def unit_force(
    unit: Mapping[str, Any],
    data: Mapping[str, Any],
    build: Build,
    source: str = "scenario",
    where: str = "attacker",
) -> Force:
    """A unit of the build with the scenario's choices and overrides."""
    chosen: list[dict[str, Any]] = []
    named: list[str] = []
    keep: set[str] = set()  # the ids of the chosen weapon (and what comes with it)
    weapon = data.get("weapon")
    if weapon is not None and not isinstance(weapon, str):
        raise InputError(source, "weapon must be a name", f"{where}.weapon")
    picked: list[dict[str, Any]] = []
    for name in ([weapon] if weapon else []) + _list(data, "options", source, where):
        variant = _variant(unit, name)
        if variant is not None and name != weapon:
            picked.append(variant)
        else:
            choice = _choice(unit, name, source, f"{where}.options")
            named.append(choice["name"])
            parts = choice.get("combines") or [choice]  # Light Lance and Shield: both
            chosen.extend(parts)
            if name == weapon and not keep:
                keep = {str(p["id"]) for p in parts}
    unit = _with_variants(unit, picked, source, where)
    extra = _list(data, "rules", source, where)
    for r in extra:
        build.rule(parse_ref(r, source).id, source)  # an unknown id names the closest
    overrides = _ints(data, source, where)
    models = overrides.pop("models", None)
    models, width = _formation(data, models, source, where)
    charging = data.get("charging", False)
    if not isinstance(charging, bool):
        raise InputError(source, "charging must be true or false", f"{where}.charging")

    unresolved: list[str] = []
    on_parts = {r["name"] for p in unit["parts"] for r in p["rules"]}
    kit = [*unit["equipment"], *chosen]
    if weapon:  # the chosen weapon replaces the unit's default weapons
        kit = [k for k in kit if k["id"] in keep or _kind(build, str(k["id"])) != "weapon"]
    whole = [r for r in unit["rules"] if r["name"] not in on_parts]
    forbidden = _forbidden(build, [*kit, *whole, *(r for p in unit["parts"] for r in p["rules"])])

    def refs(links: Iterable[Mapping[str, Any]], wielder: bool) -> list[str]:
        out: list[str] = []
        for link in links:
            if link["id"] is None:
                if link["name"] not in unresolved:
                    unresolved.append(link["name"])
                continue
            if not wielder and _kind(build, link["id"]) == "weapon":
                continue
            if link["id"] in forbidden or (weapon and _replaced(build, link, keep)):
                continue
            ref = _ref(link)
            reason = _unbound(build, ref)
            if reason is not None:
                note = f"{link['name']}: {reason}"
                if note not in unresolved:
                    unresolved.append(note)
                continue
            if ref not in out:
                out.append(ref)
        return out

    parts: list[Part] = []
    all_rules: list[str] = []
    base: dict[str, Any] = {}
    for p in unit["parts"]:
        chars = p["characteristics"]
        wielder = p["role"] != "mount"
        rules = refs([*p["rules"], *whole, *(kit if wielder else [])], wielder)
        rules += [r for r in extra if r not in rules]
        all_rules += [r for r in rules if r not in all_rules]
        stated = {k: v for k, v in chars.items() if k != "size"}
        if not base and "health_points" in stated:
            base = stated
        side_chars = {**PART_DEFAULTS, **stated}
        attacks = data.get("attacks", side_chars.pop("attacks"))
        ints: dict[str, int] = {}
        for key, value in side_chars.items():
            if key in INT_FIELDS and key != "models":
                if key in overrides:
                    value = overrides[key]
                if not isinstance(value, int):
                    raise InputError(
                        source,
                        f"{unit['name']} ({p['name']}): {key} is {value!r}, not a number; "
                        f"give it in the scenario",
                        where,
                    )
                ints[key] = value
        height = str((chars.get("size") or {}).get("height", "")).lower()
        keywords = _keywords(chars.get("size") or {})
        side = Side(ints, str(attacks), tuple(rules), models, charging, keywords)
        parts.append(Part(p["name"], p["role"], side, height or _default_height()))
    if not base:
        raise InputError(source, f"{unit['name']}: no model profile with Health Points", where)
    defence_chars: dict[str, int] = {}
    for key in DEFENDER_FIELDS:
        value = overrides.get(key, base.get(key, 0))
        if not isinstance(value, int):
            raise InputError(source, f"{unit['name']}: {key} is {value!r}, not a number", where)
        defence_chars[key] = value
    keywords = parts[0].side.keywords if parts else ()
    defence = Side(defence_chars, "0", tuple(all_rules), models, charging, keywords)
    height = str(data.get("height") or parts[0].height if parts else _default_height())
    return Force(
        name=unit["name"],
        parts=tuple(parts),
        defence=defence,
        models=models,
        width=width,
        charging=charging,
        standard=bool(data.get("standard", False)),
        height=height.lower(),
        unit=unit["id"],
        options=tuple(named),
        unresolved=tuple(unresolved),
    )


# the values a round of combat rolls: the hits of Impact Hits, the wounds of Multiple Wounds
_VALUE_FIELDS = ("count", "amount")
_VARIABLE = re.compile(r"\b([XYZ])\b")


def _unbound(build: Build, ref: str) -> str | None:
    """Why a rule cannot take part (a value X no bracket gives, as when a rule grants Impact
    Hits and the data states no number of hits), or None when it can."""
    known = _UNBOUND.setdefault(build, {})
    if ref in known:
        return known[ref]
    known[ref] = None
    try:
        effects = build.effects([ref])
    except InputError:
        effects = []
    for e in effects:
        for name in _VALUE_FIELDS:
            value = e.get(name)
            missing = _VARIABLE.findall(value) if isinstance(value, str) else []
            missing = [v for v in missing if v not in e.bindings]
            if missing:
                what = build.rule(e.rule).names.get("en") or e.rule
                known[ref] = f"{what}: {missing[0]} is not given (no value in brackets)"
                return known[ref]
    return None


# per build: a build's rule files do not change while it is read
_UNBOUND: WeakKeyDictionary[Build, dict[str, str | None]] = WeakKeyDictionary()


def _keywords(size: Mapping[str, Any]) -> tuple[str, ...]:
    """The keywords a model part's height and type give its side (`large` for "against
    Large models", `infantry`)."""
    found = (slugify(str(size.get(k) or ""), fallback="") for k in ("height", "type"))
    return tuple(k for k in found if k in core()["keywords"])


def _default_height() -> str:
    return str(combat_data()["supporting_attacks"]["default_height"])


def _replaced(build: Build, link: Mapping[str, Any], keep: set[str]) -> bool:
    """A default weapon the chosen one replaces."""
    return link["id"] not in keep and _kind(build, str(link["id"])) == "weapon"


def _forbidden(build: Build, links: Iterable[Mapping[str, Any]]) -> set[str]:
    """Rules a rule in play forbids in melee (a Shield beside a Two-Handed weapon)."""
    table = combat_data().get("forbids") or {}
    ids = [str(link["id"]) for link in links if link["id"]]
    actions = set()
    for rule_id in ids:
        try:
            effects = build.effects([rule_id])
        except InputError:
            continue
        actions |= {str(e.get("action")) for e in effects if e.op == "forbid"}
    out: set[str] = set()
    for action in actions & set(table):
        what = table[action]
        for rule_id in ids:
            try:
                rule = build.rule(rule_id)
            except InputError:
                continue
            if str((rule.data.get("profile") or {}).get("type", "")) == what["profile_type"]:
                out.add(rule_id)
    return out


def _written(data: Mapping[str, Any], source: str, where: str) -> Force:
    """A side written out in full: one part, attacking and defending with its own fields."""
    from pipeline.interpret.attack import _side

    known = set(ATTACKER_FIELDS) | set(DEFENDER_FIELDS)
    sides = ("rules", "attacks", "charging", "keywords")
    for key in data:
        if key not in known and key not in sides and key not in SIDE_KEYS | INT_FIELDS:
            unknown_field(source, str(key), (*known, *sides, *SIDE_KEYS), where)
    fields = {k: v for k, v in data.items() if k in known or k in sides}
    side = _side(fields, DEFENDER_FIELDS, source, where)
    models, width = _formation(data, side.models, source, where)
    chars = {**PART_DEFAULTS, **side.chars}
    attacker = Side(chars, side.attacks, side.rules, models, side.charging, side.keywords)
    height = str(data.get("height") or _default_height()).lower()
    defence = Side(
        {k: side.chars[k] for k in DEFENDER_FIELDS},
        "0",
        side.rules,
        models,
        side.charging,
        side.keywords,
    )
    return Force(
        name=where,
        parts=(Part(where, "model", attacker, height),),
        defence=defence,
        models=models,
        width=width,
        charging=side.charging,
        standard=bool(data.get("standard", False)),
        height=height,
    )


def describe(f: Force) -> dict[str, Any]:
    """What a side became, for reports: the unit, its parts with characteristics and rules."""
    return {
        "name": f.name,
        "unit": f.unit,
        "models": f.models,
        "width": f.width,
        "charging": f.charging,
        "options": list(f.options),
        "parts": [
            {
                "name": p.name,
                "role": p.role,
                "attacks": p.side.attacks,
                **dict(p.side.chars),
                "rules": list(p.side.rules),
            }
            for p in f.parts
        ],
        "defence": {**dict(f.defence.chars), "rules": list(f.defence.rules)},
        "unresolved": list(f.unresolved),
    }
