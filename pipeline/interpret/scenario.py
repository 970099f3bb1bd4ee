"""Sides of a fight named by unit: `{unit: Imperial Guard, models: 25, weapon: halberd}`.

A player names a unit, not its Offensive Skill. The build's `units.json` gives each model
part (rider and mount, crew) its characteristics and rules, the unit its equipment and
options; a chosen weapon replaces the unit's default weapons, chosen options join its
equipment. Each part strikes with its own characteristics and rules (a mount does not wield
the rider's halberd); the model defends with the Defensive characteristics every part shares
and all the rules of its parts and equipment (a Shield's +1 Armour, Parry). Fields written in
the scenario override what the unit states. A model whose profile is a choice (a race) is
its default choice unless an option names another; a character rides the mount `mount`
names (the mount's parts beside the rider's). A unit is as many models as `models` says,
else its minimum size. Every model carries a Hand Weapon (`weapon: hand-weapon`); a weapon
whose rule says the model's type cannot use it (Infantry and a Lance) is refused with that
sentence. A rule whose value no bracket gives is left out and reported in `unresolved`. A
side without `unit` is written out in full, as `attack` has always read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from pipeline.build_folder import read_units
from pipeline.errors import InputError
from pipeline.files import read_data
from pipeline.interpret import choices
from pipeline.interpret.attack import (
    ATTACKER_FIELDS,
    DEFENDER_FIELDS,
    INT_FIELDS,
    Side,
    unknown_field,
)
from pipeline.interpret.core import core
from pipeline.interpret.rules import BoundEffect, Build, parse_ref
from pipeline.lookup import did_you_mean, fold
from pipeline.slug import slugify

COMBAT_PATH = Path(__file__).with_name("combat.yaml")
SIDE_KEYS = {
    "unit",
    "mount",
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
# the weapons a part wields in each mode
_WIELDS = {"melee": "melee", "shooting": "ranged"}
# a characteristic stated as "-" is one the part has none of (a Chassis' Attack Value)
NONE = "-"
NONE_IS_ZERO = {"attacks", "offensive_skill", "armour_penetration", "agility", "armour"}
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
    discipline: int | None = None
    points: float | None = None  # as the data prices the unit, options and mount
    mount: str | None = None


class Units:
    """The units of a build (`units.json`), found by id or name as a user types them."""

    def __init__(self, build: Build | Path | str) -> None:
        self.build = build if isinstance(build, Build) else Build(build)
        units = read_units(self.build.root)  # checked against its schema
        if units is None:
            raise InputError(str(self.build.root), "this build has no units.json")
        self.all: list[dict[str, Any]] = units
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
        unknown_field(source, min(unknown), (*SIDE_KEYS, *INT_FIELDS), where)
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
    mode: str = "melee",
) -> Force:
    """A unit of the build with the scenario's choices and overrides; its parts wield the
    weapons of `mode` (melee weapons in close combat, shooting weapons when shooting)."""
    chosen: list[dict[str, Any]] = []
    named: list[str] = []
    keep: set[str] = set()  # the ids of the chosen weapon (and what comes with it)
    weapon = data.get("weapon")
    if weapon is not None and not isinstance(weapon, str):
        raise InputError(source, "weapon must be a name", f"{where}.weapon")
    picked: list[dict[str, Any]] = []
    priced: list[Mapping[str, Any]] = []  # what the player pays for: options, variants
    checked: list[tuple[Mapping[str, Any], str]] = []  # chosen weapons and their fields
    mounted: str | None = None
    if data.get("mount") is not None:
        ride = choices.mount(unit, data["mount"], source, f"{where}.mount")
        picked.append(ride)
        mounted = ride["name"]
    asked = [(weapon, f"{where}.weapon")] if weapon else []
    asked += [(n, f"{where}.options") for n in _list(data, "options", source, where)]
    for i, (name, field_) in enumerate(asked):
        is_weapon = bool(weapon) and i == 0
        variant = choices.variant(unit, name)
        if variant is not None and not is_weapon:
            picked.append(variant)
            if variant.get("kind") == "mount":
                mounted = variant["name"]
            continue
        if is_weapon and choices.is_hand_weapon(name):
            held = choices.hand_weapon(build)
            parts = [held] if held["id"] else []
            named.append(held["name"])
        else:
            choice = choices.choice(unit, name, source, field_, build, weapons_only=is_weapon)
            if is_weapon:
                _check_mode(build, choice, mode, source, field_)
            named.append(choice["name"])
            priced.append(choice)
            parts = choice.get("combines") or [choice]  # Light Lance and Shield: both
        chosen.extend(parts)
        checked += [(p, field_) for p in parts]
        if is_weapon:
            keep = {str(p["id"]) for p in parts} or {"hand-weapon"}
    unit_stated = unit
    unit = choices.with_variants(unit, picked, source, where)
    priced += picked
    for link, field_ in checked:
        choices.check_weapons(build, unit, [link], source, field_, mounted)
    extra = _list(data, "rules", source, where)
    for r in extra:
        build.rule(parse_ref(r, source).id, source)  # an unknown id names the closest
    overrides = _ints(data, source, where)
    models = overrides.pop("models", None)
    if models is None and data.get("ranks") is None:
        models = choices.default_models(unit_stated)
    models, width = _formation(data, models, source, where)
    charging = data.get("charging", False)
    if not isinstance(charging, bool):
        raise InputError(source, "charging must be true or false", f"{where}.charging")

    unresolved: list[str] = []
    on_parts = {r["name"] for p in unit["parts"] for r in p["rules"]}
    kit = [*unit["equipment"], *chosen]
    if weapon:  # the chosen weapon replaces the unit's default weapons
        kit = [k for k in kit if k["id"] in keep or choices.kind(build, str(k["id"])) != "weapon"]
    whole = [r for r in unit["rules"] if r["name"] not in on_parts]
    forbidden = _forbidden(build, [*kit, *whole, *(r for p in unit["parts"] for r in p["rules"])])

    def refs(links: Iterable[Mapping[str, Any]], wielder: bool) -> list[str]:
        out: list[str] = []
        for link in links:
            if link["id"] is None:
                if link["name"] not in unresolved:
                    unresolved.append(link["name"])
                continue
            wields = choices.weapon_kind(build, link["id"])
            if wields is not None and (not wielder or wields != _WIELDS[mode]):
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
        attacks = 0 if attacks == NONE else attacks
        ints: dict[str, int] = {}
        for key, value in side_chars.items():
            if key in INT_FIELDS and key != "models":
                if key in overrides:
                    value = overrides[key]
                if value == NONE and key in NONE_IS_ZERO:
                    value = 0
                if not isinstance(value, int):
                    why = (
                        " (the rider's, and the data states no profile for the rider)"
                        if re.match(r"^\s*C\b", str(value))
                        else ""
                    )
                    raise InputError(
                        source,
                        f"{unit['name']} ({p['name']}): {key} is {value!r}{why}, not a number; "
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
        value = 0 if value == NONE and key in NONE_IS_ZERO else value
        if not isinstance(value, int):
            raise InputError(source, f"{unit['name']}: {key} is {value!r}, not a number", where)
        defence_chars[key] = value
    keywords = parts[0].side.keywords if parts else ()
    defence = Side(defence_chars, "0", tuple(all_rules), models, charging, keywords)
    cost = choices.points(unit_stated, models, priced)
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
        discipline=base.get("discipline") if isinstance(base.get("discipline"), int) else None,
        points=cost,
        mount=mounted,
    )


def _check_mode(
    build: Build, choice: Mapping[str, Any], mode: str, source: str, where: str
) -> None:
    """A chosen weapon must be one of the mode's: a bow does not fight in melee."""
    kinds = {choices.weapon_kind(build, str(p["id"])) for p in choice.get("combines") or [choice]}
    if _WIELDS[mode] not in kinds:
        other = "shooting" if mode == "melee" else "melee"
        raise InputError(
            source,
            f"{choice['name']} is a {other} weapon; this scenario is {mode}"
            + (" (mode: shooting shoots with it)" if other == "shooting" else ""),
            where,
        )


# the values a round of combat rolls: the hits of Impact Hits, the wounds of Multiple Wounds
_VALUE_FIELDS = ("count", "amount")
_VARIABLE = re.compile(r"\b([XYZ])\b")


def _unbound(build: Build, ref: str) -> str | None:
    """Why a rule cannot take part (a value X no bracket gives, as when a rule grants Impact
    Hits and the data states no number of hits; a reference that cannot be read, as
    `Awaken (Zombies) (Zombies, Skeletons)`, or whose brackets the rule does not take), or
    None when it can."""
    known = _UNBOUND.setdefault(build, {})
    if ref in known:
        return known[ref]
    known[ref] = None
    try:
        effects = build.effects([ref])
    except InputError as exc:
        known[ref] = f"not played: {exc.what}"
        return known[ref]
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
    return link["id"] not in keep and choices.kind(build, str(link["id"])) == "weapon"


def effects_of(build: Build, refs: Iterable[str]) -> tuple[BoundEffect, ...]:
    """`build.effects(refs)`, remembered per build: a matchup asks for the same rules of a
    unit in every cell of its row and column. An error is raised again each time."""
    key = tuple(refs)
    known = _EFFECTS.setdefault(build, {})
    if key not in known:
        try:
            known[key] = tuple(build.effects(key))
        except InputError as exc:
            known[key] = exc
    found = known[key]
    if isinstance(found, InputError):
        raise found
    return found


# per build: a build's rule files do not change while it is read
_EFFECTS: WeakKeyDictionary[Build, dict[tuple[str, ...], tuple[BoundEffect, ...] | InputError]] = (
    WeakKeyDictionary()
)


def _forbidden(build: Build, links: Iterable[Mapping[str, Any]]) -> set[str]:
    """Rules a rule in play forbids in melee (a Shield beside a Two-Handed weapon)."""
    table = combat_data().get("forbids") or {}
    ids = [str(link["id"]) for link in links if link["id"]]
    actions = set()
    for rule_id in ids:
        try:
            effects = effects_of(build, [rule_id])
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
            profile = rule.data.get("profile") or {}
            # an armour profile's own Type column ("Shield") says more than its kind
            kinds = {str(profile.get("type", "")), str((profile.get("other") or {}).get("Type"))}
            if what["profile_type"] in kinds:
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
    discipline = data.get("discipline")
    if discipline is not None and (
        isinstance(discipline, bool) or not isinstance(discipline, int) or discipline < 0
    ):
        raise InputError(source, "discipline must be a whole number >= 0", f"{where}.discipline")
    return Force(
        name=where,
        parts=(Part(where, "model", attacker, height),),
        defence=defence,
        models=models,
        width=width,
        charging=side.charging,
        standard=bool(data.get("standard", False)),
        height=height,
        discipline=discipline,
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
        **({"mount": f.mount} if f.mount else {}),
        "discipline": f.discipline,
        **({"points": f.points} if f.points is not None else {}),
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
