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


ENGLISH_TABLE = """\
# FALLING FROM A HORSE

When a rider is hit, roll a D6 on the table below.

| D6 | Result |
| 1 | Thrown - the rider lands on his head and suffers a Strength 2 hit. |
| 2-5 | Falls - the rider drops next to the horse and cannot move this turn. |
| 6 | Lands well - the rider jumps down and fights on as normal. |
"""
RUSSIAN_TABLE = """\
# ПАДЕНИЕ С ЛОШАДИ

Если наездник ранен, бросьте D6 по таблице ниже.

| D6 | Результат |
| 1 | Вылетел из седла - наездник падает на голову и получает удар с Силой 2. |
| 2-5 | Падает - наездник оказывается рядом с лошадью и не может двигаться в этот ход. |
| 6 | Легко соскакивает - наездник спрыгивает и сражается как обычно. |
"""
BOTH = [("Thrown", "Вылетел из седла"), ("Falls", "Падает"), ("Lands well", "Легко соскакивает")]


@pytest.fixture(scope="module")
def two_language_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A build of one English dice table and its Russian translation, and the table's id."""
    root = tmp_path_factory.mktemp("tables")
    drop = root / "corpus" / "drops" / "book"
    drop.mkdir(parents=True)
    (drop / "en.md").write_text(ENGLISH_TABLE, "utf-8")
    (drop / "ru.md").write_text(RUSSIAN_TABLE, "utf-8")
    done = run_cli("build", str(root / "corpus"), "-o", str(root / "out"))
    assert done.returncode == 0, done.stderr
    rules = json.loads((root / "out" / "rules.json").read_text("utf-8"))
    (table,) = [r for r in rules if r.get("table") and "en" in r["names"]]
    return root / "out", table["id"]


def test_table_prints_each_outcome_in_english_beside_russian(
    two_language_build: tuple[Path, str],
) -> None:
    build, rule = two_language_build
    done = run_cli("table", rule, "--build", str(build), env={"COLUMNS": "160"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    header = next(line for line in lines if " en " in line)
    assert header.index(" en ") < header.index(" ru ") and "outcome" not in header
    for english, russian in BOTH:
        (line,) = [x for x in lines if f" {english} " in x]
        assert russian in line and line.index(english) < line.index(russian)
    doc = json.loads(run_cli("table", rule, "--json", "--build", str(build)).stdout)
    by_lang = {o["outcome"]: o["by_lang"] for o in doc["outcomes"]}
    assert by_lang == {en: {"en": en, "ru": ru} for en, ru in BOTH}


def test_show_of_a_table_gives_each_row_in_both_languages(
    two_language_build: tuple[Path, str],
) -> None:
    build, rule = two_language_build
    page = run_cli("show", rule, "--build", str(build), env={"COLUMNS": "200"})
    assert page.returncode == 0, page.stderr
    (row,) = [x for x in page.stdout.splitlines() if x.lstrip().startswith("2-5")]
    assert "Falls - the rider drops" in row and "Падает - наездник" in row
    stored = json.loads(run_cli("show", rule, "--json", "--build", str(build)).stdout)
    assert [sorted(r["text"]) for r in stored["table"]["rows"]] == [["en", "ru"]] * 3


def test_a_table_in_one_language_keeps_one_outcome_column() -> None:
    """The bundled LotOW tables are Russian with no English counterpart."""
    rules = json.loads((ROOT / "output" / "rules.json").read_text("utf-8"))
    alone = [r for r in rules if r.get("table") and r["table"]["rows"][0].get("text")]
    rule = next(r for r in alone if all(len(row["text"]) == 1 for row in r["table"]["rows"]))
    done = run_cli("table", rule["id"], "--build", str(ROOT / "output"), env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if "outcome" in line)
    assert " en " not in header and " ru " not in header
    for row in rule["table"]["rows"]:
        assert row["outcome"] in done.stdout
    doc = json.loads(run_cli("table", rule["id"], "--json", "--build", "output").stdout)
    assert all(set(o["by_lang"]) == set(rule["table"]["rows"][0]["text"]) for o in doc["outcomes"])


@pytest.fixture(scope="module")
def realm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from .helpers.battlescribe import build_fixtures

    return build_fixtures(tmp_path_factory.mktemp("realm"), "combat.gst", "realm.cat")


def test_rules_lists_units_and_not_their_model_profiles(realm: Path) -> None:
    every = json.loads(run_cli("rules", "--build", str(realm), "--json").stdout)
    kinds = {r["kind"] for r in every}
    assert "unit" in kinds and "model-profile" not in kinds
    rules = json.loads((realm / "rules.json").read_text("utf-8"))
    profiles = [r["id"] for r in rules if r["kind"] == "model-profile"]
    assert "yeoman-offensive" in profiles  # in the bundle, a part of its unit
    assert not {r["id"] for r in every} & set(profiles)
    units = json.loads(run_cli("rules", "--kind", "unit", "--build", str(realm), "--json").stdout)
    assert [u["id"] for u in units] == [
        "bolt-engine",
        "golems",
        "lord",
        "outriders",
        "shades",
        "steel-wardens",
        "wardens",
        "yeomen",
    ]
    found = json.loads(run_cli("rules", "yeom", "--build", str(realm), "--json").stdout)
    assert [r["id"] for r in found] == ["yeomen"]  # not "Yeoman Global", "Yeoman Offensive" ...


def test_an_unknown_kind_is_refused_with_the_kinds(realm: Path) -> None:
    done = run_cli("rules", "--kind", "unti", "--build", str(realm))
    assert done.returncode == 2
    assert "did you mean: unit?" in done.stderr and "weapon" in done.stderr


def test_show_a_unit_with_its_parts_options_and_mounts(realm: Path) -> None:
    page = run_cli("show", "lord", "--build", str(realm)).stdout
    assert "size 1 models" in page and "points 120 pts" in page
    assert "Warlance (warlance), 10 pts" in page
    # each mount with its points and the parts it makes; Arm C+2 on the Lord's 1 is 3
    assert "mount: Destrier (Mount), 40 pts" in page
    destrier = page.split("mount: Destrier")[1].split("mount: Wyrm")[0]
    lord_row = next(x for x in destrier.splitlines() if x.startswith("Lord\t"))
    header = next(x for x in page.splitlines() if x.startswith("part\t")).split("\t")
    assert lord_row.split("\t")[header.index("Arm")] == "3"
    assert "the data states no profile for it" in page.split("Cloud Chariot")[1]
    unit = json.loads(run_cli("show", "unit:yeomen", "--build", str(realm), "--json").stdout)
    assert unit["size"] == {"min": 10, "max": 30}
    # a model profile names the unit it belongs to
    done = run_cli("show", "yeoman-offensive", "--build", str(realm))
    assert done.returncode == 2 and "rulepipe show unit:yeomen" in done.stderr
