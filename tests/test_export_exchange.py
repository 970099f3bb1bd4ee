"""Exchange files for translators' own tools: TBX-Basic 2, XLIFF 1.2 and PO.

Each is validated against its standard's schema (tests/data/export/) or checked by GNU
msgfmt, read back with translate-toolkit (the library under Weblate and Pootle) with the
same pairs and terms, and a reviewed file put into a new drop changes the build.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from lxml import etree
from translate.storage import po, tbx, xliff

from pipeline.export.pairs import load_pairs
from pipeline.export.po import write_po
from pipeline.export.xliff12 import write_xliff12
from pipeline.glossary import load_glossary
from pipeline.ingest import read_file
from tests.conftest import CORPUS, run_cli
from tests.helpers.export_build import HOSTILE, export, make_aligned_build, parse

DATA = Path(__file__).parent / "data" / "export"
X12 = "{urn:oasis:names:tc:xliff:document:1.2}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
DEPRECATED_RU = "Правило расстояния между отрядами"


@pytest.fixture(scope="module")
def aligned(seed_build, tmp_path_factory) -> Path:
    return make_aligned_build(seed_build.out, tmp_path_factory.mktemp("aligned") / "output")


def valid_xliff12(text: str) -> etree._ElementTree:
    doc = parse(text)
    schema = etree.XMLSchema(etree.parse(str(DATA / "xliff-core-1.2-strict.xsd")))
    assert schema.validate(doc), schema.error_log.filter_from_errors()
    return doc


def valid_tbx2(text: str) -> etree._ElementTree:
    doc = parse(text)
    rng = etree.RelaxNG(etree.parse(str(DATA / "TBXBasicRNGV02.rng")))
    assert rng.validate(doc), rng.error_log.filter_from_errors()
    dtd = etree.DTD(str(DATA / "TBXBasiccoreStructV02.dtd"))
    assert dtd.validate(doc), dtd.error_log.filter_from_errors()
    return doc


def msgfmt_check(path: Path) -> None:
    """GNU gettext's own syntax and header check."""
    result = subprocess.run(
        ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert "error" not in result.stderr, result.stderr


def xliff12_pairs(text: str) -> list[tuple[str, str, str, str]]:
    """(target language, unit id, source, target) as translate-toolkit reads them."""
    store = xliff.xlifffile(text.encode("utf-8"))
    out = []
    for unit in store.units:
        file_el = next(a for a in unit.xmlelement.iterancestors() if a.tag == X12 + "file")
        out.append(
            (file_el.get("target-language"), unit.xmlelement.get("id"), unit.source, unit.target)
        )
    return out


def po_pairs(text: str | bytes) -> list[tuple[str, str, str]]:
    store = po.pofile(text.encode("utf-8") if isinstance(text, str) else text)
    return [(u.getcontext(), u.source, u.target) for u in store.units if not u.isheader()]


# TBX-Basic 2


def test_tbx2_validates_and_translate_toolkit_reads_every_term_and_status(tmp_path):
    out = tmp_path / "glossary.tbx"
    result = run_cli("export", "--format", "tbx", "--tbx-version", "2", "-o", str(out))
    assert result.returncode == 0, result.stderr
    text = out.read_text("utf-8")
    doc = valid_tbx2(text)
    assert doc.getroot().tag == "martif" and doc.docinfo.doctype.startswith("<!DOCTYPE martif")
    glossary = load_glossary(CORPUS / "glossary.yaml")
    store = tbx.tbxfile(text.encode("utf-8"))
    assert [u.getid() for u in store.units] == [t.id for t in glossary.terms]
    for unit, term in zip(store.units, glossary.terms, strict=True):
        for lang in {*term.renderings, *term.deprecated}:
            read = [(t.text, t.deprecated) for t in unit.get_target_terms(lang)]
            approved = [(text, False) for text in term.renderings.get(lang, ())]
            deprecated = [(text, True) for text in term.deprecated.get(lang, ())]
            assert read == approved + deprecated, (term.id, lang)
    spacing = next(u for u in store.units if u.getid() == "unit-spacing")
    status = {t.text: t.administrative_status for t in spacing.get_target_terms("ru")}
    assert status[DEPRECATED_RU] == "deprecatedTerm-admn-sts"
    assert status["Расстояние между отрядами"] == "preferredTerm-admn-sts"
    assert status["правило Расстояния между отрядами"] == "admittedTerm-admn-sts"


def test_tbx_default_is_still_tbx3():
    default = run_cli("export", "--format", "tbx")
    three = run_cli("export", "--format", "tbx", "--tbx-version", "3")
    assert default.returncode == three.returncode == 0
    assert default.stdout == three.stdout and "<conceptEntry" in default.stdout
    assert "--tbx-version" in run_cli("export", "--help").stdout


# XLIFF 1.2


def test_xliff12_has_one_file_per_language_and_reads_back_as_the_pairs(aligned, tmp_path):
    out = tmp_path / "review"
    result = run_cli(
        "export", "--build", str(aligned), "--format", "xliff", "--xliff-version", "1.2",
        "-o", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["it.xlf", "ru.xlf"]
    pairs = load_pairs(aligned)
    for lang in ("it", "ru"):
        text = (out / f"{lang}.xlf").read_text("utf-8")
        doc = valid_xliff12(text)
        files = doc.getroot().findall(X12 + "file")
        assert [(f.get("source-language"), f.get("target-language")) for f in files] == [
            ("en", lang)
        ]
        expected = [(lang, p.id, p.source, p.target) for p in pairs if p.target_lang == lang]
        assert xliff12_pairs(text) == expected
        # translate-toolkit (and Pootle, Weblate on it) count every unit translated, none fuzzy
        store = xliff.xlifffile(text.encode("utf-8"))
        assert [(u.istranslated(), u.isfuzzy()) for u in store.units] == [(True, False)] * len(
            expected
        )
    text = (out / "ru.xlf").read_text("utf-8")
    doc = valid_xliff12(text)
    venom = next(
        u for u in doc.getroot().iter(X12 + "trans-unit") if u.get("id") == "l-000000000003"
    )
    assert venom.get("resname") == "venomous-fangs"
    src_bpt = venom.find(f"{X12}source/{X12}bpt")
    trg_bpt = {b.text: b.get("id") for b in venom.find(X12 + "target").iter(X12 + "bpt")}
    assert (src_bpt.text, src_bpt.get("ctype")) == ("[b]", "bold")
    assert venom.find(f"{X12}source/{X12}ept").get("id") == src_bpt.get("id")
    assert trg_bpt["[b]"] == src_bpt.get("id") and trg_bpt["[i]"] != src_bpt.get("id")


def test_xliff12_to_one_file_needs_one_language(aligned):
    result = run_cli(
        "export", "--build", str(aligned), "--format", "xliff", "--xliff-version", "1.2"
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "it, ru" in result.stderr
    assert "-o FOLDER" in result.stderr


def test_xliff12_sentences_isolate_cut_tags_and_target_lang_filters(aligned):
    text = export(
        aligned, "--format", "xliff", "--xliff-version", "1.2", "--level", "sentence",
        "--target-lang", "ru",
    )  # fmt: skip
    doc = valid_xliff12(text)
    cut = next(
        u for u in doc.getroot().iter(X12 + "trans-unit") if u.get("id") == "l-000000000004-s1"
    )
    it = cut.find(f"{X12}source/{X12}it")
    assert (it.get("pos"), it.text) == ("open", "[b]")
    last = next(
        u for u in doc.getroot().iter(X12 + "trans-unit") if u.get("id") == "l-000000000004-s3"
    )
    assert last.find(f"{X12}source/{X12}ph").text == "[*]"
    assert last.find(f"{X12}source/{X12}it").get("pos") == "close"
    expected = [
        (p.target_lang, p.id, p.source, p.target)
        for p in load_pairs(aligned, "sentence")
        if p.target_lang == "ru"
    ]
    assert sorted(xliff12_pairs(text)) == sorted(expected)
    only_it = export(aligned, "--format", "xliff", "--xliff-version", "1.2", "--target-lang", "it")
    assert [p[:2] for p in xliff12_pairs(only_it)] == [("it", "l-000000000002")]


def test_xliff_default_is_still_2_0(aligned):
    default = export(aligned, "--format", "xliff", "--target-lang", "ru")
    assert default == export(
        aligned, "--format", "xliff", "--target-lang", "ru", "--xliff-version", "2.0"
    )
    assert 'version="2.0"' in default


def test_hostile_markup_gives_valid_xliff12_and_po(tmp_path):
    text = write_xliff12(HOSTILE)
    valid_xliff12(text)
    expected = [("ru", p.id, p.source, p.target.replace("\x0b", "\ufffd")) for p in HOSTILE]
    assert xliff12_pairs(text) == expected
    catalogue = tmp_path / "ru.po"
    catalogue.write_text(write_po(HOSTILE, "ru"), "utf-8")
    msgfmt_check(catalogue)
    assert po_pairs(catalogue.read_bytes()) == [(p.id, p.source, p.target) for p in HOSTILE]


# PO


def test_po_folder_gets_one_catalogue_per_language(aligned, tmp_path):
    out = tmp_path / "po"
    result = run_cli("export", "--build", str(aligned), "--format", "po", "-o", str(out))
    assert result.returncode == 0 and result.stdout == "", result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["it.po", "ru.po"]
    pairs = load_pairs(aligned)
    for lang in ("it", "ru"):
        msgfmt_check(out / f"{lang}.po")
        store = po.pofile((out / f"{lang}.po").read_bytes())
        assert store.gettargetlanguage() == lang
        expected = [(p.rule or p.id, p.source, p.target) for p in pairs if p.target_lang == lang]
        assert po_pairs((out / f"{lang}.po").read_bytes()) == expected
    store = po.pofile((out / "ru.po").read_bytes())
    ricochet = next(u for u in store.units if u.getcontext() == "ricochet")
    assert ricochet.getlocations() == ["seed/002_c7ff2043f171b6ae.txt:1"]
    assert "Rule: Ricochet (ricochet)" in ricochet.getnotes("developer")
    assert "[b]Multiple Wounds (D3+1)[/b]" in next(
        u.source for u in store.units if u.getcontext() == "venomous-fangs"
    )


def test_po_sentences_point_at_the_sentence_line_and_stay_unique(aligned, tmp_path):
    out = tmp_path / "ru.po"
    result = run_cli(
        "export", "--build", str(aligned), "--format", "po", "--level", "sentence",
        "--target-lang", "ru", "-o", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    msgfmt_check(out)
    expected = [p for p in load_pairs(aligned, "sentence") if p.target_lang == "ru"]
    read = po_pairs(out.read_bytes())
    assert [(s, t) for _, s, t in read] == [(p.source, p.target) for p in expected]
    assert len({(c, s) for c, s, _ in read}) == len(read)
    assert all(
        c.split()[0] == (p.rule or p.id) for (c, _, _), p in zip(read, expected, strict=True)
    )


def test_po_to_stdout_or_one_file_needs_one_language(aligned):
    result = run_cli("export", "--build", str(aligned), "--format", "po")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "it, ru" in result.stderr
    text = export(aligned, "--format", "po", "--target-lang", "it")
    assert po_pairs(text) == [("3-armor", "+3 Armor", "armatura +3")]


def test_po_reader_gives_back_the_exported_pairs(aligned, tmp_path):
    text = export(aligned, "--format", "po", "--target-lang", "ru")
    segments, _ = read_file("review", "ru.po", "ru.po", text.encode("utf-8"))
    units: dict[str, dict[str, tuple[str, str]]] = {}
    for seg in segments:
        units.setdefault(seg.unit, {})[seg.role] = (seg.lang, seg.raw)
    expected = [(p.source, p.target) for p in load_pairs(aligned) if p.target_lang == "ru"]
    assert [(u["source"], u["target"]) for u in units.values()] == [
        (("en", s), ("ru", t)) for s, t in expected
    ]


def test_po_reader_skips_fuzzy_and_obsolete_and_names_bad_lines(tmp_path):
    text = (
        'msgid ""\nmsgstr "Language: ru\\n"\n\n'
        '#, fuzzy\nmsgid "Guess"\nmsgstr "Догадка"\n\n'
        '#~ msgid "Old"\n#~ msgstr "Старое"\n\n'
        'msgctxt "a"\nmsgid ""\n"Two\\n"\n"lines"\nmsgstr "Две\\nстроки"\n'
    )
    segments, _ = read_file("d", "x.po", "x.po", text.encode("utf-8"))
    assert [(s.role, s.raw) for s in segments] == [
        ("source", "Guess"),
        ("source", "Two\nlines"),
        ("target", "Две\nстроки"),
    ]
    bad = tmp_path / "corpus" / "drops" / "d"
    bad.mkdir(parents=True)
    (bad / "x.po").write_text('msgid "a"\nmsgstr "b"\nwhat is this\n', "utf-8")
    result = run_cli("build", str(tmp_path / "corpus"), "-o", str(tmp_path / "out"))
    assert result.returncode == 2 and "x.po" in result.stderr and ":3" in result.stderr


# a reviewed file back as a new drop


REVIEW_FROM = "в отношении Правило расстояния между отрядами"
REVIEW_TO = "в отношении правила Расстояния между отрядами"


def review_corpus(tmp_path: Path, name: str, data: bytes) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    drop = corpus / "drops" / "review"
    drop.mkdir()
    (drop / "drop.yaml").write_text(yaml.safe_dump({"name": "review", "date": "2030-01-01"}))
    (drop / name).write_bytes(data)
    return corpus


def build_and_diff(seed_build, corpus: Path, tmp_path: Path) -> tuple[dict, dict]:
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out))
    assert result.returncode == 0, result.stderr
    rules = {r["id"]: r for r in json.loads((out / "rules.json").read_text("utf-8"))}
    result = run_cli("diff", str(seed_build.out), str(out), "--json")
    assert result.returncode == 0, result.stderr
    entries = json.loads(result.stdout)["entries"]
    changed = {e["id"]: e for e in entries if e["change"] == "changed"}
    return rules, changed


def assert_review_won(rules: dict, changed: dict, file: str) -> None:
    ricochet = rules["ricochet"]
    assert REVIEW_TO in ricochet["texts"]["ru"]["text"]
    assert REVIEW_FROM not in ricochet["texts"]["ru"]["text"]
    sources = ricochet["texts"]["ru"]["sources"]
    # the reviewed text is the rule's; the old one is its reworded copy, kept in the cluster
    assert (sources[0]["drop"], sources[0]["file"], sources[0]["relation"]) == (
        "review",
        file,
        "canonical",
    )
    assert {(s["drop"], s["relation"]) for s in sources[1:]} == {("seed", "reworded")}
    sentences = changed["ricochet"]["sentences"]
    assert [(s["change"], s["lang"]) for s in sentences] == [("changed", "ru")]
    assert REVIEW_FROM in sentences[0]["old"] and REVIEW_TO in sentences[0]["new"]


def test_reviewed_po_in_a_new_drop_changes_the_translation(seed_build, tmp_path):
    text = export(seed_build.out, "--format", "po", "--target-lang", "ru")
    store = po.pofile(text.encode("utf-8"))
    unit = next(u for u in store.units if u.getcontext() == "ricochet")
    assert REVIEW_FROM in unit.target
    unit.target = unit.target.replace(REVIEW_FROM, REVIEW_TO)  # the translator's edit
    corpus = review_corpus(tmp_path, "ru.po", bytes(store))
    assert_review_won(*build_and_diff(seed_build, corpus, tmp_path), "ru.po")


def test_reviewed_xliff12_in_a_new_drop_changes_the_translation(seed_build, tmp_path):
    text = export(
        seed_build.out, "--format", "xliff", "--xliff-version", "1.2", "--target-lang", "ru"
    )
    store = xliff.xlifffile(text.encode("utf-8"))
    unit = next(u for u in store.units if u.xmlelement.get("resname") == "ricochet")
    unit.target = unit.target.replace(REVIEW_FROM, REVIEW_TO)
    edited = bytes(store)
    valid_xliff12(edited.decode("utf-8"))
    corpus = review_corpus(tmp_path, "reviewed.xlf", edited)
    assert_review_won(*build_and_diff(seed_build, corpus, tmp_path), "reviewed.xlf")
