"""Crash safety: a build killed at any moment leaves the previous output folder whole, and
the next build succeeds and equals a clean one; two builds into one folder do not mix."""

from __future__ import annotations

import fcntl
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .bench.corpus import make_corpus
from .conftest import CORPUS, ROOT, run_cli
from .helpers.outputs import assert_refused, leftovers, tree

KILLS = 5
FACTOR = 10  # about 1,500 segments: a few seconds of work, under a second of writing
WORKERS = {"RULEPIPE_WORKERS": "2"}  # killed builds have workers too


def start_build(corpus: Path, out: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(out), "-q"],
        cwd=ROOT,
        env={**os.environ, **WORKERS},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: workers can be found afterwards
    )


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(condition, timeout: float = 120.0, step: float = 0.005) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(step)
    return False


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes], float]:
    """A generated corpus, its clean build, and how long that build took."""
    root = tmp_path_factory.mktemp("crash")
    corpus = make_corpus(root / "corpus", FACTOR, seed=7)
    started = time.monotonic()
    result = run_cli("build", str(corpus), "-o", str(root / "clean"), "-q")
    took = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    return corpus, tree(root / "clean"), took


def test_a_build_killed_at_random_moments_leaves_the_previous_output(tmp_path, big):
    corpus, clean, took = big
    out = tmp_path / "output"
    first = run_cli("build", str(CORPUS), "-o", str(out), "-q")
    assert first.returncode == 0, first.stderr
    previous = tree(out)
    rng = random.Random(20261129)
    moments = sorted(rng.uniform(0.3, took * 1.1) for _ in range(KILLS))
    outcomes = []
    for moment in moments:
        child = start_build(corpus, out)
        time.sleep(moment)
        child.send_signal(signal.SIGKILL)  # only the build process, as a crash would
        child.wait()
        # the folder is always one whole build: the previous one, or (killed after the
        # swap) the new one; never missing, never a mixture
        now = tree(out)
        assert now in (previous, clean), f"killed at {moment:.2f}s: output is neither build"
        outcomes.append("previous" if now == previous else "new")
        assert wait_for(lambda pgid=child.pid: not group_alive(pgid), timeout=10), (
            f"workers of the build killed at {moment:.2f}s are still running"
        )
        if now == clean:  # put the previous build back for the next round
            again = run_cli("build", str(CORPUS), "-o", str(out), "-q")
            assert again.returncode == 0, again.stderr
            assert tree(out) == previous
    assert "previous" in outcomes
    after = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert after.returncode == 0, after.stderr
    assert tree(out) == clean
    assert leftovers(tmp_path) == []


def test_a_second_build_while_one_is_writing_is_refused(tmp_path, big):
    corpus, clean, _ = big
    out = tmp_path / "output"
    first = run_cli("build", str(CORPUS), "-o", str(out), "-q")
    assert first.returncode == 0, first.stderr
    writer = start_build(corpus, out)
    try:
        # catch the first build while it holds the lock and writes its temporary folder
        writing = wait_for(lambda: any(".output.tmp-" in p.name for p in tmp_path.iterdir()))
        assert writing, "the build never started writing"
        os.killpg(writer.pid, signal.SIGSTOP)
        second = run_cli("build", str(CORPUS), "-o", str(out), "-q")
        assert_refused(second, r"output: another build is writing this folder")
    finally:
        os.killpg(writer.pid, signal.SIGCONT)
    _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    assert tree(out) == clean
    assert leftovers(tmp_path) == []


def test_a_held_lock_refuses_at_once_and_changes_nothing(tmp_path):
    out = tmp_path / "output"
    first = run_cli("build", str(CORPUS), "-o", str(out), "-q")
    assert first.returncode == 0, first.stderr
    before = tree(out)
    with (tmp_path / ".output.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        second = run_cli("build", str(CORPUS), "-o", str(out), "-q")
    assert_refused(second, r"output: another build is writing this folder", out, before)
    third = run_cli("build", str(CORPUS), "-o", str(out), "-q")
    assert third.returncode == 0, third.stderr
    assert tree(out) == before


def test_two_builds_started_together_leave_one_whole_build(tmp_path, big):
    corpus, clean, _ = big
    out = tmp_path / "output"
    seeds = tmp_path / "seeds"
    assert run_cli("build", str(CORPUS), "-o", str(seeds), "-q").returncode == 0
    seeds_tree = tree(seeds)
    a = start_build(corpus, out)
    b = start_build(CORPUS, out)
    _, err_a = a.communicate(timeout=300)
    _, err_b = b.communicate(timeout=300)
    for code, err in ((a.returncode, err_a), (b.returncode, err_b)):
        assert b"Traceback" not in err
        assert code == 0 or (code == 2 and b"another build is writing this folder" in err)
    assert 0 in (a.returncode, b.returncode)
    assert tree(out) in (clean, seeds_tree)
    assert leftovers(tmp_path) == []


def test_workers_give_the_build_of_one_process(tmp_path, big):
    corpus, clean, _ = big
    for workers in ("1", "3"):
        out = tmp_path / f"out-{workers}"
        result = run_cli(
            "build", str(corpus), "-o", str(out), "-q", env={"RULEPIPE_WORKERS": workers}
        )
        assert result.returncode == 0, result.stderr
        assert tree(out) == clean
