"""gettext PO catalogues: a source block and, when translated, a target block per entry.

The header's `Language` is the target language and `X-Source-Language` (written by
`rulepipe export --format po`, also used by other tools) the source's; without them the
blocks' languages are identified from their text. An entry's `msgctxt` and position make its
`unit`, so alignment links its two blocks outright. A fuzzy entry (`#, fuzzy`) is a guess,
not a translation: only its source is read. Obsolete entries (`#~`) are left out; a plural
entry gives its first form. BBCode stays text, as PO carries it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import InputError
from ..files import decode, text_lines
from ..lang import primary as lang_code
from ..model import Block
from ..textsafe import describe, input_control
from . import reader
from .unit_ids import join_rule_units

_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')
# A PO string as msgfmt reads one: quoted, every backslash starting an escape (a quote
# escaped at the end of a line leaves the string open: "end-of-line within string").
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b"}
_ESCAPES |= {"f": "\f", "v": "\v"}
# Octal (up to three digits) and hexadecimal (all the digits that follow, as in C) escapes
# are bytes of the file's encoding, UTF-8: `\303\251` is é, and `\777` is no byte at all.
_ESCAPE = re.compile(r"\\(?:([ntr\"\\abfv])|([0-7]{1,3})|x([0-9A-Fa-f]+)|(.))")


@dataclass
class _Entry:
    first: int
    last: int = 0
    fields: dict[str, list[str]] = field(default_factory=dict)
    fuzzy: bool = False


def _string(name: str, literal: str, line: int) -> str:
    """The text of one quoted PO string, escapes resolved as msgfmt resolves them; a string
    left open, an unknown escape, a byte escape past 255 or bytes that are not UTF-8, and
    a control character (an escaped NUL, ESC or BEL: they would reach a terminal) are
    refused with the line."""
    literal = literal.strip(" \t\r")
    if not literal.startswith('"'):
        raise InputError(name, "a PO string must be in double quotes", str(line))
    m = _QUOTED.match(literal)
    if m is None:
        raise InputError(name, "end of line within a PO string (no closing quote)", str(line))
    if m.end() != len(literal):
        raise InputError(name, "unescaped double quote inside a PO string", str(line))
    out = bytearray()
    at = 0
    body = m.group(1)
    for esc in _ESCAPE.finditer(body):
        out += body[at : esc.start()].encode("utf-8", "surrogatepass")
        at = esc.end()
        simple, octal, hexa, other = esc.groups()
        if other is not None:
            raise InputError(name, f"unknown escape \\{other} in a PO string", str(line))
        value = int(octal, 8) if octal else int(hexa, 16) if hexa else None
        if value is None:
            out += _ESCAPES[simple].encode("ascii")
        elif value > 0xFF:
            raise InputError(name, f"escape {esc.group()} is past a byte (255)", str(line))
        else:
            out.append(value)
    out += body[at:].encode("utf-8", "surrogatepass")
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(name, "escaped bytes of a PO string are not UTF-8", str(line)) from None
    control = input_control(text)
    if control is not None:
        raise InputError(name, f"{describe(control.group())} in a PO string", str(line))
    return text


def _entries(name: str, text: str) -> list[_Entry]:
    entries: list[_Entry] = []
    current: _Entry | None = None
    key: str | None = None
    for n, raw_line in enumerate(text_lines(text), start=1):
        line = raw_line.strip()
        if not line:
            current, key = None, None
            continue
        if line.startswith("#"):
            if line.startswith("#~"):
                current, key = None, None  # an obsolete entry: not part of the catalogue
            elif line.startswith("#,") and "fuzzy" in (f.strip() for f in line[2:].split(",")):
                if current is None or current.fields:
                    current = _Entry(n)
                    entries.append(current)
                current.fuzzy = True
            continue
        m = _KEYWORD.match(line)
        if m:
            keyword = "msgstr" if m.group(1).startswith("msgstr[") else m.group(1)
            if m.group(2) not in (None, "0"):
                keyword = f"msgstr[{m.group(2)}]"
            starts_entry = keyword in ("msgctxt", "msgid") and (
                current is None or "msgid" in current.fields or keyword in current.fields
            )
            if current is None or (starts_entry and current.fields):
                current = _Entry(n)
                entries.append(current)
            if keyword in current.fields:
                raise InputError(name, f"{keyword} twice in one PO entry", str(n))
            key = keyword
            current.fields[key] = [_string(name, m.group(3), n)]
            current.last = n
        elif line.startswith('"') and current is not None and key is not None:
            current.fields[key].append(_string(name, line, n))
            current.last = n
        else:
            raise InputError(name, f"not a PO line: {line[:40]!r}", str(n))
    for entry in entries:
        if entry.fields and ("msgid" not in entry.fields or "msgstr" not in entry.fields):
            raise InputError(name, "a PO entry needs msgid and msgstr", str(entry.first))
    return [e for e in entries if e.fields]


def _header(entry: _Entry) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in text_lines("".join(entry.fields["msgstr"])):
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip().lower()] = value.strip()
    return fields


@reader(".po", ".pot")
def read_po(name: str, data: bytes) -> list[Block]:
    """Blocks of a PO file, in file order."""
    entries = _entries(name, decode(name, data))
    src = trg = None
    blocks: list[Block] = []
    for index, entry in enumerate(entries, start=1):
        msgid = "".join(entry.fields["msgid"])
        context = "".join(entry.fields.get("msgctxt", []))
        if not msgid and "msgctxt" not in entry.fields:
            header = _header(entry)
            src = lang_code(header.get("x-source-language"))
            trg = lang_code(header.get("language"))
            continue
        if not msgid.strip():
            continue
        unit = f"{context}#{index}" if context else f"entry{index}"
        lines = (entry.first, entry.last)
        named = context.split()[0] if context.split() else None  # a rule id, or RULE.P.S
        blocks.append(Block("paragraph", msgid, lines, None, "source", unit, src, rule=named))
        msgstr = "".join(entry.fields["msgstr"])
        if msgstr.strip() and not entry.fuzzy:
            blocks.append(Block("paragraph", msgstr, lines, None, "target", unit, trg, rule=named))
    return join_rule_units(blocks)
