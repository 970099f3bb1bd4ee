"""Drops: what each source drop is and which is newer.

A drop may carry `drop.yaml` (schemas/drop.schema.json): a name, a version, a date and
language hints. Drops are ranked oldest first by date, then folder name; where two drops
carry the same rule, the newer one's text is the rule's text and the older is history.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import read_yaml
from .schemas import validator

METADATA = "drop.yaml"


@dataclass(frozen=True, slots=True)
class Drop:
    folder: str
    name: str
    version: str | None = None
    date: str | None = None
    language: str | None = None
    languages: Mapping[str, str] = field(default_factory=dict)

    def language_of(self, file: str) -> str | None:
        """The language the drop states for a file, if any."""
        for pattern, lang in self.languages.items():
            if fnmatch(file, pattern):
                return lang
        return self.language

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"folder": self.folder, "name": self.name}
        for key in ("version", "date", "language"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.languages:
            out["languages"] = dict(self.languages)
        return out


def read_drop(folder: Path, path: Path | None) -> Drop:
    """A drop's metadata from `path` (its drop.yaml, as the corpus walk found it readable);
    a drop without one is named after its folder."""
    if path is None:
        return Drop(folder.name, folder.name)
    data = read_yaml(path, "drop metadata")
    if isinstance(data, dict) and isinstance(data.get("date"), datetime.date):
        data = {**data, "date": data["date"].isoformat()}  # `date: 2024-01-31` unquoted
    error = next(iter(validator("drop").iter_errors(data if data is not None else {})), None)
    if data is None or error is not None:
        place = "/".join(str(p) for p in error.absolute_path) if error else ""
        what = error.message if error else "empty file"
        raise InputError(str(path), f"not drop metadata: {what}", place or "top level")
    _real_date(str(path), data.get("date"))
    version = data.get("version")
    return Drop(
        folder=folder.name,
        name=data.get("name", folder.name),
        version=None if version is None else str(version),
        date=data.get("date"),
        language=data.get("language"),
        languages=data.get("languages", {}),
    )


def _real_date(name: str, date: str | None) -> None:
    """Refuse a date of the right shape that is not in the calendar (2024-13-45)."""
    if date is None:
        return
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        raise InputError(
            name, f"not drop metadata: {date!r} is not a calendar date", "date"
        ) from None


def ranks(drops: Sequence[Drop]) -> dict[str, int]:
    """Folder -> age rank, 0 the oldest: by date (undated first), then folder name."""
    order = sorted(drops, key=lambda d: (d.date or "", d.folder))
    return {d.folder: i for i, d in enumerate(order)}
