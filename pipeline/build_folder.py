"""The one reader of a build folder's files: every command that reads a build reads it
here. Each file is a regular file of the build (a symbolic link, a folder or a device in
its place is refused, as in a corpus), and each is checked against its schema before any
command uses it: a file edited to a wrong shape is one line naming the file and the place
(exit 2), never a traceback further on. Rule files (`rules/<id>.yaml`, which users edit) are
found here and read by the interpreter's `load_rule`, which checks what it uses of them."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import MAX_BUILD_FILE_BYTES, Inventory, decode, file_kind, read_bytes
from .gc_pause import gc_paused
from .jsonl import long_number, read_jsonl
from .model import OUTSIDE_TEXT
from .schemas import problem

#: Everything a build writes: a folder holding anything else is not replaced by a build.
BUILD = Inventory(
    "a rulepipe build",
    "manifest.json",
    frozenset(
        {
            "manifest.json",
            "segments.jsonl",
            "clusters.json",
            "alignments.json",
            "rules.json",
            "units.json",
        }
    ),
    (("rules", ".yaml"),),
)


#: The schema of each JSON file of a build, and what the file is, for refusals.
_SCHEMAS = {
    "manifest.json": ("manifest", "a build manifest"),
    "rules.json": ("rules", "a rule bundle"),
    "alignments.json": ("alignments", "alignments"),
    "units.json": ("units", "units"),
    "clusters.json": ("clusters", "clusters"),
}
_SEGMENT = {"id": str, "raw": str, "lang": str}


def require_build(build: Path) -> Path:
    """The build folder, or an InputError saying why it is not one."""
    if not build.is_dir():
        raise InputError(str(build), "no build folder here; run `rulepipe build` or pass --build")
    if member(build, "manifest.json") is None:
        raise InputError(str(build), "not a rulepipe build folder (no manifest.json)")
    return build


def member(build: Path, relative: str) -> Path | None:
    """`build/relative` when it is a regular file of the build, None when there is nothing
    there; a symbolic link (which may lead out of the build), a folder or a device in its
    place is an InputError."""
    path = build / relative
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(str(path), f"cannot read: {exc.strerror}") from None
    if stat.S_ISLNK(mode):
        raise InputError(str(path), "is a symbolic link; a build's files are its own: not followed")
    if not stat.S_ISREG(mode):
        raise InputError(str(path), f"is {file_kind(mode)}, not a regular file")
    return path


def _check(path: Path, data: Any) -> None:
    """Refuse a file of `_SCHEMAS` whose content its schema does not accept."""
    known = _SCHEMAS.get(path.name)
    if known is None:
        return
    schema, what = known
    found = problem(data, schema)
    if found is not None:
        where, message = found
        raise InputError(str(path), f"not {what} as {schema}.schema.json says: {message}", where)


@gc_paused()  # a bundle of hundreds of MB is millions of objects, none in a cycle
def read_json(path: Path, what: str) -> Any:
    """A JSON file of a build, checked against its schema."""
    if member(path.parent, path.name) is None:
        raise InputError(str(path), f"missing: the build has no {what}")
    name = str(path)
    try:
        data = json.loads(decode(name, read_bytes(path, what, MAX_BUILD_FILE_BYTES, False)))
    except json.JSONDecodeError as exc:
        raise InputError(name, f"not JSON: {exc.msg}", f"{exc.lineno}:{exc.colno}") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise InputError(name, f"not JSON here: {long_number(exc)}") from None
    except RecursionError:
        raise InputError(name, "JSON nested too deeply") from None
    _check(path, data)
    return data


def read_rules(build: Path) -> list[dict[str, Any]]:
    """The rule bundle (rules.json) of a build."""
    return read_json(require_build(build) / "rules.json", "rule bundle (rules.json)")


def read_links(build: Path) -> list[dict[str, Any]]:
    """The links of alignments.json."""
    path = require_build(build) / "alignments.json"
    return read_json(path, "alignments (alignments.json); rebuild with a newer rulepipe")["links"]


def read_units(build: Path) -> list[dict[str, Any]] | None:
    """The units of units.json; None when the build has none."""
    if member(require_build(build), "units.json") is None:
        return None
    return read_json(build / "units.json", "units (units.json)")


def read_segments(build: Path) -> Iterator[dict[str, Any]]:
    """The segments of segments.jsonl, one at a time, each checked against its schema and
    holding only what input text may hold (a control character would reach a PO file or a
    terminal as it is)."""
    path = require_build(build) / "segments.jsonl"
    if member(build, "segments.jsonl") is None:
        raise InputError(str(path), "missing: the build has no segments.jsonl")
    return read_jsonl(
        path, _SEGMENT, MAX_BUILD_FILE_BYTES, schema="segment", follow=False, controls=False
    )


@gc_paused()
def read_segment_texts(build: Path) -> dict[str, dict[str, Any]]:
    """Segment id -> {"raw", "lang", "asides"} from segments.jsonl."""
    return {
        s["id"]: {"raw": s["raw"], "lang": s["lang"], "asides": s["asides"]}
        for s in read_segments(build)
    }


def own_text(raw: str, asides: list[dict[str, Any]]) -> tuple[str, Callable[[int], int]]:
    """A segment's raw text without what is no text of it (`model.OUTSIDE_TEXT`: a chat
    message's header and quoted lines, each with the line break after it), and the map of
    an offset in raw to one in that text. Most segments have none: raw, unchanged."""
    cuts = []
    for a in asides:
        if a["reason"] in OUTSIDE_TEXT:
            start, end = int(a["start"]), int(a["end"])
            end += 2 if raw.startswith("\r\n", end) else 1 if raw.startswith("\n", end) else 0
            cuts.append((start, end))
    if not cuts:
        return raw, lambda offset: offset
    cuts.sort()
    pieces, at = [], 0
    for start, end in cuts:
        pieces.append(raw[at:start])
        at = max(at, end)
    pieces.append(raw[at:])

    def moved(offset: int) -> int:
        return offset - sum(min(end, offset) - start for start, end in cuts if start < offset)

    return "".join(pieces), moved
