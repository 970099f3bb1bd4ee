"""Shared fixtures: the repository's corpus, a fresh build of it, and a CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
SEED = CORPUS / "drops" / "seed"


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m pipeline` as a user would, capturing both streams."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=cwd or ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory):
    """One build of the bundled corpus, shared by the tests that only read it."""
    from pipeline.build import build

    out = tmp_path_factory.mktemp("build") / "output"
    return build(CORPUS, out)


@pytest.fixture(scope="session")
def seed_segments():
    from pipeline.ingest import ingest

    return ingest(CORPUS).segments
