"""rulepipe diff: a second drop made by editing a copy of seed 002 (a number changed, a
sentence added, a rule removed, a rule added) gives exactly those four entries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from pipeline.build import build
from pipeline.diff.compare import diff_rules
from pipeline.diff.sentences import split_sentences
from pipeline.schemas import validator
from tests.conftest import CORPUS, SEED, run_cli

EDITS = yaml.safe_load((Path(__file__).parent / "data" / "diff" / "edits.yaml").read_text("utf-8"))
SEED_002 = next(SEED.glob("002_*.txt"))


def edited_002(text: str) -> str:
    """Seed 002 with the four edits of tests/data/diff/edits.yaml, on every copy."""
    number, sentence = EDITS["number"], EDITS["sentence"]
    removed, added = EDITS["removed"], EDITS["added"]
    assert text.count(number["old"]) == 2 and text.count(sentence["after"]) == 2
    text = text.replace(number["old"], number["new"])
    text = text.replace(sentence["after"], sentence["after"] + sentence["add"])
    kept = [p for p in text.split("\n\n") if p.strip() != removed["paragraph"]]
    assert len(kept) == len(text.split("\n\n")) - 2
    return "\n\n".join(kept).rstrip("\n") + "\n\n" + added["paragraph"] + "\n"


def make_corpus(root: Path, text_002: str) -> Path:
    drop = root / "drops" / "seed"
    drop.mkdir(parents=True)
    (drop / SEED_002.name).write_text(text_002, "utf-8")
    shutil.copy(CORPUS / "glossary.yaml", root / "glossary.yaml")
    return root


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("diff")
    original = SEED_002.read_text("utf-8")
    return make_corpus(base / "old", original), make_corpus(base / "new", edited_002(original))


@pytest.fixture(scope="module")
def diff_json(corpora) -> dict[str, Any]:
    old, new = corpora
    result = run_cli("diff", str(old), str(new), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_four_edits_are_the_four_entries(diff_json):
    entries = {(e["change"], e["id"]) for e in diff_json["entries"]}
    assert entries == {
        ("changed", EDITS["number"]["rule"]),
        ("changed", EDITS["sentence"]["rule"]),
        ("removed", EDITS["removed"]["rule"]),
        ("added", EDITS["added"]["rule"]),
    }
    s = diff_json["summary"]
    assert (s["added"], s["removed"], s["renamed"], s["changed"]) == (1, 1, 0, 2)
    assert s["unchanged"] == diff_json["old"]["rules"] - 3
    assert diff_json["old"]["kind"] == diff_json["new"]["kind"] == "corpus"
    assert not list(validator("diff").iter_errors(diff_json))


def test_number_change_is_a_quantity_change_with_old_and_new(diff_json):
    fear = next(e for e in diff_json["entries"] if e["id"] == EDITS["number"]["rule"])
    assert fear["nature"] == "numbers"
    assert fear["quantities"] == [
        {
            "change": "changed",
            "lang": "en",
            "type": "modifier",
            "old": {"surface": "-1 Discipline", "value": -1, "characteristic": "discipline"},
            "new": {"surface": "-2 Discipline", "value": -2, "characteristic": "discipline"},
        }
    ]
    [sentence] = fear["sentences"]
    assert sentence["change"] == "changed" and sentence["numbers"] is True
    assert "-1 Discipline" in sentence["old"] and "-2 Discipline" in sentence["new"]


def test_sentence_addition_is_wording(diff_json):
    stubborn = next(e for e in diff_json["entries"] if e["id"] == EDITS["sentence"]["rule"])
    assert stubborn["nature"] == "wording"
    assert stubborn["quantities"] == [] and stubborn["effects"] == []
    assert stubborn["sentences"] == [
        {
            "change": "added",
            "lang": "en",
            "new": EDITS["sentence"]["add"].strip(),
            "numbers": False,
        }
    ]


def test_removed_and_added_rules_carry_their_text(diff_json):
    by_id = {e["id"]: e for e in diff_json["entries"]}
    assert by_id["oi-it-bites"]["texts"]["en"] == EDITS["removed"]["paragraph"]
    assert by_id["hatred"]["texts"]["en"] == EDITS["added"]["paragraph"]
    assert by_id["hatred"].get("name") == "Hatred"


def test_markdown_tells_the_same(corpora, tmp_path):
    old, new = corpora
    out = tmp_path / "changes.md"
    result = run_cli("diff", str(old), str(new), "-o", str(out))
    assert result.returncode == 0 and result.stdout == ""
    md = out.read_text("utf-8")
    assert "1 added, 1 removed, 0 renamed, 2 changed" in md
    assert "## Added" in md and "`hatred` (Hatred)" in md
    assert "## Removed" in md and "`oi-it-bites`" in md
    assert "### `fear` (Fear): numbers" in md
    assert "- Fear: -1 → -2 Discipline\n" in md  # the rule, the change, the characteristic
    assert "### `stubborn` (Stubborn): wording" in md
    assert "sentence added (en): “This applies whether or not" in md


def test_build_folders_diff_the_same_as_corpora(corpora, diff_json, tmp_path):
    old, new = corpora
    build(old, tmp_path / "old-out")
    build(new, tmp_path / "new-out")
    result = run_cli(
        "diff", str(tmp_path / "old-out"), str(tmp_path / "new-out"), "--format", "json"
    )
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["old"]["kind"] == "build"
    assert doc["entries"] == diff_json["entries"] and doc["summary"] == diff_json["summary"]


def test_same_build_has_no_entries(seed_build):
    result = run_cli("diff", str(seed_build.out), str(seed_build.out), "--json")
    doc = json.loads(result.stdout)
    assert result.returncode == 0 and doc["entries"] == []
    assert doc["summary"]["unchanged"] == len(seed_build.rules)


def test_moved_rule_is_unchanged_and_same_text_new_id_is_renamed(seed_build):
    rules = [dict(r) for r in seed_build.rules]
    moved = [
        {
            **r,
            "texts": {
                k: {**t, "sources": [{**t["sources"][0], "lines": [900, 900]}]}
                for k, t in r["texts"].items()
            },
        }
        for r in rules
    ]
    assert diff_rules(rules, moved)["entries"] == []
    renamed = [{**r, "id": "ricochet-renamed"} if r["id"] == "ricochet" else r for r in rules]
    doc = diff_rules(rules, renamed)
    assert doc["entries"] == [{"change": "renamed", "old_id": "ricochet", "id": "ricochet-renamed"}]


def test_changed_text_under_a_new_id_is_matched_by_similarity(seed_build):
    rules = [dict(r) for r in seed_build.rules]
    ricochet = next(r for r in rules if r["id"] == "ricochet")
    text = ricochet["texts"]["en"]["text"].replace("X+D6 hits", "X+D3 hits")
    edited = {
        **ricochet,
        "id": "ricochet-x",
        "texts": {"en": {**ricochet["texts"]["en"], "text": text}},
    }
    doc = diff_rules([ricochet], [edited])
    [entry] = doc["entries"]
    assert (entry["change"], entry["old_id"], entry["id"]) == ("changed", "ricochet", "ricochet-x")
    [changed] = [s for s in entry["sentences"] if s["change"] == "changed"]
    assert "X+D6" in changed["old"] and "X+D3" in changed["new"] and changed["numbers"]
    assert entry["nature"] == "numbers"


def test_effect_change_alone_is_reported_as_effects():
    old = {
        "id": "r",
        "kind": "special-rule",
        "texts": {"en": {"text": "A."}},
        "quantities": [],
        "effects": [{"op": "forbid", "action": "declare-charge", "span": [0, 1]}],
    }
    new = {**old, "effects": [{"op": "forbid", "action": "pursue", "span": [0, 1]}]}
    [entry] = diff_rules([old], [new])["entries"]
    assert entry["nature"] == "effects"
    assert entry["effects"] == [
        {"change": "removed", "effect": {"op": "forbid", "action": "declare-charge"}},
        {"change": "added", "effect": {"op": "forbid", "action": "pursue"}},
    ]


def test_sentence_split_keeps_abbreviations():
    text = "Moves (e.g. Flying Movement) are fine. Units i.e. all of them Charge. Next one!"
    assert split_sentences(text) == [
        "Moves (e.g. Flying Movement) are fine.",
        "Units i.e. all of them Charge.",
        "Next one!",
    ]


def test_bad_folders_exit_2_with_one_line(tmp_path, seed_build):
    (tmp_path / "empty").mkdir()
    for bad in (tmp_path / "missing", tmp_path / "empty"):
        result = run_cli("diff", str(bad), str(seed_build.out))
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and str(bad) in result.stderr


SEED_000 = next(SEED.glob("000_*.txt"))


@pytest.fixture(scope="module")
def stale_corpora(tmp_path_factory) -> tuple[Path, Path]:
    """Seeds 000 (Russian Ricochet) and 002; in the new one only the English number changes."""
    edit = EDITS["stale"]
    base = tmp_path_factory.mktemp("stale")
    original = SEED_002.read_text("utf-8")
    assert original.count(edit["old"]) == 2
    sides = []
    for name, text in (("old", original), ("new", original.replace(edit["old"], edit["new"]))):
        root = make_corpus(base / name, text)
        shutil.copy(SEED_000, root / "drops" / "seed" / SEED_000.name)
        sides.append(root)
    return sides[0], sides[1]


@pytest.fixture(scope="module")
def stale_json(stale_corpora) -> dict[str, Any]:
    result = run_cli("diff", *map(str, stale_corpora), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_unchanged_translation_of_a_changed_source_is_outdated(stale_json):
    edit = EDITS["stale"]
    [entry] = stale_json["entries"]
    assert entry["id"] == edit["rule"] and entry["nature"] == "numbers"
    [stale] = entry["stale"]
    assert (stale["lang"], stale["source"], stale["numbers"]) == (edit["lang"], "en", True)
    [sentence] = stale["sentences"]
    assert "X+D6 hits" in sentence["old"] and "X+D3 hits" in sentence["new"]
    [quantity] = stale["quantities"]
    assert (quantity["old"]["expr"], quantity["new"]["expr"]) == ("X+D6", "X+D3")
    # the translation still states the old dice, in its own words
    [still] = stale["still"]
    assert still["source"] == "X+D6 hits" and "D6" in still["translation"]
    assert stale_json["summary"]["stale"] == 1
    assert not list(validator("diff").iter_errors(stale_json))


def test_outdated_translation_in_markdown(stale_corpora, tmp_path):
    out = tmp_path / "changes.md"
    result = run_cli("diff", *map(str, stale_corpora), "-o", str(out))
    assert result.returncode == 0, result.stderr
    md = out.read_text("utf-8")
    assert "1 changed, " in md and "1 translation(s) outdated." in md
    line = next(x for x in md.splitlines() if x.startswith("- translation outdated (ru)"))
    assert "`X+D6 hits` → `X+D3 hits`" in line and "still says" in line


def _two_langs(en: str, ru: str) -> dict[str, Any]:
    return {
        "id": "r",
        "kind": "special-rule",
        "texts": {"en": {"text": en}, "ru": {"text": ru}},
        "quantities": [],
        "effects": [],
    }


def test_translation_changed_with_its_source_is_not_outdated():
    old = _two_langs("Gains +1 Strength.", "Получает +1 к Силе.")
    both = _two_langs("Gains +2 Strength.", "Получает +2 к Силе.")
    only_ru = _two_langs("Gains +1 Strength.", "Получает +2 к Силе.")
    only_en = _two_langs("Gains +2 Strength.", "Получает +1 к Силе.")
    assert "stale" not in diff_rules([old], [both])["entries"][0]
    assert "stale" not in diff_rules([old], [only_ru])["entries"][0]
    [entry] = diff_rules([old], [only_en])["entries"]
    assert [(s["lang"], s["numbers"]) for s in entry["stale"]] == [("ru", True)]


BATTLESCRIBE = Path(__file__).parent / "data" / "battlescribe"


def _realm_edition(root: Path, text: str) -> Path:
    drop = root / "drops" / "army"
    drop.mkdir(parents=True)
    shutil.copy(BATTLESCRIBE / "combat.gst", drop / "combat.gst")
    (drop / "realm.cat").write_text(text, "utf-8")
    return root


def test_army_data_changes_unit_by_unit(tmp_path: Path) -> None:
    """A second edition of realm.cat: the Yeoman's Strength 3 -> 4, a Yeoman 6 -> 7
    points, the Destrier 40 -> 45 points, the Lord's Great Weapon option dropped, the
    Golems gone. The changelog says each in a player's words."""
    text = (BATTLESCRIBE / "realm.cat").read_text("utf-8")
    new = text.replace('name="Realm of Tests 1.0"', 'name="Realm of Tests 2.0 Beta"')
    yeoman = new.index('name="Yeoman Offensive"')
    new = new[:yeoman] + new[yeoman:].replace(
        '<characteristic name="Str" typeId="t-str">3</characteristic>',
        '<characteristic name="Str" typeId="t-str">4</characteristic>',
        1,
    )
    model = new.index('id="u-yeo-m"')
    new = new[:model] + new[model:].replace('value="6"/>', 'value="7"/>', 1)
    destrier = new.index('id="l-lord-destrier"')
    new = new[:destrier] + new[destrier:].replace('value="40"/>', 'value="45"/>', 1)
    great = new.index('name="Great Weapon" hidden="false" type="upgrade"')
    start = new.rindex("<selectionEntry ", 0, great)
    new = new[:start] + new[new.index("</selectionEntry>", great) + len("</selectionEntry>") :]
    golems = new.index('<selectionEntry id="u-gol"')
    new = new[:golems] + new[new.index('<selectionEntry id="u-sha"') :]
    assert new.count("Golem") == 0
    old_corpus = _realm_edition(tmp_path / "old", text)
    new_corpus = _realm_edition(tmp_path / "new", new)
    doc = json.loads(run_cli("diff", str(old_corpus), str(new_corpus), "--json").stdout)
    assert not list(validator("diff").iter_errors(doc))
    units = doc["units"]
    assert units["summary"] == {"added": 0, "removed": 1, "changed": 2, "unchanged": 5}
    lines = [c["text"] for e in units["entries"] if e["change"] == "changed" for c in e["changes"]]
    assert lines == [
        "Lord, option Great Weapon removed",
        "Lord, Destrier: points 40 → 45",
        "Yeomen, points 6 → 7 a model",
        "Yeomen, Yeoman: Strength 3 → 4",
    ]
    [gone] = [e for e in units["entries"] if e["change"] == "removed"]
    assert (gone["name"], gone["book"]) == ("Golems", "realm of tests")
    # model profiles are parts of their units, not rules of the changelog
    assert not [e for e in doc["entries"] if e.get("kind") == "model-profile"]
    md = run_cli("diff", str(old_corpus), str(new_corpus)).stdout
    assert "## Army data" in md and "- Yeomen, Yeoman: Strength 3 → 4" in md
    assert "- Golems (realm of tests) removed" in md
