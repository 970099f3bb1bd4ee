"""`rulepipe coverage`: per rule, the clauses that became effects and those that did not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.commands import main

OUTPUT = Path(__file__).resolve().parents[1] / "output"


def test_coverage_json_agrees_with_the_manifest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--build", str(OUTPUT), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    manifest = json.loads((OUTPUT / "manifest.json").read_text("utf-8"))
    assert doc["summary"] == manifest["coverage"]
    s = doc["summary"]
    assert sum(s["by_state"].values()) == s["rules"] == len(doc["rules"])
    assert s["by_state"] == manifest["counts"]["coverage"] | {
        k: 0 for k in ("full", "partial", "descriptive") if k not in manifest["counts"]["coverage"]
    }
    for rule in doc["rules"]:
        for row in rule["sentences"]:
            assert row["state"] in ("effects", "partial", "not-read", "no-effect-needed")
            assert (row["state"] in ("effects", "partial")) == ("effects" in row)
            assert (row["state"] in ("partial", "not-read")) == ("unread" in row)
        if rule["coverage"] == "partial":  # a partial rule has a clause left unread
            assert rule["clauses"]["unread"] > 0, rule["id"]
            assert any(r["state"] in ("partial", "not-read") for r in rule["sentences"]), rule["id"]
        if rule["coverage"] == "full":  # a full rule read every clause naming a quantity
            assert rule["clauses"]["unread"] == 0, rule["id"]
    clauses = s["clauses"]
    assert clauses["read"] == sum(r["clauses"]["read"] for r in doc["rules"])
    assert clauses["unread"] == sum(r["clauses"]["unread"] for r in doc["rules"])


def test_coverage_text_marks_each_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage", "--build", str(OUTPUT), "--state", "partial"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rules ")
    assert out[1].startswith("clauses: read ")
    assert any(line.startswith("  - ") for line in out)  # a sentence read into no effect
    assert any(line.startswith("  + ") and " -> " in line for line in out)


def test_a_clause_left_beside_effects_is_shown(capsys: pytest.CaptureFixture[str]) -> None:
    # Rage-like: "+1 Attack Value" read, and its sentence's other clause is shown unread
    assert main(["coverage", "--build", str(OUTPUT), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = [row for rule in doc["rules"] for row in rule["sentences"]]
    assert any("unread" in row for row in rows)
    for row in rows:
        for clause in row.get("unread", ()):
            a, b = clause["span"]
            assert row["span"][0] <= a < b <= row["span"][1]
            assert row["text"][a - row["span"][0] : b - row["span"][0]] == clause["text"]


def test_coverage_of_a_missing_build_exits_2(tmp_path: Path) -> None:
    assert main(["coverage", "--build", str(tmp_path / "nothing")]) == 2
