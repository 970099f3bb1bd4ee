"""effect_mismatch: translations that play differently are errors, faithful ones are not."""

from __future__ import annotations

import pytest

from pipeline.check import Pair, run_checks
from pipeline.check.effects import compare
from pipeline.extract.effects import find_effects
from pipeline.glossary import load_glossary
from pipeline.quantities import find_quantities
from tests.conftest import CORPUS

SOURCE = "When Charging, models with this rule gain +1 Strength."
FAITHFUL = [
    "При нападении модели с этим правилом получают +1 к Силе.",
    "Модели с этим правилом получают +1 к Силе при нападении.",
    "Модели с этим правилом при нападении получают +1 к Силе.",
]
CHANGED = {
    "negated": "Модели с этим правилом, если не являются нападающими, получают +1 к Силе.",
    "sign": "При нападении модели с этим правилом получают -1 к Силе.",
    "characteristic": "При нападении модели с этим правилом получают +1 к Ловкости.",
    "condition lost": "Модели с этим правилом получают +1 к Силе в первом раунде боя.",
}


def _effects(text: str, lang: str) -> list[dict]:
    return [dict(e) for e in find_effects(text, lang, find_quantities(text, lang)).effects]


@pytest.mark.parametrize("target", FAITHFUL)
def test_faithful_translations_in_any_word_order_are_not_flagged(target: str) -> None:
    assert [f for f in compare("p", SOURCE, target, "en", "ru") if f.severity == "error"] == []


@pytest.mark.parametrize("kind", sorted(CHANGED))
def test_each_semantic_change_is_an_error_naming_both_effects(kind: str) -> None:
    findings = [f for f in compare("p", SOURCE, CHANGED[kind], "en", "ru") if f.severity == "error"]
    assert findings, kind
    f = findings[0]
    assert f.source_span and f.target_span
    assert "strength" in (f.expected or "").lower()


def test_the_finding_says_what_the_change_does_in_a_reference_attack() -> None:
    (f,) = [f for f in compare("p", SOURCE, CHANGED["sign"], "en", "ru") if f.severity == "error"]
    assert "casualties where the source gives" in f.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Модели перебрасывают проваленные броски на попадание.",
            {"op": "roll", "roll": "to-hit", "reroll": "failed"},
        ),
        (
            "Успешные броски на ранение должны быть переброшены.",
            {"op": "roll", "roll": "to-wound", "reroll": "successful"},
        ),
        (
            "Если при броске на попадание выпадает натуральная 6, атака автоматически ранит.",
            {"op": "on-natural", "roll": "to-hit", "value": 6, "effect": "auto-wound"},
        ),
        ("Эгида — это особая защита.", {"op": "special-save", "kind": "aegis", "value": "X"}),
        ("Атаки имеют Множественные ранения (D3).", {"op": "multiple-wounds", "amount": "D3"}),
        ("Модели не могут преследовать.", {"op": "forbid", "action": "pursue"}),
    ],
)
def test_russian_effects_in_inflected_forms(text: str, expected: dict) -> None:
    (effect,) = _effects(text, "ru")
    assert {k: effect.get(k) for k in expected} == expected


def test_reroll_of_another_roll_is_caught() -> None:
    src = "Models with this rule gain +1 Strength. Its failed to-hit rolls must be rerolled."
    ok = (
        "Модели с этим правилом получают +1 к Силе."
        " Проваленные броски на попадание перебрасываются."
    )
    bad = "Модели с этим правилом получают +1 к Силе. Успешные броски на ранение перебрасываются."
    assert not [f for f in compare("p", src, ok, "en", "ru") if f.severity == "error"]
    assert [f for f in compare("p", src, bad, "en", "ru") if f.severity == "error"]


def test_a_sentence_split_in_two_is_not_flagged() -> None:
    src = "When Charging, models with this rule gain +1 Strength and +1 Armour Penetration."
    tgt = (
        "При нападении модели с этим правилом получают +1 к Силе. "
        "Кроме того, при нападении они получают +1 к Бронебойности."
    )
    assert not [f for f in compare("p", src, tgt, "en", "ru") if f.severity == "error"]


@pytest.mark.parametrize(
    ("source", "target"), [("+3 Armor", "armatura +3"), ("Armor +1", "armatura +1")]
)
def test_the_seeds_italian_profile_pairs_pass(source: str, target: str) -> None:
    assert _effects(target, "it") == [
        {"op": "modify", "characteristic": "armour", "by": int(target[-2:]), "span": [0, 11]}
    ]
    assert compare("p", source, target, "en", "it") == []


def test_an_italian_profile_with_another_value_is_an_error() -> None:
    (f,) = compare("p", "Armor +1", "armatura +2", "en", "it")
    assert f.severity == "error"
    assert f.message.startswith(
        'the translation says "+2 Armour" where the source says "+1 Armour"'
    )


@pytest.mark.parametrize(
    ("source", "target"),
    [
        (
            "In the first Round of Combat, failed to-hit rolls must be rerolled.",
            "I modelli ripetono i tiri per colpire falliti nel primo round di combattimento.",
        ),
        ("This model cannot Declare Charges.", "Questo modello non può dichiarare una carica."),
        ("The model gains +1 Strength.", "Il modello guadagna +1 Forza."),
    ],
)
def test_italian_rule_sentences_read_as_their_english(source: str, target: str) -> None:
    assert _effects(target, "it")
    assert [f for f in compare("p", source, target, "en", "it") if f.severity == "error"] == []


def test_an_italian_reroll_of_successful_rolls_is_caught() -> None:
    src = "Failed to-hit rolls must be rerolled."
    tgt = "I modelli possono ripetere i tiri per colpire riusciti."
    assert [f for f in compare("p", src, tgt, "en", "it") if f.severity == "error"]


def test_english_failed_rolls_at_a_sentence_start_are_read() -> None:
    (effect,) = _effects("Failed to-hit rolls must be rerolled.", "en")
    assert {k: effect[k] for k in ("op", "roll", "reroll")} == {
        "op": "roll",
        "roll": "to-hit",
        "reroll": "failed",
    }


TABLE = "Roll a D6. On a 1, the model falls. On a 2-5, the model stumbles. On a 6, it lands safely."
TABLE_RU = (
    "Бросьте D6. Если выпадет 1, модель падает. При результате {mid} модель спотыкается."
    " Если на кубике выпадет {top}, модель приземляется."
)


def test_a_table_translated_with_another_range_reports_outcome_probabilities() -> None:
    target = TABLE_RU.format(mid="2-4", top="5-6")
    (f,) = [f for f in compare("p", TABLE, target, "en", "ru") if f.severity == "error"]
    assert "row 2 ('the model stumbles') 50.0% where the source gives 66.7%" in f.message
    assert "row 3" in f.message and "33.3% where the source gives 16.7%" in f.message
    assert (f.expected, f.found) == ("D6: 1, 2-5, 6", "D6: 1, 2-4, 5-6")
    assert f.source_span and f.target_span


def test_a_faithful_table_is_not_flagged() -> None:
    target = TABLE_RU.format(mid="2-5", top="6")
    assert [f for f in compare("p", TABLE, target, "en", "ru") if f.severity == "error"] == []


def test_a_markdown_table_with_another_outcome_row() -> None:
    source = "| D6 | Result |\n|---|---|\n| 1 | Falls |\n| 2-5 | Stumbles |\n| 6 | Lands |"
    target = "| D6 | Итог |\n|---|---|\n| 1-2 | Падает |\n| 3-5 | Спотыкается |\n| 6 | Стоит |"
    (f,) = compare("p", source, target, "en", "ru")
    assert (
        f.severity == "error" and "row 1 ('Falls') 33.3% where the source gives 16.7%" in f.message
    )


@pytest.mark.parametrize(
    ("source", "target"),
    [
        (
            "In the first Round of Combat, failed to-hit rolls must be rerolled.",
            "В первом раунде ближнего боя проваленные броски на попадание должны быть переброшены.",
        ),
        (
            "In the first Round of Combat, failed to-hit rolls must be rerolled.",
            "Проваленные броски на попадание перебрасываются в первом раунде боя.",
        ),
        ("Models with this rule cannot Charge.", "Модели с этим правилом не могут нападать."),
        (
            "Models with this rule cannot Charge.",
            "Модели с этим правилом не могут объявлять нападение.",
        ),
    ],
)
def test_glossary_synonyms_are_not_flagged(source: str, target: str) -> None:
    """Combat is `Ближний бой` or `бой`, Charge `Нападение` or `нападать` in the glossary."""
    glossary = load_glossary(CORPUS / "glossary.yaml")
    report = run_checks([Pair("p", source, target, "en", "ru")], glossary)
    assert report.findings == [] or all(f.severity == "info" for f in report.findings)
    assert _effects(target, "ru")
