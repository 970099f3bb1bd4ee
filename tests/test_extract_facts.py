"""Extraction of the seed paragraphs, checked the way a rules editor would read them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pipeline.extract.facts import Facts, extract, extract_file, extract_text
from pipeline.extract.kinds import KINDS
from pipeline.glossary import Glossary, load_glossary
from pipeline.interpret.rules import validate_effect
from pipeline.model import Segment

ROOT = Path(__file__).resolve().parent.parent
EN_FILE = "002_c7ff2043f171b6ae.txt"
RU_RICOCHET = "000_745db052e7f633dc.txt"


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary(ROOT / "corpus" / "glossary.yaml")


@pytest.fixture(scope="module")
def en_segments(seed_segments) -> list[Segment]:
    return [s for s in seed_segments if s.file == EN_FILE and s.lang == "en"]


@pytest.fixture(scope="module")
def en_facts(en_segments, glossary) -> dict[str, Facts]:
    """Facts per unique English paragraph text."""
    out: dict[str, Facts] = {}
    for seg in en_segments:
        out.setdefault(seg.text, extract(seg, glossary))
    return out


def facts_for(en_facts: dict[str, Facts], start: str) -> tuple[str, Facts]:
    hits = [(t, f) for t, f in en_facts.items() if t.startswith(start)]
    assert len(hits) == 1, f"expected one paragraph starting {start!r}, found {len(hits)}"
    return hits[0]


def ops(facts: Facts, op: str) -> list[dict]:
    return [e for e in facts.effects if e["op"] == op]


def test_ricochet_english(en_facts):
    text, f = facts_for(en_facts, "Models with Ricochet")
    assert (f.name, f.name_evidence, f.kind) == ("Ricochet", "with-pattern", "special-rule")
    assert {"op": "forbid", "action": "declare-charge"} in [
        {k: v for k, v in e.items() if k != "span"} for e in ops(f, "forbid")
    ]
    hits = {e["count"]: e for e in ops(f, "hits")}
    assert set(hits) == {"X", "X+D6"}
    for e in hits.values():
        assert (e["strength"], e["ap"]) == ("self", "self")
    assert "initial move" in hits["X"]["when"]
    assert "moves into contact" in hits["X+D6"]["when"]
    assert hits["X+D6"]["then"] == "remove-self" and "then" not in hits["X"]
    assert text[slice(*hits["X+D6"]["span"])] == "suffers X+D6 hits"
    inches = [q for q in f.quantities if q.type == "distance" and q.value == 1 and q.unit == "inch"]
    assert len(inches) == 3
    assert f.coverage == "partial" and f.unformalised


def test_russian_ricochet_matches_english(seed_segments, en_facts, glossary):
    ru_seg = next(s for s in seed_segments if s.file == RU_RICOCHET)
    ru = extract(ru_seg, glossary)
    _, en = facts_for(en_facts, "Models with Ricochet")
    assert ru.name == "Рикошет" and ru.name_evidence == "with-pattern"
    assert Counter(q.key() for q in ru.quantities) == Counter(q.key() for q in en.quantities)
    assert any("homoglyph:Х" in q.notes for q in ru.quantities)
    # keywords on lemmas: "Открытым ландшафтом" is the term open-terrain
    assert {"open-terrain", "ricochet", "impassable-terrain"} <= set(ru.keywords)
    assert sorted(e["count"] for e in ops(ru, "hits")) == ["X", "X+D6"]


def test_swiftstride_maximised_rolls(en_facts):
    _, f = facts_for(en_facts, "When a unit composed entirely of models with Swiftstride")
    assert f.name == "Swiftstride"
    rolls = ops(f, "roll")
    assert sorted(e["roll"] for e in rolls) == ["charge", "flee", "overrun", "pursuit"]
    assert all(e["extra_dice"] == 1 and e["drop"] == "lowest" and "when" not in e for e in rolls)


def test_great_weapon(en_facts):
    _, f = facts_for(en_facts, "Attacks made with a Great Weapon")
    assert (f.name, f.kind) == ("Great Weapon", "weapon")
    mods = {e["characteristic"]: e for e in ops(f, "modify")}
    assert mods["strength"]["by"] == 2 and mods["armour_penetration"]["by"] == 2
    assert all(e["applies_to"] == "attack" for e in mods.values())
    assert [e["step"] for e in ops(f, "strike-at")] == [0]
    assert f.coverage == "full"


def test_fear(en_facts):
    _, f = facts_for(en_facts, "Units in base contact with one or more enemy models with Fear")
    assert f.name == "Fear"
    [mod] = ops(f, "modify")
    assert (mod["characteristic"], mod["by"], mod["applies_to"]) == ("discipline", -1, "enemy")
    [test] = ops(f, "test")
    assert test["characteristic"] == "discipline" and test["on_fail"] == "shaken"
    assert "start of each Round of Combat" in test["when"]
    assert ops(f, "immune")[0]["to"] == "fear"


def test_impact_hits_at_step_ten(en_facts):
    _, f = facts_for(en_facts, "At Initiative Step 10, a charging model part")
    assert f.name == "Impact Hits"
    [hits] = ops(f, "hits")
    assert (hits["count"], hits["step"], hits["when"]) == ("X", 10, "charging")
    assert (hits["strength"], hits["ap"]) == ("self", "self")


def test_vanguard_distances_and_name(en_facts):
    _, f = facts_for(en_facts, "After Deployment (including units with Scout)")
    assert f.name == "Vanguard"  # not Scout, cited first
    inches = [q.value for q in f.quantities if q.type == "distance"]
    assert inches.count(12) == 3 and 6 in inches
    assert ops(f, "forbid")[0]["when"] == "first-player-turn"


def test_natural_six_paragraphs(en_facts):
    _, hit = facts_for(en_facts, "If the attack successfully hits with a natural")
    assert [(e["roll"], e["value"], e["effect"]) for e in ops(hit, "on-natural")] == [
        ("to-hit", 6, "auto-wound")
    ]
    _, wound = facts_for(en_facts, "If the attack wounds with a natural to-wound roll")
    got = {e["effect"]: e for e in ops(wound, "on-natural")}
    assert got["set-ap"]["ap"] == 10 and got["set-ap"]["roll"] == "to-wound"
    assert got["deny-save"]["save"] == "regeneration" and got["deny-save"]["value"] == 6


def test_artillery_profile(en_facts):
    _, f = facts_for(en_facts, "Artillery Weapon.")
    assert f.kind == "weapon-profile" and f.labels == ("Artillery Weapon.",)
    p = f.profile
    assert p is not None
    assert p["range"] == {"value": 48, "unit": "inch"}
    assert (p["shots"], p["strength"], p["strength_alt"], p["ap"]) == (1, 3, 6, 10)
    assert [a["name"] for a in p["attributes"]] == ["Area Attack", "Multiple Wounds"]
    assert [e["amount"] for e in ops(f, "multiple-wounds")] == ["D3"]
    assert ops(f, "grant") == [
        {
            "op": "grant",
            "rule": "area-attack",
            "params": ["1x5"],
            "span": ops(f, "grant")[0]["span"],
        }
    ]


def test_gains_insignificant_is_a_grant_without_a_name(en_facts):
    text, f = facts_for(en_facts, "The model gains Insignificant.")
    assert (f.name, f.name_evidence, f.kind) == (None, None, "grant")
    assert [(e["rule"], text[slice(*e["span"])]) for e in f.effects] == [
        ("insignificant", "Insignificant")
    ]
    _, both = facts_for(en_facts, "The model gains Insignificant and Strider")
    assert [(e["rule"], e.get("params")) for e in both.effects] == [
        ("insignificant", None),
        ("strider", ["Forest"]),
    ]


@pytest.mark.parametrize(
    ("start", "label"),
    [
        ("Attack Attribute - Close Combat.", "Attack Attribute - Close Combat."),
        ("Universal Rule.", "Universal Rule."),
        ("Inanimate - Melee", "Inanimate - Melee"),
        ("Attacks & Weapons, Melee", "Attacks & Weapons, Melee"),
    ],
)
def test_labels_split_off(en_facts, start, label):
    _, f = facts_for(en_facts, start)
    assert f.labels == (label,)
    assert all(label not in str(e.get("when", "")) for e in f.effects)


def test_names_from_text(en_facts):
    expected = {
        "Units with models with Oi it bites!": ("Oi it bites!", "with-pattern"),
        "At step 8 of the Pre-Game Sequence": ("Scout", "with-pattern"),
        "The model cannot Pursue": ("War Machine", "with-pattern"),
        "After contacting a unit for the first time": ("Gnasher Wrecking Team", "gains"),
        "When a unit with Running Amok!!": ("Running Amok!!", "with-pattern"),
        "If more than half of a unit's models are Fearless": ("Fearless", "with-pattern"),
    }
    for start, (name, evidence) in expected.items():
        _, f = facts_for(en_facts, start)
        assert (f.name, f.name_evidence) == (name, evidence), start
    _, scout = facts_for(en_facts, "At step 8 of the Pre-Game Sequence")
    assert scout.kind == "special-rule"  # "Spell Selection" does not make it a spell


@pytest.mark.parametrize(
    ("start", "op", "fields"),
    [
        ("The wielder gains +1 Attack Value", "ignore", {"what": "parry"}),
        ("If more than half of a unit's models are Fearless", "auto-pass", {"test": "panic"}),
        ("Fortitude is a Special Save", "special-save", {"kind": "fortitude", "value": "X"}),
        ("Before rolling to hit", "multiple-wounds", {"amount": "D3+1"}),
        (
            "In the First Round of Combat",
            "modify",
            {"characteristic": "agility", "by": 3, "when": "first-round"},
        ),
        ("+3 Armor", "modify", {"characteristic": "armour", "by": 3}),
        ("Armor +1", "modify", {"characteristic": "armour", "by": 1}),
        (
            "Attacks made with a Lance",
            "grant",
            {
                "rule": "devastating-charge",
                "params": ["+2 Strength", "+2 Armour Penetration"],
                "when": "front-facing",
            },
        ),
        ("At the model part's Initiative Step", "hits", {"count": 1, "strength": 5, "ap": 10}),
        ("At the start of each friendly Player Turn", "test", {"on_fail": "shaken"}),
        ("Model parts with Harnessed", "forbid", {"action": "supporting-attacks"}),
        ("The model may only join units", "ignore", {"what": "oi-it-bites"}),
    ],
)
def test_effect_ops(en_facts, start, op, fields):
    _, f = facts_for(en_facts, start)
    assert any(
        e["op"] == op and all(e.get(k) == v for k, v in fields.items()) for e in f.effects
    ), f.effects


@pytest.mark.parametrize("start", ["Natural to-wound rolls of '1'", "When a Gnasher Herd unit"])
def test_within_a_distance_is_unread_not_guessed(en_facts, start):
    # "units within 6\" of a friendly Idol": an aura no part reads; the clause is listed
    # unread instead of holding everywhere (or under a condition no scenario can name)
    text, f = facts_for(en_facts, start)
    assert f.effects == () and f.coverage == "descriptive"
    assert any("within" in text[a:b] for a, b in f.unformalised)


def test_lance_modifiers_in_brackets_are_not_the_lance_own(en_facts):
    _, f = facts_for(en_facts, "Attacks made with a Lance")
    assert ops(f, "modify") == []


def test_every_english_paragraph_has_a_kind_and_valid_effects(en_segments, glossary):
    assert len(en_segments) == 110
    unique: dict[str, Facts] = {}
    for seg in en_segments:
        f = extract(seg, glossary)
        assert f.kind in KINDS
        for i, effect in enumerate(f.effects):
            validate_effect({k: v for k, v in effect.items()}, seg.id, f"effects[{i}]")
            a, b = effect["span"]
            assert 0 <= a < b <= len(seg.text)
        for a, b in f.unformalised:
            assert 0 <= a < b <= len(seg.text)
        json.dumps(f.to_json(), ensure_ascii=False)
        unique.setdefault(seg.text, f)
    assert len(unique) == 55
    with_effects = sum(bool(f.effects) for f in unique.values())
    assert with_effects / len(unique) >= 0.7, with_effects
    assert {f.coverage for f in unique.values()} == {"full", "partial", "descriptive"}


def test_every_op_is_emitted_somewhere(seed_segments, glossary, tmp_path):
    # the seeds, and the BattleScribe fixture of special attacks (Area Attack, Weapon Master)
    from pipeline.ingest import ingest

    drop = tmp_path / "drops" / "gst"
    drop.mkdir(parents=True)
    fixture = ROOT / "tests" / "data" / "battlescribe" / "attacks.gst"
    (drop / fixture.name).write_bytes(fixture.read_bytes())
    by_file: dict[str, list[Segment]] = {}
    for seg in [*seed_segments, *ingest(tmp_path).segments]:
        by_file.setdefault(seg.file, []).append(seg)
    emitted = {
        e["op"]
        for segs in by_file.values()
        for f in extract_file(segs, glossary)
        for e in f.effects
    }
    schema = json.loads((ROOT / "schemas" / "effect.schema.json").read_text(encoding="utf-8"))
    assert emitted == set(schema["properties"]["op"]["enum"])


def test_extract_text_shape(glossary):
    out = extract_text(
        "gw", "Attacks made with a [b]Great Weapon[/b] gain +2 Strength.", "en", glossary
    )
    assert set(out) == {"id", "name", "kind", "keywords", "quantities", "effects"}
    assert (out["id"], out["name"], out["kind"]) == ("gw", "Great Weapon", "weapon")
    assert "strength" in out["keywords"]
    assert out["quantities"][0]["surface"] == "+2 Strength"
    assert out["effects"][0]["by"] == 2
    table = extract_text("t", "| D6 | Result |\n|---|---|\n| 1-3 | Miss |\n| 4-6 | Hit |", "en")
    assert table["kind"] == "table"


def test_extract_is_pure(en_segments, glossary):
    seg = en_segments[0]
    assert extract(seg, glossary) == extract(seg, glossary)
    assert extract(seg, glossary).to_json() == extract(seg, glossary).to_json()


def test_interpreter_charges_with_extracted_swiftstride(en_facts, tmp_path):
    """The extracted effects, written as a rule file, change the charge odds as they should."""
    import yaml

    from pipeline.interpret.charge import charge
    from pipeline.interpret.rules import Build

    _, f = facts_for(en_facts, "When a unit composed entirely of models with Swiftstride")
    (tmp_path / "rules").mkdir()
    rule = {"id": f.id, "kind": f.kind, "names": {"en": f.name}, "effects": list(f.effects)}
    (tmp_path / "rules" / "swiftstride.yaml").write_text(yaml.safe_dump(rule), "utf-8")
    effects = Build(tmp_path).effects(["swiftstride"])
    fast, plain = charge(10, 4, effects), charge(10, 4)
    assert fast.expr.startswith("3D6 drop lowest 1")
    assert fast.p_success > plain.p_success
