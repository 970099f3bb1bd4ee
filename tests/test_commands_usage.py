"""Usage a careless user gets wrong: refused with exit 2 and a reason, never ignored."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import ROOT, run_cli


def test_pairs_and_build_together_are_refused(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    line = {"id": "p", "source": "Roll a D6.", "target": "Бросьте D6.", "source_lang": "en",
            "target_lang": "ru"}  # fmt: skip
    pairs.write_text(json.dumps(line, ensure_ascii=False) + "\n", "utf-8")
    done = run_cli("check", "--pairs", str(pairs), "--build", str(ROOT / "output"))
    assert done.returncode == 2
    assert "either --pairs FILE or --build DIR, not both" in done.stderr
    alone = run_cli("check", "--pairs", str(pairs), "-o", str(tmp_path / "r"))
    assert alone.returncode == 0, alone.stderr


def test_extract_refuses_a_language_it_has_no_data_for(tmp_path: Path) -> None:
    lines = tmp_path / "in.jsonl"
    rows = [{"id": "a", "text": "Roll a D6.", "lang": "en"},
            {"id": "b", "text": "Wirf einen W6.", "lang": "de"}]  # fmt: skip
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    done = run_cli("extract", str(lines))
    assert done.returncode == 2
    assert f"{lines}:2: no extraction data for language 'de'; use one of en, it, ru" in done.stderr
    assert done.stdout == ""  # nothing half printed


def test_build_help_names_every_reader_and_output() -> None:
    text = run_cli("build", "--help").stdout
    for word in ("TMX", "XLIFF", "BattleScribe", "alignments.json", "manifest.json"):
        assert word in text


def test_a_build_leaves_nothing_beside_its_output_folder(tmp_path: Path) -> None:
    done = run_cli("build", str(ROOT / "corpus"), "-o", str(tmp_path / "out"), "-q")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_an_unknown_when_is_refused_with_what_the_table_knows() -> None:
    build = str(ROOT / "output")
    table = run_cli("table", "trudnaya-mestnost-i-prepyatstviya", "--when", "foo", "--build", build)
    assert table.returncode == 2
    assert "no situation 'foo'; it knows: barrier-over-1in, gap-over-2in" in table.stderr
    charge = run_cli(
        "charge", "--distance", "9", "--advance", "5", "--rules", "swiftstride", "--when", "x",
        "--build", build,
    )  # fmt: skip
    assert charge.returncode == 2 and "no situation 'x'" in charge.stderr


def test_a_pair_in_an_unknown_language_is_refused(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    line = {"id": "p", "source": "Roll a D6.", "target": "Бросьте D6.", "source_lang": "en",
            "target_lang": "xx"}  # fmt: skip
    pairs.write_text(json.dumps(line) + "\n", "utf-8")
    done = run_cli("check", "--pairs", str(pairs), "-o", str(tmp_path / "r"))
    assert done.returncode == 2
    assert f"{pairs}:1: target_lang 'xx' is no language code it knows" in done.stderr
