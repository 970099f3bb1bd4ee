"""number_mismatch, dice_mismatch, distance_mismatch, modifier_mismatch: the quantities the
extractor reads on both sides, compared by their canonical keys.

`1"`, `1″` and `1 дюйм` are the same distance; `Х+D6` is `X+D6` (the Cyrillic letter is the
homoglyph check's business); `Д6`/`К6` are `D6`, reported as a style finding. Quantities are
matched in three passes: same key, then same amount within a family (a modifier whose
characteristic one side did not name, a count whose noun was not recognised), then same amount
across families (a distance that lost its inch mark); what is left over is a mismatch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from ..quantities import Quantity, find_quantities
from .model import Finding

FAMILY_CHECK = {
    "dice": "dice_mismatch",
    "distance": "distance_mismatch",
    "modifier": "modifier_mismatch",
    "number": "number_mismatch",
}
_WORDS = {"dice": "dice", "distance": "distance", "modifier": "modifier", "number": "number"}


class Item(NamedTuple):
    """A quantity as compared. A named tuple, not a frozen dataclass: one is made for each
    quantity of every text, and a frozen dataclass sets each field through Python."""

    q: Quantity
    family: str
    key: tuple[Any, ...]
    amount: Any  # the family-free identity: a number or a canonical expression


def _item(q: Quantity) -> Item | None:
    """The comparable item of a quantity, or None for what is not compared (word brackets)."""
    amount = q.value if q.value is not None else q.expr
    if q.type == "bracket":
        kind = q.qualifier
        if kind == "words" or amount is None:
            return None
        if kind == "dice":
            return Item(q, "dice", ("dice", q.expr), q.expr)
        if kind == "distance":
            return Item(q, "distance", ("distance", q.value, "inch"), q.value)
        return Item(
            q, "number", ("bracket", q.expr), q.expr if kind in ("area", "list") else amount
        )
    if q.type == "dice":
        return Item(q, "dice", ("dice", q.expr), q.expr)
    if q.type == "distance":
        return Item(q, "distance", q.key(), amount)
    if q.type == "modifier":
        return Item(q, "modifier", q.key(), q.value)
    return Item(q, "number", q.key(), amount)


def items(text: str, lang: str) -> list[Item]:
    return items_of(find_quantities(text, lang))


def items_of(quantities: list[Quantity]) -> list[Item]:
    """The comparable items of quantities already read."""
    return [it for q in quantities if (it := _item(q)) is not None]


def _match(
    src: list[Item], tgt: list[Item], same: Any
) -> tuple[list[tuple[Item, Item]], list[Item], list[Item]]:
    """Pair items for which same(a, b) holds, in reading order; return pairs and leftovers."""
    pairs: list[tuple[Item, Item]] = []
    left = list(tgt)
    rest: list[Item] = []
    for a in src:
        for i, b in enumerate(left):
            if same(a, b):
                pairs.append((a, b))
                del left[i]
                break
        else:
            rest.append(a)
    return pairs, rest, left


def _describe(it: Item) -> str:
    return it.q.surface.strip()


def _finding(
    check: str, severity: str, pair_id: str, message: str, a: Item | None, b: Item | None
) -> Finding:
    """A finding on the source item `a` and the translation item `b` (None: absent)."""
    return Finding(
        check,
        severity,
        pair_id,
        message,
        a.q.span if a else None,
        b.q.span if b else None,
        expected=_describe(a) if a else None,
        found=_describe(b) if b else None,
    )


def check_quantities(pair_id: str, src: list[Item], tgt: list[Item]) -> Iterator[Finding]:
    """Findings for quantities that differ between a source and its target."""
    pairs1, s_rest, t_rest = _match(src, tgt, lambda a, b: a.key == b.key)
    pairs2, s_rest, t_rest = _match(
        s_rest, t_rest, lambda a, b: a.family == b.family and a.amount == b.amount
    )
    pairs3, s_rest, t_rest = _match(s_rest, t_rest, lambda a, b: a.amount == b.amount)
    for a, b in pairs1 + pairs2:
        yield from _style(pair_id, a, b)
    for a, b in pairs2:
        if a.family == "distance" and a.q.unit != b.q.unit:
            said = f"the distance {_describe(a)!r} is in {a.q.unit}, the translation's"
            said += f" {_describe(b)!r} in {b.q.unit}"
            yield _finding("distance_mismatch", "error", pair_id, said, a, b)
    for a, b in pairs3:
        if a.family == "distance":
            said = f"the distance {_describe(a)!r} reads as a plain {b.family} in the translation:"
            said += " the inch mark or unit is missing"
            yield _finding("distance_mismatch", "warning", pair_id, said, a, b)
        elif b.family == "distance":
            said = f"{_describe(b)!r} is a distance in the translation but not in the source"
            yield _finding("distance_mismatch", "warning", pair_id, said, a, b)
    # What is left: pair up leftovers of one family as "different", the rest as missing/extra.
    for family, check in FAMILY_CHECK.items():
        s_f = [a for a in s_rest if a.family == family]
        t_f = [b for b in t_rest if b.family == family]
        what = _WORDS[family]
        for a, b in zip(s_f, t_f, strict=False):
            said = f"{what} differs: the source says {_describe(a)!r},"
            said += f" the translation {_describe(b)!r}"
            yield _finding(check, "error", pair_id, said, a, b)
        for a in s_f[len(t_f) :]:
            said = f"{what} {_describe(a)!r} of the source is missing in the translation"
            yield _finding(check, "error", pair_id, said, a, None)
        for b in t_f[len(s_f) :]:
            said = f"{what} {_describe(b)!r} in the translation is not in the source"
            yield _finding(check, "error", pair_id, said, None, b)


def _style(pair_id: str, a: Item, b: Item) -> Iterator[Finding]:
    """Dice written with a Cyrillic letter (Д6, К6): same value, house style is D6; and a
    distance the translation gives without its inch mark ("в пределах 6 от")."""
    if "no-inch-mark" in b.q.notes and "no-inch-mark" not in a.q.notes:
        said = f"the distance {_describe(b)!r} in the translation lost its inch mark"
        yield _finding("distance_mismatch", "warning", pair_id, said, a, b)
    for note in b.q.notes:
        if note.startswith("style:"):
            written = note.split(":", 1)[1]
            yield Finding(
                "dice_mismatch",
                "info",
                pair_id,
                f"dice written as {written!r}: the same die, but write it with a Latin D",
                a.q.span,
                b.q.span,
                expected="D" + written[1:],
                found=written,
            )
