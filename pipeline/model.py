"""Records passed between the stages.

Each stage is a pure function from records to records; these dataclasses are the
only shapes that cross a stage boundary, so a reader can follow the flow by type.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

SegmentKind = Literal["heading", "paragraph", "table", "list-item", "profile", "note"]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Markup:
    """An inline markup element (BBCode or HTML) located in a segment's raw text.

    `start`/`end` cover the whole element including its tags; `inner` is the content,
    or None for a stray opening or closing tag or an HTML element never closed (`<br>`;
    then `start`/`end` cover the tag). `tag` is BBCode's name where HTML means the same
    (`<strong>` is `b`).
    """

    tag: str
    start: int
    end: int
    inner: Span | None
    attr: str | None = None


def _markup_json(m: Markup) -> dict[str, Any]:
    out: dict[str, Any] = {"tag": m.tag, "start": m.start, "end": m.end}
    if m.inner is not None:
        out["inner"] = list(m.inner)
    if m.attr is not None:
        out["attr"] = m.attr
    return out


@dataclass(frozen=True, slots=True)
class Aside:
    """Text inside a block that is not rule text: a translator's comment or note, a chat
    message's header or a quotation of another message."""

    start: int
    end: int
    reason: str


# Asides that are no text of their block at all: a chat message's header, its quotations of
# other messages, a remark opening it before its translation (pipeline/ingest/chat.py).
# Checks and exports of a build leave them out.
CHAT_HEADER = "chat-header"
QUOTATION = "quotation"
CHAT_REMARK = "chat-remark"
OUTSIDE_TEXT = frozenset({CHAT_HEADER, QUOTATION, CHAT_REMARK})


@dataclass(frozen=True, slots=True)
class Segment:
    """One input block with its provenance.

    `raw` is the text as received (what reports show); `text` is the normalised form
    used for matching (asides and markup tags removed, glyphs folded).
    """

    id: str
    drop: str
    file: str
    block: int
    lines: Span
    sha256: str
    kind: SegmentKind
    lang: str
    lang_confidence: float
    raw: str
    text: str
    markup: tuple[Markup, ...] = ()
    asides: tuple[Aside, ...] = ()
    rows: tuple[tuple[str, ...], ...] | None = None
    role: str | None = None  # "source" / "target" for translation-memory units
    unit: str | None = None  # translation unit id shared by a TM source and target
    name: str | None = None  # the name the source states (BattleScribe `<rule name=..>`)
    rule: str | None = None  # the rule id a translation unit names (pipeline/ingest/unit_ids.py)
    sentences: tuple[Span, ...] | None = None  # raw spans of the unit's sentences, by their ids
    page: int | None = None  # the page of a paginated file (PDF) the block is on

    def to_json(self) -> dict[str, Any]:
        """The segment as a line of segments.jsonl, fields in their order (made directly:
        `dataclasses.asdict` copies every value deeply, for a build's every segment)."""
        data: dict[str, Any] = {
            "id": self.id,
            "drop": self.drop,
            "file": self.file,
            "block": self.block,
            "lines": list(self.lines),
            "sha256": self.sha256,
            "kind": self.kind,
            "lang": self.lang,
            "lang_confidence": self.lang_confidence,
            "raw": self.raw,
            "text": self.text,
            "markup": [_markup_json(m) for m in self.markup],
            "asides": [{"start": a.start, "end": a.end, "reason": a.reason} for a in self.asides],
        }
        if self.rows is not None:
            data["rows"] = [list(r) for r in self.rows]
        for key in ("role", "unit", "name", "rule"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.sentences is not None:
            data["sentences"] = [list(s) for s in self.sentences]
        if self.page is not None:
            data["page"] = self.page
        return data


@dataclass(frozen=True, slots=True)
class Block:
    """What a reader yields: a block of a file before language and normalisation."""

    kind: SegmentKind
    raw: str
    lines: Span
    rows: tuple[tuple[str, ...], ...] | None = None
    role: str | None = None
    unit: str | None = None
    lang_hint: str | None = None
    name: str | None = None  # a name the source states for the block (a rule or profile name)
    rule: str | None = None  # a translation unit's own name for what it translates (an id)
    sentences: tuple[Span, ...] | None = None  # raw spans of sentences the unit ids give
    page: int | None = None  # the page it is on, in a paginated file (PDF)
    # file facts, e.g. "version"; a chat message's "sender" and "time"
    extra: dict[str, Any] = field(default_factory=dict)
    asides: tuple[Aside, ...] = ()  # what the reader knows is no text of the block (chat.py)


def rule_flag(
    flag: str, lang: str, detail: str, spans: Iterable[Sequence[int]] = ()
) -> dict[str, Any]:
    """A flag of a rule as schemas/rule.schema.json has it, `spans` only when there are."""
    out: dict[str, Any] = {"flag": flag, "lang": lang, "detail": detail}
    found = [list(s) for s in spans]
    if found:
        out["spans"] = found
    return out
