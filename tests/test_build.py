"""`rulepipe build` as a user runs it: output, determinism, bad input, help."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.schemas import validator

from .conftest import CORPUS, ROOT, SEED, run_cli


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_committed_output_is_what_build_makes(tmp_path):
    result = run_cli("build", str(CORPUS), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    fresh, committed = tree(tmp_path / "out"), tree(ROOT / "output")
    assert sorted(fresh) == sorted(committed)
    for name in fresh:
        assert fresh[name] == committed[name], f"output/{name} differs from a fresh build"


def test_builds_are_byte_identical_whatever_the_file_order_and_hash_seed(tmp_path):
    reordered = tmp_path / "corpus"
    (reordered / "drops" / "seed").mkdir(parents=True)
    shutil.copy(CORPUS / "glossary.yaml", reordered / "glossary.yaml")
    for src in sorted(SEED.iterdir(), reverse=True):  # created in the other order
        shutil.copy(src, reordered / "drops" / "seed" / src.name)
    a = run_cli("build", str(CORPUS), "-o", str(tmp_path / "a"), env={"PYTHONHASHSEED": "1"})
    b = run_cli("build", str(reordered), "-o", str(tmp_path / "b"), env={"PYTHONHASHSEED": "977"})
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_outputs_validate_and_manifest_accounts_for_every_block(seed_build):
    out = seed_build.out
    lines = (out / "segments.jsonl").read_text("utf-8").splitlines()
    check = validator("segment")
    assert len(lines) == 155
    for line in lines:
        check.validate(json.loads(line))
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    validator("manifest").validate(manifest)
    counts = manifest["counts"]
    assert counts["by_file"]["seed/002_c7ff2043f171b6ae.txt"] == {
        "by_kind": {"paragraph": 112},
        "by_lang": {"en": 110, "it": 2},
    }
    assert counts["by_file"]["seed/004_8c6b2bd97740666a.txt"]["by_kind"] == {
        "heading": 11,
        "paragraph": 29,
        "table": 2,
    }
    acc = manifest["accounting"]
    assert acc["blocks"] == 155
    assert acc["in_rules"] + acc["copies"] + acc["unassigned"] == 155
    inputs = {i["file"]: i for i in manifest["inputs"]}
    import hashlib

    for name, entry in inputs.items():
        assert entry["sha256"] == hashlib.sha256((SEED / name).read_bytes()).hexdigest()


def test_summary_names_counts(tmp_path):
    result = run_cli("build", str(CORPUS), "-o", str(tmp_path / "out"))
    assert result.returncode == 0
    assert "segments   155" in result.stdout
    assert "en 110" in result.stdout and "ru 43" in result.stdout


def _bad_corpus(tmp_path: Path, name: str, data: bytes) -> Path:
    corpus = tmp_path / "bad"
    (corpus / "drops" / "d").mkdir(parents=True)
    (corpus / "drops" / "d" / name).write_bytes(data)
    return corpus


BAD_INPUTS = {
    "not-utf8": (
        "rules.txt",
        "Models with Fear.\nСила\n".encode("cp1251"),
        r"rules\.txt:2 \(byte \d+\): not UTF-8",
    ),
    "binary": (
        "image.txt",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        r"image\.txt:3 \(byte 8\): binary file",
    ),
    "nul": ("nul.md", b"Line one.\nLine\x00two.\n", r"nul\.md:2 \(byte 14\): binary file"),
    "broken-pdf": ("rules.pdf", b"%PDF-1.4", r"rules\.pdf: not a readable PDF"),
    "nothing-readable": (
        "rules.odt",
        b"PK\x03\x04",
        r"nothing in the corpus is readable text; d/rules\.odt: no reader for '\.odt' files",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_exit_2_one_line_and_output_untouched(tmp_path, case):
    import re

    name, data, expected = BAD_INPUTS[case]
    corpus = _bad_corpus(tmp_path, name, data)
    out = tmp_path / "out"
    good = run_cli("build", str(CORPUS), "-o", str(out))
    assert good.returncode == 0
    before = tree(out)
    result = run_cli("build", str(corpus), "-o", str(out))
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.search(expected, lines[0]), lines[0]
    assert tree(out) == before
    leftovers = [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name]
    assert leftovers == []


def test_missing_corpus_and_empty_drop(tmp_path):
    missing = run_cli("build", str(tmp_path / "nope"), "-o", str(tmp_path / "out"))
    assert missing.returncode == 2
    assert "nope: corpus folder not found" in missing.stderr
    empty = tmp_path / "c"
    (empty / "drops" / "new").mkdir(parents=True)
    result = run_cli("build", str(empty), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "new: empty drop" in result.stderr
    assert not (tmp_path / "out").exists()


def test_refuses_to_replace_a_folder_that_is_not_a_build(tmp_path):
    precious = tmp_path / "docs"
    precious.mkdir()
    (precious / "thesis.txt").write_text("keep me")
    result = run_cli("build", str(CORPUS), "-o", str(precious))
    assert result.returncode == 2
    assert "not a rulepipe build" in result.stderr
    assert (precious / "thesis.txt").read_text() == "keep me"


def test_utf16_with_bom_and_utf8_bom_are_read(tmp_path):
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    (corpus / "drops" / "d" / "a.txt").write_bytes("Модели с правилом Страх.\n".encode("utf-16"))
    (corpus / "drops" / "d" / "b.txt").write_bytes(
        "\ufeffModels with Fear suffer -1 Discipline.\n".encode()
    )
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    segs = [
        json.loads(x) for x in (tmp_path / "out" / "segments.jsonl").read_text("utf-8").splitlines()
    ]
    assert [(s["file"], s["lang"], s["raw"]) for s in segs] == [
        ("a.txt", "ru", "Модели с правилом Страх."),
        ("b.txt", "en", "Models with Fear suffer -1 Discipline."),
    ]


def test_help_explains_the_tool():
    top = run_cli("--help")
    assert top.returncode == 0
    for word in ("build", "source drops", "exit codes"):
        assert word in top.stdout
    sub = run_cli("build", "--help")
    assert sub.returncode == 0
    for word in (
        "segments.jsonl",
        "clusters.json",
        "manifest.json",
        "--glossary",
        "byte-identical",
    ):
        assert word in sub.stdout


def test_diff_keeps_ids_when_texts_change(tmp_path):
    """An unnamed paragraph reworded and a section's paragraph edited are changes of the
    same rules (same ids), not a rule removed and another added."""
    old = (
        "The model gains +1 Strength against Large units.\n\n"
        'LOOSE MOUNTS\n\nA mount without a rider may flee 2D6".\n\n'
        "Roll a D6 for each loose mount at the start of the turn.\n"
    )
    new = old.replace(
        "gains +1 Strength against", "always gains +1 Strength when fighting"
    ).replace("may flee 2D6", "must flee 3D6")
    corpora = []
    for name, text in (("old", old), ("new", new)):
        corpus = tmp_path / name
        (corpus / "drops" / "d").mkdir(parents=True)
        (corpus / "drops" / "d" / "rules.txt").write_text(text, encoding="utf-8")
        corpora.append(str(corpus))
    result = run_cli("diff", *corpora, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    validator("diff").validate(report)
    changes = {e["id"]: e["change"] for e in report["entries"]}
    assert report["summary"]["added"] == report["summary"]["removed"] == 0
    assert changes == {"loose-mounts": "changed", "rules-1": "changed"}


def test_the_cycle_collector_is_paused_during_a_build_and_back_after(tmp_path, monkeypatch):
    import gc

    import pipeline.build as build_module

    seen = []
    real_dedup = build_module.dedup

    def watching_dedup(segments):
        seen.append(gc.isenabled())
        return real_dedup(segments)

    monkeypatch.setattr(build_module, "dedup", watching_dedup)
    assert gc.isenabled()
    build_module.build(CORPUS, tmp_path / "out")
    assert seen == [False]
    assert gc.isenabled()

    def failing_dedup(segments):
        raise RuntimeError("stage failed")

    monkeypatch.setattr(build_module, "dedup", failing_dedup)
    with pytest.raises(RuntimeError, match="stage failed"):
        build_module.build(CORPUS, tmp_path / "out2")
    assert gc.isenabled()
