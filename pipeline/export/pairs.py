"""The aligned pairs of a build: linked links, at paragraph or sentence level.

Source is always the English master side, target the translation; texts are the segments'
raw text (BBCode kept), so that what a translator exports is what the drop said, less what
is no text of it (a chat message's header and quotations).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from ..build_folder import own_text, read_links, read_segment_texts, read_segments
from ..errors import InputError
from ..pairs import Pair

Level = Literal["paragraph", "sentence"]


def _resolve(
    segments: dict[str, dict[str, Any]], seg_id: Any, where: str, file: str
) -> tuple[str, Callable[[int], int]]:
    """A segment's text as exported (`own_text`: a chat message without its header and
    quotations) and the map of raw offsets into it."""
    if not isinstance(seg_id, str) or seg_id not in segments:
        raise InputError(file, f"segment {seg_id!r} is not in segments.jsonl", where)
    return own_text(segments[seg_id]["raw"], segments[seg_id]["asides"])


def _cut(text: tuple[str, Callable[[int], int]], spans: list[Any], where: str, file: str) -> str:
    """The text from the first span's start to the last span's end (sentences in between
    kept); spans are of the raw text, mapped into the exported one."""
    if not spans:
        return ""
    own, moved = text
    try:
        start, end = int(spans[0][0]), int(spans[-1][1])
    except (TypeError, ValueError, IndexError):
        raise InputError(file, "a sentence span is not [start, end]", where) from None
    start, end = moved(start), moved(end)
    if not 0 <= start <= end <= len(own):
        raise InputError(file, f"sentence span [{start}, {end}] outside the text", where)
    return own[start:end].strip()


def load_pairs(build: Path, level: Level = "paragraph") -> list[Pair]:
    """Pairs of the build in link order; at sentence level one pair per sentence link with
    text on both sides (1-0 and 0-1 links have nothing to pair and are left out)."""
    links = read_links(build)
    segments = read_segment_texts(build)
    file = str(build / "alignments.json")
    pairs: list[Pair] = []
    for n, link in enumerate(links):
        if link.get("status") != "linked":
            continue
        where = f"links/{n}"
        source = _resolve(segments, link.get("source"), where, file)
        target = _resolve(segments, link.get("target"), where, file)
        source_lang = str(link.get("source_lang") or segments[link["source"]]["lang"])
        target_lang = str(link.get("target_lang") or segments[link["target"]]["lang"])
        rule = link.get("rule") if isinstance(link.get("rule"), str) else None
        if level == "paragraph":
            pair = Pair(link["id"], source[0], target[0], source_lang, target_lang, rule=rule)
            pairs.append(pair)
            continue
        for k, sentence in enumerate(link.get("sentences") or [], start=1):
            here = f"{where}/sentences/{k - 1}"
            src = _cut(source, sentence.get("source_spans") or [], here, file)
            trg = _cut(target, sentence.get("target_spans") or [], here, file)
            if src and trg:
                pair_id = f"{link['id']}-s{k}"
                pairs.append(Pair(pair_id, src, trg, source_lang, target_lang, rule=rule))
    return pairs


def select_target(pairs: list[Pair], target_langs: list[str] | None) -> list[Pair]:
    """The pairs translated into the languages asked (all when None)."""
    if target_langs is None:
        return pairs
    return [p for p in pairs if p.target_lang in target_langs]


def source_places(build: Path, level: Level = "paragraph") -> dict[str, str]:
    """Pair id -> where its English source sits in the corpus, `drop/file:line` (the line
    of the sentence itself at sentence level), for PO `#:` references."""
    places = {
        s["id"]: (f"{s['drop']}/{s['file']}", int(s["lines"][0]), s["raw"])
        for s in read_segments(build)
        if s["lines"]
    }
    out: dict[str, str] = {}
    for link in read_links(build):
        if link.get("status") != "linked" or link.get("source") not in places:
            continue
        file, line, raw = places[link["source"]]
        out[link["id"]] = f"{file}:{line}"
        if level == "sentence":
            for k, sentence in enumerate(link.get("sentences") or [], start=1):
                spans = sentence.get("source_spans") or []
                start = int(spans[0][0]) if spans and spans[0] else 0
                out[f"{link['id']}-s{k}"] = f"{file}:{line + raw[:start].count(chr(10))}"
    return out
