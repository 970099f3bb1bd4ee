"""BattleScribe game systems and catalogues (`.gst`, `.cat`; zipped `.gstz`, `.catz`).

Community army-builder data states what a plain text drop leaves implicit: every
`<rule name=..><description>..</description></rule>` (shared rules and those nested in
entries) is a paragraph whose rule name is recorded in `Block.name`, and every
`<profile name=.. typeName=..>` is a `profile` block whose rows are its characteristics
(name, value), in the file's order, and whose `role` is its profile type (`typeName`, e.g.
"5 Melee Weapon"), so that extraction reads the columns by type. The file's `name`,
`revision` and type (game system or catalogue) are its version, carried to the build
manifest. Nothing is deduplicated here: a rule repeated across entries is a copy for dedup
to cluster.

A BattleScribe drop also serves as a reference list: the stated names reach paragraphs
elsewhere through `pipeline/extract/references.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from lxml import etree

from ..errors import InputError
from ..model import Block
from ..xmlsafe import line_span, local, parse_xml, read_zip
from . import reader
from .langid import identify

NAMESPACES = {
    "gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema",
    "catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
}
_LANG_SAMPLE = 20_000


def _clean(text: str | None) -> str:
    """Description text as stated, without the indentation of its first and last line."""
    return (text or "").strip()


def _characteristics(profile: etree._Element) -> tuple[tuple[str, str], ...]:
    rows: list[tuple[str, str]] = []
    for holder in (c for c in profile if local(c) == "characteristics"):
        for ch in (c for c in holder if local(c) == "characteristic"):
            text = "".join(ch.itertext()).strip()
            value = text if text else (ch.get("value") or "").strip()  # BattleScribe 1.x
            rows.append(((ch.get("name") or "").strip(), value))
    return tuple(rows)


def profile_text(name: str, rows: Iterable[tuple[str, str]]) -> str:
    """A profile as one line in the rulebook's style: `Name. Range 48″, Shots 1, Str 3`."""
    body = ", ".join(f"{k} {v}" if k else v for k, v in rows if v)
    return f"{name}. {body}" if body else name


def _language(root: etree._Element) -> str:
    """The file's language, identified once over its rule texts; English when unsure."""
    sample: list[str] = []
    size = 0
    for el in root.iter():
        if local(el) == "description" and el.text:
            sample.append(el.text)
            size += len(el.text)
            if size > _LANG_SAMPLE:
                break
    found = identify(" ".join(sample)) if sample else None
    return found[0] if found and found[1] >= 0.5 else "en"


def read_document(name: str, data: bytes) -> list[Block]:
    """Blocks of a game system or catalogue XML document."""
    root = parse_xml(name, data)
    kind = local(root)
    namespace = etree.QName(root).namespace
    if kind not in NAMESPACES:
        raise InputError(
            name, f"not a BattleScribe game system or catalogue (root element <{kind}>)", "1"
        )
    if namespace != NAMESPACES[kind]:
        raise InputError(
            name, f"<{kind}> in namespace {namespace!r}; expected {NAMESPACES[kind]!r}", "1"
        )
    version = {"name": (root.get("name") or "").strip()}
    if root.get("revision"):
        version["revision"] = root.get("revision", "").strip()
    version["type"] = kind
    lang = _language(root)
    blocks: list[Block] = []
    for el in root.iter():
        what = local(el)
        if what == "rule":
            description = next((c for c in el if local(c) == "description"), None)
            raw = _clean(description.text if description is not None else None)
            if not raw:
                continue
            blocks.append(
                Block(
                    kind="paragraph",
                    raw=raw,
                    lines=line_span(description),
                    lang_hint=lang,
                    name=(el.get("name") or "").strip() or None,
                    extra={"version": version},
                )
            )
        elif what == "profile":
            rows = _characteristics(el)
            profile_name = (el.get("name") or "").strip()
            if not rows and not profile_name:
                continue
            blocks.append(
                Block(
                    kind="profile",
                    raw=profile_text(profile_name, rows),
                    lines=line_span(el),
                    rows=rows,
                    role=(el.get("typeName") or "").strip() or None,
                    lang_hint=lang,
                    name=profile_name or None,
                    extra={"version": version},
                )
            )
    return blocks


@reader(".gst", ".cat")
def read_battlescribe(name: str, data: bytes) -> list[Block]:
    return read_document(name, data)


@reader(".gstz", ".catz")
def read_battlescribe_zip(name: str, data: bytes) -> list[Block]:
    """A zipped game system or catalogue: a zip archive of exactly one `.gst`/`.cat`."""
    members = read_zip(name, data, max_members=1)
    if len(members) != 1:
        raise InputError(name, f"expected one zipped .gst or .cat file, found {len(members)}")
    [member] = members
    if PurePosixPath(member.name).suffix.lower() not in (".gst", ".cat", ".xml"):
        raise InputError(name, f"zip member {member.name!r} is not a .gst or .cat file")
    return read_document(f"{name}!{member.name}", member.data)
