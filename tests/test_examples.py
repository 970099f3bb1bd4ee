"""Every example a user reads runs as written: the command blocks of the README and of docs/,
and the examples in each command's --help, against a copy of the bundled corpus and its
build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.commands import COMMANDS

from .conftest import ROOT, run_cli

SETUP = ("python3 -m venv", "(command -v", ".venv/bin/", ". .venv/bin/")  # setup, not usage

SHELL = f'rulepipe() {{ PYTHONPATH="{ROOT}" "{sys.executable}" -m pipeline "$@"; }}\n'


def readme_blocks(path: Path = ROOT / "README.md") -> list[list[str]]:
    text = path.read_text("utf-8")
    blocks = []
    for body in re.findall(r"^\s*```sh\n(.*?)^\s*```", text, flags=re.S | re.M):
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if lines and not any(line.startswith(SETUP) for line in lines):
            blocks.append(lines)
    return blocks


def help_examples() -> list[str]:
    """The lines under `example:` / `examples:` of every --help, without their remarks."""
    found = []
    for name in COMMANDS:
        text = run_cli(name, "--help").stdout
        for section in re.findall(r"^examples?:\n((?:  .*\n?)+)", text, flags=re.M):
            for line in section.splitlines():
                command = re.sub(r"\s{2,}\(.*\)$", "", line.strip())
                if command.startswith("rulepipe "):
                    found.append(command)
    return found


def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder laid out like a clone: the corpus and the committed build beside it."""
    work = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "corpus", work / "corpus")
    shutil.copytree(ROOT / "output", work / "output")
    return work


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return clone(tmp_path_factory)


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", SHELL + line],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_the_readme_has_runnable_examples() -> None:
    lines = [line for block in readme_blocks() for line in block]
    assert sum(line.startswith("rulepipe ") for line in lines) >= 15
    placeholders = [line for line in lines if re.search(r"\b[A-Z]{3,}\b(?!\.)|\[-", line)]
    assert not placeholders, f"examples with placeholders: {placeholders}"


def run_blocks(blocks: list[list[str]], cwd: Path) -> None:
    for block in blocks:
        for line in block:
            done = run_line(line, cwd)
            allowed = (0, 1) if line.startswith("rulepipe check") else (0,)  # 1: findings
            assert done.returncode in allowed, f"{line}\n{done.stderr}"
            assert "Traceback" not in done.stderr, line


def test_every_readme_example_runs(workdir: Path) -> None:
    run_blocks(readme_blocks(), workdir)


DOCS = [p for p in sorted((ROOT / "docs").glob("*.md")) if readme_blocks(p)]


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_every_example_of_the_docs_runs(path: Path, tmp_path_factory) -> None:
    """Each file's examples in order, in a clone of its own (they may build into it)."""
    run_blocks(readme_blocks(path), clone(tmp_path_factory))


def test_every_help_example_runs(workdir: Path) -> None:
    examples = help_examples()
    assert len(examples) >= 10
    for line in examples:
        done = run_line(line, workdir)
        allowed = (0, 1) if line.startswith("rulepipe check") else (0,)  # 1: findings
        assert done.returncode in allowed, f"{line}\n{done.stderr}"
        assert "Traceback" not in done.stderr, line


def test_the_scenario_in_attack_help_runs_on_the_bundled_build(tmp_path: Path) -> None:
    text = run_cli("attack", "--help").stdout
    block = re.search(r"^a scenario.*?:\n((?:  .*\n)+)", text, flags=re.M)
    assert block is not None
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(textwrap.dedent(block.group(1)), "utf-8")
    done = run_cli("attack", str(scenario), "--json", "--build", str(ROOT / "output"))
    assert done.returncode == 0, done.stderr
