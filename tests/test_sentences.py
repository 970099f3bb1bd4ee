"""Sentence spans (`pipeline/sentences.py`), where a hand writes no capitals at sentence
starts: a text that opens in lower case ends a sentence at a full stop after a word of
five letters or more and before a lower-case letter too."""

from __future__ import annotations

import pytest

from pipeline.sentences import sentences


def _said(text: str) -> list[str]:
    return [text[a:b] for a, b in sentences(text)]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "маунты в вызове: скакун бьет скакуна. атаки по всаднику делит как хочет",
            ["маунты в вызове: скакун бьет скакуна.", "атаки по всаднику делит как хочет"],
        ),
        ("the unit flees. then it rallies", ["the unit flees.", "then it rallies"]),
        ("отряд бежит! потом собирается", ["отряд бежит!", "потом собирается"]),
    ],
)
def test_a_text_in_lower_case_ends_its_sentences_before_lower_case(text, said):
    assert _said(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Отряд бежит. потом собирается",  # a capital opens the text: its hand writes them
        "отряд бьет. потом",  # a word of four letters may be an abbreviation ("прим.")
        "см. прим. пер. ниже",
        "отряд т. е. модели",  # an abbreviation
    ],
)
def test_other_full_stops_before_lower_case_end_no_sentence(text):
    assert len(sentences(text)) == 1


def test_a_capital_after_a_full_stop_ends_a_sentence_in_any_text():
    assert _said("отряд бьет. Потом бежит") == ["отряд бьет.", "Потом бежит"]
