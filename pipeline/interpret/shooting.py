"""Shooting by unit: `mode: shooting` with `attacker: {unit: Peasant Bowmen}`.

The unit's shooting weapons are the weapons of its parts, equipment and options whose rule's
profile is a ranged weapon; `weapon:` picks one when it has several. The weapon's Shots are
the attack count per model, its Aim the bracket the data gives it where the unit names it
(`Bow (4+)`), and its profile's Strength and Armour Penetration come with the weapon's rule.
The model parts that shoot are those that wield it (a mount does not). The target is a unit
of the build or a side written out in full (Resilience, Health Points, Armour).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.attack import TARGET_FIELDS, Scenario, Side, _side
from pipeline.interpret.choices import weapon_kind
from pipeline.interpret.rules import Build, RuleRef, parse_ref
from pipeline.interpret.scenario import Force, Units, unit_force

_AIM = re.compile(r"^\s*(\d+)\s*\+\s*$")


def names_unit(data: Any) -> bool:
    """Whether a shooting scenario names a unit on either side."""
    return isinstance(data, dict) and any(
        isinstance(data.get(k), dict) and "unit" in data[k] for k in ("attacker", "defender")
    )


def _aim(ref: RuleRef) -> int | None:
    for p in ref.params:
        m = _AIM.match(p)
        if m:
            return int(m.group(1))
    return None


def _offered(unit: Mapping[str, Any], build: Build) -> list[str]:
    """The shooting weapons the unit's options offer."""
    out = []
    for o in unit["options"]:
        for c in o["choices"]:
            if any(weapon_kind(build, str(p["id"])) == "ranged" for p in c.get("combines") or [c]):
                out.append(c["name"])
    return out


def _shooter(
    f: Force, unit: Mapping[str, Any], build: Build, data: Mapping[str, Any], source: str
) -> Side:
    """The attacker's side when shooting: the shooting part with its weapon."""
    found: dict[str, list[tuple[int, RuleRef]]] = {}
    for i, part in enumerate(f.parts):
        for r in part.side.rules:
            ref = parse_ref(r, source)
            if weapon_kind(build, ref.id) == "ranged":
                found.setdefault(ref.id, []).append((i, ref))
    if not found:
        offered = _offered(unit, build)
        if offered:
            raise InputError(
                source,
                f"{f.name} shoots with the weapon an option gives it; choose one with weapon: "
                + ", ".join(offered),
                "attacker.weapon",
            )
        raise InputError(source, f"{f.name} has no shooting weapon in this build", "attacker")
    if len(found) > 1:
        raise InputError(
            source,
            f"{f.name} has several shooting weapons ({', '.join(sorted(found))}); "
            "choose one with weapon:",
            "attacker.weapon",
        )
    [(weapon, uses)] = found.items()
    index = uses[0][0]
    part = f.parts[index]
    stated = [a for _, ref in uses if (a := _aim(ref)) is not None]
    aim = data.get("aim", stated[0] if stated else None)
    if aim is None:
        raise InputError(
            source, f"the data states no Aim for {weapon} of {f.name}; give aim:", "attacker"
        )
    profile = build.rule(weapon, source).data.get("profile") or {}
    shots = data.get("attacks", profile.get("shots"))
    if shots in (None, ""):
        raise InputError(
            source, f"{weapon} states no Shots; give attacks: in the scenario", "attacker"
        )
    rules = []
    for r in part.side.rules:
        ref = parse_ref(r, source)
        if ref.id == weapon:
            r = str(RuleRef(ref.id, tuple(p for p in ref.params if not _AIM.match(p))))
        if r not in rules:
            rules.append(r)
    chars = {**part.side.chars, "aim": int(aim)}
    return Side(chars, str(shots).replace(" ", ""), tuple(rules), f.models, False)


def shooting_scenario(
    data: Any, build: Build, source: str = "scenario", units: Units | None = None
) -> tuple[Scenario, dict[str, Any]]:
    """A shooting scenario whose sides may name units; and what each side became."""
    if not isinstance(data, dict):
        raise InputError(source, "a scenario is a mapping with 'attacker' and 'defender'")
    conditions = data.get("conditions") or []
    if not isinstance(conditions, list) or not all(isinstance(c, str) for c in conditions):
        raise InputError(source, "'conditions' must be a list of names", "conditions")
    units = units or Units(build)
    att_data, dfd_data = data.get("attacker"), data.get("defender")
    for name, side in (("attacker", att_data), ("defender", dfd_data)):
        if not isinstance(side, dict):
            raise InputError(source, f"missing {name!r} mapping", name)
    info: dict[str, Any] = {}
    if "unit" in att_data:
        unit = units.find(str(att_data["unit"]), source, "attacker.unit")
        plain = {k: v for k, v in att_data.items() if k not in ("aim", "attacks")}
        f = unit_force(unit, plain, build, source, "attacker", mode="shooting")
        attacker = _shooter(f, unit, build, att_data, source)
        info["attacker"] = _describe(f, attacker)
    else:
        from pipeline.interpret.attack import SHOOTER_FIELDS

        attacker = _side(att_data, SHOOTER_FIELDS, source, "attacker")
    if "unit" in dfd_data:
        unit = units.find(str(dfd_data["unit"]), source, "defender.unit")
        g = unit_force(unit, dfd_data, build, source, "defender", mode="shooting")
        defender = replace(g.defence, models=g.models)
        info["defender"] = _describe(g, defender)
    else:
        defender = _side(dfd_data, TARGET_FIELDS, source, "defender")
    scenario = Scenario(
        attacker, defender, frozenset([*conditions, "shooting"]), source, "shooting"
    )
    return scenario, info


def _describe(f: Force, side: Side) -> dict[str, Any]:
    return {
        "unit": f.unit,
        "name": f.name,
        "models": side.models,
        **({"mount": f.mount} if f.mount else {}),
        "attacks": side.attacks,
        **dict(side.chars),
        "rules": list(side.rules),
        "unresolved": list(f.unresolved),
    }
