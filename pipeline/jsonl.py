"""JSON Lines input: every line an object with the fields a command needs, or a clear error."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import MAX_FILE_BYTES, decode, read_bytes, text_lines
from .schemas import problem
from .textsafe import describe, input_control

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_DEPTH = 64  # nesting of arrays and objects in one line


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


def _refuse_controls(name: str, n: int, obj: Any) -> None:
    """Refuse a string of the object holding a character input text may not hold (ESC,
    BEL, NUL ...): a build's texts were input text, and writers (a PO file) copy them."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = input_control(item)
            if found is not None:
                what = f"{describe(found.group())} in a string, which input text may not hold"
                raise InputError(name, what, f"{n}")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def long_number(exc: ValueError) -> str:
    """What json.loads's ValueError for an over-long integer says, shortly."""
    digits = re.search(r"has (\d+) digits", str(exc))
    return f"a number of {digits.group(1) if digits else 'too many'} digits (limit 4300)"


def read_jsonl(
    path: Path,
    required: dict[str, type],
    limit: int = MAX_FILE_BYTES,
    schema: str | None = None,
    follow: bool = True,
    controls: bool = True,
) -> Iterator[dict[str, Any]]:
    """Yield each non-blank line's object; raise InputError naming the line on the first bad
    one. With `schema`, each object is checked against it; with `follow` false, a symbolic
    link is refused; with `controls` false, a string holding a control character input
    text may not hold (ESC, NUL) is refused."""
    name = str(path)
    data = sys.stdin.buffer.read() if name == "-" else read_bytes(path, limit=limit, follow=follow)
    text = decode(name, data)
    for n, line in enumerate(text_lines(text), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(name, f"not JSON: {exc.msg} (column {exc.colno})", f"{n}") from None
        except RecursionError:
            raise InputError(name, f"JSON nested too deeply (limit {MAX_DEPTH})", f"{n}") from None
        except ValueError as exc:  # an integer of more digits than Python converts
            raise InputError(name, f"not JSON here: {long_number(exc)}", f"{n}") from None
        _check_shape(name, n, obj)
        # JSON holds a control character raw only as DEL, else as an escape: \u00XX or \b
        if not controls and ("\\u00" in line or "\\b" in line or "\x7f" in line):
            _refuse_controls(name, n, obj)
        if not isinstance(obj, dict):
            raise InputError(name, f"expected a JSON object, got {type(obj).__name__}", f"{n}")
        for key, kind in required.items():
            if not isinstance(obj.get(key), kind):
                raise InputError(name, f"field {key!r} missing or not a {kind.__name__}", f"{n}")
        if schema is not None:
            found = problem(obj, schema)
            if found is not None:
                at, message = found
                what = f"not a {schema} as {schema}.schema.json says, at {at}: {message}"
                raise InputError(name, what, f"{n}")
        yield obj
