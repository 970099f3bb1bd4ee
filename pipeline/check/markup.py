"""markup_mismatch: BBCode elements of the source and the translation, as the ingest BBCode
reader finds them (known tags only, so `[6]` in a profile stays text)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from ..bbcode import find_markup
from ..model import Markup
from .model import Finding, Span


def _label(m: Markup) -> str:
    return m.tag if m.inner is not None else f"stray [{m.tag}]"


def check_markup(pair_id: str, source: str, target: str) -> Iterator[Finding]:
    """Markup findings, one for each defect: a tag of the source that lost its other half
    in the translation is one finding (not an unbalanced tag and a missing element)."""
    if "[" not in source and "[" not in target:
        return
    src = list(find_markup(source))
    tgt = list(find_markup(target))
    closed_s = [m for m in src if m.inner is not None]
    closed_t = [m for m in tgt if m.inner is not None]
    cs = Counter(m.tag for m in closed_s)
    ct = Counter(m.tag for m in closed_t)
    missing = cs - ct
    extra = ct - cs
    # elements one side has whole and the other has only one tag of: (whole, half)
    halves: dict[int, Markup] = {}
    for side, elems, whole, left in (
        ("source", src, closed_t, extra),
        ("translation", tgt, closed_s, missing),
    ):
        text = source if side == "source" else target
        for m in elems:
            if m.inner is not None:
                continue
            tag = m.tag.lstrip("/")
            kind = "closing" if m.tag.startswith("/") else "opening"
            span = (m.start, m.end)
            partner = (
                next((w for w in whole if w.tag == tag and id(w) not in halves), None)
                if left[tag] > 0
                else None
            )
            if partner is not None and side == "translation":
                left[tag] -= 1
                halves[id(partner)] = m
                lost = f"[/{tag}]" if kind == "opening" else f"[{tag}]"
                yield _error(
                    pair_id,
                    f"the translation lost the {lost} of the source's [{tag}]...[/{tag}]",
                    (partner.start, partner.end),
                    span,
                    expected=f"[{tag}]...[/{tag}]",
                    found=text[m.start : m.end],
                )
                continue
            if partner is not None:
                left[tag] -= 1
                halves[id(partner)] = m
                yield _error(
                    pair_id,
                    f"the source has only the {kind} [{m.tag}]; the translation has a whole"
                    f" [{tag}]...[/{tag}]",
                    span,
                    (partner.start, partner.end),
                    expected=f"[{m.tag}] alone",
                    found=_tags(target, partner),
                )
                continue
            yield _error(
                pair_id,
                f"unbalanced markup in the {side}: {kind} [{m.tag}] without its pair",
                span if side == "source" else None,
                span if side == "translation" else None,
                expected=f"[{tag}]...[/{tag}]",
                found=text[m.start : m.end],
            )
    lost = [m for m in closed_s if id(m) not in halves and _take(missing, m.tag)]
    added = [m for m in closed_t if id(m) not in halves and _take(extra, m.tag)]
    for m, o in zip(lost, added, strict=False):  # one tag written as another
        yield _error(
            pair_id,
            f"the source's [{m.tag}]...[/{m.tag}] is [{o.tag}]...[/{o.tag}] in the translation",
            (m.start, m.end),
            (o.start, o.end),
            expected=f"[{m.tag}]...[/{m.tag}]",
            found=_tags(target, o),
        )
    for m in lost[len(added) :]:
        message = f"[{m.tag}] markup of the source is missing in the translation"
        yield _error(pair_id, message, (m.start, m.end), None, f"[{m.tag}]...[/{m.tag}]")
    for m in added[len(lost) :]:
        message = f"[{m.tag}] markup in the translation is not in the source"
        # the element's tags, not its text: nested, that is quadratic
        yield _error(pair_id, message, None, (m.start, m.end), None, _tags(target, m))
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


def _error(
    pair_id: str,
    message: str,
    source: Span | None,
    target: Span | None,
    expected: str | None = None,
    found: str | None = None,
) -> Finding:
    return Finding("markup_mismatch", "error", pair_id, message, source, target, expected, found)


def _take(counts: Counter[str], tag: str) -> bool:
    """Count one element of `tag` off `counts`, if any is left."""
    if counts[tag] <= 0:
        return False
    counts[tag] -= 1
    return True


def _depth(elems: list[Markup], i: int) -> int:
    m = elems[i]
    return sum(1 for o in elems[:i] if o.start <= m.start and m.end <= o.end)


def _tags(text: str, m: Markup) -> str:
    """An element's tags as written, its content elided: `[color=red]...[/color]`."""
    assert m.inner is not None
    return f"{text[m.start : m.inner[0]]}...{text[m.inner[1] : m.end]}"
