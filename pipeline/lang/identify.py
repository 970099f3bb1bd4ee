"""The language identifier (lingua's n-gram models), built on first use only: its models
take seconds and memory, and only reading a drop needs them."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from .service import shared

if TYPE_CHECKING:
    from lingua import LanguageDetector


@cache
def detector() -> LanguageDetector:
    """A detector over the candidate languages of `languages.yaml`."""
    from lingua import IsoCode639_1, Language, LanguageDetectorBuilder

    codes = shared("languages")["languages"]
    langs = [Language.from_iso_code_639_1(getattr(IsoCode639_1, c.upper())) for c in codes]
    return LanguageDetectorBuilder.from_languages(*langs).with_preloaded_language_models().build()


def min_letters() -> int:
    """Fewer letters than this carry too little evidence to tell a language."""
    return int(shared("languages")["min_letters"])
