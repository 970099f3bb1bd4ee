"""The language service: data with English fallback, one tag rule, folds read from data,
engines loaded only when asked for; and the one slug and BBCode grammar every stage uses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline import lang
from pipeline.bbcode import find_markup, mask_tags, strip_tags
from pipeline.check.data import lang_checks
from pipeline.dedup import shape
from pipeline.interpret.dice import parse
from pipeline.interpret.rules import parse_ref
from pipeline.lang.identify import neutral
from pipeline.quantities import find_quantities
from pipeline.slug import slugify

ROOT = Path(__file__).resolve().parent.parent


def test_a_language_without_a_file_borrows_englishs() -> None:
    assert not lang.has_data("de", "names")
    assert lang.data("de", "names") == lang.data("en", "names")
    assert lang.data("ru", "names") != lang.data("en", "names")


def test_data_of_one_language_only_is_not_borrowed() -> None:
    assert lang.data("de", "checks", fallback=False) == {}
    assert lang_checks("de").house_spellings == {}
    assert lang_checks("en").house_spellings.get("armor") == "armour"


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("ru", "ru"),
        ("ru-RU", "ru"),
        ("EN_gb", "en"),
        (" it ", "it"),
        (None, "und"),
        ("", "und"),
        ("*all*", "und"),
        ("../en", "und"),
    ],
)
def test_language_tags_reduce_to_one_code(given: str | None, code: str) -> None:
    assert lang.tag(given) == code


def test_regional_tags_find_their_language_data() -> None:
    assert lang.data("ru-RU", "names") == lang.data("ru", "names")
    assert lang_checks("en-GB") == lang_checks("en")


def test_a_tag_cannot_reach_outside_the_data_folder() -> None:
    assert lang.data("../../pipeline", "names") == lang.data("en", "names")


def test_letter_folds_come_from_the_data_file() -> None:
    letters = yaml.safe_load((lang.LANG_DIR / "folds.yaml").read_text("utf-8"))["letters"]
    for letter, plain in letters.items():
        assert lang.fold(f"x{letter}x") == f"x{plain}x"
    assert lang.fold("Ёлка, ёж") == "Елка, еж"


def test_lemmas_are_folded_and_any_form_gives_the_dictionary_form() -> None:
    assert lang.lemma("Открытым", "ru") == "открытый"
    assert lang.lemma("ёлки", "ru") == "елка"
    assert lang.lemma("Hits", "en") == "hit"
    assert lang.lemmas("ёлки", "ru")[0] == "елка"


def test_a_letter_without_a_unicode_name_is_its_own_lemma() -> None:
    # pymorphy3 looks up each letter's Unicode name, and U+17000 (a letter) has none here
    assert lang.lemmas("ab\U00017000", "ru") == ("ab\U00017000",)
    assert lang.lemma("Ж\U00017000", "ru") == "ж\U00017000"


def test_every_die_letter_of_the_data_reads_as_a_die_in_every_stage() -> None:
    letters = lang.notation().die_letters
    assert {"D", "Д", "К"} <= set(letters)
    for letter in letters:
        (q,) = find_quantities(f"Roll 2{letter}6 now", "ru")
        assert (q.type, q.expr) == ("dice", "2D6")
        assert parse(f"2{letter}6") == parse("2D6")
        assert "2d6" in shape(f"roll 2{letter}6", "ru").tokens


def test_every_homoglyph_of_x_is_read_as_x_and_reported() -> None:
    homoglyphs = lang.notation().looks_like("X")
    assert "Х" in homoglyphs  # Cyrillic Ha
    for letter in (c for c in homoglyphs if c.isupper()):
        (q,) = find_quantities(f"Roll {letter}+D6 hits", "ru")
        assert q.expr == "X+D6"
        assert f"homoglyph:{letter}" in q.notes
    for letter in homoglyphs:
        assert parse(f"{letter}+D6", {"X": 2}) == parse("2+D6")


def _run(code: str) -> str:
    """What a new Python process running `code` prints."""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_importing_the_stages_loads_no_language_engine() -> None:
    code = (
        "import sys, pipeline.lang, pipeline.ingest, pipeline.dedup, pipeline.slug, "
        "pipeline.extract.facts, pipeline.check, pipeline.interpret.dice, pipeline.diff.compare\n"
        "from pipeline.commands import parser\n"
        "parser()\n"
        "print(sorted(m for m in ('spacy', 'pymorphy3', 'lingua') if m in sys.modules))"
    )
    assert _run(code) == "[]"


def test_spacy_loads_without_its_command_line_and_can_still_import_it() -> None:
    out = _run(
        "import sys\nfrom pipeline.lang import tokenize\n"
        "print([t.lemma_ for t in tokenize('Units Charge.', 'en')])\n"
        "print(sorted(m for m in ('spacy.cli', 'typer', 'weasel') if m in sys.modules))\n"
        "import spacy.cli\nprint(callable(spacy.cli.setup_cli))"
    )
    assert out.splitlines() == ["['unit', 'charge', '.']", "[]", "True"]


def test_spacy_that_needs_its_command_line_is_imported_whole() -> None:
    # a stand-in that lacks what spaCy imports from it: the import fails, then is done whole
    out = _run(
        "import sys, types\nfrom pipeline.lang import words\n"
        "class Bare(types.ModuleType):\n"
        "    def __setattr__(self, name, value):\n"
        "        if name != 'info':\n            super().__setattr__(name, value)\n"
        "words.ModuleType = Bare\n"
        "print([t.text for t in words.tokenize('Units Charge.', 'en')])\n"
        "print('spacy.cli' in sys.modules, callable(sys.modules['spacy'].info))"
    )
    assert out.splitlines() == ["['Units', 'Charge', '.']", "True True"]


def test_engines_are_loaded_once() -> None:
    assert lang.nlp("ru") is lang.nlp("ru")
    assert lang.morph() is lang.morph()
    assert lang.detector() is lang.detector()


def test_one_slug_for_build_ids_and_references() -> None:
    assert slugify("Падение с лошади") == "padenie-s-loshadi"
    assert parse_ref("Падение с лошади (D3)").id == "padenie-s-loshadi"
    assert parse_ref("Impact Hits (D3)").id == "impact-hits"


def test_bbcode_grammar_knows_its_tags_and_leaves_brackets_as_text() -> None:
    text = "[b]Str 3 [6][/b], [Armour] and [color=dark red]x[/color]"
    masked = mask_tags(text)
    assert len(masked) == len(text)
    assert masked.split() == ["Str", "3", "[6]", ",", "[Armour]", "and", "x"]
    assert strip_tags(text) == "Str 3 [6], [Armour] and x"
    assert [m.tag for m in find_markup(text)] == ["b", "color"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 3), st.integers(0, 11), st.integers(1, 4)).map(
            lambda m: (m[0], m[1], min(12, m[1] + m[2]))
        ),
        max_size=12,
    )
)
def test_longest_keeps_what_spacys_filter_spans_keeps(matches: list[tuple[int, int, int]]) -> None:
    """Overlapping glossary matches settle as spaCy settles spans: the longest, then the
    first, whichever key came first among equals, in text order."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    doc = lang.tokenize("one two three four five six seven eight nine ten eleven twelve", "en")
    spans = filter_spans([Span(doc, s, e, label=k) for k, s, e in matches])
    assert lang.longest(matches) == [(s.label, s.start, s.end) for s in spans]


# Punctuation, symbols and spaces the short cut lets through, and the line breaks ingest keeps
_NEUTRAL_CHARS = [c for c in map(chr, range(0x20, 0x30000)) if neutral(c)] + list("\t\n\v\f\r")


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_a_text_in_one_candidates_alphabet_is_what_the_detector_says(data: st.DataObject) -> None:
    """The alphabet short cut answers exactly as the detector would, for texts of the
    alphabet's letters among punctuation, symbols and spaces of no script."""
    from pipeline.ingest.langid import _detect

    for code, letters in lang.shared("languages")["alphabets"].items():
        pieces = st.sampled_from(list(letters)) | st.sampled_from(_NEUTRAL_CHARS)
        text = data.draw(st.text(pieces, min_size=1, max_size=300))
        if not set(text) & set(letters):
            continue
        assert lang.alphabet_language(text) == code
        assert _detect(text) == (code, 1.0)


@pytest.mark.parametrize(
    "text",
    [
        "Убежавшие лошади (Loose Mounts)",
        "Ricochet",
        "Модели с правилом X",
        "її",  # Cyrillic, not Russian
        "абв\u0301",  # a combining mark
        "абв\u2e80",  # a CJK radical: a symbol of the Han script
        "абв\u0970",  # a Devanagari mark
        "",
        "…",
    ],
)
def test_a_text_with_letters_of_another_script_goes_to_the_detector(text: str) -> None:
    assert lang.alphabet_language(text) is None


# Drafts that keep the rules' English terms in Latin letters, their grammar Russian
_MIXED_DRAFTS = [
    "Heavy Cavalry Impact: Heavy Cavalry с 4 или больше Health Points делает D3 Impact Hits.",
    "Wizard Apprentice Casting: Wizard Apprentice, который стоит на Hill, получает +1 к Casting"
    " Rolls для Hex Spells.",
    "Standard Bearer Flee: Standard Bearer, который Flees, теряет свой Banner Enchantment до"
    " конца Game Turn.",
]


@pytest.mark.parametrize("text", _MIXED_DRAFTS)
def test_a_draft_keeping_english_terms_is_in_the_language_of_its_grammar(text: str) -> None:
    from pipeline.ingest.langid import identify

    assert lang.mixed_language(text) == "ru"
    assert identify(text) == ("ru", 1.0)


def test_the_detector_alone_calls_such_drafts_english() -> None:
    """What the function words correct: counting letters, the detector reads English."""
    from pipeline.ingest.langid import _detect

    assert all(_detect(text)[0] == "en" for text in _MIXED_DRAFTS)


@pytest.mark.parametrize(
    "text",
    [
        # an English rule with Russian glosses in brackets
        "Ambush (Засада): the unit may enter the board from any edge in the second turn.",
        # as many English function words as Russian ones: the detector decides
        "Скрытность (Stealth) даёт -1 to hit против Shooting Attacks of the enemy.",
        # too few function words of either
        "Громовой топот (Thunderstomp)",
        # one alphabet only
        "Чемпион может вызвать врага на дуэль.",
        "The Champion may issue a Duel.",
    ],
)
def test_a_text_whose_grammar_is_not_clearly_russian_is_left_to_the_detector(text: str) -> None:
    assert lang.mixed_language(text) is None


def test_function_words_are_spacys_stop_words_read_without_its_pipelines() -> None:
    """The same words spaCy's pipelines give, for every candidate language."""
    from pipeline.lang.identify import _stop_words

    for code in lang.shared("languages")["languages"]:
        assert _stop_words(code) == frozenset(lang.nlp(code).Defaults.stop_words)
    assert _stop_words("no-such-language") == frozenset()
