"""markup_mismatch: BBCode elements of the source and the translation, as the ingest BBCode
reader finds them (known tags only, so `[6]` in a profile stays text)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..bbcode import find_markup
from ..model import Markup
from .model import Finding


def _label(m: Markup) -> str:
    return m.tag if m.inner is not None else f"stray [{m.tag}]"


def check_markup(pair_id: str, source: str, target: str) -> Iterator[Finding]:
    if "[" not in source and "[" not in target:
        return
    src = list(find_markup(source))
    tgt = list(find_markup(target))
    for side, elems, text in (("source", src, source), ("translation", tgt, target)):
        for m in elems:
            if m.inner is None:
                tag = m.tag.lstrip("/")
                kind = "closing" if m.tag.startswith("/") else "opening"
                span = (m.start, m.end)
                yield Finding(
                    "markup_mismatch",
                    "error",
                    pair_id,
                    f"unbalanced markup in the {side}: {kind} [{m.tag}] without its pair",
                    span if side == "source" else None,
                    span if side == "translation" else None,
                    expected=f"[{tag}]...[/{tag}]",
                    found=text[m.start : m.end],
                )
    closed_s = [m for m in src if m.inner is not None]
    closed_t = [m for m in tgt if m.inner is not None]
    cs = Counter(m.tag for m in closed_s)
    ct = Counter(m.tag for m in closed_t)
    missing = cs - ct
    extra = ct - cs
    for m in closed_s:
        if missing[m.tag] > 0:
            missing[m.tag] -= 1
            yield Finding(
                "markup_mismatch",
                "error",
                pair_id,
                f"[{m.tag}] markup of the source is missing in the translation",
                (m.start, m.end),
                None,
                expected=f"[{m.tag}]...[/{m.tag}]",
            )
    for m in closed_t:
        if extra[m.tag] > 0:
            extra[m.tag] -= 1
            yield Finding(
                "markup_mismatch",
                "error",
                pair_id,
                f"[{m.tag}] markup in the translation is not in the source",
                None,
                (m.start, m.end),
                found=_tags(target, m),  # not the element's text: nested, that is quadratic
            )
    if cs == ct and len(closed_s) > 1:
        order_s = [_label(m) for m in closed_s]
        order_t = [_label(m) for m in closed_t]
        nest_s = [_depth(closed_s, i) for i in range(len(closed_s))]
        nest_t = [_depth(closed_t, i) for i in range(len(closed_t))]
        if order_s != order_t or nest_s != nest_t:
            yield Finding(
                "markup_mismatch",
                "warning",
                pair_id,
                "the markup is reordered or nested differently: source "
                + " ".join(order_s)
                + ", translation "
                + " ".join(order_t),
                (closed_s[0].start, closed_s[-1].end),
                (closed_t[0].start, closed_t[-1].end),
                expected=" ".join(order_s),
                found=" ".join(order_t),
            )


def _depth(elems: list[Markup], i: int) -> int:
    m = elems[i]
    return sum(1 for o in elems[:i] if o.start <= m.start and m.end <= o.end)


def _tags(text: str, m: Markup) -> str:
    """An element's tags as written, its content elided: `[color=red]...[/color]`."""
    assert m.inner is not None
    return f"{text[m.start : m.inner[0]]}...{text[m.inner[1] : m.end]}"
