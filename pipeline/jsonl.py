"""JSON Lines input: every line an object with the fields a command needs, or a clear error."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import MAX_FILE_BYTES, decode, read_bytes

_SURROGATE = re.compile("[\ud800-\udfff]")
# The only way a line decoded from UTF-8 or UTF-16 holds a surrogate: a \uD800-\uDFFF escape.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
MAX_DEPTH = 64  # nesting of arrays and objects in one line


def _plain(line: str) -> bool:
    """Whether a line's object can hold neither a lone surrogate nor nesting past MAX_DEPTH,
    told from its text: no surrogate escape, fewer brackets than the limit. Such a line (a
    build's every segment, a pairs file's every pair) needs no walk of its object."""
    return line.count("[") + line.count("{") < MAX_DEPTH and _SURROGATE_ESCAPE.search(line) is None


def _check_shape(name: str, n: int, obj: Any) -> None:
    """Refuse nesting past MAX_DEPTH and strings holding a lone surrogate (`\\ud800` is
    valid JSON but no text: it cannot be written back as UTF-8)."""
    stack = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise InputError(name, "a string holds a lone surrogate (\\ud800-\\udfff)", f"{n}")
            continue
        if depth > MAX_DEPTH:
            raise InputError(name, f"JSON nested too deeply (limit {MAX_DEPTH})", f"{n}")
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def read_jsonl(
    path: Path, required: dict[str, type], limit: int = MAX_FILE_BYTES
) -> Iterator[dict[str, Any]]:
    """Yield each non-blank line's object; raise InputError naming the line on the first bad one."""
    name = str(path)
    data = sys.stdin.buffer.read() if name == "-" else read_bytes(path, limit=limit)
    text = decode(name, data)
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(name, f"not JSON: {exc.msg} (column {exc.colno})", f"{n}") from None
        except RecursionError:
            raise InputError(name, f"JSON nested too deeply (limit {MAX_DEPTH})", f"{n}") from None
        if not _plain(line):
            _check_shape(name, n, obj)
        if not isinstance(obj, dict):
            raise InputError(name, f"expected a JSON object, got {type(obj).__name__}", f"{n}")
        for key, kind in required.items():
            if not isinstance(obj.get(key), kind):
                raise InputError(name, f"field {key!r} missing or not a {kind.__name__}", f"{n}")
        yield obj
