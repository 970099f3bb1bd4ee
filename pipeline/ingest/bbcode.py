"""BBCode elements in raw text: matched pairs and stray tags, in order.

Only known tag names count, so that `[6]` in a weapon profile or `[Multiple Wounds (D3)]`
stays text. Matching uses a stack, so deep or unbalanced nesting costs linear time.
"""

from __future__ import annotations

import re

from ..model import Markup, Span

TAGS = frozenset(
    [
        "b",
        "i",
        "u",
        "s",
        "sup",
        "sub",
        "url",
        "color",
        "colour",
        "size",
        "quote",
        "img",
        "list",
        "li",
        "center",
        "left",
        "right",
        "code",
        "font",
    ]
)
_TAG = re.compile(r"\[(/?)([A-Za-z]+|\*)(?:=([^\]\n]{0,200}))?\]")


def find_markup(raw: str) -> tuple[Markup, ...]:
    """Return BBCode elements sorted by start; stray tags have `inner` None."""
    found: list[Markup] = []
    stack: list[tuple[str, int, int, str | None]] = []  # tag, start, end of open tag, attr
    for m in _TAG.finditer(raw):
        closing, name, attr = m.group(1), m.group(2).lower(), m.group(3)
        if name not in TAGS and name != "*":
            continue
        if not closing:
            stack.append((name, m.start(), m.end(), attr))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == name:
                for tag, start, end, a in stack[depth + 1 :]:
                    found.append(Markup(tag, start, end, None, a))
                tag, start, end, a = stack[depth]
                found.append(Markup(tag, start, m.end(), (end, m.start()), a))
                del stack[depth:]
                break
        else:
            found.append(Markup("/" + name, m.start(), m.end(), None, None))
    for tag, start, end, a in stack:
        found.append(Markup(tag, start, end, None, a))
    return tuple(sorted(found, key=lambda x: (x.start, -x.end)))


def tag_spans(markup: tuple[Markup, ...]) -> list[Span]:
    """The raw spans of the tags themselves (left out of normalised text)."""
    spans: list[Span] = []
    for m in markup:
        if m.inner is None:
            spans.append((m.start, m.end))
        else:
            spans.append((m.start, m.inner[0]))
            spans.append((m.inner[1], m.end))
    return spans
