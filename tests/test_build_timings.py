"""`build --timings`: each stage's seconds, segments and peak memory in the manifest and the
summary; without the option the manifest has no times (builds stay byte-identical)."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.build import STAGES
from tests.conftest import run_cli

TEXT = """Models with Vanguard may move up to 12″ before the first turn.

The model gains +1 Strength when it charges.

Модели с правилом Авангард могут переместиться на 12″ до первого хода.
"""


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    (corpus / "drops" / "d").mkdir(parents=True)
    (corpus / "drops" / "d" / "rules.txt").write_text(TEXT, encoding="utf-8")
    return corpus


def test_timings_cover_every_stage_in_order(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    done = run_cli("build", str(corpus), "-o", str(tmp_path / "out"), "--timings")
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    timings = manifest["timings"]
    assert tuple(timings["stages"]) == STAGES
    for stage in timings["stages"].values():
        assert stage["segments"] == manifest["counts"]["segments"] == 3
        assert stage["seconds"] >= 0
        assert stage["peak_mib"] > 0
    assert abs(timings["seconds"] - sum(s["seconds"] for s in timings["stages"].values())) < 0.01
    assert "ms/segment" in done.stdout
    for stage in STAGES:
        assert stage in done.stdout


def test_no_timings_by_default(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path)
    done = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text("utf-8"))
    assert "timings" not in manifest
    assert "ms/segment" not in done.stdout
