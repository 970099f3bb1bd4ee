"""Text pasted from a page layout reads as the paragraphs it was: page furniture left inside
a sentence, lines ending in a closing quote, wrapped lines, words hyphenated across lines,
soft hyphens and ligatures. Every text is written here, with our own words."""

from __future__ import annotations

from pipeline.normalise import normalise, normalise_with_map


def test_ligatures_read_as_their_letters_and_map_back_to_one_glyph():
    raw = "Непокорный (De\ufb01ant)"
    assert normalise(raw) == "Непокорный (Defiant)"
    text, offsets = normalise_with_map(raw)
    assert text == "Непокорный (Defiant)"
    assert offsets[text.index("fi")] == offsets[text.index("fi") + 1] == raw.index("\ufb01")
