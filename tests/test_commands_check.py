"""What `rulepipe check` tells the user on the terminal: a summary, where the reports went,
severities coloured only where colour can be seen."""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.check import Pair, run_checks
from pipeline.check.report_text import report_text

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
