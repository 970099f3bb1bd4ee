"""The assembled rule files of the seed build, checked as a rules team would."""

from __future__ import annotations

import json
from collections import Counter

import yaml

from pipeline.schemas import validator
from pipeline.slug import slugify, unique

from .conftest import run_cli


def rules_by_id(seed_build):
    return {r["id"]: r for r in seed_build.rules}


def test_every_rule_file_validates_and_matches_the_bundle(seed_build):
    out = seed_build.out
    bundle = json.loads((out / "rules.json").read_text("utf-8"))
    validator("rules").validate(bundle)
    files = {f.stem: f for f in (out / "rules").glob("*.yaml")}
    assert sorted(files) == sorted(r["id"] for r in bundle)
    for rule in bundle:
        assert yaml.safe_load(files[rule["id"]].read_text("utf-8")) == rule
    assert len({r["id"] for r in bundle}) == len(bundle)


def test_ricochet(seed_build):
    rule = rules_by_id(seed_build)["ricochet"]
    assert rule["signature"] == "Ricochet (X)"
    english = [q for q in rule["quantities"] if q["lang"] == "en"]
    distances = [q for q in english if q["type"] == "distance"]
    assert [(q["value"], q["unit"]) for q in distances] == [(1, "inch")] * 3
    hits = [e for e in rule["effects"] if e["op"] == "hits"]
    assert [(e["count"], e["strength"], e["ap"]) for e in hits] == [
        ("X", "self", "self"),
        ("X+D6", "self", "self"),
    ]
    assert {"op": "forbid", "action": "declare-charge"} in [
        {k: v for k, v in e.items() if k in ("op", "action")} for e in rule["effects"]
    ]
    sources = rule["texts"]["en"]["sources"]
    assert [s["block"] for s in sources] == [1, 2]
    for q in rule["quantities"]:
        text = rule["texts"][q["lang"]]["text"]
        assert text[q["span"][0] : q["span"][1]] == q["surface"]


def test_russian_ricochet_joins_the_english_rule_with_the_same_quantities(seed_build):
    rules = rules_by_id(seed_build)
    rule = rules["ricochet"]
    assert rule["names"] == {"en": "Ricochet", "ru": "Рикошет"}
    ru = rule["texts"]["ru"]
    assert ru["link"]["status"] == "linked" and ru["link"]["score"] >= 0.5
    assert [s["file"] for s in ru["sources"]] == ["000_745db052e7f633dc.txt"]
    assert not any(
        r["id"] != "ricochet"
        and "ru" in r["texts"]
        and r["texts"]["ru"]["cluster"] == ru["cluster"]
        for r in rules.values()
    )

    def keys(lang: str) -> list[tuple]:
        return sorted(
            (q["type"], q.get("value"), q.get("expr"), q.get("unit"))
            for q in rule["quantities"]
            if q["lang"] == lang
        )

    assert keys("ru") == keys("en")
    homoglyphs = [q for q in rule["quantities"] if "homoglyph:Х" in q.get("notes", [])]
    assert len(homoglyphs) == 3 and {q["lang"] for q in homoglyphs} == {"ru"}


def test_every_english_paragraph_is_in_exactly_one_rule(seed_build):
    english = [s.id for s in seed_build.ingested.segments if s.lang == "en"]
    placed = Counter(
        src["segment"]
        for r in seed_build.rules
        for t in r["texts"].values()
        for src in t["sources"]
    )
    assert len(english) == 110
    assert all(placed[s] == 1 for s in english)
    assert all(n == 1 for n in placed.values())
    assert sum(placed.values()) == len(seed_build.ingested.segments)


def test_most_english_rules_are_executable_and_coverage_adds_up(seed_build):
    english = [r for r in seed_build.rules if "en" in r["texts"]]
    assert len(english) == 55
    with_effects = [r for r in english if r["effects"]]
    assert len(with_effects) / len(english) >= 0.7
    counts = seed_build.manifest["counts"]
    assert sum(counts["coverage"].values()) == len(seed_build.rules)
    assert sum(counts["rules"].values()) == len(seed_build.rules)
    acc = seed_build.manifest["accounting"]
    assert (acc["in_rules"], acc["copies"], acc["unassigned"]) == (100, 55, 0)


def test_lotow_tables_cover_the_die_and_chain_to_the_fall_table(seed_build):
    rules = rules_by_id(seed_build)
    tables = {i: r for i, r in rules.items() if r["kind"] == "table"}
    for rule in tables.values():
        covered = Counter(
            v for row in rule["table"]["rows"] for v in range(row["range"][0], row["range"][1] + 1)
        )
        assert covered == Counter(range(1, 7)), rule["id"]
    jump = rules["trudnaya-mestnost-i-prepyatstviya"]
    chains = [row.get("chain") for row in jump["table"].get("natural", [])]
    assert "padenie-s-loshadi" in chains
    assert rules["padenie-s-loshadi"]["kind"] == "table"
    names = {r["names"].get("en") for r in tables.values()}
    assert {"Saddle Up", "Spotting Rolls"} <= names


def test_the_grant_with_no_name_of_its_own(seed_build):
    [rule] = [
        r
        for r in seed_build.rules
        if r["texts"].get("en", {}).get("text") == "The model gains Insignificant."
    ]
    assert rule["kind"] == "grant"
    assert rule["names"] == {}
    assert [e["op"] for e in rule["effects"]] == ["grant"]
    assert any(f["flag"] == "no-name" for f in rule["flags"])
    assert len(rule["texts"]["en"]["sources"]) == 4


def test_rule_ids_are_safe_slugs():
    for hostile in ["..", "../etc/passwd", "con", "", "/", "NUL", "a\\b", "Рикошет"]:
        slug = slugify(hostile)
        assert slug and "/" not in slug and "\\" not in slug and slug not in ("..", ".")
        assert slug not in ("con", "nul")
    assert unique(["fear", "fear", "fear-2"]) == ["fear", "fear-3", "fear-2"]


def test_extract_command_reads_jsonl(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps(
            {"id": "gw", "lang": "en", "text": "Attacks made with a Great Weapon gain +2 Strength."}
        )
        + "\n\n"
        + json.dumps({"id": "f", "lang": "en", "text": "Units with Fear suffer -1 Discipline."})
        + "\n",
        encoding="utf-8",
    )
    result = run_cli("extract", str(src))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["id"] for r in rows] == ["gw", "f"]
    assert set(rows[0]) == {"id", "name", "kind", "keywords", "quantities", "effects"}
    assert rows[0]["name"] == "Great Weapon"
    assert {"op": "modify", "characteristic": "strength", "by": 2} in [
        {k: e[k] for k in ("op", "characteristic", "by") if k in e} for e in rows[0]["effects"]
    ]


def test_extract_command_names_the_broken_line(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text('{"id": "a", "text": "x", "lang": "en"}\n{"id": 3}\n', encoding="utf-8")
    result = run_cli("extract", str(src))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().endswith("in.jsonl:2: field 'id' missing or not a str")


def test_attack_reads_the_built_great_weapon_file_and_sees_an_edit(seed_build, tmp_path):
    import shutil

    build = tmp_path / "build"
    shutil.copytree(seed_build.out, build)
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(
        yaml.safe_dump(
            {
                "attacker": {
                    "models": 5,
                    "attacks": 1,
                    "offensive_skill": 4,
                    "strength": 4,
                    "armour_penetration": 0,
                    "agility": 3,
                    "rules": ["great-weapon"],
                },
                "defender": {
                    "defensive_skill": 4,
                    "resilience": 4,
                    "health_points": 1,
                    "armour": 2,
                    "rules": [],
                },
            }
        )
    )

    def means():
        result = run_cli("attack", str(scenario), "--build", str(build), "--json")
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        return {k: data[k]["mean"] for k in ("hits", "wounds", "unsaved_wounds")}

    # 5 attacks hit on 4+; S 4+2 vs R4 wounds on 2+; AP 2 against Armour 2 leaves no save.
    assert means() == {"hits": "5/2", "wounds": "25/12", "unsaved_wounds": "25/12"}
    path = build / "rules" / "great-weapon.yaml"
    rule = yaml.safe_load(path.read_text("utf-8"))
    for effect in rule["effects"]:
        if effect.get("characteristic") == "strength":
            effect["by"] = 1
    path.write_text(yaml.safe_dump(rule, allow_unicode=True), encoding="utf-8")
    # S5 vs R4 wounds on 3+; AP 2 still leaves no save.
    assert means() == {"hits": "5/2", "wounds": "5/3", "unsaved_wounds": "5/3"}


def test_an_effect_out_of_the_vocabulary_is_flagged_not_written(tmp_path):
    # A mistyped step (the core rules stop at Initiative Step 10) must not fail the build.
    corpus = tmp_path / "c"
    (corpus / "drops" / "d").mkdir(parents=True)
    (corpus / "drops" / "d" / "a.txt").write_text(
        "At Initiative Step 11, a charging model part with Impact Hits must choose an enemy "
        "unit. This unit suffers X hits.\n",
        encoding="utf-8",
    )
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    [rule] = json.loads((tmp_path / "out" / "rules.json").read_text("utf-8"))
    assert all(e.get("step", 0) <= 10 for e in rule["effects"])
    flagged = [f for f in rule["flags"] if "not executable" in f.get("detail", "")]
    assert flagged and flagged[0]["detail"].startswith("hits effect not executable")
    assert rule["coverage"] in ("partial", "descriptive")


def test_random_movement_distance_is_a_maximised_roll(seed_build):
    rule = next(
        r
        for r in seed_build.rules
        if r["texts"].get("en", {}).get("text", "").startswith("The roll for the distance moved")
    )
    rolls = [e for e in rule["effects"] if e["op"] == "roll"]
    assert [(e["roll"], e["extra_dice"], e["drop"], e["when"]) for e in rolls] == [
        ("random-movement", 1, "lowest", "in the Movement Phase")
    ]


def test_lotow_headings_own_their_paragraphs_and_tables_in_order(seed_build, seed_segments):
    lotow = [s for s in seed_segments if s.file.startswith("004_")]
    headings = [s for s in lotow if s.kind == "heading"]
    rules = [r for r in seed_build.rules if r.get("parts") and r["parts"][0]["kind"] == "heading"]
    owner = {r["parts"][0]["segment"]: r for r in rules}
    assert sorted(owner) == sorted(s.id for s in headings)  # one rule per heading
    for n, heading in enumerate(headings):
        following = headings[n + 1].block if n + 1 < len(headings) else 10**9
        under = [s.id for s in lotow if heading.block <= s.block < following]
        rule = owner[heading.id]
        assert [p["segment"] for p in rule["parts"]] == under
        text = rule["texts"]["ru"]["text"]
        for part in rule["parts"][1:]:
            a, b = part["span"]
            assert text[a:b] == next(s.text for s in lotow if s.id == part["segment"])
    loose = rules_by_id(seed_build)["loose-mounts"]
    assert loose["names"] == {"en": "Loose Mounts", "ru": "Убежавшие лошади"}
    fall = rules_by_id(seed_build)["padenie-s-loshadi"]
    assert [p["kind"] for p in fall["parts"]] == ["heading", "table"]
    ids = [r["id"] for r in seed_build.rules]
    assert not any(i.endswith(("-2", "-3")) for i in ids)


def _build_one(tmp_path, name: str, text: str) -> list[dict]:
    corpus = tmp_path / name
    (corpus / "drops" / "d").mkdir(parents=True)
    (corpus / "drops" / "d" / "book.md").write_text(text, encoding="utf-8")
    result = run_cli("build", str(corpus), "-o", str(tmp_path / f"{name}-out"))
    assert result.returncode == 0, result.stderr
    return json.loads((tmp_path / f"{name}-out" / "rules.json").read_text("utf-8"))


def test_unnamed_rules_keep_their_id_when_reworded_and_nested_headings_nest(tmp_path):
    book = (
        "# Movement\n\nUnits move in the Movement Phase.\n\n"
        "## Marching\n\nA unit may march at double its Advance Rate.\n\n"
        "| 1 | Stays |\n| 2-6 | Moves |\n\n"
        "## Wheeling\n\nA unit wheels around a front corner.\n\n"
        "# Shooting\n\nUnits shoot in the Shooting Phase.\n\n"
    )
    loose = "The model gains Insignificant.\n\nThe model gains +1 Strength.\n"
    before = {r["id"]: r for r in _build_one(tmp_path, "a", loose + "\n" + book)}
    assert before["marching"]["section"] == "movement"
    assert before["wheeling"]["section"] == "movement"
    assert "section" not in before["shooting"]
    assert [p["kind"] for p in before["marching"]["parts"]] == ["heading", "paragraph", "table"]
    assert before["marching"]["kind"] == "table"
    unnamed = sorted(i for i in before if i not in ("movement", "marching", "wheeling", "shooting"))
    assert len(unnamed) == 2 and all(not any(w in i for w in ("model", "gains")) for i in unnamed)
    reworded = loose.replace("The model gains +1", "This model now gains +1")
    after = {r["id"]: r for r in _build_one(tmp_path, "b", reworded + "\n" + book)}
    assert sorted(after) == sorted(before)
