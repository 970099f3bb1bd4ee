"""A plain-text paragraph written as a lead-in and its clauses as bullets is one block;
lists stay lists. Every text is written here, with our own words."""

from __future__ import annotations

from pipeline.ingest.text import read_text
from tests.test_ingest_layout import texts


def blocks(text: str, markdown: bool = False) -> list[tuple[str, str]]:
    return [(b.kind, b.raw) for b in read_text(text, markdown=markdown)]


LEAD = (
    "Сбор знамени:\n- бросается в начале хода;\n- это бросок 2D6;\n- если он удался:\n"
    "  • знамя поднято;\n  • отряд стоит.\n"
)


def test_a_lead_in_and_its_clauses_are_one_paragraph() -> None:
    assert blocks(LEAD) == [("paragraph", LEAD.rstrip("\n"))]
    assert texts(LEAD) == [
        "Сбор знамени: бросается в начале хода; это бросок 2D6; если он удался:"
        " знамя поднято; отряд стоит."
    ]


def test_dashes_and_a_clause_going_on_in_lower_case() -> None:
    text = (
        'Край поля. Если отряд:\n— стоит в 1" от края\n— и проходит бросок,\nто:\n'
        "— он разворачивается.\n\nNext paragraph.\n"
    )
    assert [k for k, _ in blocks(text)] == ["paragraph", "paragraph"]
    assert texts(text)[0] == (
        'Край поля. Если отряд: стоит в 1" от края и проходит бросок, то: он разворачивается.'
    )


def test_lists_stay_lists() -> None:
    after_blank = "Roll a die:\n\n- one;\n- two.\n"
    assert [k for k, _ in blocks(after_blank)] == ["paragraph", "list-item", "list-item"]
    sentences = "Roll a die:\n- The unit flees.\n- The unit stands.\n"
    assert [k for k, _ in blocks(sentences)] == ["paragraph", "list-item", "list-item"]
    numbered = "Roll a die:\n1) the unit flees;\n2) the unit stands.\n"
    assert [k for k, _ in blocks(numbered)] == ["paragraph", "list-item", "list-item"]
    results = "Roll a die:\n1–2: the unit flees.\n3–6: the unit stands.\n"
    assert [k for k, _ in blocks(results)] == ["paragraph"] * 3
    md = "Roll a die:\n- one;\n- two.\n"
    assert [k for k, _ in blocks(md, markdown=True)] == ["paragraph", "list-item", "list-item"]


def test_a_sentence_introduces_clauses_that_read_as_clauses() -> None:
    text = "Отступивший отряд делает следующее.\n- теряет строй;\n- бросает знамя.\n"
    assert blocks(text) == [("paragraph", text.rstrip("\n"))]
    assert texts(text) == ["Отступивший отряд делает следующее. теряет строй; бросает знамя."]
    english = "The unit flees.\n- one;\n- two.\n"
    assert [k for k, _ in blocks(english)] == ["paragraph"]
    nested = "Отряд делает следующее.\n- теряет строй;\n  - и знамя;\n- бежит.\nПосле он стоит.\n"
    assert blocks(nested) == [("paragraph", nested.rstrip("\n"))]
    assert texts(nested) == [
        "Отряд делает следующее. теряет строй; и знамя; бежит. После он стоит."
    ]


def test_after_a_sentence_a_list_stays_a_list() -> None:
    capitals = "The unit flees.\n- One;\n- two.\n"
    assert [k for k, _ in blocks(capitals)] == ["paragraph", "list-item", "list-item"]
    nested = "Отряд делает следующее.\n- теряет строй;\n  - И знамя;\n- бежит.\n"
    assert [k for k, _ in blocks(nested)] == ["paragraph"] + ["list-item"] * 3
    no_clause_ends = "Units affected.\n- infantry\n- cavalry\n"
    assert [k for k, _ in blocks(no_clause_ends)] == ["paragraph", "list-item", "list-item"]
    no_last_stop = "Units affected.\n- infantry;\n- cavalry\n"
    assert [k for k, _ in blocks(no_last_stop)] == ["paragraph", "list-item", "list-item"]
    sentences = "The unit flees.\n- it turns;\n- it runs.\n- It stops.\n"
    assert [k for k, _ in blocks(sentences)] == ["paragraph"] + ["list-item"] * 3
    dialogue = "He said.\n— Go now.\n"
    assert [k for k, _ in blocks(dialogue)] == ["paragraph", "paragraph"]
    assert texts(dialogue)[1] == "— Go now."
    ellipsis = "And so...\n- one;\n- two.\n"
    assert [k for k, _ in blocks(ellipsis)] == ["paragraph", "list-item", "list-item"]


TAIL = (
    "Отряд в бегстве не может:\n- стрелять;\n- колдовать.\nКроме того, к нему никто не\n"
    "присоединяется.\n"
)


def test_a_sentence_after_the_last_clause_closes_the_paragraph() -> None:
    assert blocks(TAIL) == [("paragraph", TAIL.rstrip("\n"))]
    assert texts(TAIL) == [
        "Отряд в бегстве не может: стрелять; колдовать. Кроме того, к нему никто не присоединяется."
    ]
    text = "Intro.\n\nRule:\n- first;\n- second.\nAfter it.\n\nNext paragraph.\n"
    assert [r for _, r in blocks(text)] == [
        "Intro.",
        "Rule:\n- first;\n- second.\nAfter it.",
        "Next paragraph.",
    ]


def test_what_follows_the_clauses_without_a_blank_line_may_be_its_own() -> None:
    one_per_line = "First paragraph.\nRule:\n- first;\n- second.\nNext paragraph.\n"
    assert [r for _, r in blocks(one_per_line)][-1] == "Next paragraph."
    long_run = "Rule:\n- first;\n- second.\nA.\nB.\nC.\nD.\n"
    assert [r for _, r in blocks(long_run)][:2] == ["Rule:\n- first;\n- second.", "A."]
    no_stop = "Gains either:\n• one rule\n• another rule\nIt is lost when it flees.\n"
    assert [r for _, r in blocks(no_stop)][-1] == "It is lost when it flees."
    assert texts(no_stop)[0] == "Gains either: one rule another rule"
    results = "Roll:\n- one die;\n- two dice.\n1–2: flees.\n3–6: stands.\n"
    assert [k for k, _ in blocks(results)] == ["paragraph"] * 3
    heading = "Rule:\n- first;\n- second.\nNEXT RULE\n"
    assert [k for k, _ in blocks(heading)] == ["paragraph", "heading"]
    table = "Rule:\n- first;\n- second.\n| a | b |\n"
    assert [k for k, _ in blocks(table)] == ["paragraph", "table"]
    items = "Roll a die:\n- The unit flees.\n- The unit stands.\nThen it turns.\n"
    assert [k for k, _ in blocks(items)] == ["paragraph", "list-item", "list-item", "paragraph"]
    md = "Rule:\n- first;\n- second.\nAfter it.\n"
    assert [k for k, _ in blocks(md, markdown=True)][-1] == "paragraph"
    assert len(blocks(md, markdown=True)) == 4


def test_the_clauses_end_at_a_blank_line_a_heading_or_a_line_in_capitals() -> None:
    text = "Rule:\n- first clause\n- second clause\nNEXT RULE\n- other\n"
    got = blocks(text)
    assert got[0] == ("paragraph", "Rule:\n- first clause\n- second clause")
    assert got[1] == ("heading", "NEXT RULE")
    assert blocks("Rule:\n- first;\n\n- second.\n")[0] == ("paragraph", "Rule:\n- first;")
    assert [k for k, _ in blocks("Rule:\n- ALL CAPS\n- two.\n")] == [
        "paragraph",
        "heading",
        "paragraph",
    ]


def test_a_dash_inside_a_clause_is_a_word_of_it() -> None:
    text = "Move:\n- 2D6 - the roll;\n- - a clause that opens with a dash.\n"
    assert texts(text) == ["Move: 2D6 - the roll; - a clause that opens with a dash."]
