"""What the TMX and XLIFF readers share: the text of a segment with its inline codes turned
back into the markup they stand for."""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

# An inline element's handler: returns (text before the children, walk the children?,
# text after the children).
Inline = Callable[[etree._Element], tuple[str, bool, str]]


def inline_text(element: etree._Element, handle: Inline) -> str:
    """The text of `element`, each child element rendered by `handle` and followed by its
    tail: the original markup where the format records it, the plain text otherwise."""
    parts: list[str] = [element.text or ""]
    for child in element:
        if isinstance(child.tag, str):
            before, descend, after = handle(child)
            parts.append(before)
            if descend:
                parts.append(inline_text(child, handle))
            parts.append(after)
        parts.append(child.tail or "")
    return "".join(parts)


def code_text(element: etree._Element) -> str:
    """The native code an inline element carries (TMX and XLIFF 1.2 `<bpt>`, `<ept>`,
    `<ph>`, `<it>`), `<sub>` flows included."""
    return "".join(element.itertext())
