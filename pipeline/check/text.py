"""Text helpers shared by the checks: scripts, words and sentences with their spans."""

from __future__ import annotations

import re
from functools import lru_cache

from .. import bbcode
from ..lang.scripts import is_cyrillic, is_latin

__all__ = ["WORD", "mask_tags", "script_of", "words"]

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*", re.UNICODE)


# A pair's two texts are masked by several checks (markup, style, script, the rows kept for
# the checks across pairs): the last few masked texts are kept.
_MASKED_KEPT = 64
_masked: dict[str, str] = {}


def mask_tags(text: str) -> str:
    """`pipeline.bbcode.mask_tags`, each text with tags masked once while it is checked."""
    if "[" not in text:
        return text
    got = _masked.get(text)
    if got is None:
        if len(_masked) >= _MASKED_KEPT:
            _masked.clear()
        got = _masked[text] = bbcode.mask_tags(text)
    return got


def script_of(text: str) -> str:
    """ "cyrl" when Cyrillic letters outnumber Latin ones, else "latn"."""
    cyr = sum(1 for ch in text if is_cyrillic(ch))
    lat = sum(1 for ch in text if is_latin(ch))
    return "cyrl" if cyr > lat else "latn"


@lru_cache(maxsize=4096)
def words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in WORD.finditer(text)]
