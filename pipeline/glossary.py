"""The term base: loaded once, validated, shared by extraction, alignment and checks."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .emit import validator
from .errors import InputError
from .files import parse_yaml, read_bytes


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
    """Read a YAML glossary; a malformed one is an InputError naming file and place."""
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    data = parse_yaml(name, data_bytes)
    error = next(iter(validator("glossary").iter_errors(data)), None)
    if error is not None:
        place = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise InputError(name, f"not a glossary: {error.message}", place)
    seen: set[str] = set()
    owners: dict[tuple[str, str], str] = {}
    terms = []
    for i, t in enumerate(data["terms"]):
        if t["id"] in seen:
            raise InputError(name, f"duplicate term id {t['id']!r}", f"terms/{i}")
        seen.add(t["id"])
        renderings = {k: tuple(v) for k, v in t.items() if k != "id" and len(k) <= 3}
        _claim_renderings(name, i, t["id"], renderings, owners)
        deprecated = {k: tuple(v) for k, v in t.get("deprecated", {}).items()}
        terms.append(Term(t["id"], renderings, deprecated, t.get("kind"), t.get("note")))
    return Glossary(
        name, hashlib.sha256(data_bytes).hexdigest(), tuple(data["languages"]), tuple(terms)
    )


def _claim_renderings(
    name: str,
    index: int,
    term: str,
    renderings: dict[str, tuple[str, ...]],
    owners: dict[tuple[str, str], str],
) -> None:
    """Refuse a rendering already claimed by another term: a text using it would be
    tagged with one of the two at random, so the glossary must say which it means."""
    for lang, forms in renderings.items():
        for j, form in enumerate(forms):
            key = (lang, " ".join(form.casefold().split()))
            owner = owners.setdefault(key, term)
            if owner != term:
                raise InputError(
                    name,
                    f"{form!r} ({lang}) is already a rendering of term {owner!r}",
                    f"terms/{index}/{lang}/{j}",
                )
