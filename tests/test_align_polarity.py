"""What a rule allows and forbids, compared where a translation's sentences pair with its
English: a look-alike that says the opposite is no translation (`paragraphs.opposite`)."""

from __future__ import annotations

import pytest

from pipeline.align.anchors import modality
from pipeline.sentences import sentences
from tests.test_align import _anchors_of

_ENGLISH = (
    "Crossing Rivers: a unit that has waded a river cannot shoot in the same Player Turn."
    " A unit on a bridge may shoot as normal."
)


@pytest.mark.parametrize(
    ("text", "lang", "said"),
    [
        ("A unit cannot march. It may reform.", "en", ("f", "p")),
        ("No unit may march; each may reform.", "en", ("fp",)),
        # a hedge reads neither way: "only if", "at most" are bounds, not permissions
        ("A unit may march only if no enemy is near.", "en", ("",)),
        ("Its Unit Strength may be at most 10.", "en", ("",)),
        ("Отряд не может маршировать. Перестроиться ему можно.", "ru", ("f", "p")),
        ("Маршировать нельзя, а перестраиваться допускается.", "ru", ("fp",)),
        ("Численность не может превышать 10.", "ru", ("",)),
        # a hedge opening the next clause hedges this one: "may ... only if"
        ("Отряд может стрелять, только если не двигался.", "ru", ("",)),
        # "больше не может" is "can no longer", no bound
        ("Отряд больше не может двигаться.", "ru", ("f",)),
        # a plain negation is no prohibition: "не стреляет" says what happens
        ("Отряд, который не двигался, стреляет.", "ru", ()),
    ],
)
def test_clauses_are_read_as_allowing_or_forbidding(text, lang, said):
    assert modality(text, tuple(sentences(text)), lang) == said


@pytest.mark.parametrize(
    ("russian", "opposite"),
    [
        # the translation: the prohibition said with "нельзя", the permission with "может"
        (
            "Переправа через реку: отряду, переходившему реку вброд, в этот ход игрока"
            " стрелять нельзя. Отряд на мосту может стрелять как обычно.",
            False,
        ),
        # a look-alike: the same words, the rule turned round
        (
            "Переправа через реку: отряд, переходивший реку вброд, может стрелять в этот ход"
            " игрока. Отряд на мосту стрелять не может.",
            True,
        ),
    ],
)
def test_a_text_saying_the_opposite_of_its_english_contradicts_it(russian, opposite):
    from pipeline.align.paragraphs import contradicts, differences

    english, foreign = _anchors_of([(_ENGLISH, "en"), (russian, "ru")])
    assert contradicts(foreign, english) is opposite
    if opposite:
        assert differences(foreign, english) == [
            "says the opposite: the English forbids in sentence 1, the translation allows",
            "says the opposite: the English allows in sentence 2, the translation forbids",
        ]


def test_clauses_said_the_other_way_round_in_order_contradict():
    """One sentence that forbids, then allows, beside one that allows, then forbids."""
    from pipeline.align.paragraphs import opposite

    english, foreign = _anchors_of(
        [
            ("A Hex cannot be dispelled, and it may target a unit in combat.", "en"),
            ("Проклятие можно рассеять, и оно не может выбрать целью отряд в бою.", "ru"),
        ]
    )
    assert opposite(foreign, english) == [
        "says the opposite: the English forbids, then allows in sentence 1,"
        " the translation allows, then forbids"
    ]


def test_a_look_alike_saying_the_opposite_stays_unlinked_however_alike():
    """Its words vouch for it as they would for a translation with a wrong number, but
    not for a text that turns the rule round: it stays unlinked and says why."""
    from pipeline.align.paragraphs import assign

    english, foreign = _anchors_of(
        [
            (_ENGLISH, "en"),
            (
                "Переправа через реку: отряд, переходивший реку вброд, может стрелять в этот"
                " ход игрока. Отряд на мосту стрелять не может.",
                "ru",
            ),
        ]
    )
    [decision] = assign([foreign], [english], {})
    assert decision.best is not None and decision.best.score >= 0.5  # a link on its score
    assert decision.status == "unlinked"
    assert decision.resembles is not None and decision.resembles.source == english.cluster
    assert decision.differs and all(d.startswith("says the opposite") for d in decision.differs)


def test_sentences_are_paired_by_where_they_stand_when_their_counts_differ():
    """A translation that joins two sentences in one is compared with the two; one that
    says the opposite in its last sentence is found there."""
    from pipeline.align.paragraphs import opposite

    english = (
        "Marching: a unit may march in the Movement Phase. It doubles its move."
        " A unit that marched cannot shoot in the same Player Turn."
    )
    joined, turned = (
        "Марш: в фазе движения отряд может маршировать, удваивая движение."
        f" Отряд, совершивший марш, в этот ход игрока {end}."
        for end in ("стрелять не может", "может стрелять как обычно")
    )
    english_a, joined_a, turned_a = _anchors_of([(english, "en"), (joined, "ru"), (turned, "ru")])
    assert len(english_a.sentences) == 3 and len(joined_a.sentences) == 2
    assert opposite(joined_a, english_a) == []
    assert opposite(turned_a, english_a) == [
        "says the opposite: the English forbids in sentence 3, the translation allows"
    ]


def test_two_texts_read_as_one_keep_what_each_sentence_allows_or_forbids():
    """A paragraph translating two English ones is compared with the two read as one:
    what each sentence says stays with its sentence."""
    from pipeline.align.anchors import modal
    from pipeline.align.paragraphs import _joined, opposite

    first, second, foreign = _anchors_of(
        [
            ("Marching: a unit doubles its move.", "en"),
            ("A unit that marched cannot shoot.", "en"),
            ("Марш: отряд удваивает движение. Отряд после марша может стрелять.", "ru"),
        ]
    )
    whole = _joined(first, second)
    assert modal(whole) == ("", "f") and len(whole.sentences) == 2
    assert opposite(foreign, whole) == [
        "says the opposite: the English forbids in sentence 2, the translation allows"
    ]


@pytest.mark.parametrize(
    ("russian", "opposite"),
    [
        # the translation forbids both, as its English does
        ("Стрелять и колдовать сбежавшему отряду нельзя, собираться он не может.", False),
        # a look-alike opens by allowing what the English forbids, then forbids the rest
        ("Сбежавший отряд может стрелять, но колдовать ему нельзя.", True),
    ],
)
def test_a_translation_opening_with_a_permission_its_english_does_not_give_contradicts(
    russian, opposite
):
    """An English sentence that only forbids, beside one that first allows: the
    translation adds a permission, and a translation adds nothing to its source."""
    from pipeline.align.paragraphs import opposite as opposed

    english, foreign = _anchors_of(
        [("A unit that fled cannot shoot or cast spells, and cannot rally.", "en"), (russian, "ru")]
    )
    assert bool(opposed(foreign, english)) is opposite
    # the other way round the English says more, and a translation may leave out
    assert opposed(english, foreign) == []


def test_a_translation_merging_a_prohibition_and_its_exception_in_one_sentence_agrees():
    """ "A cannot ... . If ..., A may ..." written as one sentence of bulleted clauses
    ("не может ...; если ...: может ...") says both: the English sentence it merges is in
    it, not a permission the translation adds."""
    from pipeline.align.paragraphs import opposite

    english, merged = _anchors_of(
        [
            (
                "A Wizard cannot cast. If its unit Rallies in the following Movement Phase,"
                " the Wizard may cast spells again in its next Magic Phase as normal.",
                "en",
            ),
            (
                "Маг в бегущем отряде:\n• не может колдовать;\n• если отряд собрался в"
                " следующей фазе движения, маг может снова колдовать в следующей фазе магии.",
                "ru",
            ),
        ]
    )
    assert len(english.sentences) == 2 and len(merged.sentences) == 1
    assert opposite(merged, english) == []
