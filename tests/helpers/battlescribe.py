"""Builds of the BattleScribe fixtures in tests/data/battlescribe (written for the tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pipeline.build import build

DATA = Path(__file__).resolve().parents[1] / "data" / "battlescribe"


def build_fixtures(root: Path, *names: str) -> Path:
    """Build the named fixture files as one drop under `root`; the build folder."""
    drop = root / "corpus" / "drops" / "army"
    drop.mkdir(parents=True)
    for name in names:
        shutil.copy(DATA / name, drop / name)
    build(root / "corpus", root / "out")
    return root / "out"
