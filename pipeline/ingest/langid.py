"""Language of a block, with a confidence, built on lingua's n-gram models.

Markup tags, numbers and dice notation carry no language, so they are stripped before
detection; the candidate set is data (pipeline/lang/languages.yaml).
"""

from __future__ import annotations

import re
from functools import cache

from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder

from ..lang import shared

_NOISE = re.compile(r"\[/?[A-Za-z*]+(?:=[^\]]*)?\]|\b\d*[DdДдКк]\d+\b|[\d|+\-×x\"″'()\[\].,:;!?]+")
_LETTER = re.compile(r"[^\W\d_]")


@cache
def _config() -> tuple[LanguageDetector, int]:
    data = shared("languages")
    langs = [
        Language.from_iso_code_639_1(getattr(IsoCode639_1, c.upper())) for c in data["languages"]
    ]
    detector = (
        LanguageDetectorBuilder.from_languages(*langs).with_preloaded_language_models().build()
    )
    return detector, int(data["min_letters"])


def identify(text: str) -> tuple[str, float] | None:
    """Return (ISO code, confidence) or None when the text has too few letters to tell."""
    detector, min_letters = _config()
    cleaned = _NOISE.sub(" ", text)
    if len(_LETTER.findall(cleaned)) < min_letters:
        return None
    values = detector.compute_language_confidence_values(cleaned)
    best = values[0]
    return best.language.iso_code_639_1.name.lower(), round(best.value, 4)
