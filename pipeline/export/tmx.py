"""Aligned pairs as TMX 1.4b: one <tu> per pair, BBCode as TMX inline codes.

A matched pair is <bpt i>/<ept i> holding the tag's own text, an isolated tag is
<it pos="begin|end">, `[*]` is <ph>; the `x` attribute ties a target code to its source
code. The text content of a <seg> is therefore the raw text, tags included.
"""

from __future__ import annotations

from lxml import etree

from .. import __version__
from ..xmlsafe import XML_LANG
from .inline import Token, number, tokenize
from .pairs import Level, Pair
from .xmltext import append_text, serialise, xml_safe

DOCTYPE = '<!DOCTYPE tmx SYSTEM "tmx14.dtd">'
TYPES = {  # TMX 1.4b recommended values of bpt/it/ph `type`
    "b": "bold",
    "i": "italic",
    "u": "ulined",
    "url": "link",
    "color": "color",
    "colour": "color",
    "font": "font",
    "size": "font",
}


def _seg(tokens: list[Token]) -> etree._Element:
    seg = etree.Element("seg")
    pair_i: dict[int, str] = {}
    for tok in tokens:
        if isinstance(tok, str):
            append_text(seg, tok)
            continue
        if tok.kind == "open":
            pair_i[tok.pair] = str(len(pair_i) + 1)
            el = etree.SubElement(seg, "bpt", i=pair_i[tok.pair], x=tok.id)
        elif tok.kind == "close":
            el = etree.SubElement(seg, "ept", i=pair_i[tok.pair])
        elif tok.kind == "ph":
            el = etree.SubElement(seg, "ph", x=tok.id)
        else:
            el = etree.SubElement(seg, "it", pos=tok.kind, x=tok.id)
        if tok.kind != "close" and tok.tag in TYPES:
            el.set("type", TYPES[tok.tag])
        el.text = xml_safe(tok.raw)
    return seg


def write_tmx(pairs: list[Pair], level: Level, source_lang: str = "en") -> str:
    """The TMX document (text) of the pairs; deterministic: no dates."""
    root = etree.Element("tmx", version="1.4")
    etree.SubElement(
        root,
        "header",
        creationtool="rulepipe",
        creationtoolversion=__version__,
        segtype=level,
        adminlang="en",
        srclang=source_lang,
        datatype="plaintext",
        **{"o-tmf": "rulepipe"},
    )
    body = etree.SubElement(root, "body")
    for pair in pairs:
        tu = etree.SubElement(body, "tu", tuid=pair.id)
        if pair.rule:
            prop = etree.SubElement(tu, "prop", type="x-rule")
            prop.text = pair.rule
        source, target = number(tokenize(pair.source), tokenize(pair.target))
        for lang, tokens in ((pair.source_lang, source), (pair.target_lang, target)):
            tuv = etree.SubElement(tu, "tuv", {XML_LANG: lang})
            tuv.append(_seg(tokens))
    return serialise(root, DOCTYPE)
