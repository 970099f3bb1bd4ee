"""From the normalised text of a segment back to its raw text.

Facts and sentence spans are found in `text` (normalised for matching); reports show `raw`.
The map is rebuilt from what the segment records (markup tags, asides, Markdown marks), so
nothing else has to be kept per segment.
"""

from __future__ import annotations

from ..bbcode import tag_spans
from ..model import Aside, Block, Markup, Segment
from ..normalise import normalise_with_map, to_raw_span
from .text import layout_spans, marker_spans

Span = tuple[int, int]


def left_out(block: Block, markup: tuple[Markup, ...], asides: tuple[Aside, ...]) -> list[Span]:
    """Raw spans left out of the normalised text: markup tags, asides, Markdown marks, and
    what a page's layout put in (soft and line-end hyphens, page furniture)."""
    spans = tag_spans(markup) + [(a.start, a.end) for a in asides] + marker_spans(block)
    return spans + layout_spans(block)


def removed_spans(segment: Segment) -> list[Span]:
    """Raw spans left out of the segment's normalised text."""
    block = Block(kind=segment.kind, raw=segment.raw, lines=segment.lines)
    return left_out(block, segment.markup, segment.asides)


def raw_spans(segment: Segment, spans: list[Span]) -> list[Span]:
    """Spans of `segment.text` mapped to spans of `segment.raw`."""
    if segment.text == segment.raw:  # most paragraphs: nothing was folded or left out
        return list(spans)
    text, offsets = normalise_with_map(segment.raw, removed_spans(segment))
    if text != segment.text:  # a segment edited by hand: spans cannot be mapped
        raise ValueError(f"{segment.id}: normalised text does not match its raw text")
    return [to_raw_span(offsets, a, b) for a, b in spans]
