"""Text pasted from a page layout reads as the paragraphs it was: page furniture left inside
a sentence, lines ending in a closing quote, wrapped lines, words hyphenated across lines,
soft hyphens and ligatures. Every text is written here, with our own words."""

from __future__ import annotations

from pipeline.ingest.text import read_text
from pipeline.normalise import normalise, normalise_with_map


def blocks(text: str) -> list[tuple[str, str]]:
    return [(b.kind, b.raw) for b in read_text(text, markdown=False)]


HEADER_INSIDE = (
    "Вызов: в начале раунда боя активный игрок может бросить вызов\n"
    "12 ГЛАВА 3. ВЫЗОВЫ\n"
    "одним героем, стоящим в первой шеренге.\n"
    "\n"
    "Отказ: противник может отклонить вызов; тогда\n"
    "ВЫЗОВЫ 13\n"
    "один его герой остаётся в стороне до конца раунда.\n"
)


def test_a_running_header_inside_a_sentence_does_not_cut_the_paragraph():
    found = blocks(HEADER_INSIDE)
    assert [k for k, _ in found] == ["paragraph", "paragraph"]
    assert "12 ГЛАВА 3. ВЫЗОВЫ" in found[0][1] and "ВЫЗОВЫ 13" in found[1][1]


def test_a_heading_after_a_paragraph_without_a_full_stop_stays_a_heading():
    text = (
        "Модели с правилом «Страх»\n"
        "УЖАС\n"
        "Модель с правилом «Ужас» вызывает страх.\n"
        "Units with Fear\n"
        "TERROR\n"
        "A unit with Terror causes Fear.\n"
    )
    assert [k for k, _ in blocks(text)] == [
        "paragraph", "heading", "paragraph", "paragraph", "heading", "paragraph",
    ]  # fmt: skip


def test_a_capitals_line_between_blank_lines_is_a_heading_even_before_lower_case():
    text = "the list goes on without a stop\n\nTERROR\n\nthen lower case text.\n"
    assert [k for k, _ in blocks(text)] == ["paragraph", "heading", "paragraph"]


def test_a_closing_quote_that_closes_no_sentence_does_not_end_the_paragraph():
    text = (
        "Зачинщики: модель с правилом «Бешенство»\n"
        "обязана бросить вызов, если может.\n"
        "\n"
        "Непокорный: герой с правилом «Непокорный»\n"
        "(Defiant) обязан принять вызов.\n"
    )
    assert [k for k, _ in blocks(text)] == ["paragraph", "paragraph"]


def test_a_closing_quote_after_a_full_stop_or_before_a_capital_ends_the_paragraph():
    text = (
        'He shouted "Charge."\n'
        "the unit moves.\n"
        "Модель с правилом «Страх»\n"
        "Модель с правилом «Ужас» вызывает страх.\n"
    )
    assert [raw for _, raw in blocks(text)] == [
        'He shouted "Charge."',
        "the unit moves.",
        "Модель с правилом «Страх»",
        "Модель с правилом «Ужас» вызывает страх.",
    ]


def test_one_paragraph_per_line_is_still_cut_at_each_line():
    text = (
        "Первый абзац кончается точкой.\n"
        "Второй тоже; он длиннее.\n"
        "Третий абзац переносится на\n"
        "следующую строку.\n"
        "Четвёртый.\n"
    )
    assert [raw for _, raw in blocks(text)] == [
        "Первый абзац кончается точкой.",
        "Второй тоже; он длиннее.",
        "Третий абзац переносится на\nследующую строку.",
        "Четвёртый.",
    ]


def test_wrapped_lines_between_blank_lines_are_one_paragraph_across_full_stops():
    text = (
        "Опозоренный: такая модель не атакует в этом\n"
        "раунде боя, а её отряд теряет свою Дисциплину.\n"
        "Если в отряде нет ни одного героя, отказ\n"
        "обходится без последствий.\n"
        "\n"
        "Убит до удара: участник, чей соперник уже\n"
        "удалён, не атакует в этом раунде;\n"
        "его атаки пропадают.\n"
    )
    assert [k for k, _ in blocks(text)] == ["paragraph", "paragraph"]


def test_ligatures_read_as_their_letters_and_map_back_to_one_glyph():
    raw = "Непокорный (De\ufb01ant)"
    assert normalise(raw) == "Непокорный (Defiant)"
    text, offsets = normalise_with_map(raw)
    assert text == "Непокорный (Defiant)"
    assert offsets[text.index("fi")] == offsets[text.index("fi") + 1] == raw.index("\ufb01")
