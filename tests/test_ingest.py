"""Ingest as a user checks it: the seeds split into the blocks a reader sees."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.ingest.text import read_text

from .conftest import SEED


def by_file(segments, prefix):
    return [s for s in segments if s.file.startswith(prefix)]


def test_russian_ricochet_is_one_russian_paragraph(seed_segments):
    segs = by_file(seed_segments, "000_")
    assert [(s.kind, s.lang) for s in segs] == [("paragraph", "ru")]
    assert segs[0].raw == (SEED / "000_745db052e7f633dc.txt").read_text("utf-8")


def test_tm_dump_gives_112_paragraphs_110_english_2_italian(seed_segments):
    segs = by_file(seed_segments, "002_")
    assert len(segs) == 112
    assert Counter(s.kind for s in segs) == {"paragraph": 112}
    assert Counter(s.lang for s in segs) == {"en": 110, "it": 2}
    italian = sorted(s.raw for s in segs if s.lang == "it")
    assert italian == ["armatura +1", "armatura +3"]
    short_english = {s.raw: s.lang for s in segs if s.raw in ("+3 Armor", "Armor +1")}
    assert short_english == {"+3 Armor": "en", "Armor +1": "en"}


def test_lotow_headings_paragraphs_and_tables(seed_segments):
    segs = by_file(seed_segments, "004_")
    kinds = Counter(s.kind for s in segs)
    assert kinds == {"paragraph": 29, "heading": 11, "table": 2}
    assert all(s.lang == "ru" for s in segs)
    headings = [s.raw for s in segs if s.kind == "heading"]
    assert "УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)" in headings
    assert "ПРЯМО В СЕДЛО (Saddle Up)!" in headings
    tables = [s for s in segs if s.kind == "table"]
    assert [t.lines for t in tables] == [(30, 32), (44, 47)]
    assert [len(t.rows) for t in tables] == [3, 4]
    assert [r[0] for r in tables[1].rows] == ["Бросок кубика", "1", "2-5", "6"]
    assert tables[0].rows[2][1].startswith("С легкостью перепрыгивает барьер")


def test_provenance_lines_and_hash_point_back_to_the_file(seed_segments):
    import hashlib

    from pipeline.ingest.spans import removed_spans
    from pipeline.normalise import normalise

    lines = (SEED / "004_8c6b2bd97740666a.txt").read_text("utf-8").split("\n")
    for s in by_file(seed_segments, "004_"):
        first, last = s.lines
        assert "\n".join(lines[first - 1 : last]) == s.raw
        asides = {(a.start, a.end) for a in s.asides}  # counted in the hash, not in text
        hashed = normalise(s.raw, [r for r in removed_spans(s) if r not in asides])
        assert s.sha256 == hashlib.sha256(hashed.encode()).hexdigest()
        assert s.id == f"seed/{s.file}#{s.block}"


def test_translator_aside_is_marked_kept_raw_and_left_out_of_text(seed_segments):
    [seg] = [s for s in seed_segments if "Oleon" in s.raw]
    [aside] = seg.asides
    assert seg.raw[aside.start : aside.end].strip() == "(тут, я чуть не упал под стол, - Oleon)"
    assert "Oleon" not in seg.text and "упал под стол" not in seg.text
    assert "лестницами. Кроме этого" in seg.text
    others = [s for s in seed_segments if s.asides and s is not seg]
    assert others == []


def test_bbcode_spans_found_and_tags_left_out_of_text(seed_segments):
    [seg] = {s.text: s for s in seed_segments if "Venomous Fangs" in s.raw}.values()
    [m] = seg.markup
    assert m.tag == "b"
    assert seg.raw[m.inner[0] : m.inner[1]] == "Multiple Wounds (D3+1)"
    assert "[b]" not in seg.text and "gains Multiple Wounds (D3+1)." in seg.text
    profile = next(s for s in seed_segments if s.raw.startswith("Artillery Weapon."))
    assert profile.markup == ()  # [6] and [Multiple Wounds (D3)] are text, not tags


def test_inch_glyphs_fold_to_one_form(seed_segments):
    profile = next(s for s in seed_segments if s.raw.startswith("Range 8″"))
    assert profile.text.startswith('Range 8", Shots 2')
    assert "″" in profile.raw


def test_soft_wrapped_lines_join_and_lists_split():
    text = (
        "First line of a paragraph that\ncontinues here.\nNext paragraph.\n\n"
        "- one\n- two\n| a | b |\n|---|---|\n| 1 | x |\n"
    )
    blocks = read_text(text, markdown=False)
    assert [(b.kind, b.lines) for b in blocks] == [
        ("paragraph", (1, 2)),
        ("paragraph", (3, 3)),
        ("list-item", (5, 5)),
        ("list-item", (6, 6)),
        ("table", (7, 9)),
    ]
    assert blocks[-1].rows == (("a", "b"), ("1", "x"))


def test_a_long_run_is_never_cut_inside_a_crlf(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.ingest import text as text_reader

    monkeypatch.setattr(text_reader, "MAX_BLOCK_CHARS", 25)
    text = "\r\n".join(["00", "0" * 20, "Models with Fear."])  # the 25th character is a \r
    blocks = read_text(text, markdown=False)
    assert [(b.raw, b.lines) for b in blocks] == [
        ("00\r\n" + "0" * 20, (1, 2)),
        ("Models with Fear.", (3, 3)),
    ]


def test_markdown_heading_marker_is_not_in_text():
    from pipeline.ingest import make_segment

    [block] = read_text("## Vanguard\n", markdown=True)
    seg = make_segment("d", "f.md", 1, block)
    assert (seg.kind, seg.raw, seg.text) == ("heading", "## Vanguard", "Vanguard")


def test_a_short_unsure_block_takes_its_files_main_language_by_its_words() -> None:
    """Words compare case-folded ("STRASSE" is the main text's "Straße"); a short block
    whose words are mostly not the main language's keeps its own."""
    from pipeline.ingest.langid import settle

    texts = [
        "The champion of the unit walks down the Straße to the river.",
        "Each champion may issue a challenge in the river phase.",
        "CHAMPION STRASSE.",
        "armatura forza +3",
        "Champion armatura forza",
    ]
    found = [("en", 0.99), ("en", 0.98), ("it", 0.3), ("it", 0.4), ("it", 0.5)]
    assert settle(texts, found) == [
        ("en", 0.99),
        ("en", 0.98),
        ("en", 0.0),
        ("it", 0.4),
        ("it", 0.5),
    ]


_NOISE_CHARS = "aбxXDdДдКк0123456789 []/|+-×\"″'().,:;!?_bиu=\n"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*_NOISE_CHARS, "[b]", "[/i]", "[url=x]", "2D6"])).map("".join))
def test_what_detection_leaves_out_is_the_tags_dice_and_numbers_pattern(text: str) -> None:
    """The noise pattern with its look-ahead finds what the plain alternation finds."""
    import re

    from pipeline.bbcode import TAG
    from pipeline.ingest.langid import _NOISE
    from pipeline.lang import notation

    plain = re.compile(
        rf"{TAG.pattern}|\b\d*[{notation().die_letters}]\d+\b|[\d|+\-×x\"″'()\[\].,:;!?]+"
    )
    assert _NOISE.sub(" ", text) == plain.sub(" ", text)
