"""rulepipe export: every document validates against its standard's own schema (kept in
tests/data/export/), and TMX/XLIFF read back with translate-toolkit give the same pairs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from lxml import etree
from translate.storage import tmx, xliff2

from pipeline.export.pairs import load_pairs
from pipeline.export.tmx import write_tmx
from pipeline.export.xliff import write_xliff
from pipeline.glossary import load_glossary
from tests.conftest import CORPUS, run_cli
from tests.helpers.export_build import HOSTILE, export, make_aligned_build, parse

DATA = Path(__file__).parent / "data" / "export"
XLF = "{urn:oasis:names:tc:xliff:document:2.0}"
TBX = "{urn:iso:std:iso:30042:ed-2}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def valid_tmx(text: str) -> etree._ElementTree:
    doc = parse(text)
    dtd = etree.DTD(str(DATA / "tmx14.dtd"))
    assert dtd.validate(doc), dtd.error_log.filter_from_errors()
    return doc


def valid_xliff(text: str) -> etree._ElementTree:
    doc = parse(text)
    schema = etree.XMLSchema(etree.parse(str(DATA / "xliff_core_2.0.xsd")))
    assert schema.validate(doc), schema.error_log.filter_from_errors()
    return doc


def valid_tbx(text: str) -> etree._ElementTree:
    doc = parse(text)
    rng = etree.RelaxNG(etree.parse(str(DATA / "TBXcoreStructV03_TBX-Basic_integrated.rng")))
    assert rng.validate(doc), rng.error_log.filter_from_errors()
    return doc


def tmx_pairs(text: str) -> list[tuple[str, str, str]]:
    store = tmx.tmxfile(text.encode("utf-8"))
    return [(u.getid(), u.source, u.target) for u in store.units]


def _rich_text(elems, data: dict[str, str]) -> str:
    """A translate-toolkit rich string back to BBCode, tags from the unit's <originalData>."""
    out = []
    for elem in elems:
        if isinstance(elem, str):
            out.append(elem)
            continue
        node = getattr(elem, "xml_node", None)
        if node is None:
            out.append(_rich_text(elem.sub, data))
        elif node.tag == XLF + "pc":
            inner = _rich_text(elem.sub, data)
            out.append(data[node.get("dataRefStart")] + inner + data[node.get("dataRefEnd")])
        else:
            out.append(data[node.get("dataRef")])
    return "".join(out)


def xliff_pairs(text: str) -> list[tuple[str, str, str]]:
    store = xliff2.Xliff2File(text.encode("utf-8"))
    pairs = []
    for unit in store.units:
        xml_unit = unit.xmlelement.getparent()
        data = {d.get("id"): d.text for d in xml_unit.iter(XLF + "data")}
        pairs.append(
            (unit.getid(), _rich_text(unit.rich_source, data), _rich_text(unit.rich_target, data))
        )
    return pairs


@pytest.fixture(scope="module")
def aligned(seed_build, tmp_path_factory) -> Path:
    return make_aligned_build(seed_build.out, tmp_path_factory.mktemp("aligned") / "output")


# the seed build as built, alignments.json from the aligner


def test_seed_build_exports_read_back_as_its_linked_pairs(seed_build):
    links = json.loads((seed_build.out / "alignments.json").read_text("utf-8"))["links"]
    linked = [link["id"] for link in links if link["status"] == "linked"]
    pairs = load_pairs(seed_build.out)
    assert [p.id for p in pairs] == linked and len(pairs) >= 1
    ricochet = next(p for p in pairs if p.rule == "ricochet")
    assert (ricochet.source_lang, ricochet.target_lang) == ("en", "ru")
    text = export(seed_build.out, "--format", "tmx")
    valid_tmx(text)
    assert tmx_pairs(text) == [(p.id, p.source, p.target) for p in pairs]
    for lang in sorted({p.target_lang for p in pairs}):
        text = export(seed_build.out, "--format", "xliff", "--target-lang", lang)
        valid_xliff(text)
        expected = [(p.id, p.source, p.target) for p in pairs if p.target_lang == lang]
        assert xliff_pairs(text) == expected


def test_seed_build_sentence_level_follows_the_aligner(seed_build):
    pairs = load_pairs(seed_build.out, "sentence")
    text = export(seed_build.out, "--format", "tmx", "--level", "sentence")
    valid_tmx(text)
    assert tmx_pairs(text) == [(p.id, p.source, p.target) for p in pairs]
    ricochet = [p for p in pairs if p.rule == "ricochet"]
    english = " ".join(p.source for p in ricochet)
    russian = " ".join(p.target for p in ricochet)
    assert (
        english.split()
        == next(p for p in load_pairs(seed_build.out) if p.rule == "ricochet").source.split()
    )
    assert "Перемещение происходит по правилу Случайного движения." in russian
    text = export(seed_build.out, "--format", "xliff", "--target-lang", "ru", "--level", "sentence")
    valid_xliff(text)
    assert xliff_pairs(text) == [(p.id, p.source, p.target) for p in pairs if p.target_lang == "ru"]


# TMX


def test_tmx_paragraphs_validate_and_read_back_as_the_linked_pairs(aligned):
    text = export(aligned, "--format", "tmx")
    doc = valid_tmx(text)
    header = doc.find("header")
    for attr in (
        "creationtool",
        "creationtoolversion",
        "segtype",
        "o-tmf",
        "adminlang",
        "srclang",
        "datatype",
    ):
        assert header.get(attr), attr
    assert header.get("segtype") == "paragraph" and header.get("srclang") == "en"
    expected = [(p.id, p.source, p.target) for p in load_pairs(aligned)]
    assert tmx_pairs(text) == expected
    ids = [tu.get("tuid") for tu in doc.iter("tu")]
    assert ids == ["l-000000000001", "l-000000000002", "l-000000000003", "l-000000000004"]
    langs = {tu.get("tuid"): [v.get(XML_LANG) for v in tu.iter("tuv")] for tu in doc.iter("tu")}
    assert langs["l-000000000001"] == ["en", "ru"] and langs["l-000000000002"] == ["en", "it"]


def test_tmx_ricochet_pair_is_the_seed_texts(aligned):
    store = tmx.tmxfile(export(aligned, "--format", "tmx").encode("utf-8"))
    ricochet = store.units[0]
    seeds = CORPUS / "drops" / "seed"
    assert ricochet.target == (seeds / "000_745db052e7f633dc.txt").read_text("utf-8").strip()
    english = (seeds / "002_c7ff2043f171b6ae.txt").read_text("utf-8").split("\n")[0]
    assert ricochet.source == english
    assert "Х+D6" in ricochet.target  # the Cyrillic Х travels as it is


def test_tmx_bbcode_pairs_are_bpt_ept_and_the_same_code_shares_x(aligned):
    doc = valid_tmx(export(aligned, "--format", "tmx"))
    venom = next(tu for tu in doc.iter("tu") if tu.get("tuid") == "l-000000000003")
    src_seg, trg_seg = (tuv.find("seg") for tuv in venom.iter("tuv"))
    bpt = src_seg.find("bpt")
    assert (bpt.text, bpt.get("type"), bpt.get("i")) == ("[b]", "bold", "1")
    assert src_seg.find("ept").text == "[/b]" and src_seg.find("ept").get("i") == "1"
    trg_x = {b.text: b.get("x") for b in trg_seg.iter("bpt")}
    assert trg_x["[b]"] == bpt.get("x")  # the bold of the target is the bold of the source
    assert trg_x["[i]"] != bpt.get("x")  # the italic exists only in the target


def test_tmx_sentences_follow_the_sentence_links_and_isolate_cut_tags(aligned):
    text = export(aligned, "--format", "tmx", "--level", "sentence")
    doc = valid_tmx(text)
    assert doc.find("header").get("segtype") == "sentence"
    pairs = load_pairs(aligned, "sentence")
    assert len(pairs) == 13 + 1 + 3 + 3
    assert tmx_pairs(text) == [(p.id, p.source, p.target) for p in pairs]
    one_to_two = dict((p.id, p) for p in pairs)["l-000000000001-s4"]
    assert one_to_two.source.startswith("If there is no legal position")
    assert one_to_two.target.startswith("Если эту модель невозможно")
    assert one_to_two.target.endswith("Перемещение происходит по правилу Случайного движения.")
    cut = next(tu for tu in doc.iter("tu") if tu.get("tuid") == "l-000000000004-s1")
    it = cut.find("tuv/seg/it")
    assert (it.get("pos"), it.text) == ("begin", "[b]")
    last = next(tu for tu in doc.iter("tu") if tu.get("tuid") == "l-000000000004-s3")
    seg = last.find("tuv/seg")
    assert seg.find("ph").text == "[*]" and seg.find("it").get("pos") == "end"


def test_tmx_target_lang_filter(aligned):
    text = export(aligned, "--format", "tmx", "--target-lang", "it")
    valid_tmx(text)
    assert [p[0] for p in tmx_pairs(text)] == ["l-000000000002"]


# XLIFF


def test_xliff_validates_and_reads_back_as_the_pairs_with_bbcode(aligned):
    text = export(aligned, "--format", "xliff", "--target-lang", "ru")
    doc = valid_xliff(text)
    root = doc.getroot()
    assert (root.get("version"), root.get("srcLang"), root.get("trgLang")) == ("2.0", "en", "ru")
    expected = [(p.id, p.source, p.target) for p in load_pairs(aligned) if p.target_lang == "ru"]
    assert xliff_pairs(text) == expected
    venom = next(u for u in root.iter(XLF + "unit") if u.get("id") == "l-000000000003")
    data = {d.get("id"): d.text for d in venom.iter(XLF + "data")}
    pc = venom.find(f"{XLF}segment/{XLF}source/{XLF}pc")
    assert (data[pc.get("dataRefStart")], data[pc.get("dataRefEnd")]) == ("[b]", "[/b]")
    assert pc.text == "Multiple Wounds (D3+1)" and pc.get("id") == "1"
    assert venom.get("name") == "venomous-fangs"


def test_xliff_sentences_validate_and_isolated_tags_read_back(aligned):
    text = export(aligned, "--format", "xliff", "--target-lang", "ru", "--level", "sentence")
    doc = valid_xliff(text)
    expected = [
        (p.id, p.source, p.target) for p in load_pairs(aligned, "sentence") if p.target_lang == "ru"
    ]
    assert xliff_pairs(text) == expected
    sc = next(doc.getroot().iter(XLF + "sc"))
    assert sc.get("isolated") == "yes"


def test_xliff_refuses_several_target_languages_in_one_line(aligned):
    result = run_cli("export", "--build", str(aligned), "--format", "xliff")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "it, ru" in result.stderr


# hostile text through the pure writers


def test_hostile_markup_gives_valid_documents_that_read_back():
    text = write_tmx(HOSTILE, "paragraph")
    valid_tmx(text)
    expected = [(p.id, p.source, p.target.replace("\x0b", "\ufffd")) for p in HOSTILE]
    assert tmx_pairs(text) == expected
    text = write_xliff(HOSTILE)
    valid_xliff(text)
    assert xliff_pairs(text) == expected


# glossary


def test_tbx_validates_and_holds_every_rendering_with_its_status():
    result = run_cli("export", "--format", "tbx")
    assert result.returncode == 0, result.stderr
    doc = valid_tbx(result.stdout)
    found: dict[tuple[str, str], set[str]] = {}
    for term_sec in doc.getroot().iter(TBX + "termSec"):
        lang = term_sec.getparent().get(XML_LANG)
        status = term_sec.find(TBX + "termNote").text
        found.setdefault((lang, term_sec.find(TBX + "term").text), set()).add(status)
    glossary = load_glossary(CORPUS / "glossary.yaml")
    entries = list(doc.getroot().iter(TBX + "conceptEntry"))
    assert len(entries) == len(glossary.terms)
    for term in glossary.terms:
        for lang, texts in term.renderings.items():
            assert "preferredTerm-admn-sts" in found[(lang, texts[0])]
            for variant in texts[1:]:
                assert found[(lang, variant)] == {"admittedTerm-admn-sts"}
        for lang, texts in term.deprecated.items():
            for text in texts:
                assert found[(lang, text)] == {"deprecatedTerm-admn-sts"}
    assert found[("ru", "Правило расстояния между отрядами")] == {"deprecatedTerm-admn-sts"}
    assert found[("en", "Armor")] == {"deprecatedTerm-admn-sts"}


def test_tsv_names_the_languages_and_marks_deprecated_renderings(tmp_path):
    out = tmp_path / "glossary.tsv"
    result = run_cli("export", "--format", "tsv", "-o", str(out))
    assert result.returncode == 0 and result.stdout == ""
    rows = [line.split("\t") for line in out.read_text("utf-8").splitlines()]
    header = rows[0]
    glossary = load_glossary(CORPUS / "glossary.yaml")
    assert header[: len(glossary.languages)] == list(glossary.languages) == ["en", "ru", "it"]
    col = {name: i for i, name in enumerate(header)}
    assert all(len(r) == len(header) for r in rows)
    by_term: dict[str, list[list[str]]] = {}
    for r in rows[1:]:
        by_term.setdefault(r[col["term"]], []).append(r)
    assert set(by_term) == {t.id for t in glossary.terms}
    for term in glossary.terms:
        preferred = [r for r in by_term[term.id] if r[col["status"]] == "preferred"]
        assert len(preferred) == 1
        for lang, texts in term.renderings.items():
            assert preferred[0][col[lang]] == texts[0]
        for lang, texts in term.deprecated.items():
            for text in texts:
                assert [text, "deprecated"] in [
                    [r[col[lang]], r[col["status"]]] for r in by_term[term.id]
                ]


# bundle


def test_json_is_the_bundle_and_yaml_the_same_data(aligned):
    text = export(aligned, "--format", "json")
    assert text == (aligned / "rules.json").read_text("utf-8")
    data = yaml.safe_load(export(aligned, "--format", "yaml"))
    assert data == json.loads(text) and len(data) > 50


def test_default_build_is_output_of_the_current_folder(aligned, tmp_path):
    import shutil

    shutil.copytree(aligned, tmp_path / "output")
    result = run_cli("export", "--format", "tmx", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert len(tmx_pairs(result.stdout)) == 4


# bad input


def test_missing_build_or_alignments_exit_2_and_leave_the_target_alone(seed_build, tmp_path):
    import shutil

    no_links = tmp_path / "builds" / "output"
    shutil.copytree(seed_build.out, no_links)
    (no_links / "alignments.json").unlink()
    out = tmp_path / "pairs.tmx"
    out.write_text("previous export", "utf-8")
    for build in (tmp_path / "nowhere", no_links):
        result = run_cli("export", "--format", "tmx", "--build", str(build), "-o", str(out))
        assert result.returncode == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert str(build) in result.stderr
    assert out.read_text("utf-8") == "previous export"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["builds", "pairs.tmx"]


def test_a_link_to_an_unknown_segment_is_named(aligned, tmp_path):
    import shutil

    build = tmp_path / "output"
    shutil.copytree(aligned, build)
    doc = json.loads((build / "alignments.json").read_text("utf-8"))
    doc["links"][1]["target"] = "seed/missing.txt#9"
    (build / "alignments.json").write_text(json.dumps(doc), "utf-8")
    result = run_cli("export", "--format", "tmx", "--build", str(build))
    assert result.returncode == 2 and result.stdout == ""
    assert "links/1" in result.stderr and "seed/missing.txt#9" in result.stderr


def test_written_file_replaces_the_old_one_whole(aligned, tmp_path):
    out = tmp_path / "pairs.xlf"
    out.write_text("old", "utf-8")
    result = run_cli(
        "export",
        "--build",
        str(aligned),
        "--format",
        "xliff",
        "--target-lang",
        "it",
        "-o",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert xliff_pairs(out.read_text("utf-8"))[0][1:] == ("+3 Armor", "armatura +3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pairs.xlf"]
