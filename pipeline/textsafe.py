"""Which characters may reach where: the one place that decides it for input text, a
terminal, a file name, a YAML line and a spreadsheet cell. Every writer of those asks here.

Text from the input (rule texts, pair ids, file names, messages quoting them) may hold
characters that act instead of showing: ESC and the other C0 and C1 controls drive a
terminal (set its title, clear it, move the cursor), bidirectional controls reorder what
is shown, a line separator splits one line in two, a YAML reader refuses non-printable
characters, and a spreadsheet runs a cell that starts with `=` as a formula. Each writer
gets the text with those characters spelled as escapes (`\\x1b`, `\\u202e`), visible and
told apart, or (a cell) made inert.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

# --- input text: what a text file, a PO string or a pair may hold ---------------------

#: C0 controls but tab, line feed, vertical tab, form feed and carriage return, and DEL:
#: refused in input text (a binary file, a terminal escape).
INPUT_CONTROLS = bytes([*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F])
INPUT_CONTROL = re.compile("[" + re.escape(INPUT_CONTROLS.decode("ascii")) + "]")


def input_control(text: str) -> re.Match[str] | None:
    """The first character input text may not hold, or None."""
    return INPUT_CONTROL.search(text)


def describe(char: str) -> str:
    """`NUL character` or `control character U+001B`, for a refusal."""
    return "NUL character" if char == "\x00" else f"control character U+{ord(char):04X}"


# --- what is shown: a terminal, a file name, one line of a message -----------------------

#: What acts instead of showing: C0 and C1 controls and DEL, line and paragraph
#: separators, bidirectional embeddings, overrides and isolates (and marks), and the
#: other format characters (zero-width joiners stay: they are parts of words).
_ACTING = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]"
)
_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte of a file name
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal(text: str) -> str:
    """Text for a terminal, kept on its lines: line feeds and tabs as they are, every
    other character that acts (ESC, BEL, CSI, a line separator, a bidi override) as its
    escape. A backslash stays one: this is for reading, not for telling names apart."""
    if _ACTING.search(text) is None:
        return text
    return _ACTING.sub(lambda m: m.group() if m.group() in "\n\t" else _escape(m.group()), text)


def one_line(text: str) -> str:
    """Text for one line of a message or a table cell: as `terminal`, and line breaks
    and tabs escaped too."""
    if _ACTING.search(text) is None:
        return text
    return _ACTING.sub(lambda m: _escape(m.group()), text)


def file_name(name: str) -> str:
    """A file name as the outputs write it: one line of valid UTF-8, the same for the same
    name, and told apart from every other name. A byte that is not UTF-8 (which os.listdir
    gives as a lone surrogate) becomes `\\xff`; control, format and line-separator
    characters become `\\n`, `\\x1b`, `\\u202e`; a backslash is doubled, so that no
    escaped name is also a real one."""
    if name.isprintable() and "\\" not in name and name.isascii():
        return name
    out: list[str] = []
    for ch in name:
        if (
            ch in _NAMED
            or 0xDC80 <= ord(ch) <= 0xDCFF
            or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        ):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


# --- YAML: what a YAML reader takes as is ----------------------------------------------


#: The characters YAML 1.1 (and PyYAML's reader) accepts in a stream: all else must be
#: written as an escape inside a double-quoted string, and may not be in a comment.
@cache
def _not_yaml() -> re.Pattern[str]:
    """Compiled on first use: its character map takes milliseconds that commands which
    write no YAML would pay at start-up."""
    return re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def yaml_string(text: str) -> str:
    """A double-quoted YAML scalar of `text` that a YAML reader gives back exactly: JSON's
    quoting (which YAML reads as is), every character YAML does not take raw, and the line
    breaks YAML would fold, written as `\\uXXXX`."""
    out = ['"']
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch in "\n\r\t":
            out.append(_NAMED[ch])
        elif _not_yaml().match(ch) or ch in "\x85\u2028\u2029":
            code = ord(ch)
            out.append(f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def yaml_comment(text: str) -> str:
    """Text for a YAML comment: one line (runs of white space, line separators included,
    made one space), every character YAML does not take raw as its escape."""
    text = " ".join(text.split())
    return _not_yaml().sub(lambda m: _escape(m.group()), text)


# --- spreadsheet cells ------------------------------------------------------------------

#: A cell that starts with one of these is a formula to a spreadsheet: it is written with
#: an apostrophe before it, which makes it text, and which `cell_text` takes off again.
_FORMULA_START = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _formula(text: str) -> bool:
    return text.lstrip("'").startswith(_FORMULA_START)


def cell(text: str) -> str:
    """Text for a spreadsheet cell of a TSV file: one line (tab and line breaks as
    spaces), and never a formula: `=HYPERLINK(...)` is written `'=HYPERLINK(...)` (so is
    a text of apostrophes before such a start, so that `cell_text` gives it back)."""
    text = re.sub(r"[\t\r\n\x0b\x0c\x85\u2028\u2029]", " ", text)
    return "'" + text if _formula(text) else text


def cell_text(value: str) -> str:
    """The text of a cell as `cell` wrote it: the apostrophe that kept a formula inert
    taken off (any other apostrophe is the text's own)."""
    return value[1:] if value.startswith("'") and _formula(value[1:]) else value
