"""Markup in a text (BBCode, HTML) as a stream of text and inline codes, for TMX and XLIFF
writers.

Matched pairs (`[b]..[/b]`) become an opening and a closing code sharing an id; a tag
without its partner (a sentence cut through a bold run, a typo) is an isolated code; `[*]`
and an HTML element that is never closed (`<br>`) stand alone. Codes in the target get the
id of the same code in the source, so that a CAT tool can tell which target code is which
source code.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Literal

from ..bbcode import HTML_EMPTY, find_markup

CodeKind = Literal["open", "close", "begin", "end", "ph"]  # begin/end: isolated open/close


@dataclass(frozen=True, slots=True)
class Code:
    kind: CodeKind
    tag: str
    raw: str
    pair: int = 0  # the pair's number in its text (open and close share it); 0 if isolated
    id: str = ""


Token = str | Code


def tokenize(text: str) -> list[Token]:
    """The text split into plain runs and codes, in order; joining the raws gives it back."""
    events: list[tuple[int, int, Code]] = []
    pair = 0
    for m in find_markup(text):
        if m.inner is not None:
            pair += 1
            events.append(
                (m.start, m.inner[0], Code("open", m.tag, text[m.start : m.inner[0]], pair))
            )
            events.append((m.inner[1], m.end, Code("close", m.tag, text[m.inner[1] : m.end], pair)))
        elif m.tag == "*" or (text[m.start] == "<" and m.tag in HTML_EMPTY):  # `[*]`, `<br>`
            events.append((m.start, m.end, Code("ph", m.tag, text[m.start : m.end])))
        elif m.tag.startswith("/"):
            events.append((m.start, m.end, Code("end", m.tag[1:], text[m.start : m.end])))
        else:
            events.append((m.start, m.end, Code("begin", m.tag, text[m.start : m.end])))
    events.sort(key=lambda e: e[0])
    tokens: list[Token] = []
    at = 0
    for start, end, code in events:
        if start > at:
            tokens.append(text[at:start])
        tokens.append(code)
        at = end
    if at < len(text):
        tokens.append(text[at:])
    return tokens


def _key(code: Code) -> tuple[str, str, str]:
    kind = "pair" if code.kind in ("open", "close") else code.kind
    return (kind, code.tag, code.raw.lower() if code.kind != "close" else "")


def number(source: list[Token], target: list[Token]) -> tuple[list[Token], list[Token]]:
    """Give every code an id: source codes 1, 2, ... (a pair shares one); a target code takes
    the id of the same source code (same tag and text, same occurrence), else a new one."""
    ids: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    next_id = 1

    def assign(tokens: list[Token], lookup: bool) -> list[Token]:
        nonlocal next_id
        out: list[Token] = []
        pair_ids: dict[int, str] = {}
        seen: dict[tuple[str, str, str], int] = defaultdict(int)
        for tok in tokens:
            if isinstance(tok, str):
                out.append(tok)
                continue
            if tok.kind == "close":
                out.append(replace(tok, id=pair_ids[tok.pair]))
                continue
            key = _key(tok)
            n = seen[key]
            seen[key] += 1
            if lookup and n < len(ids[key]):
                code_id = ids[key][n]
            else:
                code_id = str(next_id)
                next_id += 1
                if not lookup:
                    ids[key].append(code_id)
            if tok.kind == "open":
                pair_ids[tok.pair] = code_id
            out.append(replace(tok, id=code_id))
        return out

    return assign(source, lookup=False), assign(target, lookup=True)


def plain(tokens: list[Token]) -> str:
    """The text back, codes as their BBCode."""
    return "".join(t if isinstance(t, str) else t.raw for t in tokens)
