"""TMX 1.4b translation memories: one block per `<tuv>`, source and target kept as such.

A `<tu>`'s source language is its own `srclang` or the header's; the variant in that
language is the source, the others are targets. When the source language is `*all*` (any
variant may serve as source) the roles are left open. Inline codes (`<bpt>`, `<ept>`,
`<ph>`, `<it>`, `<ut>`) carry the native code they stand for, here BBCode such as `[b]`, so
a segment reads back to the text it was made from; `<hi>` and `<sub>` keep their text.
"""

from __future__ import annotations

from lxml import etree

from ..errors import InputError
from ..lang import primary as lang_code
from ..model import Block
from ..xmlsafe import XML_LANG, line_span, local, parse_xml
from . import reader
from .inline import code_text, inline_text
from .unit_ids import join_rule_units, parse_unit_id

_CODES = frozenset({"bpt", "ept", "ph", "it", "ut"})


def _inline(element: etree._Element) -> tuple[str, bool, str]:
    if local(element) in _CODES:
        return code_text(element), False, ""
    return "", True, ""  # <hi>, <sub> and unknown wrappers: their text


def _children(element: etree._Element, name: str) -> list[etree._Element]:
    return [c for c in element if local(c) == name]


@reader(".tmx")
def read_tmx(name: str, data: bytes) -> list[Block]:
    """Blocks of a TMX file, in document order."""
    root = parse_xml(name, data)
    if local(root) != "tmx":
        raise InputError(name, f"not a TMX file (root element <{local(root)}>)", "1")
    header = next(iter(_children(root, "header")), None)
    if header is None:
        raise InputError(name, "TMX without <header>", str(root.sourceline or 1))
    file_src = header.get("srclang")
    body = next(iter(_children(root, "body")), None)
    if body is None:
        raise InputError(name, "TMX without <body>", str(root.sourceline or 1))
    blocks: list[Block] = []
    for index, tu in enumerate(_children(body, "tu"), start=1):
        unit = tu.get("tuid") or f"tu{index}"
        named = (
            unit
            if parse_unit_id(unit)
            else next(
                (p.text for p in _children(tu, "prop") if p.get("type") == "x-rule" and p.text),
                None,
            )
        )
        srclang = tu.get("srclang") or file_src
        src = None if srclang in (None, "*all*") else lang_code(srclang)
        for tuv in _children(tu, "tuv"):
            seg = next(iter(_children(tuv, "seg")), None)
            if seg is None:
                continue
            raw = inline_text(seg, _inline)
            if not raw.strip():
                continue
            lang = lang_code(tuv.get(XML_LANG) or tuv.get("lang"))
            role = None if src is None or lang is None else "source" if lang == src else "target"
            blocks.append(
                Block(
                    kind="paragraph",
                    raw=raw,
                    lines=line_span(tuv),
                    role=role,
                    unit=unit,
                    lang_hint=lang,
                    rule=named,
                )
            )
    return join_rule_units(blocks)
