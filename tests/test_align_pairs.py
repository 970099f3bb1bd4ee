"""The pairs a glossary-less bootstrap adds: names given in brackets."""

from __future__ import annotations

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
