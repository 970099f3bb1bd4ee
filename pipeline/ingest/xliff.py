"""XLIFF 1.2 and 2.0: a source block and, when there is one, a target block per unit.

XLIFF 1.2: `<file source-language target-language>`, `<trans-unit id>` (also inside
`<group>`), `<source>`, `<target>` (its own `xml:lang` wins). Inline codes: `<bpt>`, `<ept>`,
`<ph>`, `<it>` carry the native code (BBCode) as their text; `<g>` wraps content and its
`ctype` names the markup (`bold` -> `[b]..[/b]`, `italic`, `underlined`, or
`x-bbcode-TAG`); `<x/>`, `<bx/>`, `<ex/>` stand for their `equiv-text`.

XLIFF 2.0: `<xliff srcLang trgLang>`, `<unit id>` with `<segment>`s and `<ignorable>`s,
joined in order into one block a side. `<pc dataRefStart dataRefEnd>` and `<ph dataRef>`
(also `<sc>`, `<ec>`) take the original BBCode from the unit's `<originalData><data id>`;
without data, a `<pc subType="xlf:b">` (`xlf:i`, `xlf:u`) is `[b]..[/b]` and a `<ph>` its
`equiv`; `<cp hex>` is the character it codes. A unit whose segments do not all have a target gives
only its source.

A target counts as a translation as each version marks one: XLIFF 1.2 unless its `state`
says it is still to be done or checked (`new`, `needs-translation`, `needs-review-...`)
and its unit is not `approved="yes"`; XLIFF 2.0 unless its segment is `state="initial"`.
A unit whose id names a rule (`fear.1.2`, as `rulepipe export` writes text to translate),
or whose `resname` (1.2) / `name` (2.0) is a rule id, says which rule it translates
(unit_ids.join_rule_units).
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

_V12_CODES = frozenset({"bpt", "ept", "ph", "it"})
_V12_EMPTY = frozenset({"x", "bx", "ex"})
_SUBTYPE_BBCODE = {"xlf:b": "b", "xlf:i": "i", "xlf:u": "u"}
_CTYPE_BBCODE = {"bold": "b", "italic": "i", "underlined": "u", "x-bold": "b", "x-italic": "i"}


def _g_tag(ctype: str | None) -> str | None:
    if not ctype:
        return None
    if ctype in _CTYPE_BBCODE:
        return _CTYPE_BBCODE[ctype]
    for prefix in ("x-bbcode-", "x-bbcode:"):
        if ctype.startswith(prefix) and ctype[len(prefix) :].isalnum():
            return ctype[len(prefix) :]
    return None


def _inline12(element: etree._Element) -> tuple[str, bool, str]:
    name = local(element)
    if name in _V12_CODES:
        return code_text(element), False, ""
    if name in _V12_EMPTY:
        return element.get("equiv-text") or "", False, ""
    if name == "g":
        tag = _g_tag(element.get("ctype"))
        return (f"[{tag}]", True, f"[/{tag}]") if tag else ("", True, "")
    return "", True, ""  # <mrk> and unknown wrappers: their text


def _first(element: etree._Element, name: str) -> etree._Element | None:
    return next((c for c in element if local(c) == name), None)


def _named(unit_id: str | None, name: str | None) -> str | None:
    """What a unit says it translates: its id when that names a rule, else its name."""
    return unit_id if parse_unit_id(unit_id) else (name or None)


def _pending12(tu: etree._Element, target: etree._Element) -> bool:
    """Whether an XLIFF 1.2 target is not (yet) a translation."""
    if tu.get("approved") == "yes":
        return False
    state = (target.get("state") or "").strip()
    return state == "new" or state.startswith("needs-")


def _read12(root: etree._Element) -> list[Block]:
    blocks: list[Block] = []
    for file_el in (c for c in root if local(c) == "file"):
        src = lang_code(file_el.get("source-language"))
        trg = lang_code(file_el.get("target-language"))
        units = (e for e in file_el.iter() if local(e) == "trans-unit")
        for index, tu in enumerate(units, start=1):
            unit = tu.get("id") or f"tu{index}"
            source = _first(tu, "source")
            if source is None:
                continue
            raw = inline_text(source, _inline12)
            if not raw.strip():
                continue
            lang = lang_code(source.get(XML_LANG)) or src
            named = _named(tu.get("id"), tu.get("resname"))
            lines = line_span(source)
            blocks.append(Block("paragraph", raw, lines, None, "source", unit, lang, rule=named))
            target = _first(tu, "target")
            if target is None or _pending12(tu, target):
                continue
            raw = inline_text(target, _inline12)
            if raw.strip():
                lang = lang_code(target.get(XML_LANG)) or trg
                lines = line_span(target)
                blocks.append(
                    Block("paragraph", raw, lines, None, "target", unit, lang, rule=named)
                )
    return join_rule_units(blocks)


def _inline20(data: dict[str, str]):
    def handle(element: etree._Element) -> tuple[str, bool, str]:
        name = local(element)
        if name == "pc":
            if element.get("dataRefStart") or element.get("dataRefEnd"):
                start = data.get(element.get("dataRefStart") or "", "")
                end = data.get(element.get("dataRefEnd") or "", "")
                return start, True, end
            tag = _SUBTYPE_BBCODE.get(element.get("subType") or "")
            return (f"[{tag}]", True, f"[/{tag}]") if tag else ("", True, "")
        if name in ("ph", "sc", "ec"):
            ref = element.get("dataRef")
            return (data.get(ref, "") if ref else element.get("equiv") or ""), False, ""
        if name == "cp":
            try:
                return chr(int(element.get("hex") or "", 16)), False, ""
            except (ValueError, OverflowError):
                return "", False, ""
        if name in ("sm", "em"):
            return "", False, ""
        return "", True, ""  # <mrk> and unknown wrappers: their text

    return handle


def _join(parts: list[tuple[etree._Element, str]]) -> tuple[str, tuple[int, int]]:
    text = "".join(t for _, t in parts)
    spans = [line_span(e) for e, _ in parts]
    return text, (min(a for a, _ in spans), max(b for _, b in spans))


def _read20(root: etree._Element) -> list[Block]:
    src = lang_code(root.get("srcLang"))
    trg = lang_code(root.get("trgLang"))
    blocks: list[Block] = []
    units = (e for e in root.iter() if local(e) == "unit")
    for index, unit_el in enumerate(units, start=1):
        unit = unit_el.get("id") or f"u{index}"
        original = _first(unit_el, "originalData")
        data = {
            d.get("id") or "": "".join(d.itertext())
            for d in (original if original is not None else [])
            if local(d) == "data"
        }
        handle = _inline20(data)
        sources: list[tuple[etree._Element, str]] = []
        targets: list[tuple[etree._Element, str]] = []
        complete = True
        for part in (c for c in unit_el if local(c) in ("segment", "ignorable")):
            source = _first(part, "source")
            if source is None:
                continue
            source_text = inline_text(source, handle)
            sources.append((source, source_text))
            target = _first(part, "target")
            if target is not None and part.get("state") == "initial":
                complete = False
            elif target is not None:
                targets.append((target, inline_text(target, handle)))
            elif local(part) == "ignorable":
                targets.append((source, source_text))  # white space between segments
            else:
                complete = False
        if not sources:
            continue
        raw, lines = _join(sources)
        if not raw.strip():
            continue
        named = _named(unit_el.get("id"), unit_el.get("name"))
        blocks.append(Block("paragraph", raw, lines, None, "source", unit, src, rule=named))
        if complete and targets:
            raw, lines = _join(targets)
            if raw.strip():
                lang = lang_code(targets[0][0].get(XML_LANG)) or trg
                blocks.append(
                    Block("paragraph", raw, lines, None, "target", unit, lang, rule=named)
                )
    return join_rule_units(blocks)


@reader(".xlf", ".xliff")
def read_xliff(name: str, data: bytes) -> list[Block]:
    """Blocks of an XLIFF 1.2 or 2.0 file, in document order."""
    root = parse_xml(name, data)
    if local(root) != "xliff":
        raise InputError(name, f"not an XLIFF file (root element <{local(root)}>)", "1")
    version = (root.get("version") or "").strip()
    namespace = etree.QName(root).namespace or ""
    if version.startswith("2") or namespace.startswith("urn:oasis:names:tc:xliff:document:2"):
        return _read20(root)
    if version.startswith("1") or namespace == "urn:oasis:names:tc:xliff:document:1.2":
        return _read12(root)
    raise InputError(name, f"unsupported XLIFF version {version or '(none)'!r}", "1")
