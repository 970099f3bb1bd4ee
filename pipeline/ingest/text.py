"""Plain text and Markdown: paragraphs, headings, pipe tables and list items.

Paragraphs are separated by blank lines, or by a line break after sentence-final
punctuation (drops that put one paragraph on each line). A soft-wrapped line, one that
breaks mid-sentence, continues its paragraph.
"""

from __future__ import annotations

import re

from ..model import Block, SegmentKind

_MD_HEADING = re.compile(r"^(#{1,6})\s+\S")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_PAREN = re.compile(r"\([^()]*\)")
_SENTENCE_END = tuple('.!?:;…)»"”')
MAX_HEADING = 120


def is_caps_heading(line: str) -> bool:
    """A line whose letters outside brackets are all capitals: "УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)"."""
    s = line.strip()
    if len(s) > MAX_HEADING or s.endswith((".", ",", ";", ":")):
        return False
    letters = [c for c in _PAREN.sub("", s) if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _classify(line: str) -> str:
    s = line.strip()
    if not s:
        return "blank"
    if s.startswith("|"):
        return "table"
    if _MD_HEADING.match(s) or is_caps_heading(s):
        return "heading"
    if _BULLET.match(line):
        return "bullet"
    return "text"


def split_cells(line: str) -> tuple[str, ...]:
    """Cells of a pipe-table row, trimmed; escaped pipes stay in the cell."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return tuple(c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s))


def read_text(text: str, markdown: bool) -> list[Block]:
    """Split a text file into blocks; each block's raw text is an exact slice of the file."""
    lines = text.splitlines(keepends=True)
    kinds = [_classify(line) for line in lines]
    blocks: list[Block] = []
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def emit(kind: SegmentKind, first: int, last: int, **extra: object) -> None:
        raw = text[offsets[first] : offsets[last + 1]].rstrip("\r\n")
        blocks.append(Block(kind=kind, raw=raw, lines=(first + 1, last + 1), **extra))  # type: ignore[arg-type]

    i = 0
    n = len(lines)
    while i < n:
        kind = kinds[i]
        if kind == "blank":
            i += 1
            continue
        if kind == "table":
            j = i
            while j + 1 < n and kinds[j + 1] == "table":
                j += 1
            rows = tuple(
                split_cells(lines[k])
                for k in range(i, j + 1)
                if not _TABLE_RULE.match(lines[k].strip())
            )
            emit("table", i, j, rows=rows)
            i = j + 1
            continue
        if kind == "heading":
            emit("heading", i, i)
            i += 1
            continue
        if kind == "bullet":
            in_list = (i > 0 and kinds[i - 1] == "bullet") or (
                i + 1 < n and kinds[i + 1] == "bullet"
            )
            if markdown or in_list:
                j = i
                while j + 1 < n and kinds[j + 1] == "text" and lines[j + 1][:1] in " \t":
                    j += 1  # an indented continuation line
                emit("list-item", i, j)
                i = j + 1
                continue
        j = i
        while (
            j + 1 < n and kinds[j + 1] == "text" and not lines[j].rstrip().endswith(_SENTENCE_END)
        ):
            j += 1
        emit("paragraph", i, j)
        i = j + 1
    return blocks


def marker_spans(block: Block) -> list[tuple[int, int]]:
    """Raw spans of Markdown heading marks and list bullets, left out of normalised text."""
    if block.kind == "heading":
        m = re.match(r"^\s*#{1,6}\s+", block.raw)
        return [(0, m.end())] if m else []
    if block.kind == "list-item":
        m = re.match(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+", block.raw)
        return [(0, m.end())] if m else []
    return []
