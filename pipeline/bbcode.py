"""Inline markup: the one tag grammar of the project, and the elements of a raw text.

BBCode, and the HTML a text copied out of a web page's source keeps (`<b>`, `<p>`, `<br>`).
Only known tag names count, so that `[6]` in a weapon profile, `[Multiple Wounds (D3)]` or a
rule name in brackets stays text, and so do "roll <5" and "<Имя юнита>": an HTML tag is one
of the elements lxml knows. `<strong>` and `<em>` are the same markup as `[b]` and `[i]`.
Every stage that skips, masks or strips tags uses `TAG` (BBCode) or `MARKUP` from here.
Matching uses a stack, so deep or unbalanced nesting costs linear time.
"""

from __future__ import annotations

import re

from lxml.html import defs

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

#: HTML elements (a closed set: lxml's), and the ones that are the same markup as BBCode's.
HTML_TAGS = frozenset(defs.tags | defs.empty_tags)
HTML_AS = {"strong": "b", "em": "i"}
#: Elements that are never closed (`<br>`).
HTML_EMPTY = frozenset(defs.empty_tags)
#: Elements that end a line: text on either side of their tags is not one word.
HTML_BREAKS = frozenset(defs.block_tags | {"br"})
_HTML_NAMES = "|".join(sorted(HTML_TAGS, key=lambda n: (-len(n), n)))
#: An HTML tag: `<b>`, `</p>`, `<br/>`, `<span class="term">` (attributes open with a
#: letter); groups: the closing slash, the name, the attributes.
HTML_TAG = re.compile(rf"<(/?)((?i:{_HTML_NAMES}))(?=[\s/>])(\s+[A-Za-z_:][^<>]{{0,200}}?)?\s*/?>")
#: A BBCode or an HTML tag; groups 1-3 those of `TAG`, 4-6 those of `HTML_TAG`.
MARKUP = re.compile(f"{TAG.pattern}|{HTML_TAG.pattern}")


def _plain(text: str) -> bool:
    """Whether a text can hold no tag at all (most texts: no search)."""
    return "[" not in text and "<" not in text


def _grammar(text: str) -> re.Pattern[str]:
    """`TAG` for a text with no `<` (BBCode's search costs what it did), else `MARKUP`."""
    return TAG if "<" not in text else MARKUP


def mask_tags(text: str) -> str:
    """Tags blanked with spaces, so offsets stay those of the raw text."""
    if _plain(text):
        return text
    return _grammar(text).sub(lambda m: " " * len(m.group()), text)


def ends_line(tag: str) -> bool:
    """Whether a tag ends a line (`<br>`, `<p>`, `</li>`): the words on its two sides stay
    apart."""
    m = HTML_TAG.fullmatch(tag) if tag[:1] == "<" else None
    return m is not None and m.group(2).lower() in HTML_BREAKS


def strip_tags(text: str, replacement: str = "") -> str:
    """Tags replaced (by default removed; a tag that ends a line, by a space)."""
    if _plain(text):
        return text
    return _grammar(text).sub(lambda m: replacement or (" " if ends_line(m.group()) else ""), text)


def find_markup(raw: str) -> tuple[Markup, ...]:
    """Return markup elements sorted by start; stray tags have `inner` None. An HTML element
    closes only with its own HTML tag (`<strong>` with `</strong>`, never `[/b]`), and its
    `tag` is BBCode's where they mean the same (`<strong>` is `b`); `attr` keeps an HTML
    tag's attributes."""
    if _plain(raw):
        return ()
    found: list[Markup] = []
    # How it closes (`[b` or `<strong`), tag, start, end of open tag, attr.
    stack: list[tuple[str, str, int, int, str | None]] = []
    for m in _grammar(raw).finditer(raw):
        if m.group()[0] == "[":
            closing, name, attr = m.group(1), m.group(2).lower(), m.group(3)
            key, tag = "[" + name, name
        else:
            closing, name, attr = m.group(4), m.group(5).lower(), m.group(6)
            key, tag = "<" + name, HTML_AS.get(name, name)
            attr = attr.strip() if attr and attr.strip() else None
            if name in HTML_EMPTY or m.group().endswith("/>"):  # `<br>`: never closed
                found.append(Markup(tag, m.start(), m.end(), None, attr))
                continue
        if not closing:
            stack.append((key, tag, m.start(), m.end(), attr))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == key:
                for _, t, start, end, a in stack[depth + 1 :]:
                    found.append(Markup(t, start, end, None, a))
                _, t, start, end, a = stack[depth]
                found.append(Markup(t, start, m.end(), (end, m.start()), a))
                del stack[depth:]
                break
        else:
            found.append(Markup("/" + tag, m.start(), m.end(), None, None))
    for _, t, start, end, a in stack:
        found.append(Markup(t, start, end, None, a))
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
