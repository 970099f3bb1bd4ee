"""The pairs a glossary-less bootstrap adds: bracketed names and co-occurring words."""

from __future__ import annotations

from pipeline.align.cooccur import word_pairs
from pipeline.align.named import bracketed_names
from pipeline.glossary import Glossary
from pipeline.ingest import make_segment
from pipeline.model import Block


def _seg(lang: str, i: int, text: str):
    return make_segment("d", f"{lang}.txt", i, Block("paragraph", text, (i, i), lang_hint=lang))


def test_a_name_in_brackets_is_read_from_any_text_the_english_uses():
    english = [_seg("en", 1, "Vanguard: models with Vanguard may move before the game.")]
    foreign = [
        _seg("ru", 1, "Отряд может совершить ход Авангарда (Vanguard) перед игрой."),
        _seg("ru", 2, "Правило Засада (Ambush) здесь не действует."),  # English lacks it
    ]
    found = bracketed_names(foreign, english, Glossary("g", "", ("en", "ru"), ()))
    assert [(t.renderings["en"], t.renderings["ru"]) for t in found.terms] == [
        (("Vanguard",), ("Авангарда",))
    ]


def test_words_that_occur_together_in_the_sure_links_pair_and_others_do_not():
    texts = [
        ("A hill blocks the view of the river.", "Холм закрывает вид на реку."),
        ("Models on a hill see over the wall.", "Модели на холме видят поверх стены."),
        ("The river halves the pace near the wall.", "Река вдвое снижает темп у стены."),
        ("A forest is soft.", "Лес мягкий."),
    ]
    by_id = {}
    sure = []
    for i, (en, ru) in enumerate(texts, start=1):
        e, r = _seg("en", i, en), _seg("ru", i, ru)
        by_id[e.id], by_id[r.id] = e, r
        sure.append((e.id, r.id))
    pairs = dict(word_pairs(sure, by_id, "ru", {"en": frozenset({"model"})}))
    assert pairs["hill"] == "холм"
    assert pairs["river"] == "река"
    assert pairs["wall"] == "стена"
    assert "forest" not in pairs  # one link only: no evidence
