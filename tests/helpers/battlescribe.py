"""Builds of the BattleScribe fixtures in tests/data/battlescribe (written for the tests)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

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


def fight(out: Path, attacker: dict[str, Any], defender: dict[str, Any], **kw: Any) -> Any:
    """(combat, rounds) of a scenario of `attacker` against `defender` in the build `out`."""
    from pipeline.interpret.combat import combat_from_dict, resolve_combat
    from pipeline.interpret.rules import Build

    b = Build(out)
    combat = combat_from_dict({"attacker": attacker, "defender": defender, **kw}, b, "test")
    return combat, resolve_combat(combat, b)
