"""Where pairs come from: a pairs file (JSON Lines) or the aligned pairs of a build."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..build_folder import member, own_text, read_links, read_rules, read_segment_texts
from ..errors import InputError
from ..files import MAX_TEXT_CHARS, decode, read_bytes, text_lines, text_too_long
from ..jsonl import read_jsonl
from ..lang import known_languages, primary
from ..model import Span
from ..pairs import Pair
from .data import base_lang

PAIR_FIELDS = {"id": str, "source": str, "target": str, "source_lang": str, "target_lang": str}


def read_pairs(path: Path) -> list[Pair]:
    """Pairs of a JSON Lines file; a broken line or a repeated id is an InputError naming it."""
    pairs: list[Pair] = []
    seen: dict[str, int] = {}  # pair id -> its object's number
    name = str(path)
    known = known_languages()
    good: set[str] = set()  # language codes seen and known
    for k, obj in enumerate(read_jsonl(path, PAIR_FIELDS)):
        if obj["id"] in seen:
            lines = _lines_of(path)
            raise InputError(
                name,
                f"pair id {obj['id']!r} repeated (first on line {lines(seen[obj['id']])})",
                str(lines(k)),
            )
        seen[obj["id"]] = k
        longest = max(len(obj["source"]), len(obj["target"]))
        if longest > MAX_TEXT_CHARS:
            raise text_too_long(name, longest, str(_lines_of(path)(k)))
        for field in ("source_lang", "target_lang"):
            code = obj[field]
            if code in good:
                continue
            if primary(code) not in known:
                raise InputError(
                    name,
                    f"{field} {code!r} is no language code it knows ({', '.join(sorted(known))})",
                    str(_lines_of(path)(k)),
                )
            good.add(code)
        pairs.append(
            Pair(obj["id"], obj["source"], obj["target"], obj["source_lang"], obj["target_lang"])
        )
    return pairs


def _lines_of(path: Path) -> Callable[[int], int]:
    """The line number of the k-th object of a JSON Lines file (read_jsonl skips blank
    lines), read again only to name a line in an error."""
    name = str(path)
    line_of: list[int] = []
    if name != "-":
        lines = text_lines(decode(name, read_bytes(path)))
        line_of = [n for n, line in enumerate(lines, start=1) if line.strip()]
    return lambda k: line_of[k] if k < len(line_of) else k + 1


@dataclass(frozen=True, slots=True)
class BuildPairs:
    pairs: list[Pair]
    alone: list[Pair]
    has_alignments: bool
    rule_names: dict[str, str]


def _rules(folder: Path) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """Rule id -> display name (its names, English first, else the id), and segment id ->
    rule id, from rules.json: what a report titles a pair with instead of a hash id; and
    the segments that are only a rule's history (a translation a newer drop replaced),
    which a check of the build no longer reports."""
    if member(folder, "rules.json") is None:
        return {}, {}, set()
    names: dict[str, str] = {}
    of_segment: dict[str, str] = {}
    old: set[str] = set()
    current: set[str] = set()
    for rule in read_rules(folder):
        rid = str(rule["id"])
        given = rule.get("names") if isinstance(rule.get("names"), dict) else {}
        ordered = sorted(given.items(), key=lambda kv: (kv[0] != "en", kv[0]))
        names[rid] = " / ".join(dict.fromkeys(str(v) for _, v in ordered if v)) or rid
        texts = rule.get("texts") if isinstance(rule.get("texts"), dict) else {}
        for text in texts.values():
            for src in (text.get("sources") or []) if isinstance(text, dict) else []:
                if isinstance(src, dict) and isinstance(src.get("segment"), str):
                    of_segment.setdefault(src["segment"], rid)
                    if src.get("relation") in ("canonical", "exact"):
                        current.add(src["segment"])
        for entry in rule.get("history") or ():
            for src in (entry.get("sources") or []) if isinstance(entry, dict) else []:
                if isinstance(src, dict) and isinstance(src.get("segment"), str):
                    old.add(src["segment"])
    return names, of_segment, old - current


def _spans(raw: Any) -> tuple[Span, ...]:
    if not isinstance(raw, list):
        return ()
    return tuple((int(s[0]), int(s[1])) for s in raw if isinstance(s, list) and len(s) == 2)


def _moved(spans: tuple[Span, ...], moved: Callable[[int], int]) -> tuple[Span, ...]:
    return tuple((moved(a), moved(b)) for a, b in spans)


def _alone(
    segments: dict[str, dict[str, Any]], linked: set[str], rule_of: dict[str, str]
) -> list[Pair]:
    """Segments checked on their own: every English one (the master-side checks), and every
    other one that is not the target of a linked pair (homoglyphs, doubled words)."""
    return [
        Pair(
            seg_id,
            own_text(s["raw"], s["asides"])[0],
            None,
            s["lang"] or "und",
            rule=rule_of.get(seg_id),
        )
        for seg_id, s in segments.items()
        if base_lang(s["lang"]) == "en" or seg_id not in linked
    ]


def read_build(folder: Path) -> BuildPairs:
    """The linked pairs of a build (alignments.json) with their texts (segments.jsonl), and
    the segments to check alone (see `_alone`). A build without alignments.json has only
    the latter."""
    segments = read_segment_texts(folder)
    names, rule_of, replaced = _rules(folder)
    segments = {k: v for k, v in segments.items() if k not in replaced}
    if not (folder / "alignments.json").is_file():
        return BuildPairs([], _alone(segments, set(), rule_of), False, names)
    align_path = str(folder / "alignments.json")
    pairs: list[Pair] = []
    linked: set[str] = set()
    for i, link in enumerate(read_links(folder)):
        if link.get("status") != "linked":
            continue
        src, tgt = link.get("source"), link.get("target")
        if tgt in replaced:
            continue
        for sid in (src, tgt):
            if sid not in segments:
                raise InputError(
                    align_path, f"segment {sid!r} is not in segments.jsonl", f"links/{i}"
                )
        linked.add(tgt)
        # A chat message's header and quotations are no text of it (build_folder.own_text).
        source, in_source = own_text(segments[src]["raw"], segments[src]["asides"])
        target, in_target = own_text(segments[tgt]["raw"], segments[tgt]["asides"])
        sentences = tuple(
            (
                str(s.get("type")),
                _moved(_spans(s.get("source_spans")), in_source),
                _moved(_spans(s.get("target_spans")), in_target),
            )
            for s in link.get("sentences") or ()
            if isinstance(s, dict)
        )
        pairs.append(
            Pair(
                link["id"],
                source,
                target,
                str(link.get("source_lang") or segments[src]["lang"] or "en"),
                str(link.get("target_lang") or segments[tgt]["lang"] or "und"),
                sentences,
                link.get("rule") if isinstance(link.get("rule"), str) else rule_of.get(tgt),
            )
        )
    return BuildPairs(pairs, _alone(segments, linked, rule_of), True, names)
