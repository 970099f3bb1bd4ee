"""BattleScribe data as a rules team uses it: rule names and texts, profiles with their
characteristics, the file's version, and the names as a reference list."""

from __future__ import annotations

import json
import shutil
import zipfile

import pytest

from pipeline.errors import InputError
from pipeline.ingest import read_file
from pipeline.schemas import validator

from .conftest import ROOT, SEED, run_cli

DATA = ROOT / "tests" / "data" / "battlescribe"
SEED_LINES = (SEED / "002_c7ff2043f171b6ae.txt").read_text("utf-8").split("\n")


def read(name: str, data: bytes | None = None):
    path = DATA / name
    return read_file("bs", name, str(path), path.read_bytes() if data is None else data)


def test_game_system_rules_carry_their_stated_names_and_seed_texts():
    segs, version = read("t9a.gst")
    rules = {s.name: s for s in segs if s.kind == "paragraph"}
    assert sorted(rules) == ["Great Weapon", "Ricochet (X)", "Swiftstride", "Vanguard"]
    assert all(s.lang == "en" for s in rules.values())
    # the texts are the seed's (shared rules and one nested in a selection entry)
    for name, line in [
        ("Ricochet (X)", 1),
        ("Great Weapon", 25),
        ("Vanguard", 61),
        ("Swiftstride", 117),
    ]:
        assert rules[name].raw == SEED_LINES[line - 1]
    assert version == {
        "name": "The 9th Age: Fantasy Battles 2.1.5",
        "revision": "30",
        "type": "gameSystem",
    }


def test_an_indented_description_is_trimmed_and_its_lines_cover_the_element():
    segs, _ = read("t9a.gst")
    [vanguard] = [s for s in segs if s.name == "Vanguard"]
    lines = (DATA / "t9a.gst").read_text("utf-8").split("\n")
    first, last = vanguard.lines
    assert "<description>" in lines[first - 1] and "</description>" in lines[last - 1]
    assert last - first == 2
    assert vanguard.raw.startswith("After Deployment") and vanguard.raw.endswith(
        "Vanguarding units."
    )


def test_profiles_keep_every_characteristic_in_order():
    segs, _ = read("t9a.gst")
    [weapon] = [s for s in segs if s.kind == "profile"]
    assert weapon.name == "Great Weapon"
    assert weapon.rows == (
        ("Str", "+2"),
        ("AP", "+2"),
        ("Attributes", "Two-Handed, Strike at Initiative Step 0"),
    )
    assert (
        weapon.raw
        == "Great Weapon. Str +2, AP +2, Attributes Two-Handed, Strike at Initiative Step 0"
    )


def test_catalogue_profiles_rules_and_version():
    segs, version = read("sonnstahl.cat")
    assert version == {"name": "Empire of Sonnstahl", "revision": "7", "type": "catalogue"}
    profiles = [s for s in segs if s.kind == "profile"]
    assert [s.name for s in profiles] == ["Heavy Infantry"] * 3
    assert [dict(s.rows) for s in profiles] == [
        {"Adv": "4″", "Mar": "8″", "Dis": "7", "Rules": ""},
        {"HP": "1", "Def": "3", "Res": "3", "Arm": "0", "Rules": ""},
        {"Att": "1", "Off": "3", "Str": "3", "AP": "0", "Agi": "3", "Rules": ""},
    ]
    assert profiles[0].raw == "Heavy Infantry. Adv 4″, Mar 8″, Dis 7"  # empty values left out
    rules = [(s.name, s.raw) for s in segs if s.kind == "paragraph"]
    assert rules == [("Swiftstride", SEED_LINES[116]), ("Great Weapon", SEED_LINES[24])]


def test_zipped_catalogue_reads_like_the_plain_one():
    plain, v1 = read("sonnstahl.cat")
    zipped, v2 = read("sonnstahl.catz")
    assert v1 == v2
    assert [(s.kind, s.name, s.raw, s.rows, s.lines) for s in plain] == [
        (s.kind, s.name, s.raw, s.rows, s.lines) for s in zipped
    ]
    with zipfile.ZipFile(DATA / "sonnstahl.catz") as z:
        assert [i.filename for i in z.infolist()] == ["sonnstahl.cat"]


def test_old_style_characteristic_values_in_attributes_are_read():
    ns = "http://www.battlescribe.net/schema/catalogueSchema"
    data = (
        f'<catalogue name="Old" revision="2" xmlns="{ns}"><profiles>'
        '<profile name="Spear" profileTypeName="Weapon"><characteristics>'
        '<characteristic name="Strength" value="+1"/></characteristics></profile>'
        "</profiles></catalogue>"
    ).encode()
    [seg], _ = read("old.cat", data)
    assert seg.rows == (("Strength", "+1"),)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'<catalogue xmlns="urn:other"/>',
            "expected 'http://www.battlescribe.net/schema/catalogueSchema'",
        ),
        (b"<roster/>", "not a BattleScribe game system or catalogue"),
    ],
)
def test_other_xml_under_a_battlescribe_suffix_is_refused(data, message):
    with pytest.raises(InputError, match=message):
        read("x.cat", data)


def test_stated_names_match_the_seed_paragraphs_by_hash(seed_segments):
    stated = {s.sha256: s.name for s in read("t9a.gst")[0] if s.kind == "paragraph"}
    named = {stated[s.sha256] for s in seed_segments if s.sha256 in stated}
    assert named == {"Great Weapon", "Ricochet (X)", "Swiftstride", "Vanguard"}


def test_build_of_a_battlescribe_drop_validates_and_records_versions(tmp_path):
    corpus = tmp_path / "corpus"
    drop = corpus / "drops" / "bsdata"
    drop.mkdir(parents=True)
    for name in ("sonnstahl.cat", "sonnstahl.catz", "t9a.gst"):  # the files this test reads
        shutil.copy(DATA / name, drop / name)
    (drop / "seed.txt").write_text(SEED_LINES[116] + "\n", "utf-8")
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out))
    assert result.returncode == 0, result.stderr
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert not list(validator("manifest").iter_errors(manifest))
    versions = {i["file"]: i.get("version") for i in manifest["inputs"]}
    assert versions == {
        "sonnstahl.cat": {"name": "Empire of Sonnstahl", "revision": "7", "type": "catalogue"},
        "sonnstahl.catz": {"name": "Empire of Sonnstahl", "revision": "7", "type": "catalogue"},
        "t9a.gst": {
            "name": "The 9th Age: Fantasy Battles 2.1.5",
            "revision": "30",
            "type": "gameSystem",
        },
        "seed.txt": None,
    }
    rows = [json.loads(line) for line in (out / "segments.jsonl").read_text("utf-8").splitlines()]
    check = validator("segment")
    assert all(not list(check.iter_errors(r)) for r in rows)
    assert {r["name"] for r in rows if "name" in r} == {
        "Great Weapon",
        "Heavy Infantry",
        "Ricochet (X)",
        "Swiftstride",
        "Vanguard",
    }
    assert sum(r["kind"] == "profile" for r in rows) == 7
    assert manifest["accounting"]["balanced"] is True
    # nothing deduplicated at ingest: the three Swiftstride copies are one cluster
    clusters = json.loads((out / "clusters.json").read_text("utf-8"))
    swift = [r["id"] for r in rows if r["raw"] == SEED_LINES[116]]
    assert len(swift) == 4
    members = [
        {m["segment"] for m in c["members"]}
        for c in clusters["clusters"]
        if swift[0] in {m["segment"] for m in c["members"]}
    ]
    assert members == [set(swift)]
