"""Language data of the pipeline."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml


@cache
def known_languages() -> frozenset[str]:
    """The ISO 639-1 codes of languages.yaml: what the identifier and the data know."""
    data = yaml.safe_load((Path(__file__).parent / "languages.yaml").read_text("utf-8"))
    return frozenset(data["languages"])
