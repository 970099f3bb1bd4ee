"""`rulepipe check` as a translator runs it: the seed Ricochet against the English master,
the master alone, pairs files and glossaries that are broken, reports that validate."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.check import CHECK_IDS, Pair, run_checks
from pipeline.errors import InputError
from pipeline.glossary import load_glossary
from pipeline.schemas import validator
from tests.conftest import CORPUS, SEED, run_cli

RU_FILE = "000_745db052e7f633dc.txt"
EN_FILE = "002_c7ff2043f171b6ae.txt"


def _ricochet() -> tuple[str, str]:
    """The English Ricochet paragraph of 002 and the Russian Ricochet of 000, as in the seeds."""
    ru = (SEED / RU_FILE).read_text("utf-8").strip()
    paragraphs = [p.strip() for p in (SEED / EN_FILE).read_text("utf-8").split("\n\n")]
    en = next(p for p in paragraphs if "Ricochet" in p)
    return en, ru


def _write_pairs(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _ricochet_pairs(tmp_path: Path) -> Path:
    en, ru = _ricochet()
    row = {"id": "ricochet", "source": en, "target": ru, "source_lang": "en", "target_lang": "ru"}
    return _write_pairs(tmp_path / "pairs.jsonl", [row])


def test_ricochet_homoglyphs_unit_spacing_and_no_quantity_findings(tmp_path):
    pairs = _ricochet_pairs(tmp_path)
    out = tmp_path / "report"
    res = run_cli("check", "--pairs", str(pairs), "-o", str(out), cwd=Path(CORPUS).parent)
    assert res.returncode == 1, res.stderr  # homoglyphs are errors
    data = json.loads((out / "checks.json").read_text("utf-8"))
    assert not list(validator("checks").iter_errors(data))
    _, ru = _ricochet()
    findings = data["findings"]
    homoglyphs = [f for f in findings if f["check"] == "homoglyph"]
    # Each marks a Cyrillic Х of the Russian text; the seed has three of them.
    marked = {tuple(f["target_span"]) for f in homoglyphs}
    cyrillic_x = {
        (i, i + 1) for i, ch in enumerate(ru) if ch == "Х" and not ru[i + 1 : i + 2].isalpha()
    }
    assert len(cyrillic_x) == 3
    assert marked == cyrillic_x
    assert all(f["expected"] == "X" for f in homoglyphs)
    spacing = [
        f
        for f in findings
        if f["check"] in ("glossary", "inconsistent_translation")
        and "расстояния между отрядами" in ru[slice(*f["target_span"])].lower()
    ]
    # one finding for the one wrong rendering: the glossary's error, not also a warning
    # that the term is rendered otherwise "elsewhere" in the same text
    assert [(f["check"], f["severity"]) for f in spacing] == [("glossary", "error")]
    assert ru[slice(*spacing[0]["target_span"])] == "Правило расстояния между отрядами"
    assert spacing[0]["expected"] == "правило Расстояния между отрядами"
    quantity_checks = {"number_mismatch", "dice_mismatch", "distance_mismatch"}
    assert not [f for f in findings if f["check"] in quantity_checks]


def test_master_doubled_words_and_house_spelling():
    en = (SEED / EN_FILE).read_text("utf-8")
    master = [Pair(f"002#{i}", p, None, "en") for i, p in enumerate(en.split("\n\n")) if p.strip()]
    report = run_checks([], load_glossary(CORPUS / "glossary.yaml"), master)
    doubled = {f.found.lower() for f in report.findings if f.check == "doubled_word"}
    assert doubled == {"with with", "the the"}
    spelling = [f for f in report.findings if f.check == "spelling_variant"]
    assert spelling and {f.found for f in spelling} == {"Armor"}
    assert {f.expected for f in spelling} == {"Armour"}
    for f in spelling:
        text = next(p.source for p in master if p.id == f.pair_id)
        assert text[slice(*f.source_span)] == "Armor"


def test_build_mode_reads_linked_pairs_and_master_segments(seed_build, tmp_path):
    out = tmp_path / "output"
    shutil.copytree(seed_build.out, out)
    segs = [json.loads(line) for line in (out / "segments.jsonl").read_text("utf-8").splitlines()]
    en, ru = _ricochet()
    en_id = next(s["id"] for s in segs if s["raw"] == en)
    ru_id = next(s["id"] for s in segs if s["raw"].strip() == ru)
    links = {
        "links": [
            {
                "id": "l-000000000001",
                "status": "linked",
                "score": 0.9,
                "source": en_id,
                "source_lang": "en",
                "target": ru_id,
                "target_lang": "ru",
                "sentences": [],
            },
            {
                "id": "l-000000000002",
                "status": "unlinked",
                "score": 0.1,
                "source": None,
                "source_lang": "en",
                "target": ru_id,
                "target_lang": "ru",
                "sentences": [],
            },
        ],
        "summary": {
            "links": 2,
            "by_status": {"linked": 1, "ambiguous": 0, "unlinked": 1},
            "by_lang": {"ru": 2},
            "sentence_beads": {},
        },
    }
    for link in links["links"]:  # the other fields alignments.schema.json requires
        link |= {"source_cluster": None, "target_cluster": "c-1", "rule": None}
        link |= {"evidence": {}, "alternatives": []}
    (out / "alignments.json").write_text(json.dumps(links), "utf-8")
    rep = tmp_path / "rep"
    res = run_cli(
        "check",
        "--build",
        str(out),
        "-o",
        str(rep),
        "--format",
        "json",
        "--fail-on",
        "never",
        cwd=Path(CORPUS).parent,
    )
    assert res.returncode == 0, res.stderr
    data = json.loads((rep / "checks.json").read_text("utf-8"))
    assert data["summary"]["pairs"] == 1
    alone = {p["id"] for p in data["pairs"] if p["target"] is None}
    assert alone == {s["id"] for s in segs if s["lang"] == "en" or s["id"] != ru_id}
    assert data["summary"]["segments"] == len(segs) - 1
    by_pair = {f["pair_id"] for f in data["findings"] if f["check"] == "homoglyph"}
    assert by_pair == {"l-000000000001"}
    doubled = [f for f in data["findings"] if f["check"] == "doubled_word"]
    assert doubled and all(f["pair_id"] in {s["id"] for s in segs} for f in doubled)


def test_fail_on_levels_and_formats(tmp_path):
    pairs = _ricochet_pairs(tmp_path)
    cwd = Path(CORPUS).parent
    never = run_cli(
        "check",
        "--pairs",
        str(pairs),
        "-o",
        str(tmp_path / "a"),
        "--fail-on",
        "never",
        "--format",
        "text",
        cwd=cwd,
    )
    assert never.returncode == 0
    assert "homoglyph" in never.stdout and not (tmp_path / "a" / "checks.json").exists()
    clean = _write_pairs(
        tmp_path / "clean.jsonl",
        [
            {
                "id": "p1",
                "source": "The model gains Insignificant.",
                "target": "Модель получает правило Незначительный.",
                "source_lang": "en",
                "target_lang": "ru",
            }
        ],
    )
    ok = run_cli("check", "--pairs", str(clean), "-o", str(tmp_path / "b"), cwd=cwd)
    assert ok.returncode == 0, ok.stdout
    assert json.loads((tmp_path / "b" / "checks.json").read_text())["findings"] == []
    warn = _write_pairs(
        tmp_path / "warn.jsonl",
        [
            {
                "id": "p1",
                "source": "The model gains Insignificant.",
                "target": "Модель  получает правило Незначительный.",
                "source_lang": "en",
                "target_lang": "ru",
            }
        ],
    )
    assert (
        run_cli("check", "--pairs", str(warn), "-o", str(tmp_path / "c"), cwd=cwd).returncode == 0
    )
    res = run_cli(
        "check", "--pairs", str(warn), "-o", str(tmp_path / "c"), "--fail-on", "warning", cwd=cwd
    )
    assert res.returncode == 1 and "whitespace" in res.stdout


_ROW = '{"id": "a", "source": "x", "target": "y", "source_lang": "en", "target_lang": "ru"}'


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (
            '{"id": "a", "source": "x", "target": "y", "source_lang": "en", "target_lang": "ru"}\n'
            "{not json\n",
            ":2",
        ),
        (
            _ROW + '\n\n{"id": "b", "source": "x", "source_lang": "en", "target_lang": "ru"}\n',
            ":3",
        ),
        (
            '{"id": "a", "source": "x", "target": "y", "source_lang": "en", "target_lang": "ru"}\n'
            '{"id": "a", "source": "x", "target": "y", "source_lang": "en", "target_lang": "ru"}\n',
            ":2",
        ),
        ("[1, 2]\n", ":1"),
    ],
)
def test_broken_pairs_file_exits_2_naming_the_line(tmp_path, content, where):
    path = tmp_path / "pairs.jsonl"
    path.write_text(content, "utf-8")
    out = tmp_path / "out"
    res = run_cli("check", "--pairs", str(path), "-o", str(out), cwd=tmp_path)
    assert res.returncode == 2
    assert f"{path}{where}" in res.stderr and "Traceback" not in res.stderr
    assert not out.exists()


def test_tsv_glossary_terms_in_any_inflected_form(tmp_path):
    tsv = tmp_path / "terms.tsv"
    tsv.write_text("en\tru\nOpen Terrain\tОткрытый ландшафт\nHand Weapon\tРучное оружие\n", "utf-8")
    g = load_glossary(tsv)
    assert [t.id for t in g.terms] == ["open-terrain", "hand-weapon"]
    good = Pair("g", "Treat it as Open Terrain.", "Считайте его Открытым ландшафтом.", "en", "ru")
    bad = Pair("b", "Treat it as Open Terrain.", "Считайте его открытой местностью.", "en", "ru")
    found = run_checks([good, bad], g).findings
    assert [(f.pair_id, f.check) for f in found if f.check == "glossary"] == [("b", "glossary")]
    assert next(f for f in found if f.check == "glossary").expected == "Открытый ландшафт"


@pytest.mark.parametrize(
    ("content", "line"),
    [
        ("en\tru\nCharge\tНападение\n\tАтака\n", "3"),
        ("en\tru\nCharge\tНападение\ncharge\tатака\n", "3"),
        ("en\tru\nCharge\tНападение\tлишнее\n", "2"),
        ("en\tрусский\nCharge\tНападение\n", "1"),
    ],
)
def test_broken_tsv_glossary_names_the_line(tmp_path, content, line):
    tsv = tmp_path / "g.tsv"
    tsv.write_text(content, "utf-8")
    with pytest.raises(InputError) as err:
        load_glossary(tsv)
    assert err.value.where == line
    pairs = _ricochet_pairs(tmp_path)
    res = run_cli(
        "check",
        "--pairs",
        str(pairs),
        "--glossary",
        str(tsv),
        "-o",
        str(tmp_path / "o"),
        cwd=tmp_path,
    )
    assert res.returncode == 2 and f"{tsv}:{line}" in res.stderr


def test_quantities_are_compared_as_the_extractor_reads_them():
    def checks(source: str, target: str) -> set[str]:
        return {f.check for f in run_checks([Pair("p", source, target, "en", "ru")]).findings}

    same = 'within 1" of the unit.'
    assert not checks(same, "в пределах 1″ от отряда.")
    assert not checks(same, "в пределах 1 дюйма от отряда.")
    assert checks(same, 'в пределах 2" от отряда.') == {"distance_mismatch"}
    assert checks("It suffers X+D6 hits.", "Он получает Х+D6 попаданий.") == {"homoglyph"}
    style = run_checks([Pair("p", "Roll a D6.", "Бросьте Д6.", "en", "ru")]).findings
    assert [(f.check, f.severity) for f in style] == [("dice_mismatch", "info")]
    assert checks("Roll a D6.", "Бросьте D3.") == {"dice_mismatch"}
    # a modifier of another size is a quantity difference, and one that plays differently:
    # effect_mismatch adds what the difference does in a reference fight
    assert checks("It gains +2 Strength.", "Он получает +1 к Силе.") == {
        "modifier_mismatch",
        "effect_mismatch",
    }
    assert "modifier_mismatch" in checks(
        "It suffers -1 Discipline.", "Он получает +1 к Дисциплине."
    )
    assert checks("Area Attack (1×5).", "Атака по площади (1х5).") == {"homoglyph"}


def test_a_translators_note_or_footnote_is_no_number_of_the_rule():
    def checks(source: str, target: str) -> set[str]:
        return {f.check for f in run_checks([Pair("p", source, target, "en", "ru")]).findings}

    source = "The unit gains +1 Strength until the end of the turn."
    note = "Отряд получает +1 к Силе до конца хода [прим. пер.: в прошлой редакции было +2 и 6″]."
    assert not checks(source, note)
    footnote = "Отряд получает +1 к Силе до конца хода¹. ¹ В прошлой редакции было +2 и 6″."
    assert not checks(source, footnote)
    # the rule's own numbers are still compared, with a note beside them
    assert "modifier_mismatch" in checks(source, note.replace("+1", "+3", 1))
    # footnotes on lines of their own, opening with the mark of their reference
    for marked in (
        "Отряд получает +1[1] к Силе до конца хода.\n[1] В прошлой редакции было +2 и 6″.",
        "Отряд получает +1* к Силе до конца хода.\n* В прошлой редакции было +2 и 6″.",
        "Отряд получает +1 к Силе² до конца хода.\n² Было +2.\n³ Было 6″.",
    ):
        assert not checks(source, marked), marked
    # a mark the text before it does not carry opens no footnote: its numbers are compared
    assert checks(source, "Отряд получает +1 к Силе до конца хода.\n[1] Было +2.")


def test_reports_are_written_atomically_and_every_check_id_is_in_the_schema(tmp_path):
    schema = json.loads((Path(CORPUS).parent / "schemas" / "checks.schema.json").read_text())
    assert schema["$defs"]["check"]["enum"] == list(CHECK_IDS)
    pairs = _ricochet_pairs(tmp_path)
    out = tmp_path / "r"
    out.mkdir()
    (out / "checks.json").write_text("old", "utf-8")
    run_cli("check", "--pairs", str(pairs), "-o", str(out), cwd=tmp_path)
    assert sorted(p.name for p in out.iterdir()) == ["checks.html", "checks.json"]
    assert json.loads((out / "checks.json").read_text())["summary"]["pairs"] == 1


def test_a_repeated_pair_id_names_both_lines(tmp_path: Path) -> None:
    from pipeline.check.pairs import read_pairs

    row = {"source": "Roll a D6.", "target": "Бросьте D6.", "source_lang": "en"}
    lines = [
        json.dumps({"id": "a", **row, "target_lang": "ru"}),
        "",
        json.dumps({"id": "b", **row, "target_lang": "ru"}),
        json.dumps({"id": "a", **row, "target_lang": "ru"}),
        json.dumps({"id": "c", **row, "target_lang": "xx"}),
    ]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    with pytest.raises(InputError) as repeated:
        read_pairs(path)
    assert str(repeated.value) == f"{path}:4: pair id 'a' repeated (first on line 1)"
    path.write_text("\n".join(lines[:3] + lines[4:]) + "\n", "utf-8")
    with pytest.raises(InputError) as unknown:
        read_pairs(path)
    assert str(unknown.value).startswith(f"{path}:4: target_lang 'xx' is no language code")
