"""Negations and examples in rule text, read the way the interpreter will execute them.

Every sentence here is written for this test. "not", "unless" and "provided ... is not" turn a
situation into its opposite; "cannot" forbids; text after "e.g.", "i.e." or "For example"
illustrates a rule and is never an effect of it.
"""

from __future__ import annotations

from typing import Any

import pytest

from pipeline.extract.effects import find_effects
from pipeline.quantities import find_quantities


def effects(text: str, name: str | None = "Stubborn Mule") -> list[dict[str, Any]]:
    found = find_effects(text, "en", find_quantities(text, "en"), name=name)
    return [{k: v for k, v in e.items() if k != "span"} for e in found.effects]


@pytest.mark.parametrize(
    "text",
    [
        "The model gains +1 Strength provided its unit is not Charging.",
        "The model gains +1 Strength while its unit is not Charging.",
        "The model gains +1 Strength unless Charging.",
        "The model gains +1 Strength unless it is Charging.",
    ],
)
def test_not_unless_and_provided_not_invert_the_situation(text: str) -> None:
    assert effects(text) == [
        {"op": "modify", "characteristic": "strength", "by": 1, "when": "not-charging"}
    ]


def test_the_plain_situation_stays_plain() -> None:
    assert effects("The model gains +1 Strength while Charging.") == [
        {"op": "modify", "characteristic": "strength", "by": 1, "when": "charging"}
    ]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Units with Stubborn Mule cannot Declare Charges.", "declare-charge"),
        ("A unit with Stubborn Mule cannot Pursue.", "pursue"),
        ("The model may not Pursue.", "pursue"),
    ],
)
def test_cannot_forbids(text: str, action: str) -> None:
    assert effects(text) == [{"op": "forbid", "action": action}]


@pytest.mark.parametrize(
    "text",
    [
        "For example, a model with Rage (+2 Strength) gains +2 Strength and Hatred.",
        "Note that a model gains +1 Strength only once.",
        "e.g. the model gains +1 Armour.",
    ],
)
def test_examples_and_notes_yield_nothing(text: str) -> None:
    assert effects(text) == []


def test_an_example_inside_a_sentence_is_blanked() -> None:
    text = (
        "Each unsaved wound is multiplied into the value given in brackets (X) "
        "(e.g. Multiple Wounds (D6) or Multiple Wounds (2))."
    )
    assert effects(text) == [{"op": "multiple-wounds", "amount": "X"}]
    text = "The model gains +1 Strength, for example when it gains +3 Armour."
    assert effects(text) == [{"op": "modify", "characteristic": "strength", "by": 1}]
