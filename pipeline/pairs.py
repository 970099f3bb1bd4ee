"""The pair record: a source text (the English master) and its translation.

Checks, exports and the pairs files they read all pass this one shape, so it sits below
them both, with no imports from either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model import Span

SentenceLink = tuple[str, tuple[Span, ...], tuple[Span, ...]]


@dataclass(frozen=True, slots=True)
class Pair:
    """A source and its translation; `target` None for a segment checked on its own.

    `sentences` are the sentence links of a build's alignment, when there are any:
    (type, source spans, target spans) as in alignments.json. `rule` is the id of the rule
    the pair belongs to, when the build says.
    """

    id: str
    source: str
    target: str | None
    source_lang: str = "en"
    target_lang: str | None = None
    sentences: tuple[SentenceLink, ...] = ()
    rule: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "source_lang": self.source_lang,
            "target_lang": self.target_lang,
            "source": self.source,
            "target": self.target,
        }
