"""Sentence split for comparing rule texts: at . ! ? followed by a space and a capital,
digit, quote or bracket, except after the abbreviations in abbreviations.yaml."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

_BREAK = re.compile(r"(?<=[.!?…])[\"”»')\]]*\s+(?=[\"“«(\[]?[A-ZА-ЯЁ0-9+\-])")


@cache
def _abbreviations() -> dict[str, frozenset[str]]:
    data = yaml.safe_load((Path(__file__).parent / "abbreviations.yaml").read_text("utf-8"))
    return {lang: frozenset(words) for lang, words in data.items()}


def split_sentences(text: str, lang: str = "en") -> list[str]:
    """The sentences of `text`, stripped, in order."""
    abbreviations = _abbreviations().get(lang, frozenset())
    sentences: list[str] = []
    start = 0
    for m in _BREAK.finditer(text):
        before = text[start : m.start()].rsplit(None, 1)
        last_word = before[-1].lower().lstrip("([\"'“«") if before else ""
        if last_word in abbreviations:
            continue
        sentences.append(text[start : m.start()].strip())
        start = m.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return [s for s in sentences if s]
