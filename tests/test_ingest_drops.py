"""Several drops in one corpus: drop.yaml, language hints, the newer drop wins."""

from __future__ import annotations

import json

import yaml

from pipeline.build import build

from .conftest import SEED, run_cli

SEED = SEED / "002_c7ff2043f171b6ae.txt"


def _paragraph(start: str) -> str:
    return next(line for line in SEED.read_text("utf-8").splitlines() if line.startswith(start))


def _corpus(tmp_path):
    """`a-current` (dated 2025) carries today's Fear and Stubborn; `b-old` (dated 2023,
    though its folder sorts later) an older Fear with -2 and a Stubborn with another
    sentence. Dates, not folder names, say which is newer."""
    fear = _paragraph("Units in base contact with one or more enemy models with Fear")
    stubborn = _paragraph("A unit with at least one model with Stubborn")
    old_fear = fear.replace("suffer -1 Discipline", "suffer -2 Discipline")
    old_stubborn = stubborn + " Stubborn units never lose their Steadfast due to Terrain."
    corpus = tmp_path / "corpus"
    for folder, meta, texts in (
        (
            "a-current",
            {"name": "Rulebook", "version": "2.1.5", "date": "2025-01-10"},
            [fear, stubborn],
        ),
        (
            "b-old",
            {"name": "Rulebook", "version": "2.0", "date": "2023-05-01"},
            [old_fear, old_stubborn],
        ),
    ):
        folder_path = corpus / "drops" / folder
        folder_path.mkdir(parents=True)
        (folder_path / "drop.yaml").write_text(yaml.safe_dump(meta), "utf-8")
        (folder_path / "rules.txt").write_text("\n\n".join(texts) + "\n", "utf-8")
    return corpus, fear, old_fear, stubborn, old_stubborn


def test_the_newer_drop_wins_and_the_older_text_is_history(tmp_path):
    corpus, fear, old_fear, stubborn, old_stubborn = _corpus(tmp_path)
    result = build(corpus, tmp_path / "out")
    rules = {r["id"]: r for r in result.rules}
    assert sorted(rules) == ["fear", "stubborn"]
    assert rules["fear"]["texts"]["en"]["text"] == fear
    assert [(h["drop"], h["version"], h["date"], h["text"]) for h in rules["fear"]["history"]] == [
        ("b-old", "2.0", "2023-05-01", old_fear)
    ]
    assert rules["stubborn"]["texts"]["en"]["text"] == stubborn
    assert [h["text"] for h in rules["stubborn"]["history"]] == [old_stubborn]
    fear_quantities = [q["value"] for q in rules["fear"]["quantities"] if q["type"] == "modifier"]
    assert fear_quantities == [-1]
    manifest = result.manifest
    assert [(d["folder"], d["rank"]) for d in manifest["drops"]] == [("a-current", 1), ("b-old", 0)]
    acc = manifest["accounting"]
    assert acc["balanced"] and acc["unassigned"] == 0 and acc["blocks"] == 4


def test_language_hints_and_bad_drop_metadata(tmp_path):
    corpus = tmp_path / "corpus"
    drop = corpus / "drops" / "tm"
    drop.mkdir(parents=True)
    # two words lingua cannot place with confidence; the drop says they are Italian
    (drop / "short.txt").write_text("armatura +3\n", "utf-8")
    (drop / "drop.yaml").write_text("languages: {'short.txt': it}\n", "utf-8")
    result = build(corpus, tmp_path / "out")
    assert [s.lang for s in result.ingested.segments] == ["it"]
    (drop / "drop.yaml").write_text("date: yesterday\n", "utf-8")
    before = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    bad = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert bad.returncode == 2
    assert "drop.yaml" in bad.stderr and "date" in bad.stderr and "Traceback" not in bad.stderr
    after = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert before == after
