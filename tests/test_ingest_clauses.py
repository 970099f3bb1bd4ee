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


def test_no_lead_in_no_clauses() -> None:
    no_colon = "The unit flees.\n- one;\n- two.\n"
    assert [k for k, _ in blocks(no_colon)] == ["paragraph", "list-item", "list-item"]
    dialogue = "He said.\n— Go now.\n"
    assert [k for k, _ in blocks(dialogue)] == ["paragraph", "paragraph"]
    assert texts(dialogue)[1] == "— Go now."


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
