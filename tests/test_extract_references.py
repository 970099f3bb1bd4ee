"""A BattleScribe drop as a reference list: names for paragraphs that never name their rule."""

from __future__ import annotations

import shutil
from xml.sax.saxutils import escape

from pipeline.build import build
from pipeline.extract.references import base_name

from .conftest import CORPUS, SEED

NS = "http://www.battlescribe.net/schema/gameSystemSchema"


def _game_system(rules: dict[str, str]) -> str:
    body = "".join(
        f'<rule id="r{i}" name="{escape(name)}" hidden="false">'
        f"<description>{escape(text)}</description></rule>"
        for i, (name, text) in enumerate(rules.items())
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<gameSystem id="gs" name="Reference" revision="1" xmlns="{NS}">'
        f"<sharedRules>{body}</sharedRules></gameSystem>"
    )


def test_unnamed_paragraphs_take_the_name_a_reference_states_for_their_text(tmp_path):
    seed = (SEED / "002_c7ff2043f171b6ae.txt").read_text("utf-8").splitlines()
    poison = next(line for line in seed if line.startswith("If the attack successfully hits"))
    lethal = next(line for line in seed if line.startswith("If the attack wounds with a natural"))
    # The reference words the Lethal Strike text a little differently: not a copy, but close.
    reworded = lethal.replace("the target of the attack", "the attack's target")
    assert reworded != lethal
    corpus = tmp_path / "corpus"  # the reference drop is older than "seed": the seed text wins
    shutil.copytree(CORPUS / "drops", corpus / "drops")
    (corpus / "drops" / "a-reference").mkdir()
    gst = _game_system({"Poison Attacks": poison, "Lethal Strike": reworded, "Fly (X, Y)": "x"})
    (corpus / "drops" / "a-reference" / "t9a.gst").write_text(gst, "utf-8")
    result = build(corpus, tmp_path / "out")
    by_text = {r["texts"]["en"]["text"]: r for r in result.rules if "en" in r["texts"]}
    assert by_text[poison]["names"]["en"] == "Poison Attacks"
    assert by_text[poison]["id"] == "poison-attacks"
    assert by_text[poison]["name_evidence"] == "reference-list"
    assert by_text[lethal]["names"]["en"] == "Lethal Strike"
    assert by_text[lethal]["name_evidence"].startswith("reference-list (")
    # the stated bracket parameter is not part of the name
    assert any(r["names"].get("en") == "Fly" for r in result.rules)


def test_without_a_reference_the_paragraphs_stay_unnamed(seed_build):
    unnamed = [
        r
        for r in seed_build.rules
        if "en" in r["texts"] and r["texts"]["en"]["text"].startswith("If the attack")
    ]
    assert len(unnamed) == 2
    assert all("en" not in r["names"] for r in unnamed)


def test_a_stated_bracket_is_a_parameter_not_part_of_the_name():
    assert base_name("Ricochet (X)") == "Ricochet"
    assert base_name("Fly (8″, 16″)") == "Fly"
    assert base_name("Great Weapon") == "Great Weapon"
