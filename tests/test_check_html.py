"""checks.html in a real browser (Debian's headless chromium driven by selenium): what a
translator sees. The page must need nothing from the network, show both texts of each pair
with the findings' spans marked, and its filters must hide and show findings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from tests.conftest import run_cli

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")

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
def browser(tmp_path_factory: pytest.TempPathFactory):
    assert CHROMIUM.is_file() and CHROMEDRIVER.is_file(), "apt-get install chromium chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


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
