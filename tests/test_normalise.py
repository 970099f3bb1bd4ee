"""The normaliser: idempotent, faithful offsets, and the folds the design names."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipeline.ingest import make_segment
from pipeline.ingest.text import read_text
from pipeline.normalise import normalise, normalise_with_map, to_raw_span

GLYPHY = st.text(
    alphabet=st.sampled_from(list("ab Яд1 2\n\t\"″”'′“«»‘’\u00a0e\u0301.(")),
    max_size=60,
)


@given(st.one_of(st.text(max_size=80), GLYPHY))
def test_normalise_is_idempotent(raw):
    once = normalise(raw)
    assert normalise(once) == once


@given(st.one_of(st.text(max_size=80), GLYPHY))
def test_offsets_point_into_raw_in_order(raw):
    text, offsets = normalise_with_map(raw)
    assert len(offsets) == len(text) + 1
    assert offsets == sorted(offsets)
    assert all(0 <= o <= len(raw) for o in offsets)
    for i, ch in enumerate(text):
        if ch.isalnum():
            start, end = to_raw_span(offsets, i, i + 1)
            assert normalise(raw[start:end]) == ch or ch in normalise(raw[start : end + 2])


def test_inch_glyphs_and_quotes_fold():
    assert normalise("within 12″ and 1” and 6'' and 3′′") == 'within 12" and 1" and 6" and 3"'
    assert normalise("«Рикошет»  and “quoted” ‘x’") == '"Рикошет" and "quoted" \'x\''
    assert normalise("  a \u00a0\t b \n") == "a b"


def test_apostrophe_after_a_word_is_not_an_inch():
    assert normalise("the model's 6' tall") == "the model's 6' tall"


@given(
    st.lists(
        st.text(alphabet=st.sampled_from(list("abc XY.|-#1")), min_size=0, max_size=30), max_size=12
    )
)
def test_segmentation_loses_no_text(lines):
    text = "\n".join(lines)
    blocks = read_text(text, markdown=True)
    kept = "".join(b.raw for b in blocks)
    assert "".join(text.split()) == "".join(kept.split())
    for b in blocks:
        first, last = b.lines
        assert "\n".join(text.split("\n")[first - 1 : last]).rstrip("\r\n") == b.raw


def test_unbalanced_and_deep_bbcode_is_linear_and_kept():
    raw = "[b]" * 5000 + "x" + "[/i]" * 10
    [block] = read_text(raw, markdown=False)
    seg = make_segment("d", "f.txt", 1, block)
    assert seg.text == "x"
    assert len(seg.markup) == 5010
    assert all(m.inner is None for m in seg.markup)


@given(
    st.one_of(st.text(max_size=80), GLYPHY),
    st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), max_size=3),
)
def test_fast_normalise_equals_the_mapped_one(raw, spans):
    spans = [(min(a, b, len(raw)), min(max(a, b), len(raw))) for a, b in spans]
    spans = [s for s in spans if s[0] < s[1]]
    assert normalise(raw, spans) == normalise_with_map(raw, spans)[0]


def test_an_inch_mark_with_a_combining_mark_folds_alike_on_both_paths():
    for raw, want in (
        ("0″\u0300", '0"\u0300'),
        ("2′′\u0301", '2"\u0301'),
        ("6′\u0300′", "6′\u0300′"),
    ):
        assert normalise(raw) == normalise_with_map(raw)[0] == want
