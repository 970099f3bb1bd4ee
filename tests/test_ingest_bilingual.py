"""A translator's bilingual working file reads as the translation it is: each Russian
sentence after the English sentence it renders (on the line before, or before " / ") is
one Russian block whose English sentences are asides of their own kind, never a text of
the translation or a source. A Russian paragraph that quotes English stays as it was.
Every text is written here, with our own words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.ingest import make_segment
from pipeline.ingest.bilingual import SOURCE_COPY, source_copies
from pipeline.ingest.spans import removed_spans
from pipeline.ingest.text import read_text
from pipeline.model import Block, Segment
from pipeline.normalise import normalise, normalise_with_map

EN1 = 'Scouting: a unit with Scouts may deploy up to 12" ahead of its own deployment zone.'
RU1 = 'Разведка: отряд с правилом «Разведчики» может развернуться на 12" впереди своей зоны.'
EN2 = "It cannot charge in the first turn."
RU2 = "В первый ход он не может нападать."

LINES = f"{EN1}\n{RU1}\n{EN2}\n{RU2}\n"
SLASHES = f"{EN1} / {RU1}\n{EN2} / {RU2}\n"
ONE_LINE = f"{EN1} / {RU1} {EN2} / {RU2}\n"
RUSSIAN = normalise(f"{RU1} {RU2}")
OTHER = "Привал: отряд, который не двигался в этот ход, восстанавливает 1 рану."


def segments(text: str, markdown: bool = False) -> list[Segment]:
    """The segments of a file's text, each checked: its raw text is a slice of the file and
    its normalised text maps back onto it."""
    out = []
    for i, block in enumerate(read_text(text, markdown), start=1):
        seg = make_segment("d", "ru.md" if markdown else "ru.txt", i, block)
        assert seg.raw in text
        assert normalise_with_map(seg.raw, removed_spans(seg))[0] == seg.text
        out.append(seg)
    return out


def test_lines_that_alternate_a_sentence_and_its_translation_are_one_russian_block():
    found = segments(f"{OTHER}\n\n{LINES}\n{OTHER}\n")
    assert [s.raw for s in found] == [OTHER, LINES.rstrip("\n"), OTHER]
    middle = found[1]
    assert (middle.kind, middle.lang, middle.lines) == ("paragraph", "ru", (3, 6))
    assert middle.text == RUSSIAN  # the English copy is not text of the translation
    assert [middle.raw[a.start : a.end].strip() for a in middle.asides] == [EN1, EN2]
    assert {a.reason for a in middle.asides} == {SOURCE_COPY}


def test_pairs_split_by_a_slash_on_each_line_or_on_one_line_read_the_same():
    for text in (SLASHES, ONE_LINE):
        found = segments(f"{text}\n{OTHER}\n")
        assert [s.raw for s in found] == [text.rstrip("\n"), OTHER]
        assert (found[0].lang, found[0].text) == ("ru", RUSSIAN)
        assert len(found[0].asides) == 2


def test_a_single_pair_and_markdown_read_the_same_way():
    pair = f"{EN1}\n{RU1}\n"
    for markdown in (False, True):
        found = segments(f"{pair}\n{OTHER}\n", markdown)
        assert [s.text for s in found] == [normalise(RU1), OTHER]


def test_a_docx_paragraph_with_a_line_break_is_read_by_the_same_rule():
    # a .docx paragraph is one block already: its copies are found in the block
    seg = make_segment("d", "ru.docx", 1, Block("paragraph", f"{EN1}\n{RU1}", (1, 1)))
    assert (seg.lang, seg.text) == ("ru", normalise(RU1))


def test_a_bilingual_block_keeps_its_copy_in_the_hash():
    bilingual = segments(f"{LINES}\n")[0]
    russian = segments(f"{RU1} {RU2}\n")[0]
    assert bilingual.text == russian.text
    assert bilingual.sha256 != russian.sha256  # not an exact copy: it differs in an aside


def test_without_blank_lines_every_line_stays_a_paragraph_of_its_own():
    # only blank lines say where a bilingual paragraph ends: here each line may be one
    found = segments(LINES)
    assert [s.raw for s in found] == [EN1, RU1, EN2, RU2]
    assert [s.lang for s in found] == ["en", "ru", "en", "ru"]


def test_in_a_working_file_a_russian_paragraph_keeps_its_sentences_on_lines_of_their_own():
    # the file's bilingual paragraph shows that its line breaks fall between sentences of
    # one paragraph: a translation whose source lines were taken out is one block too
    russian = f"{RU1}\n{RU2}"
    found = segments(f"{LINES}\n{russian}\n\n{OTHER}\n")
    assert [s.raw for s in found] == [LINES.rstrip("\n"), russian, OTHER]
    assert found[1].text == RUSSIAN
    # in a file with no bilingual paragraph, a line after a full stop ends a paragraph
    assert [s.raw for s in segments(f"{russian}\n\n{OTHER}\n")] == [RU1, RU2, OTHER]


def test_russian_that_quotes_english_is_not_a_bilingual_paragraph():
    quoted = [
        # English terms inside Russian sentences
        "Отряд с правилом Scouts может развернуться впереди. Он получает Vanguard.",
        # an English term on a line of its own, then the Russian paragraph
        f"Scouts.\n{RU1}",
        # the Russian first, then an English sentence it quotes
        f"{RU1}\n{EN1}",
        # an English sentence of its own whose numbers are not the Russian's
        f"Roll 3D6 and add 4.\n{RU1}",
        # source and translation that end no sentence: a glossary line
        "Scouts / Разведчики",
    ]
    for text in quoted:
        assert source_copies(text) == [], text
    lines = f"{RU1}\n{EN1}\n\n{OTHER}\n"
    assert [s.lang for s in segments(lines)] == ["ru", "en", "ru"]
    mixed = segments(f"{quoted[0]}\n")
    assert (mixed[0].lang, mixed[0].asides) == ("ru", ())


def test_pairs_must_alternate_to_the_end():
    # a third English sentence with no translation after it: the run is no bilingual block
    text = f"{EN1}\n{RU1}\n{EN2}\n\n{OTHER}\n"
    assert [s.raw for s in segments(text)] == [EN1, RU1, EN2, OTHER]


E2 = "Resting: a unit that did not move this turn recovers 1 lost Health Point."
E3 = "Ambush: a unit with Ambush enters the table on a roll of 4+ from any table edge."
R2 = "Отдых: отряд, который не двигался в этот ход, восстанавливает 1 потерянное очко здоровья."
# English of its own (the enemy's edge, not any edge): a copy of no English paragraph
LOOK_ALIKE = (
    "Ambush: a unit with Ambush enters the table on a roll of 4+ from the enemy's table edge.\n"
    "Засада: отряд с правилом «Засада» выходит на стол при броске 4+ с края стола противника."
)


def build_pair(tmp_path: Path, russian: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    from pipeline.build import build

    drop = tmp_path / "corpus" / "drops" / "book"
    drop.mkdir(parents=True)
    (drop / "en.txt").write_text(f"{EN1} {EN2}\n\n{E2}\n\n{E3}\n", "utf-8")
    (drop / "ru.txt").write_text("\n\n".join(russian) + "\n", "utf-8")
    build(tmp_path / "corpus", tmp_path / "out")
    lines = (tmp_path / "out" / "segments.jsonl").read_text("utf-8").splitlines()
    segs = [json.loads(x) for x in lines]
    first_words = {s["id"]: s["raw"].split(":")[0] for s in segs}
    alignments = json.loads((tmp_path / "out" / "alignments.json").read_text("utf-8"))
    langs = {s["id"]: s["lang"] for s in segs}
    return alignments, {**first_words, **{f"lang:{k}": v for k, v in langs.items()}}


def test_a_copy_of_an_english_paragraph_links_its_block_and_is_no_source(tmp_path: Path):
    pairs = f"{EN1}\n{RU1}\n{EN2}\n{RU2}"
    alignments, seen = build_pair(tmp_path, [pairs, R2, LOOK_ALIKE])
    ru = [k for k in seen if k.startswith("lang:book/ru.txt")]
    assert [seen[k] for k in ru] == ["ru", "ru", "ru"]  # no English text in the translation
    links = {seen[lk["target"]]: lk for lk in alignments["links"]}
    assert links["Scouting"]["status"] == "linked"
    assert seen[links["Scouting"]["source"]] == "Scouting"
    assert links["Scouting"]["evidence"]["adjacency"] > 0  # the copy says it, as a unit would
    assert seen[links["Отдых"]["source"]] == "Resting"
    # its copy is no English text of the corpus: what it translates is not here
    assert (links["Ambush"]["status"], links["Ambush"]["source"]) == ("unlinked", None)


def test_without_its_copy_the_look_alike_would_be_linked(tmp_path: Path):
    # the same Russian text alone: its words and numbers are those of the Ambush paragraph
    alignments, seen = build_pair(tmp_path, [R2, LOOK_ALIKE.split("\n")[1]])
    links = {seen[lk["target"]]: lk for lk in alignments["links"]}
    assert seen[links["Засада"]["source"]] == "Ambush"
