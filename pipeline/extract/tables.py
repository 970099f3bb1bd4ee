"""Dice tables: Markdown tables, results written as prose, and the text around a table.

A table becomes the `$defs/table` object of schemas/effect.schema.json, the shape the
interpreter rolls (`pipeline/interpret/tables.py`): a die, rows by range, modifiers under a
named condition, and natural results that chain to another table. LotOW writes some tables
as prose ("Если выпадет 1, ... При результате 2-5, ... на кубике выпадет 6"); those count as
tables only when their ranges cover every face of the die exactly once, so a sentence that
merely mentions a result is never mistaken for one. Cues are data in `lang/<lang>/tables.yaml`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from pipeline.extract.needs import Prefilter
from pipeline.lang import data as lang_data

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class _Data:
    die_header: re.Pattern[str]
    default_die: str
    range: re.Pattern[str]
    outcome_split: re.Pattern[str]
    prose_cue: re.Pattern[str] | None
    prose_results: tuple[re.Pattern[str], ...]
    lead: re.Pattern[str]
    trail: re.Pattern[str]
    modifier: re.Pattern[str] | None
    signs: dict[str, int]
    conditions: tuple[tuple[re.Pattern[str], str], ...]
    chain: re.Pattern[str] | None
    prose_filter: Prefilter  # which result patterns may match a text (none: no prose table)


@cache
def _data(lang: str) -> _Data:
    raw = lang_data(lang, "tables")
    prose = raw.get("prose") or {}
    ctx = raw.get("context") or {}

    def opt(p: str | None) -> re.Pattern[str] | None:
        return re.compile(p) if p else None

    results = tuple(re.compile(p) for p in prose.get("results") or [])
    return _Data(
        die_header=re.compile(raw["die_header"]),
        default_die=str(raw.get("default_die", "D6")),
        range=re.compile(raw["range"]),
        outcome_split=re.compile(raw["outcome_split"]),
        prose_cue=opt(prose.get("cue")),
        prose_results=results,
        lead=re.compile(prose.get("lead") or r"^\s*"),
        trail=re.compile(prose.get("trail") or r"\s*$"),
        modifier=opt(ctx.get("modifier")),
        signs={str(k): int(v) for k, v in (ctx.get("signs") or {}).items()},
        conditions=tuple(
            (re.compile(c["pattern"]), str(c["when"])) for c in ctx.get("conditions") or []
        ),
        chain=opt(ctx.get("chain")),
        prose_filter=Prefilter(results),
    )


def die_sides(die: str) -> int:
    """Faces of a single-die expression ("D6" -> 6); tables here are rolled on one die."""
    m = re.fullmatch(r"\d*D(\d+)", die)
    return int(m.group(1)) if m else 6


def covers_exactly(rows: Sequence[dict[str, Any]], sides: int) -> bool:
    """Whether the rows' ranges cover 1..sides, each face exactly once."""
    faces = [v for r in rows for v in range(r["range"][0], r["range"][1] + 1)]
    return sorted(faces) == list(range(1, sides + 1))


def _die(header: str, data: _Data) -> str:
    m = data.die_header.search(header)
    if m and m.groupdict().get("sides"):
        return f"{m.group('n') or ''}D{m.group('sides')}"
    return data.default_die


def _range(cell: str, data: _Data, sides: int) -> tuple[int, int] | None:
    m = data.range.match(cell)
    if m is None:
        return None
    lo = int(m.group("lo"))
    hi = m.group("hi")
    if hi is None and cell.strip().endswith("+"):
        return lo, sides
    return lo, int(hi) if hi else lo


def markdown_table(rows: Sequence[Sequence[str]], lang: str) -> dict[str, Any] | None:
    """A Markdown dice table as a table object; None when its first column is not results."""
    data = _data(lang)
    header = [" ".join(r) for r in rows if r and _range(r[0], data, 6) is None]
    die = _die(header[0] if header else "", data)
    sides = die_sides(die)
    out_rows: list[dict[str, Any]] = []
    for row in rows:
        if len(row) < 2:
            continue
        rng = _range(row[0], data, sides)
        if rng is None:
            continue
        text = " ".join(c.strip() for c in row[1:] if c.strip())
        outcome = data.outcome_split.split(text, maxsplit=1)[0].strip(" .") or text
        out_rows.append({"range": [rng[0], rng[1]], "outcome": outcome, "text": {lang: text}})
    if not out_rows:
        return None
    return {"die": die, "rows": out_rows}


def prose_table(text: str, lang: str) -> tuple[dict[str, Any], Span] | None:
    """A table written as prose, with the span it covers; None unless it covers the die."""
    data = _data(lang)
    if data.prose_cue is None or not data.prose_filter.candidates(text):
        return None  # no cue, or none of the results' words: fewer than two rows
    if not data.prose_cue.search(text):
        return None
    hits: list[tuple[int, int, tuple[int, int]]] = []
    for pattern in data.prose_results:
        for m in pattern.finditer(text):
            values = [int(v) for v in re.findall(r"\d+", m.group("range"))]
            dashed = "-" in m.group("range") or "–" in m.group("range")
            listed = len(values) > 1 and values == list(range(values[0], values[-1] + 1))
            rng = (values[0], values[-1]) if dashed or listed else (values[0], values[0])
            if any(a < m.end() and m.start() < b for a, b, _ in hits):
                continue
            hits.append((m.start(), m.end(), rng))
    hits.sort()
    rows = [{"range": [r[0], r[1]], "outcome": ""} for _, _, r in hits]
    sides = die_sides(data.default_die)
    if len(rows) < 2 or not covers_exactly(rows, sides):
        return None
    for i, (_, end, _) in enumerate(hits):
        stop = hits[i + 1][0] if i + 1 < len(hits) else len(text)
        chunk = text[end:stop]
        sentence_end = re.search(r"[.!?](?:\s|$)", chunk)
        if sentence_end:
            chunk = chunk[: sentence_end.start()]
        chunk = data.trail.sub("", data.lead.sub("", chunk, count=1), count=1).strip(" ,.")
        rows[i]["outcome"] = chunk or f"{rows[i]['range'][0]}-{rows[i]['range'][1]}"
        rows[i]["text"] = {lang: chunk} if chunk else {}
        if not rows[i]["text"]:
            del rows[i]["text"]
    rows.sort(key=lambda r: r["range"][0])
    return {"die": data.default_die, "rows": rows}, (hits[0][0], len(text))


def table_context(text: str, lang: str) -> dict[str, Any]:
    """Modifiers and natural-result chains stated in the text next to a table.

    Returns `{"modifiers": [...], "natural": [{"value", "when"?, "span"}], "spans": [...]}`;
    a natural row's `chain` is filled by the caller, who knows which table is named.
    """
    data = _data(lang)
    out: dict[str, Any] = {"modifiers": [], "natural": [], "spans": []}
    if data.modifier is not None:
        m = data.modifier.search(text)
        if m:
            by = data.signs.get(m.group("sign"), -1) * int(m.group("n"))
            sentence_start = max(text.rfind(".", 0, m.start()) + 1, 0)
            scope = text[sentence_start : m.end()]
            for pattern, when in data.conditions:
                if pattern.search(scope):
                    out["modifiers"].append({"by": by, "when": when})
            out["spans"].append((sentence_start, m.end()))
    if data.chain is not None:
        for m in data.chain.finditer(text):
            row: dict[str, Any] = {"value": int(m.group("n")), "span": m.span()}
            if m.groupdict().get("modified"):
                row["when"] = "modified"
            out["natural"].append(row)
            out["spans"].append(m.span())
    return out
