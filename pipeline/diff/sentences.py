"""Sentences of a rule text, split the way extraction and alignment split them, so that a
sentence the diff reports is the sentence the aligner linked."""

from __future__ import annotations

from ..sentences import sentences


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, in order."""
    return [text[a:b].strip() for a, b in sentences(text) if text[a:b].strip()]
