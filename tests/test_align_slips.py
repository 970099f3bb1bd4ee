"""Words typed with one slip read as the word they miss ("объвляет", "jтряд"): only where
the dictionary knows no parse of the typed word and every word one edit from it has one
dictionary form (`pipeline/lang/typos.py`); alignment reads so the core vocabulary's words
(`pipeline/align/slips.py`)."""

from __future__ import annotations

import pytest

from pipeline.lang.typos import mended
from tests.test_align import _anchors_of


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("объвляет", "объявлять"),  # a letter left out
        ("шеренгии", "шеренга"),  # a letter doubled
        ("шернги", "шеренга"),
        ("игрыы", "игра"),
        ("бешентсвом", "бешенство"),  # two letters swapped
        ("дисциплниой", "дисциплина"),
        ("jтряда", "отряд"),  # a key of the other layout
        ("dызов", "вызов"),
    ],
)
def test_a_word_with_one_slip_reads_as_its_word(typed: str, word: str) -> None:
    assert mended(typed, "ru") == word


@pytest.mark.parametrize(
    "typed",
    [
        "получет",  # "получает" and "получит": two verbs
        "прнявший",  # "принявший", "понявший", "пронявший"
        "чемпона",  # "чемпиона" and "темпона"
        "свего",  # "своего", "всего", "свело"
        "отряд",  # a word is no slip, whatever word it is one letter from
        "свой",
        "перс",  # a word of the language, and short
        "хп",  # too short to say which word
        "оверкилл",  # jargon one slip from no word
        "армор",
        "пpавилом",  # a Latin look-alike (p) is no slip of the keyboard
        "двигатьcя",
        "Bыход",
        "Charge",  # a Latin word
    ],
)
def test_a_word_or_an_uncertain_slip_stays_as_typed(typed: str) -> None:
    assert mended(typed, "ru") is None


def test_english_mends_nothing() -> None:
    assert mended("chrage", "en") is None


def test_a_vocabulary_word_typed_with_a_slip_is_read_as_that_word() -> None:
    (ru,) = _anchors_of([("Игрок объвляет, какая модель jтряда выходит из шернги.", "ru")])
    assert ru.keys["w:declare"] == ru.keys["w:unit"] == ru.keys["w:rank"] == 1


def test_a_slip_to_a_word_outside_the_vocabulary_adds_nothing() -> None:
    typed, right = _anchors_of([("Он учавствует в бою.", "ru"), ("Он участвует в бою.", "ru")])
    assert typed.keys == right.keys


def test_an_uncertain_slip_adds_nothing() -> None:
    (ru,) = _anchors_of([("Отряд получет бонус.", "ru")])  # получает or получит
    assert not {"w:gain", "w:receive"} & set(ru.keys)


def test_a_homoglyph_is_left_to_the_checks() -> None:
    typed, plain = _anchors_of([("Отряд может двигатьcя.", "ru"), ("Отряд может.", "ru")])
    assert typed.keys == plain.keys


def test_a_slip_in_the_first_two_letters_is_read_only_as_their_swap() -> None:
    # the vocabulary's forms are looked up by the word's first two letters
    assert mended("оъявляет", "ru") == "объявлять"  # the language's reader finds it ...
    (dropped,) = _anchors_of([("Игрок оъявляет модель.", "ru")])
    assert "w:declare" not in dropped.keys  # ... alignment does not look there
    (swapped,) = _anchors_of([("Игрок боъявляет модель.", "ru")])
    assert swapped.keys["w:declare"] == 1
