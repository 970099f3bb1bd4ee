"""Rule names, ids, headings and keywords, on phrases taken from the seed texts."""

from __future__ import annotations

from pathlib import Path

from pipeline.extract.keywords import find_keywords
from pipeline.extract.names import find_name, heading_name, rule_id, table_references
from pipeline.glossary import load_glossary
from pipeline.lang import tokenize

GLOSSARY = load_glossary(Path(__file__).resolve().parent.parent / "corpus" / "glossary.yaml")


def test_rule_ids_are_stable_slugs():
    assert rule_id("Impact Hits") == "impact-hits"
    assert rule_id("Убежавшие лошади", "Loose Mounts") == "loose-mounts"
    assert rule_id("Падение с лошади") == "padenie-s-loshadi"
    assert rule_id("Running Amok!!") == "running-amok"


def test_heading_with_english_name():
    assert heading_name("УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)", "ru") == (
        "Убежавшие лошади",
        "Loose Mounts",
    )
    assert heading_name("ПРЯМО В СЕДЛО (Saddle Up)!", "ru") == ("Прямо в седло", "Saddle Up")
    assert heading_name("ДЕРЖАТЬ ЛОШАДЬ", "ru") == ("Держать лошадь", None)


def test_russian_name_cues():
    text = (
        "Если отряд переместился в контакт с моделью, имеющей правило Рикошет, "
        "он получает Х+D6 попаданий."
    )
    hit = find_name(tokenize(text, "ru"), "ru", GLOSSARY)
    assert hit is not None and (hit.name, hit.evidence) == ("Рикошет", "with-pattern")
    assert text[slice(*hit.span)] == "Рикошет"
    assert (
        find_name(tokenize("Перемещение происходит по правилу Случайного движения.", "ru"), "ru")
        is None
    )


def test_plural_is_the_known_name():
    hit = find_name(tokenize("Characters can never join units with War Machines.", "en"), "en")
    assert hit is not None and hit.name == "War Machine"


def test_russian_keywords_on_lemmas():
    doc = tokenize("как если бы они были Открытым ландшафтом, у края игрового стола", "ru")
    assert find_keywords(doc, "ru", GLOSSARY) == ("board-edge", "open-terrain")
    assert find_keywords(doc, "ru", None) == ()


def test_table_reference_in_the_nominative():
    [(name, en, span)] = table_references("смотрите таблицу Падения с Лошади (Trown Riders).", "ru")
    assert (name, en) == ("Падение с лошади", "Trown Riders")
    assert span == (17, 33)
