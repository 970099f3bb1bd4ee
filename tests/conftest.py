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


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory):
    """A real headless Chromium (Debian's, with its driver) for the tests of HTML pages."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    assert CHROMIUM.is_file() and CHROMEDRIVER.is_file(), "apt-get install chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    driver.set_script_timeout(300)  # axe-core on a long page, on a busy machine
    try:
        yield driver
    finally:
        driver.quit()
