"""Dice expressions against brute-force enumeration written out in the test."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.commands import main
from pipeline.errors import InputError
from pipeline.interpret.dice import distribution, mean, p_all_equal, parse

D6 = range(1, 7)


def enum(faces_lists, fn) -> dict[int, Fraction]:
    """Exact distribution of fn over every combination of equally likely faces."""
    counts = Counter(fn(*combo) for combo in itertools.product(*faces_lists))
    total = sum(counts.values())
    return {v: Fraction(c, total) for v, c in sorted(counts.items())}


def as_dict(expr: str, **bindings: str | int) -> dict[int, Fraction]:
    return dict(distribution(parse(expr, bindings)))


def d3(v: int) -> int:
    return (v + 1) // 2  # half a D6, rounded up


def rerolled_once(reroll: set[int]) -> list[tuple[int, Fraction]]:
    """A D6 whose faces in `reroll` are rolled again once, by enumeration of both rolls."""
    out: Counter[int] = Counter()
    for first, second in itertools.product(D6, D6):
        out[second if first in reroll else first] += 1
    return [(v, Fraction(c, 36)) for v, c in out.items()]


def test_3d6_mean_is_21_over_2_and_matches_enumeration() -> None:
    die = parse("3D6")
    assert mean(die) == Fraction(21, 2)
    assert as_dict("3D6") == enum([D6] * 3, lambda a, b, c: a + b + c)
    assert as_dict("3D6")[3] == Fraction(1, 216)


@pytest.mark.parametrize(
    ("expr", "faces", "fn"),
    [
        ("D6", [D6], lambda a: a),
        ("D3", [D6], d3),
        ("2D6", [D6] * 2, lambda a, b: a + b),
        ("2D3", [D6] * 2, lambda a, b: d3(a) + d3(b)),
        ("D3+1", [D6], lambda a: d3(a) + 1),
        ("4D6 drop lowest", [D6] * 4, lambda *r: sum(r) - min(r)),
        ("3D6 drop highest", [D6] * 3, lambda *r: sum(r) - max(r)),
        ("4D6 keep highest 2", [D6] * 4, lambda *r: sum(sorted(r)[2:])),
        ("3D6 keep lowest 1", [D6] * 3, lambda *r: min(r)),
        ("2D6 maximised", [D6] * 3, lambda *r: sum(r) - min(r)),
        ("4D6 drop lowest drop highest", [D6] * 4, lambda *r: sum(sorted(r)[1:3])),
        ("D3*D6", [D6] * 2, lambda a, b: d3(a) * b),
        ("2*D3", [D6], lambda a: 2 * d3(a)),
        ("D6-D6", [D6] * 2, lambda a, b: a - b),
        ("(D3)D6", [D6] * 4, lambda n, a, b, c: (a, a + b, a + b + c)[d3(n) - 1]),
        ("Д6+К6", [D6] * 2, lambda a, b: a + b),
    ],
)
def test_expression_equals_enumeration(expr, faces, fn) -> None:
    assert as_dict(expr) == enum(faces, fn)


def test_variable_x_plus_d6_with_x_given() -> None:
    assert as_dict("X+D6", X=3) == enum([D6], lambda a: 3 + a)
    assert as_dict("X+D6", X="D3") == enum([D6] * 2, lambda a, b: d3(a) + b)
    # the Russian text writes a Cyrillic Х; it reads as X
    assert as_dict("Х+D6", X=2) == enum([D6], lambda a: 2 + a)


def test_reroll_happens_at_most_once() -> None:
    assert sorted(distribution(parse("D6 reroll 1"))) == sorted(rerolled_once({1}))
    assert sorted(distribution(parse("D6 reroll <=2"))) == sorted(rerolled_once({1, 2}))
    assert dict(distribution(parse("D6 reroll 1")))[1] == Fraction(1, 36)
    # two dice each re-rolling their own 1 once
    one = dict(rerolled_once({1}))
    want: Counter[int] = Counter()
    for (a, pa), (b, pb) in itertools.product(one.items(), one.items()):
        want[a + b] += pa * pb
    assert as_dict("2D6 reroll 1") == dict(sorted(want.items()))


def test_shambolic_all_three_equal_is_1_over_36() -> None:
    brute = enum([D6] * 3, lambda a, b, c: int(a == b == c))[1]
    assert brute == Fraction(1, 36)
    assert p_all_equal("3D6") == brute
    assert p_all_equal("2D6") == Fraction(1, 6)


@pytest.mark.parametrize(
    "bad",
    ["", "3D", "D6 drop", "2D6 +", "foo", "7D6 drop lowest 7", "X", "D0", "(2D6", "3 drop lowest"],
)
def test_bad_expressions_raise_input_error(bad: str) -> None:
    with pytest.raises(InputError) as info:
        parse(bad)
    assert "expression" in str(info.value)


def test_unbound_variable_names_the_variable() -> None:
    with pytest.raises(InputError, match="X is not given"):
        parse("X+D6")


small = st.sampled_from(["D6", "D3", "2D6", "D3+1", "3", "2D3", "D6 reroll 1", "3D6 drop lowest"])


@settings(max_examples=60, deadline=None)
@given(small, small)
def test_sum_is_the_convolution(a: str, b: str) -> None:
    da, db = dict(distribution(parse(a))), dict(distribution(parse(b)))
    conv: Counter[int] = Counter()
    for (x, px), (y, py) in itertools.product(da.items(), db.items()):
        conv[x + y] += px * py
    assert as_dict(f"{a} + ({b})" if " " in b else f"{a}+{b}") == dict(sorted(conv.items()))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.sampled_from([3, 4, 6, 8]), st.integers(-3, 3))
def test_distributions_sum_to_one(n: int, sides: int, plus: int) -> None:
    dist = distribution(parse(f"{n}D{sides}+{plus}" if plus >= 0 else f"{n}D{sides}{plus}"))
    assert sum(p for _, p in dist) == 1
    assert [v for v, _ in dist] == sorted(v for v, _ in dist)
    assert dist[0][0] == n + plus


def test_roll_command_json_matches_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "3D6", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["expr"] == "3D6"
    assert doc["mean"] == "21/2"
    brute = enum([D6] * 3, lambda a, b, c: a + b + c)
    assert [(d["value"], Fraction(d["p"])) for d in doc["distribution"]] == list(brute.items())
    assert doc["distribution"][0] == {"value": 3, "p": "1/216"}


def test_roll_command_binds_variables_and_all_equal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "X+D6", "--set", "X=2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["mean"] == "11/2"
    assert main(["roll", "3D6", "--all-equal", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["p_all_equal"] == "1/36"


def test_roll_command_bad_input_exits_2_with_nothing_on_stdout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["roll", "2D", "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "2D" in out.err


def test_roll_command_text_shows_the_mean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "2D6"]) == 0
    text = capsys.readouterr().out
    assert "mean 7" in text
    assert "1/36" in text


@pytest.mark.parametrize("sides", [3, 6, 8])
@pytest.mark.parametrize("values", [{1}, {1, 2}, {2, 5}, {9}])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_reroll_weights_are_icepools(sides: int, values: set[int], depth: int) -> None:
    """The re-roll without icepool gives icepool's own weights, not only its probabilities
    (the limits price a die by its denominator)."""
    import icepool

    from pipeline.interpret.weights import Weights, reroll

    ours = reroll(Weights(1, [1] * sides), values, depth)
    theirs = icepool.d(sides).reroll(sorted(values), depth=depth)
    assert ours.items() == sorted((v, q) for v, q in theirs.items() if q)
    assert ours.total() == theirs.denominator()
