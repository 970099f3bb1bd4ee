"""A paragraph's kind and the category labels that army books put in front of rule text.

Labels ("Attack Attribute - Close Combat.", "Universal Rule.", "Artillery Weapon.",
"Inanimate - Melee") are split off first: they classify the rule but are not rule text, and
left in place they would be read as sentences or as part of a name. The kind then follows
from the strongest evidence available, in a fixed order (a table or heading by shape, a
profile line, a paragraph that only grants other rules, what the naming cue says, labels,
word cues), so that the same text always gets the same kind. Cues are data in
`lang/<lang>/kinds.yaml`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from pipeline.lang import data as lang_data

KINDS = (
    "special-rule",
    "weapon",
    "weapon-profile",
    "spell",
    "unit-rule",
    "table",
    "section",
    "grant",
)


@dataclass(frozen=True, slots=True)
class _Data:
    labels: tuple[tuple[re.Pattern[str], str | None], ...]
    grant_sentence: re.Pattern[str] | None
    stat_line: re.Pattern[str] | None
    cues: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]


@dataclass(frozen=True, slots=True)
class Labels:
    """Leading labels, where the rule text starts after them, and the kind they imply."""

    labels: tuple[str, ...]
    start: int
    kind: str | None


@cache
def _data(lang: str) -> _Data:
    raw = lang_data(lang, "kinds")
    return _Data(
        labels=tuple(
            (re.compile(r"\s*(?:" + item["pattern"] + r")\s*"), item.get("kind"))
            for item in raw.get("labels") or []
        ),
        grant_sentence=re.compile(raw["grant_sentence"]) if raw.get("grant_sentence") else None,
        stat_line=re.compile(raw["stat_line"]) if raw.get("stat_line") else None,
        cues=tuple(
            (str(kind), tuple(re.compile(p) for p in patterns))
            for kind, patterns in (raw.get("cues") or {}).items()
        ),
    )


def split_labels(text: str, lang: str) -> Labels:
    """Split leading category labels off `text` (repeatedly: a label may follow a label)."""
    data = _data(lang)
    labels: list[str] = []
    kind: str | None = None
    pos = 0
    found = True
    while found:
        found = False
        for pattern, label_kind in data.labels:
            m = pattern.match(text, pos)
            if m and m.end() < len(text):
                labels.append(text[m.start() : m.end()].strip())
                kind = kind or label_kind
                pos = m.end()
                found = True
                break
    return Labels(tuple(labels), pos, kind)


def is_grant_only(sentences: list[str], lang: str) -> bool:
    """Whether every sentence only gives the model other rules ("The model gains X.")."""
    pattern = _data(lang).grant_sentence
    return bool(sentences) and pattern is not None and all(pattern.match(s) for s in sentences)


def classify(
    segment_kind: str,
    body: str,
    lang: str,
    *,
    sentences: list[str],
    name: str | None,
    name_kind: str | None,
    label_kind: str | None,
    profile: dict[str, Any] | None,
    table: dict[str, Any] | None,
    has_effects: bool,
) -> str:
    """The kind of a segment's rule, from the strongest evidence first."""
    data = _data(lang)
    if table is not None or segment_kind == "table":
        return "table"
    if segment_kind == "heading":
        return "section"
    if profile is not None or (data.stat_line is not None and data.stat_line.match(body.strip())):
        return "weapon-profile"
    if name is None and is_grant_only(sentences, lang):
        return "grant"
    if name_kind:
        return name_kind
    if label_kind:
        return label_kind
    if name is None:  # word cues only decide for paragraphs that name no rule
        for kind, patterns in data.cues:
            if any(p.search(body) for p in patterns):
                return kind
    if name is not None or has_effects:
        return "special-rule"
    return "section"
