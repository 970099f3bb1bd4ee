"""Aligned pairs as XLIFF 2.0: one <unit> per pair, BBCode as inline codes with original data.

A matched pair is <pc dataRefStart dataRefEnd> around its content, an isolated tag is
<sc isolated="yes">/<ec isolated="yes">, `[*]` is <ph>; each tag's own text is kept once per
unit in <originalData><data id>. An XLIFF 2.0 document has one target language.
A translation's segment is `state="translated"`; an empty target, text still to
translate, `state="initial"`.
"""

from __future__ import annotations

from lxml import etree

from ..errors import InputError
from ..xmlsafe import XML_SPACE
from .inline import Code, Token, number, tokenize
from .pairs import Pair
from .xmltext import append_text, serialise, xml_safe

NS = "urn:oasis:names:tc:xliff:document:2.0"
TYPES = {
    "b": "fmt",
    "i": "fmt",
    "u": "fmt",
    "s": "fmt",
    "sup": "fmt",
    "sub": "fmt",
    "color": "fmt",
    "colour": "fmt",
    "size": "fmt",
    "font": "fmt",
    "url": "link",
    "img": "image",
    "quote": "quote",
}


def _q(name: str) -> str:
    return f"{{{NS}}}{name}"


class _Data:
    """The unit's original data: one <data> per distinct tag text."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}

    def ref(self, raw: str) -> str:
        if raw not in self.ids:
            self.ids[raw] = f"d{len(self.ids) + 1}"
        return self.ids[raw]


def _content(parent: etree._Element, tokens: list[Token], data: _Data) -> None:
    stack = [parent]
    for tok in tokens:
        if isinstance(tok, str):
            append_text(stack[-1], tok)
            continue
        code: Code = tok
        attrs = {"id": code.id}
        if code.tag in TYPES:
            attrs["type"] = TYPES[code.tag]
        if code.kind == "open":
            attrs["dataRefStart"] = data.ref(code.raw)
            stack.append(etree.SubElement(stack[-1], _q("pc"), attrs))
        elif code.kind == "close":
            stack[-1].set("dataRefEnd", data.ref(code.raw))
            stack.pop()
        elif code.kind == "ph":
            attrs["dataRef"] = data.ref(code.raw)
            etree.SubElement(stack[-1], _q("ph"), attrs)
        else:
            attrs |= {"dataRef": data.ref(code.raw), "isolated": "yes"}
            etree.SubElement(stack[-1], _q("sc" if code.kind == "begin" else "ec"), attrs)


def write_xliff(pairs: list[Pair], source_lang: str = "en") -> str:
    """The XLIFF 2.0 document (text) of pairs that share one target language."""
    if not pairs:
        raise InputError("--target-lang", "no linked pairs to export")
    target_langs = sorted({p.target_lang for p in pairs})
    if len(target_langs) > 1:
        raise InputError("--target-lang", f"pairs in several target languages: {target_langs}")
    root = etree.Element(
        _q("xliff"), version="2.0", srcLang=source_lang, trgLang=target_langs[0], nsmap={None: NS}
    )
    file = etree.SubElement(root, _q("file"), id="f1", original="alignments.json")
    for pair in pairs:
        unit = etree.Element(_q("unit"), id=pair.id)
        if pair.rule:
            unit.set("name", pair.rule)
        data = _Data()
        source, target = number(tokenize(pair.source), tokenize(pair.target or ""))
        segment = etree.Element(_q("segment"), state="translated" if pair.target else "initial")
        for name, tokens in (("source", source), ("target", target)):
            el = etree.SubElement(segment, _q(name), {XML_SPACE: "preserve"})
            _content(el, tokens, data)  # a code keeps its id on both sides
        if data.ids:
            original = etree.SubElement(unit, _q("originalData"))
            for raw, data_id in data.ids.items():
                el = etree.SubElement(original, _q("data"), id=data_id)
                el.text = xml_safe(raw)
        unit.append(segment)
        file.append(unit)
    return serialise(root)
