"""The interpreter's bounds: every input is priced before it is computed. Each case runs as a
user runs it, in a child process with a timeout, and ends in seconds with a correct result
(exit 0) or a refusal naming the limit (exit 2); never a hang, a traceback or exit 3.
"""

from __future__ import annotations

import json
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from pipeline.errors import InputError
from pipeline.interpret import limits
from pipeline.interpret.attack import casualties, scenario_from_dict, sources
from pipeline.interpret.rules import Build
from pipeline.interpret.tables import roll_table

from .test_hostile import run_measured

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 120  # a child still running after this is killed: the case failed


def run(*args: str) -> tuple[int, str, str, float]:
    start = time.monotonic()
    code, out, err, _ = run_measured(*args, timeout=SECONDS)
    return code, out, err, time.monotonic() - start


def refused(code: int, out: str, err: str, pattern: str) -> None:
    assert code == 2, err
    assert out == ""
    assert "Traceback" not in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert re.search(pattern, err), err


def write_rules(build: Path, *rules: dict) -> Path:
    (build / "rules").mkdir(parents=True, exist_ok=True)
    for rule in rules:
        text = yaml.safe_dump(rule, sort_keys=False)
        (build / "rules" / f"{rule['id']}.yaml").write_text(text, encoding="utf-8")
    return build


def table_rule(rule_id: str, sides: int, rows: int, chain: str | None) -> dict:
    """A D`sides` table of `rows` equal ranges; every row chains to `chain` if given."""
    width = sides // rows
    out = []
    for i in range(rows):
        row: dict = {"range": [i * width + 1, (i + 1) * width], "outcome": f"o{i}"}
        if chain:
            row["chain"] = chain
        out.append(row)
    return {
        "id": rule_id,
        "kind": "table",
        "names": {"en": rule_id},
        "effects": [],
        "table": {"die": f"D{sides}", "rows": out},
    }


def scenario(path: Path, attacker: dict, defender: dict) -> Path:
    base_a = {"models": 1, "attacks": 1, "offensive_skill": 4, "strength": 4}
    base_a |= {"armour_penetration": 0, "agility": 3, "rules": []}
    base_d = {"defensive_skill": 4, "resilience": 4, "health_points": 1, "armour": 0}
    base_d |= {"rules": []}
    doc = {"attacker": base_a | attacker, "defender": base_d | defender}
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("limits") / "output"
    rules = [
        {
            "id": "multiple-wounds-d6",
            "kind": "special-rule",
            "names": {"en": "Multiple Wounds (D6)"},
            "effects": [{"op": "multiple-wounds", "amount": "D6"}],
        }
    ]
    rules.append(
        {
            "id": "forty-more-hits",
            "kind": "special-rule",
            "names": {"en": "Forty More Hits"},
            "effects": [
                {
                    "op": "on-natural",
                    "roll": "to-hit",
                    "value": 6,
                    "effect": "extra-hit",
                    "hits": 40,
                }
            ],
        }
    )
    # eight D6 tables, every row of each chaining to the next: 6^7 paths rolled one by one
    rules += [table_rule(f"six-{i}", 6, 6, f"six-{i + 1}" if i < 7 else None) for i in range(8)]
    # three D1000 tables of ten rows each, chained: 1000^3 paths
    rules += [table_rule(f"big-{i}", 1000, 10, f"big-{i + 1}" if i < 2 else None) for i in range(3)]
    # grants: one rule grants 20, each of which grants the same 20, five levels deep
    for level in range(6):
        for j in range(20 if level else 1):
            if level < 5:
                effects = [{"op": "grant", "rule": f"g{level + 1}-{k}"} for k in range(20)]
            else:
                effects = [{"op": "roll", "roll": "charge", "modifier": 1}]
            rules.append(
                {
                    "id": f"g{level}-{j}",
                    "kind": "special-rule",
                    "names": {"en": "G"},
                    "effects": effects,
                }
            )
    rules.append(
        {
            "id": "loop-a",
            "kind": "special-rule",
            "names": {"en": "A"},
            "effects": [{"op": "grant", "rule": "loop-b"}],
        }
    )
    rules.append(
        {
            "id": "loop-b",
            "kind": "special-rule",
            "names": {"en": "B"},
            "effects": [{"op": "grant", "rule": "loop-a"}],
        }
    )
    return write_rules(root, *rules)


# --- roll --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "pattern"),
    [
        ("200D1000", r"'200D1000' would have about 2×10\^5 outcomes; the limit is 2×10\^4"),
        ("D1000*D1000*D1000", r"outcomes; the limit is 2×10\^4"),
        ("3D1000*D1000", r"outcomes; the limit is 2×10\^4"),
        ("200D6 drop lowest", r"steps; the limit is 5×10\^7"),
        ("3D1000 drop lowest", r"up to 100 sides \(the limit\)"),
        ("1001D6", r"0 to 1000 dice"),
        ("(" * 2000 + "D6" + ")" * 2000, r"more than 64 nested levels \(the limit\)"),
        ("-" * 2000 + "D6", r"more than 64 nested levels \(the limit\)"),
    ],
)
def test_a_roll_past_the_limits_is_refused_at_once(expr: str, pattern: str) -> None:
    code, out, err, seconds = run("roll", "--json", "--", expr)
    refused(code, out, err, pattern)
    assert seconds < 30


def test_a_sum_of_a_thousand_dice_is_exact_and_quick() -> None:
    expr = "+".join(["D6"] * 1000)
    code, out, err, seconds = run("roll", "--json", expr)
    assert code == 0, err
    doc = json.loads(out)
    assert Fraction(doc["mean"]) == 3500
    first, last = doc["distribution"][0], doc["distribution"][-1]
    assert first == {"value": 1000, "p": f"1/{6**1000}"}
    assert last == {"value": 6000, "p": f"1/{6**1000}"}
    assert sum(Fraction(d["p"]) for d in doc["distribution"]) == 1
    assert seconds < 60


def test_many_dice_of_different_kinds_and_a_big_pool() -> None:
    code, out, err, _ = run("roll", "--json", "+".join(["D6", "D3", "2D6", "D8"] * 250))
    assert code == 0, err
    assert Fraction(json.loads(out)["mean"]) == 250 * (Fraction(7, 2) + 2 + 7 + Fraction(9, 2))
    code, out, err, _ = run("roll", "--json", "200D6")
    assert code == 0, err
    doc = json.loads(out)
    assert Fraction(doc["mean"]) == 700 and len(doc["distribution"]) == 1001


def test_parentheses_within_the_limit_are_computed() -> None:
    code, out, err, _ = run("roll", "--json", "(" * 60 + "D6" + ")" * 60)
    assert code == 0, err
    assert [d["p"] for d in json.loads(out)["distribution"]] == ["1/6"] * 6


def test_estimates_come_before_the_work() -> None:
    """The price of 3D1000*D1000 is known without rolling it, and is past the limit."""
    big = limits.multiply(
        limits.repeat(limits.die(1000, 1, 1000, True), 3), limits.die(1000, 1, 1000, True)
    )
    assert big.outcomes > limits.MAX_OUTCOMES
    with pytest.raises(InputError, match="would have about"):
        limits.check(big, "'3D1000*D1000'", "expression")
    assert limits.about(199_801) == "2×10^5" and limits.about(950) == "950"


# --- attack ------------------------------------------------------------------------------


def test_huge_health_points_are_computed_without_a_huge_matrix(tmp_path: Path, build: Path) -> None:
    for hp in (15_000, 1_000_000):
        path = scenario(tmp_path / f"hp{hp}.yaml", {}, {"health_points": hp, "models": 10})
        code, out, err, seconds = run("attack", str(path), "--build", str(build), "--json")
        assert code == 0, err
        doc = json.loads(out)
        assert doc["casualties"]["distribution"] == [{"value": 0, "p": "1"}]
        assert seconds < 60


def test_a_thousand_attacking_models_need_no_deep_recursion(tmp_path: Path, build: Path) -> None:
    path = scenario(tmp_path / "models.yaml", {"models": 1000}, {"models": 2000})
    code, out, err, _ = run("attack", str(path), "--build", str(build), "--json")
    assert code == 0, err
    doc = json.loads(out)
    # OS 4 against DS 4 hits on 4+: half of 1,000 attacks
    assert Fraction(doc["hits"]["mean"]) == 500


def test_many_attacks_with_multiple_wounds(tmp_path: Path, build: Path) -> None:
    mw = {"rules": ["multiple-wounds-d6"]}
    ok = scenario(
        tmp_path / "a200.yaml", {"attacks": 200} | mw, {"health_points": 6, "models": 100}
    )
    code, out, err, seconds = run("attack", str(ok), "--build", str(build), "--json")
    assert code == 0, err
    dist = json.loads(out)["casualties"]["distribution"]
    assert sum(Fraction(d["p"]) for d in dist) == 1
    assert seconds < 60
    heavy = scenario(
        tmp_path / "a2000.yaml", {"attacks": 2000} | mw, {"health_points": 6, "models": 1000}
    )
    code, out, err, _ = run("attack", str(heavy), "--build", str(build), "--json")
    refused(code, out, err, r"the attack would need about .* steps; the limit is 5×10\^7")
    too_many = scenario(tmp_path / "a2001.yaml", {"attacks": 2001}, {})
    code, out, err, _ = run("attack", str(too_many), "--build", str(build), "--json")
    refused(code, out, err, r"2000")


def test_extra_hits_of_one_roll_are_priced(tmp_path: Path, build: Path) -> None:
    path = scenario(tmp_path / "focus.yaml", {"rules": ["forty-more-hits"]}, {})
    code, out, err, _ = run("attack", str(path), "--build", str(build), "--json")
    refused(code, out, err, r"forty-more-hits.yaml: the extra hits would need about")


def test_casualties_kept_in_one_column_past_the_models_change_nothing(build: Path) -> None:
    """Kills past the unit's models are folded as the chain runs: the same distribution as
    running the whole chain and capping at the end."""
    side = {"models": 3, "attacks": 4, "offensive_skill": 4, "strength": 5}
    side |= {"armour_penetration": 0, "agility": 3, "rules": ["multiple-wounds-d6"]}
    target = {"defensive_skill": 3, "resilience": 3, "health_points": 3, "armour": 1}
    target |= {"models": 2}
    sc = scenario_from_dict({"attacker": side, "defender": target})
    srcs, defender = sources(sc, Build(build))
    folded = casualties(srcs, int(defender["health_points"]), 2)
    whole = casualties(srcs, int(defender["health_points"]), None)
    assert folded.items() == whole.capped(2).items()
    assert len(whole.weights) > 3  # the cap does bite


# --- tables ------------------------------------------------------------------------------


def test_chained_tables_are_rolled_once_each(build: Path) -> None:
    for first, last, n in (("six-0", "six-7", 6), ("big-0", "big-2", 10)):
        code, out, err, seconds = run("table", first, "--build", str(build), "--json")
        assert code == 0, err
        outcomes = json.loads(out)["outcomes"]
        assert {o["table"] for o in outcomes} == {last}
        assert [o["p"] for o in outcomes] == [f"1/{n}"] * n
        assert seconds < 60


def test_a_memoised_table_keeps_the_path_and_the_chain_limit(build: Path) -> None:
    outcomes = roll_table(Build(build), "six-0")
    assert outcomes[0].path == tuple(f"six-{i}" for i in range(8))
    assert sum(o.p for o in outcomes) == 1


# --- grants ------------------------------------------------------------------------------


def test_grants_that_fan_out_are_expanded_once_per_rule(build: Path) -> None:
    code, out, err, seconds = run(
        "charge", "--distance", "10", "--advance", "5", "--rules", "g0-0",
        "--build", str(build), "--json",
    )  # fmt: skip
    assert code == 0, err
    # the twenty rules at the bottom each add 1 to the charge roll, once each
    assert json.loads(out)["roll"] == "2D6 + 5 + 20"
    assert seconds < 60
    effects = Build(build).effects(["g0-0"])
    assert sum(1 for e in effects if e.op == "roll") == 20


def test_a_grant_loop_is_named(build: Path) -> None:
    code, out, err, _ = run(
        "charge", "--distance", "10", "--advance", "5", "--rules", "loop-a",
        "--build", str(build), "--json",
    )  # fmt: skip
    refused(code, out, err, r"grants loop: loop-a -> loop-b -> loop-a")


# --- docs/limits.md states the same numbers as the code -----------------------------------


def test_the_docs_list_every_interpreter_limit_with_its_number() -> None:
    text = (ROOT / "docs" / "limits.md").read_text("utf-8")
    section = text.split("## Interpreter", 1)[1]
    constants = {k: v for k, v in vars(limits).items() if k.startswith("MAX_")}
    for name, value in constants.items():
        rows = re.findall(rf"^\| `{name}` \| ([\d,]+) \|", section, flags=re.M)
        assert rows == [f"{value:,}"], f"{name} is not in docs/limits.md (Interpreter)"
