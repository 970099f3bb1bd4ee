"""Language data, language tags and folds: what every stage asks about a language.

Data files live beside this module: `<code>/<name>.yaml` per language, `<name>.yaml` for
facts shared by all languages. They are parsed once per process. A language without a file
of its own borrows English's, unless the data only makes sense for the language itself
(house spellings, synonyms): then it gets nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.files import read_data

LANG_DIR = Path(__file__).resolve().parent
ENGLISH = "en"
UNDETERMINED = "und"
_PRIMARY = re.compile(r"^([A-Za-z]{2,3})(?:[-_].*)?$")


def primary(tag: str | None) -> str | None:
    """The primary language of a BCP 47 / RFC 3066 tag: `en-GB` -> `en`, `RU` -> `ru`;
    None when the tag is missing or is no language (`*all*`)."""
    if not tag:
        return None
    m = _PRIMARY.match(tag.strip())
    return m.group(1).lower() if m else None


def tag(code: str | None) -> str:
    """The language code every stage keys on: `ru-RU` -> `ru`; no language -> `und`."""
    return primary(code) or UNDETERMINED


def has_data(lang: str | None, name: str) -> bool:
    """Whether the language has its own `<name>.yaml`."""
    return (LANG_DIR / tag(lang) / f"{name}.yaml").is_file()


@cache
def data(lang: str | None, name: str, fallback: bool = True) -> dict[str, Any]:
    """`<lang>/<name>.yaml`; English's when the language has none (`fallback`), else {}."""
    code = tag(lang)
    if has_data(code, name):
        return read_data(LANG_DIR / code / f"{name}.yaml")
    if fallback:
        return read_data(LANG_DIR / ENGLISH / f"{name}.yaml")
    return {}


@cache
def shared(name: str) -> dict[str, Any]:
    """`<name>.yaml`: facts about languages in general (candidates, asides, homoglyphs)."""
    return read_data(LANG_DIR / f"{name}.yaml")


def shared_path(name: str) -> Path:
    """The path of a shared data file, for readers with a loader of their own (glossaries)."""
    return LANG_DIR / f"{name}.yaml"


@cache
def lemmatised() -> frozenset[str]:
    """Languages matched on dictionary lemmas."""
    return frozenset(str(c) for c in shared("languages").get("lemmatised") or ())


@dataclass(frozen=True, slots=True)
class Notation:
    """How dice and variable notation is written across languages (`folds.yaml`)."""

    die_letters: str  # "DdДдКк": letters that mean "die" before the number of sides
    homoglyphs: dict[str, str]  # Cyrillic letter in notation -> the Latin one it looks like

    @property
    def foreign_die_letters(self) -> str:
        """Die letters that are not the Latin D ("ДдКк")."""
        return "".join(c for c in self.die_letters if c not in "Dd")

    def looks_like(self, latin: str) -> str:
        """The homoglyphs of one Latin letter, either case ("Хх" for "x")."""
        return "".join(k for k, v in self.homoglyphs.items() if v.lower() == latin.lower())


@cache
def notation() -> Notation:
    raw = shared("folds")
    return Notation(
        die_letters=str(raw.get("die_letters") or "Dd"),
        homoglyphs={str(k): str(v) for k, v in (raw.get("notation_homoglyphs") or {}).items()},
    )


@cache
def _letter_table() -> tuple[dict[int, str], re.Pattern[str]]:
    """The translation table of the folds, and a pattern finding any letter it changes."""
    letters = {str(k): str(v) for k, v in (shared("folds").get("letters") or {}).items()}
    changed = re.compile("[" + "".join(re.escape(k) for k in letters) + "]" if letters else "(?!)")
    return str.maketrans(letters), changed


def fold(text: str) -> str:
    """`text` with the letters of `folds.yaml` read as their plain forms (ё as е)."""
    table, changed = _letter_table()
    # Most texts have no letter to fold; the search is far cheaper than translate's
    # per-character table look-ups on a non-ASCII text.
    return text.translate(table) if changed.search(text) else text


@cache
def known_languages() -> frozenset[str]:
    """The codes of `languages.yaml`: the languages the identifier and the commands know."""
    return frozenset(shared("languages")["languages"])


@cache
def data_languages() -> frozenset[str]:
    """Languages with a data folder of their own (`<code>/`): what extraction can read."""
    return frozenset(p.name for p in LANG_DIR.iterdir() if (p / "__init__.py").is_file())
