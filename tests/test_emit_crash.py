"""Crash safety: a build killed at any moment leaves the previous output folder whole, and
the next build succeeds and equals a clean one; two builds into one folder do not mix. The
same for the report folder of `check -o DIR`."""

from __future__ import annotations

import fcntl
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .bench.corpus import make_corpus
from .conftest import CORPUS, ROOT, run_cli
from .helpers.outputs import assert_refused, leftovers, limits, tree

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


# --- check -o DIR: the reports of one run, always together --------------------------------

REPORT_PAIRS = [
    ("fear", "Enemy units suffer -1 Discipline.", "Вражеские отряды получают -2 к Дисциплине."),
    ("hits", "This unit suffers D3 hits within 6″.", "Этот отряд получает D6 попаданий в 6″."),
    ("armour", "[b]Armor[/b] +1.", "[b]Доспех +1."),
]


def pairs_file(path: Path, copies: int, tag: str) -> Path:
    """A pairs file whose reports differ from another tag's (ids carry the tag)."""
    lines = [
        json.dumps(
            {"id": f"{tag}-{n}-{pid}", "source": f"{src} Unit {n}.", "target": f"{tgt} Отряд {n}."}
            | {"source_lang": "en", "target_lang": "ru"},
            ensure_ascii=False,
        )
        for n in range(copies)
        for pid, src, tgt in REPORT_PAIRS
    ]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def check_cmd(pairs: Path, out: Path) -> list[str]:
    options = ["--fail-on", "never", "--format", "json,html"]
    return [
        sys.executable,
        "-m",
        "pipeline",
        "check",
        "--pairs",
        str(pairs),
        "-o",
        str(out),
        *options,
    ]


@pytest.fixture(scope="module")
def report_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    """Two pairs files and the report folder each gives on its own."""
    root = tmp_path_factory.mktemp("reports")
    runs = {}
    for tag, copies in (("a", 20), ("b", 21)):
        pairs = pairs_file(root / f"{tag}.jsonl", copies, tag)
        done = subprocess.run(check_cmd(pairs, root / f"out-{tag}"), cwd=root, capture_output=True)
        assert done.returncode == 0, done.stderr
        runs[tag] = (pairs, tree(root / f"out-{tag}"))
    return runs


def test_two_checks_into_one_folder_leave_the_reports_of_one_run(tmp_path, report_runs):
    (pairs_a, tree_a), (pairs_b, tree_b) = report_runs["a"], report_runs["b"]
    out = tmp_path / "checks"
    for _ in range(3):
        a = subprocess.Popen(check_cmd(pairs_a, out), cwd=tmp_path, stderr=subprocess.PIPE)
        b = subprocess.Popen(check_cmd(pairs_b, out), cwd=tmp_path, stderr=subprocess.PIPE)
        for child in (a, b):
            _, err = child.communicate(timeout=300)
            assert b"Traceback" not in err
            assert child.returncode == 0 or (
                child.returncode == 2 and b"another check is writing this folder" in err
            ), err
        assert tree(out) in (tree_a, tree_b)  # never a's JSON beside b's HTML
        assert leftovers(tmp_path) == []


def test_a_check_killed_at_any_moment_leaves_one_runs_reports(tmp_path, report_runs):
    (pairs_a, tree_a), (pairs_b, tree_b) = report_runs["a"], report_runs["b"]
    out = tmp_path / "checks"
    assert subprocess.run(check_cmd(pairs_a, out), cwd=tmp_path).returncode == 0
    started = time.monotonic()
    assert subprocess.run(check_cmd(pairs_b, out), cwd=tmp_path).returncode == 0
    took = time.monotonic() - started
    rng = random.Random(20261201)
    for moment in sorted(rng.uniform(0.2, took * 1.1) for _ in range(3)):
        child = subprocess.Popen(check_cmd(pairs_a, out), cwd=tmp_path)
        time.sleep(moment)
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert tree(out) in (tree_a, tree_b), f"killed at {moment:.2f}s: reports of two runs"
    after = subprocess.run(check_cmd(pairs_b, out), cwd=tmp_path)
    assert after.returncode == 0
    assert tree(out) == tree_b
    assert leftovers(tmp_path) == []  # what a killed run left is cleaned up by the next


def test_a_full_disk_between_the_two_reports_keeps_the_previous_pair(tmp_path, report_runs):
    """The JSON fits under the file size limit and the HTML does not, as when the disk
    fills up between the two: exit 2 with the folder and the reason, nothing changed."""
    (pairs_a, tree_a), (pairs_b, tree_b) = report_runs["a"], report_runs["b"]
    out = tmp_path / "checks"
    assert subprocess.run(check_cmd(pairs_a, out), cwd=tmp_path).returncode == 0
    json_size, html_size = len(tree_b["checks.json"]), len(tree_b["checks.html"])
    assert json_size < html_size
    limit = (json_size + html_size) // 2
    done = subprocess.run(
        check_cmd(pairs_b, out),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        preexec_fn=limits(file_size=limit),
    )
    assert done.returncode == 2, done.stderr
    assert re.search(r"checks: cannot write the check: File too large", done.stderr)
    assert tree(out) == tree_a
    assert leftovers(tmp_path) == []


def test_a_check_refuses_to_replace_a_folder_of_other_files(tmp_path, report_runs):
    pairs_a, _ = report_runs["a"]
    out = tmp_path / "notes"
    out.mkdir()
    (out / "todo.txt").write_text("mine\n", "utf-8")
    done = subprocess.run(check_cmd(pairs_a, out), cwd=tmp_path, capture_output=True, text=True)
    result = subprocess.CompletedProcess([], done.returncode, done.stdout, done.stderr)
    assert_refused(result, r"notes: folder holds files that are not check reports \(todo\.txt\)")
    assert tree(out) == {"todo.txt": b"mine\n"}
    assert leftovers(tmp_path) == []


def killed_mid_write(cmd: list[str], after: int, cwd: Path) -> int:
    """Run a `python -m pipeline` command line, killed once `after` bytes are written."""
    assert cmd[1:3] == ["-m", "pipeline"]
    args = [cmd[0], "-m", "tests.helpers.faults", "kill-after", str(after), *cmd[3:]]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(args, cwd=cwd, env=env).returncode


def test_a_check_killed_while_writing_a_report_leaves_no_temporary_file(tmp_path, report_runs):
    (pairs_a, tree_a), (pairs_b, tree_b) = report_runs["a"], report_runs["b"]
    out = tmp_path / "checks"
    assert subprocess.run(check_cmd(pairs_a, out), cwd=tmp_path).returncode == 0
    middle_of_html = len(tree_b["checks.json"]) + len(tree_b["checks.html"]) // 2
    code = killed_mid_write(check_cmd(pairs_b, out), middle_of_html, tmp_path)
    assert code == -signal.SIGKILL
    assert tree(out) == tree_a
    assert leftovers(tmp_path) == []


# --- export -o FILE: replaced whole, nothing left beside it ---------------------------------

EXPORTS = {
    "json": [],
    "yaml": [],
    "tmx": [],
    "xliff": ["--target-lang", "ru"],
    "po": ["--target-lang", "ru"],
    "tbx": ["--glossary", str(CORPUS / "glossary.yaml")],
    "tsv": ["--glossary", str(CORPUS / "glossary.yaml")],
}


def export_cmd(fmt: str, target: Path) -> list[str]:
    build = ["--build", str(ROOT / "output"), "-o", str(target)]
    return [sys.executable, "-m", "pipeline", "export", "--format", fmt, *EXPORTS[fmt], *build]


@pytest.mark.parametrize("fmt", sorted(EXPORTS))
def test_an_export_killed_or_refused_mid_write_leaves_the_old_file_alone(tmp_path, fmt):
    target = tmp_path / f"export.{fmt}"
    done = subprocess.run(export_cmd(fmt, target), cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    size = target.stat().st_size
    target.write_bytes(b"previous\n")
    assert killed_mid_write(export_cmd(fmt, target), size // 2, tmp_path) == -signal.SIGKILL
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
    assert target.read_bytes() == b"previous\n"
    full = subprocess.run(
        export_cmd(fmt, target),
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=limits(file_size=size // 2),
    )
    result = subprocess.CompletedProcess([], full.returncode, full.stdout, full.stderr)
    assert_refused(result, rf"export\.{fmt}: cannot write: File too large .*nothing was changed")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
    assert target.read_bytes() == b"previous\n"
