"""checks.json: the report as data (schemas/checks.schema.json).

`findings` lists each open finding once for all copies of its text (`copies` names the
others) with the `hash` that keys it in an accepted-findings file; `accepted` lists the
findings that file accepts, apart. The summary counts the open findings, as `--fail-on`
does, and the sentences with no mark of meaning (whose meaning is not compared), per pair
and in all.

The report is written a member at a time (`write_report_json`): its pairs and findings
are never all made into objects and text at once, so its memory does not grow with them
(200,000 pairs are a 190 MB file).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any, BinaryIO

from .. import __version__
from ..emit import dump_json
from ..schemas import validate
from .model import SEVERITIES, Report
from .review import Item, Review, review

#: Pairs or findings validated and written together.
_CHUNK = 1000
_ARRAYS = ("pairs", "findings", "accepted")


def _item(it: Item) -> dict[str, Any]:
    return {**it.finding.to_json(), "copies": list(it.copies), "hash": it.hash}


def _sides(counts: tuple[int, int]) -> dict[str, int]:
    return {"source": counts[0], "target": counts[1]}


def _pair(p: Any, seen: Review, unread: dict[str, tuple[int, int]]) -> dict[str, Any]:
    out = {**p.to_json(), "rule": p.rule, "title": seen.title(p, p.id)}
    if p.target is not None:
        out["unread_sentences"] = _sides(unread.get(p.id, (0, 0)))
    return out


def report_head(report: Report, seen: Review) -> dict[str, Any]:
    """The members before the arrays: the tool, its inputs, the summary."""
    counts = seen.counts()
    by_severity = dict.fromkeys(SEVERITIES, 0)
    for it in seen.open:
        by_severity[it.finding.severity] += 1
    return {
        "tool": f"rulepipe {__version__}",
        "inputs": {**report.inputs, "accepted": seen.accepted_file},
        "summary": {
            "pairs": sum(1 for p in report.pairs if p.target is not None),
            "segments": sum(1 for p in report.pairs if p.target is None),
            "findings": len(seen.open),
            "copies": sum(len(it.copies) for it in seen.open),
            "accepted": len(seen.accepted),
            "stale_accepted": len(seen.stale),
            "unread_sentences": _sides(report.unread_total()),
            "by_severity": by_severity,
            "by_check": {c: n for c, n in counts.items() if any(n.values())},
        },
    }


def _arrays(report: Report, seen: Review) -> dict[str, Iterable[dict[str, Any]]]:
    """The arrays of the report, each made an item at a time."""
    return {
        "pairs": (_pair(p, seen, report.unread) for p in report.pairs),
        "findings": (_item(it) for it in seen.open),
        "accepted": (_item(it) for it in seen.accepted),
    }


def report_data(report: Report, seen: Review | None = None) -> dict[str, Any]:
    """The whole report as one object (what `write_report_json` writes)."""
    seen = seen or review(report)
    return {
        **report_head(report, seen),
        **{k: list(v) for k, v in _arrays(report, seen).items()},
    }


def write_report_json(report: Report, seen: Review, fh: BinaryIO) -> None:
    """Write exactly dump_json(report_data(report, seen)), UTF-8, to fh, checking it
    against its schema as it goes: the head, then each chunk of items with the head (a
    report that fails is a SchemaViolation, and the caller writes nothing)."""
    head = report_head(report, seen)
    empty: dict[str, list[Any]] = {key: [] for key in _ARRAYS}
    validate({**head, **empty}, "checks", "checks.json")
    fh.write(b"{")
    sep = b"\n  "
    for key, value in head.items():
        fh.write(sep + _member(key, dump_json(value)))
        sep = b",\n  "
    for key, items in _arrays(report, seen).items():
        fh.write(sep + json.dumps(key).encode() + b": ")
        sep = b",\n  "
        _write_array(fh, key, iter(items), {**head, **empty})
    fh.write(b"\n}\n")


def _member(key: str, text: str) -> bytes:
    """`"key": value` at the first depth, from the value's dump_json text."""
    return (json.dumps(key, ensure_ascii=False) + ": " + _indented(text, "\n  ")).encode()


def _indented(text: str, nl: str) -> str:
    """dump_json's text of a value (its final newline dropped) at a deeper indent: no JSON
    string holds a raw line feed, so each one is a line of the layout."""
    return text[:-1].replace("\n", nl)


def _write_array(
    fh: BinaryIO, key: str, items: Iterator[dict[str, Any]], frame: dict[str, Any]
) -> None:
    first = True
    while chunk := list(islice(items, _CHUNK)):
        validate({**frame, key: chunk}, "checks", "checks.json")
        for item in chunk:
            fh.write((b"[\n    " if first else b",\n    ") + _text(item))
            first = False
    fh.write(b"[]" if first else b"\n  ]")


def _text(item: dict[str, Any]) -> bytes:
    return _indented(dump_json(item), "\n    ").encode("utf-8")
