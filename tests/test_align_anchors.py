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


def test_footnotes_marked_by_a_bracket_or_a_star_or_on_lines_of_their_own_are_notes():
    """A translator's footnotes written after the text, each opening with the mark its
    reference carries in the text ("слово[1]", "2D6*", "Буря¹"), on lines of their own
    (the reader joins them with a space) or after a sentence's end: their words, numbers and
    sentences are no part of the rule, nor are the marks of the references."""
    plain, lines, star, stacked = _anchors(
        [
            ("Буря сносит отряд на 6″. Отряд бежит на 2D6 дюймов.", "ru"),
            (
                "Буря¹ сносит отряд на 6″[2]. Отряд бежит на 2D6[3] дюймов.\n"
                "¹ Буря — не шторм: так в английском.\n[2] См. правило бегства.\n[3] Там 2D6.",
                "ru",
            ),
            (
                "Буря сносит отряд на 6″. Отряд бежит на 2D6* дюймов. * В прошлой редакции"
                " было 8″.",
                "ru",
            ),
            ("Буря сносит отряд на 6″. Отряд бежит на 2D6 дюймов*.\n* Было 3D6.", "ru"),
        ]
    )
    for noted in (lines, star, stacked):
        assert noted.length == plain.length
        assert len(noted.sentences) == len(plain.sentences) == 2
        assert {k: n for k, n in noted.keys.items() if k.startswith("q:")} == {
            k: n for k, n in plain.keys.items() if k.startswith("q:")
        }


def test_a_mark_with_no_footnote_or_no_reference_is_rule_text():
    """No footnote where the text carries no matching mark attached to a word or number:
    a numbered list, a real citation "[1]" with no footnote after it, a "*" that
    multiplies."""
    listed, cited, cited_loose, times = _anchors(
        [
            ("Выберите одно: 1) бежать; 2) стоять. [1] Бежать на 2D6.", "ru"),
            ("Как сказано в книге[1], отряд бежит на 2D6 дюймов.", "ru"),
            ("Как сказано в [1], отряд бежит. [1] Отряд бежит на 2D6 дюймов.", "ru"),
            ("Урон равен 2*3. * Отряд бежит на 2D6 дюймов.", "ru"),
        ]
    )
    for a in (listed, cited, cited_loose, times):
        assert not a.notes
        assert a.keys["q:dice|2D6"] + a.keys["q:distance|2D6|inch"] == 1
