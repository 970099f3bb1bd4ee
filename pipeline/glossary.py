"""The term base: loaded once, validated, shared by extraction, alignment and checks."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from .emit import validator
from .errors import InputError
from .files import decode, parse_yaml, read_bytes
from .slug import slugify


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    renderings: dict[str, tuple[str, ...]]  # language -> approved first, then variants
    deprecated: dict[str, tuple[str, ...]]
    kind: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Glossary:
    file: str
    sha256: str
    languages: tuple[str, ...]
    terms: tuple[Term, ...]


def load_glossary(path: Path) -> Glossary:
    """Read a glossary: `.tsv` as a language-headed table, anything else as the project's YAML."""
    if path.suffix.lower() == ".tsv":
        return _load_tsv(path)
    return _load_yaml(path)


_LANG_HEADER = re.compile(r"[a-z]{2,3}")


def _load_tsv(path: Path) -> Glossary:
    """A TSV term list: header `en<TAB>ru[...]`, one term a row; the first column names the id.

    Translators exchange term lists as spreadsheets; this reads the plain export of one. A
    cell may hold variants separated by `;` (approved first). Empty or duplicate terms and
    rows with a different number of cells than the header are refused with their line.
    """
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    lines = decode(name, data_bytes).splitlines()
    if not lines or not lines[0].strip():
        raise InputError(name, "empty glossary: expected a header row such as 'en<TAB>ru'", "1")
    header = [h.strip().lower() for h in lines[0].split("\t")]
    for col, lang in enumerate(header, start=1):
        if not _LANG_HEADER.fullmatch(lang):
            raise InputError(name, f"header column {col} is not a language code: {lang!r}", "1")
    if len(set(header)) != len(header):
        raise InputError(name, "a language is named twice in the header", "1")
    terms: list[Term] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) != len(header):
            raise InputError(
                name, f"{len(cells)} cells where the header names {len(header)} languages", str(n)
            )
        renderings: dict[str, tuple[str, ...]] = {}
        for lang, cell in zip(header, cells, strict=True):
            forms = tuple(f.strip() for f in cell.split(";") if f.strip())
            if forms:
                renderings[lang] = forms
        if header[0] not in renderings:
            raise InputError(name, f"empty term in column {header[0]!r}", str(n))
        term_id = slugify(renderings[header[0]][0], fallback="term")
        if term_id in seen:
            raise InputError(
                name, f"duplicate term {term_id!r} (first on line {seen[term_id]})", str(n)
            )
        seen[term_id] = n
        terms.append(Term(term_id, renderings, {}))
    if not terms:
        raise InputError(name, "no terms below the header row", "2")
    return Glossary(name, hashlib.sha256(data_bytes).hexdigest(), tuple(header), tuple(terms))


def _load_yaml(path: Path) -> Glossary:
    """Read a YAML glossary; a malformed one is an InputError naming file and place."""
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    data = parse_yaml(name, data_bytes)
    error = next(iter(validator("glossary").iter_errors(data)), None)
    if error is not None:
        place = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise InputError(name, f"not a glossary: {error.message}", place)
    seen: set[str] = set()
    terms = []
    for i, t in enumerate(data["terms"]):
        if t["id"] in seen:
            raise InputError(name, f"duplicate term id {t['id']!r}", f"terms/{i}")
        seen.add(t["id"])
        renderings = {k: tuple(v) for k, v in t.items() if k != "id" and len(k) <= 3}
        deprecated = {k: tuple(v) for k, v in t.get("deprecated", {}).items()}
        terms.append(Term(t["id"], renderings, deprecated, t.get("kind"), t.get("note")))
    return Glossary(
        name, hashlib.sha256(data_bytes).hexdigest(), tuple(data["languages"]), tuple(terms)
    )
