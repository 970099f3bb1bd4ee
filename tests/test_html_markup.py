"""HTML copied out of a web page: its tags are markup, its character references characters."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipeline.bbcode import find_markup, mask_tags, strip_tags, tag_spans
from pipeline.export.inline import tokenize
from pipeline.extract.names import label_name
from pipeline.ingest import make_segment
from pipeline.ingest.spans import raw_spans
from pipeline.ingest.text import read_text
from pipeline.normalise import (
    decode_references,
    normalise,
    normalise_with_map,
    to_input_span,
)

PAGE = (
    "<p><b>Ужас &amp; трепет:</b> отряд в пределах 6&#8243; от модели с правилом "
    "&laquo;Ужас&raquo; получает&nbsp;-1 к Дисциплине<br>и не может &mdash; "
    '<span class="term">маршировать</span>.</p>'
)


def _read(raw: str) -> str:
    [block] = read_text(raw, markdown=False)
    return make_segment("d", "f.txt", 1, block).text


def test_tags_are_markup_and_references_are_their_characters():
    assert _read(PAGE) == (
        'Ужас & трепет: отряд в пределах 6" от модели с правилом "Ужас" получает -1 к'
        " Дисциплине и не может — маршировать."
    )


def test_strong_and_em_are_the_markup_of_b_and_i():
    tags = {
        (m.tag, m.attr)
        for m in find_markup('<strong>A</strong> <em>b</em> <span class="t">c</span>')
    }
    assert tags == {("b", None), ("i", None), ("span", 'class="t"')}
    # An HTML element closes with its own tag only.
    assert [m.tag for m in find_markup("<b>x[/b]")] == ["b", "/b"]
    assert all(m.inner is None for m in find_markup("<b>x[/b]"))


def test_a_tag_that_ends_a_line_keeps_words_apart_an_inline_one_does_not():
    assert _read("один<br>два<br/>три</p><p>четыре") == "один два три четыре"
    assert _read("Ска<i>ку</i>н") == "Скакун"
    assert strip_tags("a<br>b<b>c</b>") == "a bc"
    assert mask_tags("a<br>b") == "a    b"


def test_text_that_only_looks_like_markup_stays_text():
    for raw in (
        "if the roll is <3 & the unit is <Имя юнита>, roll <5",
        "AT&T and R&D &foo; &copy without its semicolon, &ampx;",
        "<unit> <b 1> < b> <bold>",
    ):
        assert find_markup(raw) == ()
        assert _read(raw) == " ".join(raw.split())


def test_references_numeric_hex_and_named():
    assert decode_references("6&#8243; 6&#x2033; &laquo;x&raquo; a&nbsp;b")[0] == (
        "6\u2033 6\u2033 \u00abx\u00bb a\u00a0b"
    )
    # Escaped markup is text: `&lt;b&gt;` reads as "<b>", not as a tag.
    assert _read("&lt;b&gt;Fear&lt;/b&gt;") == "<b>Fear</b>"
    # A reference outside Unicode reads as the replacement character, as `html` has it.
    assert decode_references("&#1114112;")[0] == "\ufffd"


def test_the_map_gives_a_decoded_character_its_reference():
    raw = "<p>6&#8243; &amp; x</p>"
    text, offsets = normalise_with_map(raw, tag_spans(find_markup(raw)))
    assert text == '6" & x'
    assert raw[offsets[1] :].startswith("&#8243;")
    assert raw[offsets[3] :].startswith("&amp;")
    assert raw[offsets[5]] == "x"
    seg = make_segment("d", "f.txt", 1, read_text(raw, markdown=False)[0])
    assert raw_spans(seg, [(0, 1), (5, 6)]) == [(3, 4), (18, 19)]
    # A span ending on a decoded character ends after its whole reference.
    assert raw[slice(*to_input_span(raw, offsets, 0, 2))] == "6&#8243;"
    assert raw[slice(*to_input_span(raw, offsets, 3, 4))] == "&amp;"
    assert to_input_span("AT&T", list(range(5)), 0, 3) == (0, 3)


def test_a_bold_html_label_names_its_rule_as_bbcode_does():
    raw = "<p><b>Fear &amp; Terror:</b> Enemy units must take a test.</p>"
    hit = label_name(raw, _read(raw), "en")
    assert hit is not None and (hit.name, hit.evidence) == ("Fear & Terror", "bold-label")
    raw = "<p><strong>Ужас</strong> Отряд получает -1 к Дисциплине.</p>"
    hit = label_name(raw, _read(raw), "ru")
    assert hit is not None and hit.name == "Ужас"
    # Bold further in is not a label.
    raw = "<p>Enemy units <b>Fear</b> the model.</p>"
    hit = label_name(raw, _read(raw), "en")
    assert hit is None or hit.evidence != "bold-label"


HTMLY = st.lists(
    st.sampled_from(
        [
            "<b>", "</b>", "<br>", "<br/>", "<p>", "</p>", "<i>", '<span class="t">', "</span>",
            "&amp;", "&#8243;", "&#x301;", "&nbsp;", "&laquo;", "&foo;", "&", "#", ";", "<",
            ">", "6", "a", "e\u0301", " ", "\n", '"', "[b]", "[/b]", "amp",
        ]
    ),
    max_size=25,
).map("".join)  # fmt: skip


@given(HTMLY, st.lists(st.tuples(st.integers(0, 120), st.integers(0, 120)), max_size=2))
def test_both_paths_agree_on_html(raw, extra):
    spans = tag_spans(find_markup(raw))
    spans += [(min(a, b, len(raw)), min(max(a, b), len(raw))) for a, b in extra]
    spans = [s for s in spans if s[0] < s[1]]
    text, offsets = normalise_with_map(raw, spans)
    assert normalise(raw, spans) == text
    assert len(offsets) == len(text) + 1
    assert offsets == sorted(offsets)


def test_html_tags_export_as_inline_codes_and_a_br_stands_alone():
    raw = "a<br>b <strong>c</strong>"
    tokens = tokenize(raw)
    codes = [(t.kind, t.tag, t.raw) for t in tokens if not isinstance(t, str)]
    assert codes == [("ph", "br", "<br>"), ("open", "b", "<strong>"), ("close", "b", "</strong>")]
    assert "".join(t if isinstance(t, str) else t.raw for t in tokens) == raw
