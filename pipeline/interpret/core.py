"""The T9A core mechanics, read from `core.yaml` beside this module.

They are rules data (to-hit and to-wound tables, the armour save formula, D3, re-roll depth,
charge dice), kept out of the code so that a new edition is an edit of a data file.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.files import read_data

CORE_PATH = Path(__file__).with_name("core.yaml")


@lru_cache(maxsize=1)
def core() -> dict[str, Any]:
    """The parsed core data (read once per process)."""
    return read_data(CORE_PATH)


def need_from_rows(rows: list[dict[str, int]], difference: int) -> int:
    """The roll needed for a characteristic difference: the first row whose range holds it."""
    for row in rows:
        lo, hi = row.get("min"), row.get("max")
        if (lo is None or difference >= lo) and (hi is None or difference <= hi):
            return int(row["need"])
    raise ValueError(f"no row of the core table covers a difference of {difference}")
