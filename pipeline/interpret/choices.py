"""What a player may choose for a unit of `units.json`, checked against what the unit offers.

An option or a weapon is one of the unit's choices or equipment (by id or name); a race or
a mount is one of its variants; every model also carries a Hand Weapon (the rulebook's, named
in `lang/<code>/units.yaml`). A weapon a model's type cannot use is refused with the sentence
of the weapon's rule that says so ("Infantry cannot use Lances."), read with the pattern of
`units.yaml`. What the unit costs is its points with those of its chosen options and mount.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.rules import Build, parse_ref
from pipeline.lang import data as lang_data
from pipeline.lookup import did_you_mean, fold
from pipeline.slug import slugify


@lru_cache(maxsize=1)
def _units_data() -> dict[str, Any]:
    return lang_data("en", "units")


def kind(build: Build, rule_id: str) -> str | None:
    try:
        return build.rule(rule_id).kind
    except InputError:
        return None


def weapon_kind(build: Build, rule_id: str) -> str | None:
    """`melee` or `ranged` for a weapon rule (its profile says which), None otherwise."""
    try:
        rule = build.rule(rule_id)
    except InputError:
        return None
    if rule.kind != "weapon":
        return None
    return str((rule.data.get("profile") or {}).get("weapon") or "melee")


def _key(text: str) -> str:
    return slugify(text, fallback="")


def hand_weapon(build: Build) -> dict[str, Any]:
    """The Hand Weapon every model carries, linked to the build's rule when it has one."""
    name = str(_units_data().get("hand_weapon") or "Hand Weapon")
    rule = _key(name)
    return {"name": name, "id": rule if kind(build, rule) else None}


def is_hand_weapon(query: str) -> bool:
    name = str(_units_data().get("hand_weapon") or "Hand Weapon")
    return _key(query) == _key(name) or fold(query) == fold(name)


def _matches(link: Mapping[str, Any], query: str, source: str) -> bool:
    """Whether a choice is the one `query` names (id, name, its name without brackets; a
    combined choice also by the name of one of its parts)."""
    if any(_matches(p, query, source) for p in link.get("combines") or ()):
        return True
    names = {fold(link["name"]), _key(link["name"])}
    try:
        base = parse_ref(link["name"], source).id if link["name"].strip() else ""
    except InputError:  # a name that is no reference (`Longbow (4+) & Braziers`)
        base = ""
    q = _key(query)
    return link["id"] in (query, q) or fold(query) in names | {base} or q == base


def choice(
    unit: Mapping[str, Any],
    query: str,
    source: str,
    where: str,
    build: Build | None = None,
    weapons_only: bool = False,
) -> dict[str, Any]:
    """An option choice (or a piece of equipment) of the unit, by id or name; a miss names
    the closest (only weapons when a weapon was asked for)."""
    links = [c for o in unit["options"] for c in o["choices"]] + list(unit["equipment"])
    if weapons_only and build is not None:  # a weapon its profile names (`Jezail (4+)`)
        links += [r for p in unit["parts"] for r in p["rules"] if _is_weapon(build, r)]
    for link in links:
        if _matches(link, query, source):
            if weapons_only and build is not None and not _is_weapon(build, link):
                raise InputError(source, f"{link['name']!r} is not a weapon", where)
            return link
    if weapons_only and build is not None:
        ids = sorted({c["id"] or _key(c["name"]) for c in links if _is_weapon(build, c)})
        ids = sorted({*ids, _key(hand_weapon(build)["name"])})
        what = "weapon"
    else:
        ids = sorted({c["id"] or slugify(c["name"], fallback="x") for c in links})
        ids += sorted(slugify(v["name"], fallback="x") for v in unit.get("variants") or [])
        what = "option"
    hint = did_you_mean(_key(query) or query, ids)
    if not hint:
        hint = f"; its {what}s: {', '.join(ids)}" if ids else f"; it has no {what}s"
    raise InputError(source, f"unit {unit['name']!r} has no {what} {query!r}{hint}", where)


def _is_weapon(build: Build, link: Mapping[str, Any]) -> bool:
    """Whether a choice is (or combines) a weapon."""
    parts = link.get("combines") or [link]
    return any(p.get("id") and kind(build, str(p["id"])) == "weapon" for p in parts)


def variant(
    unit: Mapping[str, Any], query: str, kinds: Sequence[str] = ("race", "mount")
) -> dict[str, Any] | None:
    """The variant (a race, a mount) named `query`, if the unit has one."""
    for v in unit.get("variants") or []:
        if v.get("kind", "race") not in kinds:
            continue
        names = {fold(v["name"]), _key(v["name"])}
        # `Mount: Destrier` is also `Destrier`
        names |= {fold(v["name"].split(":", 1)[-1].strip()), _key(v["name"].split(":", 1)[-1])}
        if fold(query) in names or _key(query) in names:
            return v
    return None


def mount(unit: Mapping[str, Any], query: Any, source: str, where: str) -> dict[str, Any]:
    """The mount `query` names: a variant of kind mount that the data gives a profile."""
    if not isinstance(query, str) or not query.strip():
        raise InputError(source, "mount must be the name of one of the unit's mounts", where)
    found = variant(unit, query, ("mount",))
    mounts = [v for v in unit.get("variants") or [] if v.get("kind") == "mount"]
    if found is None:
        names = sorted(_key(v["name"]) for v in mounts)
        hint = did_you_mean(_key(query) or query, names)
        if not hint:
            hint = f"; its mounts: {', '.join(names)}" if names else "; it has no mounts"
        raise InputError(source, f"unit {unit['name']!r} has no mount {query!r}{hint}", where)
    if not found["parts"]:
        raise InputError(
            source, f"{unit['name']}: the data states no profile for the mount {found['name']!r}"
        )
    return found


def with_variants(
    unit: Mapping[str, Any], picked: list[dict[str, Any]], source: str, where: str
) -> Mapping[str, Any]:
    """The unit as its chosen variants make it: one choice a group, the default where none is
    picked; their parts replace the unit's and their rules and equipment join it."""
    variants = unit.get("variants") or []
    if not variants:
        return unit
    groups: dict[str, dict[str, Any]] = {}
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


def model_type(unit: Mapping[str, Any]) -> str | None:
    """The model's Type (Infantry, Cavalry ...) as its Size profile states it."""
    for part in unit["parts"]:
        stated = (part["characteristics"].get("size") or {}).get("type")
        if stated:
            return str(stated)
    return None


def _restriction() -> re.Pattern[str]:
    data = _units_data()
    words = sorted(
        (w for names in (data.get("model_types") or {}).values() for w in names),
        key=len,
        reverse=True,
    )
    one = "|".join(re.escape(w) for w in words)
    joiner = str(data.get("type_joiner") or r"(?:,\s*|\s+and\s+|\s+or\s+)")
    return re.compile(
        str(data["weapon_restriction"]).format(types=f"(?:{one})(?:{joiner}(?:{one}))*"),
        re.IGNORECASE,
    )


def refusal(build: Build, weapon_id: str, model: str | None) -> str | None:
    """The sentence of a weapon's rule that says a model of type `model` cannot use it."""
    if not model:
        return None
    try:
        rule = build.rule(weapon_id)
    except InputError:
        return None
    text = str(((rule.data.get("texts") or {}).get("en") or {}).get("text") or "")
    types = _units_data().get("model_types") or {}
    mine = {fold(w) for key, names in types.items() if fold(key) == fold(model) for w in names}
    for m in _restriction().finditer(text):
        stated = re.split(r",\s*|\s+and\s+|\s+or\s+", m.group("types"))
        if mine & {fold(s.strip()) for s in stated}:
            start = text.rfind(".", 0, m.start()) + 1
            end = text.find(".", m.end())
            return text[start : end + 1 if end >= 0 else len(text)].strip()
    return None


def check_weapons(
    build: Build,
    unit: Mapping[str, Any],
    links: Iterable[Mapping[str, Any]],
    source: str,
    where: str,
    mounted: str | None = None,
) -> None:
    """Refuse a weapon the model's type cannot use, quoting the rule that says so."""
    model = model_type(unit)
    for link in links:
        rule = link.get("id")
        if not rule or kind(build, str(rule)) != "weapon":
            continue
        said = refusal(build, str(rule), model)
        if said:
            how = (
                f"on {mounted}" if mounted else "on foot" if fold(model or "") == "infantry" else ""
            )
            who = f"{unit['name']} ({model}{', ' + how if how else ''})"
            title = build.rule(str(rule)).names.get("en") or rule
            raise InputError(
                source, f"{who} cannot take {link['name']}: the rule {title} says {said!r}", where
            )


def points(
    unit: Mapping[str, Any], models: int, chosen: Iterable[Mapping[str, Any]]
) -> int | float | None:
    """What the unit costs with `models` models and the chosen options and variants; None
    when the data prices nothing."""
    stated = unit.get("points")
    if not stated:
        return None
    total = float(stated["base"]) + float(stated["per_model"]) * models
    for c in chosen:
        cost = c.get("points")
        if cost:
            total += float(cost["base"]) + float(cost["per_model"]) * models
    return int(total) if total.is_integer() else total


def default_models(unit: Mapping[str, Any]) -> int:
    """A unit's models when the scenario gives none: its minimum size."""
    size = unit.get("size") or {}
    return int(size.get("min") or 1)
