"""checks.html in a real browser (Debian's headless chromium driven by selenium): what a
translator sees. The page must need nothing from the network, show both texts of each pair
with the findings' spans marked, and its filters must hide and show findings; pairs are
titled by their rule's name, copies of one text are reported once, homoglyphs are named by
code point, the findings are one click from the top, an "Accept" button gives the line a
later run reads back, the same input gives the same bytes, and axe-core finds nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium_axe_python import Axe

from tests.conftest import ROOT, run_cli

PAIRS = [
    {
        "id": "homoglyph <pair> & co",
        "source": "It suffers X+D6 hits.",
        "target": "Он получает Х+D6 попаданий.",
        "source_lang": "en",
        "target_lang": "ru",
    },
    {
        "id": "dice",
        "source": "Roll a D6 and add [b]2[/b].",
        "target": "Бросьте D3 и добавьте 2.",
        "source_lang": "en",
        "target_lang": "ru",
    },
    {
        "id": "clean",
        "source": "The model gains Insignificant.",
        "target": "Модель получает правило Незначительный.",
        "source_lang": "en",
        "target_lang": "ru",
    },
    {
        "id": "script",
        "source": "The model gains <script>alert(1)</script> Fear.",
        "target": "Модель получает <script>alert(1)</script> Страх",
        "source_lang": "en",
        "target_lang": "ru",
    },
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("html")
    pairs = tmp / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PAIRS), "utf-8")
    res = run_cli("check", "--pairs", str(pairs), "-o", str(tmp / "out"), cwd=tmp)
    assert res.returncode == 1, res.stderr
    data = json.loads((tmp / "out" / "checks.json").read_text("utf-8"))
    return tmp / "out" / "checks.html", data


@pytest.fixture(scope="module")
def build_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The report on the bundled build: linked pairs and segments checked alone."""
    out = tmp_path_factory.mktemp("build-html") / "out"
    res = run_cli("check", "--build", str(ROOT / "output"), "-o", str(out), "--format", "json,html")
    assert res.returncode == 1, res.stderr
    return out / "checks.html", json.loads((out / "checks.json").read_text("utf-8"))


def test_page_is_self_contained(report):
    html = report[0].read_text("utf-8")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", html)
    assert "<link" not in html and "@import" not in html
    assert "<script>alert(1)</script>" not in html  # input text is escaped


def test_translator_sees_pairs_marks_and_filters(report, browser):
    path, data = report
    browser.get(path.as_uri())
    articles = browser.find_elements(By.CSS_SELECTOR, "article.pair")
    shown = {a.find_element(By.CSS_SELECTOR, ".pair-id").text for a in articles}
    with_findings = {f["pair_id"] for f in data["findings"]}
    assert shown == with_findings and "clean" not in shown
    assert "homoglyph <pair> & co" in shown

    # Both texts side by side, exactly as in the input; the script tag shows as text.
    script = next(a for a in articles if a.get_attribute("data-pair") == "script")
    assert "<script>alert(1)</script> Fear." in script.find_element(By.CSS_SELECTOR, ".source").text
    hg = next(a for a in articles if a.get_attribute("data-pair") == "homoglyph <pair> & co")
    target = hg.find_element(By.CSS_SELECTOR, ".target")
    assert PAIRS[0]["target"] in target.text
    src_box = hg.find_element(By.CSS_SELECTOR, ".source").rect
    tgt_box = target.rect
    assert tgt_box["x"] > src_box["x"] + src_box["width"] - 1  # side by side
    assert abs(tgt_box["y"] - src_box["y"]) < 5

    # The marked span in the translation is the Cyrillic letter the finding names.
    marks = target.find_elements(By.CSS_SELECTOR, "mark.on")
    assert [m.text for m in marks] == ["Х"]
    colour = marks[0].value_of_css_property("background-color")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent")
    dice = next(a for a in articles if a.get_attribute("data-pair") == "dice")
    assert [m.text for m in dice.find_elements(By.CSS_SELECTOR, ".source mark.on")][:1] == ["D6"]

    # Summary counts by check and severity, as in checks.json.
    n_homoglyph = data["summary"]["by_check"]["homoglyph"]["error"]
    row = browser.find_element(By.CSS_SELECTOR, 'tr[data-check="homoglyph"] td.n-error')
    assert row.text == str(n_homoglyph)

    # Filter: untick the homoglyph check -> its findings and marks and the pair disappear.
    def visible(selector: str) -> int:
        return sum(1 for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed())

    total = len(data["findings"])
    assert visible("li.finding") == total
    box = browser.find_element(
        By.CSS_SELECTOR, 'input.filter[data-kind="check"][value="homoglyph"]'
    )
    box.click()
    assert visible("li.finding") == total - n_homoglyph
    assert not hg.is_displayed()
    assert target.find_elements(By.CSS_SELECTOR, "mark.on") == []
    assert f"{total - n_homoglyph} finding(s) shown" in browser.find_element(By.ID, "shown").text
    box.click()
    assert visible("li.finding") == total and hg.is_displayed()

    # Severity filter: untick errors -> only warnings and info remain.
    sev = browser.find_element(By.CSS_SELECTOR, 'input.filter[data-kind="severity"][value="error"]')
    sev.click()
    remaining = browser.find_elements(By.CSS_SELECTOR, "li.finding")
    shown_sev = {li.get_attribute("data-severity") for li in remaining if li.is_displayed()}
    assert "error" not in shown_sev
    assert sum(1 for f in data["findings"] if f["severity"] != "error") == visible("li.finding")


def _article(browser, pair_id: str):
    found = browser.find_elements(By.CSS_SELECTOR, "#findings article.pair")
    return next(a for a in found if a.get_attribute("data-pair") == pair_id)


def test_pairs_are_titled_by_rule_name_and_copies_reported_once(build_report, browser):
    path, data = build_report
    browser.get(path.as_uri())
    link = next(f["pair_id"] for f in data["findings"] if f["check"] == "homoglyph")
    ricochet = _article(browser, link)
    title = ricochet.find_element(By.CSS_SELECTOR, "h3 .title").text
    assert title.startswith("Ricochet") and not title.startswith("l-")
    assert ricochet.find_element(By.CSS_SELECTOR, "h3 .pair-id").text == link  # id kept beside
    index = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "ol.index a")]
    assert title in index

    # "with with" stands in two copies of one paragraph: one finding, naming the other copy.
    doubled = [f for f in data["findings"] if f["found"] == "with with"]
    assert len(doubled) == 1 and len(doubled[0]["copies"]) == 1
    article = _article(browser, doubled[0]["pair_id"])
    assert doubled[0]["copies"][0] in article.find_element(By.CSS_SELECTOR, ".copies").text
    shown = [
        a.get_attribute("data-pair") for a in browser.find_elements(By.CSS_SELECTOR, "article")
    ]
    assert doubled[0]["copies"][0] not in shown
    assert data["summary"]["findings"] == len(data["findings"])
    assert data["summary"]["copies"] >= 1


def test_a_segment_checked_alone_takes_the_whole_width(build_report, browser):
    path, data = build_report
    browser.get(path.as_uri())
    alone = {p["id"] for p in data["pairs"] if p["target"] is None}
    seg = next(f["pair_id"] for f in data["findings"] if f["pair_id"] in alone)
    article = _article(browser, seg)
    texts = article.find_element(By.CSS_SELECTOR, ".texts")
    boxes = texts.find_elements(By.CSS_SELECTOR, ".text")
    assert len(boxes) == 1
    assert boxes[0].rect["width"] > 0.95 * texts.rect["width"]


def test_homoglyphs_are_named_by_code_point(report, browser):
    path, data = report
    browser.get(path.as_uri())
    hg = _article(browser, "homoglyph <pair> & co")
    item = hg.find_element(By.CSS_SELECTOR, 'li[data-check="homoglyph"]')
    assert "Х U+0425 CYRILLIC CAPITAL LETTER HA" in item.text
    assert "X U+0058 LATIN CAPITAL LETTER X" in item.text
    message = next(f["message"] for f in data["findings"] if f["check"] == "homoglyph")
    assert "U+0425 CYRILLIC CAPITAL LETTER HA" in message


def test_the_findings_are_one_click_from_the_top(build_report, browser):
    path, data = build_report
    browser.get(path.as_uri())
    nav = browser.find_element(By.CSS_SELECTOR, "header nav")
    link = nav.find_element(By.CSS_SELECTOR, 'a[href="#findings"]')
    assert f"({len(data['findings'])})" in link.text
    assert link.rect["y"] < 400  # on the first screen
    link.click()
    heading = browser.find_element(By.ID, "findings-h")
    assert browser.execute_script("return window.scrollY") > 0
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", heading)
    assert 0 <= top < 200
    # each entry of the index leads to its article, and each article back to the top
    entry = browser.find_elements(By.CSS_SELECTOR, "ol.index a")[-1]
    target = entry.get_attribute("href").rsplit("#", 1)[1]
    entry.click()
    article = browser.find_element(By.ID, target)
    assert article.is_displayed()
    article.find_element(By.CSS_SELECTOR, 'a[href="#top"]').click()
    assert browser.execute_script("return window.scrollY") < 50


def test_accepting_a_finding_gives_the_line_a_later_run_reads_back(report, browser, tmp_path):
    path, data = report
    browser.get(path.as_uri())
    errors = [f for f in data["findings"] if f["severity"] == "error"]
    assert errors
    for li in browser.find_elements(By.CSS_SELECTOR, 'li.finding[data-severity="error"]'):
        li.find_element(By.CSS_SELECTOR, "button.accept").click()
    pressed = browser.find_elements(By.CSS_SELECTOR, 'button.accept[aria-pressed="true"]')
    assert len(pressed) == len(errors)
    text = browser.find_element(By.ID, "accept-lines").get_attribute("value")
    download = browser.find_element(By.ID, "accept-download").get_attribute("href")
    assert download.startswith("data:text/yaml")
    accepted = tmp_path / "accepted-findings.yaml"
    accepted.write_text(text, "utf-8")

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PAIRS), "utf-8")
    out = tmp_path / "again"
    res = run_cli(
        "check", "--pairs", str(pairs), "-o", str(out), "--accepted", str(accepted), cwd=tmp_path
    )
    assert res.returncode == 0, res.stdout  # accepted errors no longer fail the run
    again = json.loads((out / "checks.json").read_text("utf-8"))
    assert {(f["check"], f["pair_id"]) for f in again["accepted"]} == {
        (f["check"], f["pair_id"]) for f in errors
    }
    assert again["summary"]["by_severity"]["error"] == 0
    assert again["summary"]["accepted"] == len(errors)

    browser.get((out / "checks.html").as_uri())
    nav = browser.find_element(By.CSS_SELECTOR, 'header nav a[href="#accepted"]')
    assert f"({len(errors)})" in nav.text
    listed = browser.find_elements(By.CSS_SELECTOR, "#accepted li.accepted")
    assert len(listed) == len(errors)
    assert not browser.find_elements(By.CSS_SELECTOR, '#findings li[data-severity="error"]')
    assert browser.find_element(By.ID, "accept-lines").get_attribute("value") == text


def test_same_input_same_bytes(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PAIRS), "utf-8")
    pages = []
    for name in ("a", "b"):
        run_cli("check", "--pairs", str(pairs), "-o", str(tmp_path / name), cwd=tmp_path)
        pages.append((tmp_path / name / "checks.html").read_bytes())
    assert pages[0] == pages[1]


@pytest.mark.parametrize("which", ["report", "build_report"])
def test_the_page_passes_axe_core(which, request, browser):
    path, _ = request.getfixturevalue(which)
    browser.get(path.as_uri())
    browser.find_element(By.CSS_SELECTOR, "button.accept").click()  # a pressed button too
    axe = Axe(browser)
    axe.inject()
    result = axe.run()
    assert result["violations"] == [], axe.report(result["violations"])
    checked = {r["id"] for r in result["passes"] + result["inapplicable"]}
    assert {"color-contrast", "page-has-heading-one", "label", "region"} <= checked
