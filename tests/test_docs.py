"""The documentation stays true: the generated parts equal what the code makes now, the
README stays short and complete, every link leads somewhere, and CI runs the README's test
command as written."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from pipeline.commands import COMMANDS

from .conftest import ROOT

README = ROOT / "README.md"
PAGES = [README, ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _tool():
    spec = importlib.util.spec_from_file_location("docs_tool", ROOT / "tests" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_docs_are_what_the_code_makes_now() -> None:
    stale = [
        str(path.relative_to(ROOT))
        for path, text in _tool().expected().items()
        if not path.exists() or path.read_text("utf-8") != text
    ]
    assert not stale, f"run .venv/bin/python tests/gen_docs.py: {stale} differ from the code"


def test_the_command_reference_has_every_command_and_option() -> None:
    text = (ROOT / "docs" / "commands.md").read_text("utf-8")
    for name in COMMANDS:
        assert f"\n## rulepipe {name}\n" in text, name
    assert "\n## rulepipe glossary suggest\n" in text
    assert "--xliff-version" in text and "--set X=VALUE" in text


def test_the_readme_is_short_and_lists_every_command() -> None:
    text = README.read_text("utf-8")
    assert len(text.splitlines()) < 250
    listed = re.findall(r"^\| `(\w+)", text, flags=re.M)
    assert sorted(set(listed)) == sorted(COMMANDS)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    blocks = re.findall(r"^```sh\n(.*?)^```", README.read_text("utf-8"), flags=re.S | re.M)
    tests = [b.strip() for b in blocks if "pytest" in b]
    assert len(tests) == 1
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert tests[0] in ci


def _anchors(path: Path) -> set[str]:
    """GitHub's ids of a Markdown file's headings."""
    headings = re.findall(r"^#+ (.+)$", path.read_text("utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_leads_to_a_file_and_heading(page: Path) -> None:
    for target in _LINK.findall(page.read_text("utf-8")):
        if re.match(r"\w+://", target):
            continue
        file, _, anchor = target.partition("#")
        path = (page.parent / file).resolve() if file else page
        assert path.exists(), f"{page.name}: {target}"
        if anchor:
            assert anchor in _anchors(path), f"{page.name}: {target}"


def test_every_benchmark_part_names_its_script_machine_and_date() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text("utf-8")
    parts = re.findall(r"^## .*\(`(\w+\.py)`\)\n\n`python tests/bench/(\w+\.py)[^`]*`, "
                       r"(\d{4}-\d\d-\d\d): (.+ cores.+)\.$", text, flags=re.M)  # fmt: skip
    assert len(parts) == text.count("\n## ")
    for script, ran, _, _ in parts:
        assert script == ran
        assert "add_flag(" in (ROOT / "tests" / "bench" / script).read_text("utf-8")


def test_the_alignment_page_names_every_unseen_drop_and_its_role() -> None:
    """docs/alignment.md lists the development and the held-out drops by name: a drop
    added, or moved out of the held-out set, must say so there."""
    import yaml

    text = " ".join((ROOT / "docs" / "alignment.md").read_text("utf-8").split())
    folder = ROOT / "tests" / "data" / "align" / "unseen"
    roles: dict[bool, list[str]] = {False: [], True: []}
    for path in sorted(folder.glob("*.yaml")):
        if not path.name.endswith(".terms.yaml"):
            roles[yaml.safe_load(path.read_text("utf-8"))["held_out"]].append(path.stem)
    for held, label in ((False, "Development drops"), (True, "Held out")):
        names = ", ".join(f"`{n}`" for n in roles[held])
        assert f"{label} ({len(roles[held])}): {names}" in text
