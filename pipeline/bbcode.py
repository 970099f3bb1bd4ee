"""BBCode: the one tag grammar of the project, and the elements of a raw text.

Only known tag names count, so that `[6]` in a weapon profile, `[Multiple Wounds (D3)]` or a
rule name in brackets stays text. Every stage that skips, masks or strips tags uses `TAG`
from here. Matching uses a stack, so deep or unbalanced nesting costs linear time.
"""

from __future__ import annotations

import re

from .model import Markup, Span

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
_NAMES = "|".join(sorted(TAGS, key=lambda n: (-len(n), n)))
#: A tag: `[b]`, `[/b]`, `[color=red]`, `[*]`; groups: the closing slash, the name, the value.
TAG = re.compile(rf"\[(/?)((?i:{_NAMES})|\*)(?:=([^\]\n]{{0,200}}))?\]")


def mask_tags(text: str) -> str:
    """Tags blanked with spaces, so offsets stay those of the raw text."""
    if "[" not in text:
        return text
    return TAG.sub(lambda m: " " * len(m.group()), text)


def strip_tags(text: str, replacement: str = "") -> str:
    """Tags replaced (by default removed)."""
    if "[" not in text:
        return text
    return TAG.sub(replacement, text)


def find_markup(raw: str) -> tuple[Markup, ...]:
    """Return BBCode elements sorted by start; stray tags have `inner` None."""
    found: list[Markup] = []
    stack: list[tuple[str, int, int, str | None]] = []  # tag, start, end of open tag, attr
    for m in TAG.finditer(raw):
        closing, name, attr = m.group(1), m.group(2).lower(), m.group(3)
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
