"""Hostile and broken XML refused as a user sees it: `rulepipe build` exits 2 with one line
naming the file and what is wrong, writes nothing, and never expands what it refuses."""

from __future__ import annotations

import zipfile

import pytest

from pipeline.errors import InputError
from pipeline.ingest import read_file
from pipeline.xmlsafe import parse_xml, read_zip

from .conftest import run_cli
from .helpers import hostile_xml as h

RULE = '<rule name="Swiftstride"><description>Swiftstride text.</description></rule>'


def build_with(tmp_path, name: str, data: bytes):
    drop = tmp_path / "corpus" / "drops" / "hostile"
    drop.mkdir(parents=True)
    (drop / name).write_bytes(data)
    out = tmp_path / "out"
    result = run_cli("build", str(tmp_path / "corpus"), "-o", str(out))
    return result, out


def refused(tmp_path, name: str, data: bytes) -> str:
    result, out = build_with(tmp_path, name, data)
    assert result.returncode == 2, result.stderr
    assert not out.exists()
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert name in lines[0]
    return lines[0]


def refused_in_process(name: str, data: bytes) -> str:
    """The same refusal through the reader registry, without starting the tool."""
    with pytest.raises(InputError) as err:
        read_file("hostile", name, name, data)
    assert "\n" not in str(err.value)
    return str(err.value)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1:9/secret"])
def test_external_entity_is_refused(tmp_path, url):
    line = refused(tmp_path, "leak.gst", h.external_entity(url))
    assert "entity declaration refused" in line
    assert "root:" not in line


def test_billion_laughs_is_refused(tmp_path):
    line = refused(tmp_path, "laughs.cat", h.billion_laughs())
    assert "entity declaration refused" in line
    assert "laughs.cat:3:1" in line  # where the first declaration is


def test_dtd_loading_an_external_subset_is_refused(tmp_path):
    line = refused(tmp_path, "dtd.gst", h.external_dtd("http://127.0.0.1:9/evil.dtd"))
    assert "points at an external DTD (http://127.0.0.1:9/evil.dtd)" in line


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (h.external_dtd("file:///etc/passwd"), "points at an external DTD"),
        (h.external_dtd("/etc/passwd"), "points at an external DTD"),
        (h.external_dtd("C:\\evil.dtd"), "points at an external DTD"),
        (h.parameter_entity_subset(), "entity declaration refused"),
    ],
)
def test_other_external_subsets_are_refused(data, reason):
    assert reason in refused_in_process("dtd.gst", data)


def test_internal_subset_without_entities_is_refused_too():
    data = h.gst(RULE, "<!DOCTYPE gameSystem [<!ELEMENT gameSystem ANY>]>\n")
    with pytest.raises(InputError, match="internal DTD subset"):
        parse_xml("x.gst", data)


def test_a_local_dtd_name_is_accepted_and_never_read(tmp_path):
    data = h.gst(RULE, '<!DOCTYPE gameSystem SYSTEM "battlescribe.dtd">\n')
    root = parse_xml("x.gst", data)
    assert root.get("name") == "Hostile"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-32-le"])
def test_entity_declarations_in_wide_encodings_are_found_before_parsing(encoding):
    text = h.billion_laughs().decode("utf-8")
    data = text.replace('encoding="UTF-8"', f'encoding="{encoding.upper()}"').encode(encoding)
    with pytest.raises(InputError, match="entity declaration refused") as err:
        parse_xml("x.gst", data)
    assert err.value.where == "3:1"


def test_one_gib_zip_bomb_is_refused_from_its_header(tmp_path):
    bomb = h.zip_bomb(1024)
    assert len(bomb) < 2 * 1024 * 1024
    with zipfile.ZipFile(__import__("io").BytesIO(bomb)) as z:
        assert z.infolist()[0].file_size == 1 << 30  # a real, honest 1 GiB member
    line = refused(tmp_path, "bomb.catz", bomb)
    assert "declares 1073741824 bytes uncompressed" in line and "zip bomb" in line


def test_bomb_under_the_size_limit_is_refused_by_its_ratio():
    with pytest.raises(InputError, match=r"expands \d+ times"):
        read_zip("b.catz", h.zip_bomb(8), max_members=1)


def test_header_that_lies_about_its_size_is_refused_without_expanding():
    line = refused_in_process("lie.catz", h.lying_zip(1 << 30))
    assert "declares 1073741824 bytes" in line


def test_member_longer_than_declared_is_cut_at_the_declared_size():
    data = h.lying_zip(declared=100)  # the member really holds more than 100 bytes
    with pytest.raises(InputError, match=r"corrupt zip member|exceeds its size"):
        read_zip("lie.catz", data)


def test_zip_with_many_members_is_refused(tmp_path):
    line = refused(tmp_path, "many.catz", h.many_members(5000))
    assert "5000 members; at most 1" in line


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (h.nested_zip(), "nested archive"),
        (h.encrypted_zip(), "encrypted zip member"),
        (h.zipfile_bytes({"a.cat": h.gst(), "b.cat": h.gst()}), "2 members; at most 1"),
        (h.zipfile_bytes({"readme.txt": b"hello"}), "not a .gst or .cat file"),
        (b"PK\x03\x04 not really a zip", "not a zip archive"),
    ],
)
def test_other_bad_zips_are_refused(data, reason):
    assert reason in refused_in_process("bad.catz", data)


def test_malformed_xml_names_line_and_column(tmp_path):
    data = h.gst('<rule name="R"><description>open\n</rule>')
    line = refused(tmp_path, "broken.gst", data)
    assert "malformed XML" in line
    assert "broken.gst:4:" in line  # the mismatched end tag is on line 4


def test_undeclared_entity_reference_is_malformed():
    line = refused_in_process(
        "ent.cat", h.gst('<rule name="R"><description>&nbsp;</description></rule>')
    )
    assert "malformed XML" in line and "nbsp" in line


def test_non_utf8_xml_with_its_encoding_declared_builds(tmp_path):
    text = h.gst(
        RULE.replace("Swiftstride text.", "Стремительность: бросьте ещё один D6.")
    ).decode()
    data = text.replace('encoding="UTF-8"', 'encoding="KOI8-R"').encode("koi8-r")
    result, out = build_with(tmp_path, "koi8.gst", data)
    assert result.returncode == 0, result.stderr
    assert "Стремительность: бросьте ещё один D6." in (out / "segments.jsonl").read_text("utf-8")


def test_oversized_xml_is_refused_before_parsing():
    with pytest.raises(InputError, match="XML file too large"):
        parse_xml("big.gst", h.gst(RULE * 100), max_bytes=1000)


def test_empty_xml_is_refused():
    assert "empty XML file" in refused_in_process("empty.tmx", b"  \n")


@pytest.mark.parametrize(
    "data",
    [h.billion_laughs(), h.external_entity("file:///etc/passwd"), h.parameter_entity_subset()],
)
def test_the_parser_alone_neither_expands_nor_fetches(monkeypatch, data):
    """Defence in depth: with the byte scan switched off, lxml's own settings still refuse."""
    import pipeline.xmlsafe as xmlsafe

    monkeypatch.setattr(xmlsafe, "check_prolog", lambda name, data: None)
    with pytest.raises(InputError) as err:
        xmlsafe.parse_xml("x.gst", data)
    assert "root:" not in str(err.value)
    reasons = ("internal DTD subset", "amplification", "Attempt to load network entity")
    assert any(r in str(err.value) for r in reasons), str(err.value)
