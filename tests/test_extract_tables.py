"""LotOW dice tables from 004: Markdown and prose tables, modifiers, chains, headings."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.extract.facts import Facts, extract_file
from pipeline.extract.tables import covers_exactly, prose_table
from pipeline.interpret.rules import Build, validate_effect, validate_table
from pipeline.interpret.tables import roll_table
from pipeline.model import Segment

LOTOW = "004_8c6b2bd97740666a.txt"


@pytest.fixture(scope="module")
def lotow(seed_segments) -> list[tuple[Segment, Facts]]:
    segs = [s for s in seed_segments if s.file == LOTOW]
    return list(zip(segs, extract_file(segs), strict=True))


def at_line(lotow, line: int) -> Facts:
    [f] = [f for s, f in lotow if s.lines[0] <= line <= s.lines[1]]
    return f


def ranges(f: Facts) -> list[tuple[int, int]]:
    assert f.table is not None
    return [tuple(r["range"]) for r in f.table["rows"]]


def test_jump_table(lotow):
    f = at_line(lotow, 30)
    assert f.kind == "table" and f.name == "Прыжок" and f.name_evidence == "table-lead-in"
    validate_table(f.table, "jump")
    assert f.table["die"] == "D6"
    assert ranges(f) == [(1, 1), (2, 6)] and covers_exactly(f.table["rows"], 6)
    assert [r["outcome"] for r in f.table["rows"]] == [
        "Не хочет",
        "С легкостью перепрыгивает барьер",
    ]
    assert {"by": -1, "when": "barrier-over-1in"} in f.table["modifiers"]
    assert f.table["natural"] == [{"value": 1, "chain": "padenie-s-loshadi", "when": "modified"}]
    # the text around it belongs to the same table rule
    assert at_line(lotow, 29).name == "Прыжок" and at_line(lotow, 33).name == "Прыжок"
    assert at_line(lotow, 33).name_evidence == "table-context"


def test_fall_table_named_by_heading(lotow):
    f = at_line(lotow, 44)
    assert (f.kind, f.name, f.name_evidence, f.id) == (
        "table",
        "Падение с лошади",
        "heading",
        "padenie-s-loshadi",
    )
    validate_table(f.table, "fall")
    assert ranges(f) == [(1, 1), (2, 5), (6, 6)] and covers_exactly(f.table["rows"], 6)
    assert f.table["rows"][0]["outcome"] == "Вылетел из седла"
    assert "Силой 2" in f.table["rows"][0]["text"]["ru"]


@pytest.mark.parametrize(
    ("line", "expected", "name", "name_en"),
    [
        (35, [(1, 1), (2, 5), (6, 6)], "Прямо в седло", "Saddle Up"),
        (7, [(1, 3), (4, 6)], "Броски распознания", "Spotting Rolls"),
        (19, [(1, 1), (2, 5), (6, 6)], "Верховые бойцы", None),
    ],
)
def test_prose_tables(lotow, line, expected, name, name_en):
    f = at_line(lotow, line)
    assert f.kind == "table" and (f.name, f.name_en) == (name, name_en)
    validate_table(f.table, str(line))
    assert ranges(f) == expected and covers_exactly(f.table["rows"], 6)
    assert all(r["outcome"] and not r["outcome"][0].isdigit() for r in f.table["rows"])


def test_spotting_outcomes_read_the_prose(lotow):
    rows = at_line(lotow, 7).table["rows"]
    assert rows[0]["outcome"].startswith("фигурку не видно")
    assert rows[1]["outcome"].startswith("лежащую фигурку видно")


def test_a_mere_mention_of_a_result_is_not_a_table(lotow):
    # line 33 speaks of results 1 and 2 but covers no die
    assert at_line(lotow, 33).table is None
    assert prose_table("Если выпадет 1, боец падает.", "ru") is None


def test_headings_name_their_paragraphs(lotow):
    assert at_line(lotow, 36).name_en == "Loose Mounts"
    assert at_line(lotow, 36).name_evidence == "parenthesised-english"
    for line in (37, 38, 39, 40):
        f = at_line(lotow, line)
        assert (f.name, f.name_en, f.name_evidence) == (
            "Убежавшие лошади",
            "Loose Mounts",
            "parenthesised-english",
        )
    assert at_line(lotow, 1).name is None  # nothing above the first heading


def test_passenger_falls_by_table_reference(lotow):
    f = at_line(lotow, 24)
    [ref] = [e for e in f.effects if e["op"] == "table"]
    validate_effect(ref, "24", "effects[0]")
    assert ref["table"] == at_line(lotow, 44).id and ref["when"] == "наездник убит"


def test_interpreter_rolls_the_extracted_chain(lotow, tmp_path: Path):
    """Write the two tables as rule files and let the interpreter follow the chain."""
    rules = tmp_path / "rules"
    rules.mkdir()
    jump, fall = at_line(lotow, 30), at_line(lotow, 44)
    for f in (jump, fall):
        data = {"id": f.id, "kind": "table", "names": {"ru": f.name}, "table": f.table}
        (rules / f"{f.id}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    build = Build(tmp_path)
    plain = {o.outcome: o.p for o in roll_table(build, jump.id)}
    assert plain == {"Не хочет": Fraction(1, 6), "С легкостью перепрыгивает барьер": Fraction(5, 6)}
    hard = {
        (o.table, o.outcome): o.p
        for o in roll_table(build, jump.id, conditions=["barrier-over-1in"])
    }
    # natural 1 -> fall table (1/6 spread over it); natural 2 -> 1 after -1 -> refuses
    assert hard[(fall.id, "Вылетел из седла")] == Fraction(1, 36)
    assert hard[(jump.id, "Не хочет")] == Fraction(1, 6)
    assert sum(hard.values()) == 1
