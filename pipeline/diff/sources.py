"""The two sides of a diff: a build folder (has manifest.json) as it is, or a corpus folder
(has drops/) built into a temporary folder first."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..build_folder import read_rules, read_units
from ..errors import InputError
from ..progress import Report
from ..schemas import validator


@dataclass(frozen=True, slots=True)
class Side:
    path: str
    kind: str  # "build" | "corpus"
    rules: list[dict[str, Any]]
    units: list[dict[str, Any]] = field(default_factory=list)  # units.json, when it has one


def load_side(path: Path, glossary: Path | None = None, progress: Report | None = None) -> Side:
    if not path.is_dir():
        raise InputError(str(path), "not a folder: give a build folder or a corpus folder")
    if (path / "manifest.json").is_file():
        rules = read_rules(path)
        _valid_rules(path / "rules.json", rules)
        return Side(str(path), "build", rules, read_units(path) or [])
    if (path / "drops").is_dir():
        from ..build import build

        with tempfile.TemporaryDirectory(prefix="rulepipe-diff-") as tmp:
            result = build(path, Path(tmp) / "output", glossary, progress)
            units = read_units(Path(tmp) / "output") or []
            return Side(str(path), "corpus", [dict(r) for r in result.rules], units)
    raise InputError(
        str(path), "neither a build folder (manifest.json) nor a corpus folder (drops/)"
    )


def _valid_rules(name: Path, rules: list[dict[str, Any]]) -> None:
    """A hand-edited rules.json that is not a rule bundle is refused on one line, before
    the comparison trips over it."""
    error = next(iter(validator("rules").iter_errors(rules)), None)
    if error is not None:
        place = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise InputError(str(name), f"not a rule bundle: {error.message[:200]}", place)
