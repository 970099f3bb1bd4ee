"""English words written in Cyrillic letters ("армор" for Armour) read as the English word
they write: a coarse sound skeleton both spellings map into (`pipeline/lang/transcribed.py`);
alignment reads so the core vocabulary's words (`pipeline/align/sounds.py`)."""

from __future__ import annotations

import pytest

from pipeline.align.paragraphs import AnchorIndex, _shared_anchors, score
from pipeline.lang.transcribed import spelled_keys, written_keys
from tests.test_align import _anchors_of


def _match(written: str, english: str) -> bool:
    return bool(set(written_keys(written, "ru")) & set(spelled_keys(english, "ru")))


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("стедфаст", "Steadfast"),
        ("стедфаста", "steadfast"),  # an inflection a Russian text adds
        ("тандерстомпом", "Thunderstomp"),
        ("вард", "Ward"),  # a w before a vowel is "в"
        ("Релоад", "Reload"),
        ("оверкилл", "Overkill"),  # a leading vowel, doubled letters
        ("Виверны", "Wyvern"),
        ("чарджат", "charged"),  # stems on both sides
        ("чардж", "Charging"),  # the English stem
        ("скирмишеры", "Skirmishers"),
        ("регенер", "Regeneration"),  # four classes may begin a longer word
    ],
)
def test_an_english_word_written_in_cyrillic_answers_to_its_english(written, english):
    assert _match(written, english)


@pytest.mark.parametrize(
    ("written", "english"),
    [
        ("реген", "Regeneration"),  # three classes begin too many words to say which
        ("виверна", "Frenzied"),  # the same three classes, by chance
        ("картечница", "Cartridge"),  # the same first consonants, then others
        ("стедфаст", "Stand"),
        ("флай", "Fly"),  # two classes say too little
        ("флаем", "Flaming"),  # Fly inflected: its stem "фла" says too little, not "flm"
        ("стол", "stole"),  # a word the dictionary knows is a Russian word
        ("марш", "March"),
        ("БСБ", "Basebus"),  # initials, no vowel: no word written
        ("тандерстомп", "Thunder"),  # the English word must be the whole name
    ],
)
def test_near_misses_do_not_answer(written, english):
    assert not _match(written, english)


def test_keys_need_three_consonant_classes_and_are_read_from_the_stem():
    assert written_keys("флай", "ru") == ()
    assert written_keys("чарджат", "ru")[0] == written_keys("чардж", "ru")[0]
    assert written_keys("Charge", "ru") == ()  # Latin letters: a Latin word, read as such
    assert spelled_keys("fly", "ru") == ()


def test_a_vocabulary_word_written_by_sound_is_read_as_that_word():
    (ru,) = _anchors_of([("Пойзон вундит автоматом, а армор модели тут не помогает.", "ru")])
    assert ru.keys["w:poison"] == ru.keys["w:wound"] == ru.keys["w:armour"] == 1


def test_a_word_the_vocabulary_reads_already_is_not_read_twice():
    (ru,) = _anchors_of([("Отряд в террейне двигается медленно.", "ru")])
    assert ru.keys["w:terrain"] == 1  # a rendering of the vocabulary that also sounds so


def test_a_word_of_the_language_is_no_english_word():
    # "бросьте" sounds like pursue, "кости" like cast, "полк" like place: Russian words
    (ru,) = _anchors_of([("Бросьте кости за каждый полк.", "ru")])
    assert not {"w:pursue", "w:cast", "w:place"} & set(ru.keys)


def test_a_piece_of_a_word_broken_at_a_line_end_is_no_word():
    (ru,) = _anchors_of([("Армор- ика славится сидром, а армор носят рыцари.", "ru")])
    assert ru.keys["w:armour"] == 1  # "армор", not "Армор-" of "Армор- ика"


def test_jargon_written_by_sound_links_the_paragraph_that_says_those_words():
    en_poison, en_sword, ru = _anchors_of(
        [
            ("Venom: each hit of a natural 6 wounds at once; Armour is ignored.", "en"),
            ("Keen Blade: each hit of a natural 6 gains +1 Strength.", "en"),
            ("Веном: каждый хит на натуральной 6 сразу вундит, армор игнорится.", "ru"),
        ]
    )
    assert {"w:wound", "w:armour"} <= set(ru.keys)
    index = AnchorIndex([en_poison, en_sword])
    assert score(ru, en_poison, index)[0] > 2 * score(ru, en_sword, index)[0]


def test_a_quantity_whose_characteristic_is_unread_is_shared_with_the_named_one():
    en, other, ru = _anchors_of(
        [
            ("A Monster with 2 Health Points or fewer strikes with -2 Agility.", "en"),
            ("A Monster with 2 Health Points or fewer strikes with -3 Agility.", "en"),
            ("Монстр, у которого 2 хп или меньше, бьёт с -2 к ини.", "ru"),
        ]
    )
    assert sum((ru.keys & en.keys).values()) == 1  # the 2 only: "ини" names nothing read
    index = AnchorIndex([en, other])
    assert _shared_anchors(ru, en, index, 2) == 2
    assert _shared_anchors(ru, other, index, 2) == 1  # another value: nothing to stand for
