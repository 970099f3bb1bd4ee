"""TMX and XLIFF drops as a translation team receives them: pairs kept as pairs, BBCode
read back from the inline codes, languages from the files' own tags."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.errors import InputError
from pipeline.ingest import READERS, read_file
from pipeline.lang import primary as lang_code
from pipeline.schemas import validator

from .conftest import ROOT, SEED, run_cli

DATA = ROOT / "tests" / "data" / "xml"
RICOCHET_EN = (SEED / "002_c7ff2043f171b6ae.txt").read_text("utf-8").split("\n")[0]
RICOCHET_RU = (SEED / "000_745db052e7f633dc.txt").read_text("utf-8")
GREAT_WEAPON_EN = (
    "Attacks made with a Great Weapon gain [b]+2 Strength[/b] and [b]+2 Armour Penetration[/b]."
)
GREAT_WEAPON_RU = (
    "Атаки, совершённые Двуручным оружием, получают [b]+2 к Силе[/b] и [b]+2 к Бронебойности[/b]."
)
SWIFTSTRIDE_EN = (
    "When a unit composed entirely of models with [b]Swiftstride[/b] rolls Charge Range, it "
    "rolls an additional D6 and discards the lowest D6 rolled."
)


def segments(name: str, data: bytes | None = None):
    path = DATA / name
    return read_file("tm", name, str(path), path.read_bytes() if data is None else data)[0]


def table(segs):
    return [(s.unit, s.role, s.lang, s.raw) for s in segs]


def test_suffixes_are_registered():
    for suffix in (".tmx", ".xlf", ".xliff", ".gst", ".cat", ".gstz", ".catz"):
        assert suffix in READERS


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("en-GB", "en"),
        ("RU-ru", "ru"),
        ("it", "it"),
        ("ast_ES", "ast"),
        ("*all*", None),
        ("", None),
    ],
)
def test_language_tags_reduce_to_their_primary_subtag(tag, code):
    assert lang_code(tag) == code


def test_tmx_gives_one_block_per_variant_with_role_unit_and_language():
    segs = segments("rules.tmx")
    assert [(s.unit, s.role, s.lang) for s in segs] == [
        ("ricochet", "source", "en"),
        ("ricochet", "target", "ru"),
        ("great-weapon", "source", "en"),
        ("great-weapon", "target", "ru"),
        ("tu3", "source", "en"),  # no tuid: a stable index; "EN" and "ru" tags
        ("tu3", "target", "ru"),
        ("tu4", "source", "ru"),  # the tu's own srclang wins over the header's en-GB
        ("tu4", "target", "en"),
        ("swiftstride", "source", "en"),  # a unit with no target gives only its source
    ]
    assert all(s.kind == "paragraph" and s.lang_confidence == 1.0 for s in segs)


def test_tmx_inline_codes_read_back_to_the_bbcode_they_encode():
    segs = {(s.unit, s.role): s for s in segments("rules.tmx")}
    assert segs["ricochet", "source"].raw == RICOCHET_EN
    assert segs["ricochet", "target"].raw == RICOCHET_RU
    assert segs["great-weapon", "source"].raw == GREAT_WEAPON_EN
    assert segs["great-weapon", "target"].raw == GREAT_WEAPON_RU
    assert [m.tag for m in segs["great-weapon", "target"].markup] == ["b", "b"]
    assert "[br]" in segs["tu3", "source"].raw and "<" not in segs["tu3", "source"].raw
    assert segs["tu3", "target"].raw.startswith("Модели с правилом Авангард могут")  # <hi> text
    assert segs["tu4", "target"].raw.startswith("Hits are resolved with the [i]Strength")
    assert segs["swiftstride", "source"].raw == SWIFTSTRIDE_EN
    # markup is left out of the text used for matching
    assert segs["great-weapon", "source"].text.startswith(
        "Attacks made with a Great Weapon gain +2"
    )


def test_tmx_lines_point_at_the_variant_in_the_file():
    lines = (DATA / "rules.tmx").read_text("utf-8").split("\n")
    for s in segments("rules.tmx"):
        first, last = s.lines
        chunk = "\n".join(lines[first - 1 : last])
        assert "<tuv" in lines[first - 1]
        assert "</tuv>" in lines[last - 1]
        assert s.raw[:10] in chunk


@pytest.mark.parametrize("name", ["rules-1.2.xlf", "rules-2.0.xlf"])
def test_xliff_keeps_source_and_target_as_such(name):
    segs = segments(name)
    assert [(s.unit, s.role, s.lang) for s in segs] == [
        ("great-weapon", "source", "en"),
        ("great-weapon", "target", "ru"),
        ("vanguard", "source", "en"),
        ("vanguard", "target", "ru"),
        ("swiftstride", "source", "en"),
    ]
    by = {(s.unit, s.role): s.raw for s in segs}
    assert by["great-weapon", "source"] == GREAT_WEAPON_EN
    assert by["great-weapon", "target"] == GREAT_WEAPON_RU
    assert by["swiftstride", "source"] == SWIFTSTRIDE_EN
    assert "[br]" in by["vanguard", "source"] and "[br]" in by["vanguard", "target"]


def test_xliff_12_g_elements_become_the_bbcode_their_ctype_names():
    by = {(s.unit, s.role): s.raw for s in segments("rules-1.2.xlf")}
    assert by["vanguard", "source"].startswith(
        'Models with [i]Vanguard[/i] may perform a 12" move.'
    )
    assert "[i]Авангард[/i]" in by["vanguard", "target"]


def test_xliff_20_joins_segments_and_ignorables_of_a_unit_in_order():
    by = {(s.unit, s.role): s.raw for s in segments("rules-2.0.xlf")}
    assert by["vanguard", "source"] == (
        'Models with Vanguard may perform a 12" move.[br]'
        'This move cannot be used to move within 12" of enemy units.'
    )
    assert by["vanguard", "target"].startswith(
        'Модели с правилом Авангард могут совершить перемещение на 12".[br]Это перемещение'
    )


def test_xliff_20_unit_with_a_missing_segment_target_gives_only_its_source():
    data = (DATA / "rules-2.0.xlf").read_bytes()
    last_target = data.rindex(b"<target>")
    end = data.index(b"</target>", last_target) + len(b"</target>")
    cut = data[:last_target] + data[end:]  # vanguard's second segment loses its target
    segs = segments("rules-2.0.xlf", cut)
    assert ("vanguard", "target") not in {(s.unit, s.role) for s in segs}
    assert ("vanguard", "source") in {(s.unit, s.role) for s in segs}


def test_xliff_in_a_declared_legacy_encoding_is_decoded():
    text = (DATA / "rules-1.2.xlf").read_text("utf-8")
    text = text.replace('encoding="UTF-8"', 'encoding="windows-1251"').replace("ё", "е")
    data = text.encode("cp1251")
    assert data != text.encode("utf-8")
    by = {(s.unit, s.role): s.raw for s in segments("rules-1.2.xlf", data)}
    assert by["great-weapon", "target"] == GREAT_WEAPON_RU.replace("ё", "е")


def test_xliff_with_a_wrong_declared_encoding_is_refused_with_its_place():
    data = (DATA / "rules-1.2.xlf").read_text("utf-8").encode("cp1251", errors="replace")
    with pytest.raises(InputError) as err:
        segments("rules-1.2.xlf", data)
    assert "malformed XML" in str(err.value)
    assert err.value.where and err.value.where.startswith("10:")  # the first Cyrillic line


def test_a_file_that_is_not_the_format_its_suffix_claims_is_refused():
    with pytest.raises(InputError, match="not a TMX file"):
        segments("rules.tmx", (DATA / "rules-1.2.xlf").read_bytes())
    with pytest.raises(InputError, match="not an XLIFF file"):
        segments("rules-1.2.xlf", (DATA / "rules.tmx").read_bytes())


def test_build_of_a_corpus_with_tmx_and_xliff_validates_and_keeps_the_pairs(tmp_path):
    drop = tmp_path / "corpus" / "drops" / "tm"
    drop.mkdir(parents=True)
    for f in DATA.iterdir():
        shutil.copy(f, drop / f.name)
    out = tmp_path / "out"
    result = run_cli("build", str(tmp_path / "corpus"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    check = validator("segment")
    rows = [json.loads(line) for line in (out / "segments.jsonl").read_text("utf-8").splitlines()]
    for row in rows:
        assert not list(check.iter_errors(row)), row["id"]
    assert {r["file"] for r in rows} == {"rules.tmx", "rules-1.2.xlf", "rules-2.0.xlf"}
    pairs = {(r["file"], r["unit"], r["role"]) for r in rows}
    assert ("rules.tmx", "ricochet", "target") in pairs
    assert ("rules-2.0.xlf", "great-weapon", "target") in pairs
    assert not list(
        validator("manifest").iter_errors(json.loads((out / "manifest.json").read_text()))
    )
    assert Path(out / "rules.json").is_file()


def test_tmx_with_any_source_language_leaves_roles_open_and_reads_old_lang_attributes():
    data = (
        '<tmx version="1.1"><header srclang="*all*" segtype="sentence" datatype="plaintext"'
        ' adminlang="en" o-tmf="x" creationtool="x" creationtoolversion="1"/><body>'
        '<tu><tuv lang="EN-US"><seg>Models with Vanguard may perform a 12" move.</seg></tuv>'
        '<tuv lang="RU"><seg>Модели с правилом Авангард могут совершить перемещение на 12".</seg>'
        "</tuv></tu></body></tmx>"
    ).encode()
    segs = segments("any.tmx", data)
    assert [(s.unit, s.role, s.lang) for s in segs] == [("tu1", None, "en"), ("tu1", None, "ru")]


def test_xliff_20_without_original_data_uses_the_subtype_and_equiv():
    data = (
        b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"'
        b' trgLang="ru"><file id="f"><unit id="u"><segment><source>Models with '
        b'<pc id="1" type="fmt" subType="xlf:b">Swiftstride</pc><ph id="2" equiv="[br]"/>'
        b'<cp hex="00A0"/>roll</source></segment></unit></file></xliff>'
    )
    [seg] = segments("plain.xlf", data)
    assert seg.raw == "Models with [b]Swiftstride[/b][br]\u00a0roll"
    assert (seg.role, seg.unit, seg.lang) == ("source", "u", "en")
