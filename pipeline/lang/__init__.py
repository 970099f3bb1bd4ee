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


@cache
def data_languages() -> frozenset[str]:
    """Languages with their own data folder (pipeline/lang/<code>/): what extraction reads."""
    here = Path(__file__).parent
    return frozenset(p.name for p in here.iterdir() if (p / "__init__.py").is_file())
