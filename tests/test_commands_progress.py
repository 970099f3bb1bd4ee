"""Progress bars: every stage of a build and of a diff on a terminal, nothing in a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from .conftest import CORPUS, ROOT

STAGES = ("reading", "deduplicating", "extracting", "aligning", "assembling", "writing")


def stderr_on_a_terminal(*args: str) -> tuple[int, str]:
    """Run the command with standard error on a pseudo-terminal, as a person would see it."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=600), b"".join(chunks).decode("utf-8", "replace")


def test_build_shows_every_stage_on_a_terminal(tmp_path: Path) -> None:
    code, seen = stderr_on_a_terminal("build", str(CORPUS), "-o", str(tmp_path / "out"))
    assert code == 0
    assert [s for s in STAGES if s in seen] == list(STAGES)


def test_diff_of_corpora_shows_both_builds(tmp_path: Path) -> None:
    code, seen = stderr_on_a_terminal("diff", str(CORPUS), str(CORPUS))
    assert code == 0
    assert "old: extracting" in seen and "new: writing" in seen


def test_nothing_is_drawn_in_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", str(CORPUS), "-o", str(tmp_path / "o")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0
    assert not any(s in done.stderr for s in STAGES)
