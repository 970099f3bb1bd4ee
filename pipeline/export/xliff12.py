"""Aligned pairs as XLIFF 1.2, the version most CAT tools read: one <file> per target
language, one <trans-unit id=LINK-ID resname=RULE> per pair.

A translation is `approved="yes"` with `<target state="translated">`, as XLIFF 1.2 marks a
reviewed unit (translate-toolkit, and Pootle and Weblate on it, count it translated; a unit
not approved reads as fuzzy there); an empty target, text still to translate, is
`state="new"` and not approved.

BBCode becomes XLIFF 1.2 inline codes holding the tag's own text, as in TMX: a matched pair
is <bpt id>/<ept id> (the same id on both), a tag without its partner <it pos="open|close">,
`[*]` is <ph>. A code in the target keeps the id of the same code in the source. The pipeline's
XLIFF reader turns these codes back into the BBCode they hold, so a reviewed file can come
back as a drop.
"""

from __future__ import annotations

from lxml import etree

from ..errors import InputError
from ..xmlsafe import XML_SPACE
from .inline import Token, number, tokenize
from .pairs import Pair
from .xmltext import append_text, serialise, xml_safe

NS = "urn:oasis:names:tc:xliff:document:1.2"
CTYPES = {"b": "bold", "i": "italic", "u": "underlined", "url": "link"}


def _q(name: str) -> str:
    return f"{{{NS}}}{name}"


def _ctype(tag: str) -> str:
    return CTYPES.get(tag.lower(), f"x-bbcode-{tag.lower()}")


def _content(parent: etree._Element, tokens: list[Token]) -> None:
    for tok in tokens:
        if isinstance(tok, str):
            append_text(parent, tok)
            continue
        if tok.kind == "open":
            el = etree.SubElement(parent, _q("bpt"), id=tok.id, ctype=_ctype(tok.tag))
        elif tok.kind == "close":
            el = etree.SubElement(parent, _q("ept"), id=tok.id)
        elif tok.kind == "ph":
            el = etree.SubElement(parent, _q("ph"), id=tok.id)
        else:
            pos = "open" if tok.kind == "begin" else "close"
            el = etree.SubElement(parent, _q("it"), id=tok.id, pos=pos, ctype=_ctype(tok.tag))
        el.text = xml_safe(tok.raw)


def write_xliff12(pairs: list[Pair], source_lang: str = "en") -> str:
    """The XLIFF 1.2 document (text) of the pairs, one <file> per target language in
    alphabetical order, pairs in link order inside each."""
    if not pairs:
        raise InputError("--target-lang", "no linked pairs to export")
    root = etree.Element(_q("xliff"), version="1.2", nsmap={None: NS})
    for lang in sorted({p.target_lang for p in pairs}):
        file = etree.SubElement(
            root,
            _q("file"),
            {
                "original": f"alignments.json#{lang}",
                "source-language": source_lang,
                "target-language": lang,
                "datatype": "plaintext",
            },
        )
        body = etree.SubElement(file, _q("body"))
        for pair in (p for p in pairs if p.target_lang == lang):
            unit = etree.SubElement(body, _q("trans-unit"), {"id": pair.id, XML_SPACE: "preserve"})
            if pair.rule:
                unit.set("resname", pair.rule)
            source, target = number(tokenize(pair.source), tokenize(pair.target or ""))
            _content(etree.SubElement(unit, _q("source")), source)
            if pair.target:
                unit.set("approved", "yes")
            state = "translated" if pair.target else "new"
            _content(etree.SubElement(unit, _q("target"), state=state), target)
    return serialise(root)
