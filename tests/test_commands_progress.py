"""Progress bars: every stage of a build and of a diff on a terminal, nothing in a pipe."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from pipeline.check.pairs import read_build

from .conftest import CORPUS, ROOT

STAGES = ("reading", "deduplicating", "extracting", "aligning", "assembling", "writing")


def stderr_on_a_terminal(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Run the command with standard error on a pseudo-terminal, as a person would see it."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "120", **(env or {})}
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


CHECK_STAGES = ("pairs", "texts alone", "across pairs")
BUILD = ROOT / "output"


def finished(stage: str, count: int, seen: str) -> bool:
    """Whether the bar of `stage` was drawn at `count` of `count` (colours aside)."""
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen)
    return re.search(rf"{stage}\s[^\n]*\s{count}/{count}\b", plain) is not None


def check_on_a_terminal(out: Path, workers: str) -> str:
    code, seen = stderr_on_a_terminal(
        "check", "--build", str(BUILD), "-o", str(out), "--fail-on", "never",
        env={"RULEPIPE_WORKERS": workers},
    )  # fmt: skip
    assert code == 0
    return seen


def test_check_shows_pairs_checked_of_all_on_a_terminal(tmp_path: Path) -> None:
    built = read_build(BUILD)
    seen = check_on_a_terminal(tmp_path / "c", "1")
    assert [s for s in CHECK_STAGES if s in seen] == list(CHECK_STAGES)
    assert finished("pairs", len(built.pairs), seen), seen
    assert finished("texts alone", len(built.alone), seen), seen


def test_check_in_parallel_counts_every_pair(tmp_path: Path) -> None:
    """Two forked workers report per piece; the bars still end at every pair and text."""
    built = read_build(BUILD)
    seen = check_on_a_terminal(tmp_path / "c", "2")
    assert finished("pairs", len(built.pairs), seen), seen
    assert finished("texts alone", len(built.alone), seen), seen


def test_check_draws_nothing_in_a_pipe(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "check", "--build", str(BUILD), "-o", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode in (0, 1)
    assert not any(s in done.stderr for s in CHECK_STAGES)
    assert "\x1b" not in done.stderr
