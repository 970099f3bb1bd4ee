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
    table = done.stdout.strip().split("\n\n")[0]  # the table, not the notes after it
    lines = [x for x in table.splitlines() if not x.startswith("# ")]
    assert lines[0].split("\t")[:2] == ["attacker", "defender"]
    assert len(lines) == 1 + len(ARENA)
    # what the rounds do not play is named after the rows
    assert "# not played: pursuit" in done.stdout
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
    heads = [r.find_element(By.TAG_NAME, "th").text.splitlines() for r in rows]
    assert [h[0] for h in heads] == ARENA
    assert all(h[1] == "5 models" for h in heads)  # each row says the unit's size
    cells = browser.find_elements(By.CSS_SELECTOR, "table.grid td")
    assert len(cells) == len(ARENA) ** 2
    # the colour follows the chance to win: the highest and the lowest cells differ
    scored = sorted(cells, key=lambda c: Fraction(c.get_attribute("data-value")))
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


@pytest.fixture(scope="module")
def realm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """realm.cat (tests/test_army_combat.py describes it): sizes, points, a war machine."""
    return build_fixtures(tmp_path_factory.mktemp("realm"), "combat.gst", "realm.cat")


def test_sizes_and_points_from_the_data(realm: Path) -> None:
    units = "Yeomen,Lord,Bolt Engine,Outriders,Golems"
    doc = json.loads(run_cli("matchup", units, "Yeomen", "--build", str(realm), "--json").stdout)
    # by default each unit at its minimum size, with what that costs
    sizes = {u["id"]: (u["models"], u["points"]) for u in doc["attackers"]}
    assert sizes == {
        "yeomen": (10, 70),
        "lord": (1, 120),
        "bolt-engine": (1, 90),
        "outriders": (5, 75),
        "golems": (5, 100),
    }
    # --points 100: the most whole models 100 points buy, within each unit's size
    done = run_cli("matchup", units, "Yeomen", "--build", str(realm), "--points", "100", "--json")
    doc = json.loads(done.stdout)
    sizes = {u["id"]: (u["models"], u["points"]) for u in doc["attackers"]}
    assert sizes == {
        "yeomen": (15, 100),  # 10 + 6 x 15
        "lord": (1, 120),  # its minimum costs more: it fights at its minimum, with a note
        "bolt-engine": (1, 90),
        "outriders": (6, 89),  # 5 + 14 x 6
        "golems": (5, 100),
    }
    cells = {c["attacker"]: c for c in doc["cells"]}
    assert any("Lord: its minimum size costs 120 points" in n for n in cells["lord"]["notes"])
    # each cell's scenario says the sizes it was fought at
    assert cells["yeomen"]["scenario"]["attacker"]["models"] == 15
    assert cells["yeomen"]["scenario"]["defender"]["models"] == 15


def test_a_unit_that_cannot_charge_does_not(realm: Path, tmp_path: Path) -> None:
    doc = json.loads(
        run_cli("matchup", "Bolt Engine,Lord", "Yeomen", "--build", str(realm), "--json").stdout
    )
    cells = {c["attacker"]: c for c in doc["cells"]}
    assert cells["bolt-engine"]["scenario"]["attacker"]["charging"] is False
    assert cells["bolt-engine"]["notes"] == ["Bolt Engine does not charge: Rooted"]
    assert cells["lord"]["scenario"]["attacker"]["charging"] is True
    for c in doc["cells"]:
        broken = Fraction(c["defender_broken"]) + Fraction(c["defender_destroyed"])
        assert 0 <= broken <= 1
    # the cell's scenario runs as shown, to the same fractions
    scenario = tmp_path / "cell.yaml"
    scenario.write_text(json.dumps(cells["lord"]["scenario"]), "utf-8")
    again = json.loads(run_cli("attack", str(scenario), "--build", str(realm), "--json").stdout)
    last = again["rounds"][-1]
    assert last["defender_broken"] == cells["lord"]["defender_broken"]
    assert last["p_win"] == cells["lord"]["p_win"]


def test_grid_by_break_or_score_names_the_books(realm: Path, browser) -> None:  # type: ignore[no-untyped-def]
    page = realm.parent / "grid.html"
    for by in ("break", "score"):
        done = run_cli(
            "matchup", "realm", "realm", "--build", str(realm), "--by", by, "-o", str(page)
        )
        assert done.returncode == 0, done.stderr
        browser.get(page.as_uri())
        assert browser.find_element(By.TAG_NAME, "h1").text == (
            "Realm of Tests 1.0 against Realm of Tests 1.0"
        )
        cell = browser.find_elements(By.CSS_SELECTOR, "table.grid td[data-value]")[0]
        value = Fraction(cell.get_attribute("data-value"))
        expected = f"{float(value):.0%}"
        assert cell.text.splitlines()[0] == expected  # a percentage, not a fraction
        if by == "score":
            assert cell.get_attribute("data-value") == cell.get_attribute("data-p-win")
        body = browser.find_element(By.TAG_NAME, "body").text
        assert "not played: pursuit and overrun" in body
    # the text table: percentages and the sizes beside the names
    done = run_cli("matchup", "Lord", "Yeomen", "--build", str(realm))
    row = done.stdout.splitlines()[1].split("\t")
    assert row[0] == "Lord (1, 120 pts)" and row[1] == "Yeomen (10, 70 pts)"
    assert row[4].endswith("%")
    bad = run_cli("matchup", "Lord", "Yeomen", "--build", str(realm), "--by", "brake")
    assert bad.returncode == 2 and "break" in bad.stderr
