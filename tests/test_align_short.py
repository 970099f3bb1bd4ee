"""Short forms a hand writes after a term's first use: initials it introduces in a
bracket and contractions cut by a hyphen, read as the words they stand for."""

from __future__ import annotations

from pipeline.align.anchors import anchors
from pipeline.align.short import read_short_forms
from pipeline.build import extract_all
from pipeline.ingest import make_segment
from pipeline.model import Block


def _read(texts: list[str]):
    segs = tuple(
        make_segment("d", "ru.txt", i, Block("paragraph", text, (i, i), lang_hint="ru"))
        for i, text in enumerate(texts, start=1)
    )
    facts = extract_all(segs, None)
    found = [anchors(s, s.id, facts[s.id]) for s in segs]
    return found, read_short_forms(found, facts)


def test_initials_stand_for_the_phrase_the_drop_introduces_them_with():
    """ "СО" after "сильный отряд (дальше просто СО)" carries the vocabulary word of
    "отряд" the phrase does; the bracket that introduces it says the phrase once."""
    before, after = _read(
        [
            "Кто сильнее, тот сильный отряд (дальше просто СО), а слабый ждёт.",
            "В конце боя СО бросает кубик, а если СО проиграл, он бежит.",
        ]
    )
    assert after[0].keys == before[0].keys  # the introduction: no second mention
    assert after[1].keys["w:unit"] == before[1].keys["w:unit"] + 2
    assert after[1].length > before[1].length  # read as written whole


def test_initials_no_bracket_introduces_are_left_as_they_are():
    """Any two words of a text have initials ("сильный отряд", "своим оружием"): with no
    introduction, "СО" stands for nothing."""
    before, after = _read(
        [
            "Сильный отряд бьёт своим оружием.",
            "В конце боя СО бросает кубик.",
        ]
    )
    assert after[1].keys == before[1].keys


def test_a_contraction_cut_by_a_hyphen_is_its_vocabulary_word():
    """ "хар-ка", "хар-ку": a wiki hand's contraction of "характеристика", in any case;
    "кто-то" and "из-за" contract no word of the vocabulary."""
    before, after = _read(["Удвоенная хар-ка округляется, а хар-ку кто-то делит из-за правила."])
    assert before[0].keys["w:characteristic"] == 0
    assert after[0].keys["w:characteristic"] == 2
    assert after[0].keys - before[0].keys == {"w:characteristic": 2}


def test_initials_of_a_vocabulary_phrase_need_no_introduction():
    """An army-list hand writes "ОЗ" for "очки здоровья" from the start: the initials of
    the one core-vocabulary phrase they abbreviate carry its word."""
    before, after = _read(["Модель с 3 ОЗ и больше теряет одно ОЗ в конце фазы."])
    assert before[0].keys["w:health-point"] == 0
    assert after[0].keys - before[0].keys == {"w:health-point": 2}


def test_the_drops_own_introduction_wins_over_the_vocabulary():
    """A drop that says what its "ОЗ" are ("особые заклинания") means those."""
    before, after = _read(
        [
            "Маг знает особые заклинания (дальше ОЗ), и не больше двух.",
            "Каждое ОЗ отряда стоит 10 очков.",
        ]
    )
    assert after[1].keys - before[1].keys == {"w:spell": 1}
