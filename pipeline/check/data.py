"""The checks' per-language data (`pipeline/lang/<lang>/checks.yaml`, homoglyph table),
loaded once per process."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

LANG_DIR = Path(__file__).resolve().parent.parent / "lang"


def _yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    return data


def base_lang(lang: str | None) -> str:
    """ "ru-RU" -> "ru"; None -> "und"."""
    if not lang:
        return "und"
    return lang.split("-")[0].split("_")[0].lower()


@dataclass(frozen=True, slots=True)
class LangChecks:
    house_spellings: dict[str, str]
    doubled_ok: frozenset[str]
    allowed_latin: frozenset[str]


@cache
def lang_checks(lang: str | None) -> LangChecks:
    data = _yaml(LANG_DIR / base_lang(lang) / "checks.yaml")
    return LangChecks(
        house_spellings={
            str(k).lower(): str(v) for k, v in (data.get("house_spellings") or {}).items()
        },
        doubled_ok=frozenset(str(w).lower() for w in data.get("doubled_ok") or ()),
        allowed_latin=frozenset(str(w) for w in data.get("allowed_latin") or ()),
    )


@cache
def homoglyphs() -> dict[str, str]:
    """Cyrillic letter -> the Latin letter it looks like."""
    table = _yaml(LANG_DIR / "homoglyphs.yaml").get("cyrillic_to_latin") or {}
    return {str(k): str(v) for k, v in table.items()}


@cache
def latin_to_cyrillic() -> dict[str, str]:
    return {v: k for k, v in homoglyphs().items()}
