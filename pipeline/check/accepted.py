"""Findings a reviewer has accepted: a small YAML file kept beside the corpus
(`corpus/accepted-findings.yaml` by default), one line a finding, as the HTML report's
"Accept" button writes it:

    - {check: "homoglyph", id: "l-6724384cdde5", hash: "e5a55a0b3d3d8a62"}  # Cyrillic Х ...

A finding is keyed by its check, its pair (or segment) id and a hash of the text under its
spans with the rank of that text among its repeats on the same side. Editing other words of
the pair, or other pairs, leaves the key as it was; editing the marked words makes the
finding new, so it is reviewed again. Accepted findings are reported apart and never count
toward `--fail-on`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

from ..errors import InputError
from ..files import read_yaml
from ..model import Span
from ..pairs import Pair
from ..textsafe import yaml_comment, yaml_string
from .catalogue import CHECK_IDS
from .model import Finding

DEFAULT = Path("corpus") / "accepted-findings.yaml"
_FIELDS = ("check", "id", "hash")
_OPTIONAL = ("note",)
# json.dumps(..., ensure_ascii=False, separators=(",", ":")) builds this encoder on every
# call; made once, since every finding of a report is hashed.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Accepted:
    """One entry of the file; `entry` is its 1-based place there, for messages."""

    check: str
    id: str
    hash: str
    entry: int = 0
    note: str | None = None


def _marked(text: str | None, span: Span | None) -> list | None:
    """The text under `span` and how many times it occurs before it on that side."""
    if text is None or span is None:
        return None
    a, b = span
    piece = text[a:b]
    return [piece, text.count(piece, 0, a) if piece else a]


def finding_hash(finding: Finding, pair: Pair | None) -> str:
    """16 hex digits of sha256 over the marked text of each side (or, with no span at all,
    what the finding says was found and expected)."""
    sides = [
        _marked(pair.source if pair else None, finding.source_span),
        _marked(pair.target if pair else None, finding.target_span),
    ]
    if sides == [None, None]:
        sides = [finding.found, finding.expected]
    raw = _COMPACT.encode([finding.check, sides])
    return sha256(raw.encode("utf-8")).hexdigest()[:16]


def entry_line(
    check: str, pair_id: str, hash_: str, comment: str = "", note: str | None = None
) -> str:
    """The YAML line of one accepted finding (strings double-quoted, a hash of digits alone
    must not become a number), the finding's message as a comment; a character YAML does
    not take raw (U+0086 in a pair id) is written as its escape, so that the next run
    reads back exactly the id it wrote (textsafe decides)."""
    q = yaml_string
    fields = f"check: {q(check)}, id: {q(pair_id)}, hash: {q(hash_)}"
    if note is not None:
        fields += f", note: {q(note)}"
    comment = yaml_comment(comment)
    return f"- {{{fields}}}  # {comment}" if comment else f"- {{{fields}}}"


def read_accepted(path: Path) -> list[Accepted]:
    """The entries of an accepted-findings file; an empty file has none. A malformed entry
    is an InputError naming the file and the entry."""
    data = read_yaml(path, "accepted-findings file")
    if data is None:
        return []
    name = str(path)
    if not isinstance(data, list):
        raise InputError(
            name, "not a list of accepted findings (- {check: ..., id: ..., hash: ...})"
        )
    out: list[Accepted] = []
    for n, entry in enumerate(data, start=1):
        where = f"entry {n}"
        if not isinstance(entry, dict):
            raise InputError(name, "an entry is not a mapping {check, id, hash}", where)
        unknown = sorted(set(map(str, entry)) - set(_FIELDS) - set(_OPTIONAL))
        if unknown:
            raise InputError(
                name, f"unknown field {unknown[0]!r}; use check, id, hash, note", where
            )
        for key in _FIELDS:
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise InputError(name, f"{key!r} missing or not a string", where)
        if entry["check"] not in CHECK_IDS:
            raise InputError(name, f"unknown check {entry['check']!r}", where)
        note = entry.get("note")
        out.append(
            Accepted(
                entry["check"], entry["id"], entry["hash"], n, None if note is None else str(note)
            )
        )
    return out
