"""`rulepipe export --format site`: the static site of a build, opened in a real browser
(Debian's headless chromium driven by selenium) as a reader would: search by name in
English and in an inflected Russian form, Ricochet's two languages aligned sentence by
sentence, the jump table's chart against `rulepipe table`, every link, and axe-core's
accessibility rules on each kind of page."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium_axe_python import Axe

from pipeline.schemas import validate
from tests.conftest import run_cli

JUMP = "trudnaya-mestnost-i-prepyatstviya"  # the LotOW rule whose table is the jump table
JUMP_ID = f"r:{JUMP}"


RIDER = {"offensive_skill": 4, "strength": 4, "armour_penetration": 1, "agility": 3}
WHOLE = {"health_points": 1, "defensive_skill": 3, "resilience": 4, "armour": 2}
UNITS = [
    {
        "id": "gnasher-riders",
        "name": "Gnasher Riders",
        "source": {"drop": "army", "file": "gnashers.cat", "book": "Gnashers", "lines": [3, 90]},
        "size": {"min": 5, "max": 12},
        "points": {"base": 20, "per_model": 24},
        "parts": [
            {
                "name": "Rider",
                "role": "rider",
                "characteristics": {**WHOLE, **RIDER, "attacks": 1},
                "rules": [{"name": "Great Weapon", "id": "great-weapon"}],
            },
            {
                "name": "Gnasher",
                "role": "mount",
                "characteristics": {**WHOLE, "attacks": 2, "strength": 5},
                "rules": [{"name": "Impact Hits (D3)", "id": "impact-hits", "params": ["D3"]}],
            },
        ],
        "equipment": [{"name": "Lance", "id": None}, {"name": "Shield", "id": None}],
        "rules": [
            {"name": "Swiftstride", "id": "swiftstride"},
            {"name": "No Such Rule", "id": None},
        ],
        "options": [
            {
                "group": "Weapon",
                "choices": [
                    {
                        "name": "Great Weapon",
                        "id": "great-weapon",
                        "points": {"base": 0, "per_model": 3},
                    }
                ],
            }
        ],
    }
]


@pytest.fixture(scope="module")
def builds(seed_build, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(old, new): the seed build, and a copy with units.json and Great Weapon's +2
    Strength made +3 in rules.json (a changed rule for the changes page)."""
    old = seed_build.out
    new = tmp_path_factory.mktemp("new") / "build"
    shutil.copytree(old, new)
    rules = json.loads((new / "rules.json").read_text("utf-8"))
    for rule in rules:
        if rule["id"] == "great-weapon":
            rule["texts"]["en"]["text"] = rule["texts"]["en"]["text"].replace(
                "+2 Strength", "+3 Strength"
            )
    (new / "rules.json").write_text(json.dumps(rules, ensure_ascii=False), "utf-8")
    validate(UNITS, "units", "units.json")  # the shape a build writes
    (new / "units.json").write_text(json.dumps(UNITS), "utf-8")
    return old, new


@pytest.fixture(scope="module")
def browser(browser):
    """The shared browser (conftest.py) at a desktop size, as a reader of the site has it."""
    browser.set_window_size(1280, 1000)
    return browser


@pytest.fixture(scope="module")
def site(builds, tmp_path_factory: pytest.TempPathFactory) -> Path:
    old, new = builds
    out = tmp_path_factory.mktemp("site") / "site"
    res = run_cli(
        "export", "--format", "site", "--build", str(new), "--since", str(old), "-o", str(out)
    )
    assert res.returncode == 0, res.stderr
    return out


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_same_build_same_bytes_and_nothing_from_the_network(builds, site, tmp_path):
    old, new = builds
    again = tmp_path / "again"
    res = run_cli(
        "export", "--format", "site", "--build", str(new), "--since", str(old), "-o", str(again)
    )
    assert res.returncode == 0, res.stderr
    assert _files(again) == _files(site)
    for name, data in _files(site).items():
        text = data.decode("utf-8")
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), name
        assert "https://" not in text and "//cdn" not in text, name
    assert (site / "rules" / "ricochet.html").is_file() and (site / "changes.html").is_file()


def test_site_replaces_a_site_but_never_another_folder(builds, tmp_path):
    _, new = builds
    other = tmp_path / "notes"
    other.mkdir()
    (other / "keep.txt").write_text("mine", "utf-8")
    res = run_cli("export", "--format", "site", "--build", str(new), "-o", str(other))
    assert res.returncode == 2 and "not a site" in res.stderr
    assert [p.name for p in other.iterdir()] == ["keep.txt"]
    out = tmp_path / "site"
    for _ in range(2):  # the second run replaces the first site whole
        res = run_cli("export", "--format", "site", "--build", str(new), "-o", str(out))
        assert res.returncode == 0, res.stderr
    assert not (out / "changes.html").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    res = run_cli("export", "--format", "site", "--build", str(new))
    assert res.returncode == 2 and "-o DIR" in res.stderr


def _visible_ids(browser) -> set[str]:
    return {
        li.get_attribute("data-id")
        for li in browser.find_elements(By.CSS_SELECTOR, "ul.list > li")
        if li.is_displayed()
    }


def test_search_finds_rules_by_english_and_inflected_russian_names(site, browser):
    browser.get((site / "index.html").as_uri())
    everything = _visible_ids(browser)
    assert {"r:ricochet", JUMP_ID, "u:gnasher-riders"} <= everything
    box = browser.find_element(By.ID, "q")
    for query, expected in (
        ("ricoch", "r:ricochet"),
        ("Рикошетом", "r:ricochet"),  # instrumental case of Рикошет
        ("рикошета", "r:ricochet"),
        ("препятствий", JUMP_ID),  # genitive plural of препятствие
        ("gnasher rid", "u:gnasher-riders"),
    ):
        box.clear()
        box.send_keys(query)
        shown = _visible_ids(browser)
        assert expected in shown, query
        assert len(shown) < len(everything), query
    box.clear()
    box.send_keys("рикошетом")
    assert _visible_ids(browser) == {"r:ricochet"}
    assert browser.find_element(By.ID, "shown").text.startswith("1 of ")

    # Filters: untick the kind of the rule found, it goes; tick it again, it is back.
    box.clear()
    table_box = browser.find_element(
        By.CSS_SELECTOR, 'input.filter[data-kind="kind"][value="table"]'
    )
    table_box.click()
    assert JUMP_ID not in _visible_ids(browser) and "r:ricochet" in _visible_ids(browser)
    table_box.click()
    ru_box = browser.find_element(By.CSS_SELECTOR, 'input.filter[data-kind="lang"][value="ru"]')
    ru_box.click()
    shown = _visible_ids(browser)
    assert JUMP_ID not in shown and "r:ricochet" in shown  # Ricochet has English too
    ru_box.click()


def test_ricochet_page_shows_both_languages_sentence_by_sentence(builds, site, browser):
    _, build = builds
    rules = {r["id"]: r for r in json.loads((build / "rules.json").read_text("utf-8"))}
    ricochet = rules["ricochet"]
    link = next(
        link
        for link in json.loads((build / "alignments.json").read_text("utf-8"))["links"]
        if link["source_cluster"] == ricochet["texts"]["en"]["cluster"]
        and link["target_cluster"] == ricochet["texts"]["ru"]["cluster"]
    )
    en, ru = ricochet["texts"]["en"]["text"], ricochet["texts"]["ru"]["text"]

    browser.get((site / "rules" / "ricochet.html").as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "Ricochet"
    table = browser.find_element(By.CSS_SELECTOR, "table.aligned")
    headers = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    assert headers[1:] == ["English", "Русский"]
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == len(link["sentences"])
    for row, bead in zip(rows, link["sentences"], strict=True):
        left, right = row.find_elements(By.TAG_NAME, "td")
        assert [s.text for s in left.find_elements(By.CSS_SELECTOR, ".sentence")] == [
            en[a:b].strip() for a, b in bead["source_spans"]
        ]
        assert [s.text for s in right.find_elements(By.CSS_SELECTOR, ".sentence")] == [
            ru[a:b].strip() for a, b in bead["target_spans"]
        ]
        assert right.get_attribute("lang") == "ru"
        # side by side, on one row
        assert right.rect["x"] >= left.rect["x"] + left.rect["width"] - 1
        assert abs(right.rect["y"] - left.rect["y"]) < 2
    # The Russian text splits one English sentence in two: one row holds both.
    split = [r for r in rows if r.get_attribute("data-bead") == "1-2"]
    assert split and len(split[0].find_elements(By.CSS_SELECTOR, "td:last-child .sentence")) == 2

    # Effects underlined on their words, the effect on hover; unformalised sentences marked.
    marks = browser.find_elements(By.CSS_SELECTOR, "table.aligned u.effect")
    spans = [e["span"] for e in ricochet["effects"]]
    assert [m.text for m in marks] == [en[a:b] for a, b in spans]
    assert marks[0].get_attribute("title").startswith("forbid; action: declare-charge")
    assert browser.find_elements(By.CSS_SELECTOR, "td[lang=en] .unformalised")

    # References link to their rules; provenance names the files.
    ref = browser.find_element(By.LINK_TEXT, "Random Movement")
    assert ref.get_attribute("href").endswith("/rules/random-movement.html")
    prov = browser.find_element(By.CSS_SELECTOR, "table.provenance").text
    assert "000_745db052e7f633dc.txt" in prov and "002_c7ff2043f171b6ae.txt" in prov


def test_jump_table_chart_shows_the_probabilities_of_rulepipe_table(builds, site, browser):
    _, build = builds
    browser.get((site / "rules" / f"{JUMP}.html").as_uri())
    figures = browser.find_elements(By.CSS_SELECTOR, "figure.odds")
    assert len(figures) >= 2  # without and with a modifier
    seen_chain = False
    for fig in figures:
        args = json.loads(fig.get_attribute("data-args"))
        res = run_cli("table", JUMP, "--json", "--build", str(build), *args)
        assert res.returncode == 0, res.stderr
        expected = {
            f"{o['table']}/{o['outcome']}": Fraction(o["p"])
            for o in json.loads(res.stdout)["outcomes"]
        }
        bars = fig.find_elements(By.CSS_SELECTOR, "svg g.bar")
        charted = {b.get_attribute("data-key"): Fraction(b.get_attribute("data-p")) for b in bars}
        assert charted == expected
        # what the reader sees beside each bar is the same number
        for bar in bars:
            p = Fraction(bar.get_attribute("data-p"))
            assert bar.find_element(By.TAG_NAME, "text").text == f"{float(p) * 100:.2f}%"
        seen_chain |= any(k.startswith("padenie-s-loshadi/") for k in charted)
    assert seen_chain  # the -1 jump chains into the fall table


def test_attack_rule_has_a_worked_example(site, browser):
    browser.get((site / "rules" / "great-weapon.html").as_uri())
    fig = browser.find_element(By.CSS_SELECTOR, "figure.example")
    series = {b.get_attribute("data-series") for b in fig.find_elements(By.CSS_SELECTOR, "g.bar")}
    assert series == {"without", "with great-weapon"}
    for name in series:
        total = sum(
            Fraction(b.get_attribute("data-p"))
            for b in fig.find_elements(By.CSS_SELECTOR, "g.bar")
            if b.get_attribute("data-series") == name
        )
        assert total == 1
    assert "Mean casualties" in fig.text


def test_units_and_changes_pages(site, browser):
    browser.get((site / "units" / "gnasher-riders.html").as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "Gnasher Riders"
    meta = browser.find_element(By.CSS_SELECTOR, "dl.meta").text
    assert "Gnashers" in meta and "5–12 models" in meta
    assert "140 pts for 5 models (24 a model, +20 once)" in meta
    # characteristics per part: the rider's and the mount's Strength side by side
    table = browser.find_element(By.CSS_SELECTOR, "table.profile")
    head = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    rows = [
        [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
        for tr in table.find_elements(By.CSS_SELECTOR, "tbody tr")
    ]
    strength = head.index("Str")
    assert [(r[0], r[1], r[strength]) for r in rows] == [
        ("Rider", "rider", "4"),
        ("Gnasher", "mount", "5"),
    ]
    assert (
        browser.find_element(By.LINK_TEXT, "Impact Hits (D3)")
        .get_attribute("href")
        .endswith("/rules/impact-hits.html")
    )
    assert browser.find_elements(By.LINK_TEXT, "No Such Rule") == []
    assert "No Such Rule" in browser.find_element(By.TAG_NAME, "body").text
    # the options with what they cost
    assert "+3 pts a model" in browser.find_element(By.TAG_NAME, "body").text
    browser.get((site / "changes.html").as_uri())
    changed = browser.find_element(By.CSS_SELECTOR, "ul.changes a")
    assert changed.text == "Great Weapon" and changed.get_attribute("href").endswith(
        "/rules/great-weapon.html"
    )


def test_every_link_resolves(site, builds, browser):
    pages = sorted(site.rglob("*.html"))
    rules = json.loads((builds[1] / "rules.json").read_text("utf-8"))
    assert len(list((site / "rules").glob("*.html"))) == len(rules)  # a page for every rule
    for page in pages:
        browser.get(page.as_uri())
        urls = browser.execute_script(
            "return Array.from(document.querySelectorAll('a[href], link[href], script[src]'))"
            ".map(e => e.href || e.src)"
        )
        for url in urls:
            parsed = urlparse(url)
            assert parsed.scheme == "file", (page, url)
            target = Path(unquote(parsed.path))
            assert target.is_file(), (page.relative_to(site), url)
            if parsed.fragment:
                ids = (
                    browser.execute_script(
                        "return document.getElementById(arguments[0]) !== null", parsed.fragment
                    )
                    if target == page
                    else True
                )
                assert ids, (page, url)


@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "rules/ricochet.html",
        f"rules/{JUMP}.html",
        "rules/great-weapon.html",
        "units/gnasher-riders.html",
        "changes.html",
    ],
)
def test_pages_pass_axe_core(site, browser, page):
    browser.get((site / page).as_uri())
    axe = Axe(browser)
    axe.inject()
    result = axe.run()
    assert result["violations"] == [], axe.report(result["violations"])
    checked = {r["id"] for r in result["passes"] + result["inapplicable"]}
    assert {"color-contrast", "page-has-heading-one", "image-alt", "svg-img-alt"} <= checked


def test_a_failure_mid_write_leaves_the_old_site_whole(builds, tmp_path, monkeypatch):
    import pipeline.export.site as site_module

    _, new = builds
    out = tmp_path / "site"
    site_module.write_site(new, out)
    before = _files(out)
    calls = {"n": 0}
    real = site_module.rule_page

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 10:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(site_module, "rule_page", failing)
    with pytest.raises(OSError):
        site_module.write_site(new, out, since=new)
    assert _files(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["site"]
