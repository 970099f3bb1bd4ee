"""What alignment compares when a drop's words are not the vocabulary's: quantities whose
characteristic the reader could not name, and the drop's own rendering of a vocabulary
word learnt in a first round."""

from __future__ import annotations

from pipeline.align.bootstrap import with_vocabulary
from pipeline.align.paragraphs import AnchorIndex, score
from pipeline.extract.keywords import keyword_spans
from pipeline.glossary import Glossary, Term
from pipeline.lang import tokenize
from tests.test_align import _anchors_of as _anchors


def test_a_modifier_whose_characteristic_is_not_read_still_counts_for_its_number():
    spear, other, russian = _anchors(
        [
            (
                "Spear: attacks gain +1 Armour Penetration, or +2 Armour Penetration against"
                " a charging unit.",
                "en",
            ),
            ("Flail: attacks never gain a bonus against a unit.", "en"),
            (
                "Копьё: атаки получают +1 к пробиванию брони, а против атакующего отряда +2 к"
                " пробиванию брони.",
                "ru",
            ),
        ]
    )
    # the Russian reader does not know "пробивание брони": its modifiers name nothing
    assert {"q:modifier|1|", "q:modifier|2|"} <= set(russian.keys)
    index = AnchorIndex([spear, other])
    right, wrong = score(russian, spear, index)[0], score(russian, other, index)[0]
    assert right > 2 * wrong


def test_a_vocabulary_word_the_drop_renders_its_own_way_is_read_as_that_word():
    induced = Glossary(
        "induced",
        "",
        ("en", "ru"),
        (
            Term(
                "armour-penetration",
                {"en": ("Armour Penetration",), "ru": ("пробивание брони",)},
                {},
            ),
            Term("spear", {"en": ("Spear",), "ru": ("копьё",)}, {}),
        ),
    )
    words = with_vocabulary(induced)
    text = "Атаки копьём получают +1 к пробиванию брони."
    found = keyword_spans(tokenize(text, "ru"), "ru", words)
    assert "armour-penetration" in found.ids  # the vocabulary's word, not a term beside it
    assert "spear" not in found.ids  # a term the vocabulary does not have stays a term
    english = keyword_spans(tokenize("Spears gain +1 Armour Penetration.", "en"), "en", words)
    assert list(english.ids).count("armour-penetration") == 1


def test_a_vocabulary_word_is_found_in_forms_its_first_reading_mistakes():
    (russian,) = _anchors([("Цель бросает за каждую рану, сравнивая с бронёй и брони.", "ru")])
    # "брони" reads first as "бронь" (a reservation); "ран" as "ран": both are the words
    assert russian.keys["w:armour"] == 2
    (plural,) = _anchors([("Отряд без ран не теряет брони в лесах и у леса.", "ru")])
    assert plural.keys["w:health-point"] == 1 and plural.keys["w:forest"] == 2
