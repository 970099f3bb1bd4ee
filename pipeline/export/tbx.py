"""The glossary as TBX (ISO 30042:2019, TBX-Basic dialect, DCA style).

One <conceptEntry> per term, one <langSec> per language, one <termSec> per rendering with
its administrative status: the approved rendering `preferredTerm-admn-sts`, variants
`admittedTerm-admn-sts`, deprecated renderings `deprecatedTerm-admn-sts`.
"""

from __future__ import annotations

import re

from lxml import etree

from ..glossary import Glossary
from ..xmlsafe import XML_LANG
from .xmltext import serialise, xml_safe

NS = "urn:iso:std:iso:30042:ed-2"
STATUS = {
    "preferred": "preferredTerm-admn-sts",
    "admitted": "admittedTerm-admn-sts",
    "deprecated": "deprecatedTerm-admn-sts",
}
MODEL = (
    'href="TBXcoreStructV03_TBX-Basic_integrated.rng" type="application/xml" '
    'schematypens="http://relaxng.org/ns/structure/1.0"'
)
_NCNAME = re.compile(r"^[A-Za-z_][\w.-]*$")


def _q(name: str) -> str:
    return f"{{{NS}}}{name}"


def concept_id(term_id: str) -> str:
    """An XML ID for the term (IDs may not start with a digit)."""
    return term_id if _NCNAME.match(term_id) else f"t-{term_id}"


def renderings(glossary: Glossary) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """Per term: (id, note, [(lang, status, text), ...]) in glossary order."""
    out = []
    for term in glossary.terms:
        items: list[tuple[str, str, str]] = []
        for lang in dict.fromkeys([*glossary.languages, *term.renderings, *term.deprecated]):
            for k, text in enumerate(term.renderings.get(lang, ())):
                items.append((lang, "preferred" if k == 0 else "admitted", text))
            items.extend((lang, "deprecated", text) for text in term.deprecated.get(lang, ()))
        note = "; ".join(x for x in (f"kind: {term.kind}" if term.kind else "", term.note) if x)
        out.append((term.id, note, items))
    return out


def write_tbx(glossary: Glossary, source_name: str) -> str:
    """The TBX document (text) of the glossary."""
    lang = glossary.languages[0] if glossary.languages else "en"
    root = etree.Element(
        _q("tbx"), {"style": "dca", "type": "TBX-Basic", XML_LANG: lang}, nsmap={None: NS}
    )
    header = etree.SubElement(root, _q("tbxHeader"))
    desc = etree.SubElement(etree.SubElement(header, _q("fileDesc")), _q("sourceDesc"))
    p = etree.SubElement(desc, _q("p"))
    p.text = xml_safe(f"rulepipe glossary {source_name} (sha256 {glossary.sha256})")
    body = etree.SubElement(etree.SubElement(root, _q("text")), _q("body"))
    for term_id, note, items in renderings(glossary):
        entry = etree.SubElement(body, _q("conceptEntry"), id=concept_id(term_id))
        if note:
            etree.SubElement(entry, _q("note")).text = xml_safe(note)
        sections: dict[str, etree._Element] = {}
        for item_lang, status, text in items:
            if item_lang not in sections:
                sections[item_lang] = etree.SubElement(entry, _q("langSec"), {XML_LANG: item_lang})
            term_sec = etree.SubElement(sections[item_lang], _q("termSec"))
            etree.SubElement(term_sec, _q("term")).text = xml_safe(text)
            admin = etree.SubElement(term_sec, _q("termNote"), type="administrativeStatus")
            admin.text = STATUS[status]
    text = serialise(root)
    head, rest = text.split("\n", 1)
    return f"{head}\n<?xml-model {MODEL}?>\n{rest}"
