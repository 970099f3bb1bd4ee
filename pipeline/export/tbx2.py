"""The glossary as TBX-Basic 2 (ISO 30042:2008, `martif`), the dialect most CAT tools' term
bases and translate-toolkit read.

One <termEntry> per term (its kind and note as <note>), one <langSet> per language, one <tig>
per rendering with `<termNote type="administrativeStatus">`: the approved rendering
`preferredTerm-admn-sts`, variants `admittedTerm-admn-sts`, deprecated renderings
`deprecatedTerm-admn-sts`. The same statuses as TBX 3, in the older element names.
"""

from __future__ import annotations

from lxml import etree

from ..glossary import Glossary
from .tbx import STATUS, XML_LANG, concept_id, renderings
from .xmltext import serialise, xml_safe

DOCTYPE = '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">'
XCS = "TBXBasicXCSV02.xcs"


def write_tbx2(glossary: Glossary, source_name: str) -> str:
    """The TBX-Basic 2 document (text) of the glossary."""
    lang = glossary.languages[0] if glossary.languages else "en"
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: lang})
    header = etree.SubElement(root, "martifHeader")
    desc = etree.SubElement(etree.SubElement(header, "fileDesc"), "sourceDesc")
    p = etree.SubElement(desc, "p")
    p.text = xml_safe(f"rulepipe glossary {source_name} (sha256 {glossary.sha256})")
    encoding = etree.SubElement(header, "encodingDesc")
    etree.SubElement(encoding, "p", type="XCSURI").text = XCS
    body = etree.SubElement(etree.SubElement(root, "text"), "body")
    for term_id, note, items in renderings(glossary):
        entry = etree.SubElement(body, "termEntry", id=concept_id(term_id))
        if note:
            etree.SubElement(entry, "note").text = xml_safe(note)
        sections: dict[str, etree._Element] = {}
        for item_lang, status, text in items:
            if item_lang not in sections:
                sections[item_lang] = etree.SubElement(entry, "langSet", {XML_LANG: item_lang})
            tig = etree.SubElement(sections[item_lang], "tig")
            etree.SubElement(tig, "term").text = xml_safe(text)
            admin = etree.SubElement(tig, "termNote", type="administrativeStatus")
            admin.text = STATUS[status]
    return serialise(root, DOCTYPE)
