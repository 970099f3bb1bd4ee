"""Reading the files of a build folder (rules, alignments, segments), with one-line errors
for what is missing: export, diff, check and glossary suggest all read builds this way."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import MAX_BUILD_FILE_BYTES, Inventory, decode, read_bytes
from .gc_pause import gc_paused
from .jsonl import read_jsonl

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


def require_build(build: Path) -> Path:
    """The build folder, or an InputError saying why it is not one."""
    if not build.is_dir():
        raise InputError(str(build), "no build folder here; run `rulepipe build` or pass --build")
    if not (build / "manifest.json").is_file():
        raise InputError(str(build), "not a rulepipe build folder (no manifest.json)")
    return build


@gc_paused()  # a bundle of hundreds of MB is millions of objects, none in a cycle
def read_json(path: Path, what: str) -> Any:
    if not path.is_file():
        raise InputError(str(path), f"missing: the build has no {what}")
    name = str(path)
    try:
        return json.loads(decode(name, read_bytes(path, what, MAX_BUILD_FILE_BYTES)))
    except json.JSONDecodeError as exc:
        raise InputError(name, f"not JSON: {exc.msg}", f"{exc.lineno}:{exc.colno}") from None


def read_rules(build: Path) -> list[dict[str, Any]]:
    """The rule bundle (rules.json) of a build."""
    rules = read_json(require_build(build) / "rules.json", "rule bundle (rules.json)")
    if not isinstance(rules, list) or not all(isinstance(r, dict) and "id" in r for r in rules):
        raise InputError(str(build / "rules.json"), "not a rule bundle (an array of rules)")
    return rules


def read_links(build: Path) -> list[dict[str, Any]]:
    """The links of alignments.json."""
    path = require_build(build) / "alignments.json"
    data = read_json(path, "alignments (alignments.json); rebuild with a newer rulepipe")
    links = data.get("links") if isinstance(data, dict) else None
    if not isinstance(links, list):
        raise InputError(str(path), "no `links` array")
    for n, link in enumerate(links):
        if not isinstance(link, dict) or not isinstance(link.get("id"), str):
            raise InputError(str(path), "a link without an id", f"links/{n}")
    return links


@gc_paused()
def read_segment_texts(build: Path) -> dict[str, dict[str, Any]]:
    """Segment id -> {"raw", "lang"} from segments.jsonl."""
    path = require_build(build) / "segments.jsonl"
    if not path.is_file():
        raise InputError(str(path), "missing: the build has no segments.jsonl")
    required = {"id": str, "raw": str, "lang": str}
    return {
        s["id"]: {"raw": s["raw"], "lang": s["lang"]}
        for s in read_jsonl(path, required, MAX_BUILD_FILE_BYTES)
    }
