"""The interpreter's commands as the command layer registers them."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pipeline.commands import parser


@pytest.mark.parametrize("name", ["roll", "table", "charge", "attack"])
def test_each_command_is_registered_with_help(name: str, capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as info:
        parser().parse_args([name, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert f"rulepipe {name}" in text
    assert "--json" in text


def test_handler_returns_an_exit_code_and_prints_one_json_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = parser().parse_args(["roll", "D3", "reroll", "1", "--json"])
    assert args.run(args) == 0
    doc = json.loads(capsys.readouterr().out)  # one document, nothing else
    # D3 re-rolling a 1 once: P(1) = 1/3 * 1/3
    assert doc["distribution"][0] == {"value": 1, "p": "1/9"}
    assert sum(Fraction(d["p"]) for d in doc["distribution"]) == 1


def test_charge_and_table_default_to_the_output_build() -> None:
    args = parser().parse_args(["charge", "--distance", "12", "--advance", "7"])
    assert str(args.build) == "output"
    args = parser().parse_args(["table", "horse-jump", "--modifier", "-1"])
    assert args.modifier == -1 and str(args.build) == "output"
