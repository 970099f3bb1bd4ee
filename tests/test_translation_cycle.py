"""The translation cycle a team runs, as a user runs it: an English-only drop goes out for
translation, the translated file comes back as a drop, a reviewed file replaces it; and
the formats it goes out in validate and read back with translate-toolkit."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from lxml import etree
from translate.storage import po, xliff, xliff2

from .conftest import CORPUS, run_cli

DATA = Path(__file__).parent / "data" / "export"

ENGLISH = """\
# Special Rules

## Dread

Units in base contact with one or more enemy models with Dread suffer -1 Discipline. At the \
start of each Round of Combat, such units must take a Discipline Test, called a Dread Test.

## Steadfast

[b]Steadfast[/b] units ignore the Combat Score modifier. They may reroll failed Break Tests.
"""

# what the translator types, by unit id (the script fills the targets the tool would)
RUSSIAN = {
    "special-rules.1.1": "Особые правила",
    # a doubled word in both versions of this sentence: each gives a finding, so the HTML
    # report shows whichever translation is checked
    "dread.1.1": "Отряды в в контакте с вражескими моделями с Ужасом получают -1 к Дисциплине.",
    "dread.1.2": "В начале каждого раунда боя такие отряды проходят тест Дисциплины,"
    " называемый тестом Ужаса.",
    "steadfast.1.1": "[b]Стойкие[/b] отряды игнорируют модификатор результата боя.",
    "steadfast.1.2": "Они могут перебросить проваленные тесты Слома.",
}
REVIEWED = (
    "Отряды в в контакте с моделями врага, у которых есть Ужас, до конца хода получают -1 к"
    " Дисциплине."
)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    return result


def english_corpus(root: Path) -> Path:
    drop = root / "drops" / "book"
    drop.mkdir(parents=True)
    (drop / "rules.md").write_text(ENGLISH, "utf-8")
    (drop / "drop.yaml").write_text(yaml.safe_dump({"name": "book", "date": "2030-01-01"}))
    return root


def add_drop(corpus: Path, folder: str, date: str, name: str, data: bytes) -> None:
    drop = corpus / "drops" / folder
    drop.mkdir()
    (drop / name).write_bytes(data)
    (drop / "drop.yaml").write_text(yaml.safe_dump({"name": folder, "date": date}))


def rules(out: Path) -> dict[str, dict]:
    return {r["id"]: r for r in json.loads((out / "rules.json").read_text("utf-8"))}


def xsd(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(DATA / name)))


def valid(text: str | bytes, schema: str) -> etree._Element:
    data = text.encode("utf-8") if isinstance(text, str) else text
    doc = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    checker = xsd(schema)
    assert checker.validate(doc), checker.error_log.filter_from_errors()
    return doc


def translate_in_tool(text: bytes, targets: dict[str, str]) -> bytes:
    """What a CAT tool on translate-toolkit does: fill each unit's target and mark it
    translated (approved in XLIFF 1.2)."""
    store = xliff.xlifffile(text)
    for unit in store.units:
        unit.settarget(targets[unit.xmlelement.get("id")])
        unit.markfuzzy(False)
    return bytes(store)


def test_english_drop_out_and_back_then_a_review_replaces_the_translation(tmp_path):
    corpus = english_corpus(tmp_path / "corpus")
    first = tmp_path / "first"
    cli("build", str(corpus), "-o", str(first), "-q")

    # out: the English text, one unit a sentence, ids naming rule, part and sentence
    refused = run_cli(
        "export", "--build", str(first), "--format", "xliff", "--xliff-version", "1.2"
    )
    assert refused.returncode == 2 and "--target-lang" in refused.stderr
    assert "no translation yet" in refused.stderr
    out_file = tmp_path / "ru.xlf"
    cli(
        "export", "--build", str(first), "--format", "xliff", "--xliff-version", "1.2",
        "--target-lang", "ru", "-o", str(out_file),
    )  # fmt: skip
    sent = out_file.read_bytes()
    valid(sent, "xliff-core-1.2-strict.xsd")
    store = xliff.xlifffile(sent)
    assert [u.xmlelement.get("id") for u in store.units] == list(RUSSIAN)
    assert all(u.target == "" and not u.istranslated() for u in store.units)
    assert store.units[0].source == "Special Rules"  # a heading's marks are not text
    assert store.units[1].source.startswith("Units in base contact")

    # back: the translated file in a newer drop
    translated = translate_in_tool(sent, RUSSIAN)
    valid(translated, "xliff-core-1.2-strict.xsd")
    add_drop(corpus, "ru-1", "2030-02-01", "ru.xlf", translated)
    second = tmp_path / "second"
    cli("build", str(corpus), "-o", str(second), "-q")
    got = rules(second)
    assert set(got) == {"special-rules", "dread", "steadfast"}  # no Russian-only rules
    assert got["dread"]["texts"]["ru"]["text"] == f"{RUSSIAN['dread.1.1']} {RUSSIAN['dread.1.2']}"
    assert got["dread"]["section"] == "special-rules"  # the English stays in its section
    assert got["dread"]["texts"]["en"]["sources"][0]["file"] == "rules.md"
    links = json.loads((second / "alignments.json").read_text("utf-8"))["links"]
    dread = next(link for link in links if link["rule"] == "dread")
    assert dread["status"] == "linked"
    en, ru = RUSSIAN["dread.1.1"], RUSSIAN["dread.1.2"]
    assert [(s["type"], s["target_spans"]) for s in dread["sentences"]] == [
        ("1-1", [[0, len(en)]]),
        ("1-1", [[len(en) + 1, len(en) + 1 + len(ru)]]),
    ]

    # a reviewer rewrites a sentence: the newer drop's translation replaces the rule's
    reviewed = translate_in_tool(sent, RUSSIAN | {"dread.1.1": REVIEWED})
    add_drop(corpus, "ru-2", "2030-03-01", "ru.xlf", reviewed)
    third = tmp_path / "third"
    cli("build", str(corpus), "-o", str(third), "-q")
    got = rules(third)
    assert set(got) == {"special-rules", "dread", "steadfast"}
    old_text = f"{RUSSIAN['dread.1.1']} {RUSSIAN['dread.1.2']}"
    new_text = f"{REVIEWED} {RUSSIAN['dread.1.2']}"
    assert got["dread"]["texts"]["ru"]["text"] == new_text
    assert [(h["lang"], h["drop"], h["text"]) for h in got["dread"]["history"]] == [
        ("ru", "ru-1", old_text)
    ]

    # diff names the revision, with the old and the new text
    diff = json.loads(cli("diff", str(second), str(third), "--json").stdout)
    assert diff["summary"]["added"] == 0 and diff["summary"]["changed"] == 1
    (entry,) = diff["entries"]
    assert entry["id"] == "dread"
    assert entry["translations"] == [
        {"change": "revised", "lang": "ru", "old": old_text, "new": new_text}
        | {"drop": "ru-2", "file": "ru.xlf"}
    ]
    assert "revised translation (ru)" in cli("diff", str(second), str(third)).stdout

    # the check report lists only the current translation
    reports = tmp_path / "checks"
    run_cli("check", "--build", str(third), "-o", str(reports))
    html = (reports / "checks.html").read_text("utf-8")
    assert "у которых есть Ужас, до конца хода" in html  # the reviewed words
    assert "вражескими моделями с Ужасом" not in html  # the replaced translation's
    checked = json.loads((reports / "checks.json").read_text("utf-8"))
    targets = [p.get("target") or "" for p in checked["pairs"]]
    assert any(REVIEWED in t for t in targets)
    assert not any(RUSSIAN["dread.1.1"] in t for t in targets)


@pytest.fixture(scope="module")
def english_build(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("english")
    out = root / "out"
    cli("build", str(english_corpus(root / "corpus")), "-o", str(out), "-q")
    return out


def test_tmx_of_a_build_with_no_pairs_is_refused_saying_why(english_build):
    result = run_cli("export", "--build", str(english_build), "--format", "tmx")
    assert result.returncode == 2 and result.stdout == ""
    assert "no linked translation pairs" in result.stderr and "xliff or po" in result.stderr


def test_xliff2_out_validates_and_reads_back_with_empty_targets(english_build):
    text = cli(
        "export", "--build", str(english_build), "--format", "xliff", "--target-lang", "ru"
    ).stdout
    doc = valid(text, "xliff_core_2.0.xsd")
    assert doc.get("trgLang") == "ru"
    ns = "{urn:oasis:names:tc:xliff:document:2.0}"
    assert {s.get("state") for s in doc.iter(ns + "segment")} == {"initial"}
    store = xliff2.Xliff2File(text.encode("utf-8"))
    assert [(u.getid(), u.target) for u in store.units] == [(k, "") for k in RUSSIAN]
    names = [u.get("name") for u in doc.iter(ns + "unit")]
    assert names == [k.split(".")[0] for k in RUSSIAN]


def test_po_and_pot_out_pass_msgfmt_and_read_back(english_build, tmp_path):
    folder = tmp_path / "po"
    cli(
        "export", "--build", str(english_build), "--format", "po", "--target-lang", "ru,it",
        "-o", str(folder),
    )  # fmt: skip
    template = tmp_path / "rules.pot"
    cli("export", "--build", str(english_build), "--format", "pot", "-o", str(template))
    assert sorted(p.name for p in folder.iterdir()) == ["it.po", "ru.po"]
    for path in (folder / "ru.po", folder / "it.po", template):
        check = subprocess.run(
            ["msgfmt", "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True
        )
        assert check.returncode == 0, check.stderr
        store = po.pofile(path.read_bytes())
        units = [u for u in store.units if not u.isheader()]
        assert [u.getcontext() for u in units] == list(RUSSIAN)
        assert all(u.target == "" and not u.istranslated() for u in units)
        assert [u.getlocations() for u in units[:2]] == [["book/rules.md:1"], ["book/rules.md:5"]]
    assert po.pofile((folder / "ru.po").read_bytes()).gettargetlanguage() == "ru"


def test_po_translated_in_a_tool_comes_back_aligned_by_its_ids(english_build, tmp_path):
    text = cli(
        "export", "--build", str(english_build), "--format", "po", "--target-lang", "ru"
    ).stdout
    store = po.pofile(text.encode("utf-8"))
    for unit in store.units:
        if not unit.isheader():
            unit.target = RUSSIAN[unit.getcontext()]
    corpus = english_corpus(tmp_path / "corpus")
    add_drop(corpus, "ru", "2030-02-01", "ru.po", bytes(store))
    out = tmp_path / "out"
    cli("build", str(corpus), "-o", str(out), "-q")
    got = rules(out)
    assert set(got) == {"special-rules", "dread", "steadfast"}
    steadfast = got["steadfast"]["texts"]["ru"]["text"]
    assert steadfast == "Стойкие отряды игнорируют модификатор результата боя. Они могут" + (
        " перебросить проваленные тесты Слома."
    )


def test_targets_still_to_do_are_not_read_as_translations(english_build, tmp_path):
    sent = cli(
        "export", "--build", str(english_build), "--format", "xliff", "--xliff-version", "1.2",
        "--target-lang", "ru",
    ).stdout.encode("utf-8")  # fmt: skip
    store = xliff.xlifffile(translate_in_tool(sent, RUSSIAN))
    store.units[3].markfuzzy(True)  # the reviewer sends steadfast.1.1 back for rework
    assert store.units[3].xmlelement.get("id") == "steadfast.1.1"
    corpus = english_corpus(tmp_path / "corpus")
    add_drop(corpus, "ru", "2030-02-01", "ru.xlf", bytes(store))
    out = tmp_path / "out"
    cli("build", str(corpus), "-o", str(out), "-q")
    got = rules(out)
    assert got["steadfast"]["texts"]["ru"]["text"] == RUSSIAN["steadfast.1.2"]
    links = json.loads((out / "alignments.json").read_text("utf-8"))["links"]
    steadfast = next(link for link in links if link["rule"] == "steadfast")
    assert [s["type"] for s in steadfast["sentences"]] == ["1-0", "1-1"]  # 1st: untranslated


# the bundled corpus: a reviewed translation with other words replaces the old one

NEW_RICOCHET = (
    "Модель с Рикошетом не может объявлять нападения и проходит сквозь любые отряды."
    " Отряд, коснувшийся её, получает X+D6 попаданий, а сама модель убирается как потеря."
)


def test_a_rewritten_translation_of_the_bundled_corpus_replaces_the_old(seed_build, tmp_path):
    text = cli(
        "export", "--build", str(seed_build.out), "--format", "xliff", "--xliff-version", "1.2",
        "--target-lang", "ru",
    ).stdout  # fmt: skip
    store = xliff.xlifffile(text.encode("utf-8"))
    (unit,) = [u for u in store.units if u.xmlelement.get("resname") == "ricochet"]
    old = unit.target
    unit.settarget(NEW_RICOCHET)  # whole sentences rewritten, numbers kept
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    add_drop(corpus, "review", "2030-01-01", "review.xlf", bytes(store))
    out = tmp_path / "out"
    cli("build", str(corpus), "-o", str(out), "-q")
    before, after = rules(seed_build.out), rules(out)
    assert set(after) == set(before)  # no Russian-only rule for the new text
    assert after["ricochet"]["texts"]["ru"]["text"] == NEW_RICOCHET
    assert [(h["drop"], h["lang"]) for h in after["ricochet"]["history"]] == [("seed", "ru")]
    diff = json.loads(cli("diff", str(seed_build.out), str(out), "--json").stdout)
    assert diff["summary"]["added"] == diff["summary"]["removed"] == 0
    (entry,) = [e for e in diff["entries"] if e["id"] == "ricochet"]
    (revision,) = entry["translations"]
    assert (revision["change"], revision["old"], revision["new"]) == (
        "revised",
        before["ricochet"]["texts"]["ru"]["text"],
        NEW_RICOCHET,
    )
    assert old.startswith(revision["old"][:40])
    reports = tmp_path / "checks"
    run_cli("check", "--build", str(out), "-o", str(reports))
    html = (reports / "checks.html").read_text("utf-8")
    assert "Модель с Рикошетом" in html and "Правило расстояния между отрядами" not in html
