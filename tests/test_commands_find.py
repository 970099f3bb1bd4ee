"""`rules` and `show`: what a user types to see what a build holds, and the answers to a miss."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.lookup import closest, fold, search

from .conftest import ROOT, run_cli

RULES = [
    {"id": "ricochet", "kind": "special-rule", "names": {"en": "Ricochet", "ru": "Рикошет"}},
    {"id": "pryzhok", "kind": "table", "names": {"ru": "Прыжок"}},
    {"id": "great-weapon", "kind": "weapon", "names": {"en": "Great Weapon"}},
    {"id": "weapon-master", "kind": "special-rule", "names": {"en": "Weapon Master"}},
]


def test_search_matches_ids_and_names_in_any_language_and_case() -> None:
    assert [r["id"] for r in search(RULES, "рикошет")] == ["ricochet"]
    assert [r["id"] for r in search(RULES, "RICOCHET")] == ["ricochet"]
    assert [r["id"] for r in search(RULES, "прыж")] == ["pryzhok"]
    # every word must be found; a name that starts with the query ranks first
    assert [r["id"] for r in search(RULES, "weapon")] == ["weapon-master", "great-weapon"]
    assert [r["id"] for r in search(RULES, "weapon master")] == ["weapon-master"]
    assert [r["id"] for r in search(RULES, kind="table")] == ["pryzhok"]
    assert [r["id"] for r in search(RULES, lang="ru")] == ["pryzhok", "ricochet"]
    assert search(RULES, "nothing like it") == []


def test_fold_ignores_case_accents_and_yo() -> None:
    assert fold("Ещё") == fold("еще") and fold("Café") == "cafe"


def test_closest_ids_for_a_typo() -> None:
    assert closest("ricoshet", [r["id"] for r in RULES])[0] == "ricochet"
    assert closest("great", [r["id"] for r in RULES]) == ["great-weapon"]
    assert closest("zzz", [r["id"] for r in RULES]) == []


def test_rules_command_lists_the_bundled_build_and_searches_in_russian() -> None:
    found = run_cli("rules", "рикошет", "--json", "--build", str(ROOT / "output"))
    assert found.returncode == 0, found.stderr
    rows = json.loads(found.stdout)
    assert [r["id"] for r in rows] == ["ricochet"]
    assert rows[0]["names"] == {"en": "Ricochet", "ru": "Рикошет"}
    every = run_cli("rules", "--build", str(ROOT / "output"))
    manifest = json.loads((ROOT / "output" / "manifest.json").read_text("utf-8"))
    # a header line, then one tab-separated line per rule when not on a terminal
    assert len(every.stdout.splitlines()) == 1 + sum(manifest["counts"]["rules"].values())


def test_show_prints_both_languages_and_suggests_on_a_miss() -> None:
    page = run_cli("show", "ricochet", "--build", str(ROOT / "output"))
    assert page.returncode == 0, page.stderr
    assert "Models with Ricochet" in page.stdout and "Модели с правилом Рикошет" in page.stdout
    assert "cannot Charge" in page.stdout  # an effect with the words it came from
    by_name = run_cli("show", "Рикошет", "--json", "--build", str(ROOT / "output"))
    assert json.loads(by_name.stdout)["id"] == "ricochet"
    miss = run_cli("show", "ricoshet", "--build", str(ROOT / "output"))
    assert miss.returncode == 2
    assert "did you mean: ricochet" in miss.stderr


def test_unknown_language_code_is_refused() -> None:
    bad = run_cli("rules", "--lang", "xx", "--build", str(ROOT / "output"))
    assert bad.returncode == 2 and "unknown language 'xx'" in bad.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["rules"],
        ["roll", "100D6"],
        ["attack", str(ROOT / "corpus" / "examples" / "attack.yaml")],
        ["show", "ricochet"],
    ],
)
def test_a_closed_pipe_is_not_a_failure(args: list[str]) -> None:
    """`rulepipe attack s.yaml | head -1`: the reader stops early; that is exit 0. The
    reading end is closed before the command writes, so every write meets a closed pipe."""
    build = [] if args[0] == "roll" else ["--build", str(ROOT / "output")]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args, *build],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    assert b"Traceback" not in proc.stderr.read()


def test_one_message_for_a_missing_build_in_every_command(tmp_path: Path) -> None:
    nope = str(tmp_path / "nope")
    for args in (
        ["table", "pryzhok"],
        ["export", "--format", "json"],
        ["glossary", "suggest"],
        ["charge", "--distance", "5", "--advance", "5", "--rules", "swiftstride"],
        ["rules"],
        ["show", "ricochet"],
    ):
        done = run_cli(*args, "--build", nope)
        assert done.returncode == 2, args
        assert (
            done.stderr == f"rulepipe: error: {nope}: no build folder here;"
            " run `rulepipe build` or pass --build\n"
        ), args


def test_a_mistyped_table_id_gets_the_closest_ids() -> None:
    done = run_cli("table", "ricoshet", "--build", str(ROOT / "output"))
    assert done.returncode == 2
    assert "no rule 'ricoshet' in this build; did you mean: ricochet" in done.stderr
