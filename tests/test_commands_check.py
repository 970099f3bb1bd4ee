"""What `rulepipe check` tells the user on the terminal: a summary, where the reports went,
severities coloured only where colour can be seen, each finding once for all copies of its
text, homoglyphs by code point; and the accepted-findings file a later run reads back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from pipeline.check import Pair, run_checks
from pipeline.check.accepted import Accepted, read_accepted
from pipeline.check.report_json import report_data
from pipeline.check.report_text import report_text
from pipeline.check.review import review
from pipeline.errors import InputError
from pipeline.parallel import WORKERS_ENV
from pipeline.schemas import validator

from .conftest import ROOT, run_cli


def test_json_and_html_reports_say_where_they_went(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    done = run_cli(
        "check", "--build", str(ROOT / "output"), "-o", str(out), "--format", "json,html"
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("checked 3 pair(s)")
    assert lines[-1] == f"reports: {out / 'checks.json'}, {out / 'checks.html'}"
    summary = json.loads((out / "checks.json").read_text("utf-8"))["summary"]
    # the line on the terminal says what the report says
    assert f"{summary['by_severity']['error']} error(s)" in lines[0]
    assert f"{summary['by_severity']['warning']} warning(s)" in lines[0]


def test_severities_are_coloured_only_when_asked() -> None:
    report = run_checks([Pair("p", "Roll a D6.", "Бросьте D3.", "en", "ru")])
    plain = report_text(report, "error")
    coloured = report_text(report, "error", colour=True)
    assert "\x1b[" not in plain
    assert "\x1b[31merror" in coloured  # errors in red
    assert coloured.replace("\x1b[31m", "").replace("\x1b[0m", "") == plain


def test_no_colour_in_a_pipe_even_with_a_terminal_type() -> None:
    build = str(ROOT / "output")
    done = run_cli("check", "--build", build, "--format", "text", env={"TERM": "xterm"})
    assert "\x1b[" not in done.stdout


def test_copies_of_one_text_are_reported_once_homoglyphs_by_code_point() -> None:
    text = "Models move with with care."
    alone = [Pair(f"seg#{n}", text, None, "en") for n in (1, 2, 3)]
    pair = Pair("p", "It suffers X+D6 hits.", "Он получает Х+D6 попаданий.", "en", "ru")
    out = report_text(run_checks([pair], None, alone), "error")
    doubled = [line for line in out.splitlines() if "doubled_word" in line and ":" in line]
    assert len(doubled) == 1 and "seg#1 and 2 copies" in doubled[0]
    assert "Х U+0425 CYRILLIC CAPITAL LETTER HA" in out
    assert "X U+0058 LATIN CAPITAL LETTER X" in out


def _mixed(target: str) -> Pair:
    return Pair("fear", "The model gains Fear.", target, "en", "ru")


def _homoglyph(pair: Pair):
    seen = review(run_checks([pair]))
    return next(it for it in seen.open if it.finding.check == "homoglyph")


def test_an_acceptance_outlives_edits_elsewhere_but_not_of_the_marked_text() -> None:
    first = _homoglyph(_mixed("Mодель получает Страх."))  # a Latin M
    assert "M U+004D LATIN CAPITAL LETTER M" in first.finding.message
    entry = Accepted("homoglyph", "fear", first.hash)
    edited = run_checks([_mixed("Mодель получает правило Страх!")])
    kept = review(edited, [entry])
    assert [it.finding.check for it in kept.accepted] == ["homoglyph"]
    assert not [it for it in kept.open if it.finding.check == "homoglyph"]
    assert kept.at_or_above("error") == [] and kept.stale == []
    reworded = review(run_checks([_mixed("Mодели получают Страх.")]), [entry])
    assert [it.finding.check for it in reworded.open].count("homoglyph") == 1
    assert reworded.accepted == [] and reworded.stale == [entry]


def test_the_accept_line_reads_back_and_the_json_stays_valid(tmp_path: Path) -> None:
    item = _homoglyph(_mixed("Mодель получает Страх."))
    path = tmp_path / "accepted-findings.yaml"
    path.write_text(item.line() + "\n", "utf-8")
    assert yaml.safe_load(path.read_text("utf-8"))[0]["hash"] == item.hash
    entries = read_accepted(path)
    seen = review(run_checks([_mixed("Mодель получает Страх.")]), entries, None, str(path))
    data = report_data(seen.report, seen)
    assert not list(validator("checks").iter_errors(data))
    assert data["summary"]["accepted"] == 1 and data["accepted"][0]["hash"] == item.hash
    assert "1 accepted" in report_text(seen.report, "error", seen=seen).splitlines()[0]


def test_a_digit_only_hash_stays_a_string(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text('- {check: "homoglyph", id: "p", hash: "0123456789012345"}\n', "utf-8")
    assert read_accepted(path)[0].hash == "0123456789012345"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("check: homoglyph\n", "not a list"),
        ("- {check: spelling, id: p, hash: x}\n", "unknown check 'spelling'"),
        ("- {check: homoglyph, id: p}\n", "'hash' missing"),
        ("- {check: homoglyph, id: p, hash: x, why: y}\n", "unknown field 'why'"),
        ("- [homoglyph]\n", "not a mapping"),
    ],
)
def test_a_malformed_accepted_file_names_the_entry(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "accepted-findings.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(InputError) as err:
        read_accepted(path)
    assert reason in str(err.value) and str(path) in str(err.value)


def test_the_file_beside_the_corpus_is_read_by_default(tmp_path: Path) -> None:
    pair = {
        "id": "fear",
        "source": "The model gains Fear.",
        "target": "Mодель получает Страх.",
        "source_lang": "en",
        "target_lang": "ru",
    }
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps(pair, ensure_ascii=False) + "\n", "utf-8")
    item = _homoglyph(_mixed(pair["target"]))
    (tmp_path / "corpus").mkdir()
    stale = '- {check: "doubled_word", id: "gone", hash: "0000000000000000"}'
    (tmp_path / "corpus" / "accepted-findings.yaml").write_text(
        f"{item.line()}\n{stale}\n", "utf-8"
    )
    done = run_cli("check", "--pairs", str(pairs), "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr  # the one error is accepted
    assert "1 accepted" in done.stdout.splitlines()[0]
    assert "1 accepted finding(s) of corpus/accepted-findings.yaml no longer found" in done.stdout
    data = json.loads((tmp_path / "out" / "checks.json").read_text("utf-8"))
    assert data["inputs"]["accepted"] == "corpus/accepted-findings.yaml"
    assert data["summary"]["stale_accepted"] == 1
    bad = run_cli("check", "--pairs", str(pairs), "--accepted", "nope.yaml", cwd=tmp_path)
    assert bad.returncode == 2 and "nope.yaml" in bad.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_report_its_schema_refuses_is_never_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    workers: str,
) -> None:
    """The report is checked against its schema as it is written: a report that fails is
    a bug said on one line, and no report folder is made; the same run with a good report
    writes it."""
    from pipeline.check import report_json
    from pipeline.commands import main

    monkeypatch.setenv(WORKERS_ENV, workers)
    pairs = tmp_path / "pairs.jsonl"
    pair = Pair("p", "Roll a D6.", "Бросьте D3.", "en", "ru")
    pairs.write_text(json.dumps(pair.to_json()) + "\n", "utf-8")
    args = ["check", "--pairs", str(pairs), "--format", "json", "--fail-on", "never"]
    good = report_json.report_head
    monkeypatch.setattr(report_json, "report_head", lambda *a: {**good(*a), "summary": 5})
    assert main([*args, "-o", str(tmp_path / "bad")]) == 3
    assert "does not match checks.schema.json at /summary" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
    monkeypatch.setattr(report_json, "report_head", good)
    assert main([*args, "-o", str(tmp_path / "good")]) == 0
    assert json.loads((tmp_path / "good" / "checks.json").read_text("utf-8"))["summary"]


def test_a_report_streamed_is_checked_to_its_last_item(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """checks.json is written and checked a chunk of items at a time, never whole: an item
    its schema refuses in a later chunk still leaves no report; the good run's file is
    exactly the whole report's JSON."""
    from pipeline.check import report_json
    from pipeline.check.pairs import read_pairs
    from pipeline.check.review import review
    from pipeline.check.runner import run_checks
    from pipeline.commands import main
    from pipeline.emit import dump_json
    from pipeline.glossary import chosen_glossary

    pairs = tmp_path / "pairs.jsonl"
    rows = [
        Pair(f"p{k}", f"Roll {k} dice.", f"Бросьте {k} кубиков.", "en", "ru") for k in range(2500)
    ]
    pairs.write_text("".join(json.dumps(p.to_json()) + "\n" for p in rows), "utf-8")
    args = ["check", "--pairs", str(pairs), "--format", "json", "--fail-on", "never"]
    good = report_json._arrays

    def broken(report, seen):
        arrays = good(report, seen)
        items = list(arrays["pairs"])
        items[2100] = {**items[2100], "id": 7}
        return {**arrays, "pairs": items}

    monkeypatch.setattr(report_json, "_arrays", broken)
    assert main([*args, "-o", str(tmp_path / "bad")]) == 3
    assert "does not match checks.schema.json at /pairs/100/id" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()
    monkeypatch.setattr(report_json, "_arrays", good)
    assert main([*args, "-o", str(tmp_path / "good")]) == 0
    written = (tmp_path / "good" / "checks.json").read_text("utf-8")
    inputs = {k: v for k, v in json.loads(written)["inputs"].items() if k != "accepted"}
    report = run_checks(read_pairs(pairs), chosen_glossary(None), None, inputs)
    assert written == dump_json(report_json.report_data(report, review(report)))
