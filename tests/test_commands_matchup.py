"""`rulepipe matchup`: units of one army book against another's, as a user reads the result:
the text table, the JSON (exact fractions) and the HTML grid in a real headless browser,
whose cells link to scenarios that `rulepipe attack` re-runs to the same numbers.
The army book is tests/data/battlescribe/arena.cat (see tests/test_interpret_units.py)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from .conftest import run_cli
from .helpers.battlescribe import build_fixtures

DATA = Path(__file__).parent / "data" / "battlescribe"
ARENA = ["Boar Riders", "Brutes", "Halberdiers", "Pikemen", "Practice Dummies", "Wisps"]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixtures(tmp_path_factory.mktemp("matchup"), "combat.gst", "arena.cat")


def test_json_has_every_cell_with_exact_fractions(out: Path) -> None:
    done = run_cli(
        "matchup", "arena", "Wisps,brutes", "--build", str(out), "--models", "5", "--json"
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert [u["name"] for u in doc["attackers"]] == ARENA
    assert [u["name"] for u in doc["defenders"]] == ["Wisps", "Brutes"]
    assert len(doc["cells"]) == len(ARENA) * 2
    for cell in doc["cells"]:
        p = [Fraction(cell[k]) for k in ("p_win", "p_draw", "p_lose")]
        assert sum(p) == 1 and all(0 <= x <= 1 for x in p)
        assert cell["scenario"]["attacker"] == {
            "unit": cell["attacker"],
            "models": 5,
            "charging": True,
        }
    # a cell is the same combat `attack` resolves from its scenario
    cell = next(
        c for c in doc["cells"] if c["attacker"] == "halberdiers" and c["defender"] == "wisps"
    )
    scenario = out.parent / "cell.yaml"
    scenario.write_text(json.dumps(cell["scenario"]), "utf-8")
    again = json.loads(run_cli("attack", str(scenario), "--build", str(out), "--json").stdout)
    assert again["rounds"][-1]["p_win"] == cell["p_win"]
    assert again["rounds"][-1]["defender_casualties"]["mean"] == cell["defender_casualties"]


def test_text_table_and_unknown_armies(out: Path) -> None:
    done = run_cli("matchup", "arena", "Wisps", "--build", str(out), "--no-charge")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().split("\n\n")[0].splitlines()  # the table, not the notes
    assert lines[0].split("\t")[:2] == ["attacker", "defender"]
    assert len(lines) == 1 + len(ARENA)
    assert done.stderr == ""  # no progress bar when standard error is not a terminal
    bad = run_cli("matchup", "arenna", "Wisps", "--build", str(out))
    assert bad.returncode == 2 and "arena" in bad.stderr


def test_html_grid_in_a_browser(out: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = out.parent / "grid.html"
    done = run_cli(
        "matchup", "arena", "arena", "--build", str(out), "--models", "5", "-o", str(page)
    )
    assert done.returncode == 0, done.stderr
    browser.get(page.as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "table.grid tbody tr")
    assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == ARENA
    cells = browser.find_elements(By.CSS_SELECTOR, "table.grid td")
    assert len(cells) == len(ARENA) ** 2
    # the colour follows the chance to win: the highest and the lowest cells differ
    scored = sorted(cells, key=lambda c: Fraction(c.get_attribute("data-p-win")))
    low, high = scored[0], scored[-1]
    assert low.value_of_css_property("background-color") != high.value_of_css_property(
        "background-color"
    )
    # a cell links to its worked scenario further down the page
    link = high.find_element(By.TAG_NAME, "a")
    target = link.get_attribute("href").split("#", 1)[1]
    link.click()
    assert browser.current_url.endswith("#" + target)
    section = browser.find_element(By.ID, target)
    assert section.is_displayed()
    text = section.find_element(By.TAG_NAME, "pre").text
    assert "attacker:" in text and "unit:" in text and "defender:" in text
    assert "attacker wins" in section.text
    # nothing from the network
    html = page.read_text("utf-8")
    assert "http://" not in html and "https://" not in html
