"""Text pasted from a page layout reads as the paragraphs it was: page furniture left inside
a sentence, lines ending in a closing quote, wrapped lines, words hyphenated across lines,
soft hyphens and ligatures. Every text is written here, with our own words."""

from __future__ import annotations

from fpdf import FPDF

from pipeline.ingest import make_segment
from pipeline.ingest.pdf import read_pdf
from pipeline.ingest.spans import removed_spans
from pipeline.ingest.text import read_text
from pipeline.normalise import normalise, normalise_with_map


def blocks(text: str) -> list[tuple[str, str]]:
    return [(b.kind, b.raw) for b in read_text(text, markdown=False)]


def texts(text: str) -> list[str]:
    """The normalised text of each block, checked against the map that shows spans on raw."""
    out = []
    for i, block in enumerate(read_text(text, markdown=False)):
        seg = make_segment("d", "f.txt", i, block)
        assert text.count(seg.raw) >= 1  # the raw text is a slice of the file
        assert normalise_with_map(seg.raw, removed_spans(seg))[0] == seg.text
        out.append(seg.text)
    return out


HEADER_INSIDE = (
    "Вызов: в начале раунда боя активный игрок может бросить вызов\n"
    "12 ГЛАВА 3. ВЫЗОВЫ\n"
    "одним героем, стоящим в первой шеренге.\n"
    "\n"
    "Отказ: противник может отклонить вызов; тогда\n"
    "ВЫЗОВЫ 13\n"
    "один его герой остаётся в стороне до конца раунда.\n"
)


def test_a_running_header_inside_a_sentence_is_left_out_of_one_paragraph():
    found = blocks(HEADER_INSIDE)
    assert [k for k, _ in found] == ["paragraph", "paragraph"]
    assert "12 ГЛАВА 3. ВЫЗОВЫ" in found[0][1]  # the raw text loses nothing
    assert texts(HEADER_INSIDE) == [
        "Вызов: в начале раунда боя активный игрок может бросить вызов одним героем, стоящим в"
        " первой шеренге.",
        "Отказ: противник может отклонить вызов; тогда один его герой остаётся в стороне до"
        " конца раунда.",
    ]


def test_a_page_number_and_a_header_together_are_left_out():
    text = "Units that march may not\n27\nCHAPTER 4. MOVEMENT\nshoot in the same turn.\n"
    assert [k for k, _ in blocks(text)] == ["paragraph"]
    assert texts(text) == ["Units that march may not shoot in the same turn."]


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


def test_words_cut_by_the_layout_are_joined_and_words_with_a_hyphen_keep_it():
    text = (
        "Если участник поединка убивает со-\n"
        "перника, кто-\n"
        "то из-\n"
        "за него по-\n"
        "прежнему получает бонус.\n"
    )
    assert texts(text) == [
        "Если участник поединка убивает соперника, кто-то из-за него по-прежнему получает бонус."
    ]


def test_english_words_are_joined_by_the_word_list_and_compounds_keep_the_hyphen():
    text = "Models charg-\ning with a Stand-\nand-Shoot reaction get a to-\nhit penalty.\n"
    assert texts(text) == ["Models charging with a Stand-and-Shoot reaction get a to-hit penalty."]


def test_a_hyphen_cut_across_a_page_header_is_joined_too():
    text = "Поединок заканчивается, когда отряд пол-\nВЫЗОВЫ 45\nностью уничтожен.\n"
    assert texts(text) == ["Поединок заканчивается, когда отряд полностью уничтожен."]


def test_soft_hyphens_inside_words_vanish_but_not_where_they_stand_for_a_dash():
    text = (
        "Отряд автоматически прова\u00adливает про\u00ad\n"
        "верку; на 1\u00ad4 удар идёт в Пре\u00adСтража.\n"
    )
    assert texts(text) == [
        "Отряд автоматически проваливает проверку; на 1\u00ad4 удар идёт в Пре\u00adСтража."
    ]


def test_ligatures_read_as_their_letters_and_map_back_to_one_glyph():
    raw = "Непокорный (De\ufb01ant)"
    assert normalise(raw) == "Непокорный (Defiant)"
    text, offsets = normalise_with_map(raw)
    assert text == "Непокорный (Defiant)"
    assert offsets[text.index("fi")] == offsets[text.index("fi") + 1] == raw.index("\ufb01")


def test_a_pdf_text_box_reads_the_same_way():
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, "Models that are charg-\ning add the to-\nhit modifier of their\nunit.")
    found = read_pdf("book.pdf", bytes(pdf.output()))
    assert [b.kind for b in found] == ["paragraph"]
    seg = make_segment("d", "book.pdf", 0, found[0])
    assert seg.text == "Models that are charging add the to-hit modifier of their unit."
    assert seg.raw.count("\n") == 3  # the raw text keeps the lines


def test_a_semicolon_before_a_capital_and_a_number_after_a_full_stop_are_kept():
    text = "Первая строка кончается так;\nВторая строка.\nRoll a D6.\n6\nis read as a number.\n"
    assert [raw for _, raw in blocks(text)] == [
        "Первая строка кончается так;",
        "Вторая строка.",
        "Roll a D6.",
        "6\nis read as a number.",
    ]
    assert texts(text)[-1] == "6 is read as a number."  # no sentence goes on across it


def book(pages: list[list[list[str]]], header: str | None = "Chapter 4. Movement") -> bytes:
    """A PDF of pages of paragraphs (lists of lines), a running header at the top of each
    page (left on even pages, right on odd ones) and its number at the bottom."""
    pdf = FPDF()
    pdf.set_auto_page_break(False)
    for n, paragraphs in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 9)
        if header:
            pdf.set_xy(10, 10)
            pdf.cell(0, 5, header, align="R" if n % 2 else "L")
        pdf.set_xy(10, 282)
        pdf.cell(0, 5, str(40 + n), align="C")
        pdf.set_font("Helvetica", "", 11)
        y = 25
        for lines in paragraphs:
            for line in lines:
                pdf.set_xy(10, y)
                pdf.cell(0, 5, line)
                y += 5
            y += 8
    return bytes(pdf.output())


def pdf_blocks(data: bytes) -> list[tuple[int | None, tuple[int, int], str]]:
    return [(b.page, b.lines, b.raw) for b in read_pdf("book.pdf", data)]


def test_a_pdf_paragraph_goes_on_over_a_page_break_past_the_furniture():
    data = book(
        [
            [
                ["Units that march may not shoot", "in the same turn."],
                ["A unit that charges", "moves"],
            ],
            [["towards the enemy and fights in", "the first round."], ["Next paragraph."]],
        ]
    )
    assert pdf_blocks(data) == [
        (1, (2, 3), "Units that march may not shoot\nin the same turn."),
        (
            1,
            (4, 3),
            "A unit that charges\nmoves\ntowards the enemy and fights in\nthe first round.",
        ),
        (2, (4, 4), "Next paragraph."),
    ]  # no running header, no page number; the last line counted on the page it ends on
    cut = book(
        [[["Models that are charg-"]], [["ing add one; a"]], [["model in the unit does not."]]]
    )
    found = read_pdf("book.pdf", cut)
    assert len(found) == 1 and found[0].raw.count("\n") == 2
    seg = make_segment("d", "book.pdf", 0, found[0])
    assert seg.text == "Models that are charging add one; a model in the unit does not."


def test_a_paragraph_that_ends_its_sentence_ends_at_the_page_break():
    data = book([[["The unit flees."]], [["Then it rallies at the table edge."]]])
    assert [raw for *_, raw in pdf_blocks(data)] == [
        "The unit flees.",
        "Then it rallies at the table edge.",
    ]
    heading = FPDF()
    heading.set_auto_page_break(False)
    for size, text in ((11, "Models with this rule may"), (20, "Charges"), (11, "Roll 2D6.")):
        if size == 20 or text.startswith("Models"):
            heading.add_page()
        heading.set_font("Helvetica", "", size)
        heading.set_xy(10, 30 if size == 20 else 50)
        heading.cell(0, 8, text)
    found = read_pdf("book.pdf", bytes(heading.output()))
    assert [(b.kind, b.raw) for b in found] == [
        ("paragraph", "Models with this rule may"),
        ("heading", "# Charges"),
        ("paragraph", "Roll 2D6."),
    ]  # a heading that opens the next page is not where the sentence goes on


def test_furniture_is_told_by_its_place_not_its_words():
    # a line repeated at the same place but in the middle of its pages is text
    same = [
        [[first], ["Each roll of 1 is a wound."], [last]]
        for first, last in (("A.", "B."), ("C.", "D."))
    ]
    found = [raw for *_, raw in pdf_blocks(book(same, header=None))]
    assert found == [
        "A.",
        "Each roll of 1 is a wound.",
        "B.",
        "C.",
        "Each roll of 1 is a wound.",
        "D.",
    ]
    # a number alone in the middle of a page (a table's value) is kept
    middle = book([[["Strength of the attack:"], ["4"], ["Wounds on a 4+."]]], header=None)
    assert [raw for *_, raw in pdf_blocks(middle)] == [
        "Strength of the attack:",
        "4\nWounds on a 4+.",
    ]  # it goes on into the next box, as any line that ends no sentence
    # a header on one page only is a line of its own page, not furniture
    once = book([[["Some rules text."]]], header="CHAPTER 4")
    assert pdf_blocks(once)[0][2].startswith("CHAPTER 4\n")


def test_a_translators_footnotes_stay_with_the_paragraph_they_explain():
    text = (
        "Школы: каждое заклинание принадлежит Школе Магии¹. В школе 6 заклинаний[2].\n"
        "¹ В русском издании «Lore» передаётся как «школа».\n"
        "[2] Не считая Коронного Заклинания.\n"
        "\n"
        "Маг изучает 4 заклинания*.\n"
        "* В прошлой редакции было 3.\n"
        "\n"
        "Бросьте 2*3 кубика.\n"
        "* Это пункт списка, не сноска.\n"
        "[1] Ссылка без знака в тексте.\n"
    )
    raws = [b.raw for b in read_text(text, markdown=False)]
    assert raws[0].endswith("[2] Не считая Коронного Заклинания.") and len(raws[0].split("\n")) == 3
    assert raws[1] == "Маг изучает 4 заклинания*.\n* В прошлой редакции было 3."
    # a product is no footnote mark, and a marker the paragraph does not carry is no note
    assert raws[2:] == [
        "Бросьте 2*3 кубика.",
        "* Это пункт списка, не сноска.",
        "[1] Ссылка без знака в тексте.",
    ]
