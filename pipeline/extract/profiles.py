"""BattleScribe profiles read from their typed columns, not from the flattened line.

A `<profile typeName="5 Melee Weapon">` states `Str +2`, `AP +1` or `As User` in columns: a
signed value modifies the wielder's characteristic for attacks made with the weapon, a bare
number sets it, `As User` keeps it. A model profile ("1 Global", "3 Offensive") states the
model's characteristics. The free-text column (Attributes, Rules) is read as prose where it is
prose and as a list of rule names where it is one ("Two-Handed, Strike at Initiative Step 0").
A bonus the text repeats from a column ("+1 Armour Penetration" beside `AP +1`) counts once.
Every value keeps its span in the segment's flattened text (`Name. Str +2, AP +2, ...`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pipeline.lang import data as lang_data
from pipeline.normalise import normalise
from pipeline.slug import slugify

Span = tuple[int, int]
_SIGNED = re.compile(r"^\s*(?P<sign>[+\-−])\s*(?P<n>\d+)\s*$")
_BRACKETED = re.compile(r"^\s*(?P<base>[+\-−]?\s*\d+)\s*\[\s*(?P<bracket>\d+)\s*\]\s*$")
_SQUARE = re.compile(r"^\[(?P<inner>.*)\]$")
_PLAIN = re.compile(r"^\s*(?P<n>\d+)\s*(?:\"|″|”)?\s*$")


@dataclass(frozen=True, slots=True)
class _Data:
    types: tuple[tuple[re.Pattern[str], str, str | None], ...]
    columns: dict[str, str]
    weapon_columns: dict[str, str]
    model_columns: dict[str, str]
    as_user: frozenset[str]
    text_columns: frozenset[str]
    descriptive: frozenset[str]
    name_item: re.Pattern[str]


@cache
def _data(lang: str) -> _Data:
    raw = lang_data(lang, "profiles")
    return _Data(
        types=tuple(
            (re.compile(t["pattern"]), str(t["kind"]), t.get("weapon")) for t in raw["types"]
        ),
        columns={str(k): str(v) for k, v in raw["columns"].items()},
        weapon_columns={str(k): str(v) for k, v in raw["weapon_columns"].items()},
        model_columns={str(k): str(v) for k, v in (raw.get("model_columns") or {}).items()},
        as_user=frozenset(str(v).lower() for v in raw["as_user"]),
        text_columns=frozenset(raw["text_columns"]),
        descriptive=frozenset(raw["descriptive_columns"]),
        name_item=re.compile(raw["name_item"]),
    )


@dataclass(frozen=True, slots=True)
class TypedProfile:
    """What the columns of one profile say."""

    kind: str  # weapon | model-profile
    profile: dict[str, Any]
    effects: tuple[dict[str, Any], ...]
    text_span: Span | None  # where the free-text column sits in the flattened text
    names: tuple[tuple[str, Span], ...]  # rule names listed in the text column


def profile_kind(type_name: str | None, lang: str = "en") -> tuple[str, str | None] | None:
    """(kind, weapon class) of a BattleScribe profile type, or None for other profiles."""
    if not type_name:
        return None
    name = re.sub(r"^\s*\d+\s*", "", type_name)
    for pattern, kind, weapon in _data(lang).types:
        if pattern.search(name):
            return kind, weapon
    return None


def _locate(text: str, label: str, value: str, cursor: int) -> Span | None:
    """The span of `label value` in the flattened text, searched from `cursor`."""
    value = normalise(value)
    probe = f"{label} {value}" if label else value
    at = text.find(probe, cursor)
    if at < 0 and value:
        at = text.find(value, cursor)
        return (at, at + len(value)) if at >= 0 else None
    return (at, at + len(probe)) if at >= 0 else None


def _value(value: str) -> tuple[str, int] | None:
    """('by', n) for a signed value, ('to', n) for a bare number, None otherwise."""
    m = _SIGNED.match(value)
    if m:
        n = int(m.group("n"))
        return "by", -n if m.group("sign") in "-−" else n
    m = _PLAIN.match(value)
    if m:
        return "to", int(m.group("n"))
    return None


def name_list(text: str, lang: str = "en") -> list[tuple[str, Span]] | None:
    """The items of a free-text column when every one reads as a rule name, else None."""
    items: list[tuple[str, Span]] = []
    depth, last = 0, 0
    body = text.rstrip(" .")
    for i, ch in enumerate(body + ","):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            raw = body[last:i]
            item = raw.strip()
            if item:
                start = last + raw.index(item)
                items.append((item, (start, start + len(item))))
            last = i + 1
    pattern = _data(lang).name_item
    if not items or not all(pattern.match(_inner(item)[0]) for item, _ in items):
        return None
    return items


def _inner(item: str) -> tuple[str, int]:
    """An item without its square brackets ("[Multiple Wounds (D3)]"), and their offset."""
    m = _SQUARE.match(item)
    return (m.group("inner").strip(), item.index(m.group("inner").strip())) if m else (item, 0)


def bracket_items(
    names: Sequence[tuple[str, Span]], lang: str
) -> tuple[list[tuple[str, Span]], list[dict[str, Any]]]:
    """Listed names split into plain ones and the effects of square-bracketed ones, which
    only the one hit with the bracket values has (`[Multiple Wounds (D3)]` of Area Attack)."""
    plain: list[tuple[str, Span]] = []
    effects: list[dict[str, Any]] = []
    exclude = set(lang_data(lang, "effects").get("grant_exclude") or ())
    for item, (a, b) in names:
        inner, off = _inner(item)
        if off == 0:
            plain.append((item, (a, b)))
            continue
        m = re.match(r"^(?P<name>[^()]+?)\s*(?:\((?P<params>[^()]*)\))?$", inner)
        name = m.group("name") if m else inner
        params = [p.strip() for p in (m.group("params") or "").split(",") if p.strip()] if m else []
        span = [a + off, a + off + len(inner)]
        if name in exclude and params:
            effect = {"op": "multiple-wounds", "amount": params[0], "applies_to": "bracket-hit"}
        else:
            effect = {"op": "grant", "rule": slugify(name), "applies_to": "bracket-hit"}
            if params:
                effect["params"] = params
        effects.append({**effect, "span": span})
    return plain, effects


def read_profile(
    text: str, rows: Sequence[tuple[str, str]], type_name: str | None, lang: str = "en"
) -> TypedProfile | None:
    """A profile's typed reading, or None when its type is not a weapon or a model."""
    found = profile_kind(type_name, lang)
    if found is None:
        return None
    kind, weapon = found
    data = _data(lang)
    cursor = text.find(". ") + 2 if ". " in text else 0
    effects: list[dict[str, Any]] = []
    profile: dict[str, Any] = {"type": re.sub(r"^\s*\d+\s*", "", type_name or "")}
    if weapon:
        profile["weapon"] = weapon
    chars: dict[str, Any] = {}
    text_span: Span | None = None
    names: list[tuple[str, Span]] = []
    for label, value in rows:
        if not value:
            continue
        span = _locate(text, label, value, cursor)
        if span is not None:
            cursor = span[1]
        if label in data.text_columns:
            norm = normalise(value)
            at = text.find(norm, span[0] if span else cursor)
            if at >= 0:
                value = norm
                text_span = (at, at + len(value))
                listed = name_list(value, lang)
                if listed is not None:
                    names, found = bracket_items(
                        [(n, (at + a, at + b)) for n, (a, b) in listed], lang
                    )
                    effects.extend(found)
            profile.setdefault("text", {})[label] = value
            continue
        if label in data.weapon_columns and kind == "weapon":
            profile[data.weapon_columns[label]] = value
            continue
        if label in data.weapon_columns:
            profile.setdefault("other", {})[label] = value
            continue
        char = data.columns.get(label) or data.model_columns.get(label)
        if char is None:
            if label in data.descriptive or kind == "model-profile":
                profile.setdefault("other", {})[label] = value
            continue
        read = _value(value)
        if kind == "model-profile":
            chars[char] = read[1] if read and read[0] == "to" else value
            continue
        if value.strip().lower() in data.as_user:
            profile[char] = "as-user"
            continue
        square = _BRACKETED.match(value)
        if square:  # "Str 3 [7]": the one hit of Area Attack or Penetrating that takes 7
            read = _value(square.group("base"))
            extra: dict[str, Any] = {"op": "modify", "characteristic": char}
            extra |= {"to": int(square.group("bracket")), "applies_to": "bracket-hit"}
            if span is not None:
                extra["span"] = [span[0], span[1]]
            effects.append(extra)
        if read is None:
            profile[char] = value  # stated, not read for sure: no effect
            continue
        how, n = read
        profile[char] = value.strip()
        effect: dict[str, Any] = {"op": "modify", "characteristic": char, how: n}
        effect["applies_to"] = "model" if label in data.model_columns else "attack"
        if span is not None:
            effect["span"] = [span[0], span[1]]
        effects.append(effect)
    if chars:
        profile["characteristics"] = chars
    return TypedProfile(kind, profile, tuple(effects), text_span, tuple(names))


def without_repeats(
    column: Sequence[dict[str, Any]],
    text: Sequence[dict[str, Any]],
    stated: Sequence[tuple[str, int]] = (),
) -> list[dict[str, Any]]:
    """Column and text effects with each bonus counted once.

    A bonus the text restates as is ("+1 Armour Penetration" beside `AP +1`) is read from the
    column. A column bonus that the text states only under a condition or inside a bracket
    (a Lance's `Str +2` that is "Devastating Charge (+2 Strength)" in the front while
    charging) is the text's: the column is the summary, the text says when it holds.
    `stated` is every (characteristic, value) modifier written in the text.
    """
    out = list(column)
    rest = list(text)
    for c in column:
        if c["op"] != "modify" or "by" not in c:
            continue
        key = (c["characteristic"], c["by"])
        plain = next(
            (
                e
                for e in rest
                if e.get("op") == "modify"
                and "when" not in e
                and (e.get("characteristic"), e.get("by")) == key
            ),
            None,
        )
        if plain is not None:
            rest.remove(plain)
        elif key in stated:
            out.remove(c)
    return out + rest
