"""A numbered document: a translator's hand opens each paragraph with its own section
number and a heading ("4.1.2 Обычное присутствие. ..."), where the English writes the
heading inside its first sentence ("Standard Presence: ..."), and cites sections by
number ("см. п. 4.2.1")."""

from __future__ import annotations

import pytest

from pipeline.align.anchors import numbered_heading_joined
from pipeline.sentences import sentences
from tests.test_align import _anchors_of


def _said(text: str) -> list[str]:
    return [text[a:b] for a, b in numbered_heading_joined(text, tuple(sentences(text)))]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "2.3.1 Тяжёлые щиты. Юнит с тяжёлым щитом получает +1 к броне. Щит не складывается.",
            [
                "2.3.1 Тяжёлые щиты. Юнит с тяжёлым щитом получает +1 к броне.",
                "Щит не складывается.",
            ],
        ),
        # a section added by the hand itself, its number lettered
        ("2.3.1б Щиты. Щит даёт +1 к броне.", ["2.3.1б Щиты. Щит даёт +1 к броне."]),
        # a count opening a sentence is no section's number
        (
            "3 модели стоят рядом. Щит даёт +1 к броне.",
            ["3 модели стоят рядом.", "Щит даёт +1 к броне."],
        ),
        # a first sentence too long for a heading is a sentence of the rule
        (
            "2.3 Юнит, который стоит в лесу и не двигался в этом ходу, получает укрытие."
            " Щит даёт +1.",
            [
                "2.3 Юнит, который стоит в лесу и не двигался в этом ходу, получает укрытие.",
                "Щит даёт +1.",
            ],
        ),
        (
            "Shields: a Shield gives +1 Armour. It does not stack.",
            ["Shields: a Shield gives +1 Armour.", "It does not stack."],
        ),
    ],
)
def test_a_numbered_heading_is_read_with_the_sentence_after_it(text, said):
    assert _said(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "Юнит из щитоносцев (см. п. 2.3.1) получает +1 к броне.",
        "Юнит из щитоносцев (см. пп. 2.3.1 и 2.3.2) получает +1 к броне.",
        "Юнит из щитоносцев (п. 2.3.1) получает +1 к броне.",
    ],
)
def test_a_cited_section_ends_no_sentence(text):
    assert [text[a:b] for a, b in sentences(text)] == [text]


def test_a_numbered_translation_has_as_many_sentences_as_its_english():
    """Counted alone, the heading and a cited section's "п." would make three sentences of
    one: the pair would score as a translation that adds two."""
    english, russian = _anchors_of(
        [
            ("Heavy Shields: a unit with Heavy Shields (see Shields) gains +1 Armour.", "en"),
            (
                "2.3.1 Тяжёлые щиты. Юнит с тяжёлыми щитами (см. п. 2.3) получает +1 к броне.",
                "ru",
            ),
        ]
    )
    assert len(english.sentences) == len(russian.sentences) == 1


def _agreements(english: str, russians: list[str]) -> list[float]:
    """How far each translation's anchors agree with the English (length aside)."""
    from pipeline.align.paragraphs import AnchorIndex, score

    en, *ru = _anchors_of([(english, "en"), *((r, "ru") for r in russians)])
    index = AnchorIndex([en])
    return [score(r, en, index)[1]["anchors"] for r in ru]


def test_a_rule_label_the_translation_adds_to_a_name_counts_against_no_pair():
    """ "с правилом «Рослый»" where the English says "with Tall": the label is the
    translator's way to name a rule, and the pair scores as if it were not written."""
    labelled, bare = _agreements(
        'Tall: a model with Tall counts as height 2 within 6" of a unit.',
        [
            'Рослые. Модель с правилом «рослый» считается моделью высоты 2 в 6" от юнита.',
            'Рослые. Модель рослая считается моделью высоты 2 в 6" от юнита.',
        ],
    )
    assert labelled == pytest.approx(bare)


def test_a_rule_label_both_texts_write_is_shared():
    """Where the English writes the label too ("the Tall rule"), the translation that
    keeps it says more of its English than one that leaves it out."""
    labelled, bare = _agreements(
        'Tall: a model with the Tall rule counts as height 2 within 6" of a unit.',
        [
            'Рослые. Модель с правилом «рослый» считается моделью высоты 2 в 6" от юнита.',
            'Рослые. Модель рослая считается моделью высоты 2 в 6" от юнита.',
        ],
    )
    assert labelled > bare
