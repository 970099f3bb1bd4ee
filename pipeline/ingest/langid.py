"""Language of a block, with a confidence, built on lingua's n-gram models.

Markup tags, numbers and dice notation carry no language, so they are stripped before
detection; the candidate set is data (pipeline/lang/languages.yaml).
"""

from __future__ import annotations

import re

from ..bbcode import TAG
from ..lang import detector, min_letters, notation

_NOISE = re.compile(
    rf"{TAG.pattern}|\b\d*[{notation().die_letters}]\d+\b|[\d|+\-×x\"″'()\[\].,:;!?]+"
)
_LETTER = re.compile(r"[^\W\d_]")


def identify(text: str) -> tuple[str, float] | None:
    """Return (ISO code, confidence) or None when the text has too few letters to tell."""
    cleaned = _NOISE.sub(" ", text)
    if len(_LETTER.findall(cleaned)) < min_letters():
        return None
    values = detector().compute_language_confidence_values(cleaned)
    best = values[0]
    return best.language.iso_code_639_1.name.lower(), round(best.value, 4)
