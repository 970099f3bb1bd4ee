"""HTML pieces shared by every page: escaping, the page frame, and text with marked spans."""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...files import read_data

DATA = Path(__file__).resolve().parent


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


@lru_cache(maxsize=1)
def language_names() -> dict[str, str]:
    return read_data(DATA / "languages.yaml")


def lang_name(code: str) -> str:
    return language_names().get(code, code)


def page(
    title: str,
    body: str,
    root: str,
    nav: Sequence[tuple[str, str]],
    scripts: Iterable[str] = (),
) -> str:
    """A whole page: `root` is the relative way back to the site's top ("" or "../")."""
    links = "".join(f'<li><a href="{root}{esc(href)}">{esc(text)}</a></li>' for href, text in nav)
    tags = "".join(f'<script src="{root}{esc(s)}"></script>' for s in scripts)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        f'<link rel="stylesheet" href="{root}site.css">\n</head>\n<body>\n'
        '<a class="skip" href="#main">Skip to content</a>\n'
        f'<header><nav aria-label="Site"><ul>{links}</ul></nav></header>\n'
        f'<main id="main">\n{body}\n</main>\n{tags}\n</body>\n</html>\n'
    )


@dataclass(frozen=True, slots=True)
class Mark:
    """A span of a text to wrap: `tag` with `cls` and a hover `title`."""

    start: int
    end: int
    tag: str
    cls: str
    title: str


def marked(text: str, start: int, end: int, marks: Sequence[Mark]) -> str:
    """text[start:end] escaped, each mark wrapped round the part of it inside the range.

    Marks may overlap: the range is cut at every boundary and each piece wrapped in the
    marks that cover it, so the HTML stays well nested."""
    inside = [m for m in marks if m.start < end and m.end > start and m.start < m.end]
    cuts = sorted(
        {start, end, *(max(start, m.start) for m in inside), *(min(end, m.end) for m in inside)}
    )
    out = []
    for a, b in itertools.pairwise(cuts):
        piece = esc(text[a:b])
        for m in sorted(inside, key=lambda m: (m.tag, m.cls, m.start)):
            if m.start <= a and b <= m.end:
                piece = f'<{m.tag} class="{m.cls}" title="{esc(m.title)}">{piece}</{m.tag}>'
        out.append(piece)
    return "".join(out)
