"""Block-style YAML of plain data, the text libyaml's emitter writes, made without it.

A build writes tens of thousands of rule files. Through PyYAML each one is a tree of nodes
built in Python, and libyaml's emitter asks PyYAML's resolver, in Python again, about every
scalar it writes: most of the time a rule's YAML took. Rules hold only mappings, lists,
strings, numbers, booleans and nulls, so `block_yaml` writes them directly, as
`yaml.dump(obj, allow_unicode=True, sort_keys=False, width=WIDTH)` with libyaml does: keys
in their order, indentless lists in mappings, strings plain where libyaml writes them plain
and in single quotes where it quotes them, long lines folded at the spaces where libyaml
folds them. What the emitter would write in another way (a line break or a character it
escapes in a string, a long key, a type of another kind, a cycle) gives None, and the caller
asks PyYAML.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

WIDTH = 100  # libyaml folds a line at the first space past this column
_INDENT = 2
_MAX_KEY_BYTES = 128  # a longer key is written as a complex key ("? ...")

# Characters libyaml writes as they are inside quotes or without (its IS_PRINTABLE, less
# the line feed and the breaks U+2028 and U+2029, which it writes in other ways)
_PRINTABLE = re.compile(r"[\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]*")
# A first character that makes a scalar an indicator (libyaml quotes it), and those that do
# when a space follows them or nothing does
_INDICATOR_FIRST = frozenset(",[]{}#&*!|>'\"%@` ")
_INDICATOR_BEFORE_SPACE = frozenset("-?:")
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?")


class Unwritten(Exception):
    """A value this writer leaves to PyYAML."""


def block_yaml(obj: Any) -> str | None:
    """The YAML text of a mapping or list, or None when libyaml would write it in a way
    this writer does not (the caller then asks PyYAML, which writes it)."""
    out: list[str] = []
    try:
        if type(obj) is dict and obj:
            _mapping(obj, 0, out, first_inline=False, depth=0)
        elif type(obj) is list and obj:
            _sequence(obj, 0, out, first_inline=False, depth=0)
        else:
            return None
    except (Unwritten, RecursionError):
        return None
    out.append("\n")
    return "".join(out)


_MAX_DEPTH = 200


def _mapping(d: dict, indent: int, out: list[str], first_inline: bool, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise Unwritten("too deep")
    pad = "\n" + " " * indent
    inner = indent + _INDENT
    for key, value in d.items():
        if first_inline:
            first_inline = False
        else:
            out.append(pad if out else " " * indent)
        text = _KEYS.get(key) if type(key) is str else None
        if text is None:
            text = _key(key)
        out.append(text)
        if type(value) is str and _is_plain(value):  # most values: a plain string
            column = indent + len(text) + 2
            if column + len(value) > WIDTH:
                value = _fold(value, inner, column)
            out.append(": " + value)
        else:
            out.append(":")
            _value(value, indent, indent + len(text) + 1, out, True, depth)


def _key(key: Any) -> str:
    """A mapping key as written (a simple key: on one line, with its colon after it)."""
    if type(key) is not str or len(key.encode("utf-8")) > _MAX_KEY_BYTES:
        raise Unwritten("a key that is not a short string")
    text = _scalar_text(key, 0, breaks=False)
    if len(_KEYS) >= _REMEMBERED:
        _KEYS.clear()
    _KEYS[key] = text
    return text


def _sequence(items: list, indent: int, out: list[str], first_inline: bool, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise Unwritten("too deep")
    pad = "\n" + " " * indent
    for item in items:
        if first_inline:
            first_inline = False
        else:
            out.append(pad if out else " " * indent)
        out.append("-")
        _value(item, indent, indent + 1, out, False, depth)


def _value(
    value: Any, indent: int, column: int, out: list[str], in_mapping: bool, depth: int
) -> None:
    """A mapping's value or a list's item, after its key's colon or its dash at `column`;
    `indent` is the column of that mapping's keys or that list's dashes."""
    kind = type(value)
    if kind is dict or kind is list:
        if not value:
            out.append(" {}" if kind is dict else " []")
        elif kind is dict:
            if in_mapping:  # on the lines below, indented
                _mapping(value, indent + _INDENT, out, False, depth + 1)
            else:  # its first key beside the dash
                out.append(" ")
                _mapping(value, indent + _INDENT, out, True, depth + 1)
        elif in_mapping:  # a list in a mapping: its dashes under the key
            _sequence(value, indent, out, False, depth + 1)
        else:
            out.append(" ")
            _sequence(value, indent + _INDENT, out, True, depth + 1)
        return
    out.append(" ")
    out.append(_scalar_text(value, indent + _INDENT, breaks=True, column=column + 1))


def _scalar_text(value: Any, indent: int, breaks: bool, column: int = 0) -> str:
    """A scalar as libyaml writes it from `column`, folded onto lines at `indent`."""
    kind = type(value)
    if kind is str:
        if _is_plain(value):
            return _fold(value, indent, column) if breaks else value
        if _PRINTABLE.fullmatch(value) is None:
            raise Unwritten("a character or line break that libyaml writes otherwise")
        return _single_quoted(value, indent, column, breaks)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float and math.isfinite(value):
        text = float.__repr__(value).lower()
        if "." not in text and "e" in text:
            text = text.replace("e", ".0e", 1)
        if _FLOAT.fullmatch(text):
            return text
    raise Unwritten(f"a scalar of type {kind.__name__}")


_KEYS: dict[str, str] = {}  # key -> as written: keys repeat in every rule
_PLAIN: dict[str, bool] = {}  # short string -> written plain: names, units, types repeat
_SHORT = 64  # characters: longer strings are told each time
_REMEMBERED = 100_000  # entries each memory keeps; emptied when full


def _is_plain(s: str) -> bool:
    if len(s) > _SHORT:
        return _plain(s)
    found = _PLAIN.get(s)
    if found is None:
        if len(_PLAIN) >= _REMEMBERED:
            _PLAIN.clear()
        found = _PLAIN[s] = _plain(s)
    return found


def _plain(s: str) -> bool:
    """Whether libyaml writes `s` without quotes (in block context) and PyYAML reads it back
    as a string."""
    if not s or s[0] in _INDICATOR_FIRST or s[-1] in " :" or ": " in s or " #" in s:
        return False
    if s[0] in _INDICATOR_BEFORE_SPACE and s[1:2] in ("", " "):
        return False
    if s.startswith(("---", "...")) or _PRINTABLE.fullmatch(s) is None:
        return False
    # not read back as a number, a boolean, a null, a date ...
    return not any(pattern.match(s) for _, pattern in _RESOLVERS.get(s[0], ()))


def _fold(s: str, indent: int, column: int) -> str:
    """A plain scalar written from `column`: a space where the line is past WIDTH, after a
    character that is not a space and before one (so neither the first nor the last
    character), becomes a line break and `indent` spaces. Each line's break is found by
    searching from the first column past WIDTH, not by walking the words."""
    if column + len(s) <= WIDTH or " " not in s:
        return s
    parts = []
    newline = "\n" + " " * indent
    last = len(s) - 1
    start = 0  # where the line being written starts in `s`; `column` is its column
    while True:
        p = s.find(" ", start + max(0, WIDTH - column + 1))
        while p != -1 and not (0 < p < last and s[p - 1] != " " and s[p + 1] != " "):
            p = s.find(" ", p + 1)
        if p == -1:
            break
        parts.append(s[start:p])
        parts.append(newline)
        start, column = p + 1, indent
    parts.append(s[start:])
    return "".join(parts)


def _single_quoted(s: str, indent: int, column: int, breaks: bool) -> str:
    """`s` in single quotes (a quote doubled), folded as libyaml folds it: where a plain
    scalar of the quoted text would be, one column further for the opening quote (a
    doubled quote is two characters that are not spaces, as the quote was one)."""
    quoted = s.replace("'", "''")
    if not breaks:
        return "'" + quoted + "'"
    return "'" + _fold(quoted, indent, column + 1) + "'"
