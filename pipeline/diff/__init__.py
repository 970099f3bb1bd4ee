"""Diff: the changelog between two builds (or two corpora, built first) at the level a rules
team reads: rules added, removed, renamed, changed; for a changed rule, which quantity went
from what to what, which effect appeared or disappeared, which sentence changed, and
whether the change is wording only; and the army data's changes unit by unit (units.py).
A unit's model profiles are compared as parts of its unit, not as rules.

sources.py loads the two sides, sentences.py splits texts (as extraction does),
compare.py matches and compares rules, render.py writes Markdown; `diff_folders` puts them
together (the command line is pipeline/commands/diff.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import __version__
from ..progress import Report


def diff_folders(
    old: Path, new: Path, glossary: Path | None = None, progress: Report | None = None
) -> dict[str, Any]:
    """The diff document of two folders (validated against schemas/diff.schema.json);
    corpus folders are built first, with `progress` hearing of each stage."""
    from ..lookup import listed
    from ..schemas import validate
    from .compare import diff_rules
    from .sources import load_side
    from .units import diff_units

    def side(name: str) -> Report | None:
        return (
            (lambda stage, done, total: progress(f"{name}: {stage}", done, total))
            if progress
            else None
        )

    a, b = load_side(old, glossary, side("old")), load_side(new, glossary, side("new"))
    doc: dict[str, Any] = {
        "tool": {"name": "rulepipe", "version": __version__},
        "old": {"path": a.path, "kind": a.kind, "rules": len(a.rules)},
        "new": {"path": b.path, "kind": b.kind, "rules": len(b.rules)},
    }
    doc |= diff_rules(listed(a.rules), listed(b.rules))
    if a.units or b.units:
        doc["units"] = diff_units(a.units, b.units)
    validate(doc, "diff", "diff")
    return doc
