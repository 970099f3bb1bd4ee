"""Text that XML 1.0 can carry: characters it forbids become U+FFFD, and documents are
serialised the same way by every writer."""

from __future__ import annotations

import re

from lxml import etree

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    return _FORBIDDEN.sub("\ufffd", text)


def serialise(root: etree._Element, doctype: str | None = None) -> str:
    body = etree.tostring(root, encoding="unicode", pretty_print=True)
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if doctype:
        head += doctype + "\n"
    return head + body


def append_text(parent: etree._Element, text: str) -> None:
    """Text after the last child of `parent` (its tail), or as its text when it has none."""
    text = xml_safe(text)
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text
