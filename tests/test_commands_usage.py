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
