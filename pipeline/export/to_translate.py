"""A build's rules in the source language, cut into units for translators, targets empty.

This is what goes out at the start of a translation cycle, when the build has no
translation yet (or `--to-translate` asks for every rule). Each rule's English body parts
(its paragraphs, list items and tables; a heading only when it is the whole rule) are cut
into sentences, one unit each, with ids that name the rule, the part and the sentence
(`fear.1.2`, pipeline/ingest/unit_ids.py); at paragraph level one unit per part
(`fear.1`). A table stays one unit: its rows are not sentences. The texts are the segments'
raw text, BBCode kept, so the writers give it as inline codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..build_folder import read_rules, read_segments
from ..errors import InputError
from ..ingest.text import marker_spans
from ..ingest.unit_ids import unit_id
from ..model import Block
from ..pairs import Pair
from ..sentences import sentences
from .pairs import Level


@dataclass(frozen=True, slots=True)
class Untranslated:
    """The units to translate, and where each unit's source sits (`drop/file:line`)."""

    units: tuple[Pair, ...]
    places: dict[str, str]
    names: dict[str, str]


def _body_segments(rule: dict[str, Any], lang: str) -> list[str]:
    """Segment ids of the rule's body parts in `lang`, in reading order."""
    parts = rule.get("parts")
    if isinstance(parts, list):
        mine = [p for p in parts if isinstance(p, dict) and p.get("lang") == lang]
        body = [p["segment"] for p in mine if "span" in p and isinstance(p.get("segment"), str)]
        return body or [p["segment"] for p in mine[:1] if isinstance(p.get("segment"), str)]
    text = (rule.get("texts") or {}).get(lang)
    sources = text.get("sources") if isinstance(text, dict) else None
    canonical = [
        s["segment"]
        for s in sources or ()
        if isinstance(s, dict) and s.get("relation") == "canonical" and "segment" in s
    ]
    return canonical[:1]


def _pieces(raw: str, kind: str, level: Level) -> Iterator[tuple[int | None, int, int]]:
    """(sentence number or None, start, end) of the units of one part's raw text; a
    heading's Markdown marks and a list item's bullet are not text to translate."""
    marks = marker_spans(Block(kind, raw, (0, 0)))  # type: ignore[arg-type]
    start = marks[0][1] if marks else 0
    if level == "paragraph" or kind == "table":
        yield (None if level == "paragraph" else 1), start, len(raw)
        return
    for n, (a, b) in enumerate(sentences(raw, start), start=1):
        yield n, a, b


def rule_units(
    build: Path, target_langs: Sequence[str], level: Level = "sentence", source_lang: str = "en"
) -> Untranslated:
    """The units of every rule with `source_lang` text, in reading order (the corpus order
    of each rule's first part), once for each target language."""
    segments = {s["id"]: s for s in read_segments(build)}
    order = {seg_id: i for i, seg_id in enumerate(segments)}
    rules = sorted(  # reading order: where each rule's first part is in the corpus
        read_rules(build),
        key=lambda r: min(
            (order.get(s, len(order)) for s in _body_segments(r, source_lang)), default=len(order)
        ),
    )
    units: list[Pair] = []
    places: dict[str, str] = {}
    names: dict[str, str] = {}
    for rule in rules:
        rule_id = str(rule["id"])
        given = rule.get("names") if isinstance(rule.get("names"), dict) else {}
        if isinstance(given.get(source_lang), str):
            names[rule_id] = given[source_lang]
        for part, seg_id in enumerate(_body_segments(rule, source_lang), start=1):
            segment = segments.get(seg_id)
            if segment is None:
                raise InputError(
                    str(build / "rules.json"),
                    f"segment {seg_id!r} is not in segments.jsonl",
                    f"rule {rule_id}",
                )
            raw = segment["raw"]
            first = int(segment["lines"][0]) if segment["lines"] else 0
            for sentence, start, end in _pieces(raw, segment["kind"], level):
                text = raw[start:end].strip()
                if not text:
                    continue
                uid = unit_id(rule_id, part, sentence)
                line = first + raw[:start].count("\n")
                places[uid] = f"{segment['drop']}/{segment['file']}:{line}"
                units.append(Pair(uid, text, "", source_lang, None, rule=rule_id))
    if not units:
        raise InputError(str(build / "rules.json"), f"no rule has {source_lang} text to translate")
    return Untranslated(tuple(_for_languages(units, target_langs)), places, names)


def _for_languages(units: Sequence[Pair], langs: Iterable[str]) -> Iterator[Pair]:
    for lang in langs:
        for unit in units:
            yield Pair(unit.id, unit.source, "", unit.source_lang, lang, rule=unit.rule)
