"""The checks' per-language data (`pipeline/lang/<lang>/checks.yaml`).

House spellings, words that may double and Latin words allowed in a translation belong to
one language only, so a language without a checks file gets none (no English fallback).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..lang import data, tag

__all__ = ["LangChecks", "base_lang", "lang_checks"]


@cache
def base_lang(code: str | None) -> str:
    """`pipeline.lang.tag`, once per code: the checks ask it several times a pair."""
    return tag(code)


@dataclass(frozen=True, slots=True)
class LangChecks:
    house_spellings: dict[str, str]
    doubled_ok: frozenset[str]
    allowed_latin: frozenset[str]


@cache
def lang_checks(lang: str | None) -> LangChecks:
    raw = data(lang, "checks", fallback=False)
    return LangChecks(
        house_spellings={
            str(k).lower(): str(v) for k, v in (raw.get("house_spellings") or {}).items()
        },
        doubled_ok=frozenset(str(w).lower() for w in raw.get("doubled_ok") or ()),
        allowed_latin=frozenset(str(w) for w in raw.get("allowed_latin") or ()),
    )
