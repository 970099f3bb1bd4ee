"""Finding rules and units in a build by what a user types: an id, a name in any language,
part of either. Every command that takes an id answers a miss with the closest ids it knows.

Units (`units.json`) are found beside the rules, as kind `unit`. A model profile (a unit's
Global, Defensive, Offensive or Size characteristics, kind `model-profile`) belongs to its
unit: it is not listed, searched or counted as a rule of its own."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from pipeline.errors import InputError
from pipeline.slug import slugify

UNIT = "unit"
UNLISTED_KINDS = frozenset({"model-profile"})  # parts of a unit, not rules of their own


def fold(text: str) -> str:
    """Case, accents and `ё` folded away, so that `Рикошет`, `рикошет` and `ricochet` match
    what a user remembers rather than what they type."""
    decomposed = unicodedata.normalize("NFD", text.casefold().replace("ё", "е"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def closest(query: str, ids: Iterable[str], n: int = 3) -> list[str]:
    """Up to `n` ids that look like `query` (edit similarity, then shared prefix)."""
    known = sorted(set(ids))
    found = difflib.get_close_matches(query, known, n=n, cutoff=0.5)
    if len(found) < n:
        stem = query.split("/")[0].split("-")[0]
        found += [i for i in known if stem and i.startswith(stem) and i not in found]
    return found[:n]


def did_you_mean(query: str, ids: Iterable[str]) -> str:
    """`; did you mean: a, b?` or nothing: the tail of a not-found message."""
    near = closest(query, ids)
    return f"; did you mean: {', '.join(near)}?" if near else ""


def known_id(name: str, ids: Collection[str], plural: Sequence[Sequence[str]] = ()) -> str | None:
    """The id of the rule `name` names, also in the plural (`Great Weapons` is great-weapon
    when the build has that rule), with `plural` the (ending, singular ending) pairs of the
    language; None when no rule of `ids` is named."""
    base = slugify(name, fallback="")
    if base in ids:
        return base
    *head, last = base.split("-")
    for ending, singular in plural:
        if len(last) > len(ending) + 1 and last.endswith(ending):
            found = "-".join([*head, last[: -len(ending)] + singular])
            if found in ids:
                return found
    return None


def _names(rule: Mapping[str, Any]) -> list[str]:
    names = rule.get("names") or {}
    return [str(v) for v in names.values()] if isinstance(names, Mapping) else []


def search(
    rules: Sequence[Mapping[str, Any]],
    query: str | None = None,
    kind: str | None = None,
    lang: str | None = None,
) -> list[Mapping[str, Any]]:
    """Rules whose id or a name contains every word of `query` (folded), best first: an exact
    id or name, then one that starts with the query, then the rest in id order."""
    words = fold(query or "").split()
    ranked: list[tuple[int, str, Mapping[str, Any]]] = []
    for rule in rules:
        if kind and rule.get("kind") != kind:
            continue
        if lang and lang not in (rule.get("names") or {}) and lang not in (rule.get("texts") or {}):
            continue
        keys = [fold(str(rule["id"]))] + [fold(n) for n in _names(rule)]
        if words and not any(all(w in k for w in words) for k in keys):
            continue
        whole = " ".join(words)
        rank = 0 if whole in keys else 1 if any(k.startswith(whole) for k in keys) else 2
        ranked.append((rank if words else 0, str(rule["id"]), rule))
    return [r for _, _, r in sorted(ranked, key=lambda t: (t[0], t[1]))]


def listed(rules: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rules a user finds: all but the parts of units (model profiles)."""
    return [r for r in rules if r.get("kind") not in UNLISTED_KINDS]


def unit_entries(units: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Units as entries of a listing: id, kind `unit`, name, and the unit itself."""
    return [{"id": u["id"], "kind": UNIT, "names": {"en": u["name"]}, "unit": u} for u in units]


def check_kind(kind: str | None, entries: Iterable[Mapping[str, Any]], source: str) -> None:
    """An unknown kind is an error naming the known ones (closest first)."""
    if kind is None:
        return
    kinds = sorted({str(e.get("kind")) for e in entries if e.get("kind")} | {UNIT})
    if kind not in kinds:
        near = closest(kind, kinds)
        hint = f"did you mean: {', '.join(near)}? " if near else ""
        raise InputError(source, f"no kind {kind!r}; {hint}kinds: {', '.join(kinds)}")
