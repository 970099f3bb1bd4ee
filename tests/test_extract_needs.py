"""The literal prefilter of the effect patterns: it may let a pattern through that fails,
never hold back one that matches."""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract.effects import _data
from pipeline.extract.needs import Prefilter, TokenPrefilter, needs, token_needs
from tests.helpers.labelled import load_labelled


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\bcannot Charge\b", {"cannot Charge"}),
        (r"\b[Cc]harging\b", {"Charging", "charging"}),
        (r"\b(?:gains?|gets?) \d+", {"ain", "et"}),  # re shares the branches' "g"
        (r"(?:re-roll|reroll)s? failed", {" failed"}),
        (r"^Attacks made with\b.*\bgain\b", {"Attacks made with"}),
        (r"(?=Strength)\w+", {"Strength"}),
    ],
)
def test_needs_reads_the_literals_a_match_contains(pattern: str, expected: set[str]) -> None:
    assert needs(re.compile(pattern)) == expected


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?i)cannot charge",  # case-blind: no literal is exact
        r"(?i:cannot charge)",
        r"(?:cannot )?\d+",  # the only words are optional
        r"[A-Z]\w+|\d+",  # a branch that needs nothing
        r"(?!cannot)\w+",  # a negative lookahead promises nothing
    ],
)
def test_needs_promises_nothing_it_cannot_keep(pattern: str) -> None:
    assert needs(re.compile(pattern)) is None


def test_prefilter_keeps_order_and_patterns_without_needs() -> None:
    patterns = [re.compile(r"\bhits\b"), None, re.compile(r"\d+"), re.compile("Strength")]
    f = Prefilter(patterns)
    assert f.candidates("2 hits with Strength 4") == [0, 2, 3]
    assert f.candidates("no such words") == [2]


def _sentences() -> list[tuple[str, str]]:
    out = []
    for item in load_labelled():
        out.append((item.pair.source, item.pair.source_lang))
        if item.pair.target is not None:
            out.append((item.pair.target, item.pair.target_lang or "und"))
    return out


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_prefilter_never_holds_back_a_matching_effect_pattern(lang: str) -> None:
    """Every rule, condition, skip and example pattern of the language, searched on every
    labelled text and on each pattern's own spelled-out words, matches only where the
    prefilter lets it."""
    data = _data(lang)
    patterns = [r.pattern for r in data.rules] + [p for p, _ in data.conditions]
    patterns += [*data.skip, *data.examples]
    f = Prefilter(patterns)
    texts = [t for t, _ in _sentences()]
    texts += [re.sub(r"\\[bBAZ]|[\^$]", "", p.pattern) for p in patterns]
    matched = 0
    for text in texts:
        allowed = set(f.candidates(text))
        for i, pattern in enumerate(patterns):
            if pattern.search(text):
                matched += 1
                assert i in allowed, (pattern.pattern, text)
    assert matched > 0


@pytest.mark.parametrize("lang", ["en", "ru", "it"])
def test_clause_prefilters_never_hold_back_a_matching_part(lang: str) -> None:
    """The subjects', situations' and verbs' prefilters, whose macros stand as the literals
    they need, let through every pattern that matches a labelled text (the verbs are read
    case-blind, their prefilter on the lower-cased text)."""
    from pipeline.extract.clauses import parts

    p = parts(lang)
    groups = [
        (p.who_filter, [w for _, w in p.who], False),
        (p.situation_filter, [x for _, _, x in p.situations], False),
        (p.verb_filter, [v.pattern for v in p.verbs], True),
    ]
    texts = [t for t, _ in _sentences()]
    matched = 0
    for f, patterns, fold in groups:
        for text in texts:
            allowed = set(f.candidates(text.lower() if fold else text))
            for i, pattern in enumerate(patterns):
                if pattern.search(text):
                    matched += 1
                    assert i in allowed, (pattern.pattern[:80], text)
    assert matched > 0


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_prose_tables_are_looked_for_where_a_result_pattern_may_match(lang: str) -> None:
    from pipeline.extract.tables import _data as table_data

    data = table_data(lang)
    texts = [t for t, _ in _sentences()]
    texts += [
        "Roll a D6. On a 1-3 the unit flees; on a 4-6 it stays.",
        "Бросьте D6: при результате 1-3 отряд бежит, если выпадет 4-6, он остаётся.",
        "1, 2 или 3 означает бегство.",
    ]
    matched = 0
    for text in texts:
        allowed = set(data.prose_filter.candidates(text))
        for i, pattern in enumerate(data.prose_results):
            if pattern.search(text):
                matched += 1
                assert i in allowed, (pattern.pattern, text)
    assert matched > 0


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ([{"LOWER": "half"}, {"LOWER": "of"}], [{"half"}, {"of"}]),
        (
            [{"LOWER": {"IN": ["model", "models"]}}, {"ORTH": "unit"}],
            [{"model", "models"}, {"unit"}],
        ),
        ([{"TEXT": "X", "OP": "+"}, {"LOWER": "gain", "OP": "{1,3}"}], [{"X"}, {"gain"}]),
        ([{"LOWER": "the", "OP": "?"}, {"LOWER": "a", "OP": "*"}, {"LOWER": "b", "OP": "!"}], []),
        ([{"LOWER": "of", "OP": "{0,10}"}, {"LOWER": "to", "OP": "{,2}"}], []),
        ([{"IS_TITLE": True}, {"LOWER": {"REGEX": "^x"}}, {"LOWER": {"NOT_IN": ["a"]}}], []),
    ],
)
def test_token_needs_reads_the_words_each_required_token_may_be(
    pattern: list[dict], expected: list[set[str]]
) -> None:
    assert [set(n) for n in token_needs(pattern)] == expected


_CUE_TEXTS = [
    "Models with Vanguard may perform a Vanguard move. Units with Scout do not.",
    "If more than half of the models in a unit have Strider, the unit gains Strider.",
    "A Gnasher Wrecking Team gains Fear. The Shrapnel Bombs cannot be used anymore.",
    "Once per Shooting Phase, an unengaged Engineer may select a War Machine.",
    "Attacks made with a Great Weapon gain +2 Strength. All models are equipped with a Shield.",
    "the model may Entrench a single War Machine; it uses its Crush Attack.",
    "Nothing in this sentence is a cue at all.",
    "",
]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_token_prefilter_finds_what_one_matcher_of_every_pattern_finds(lang: str) -> None:
    """The name cues of the language on texts made to hit each of them and on their own
    words: the same matches in the same order, and most texts search fewer patterns."""
    from pipeline.lang import data as lang_data
    from pipeline.lang import nlp, tokenize

    cues = lang_data(lang, "names")["cues"]
    groups = list(cues.items())
    f = TokenPrefilter(nlp(lang).vocab, groups)
    texts = [*_CUE_TEXTS, *(t for t, tl in _sentences() if tl == lang)]
    texts += [" ".join(str(v) for spec in p for v in _words(spec)) for _, ps in groups for p in ps]
    matched = 0
    for text in texts:
        doc = tokenize(text, lang)
        found = f(doc)
        assert found == f._all(doc), text
        matched += len(found)
    assert matched > 10
    assert len(f._matchers) > 1  # texts differ in the patterns they may match


def _words(spec: dict) -> list[str]:
    for attr in ("LOWER", "ORTH", "TEXT"):
        value = spec.get(attr)
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict) and "IN" in value:
            return [value["IN"][0]]
    return ["Title"] if spec.get("IS_TITLE") else []


def test_token_prefilter_leaves_out_a_pattern_whose_word_is_missing() -> None:
    from pipeline.lang import nlp, tokenize

    f = TokenPrefilter(
        nlp("en").vocab, [("a", [[{"LOWER": "half"}, {"LOWER": "of"}]]), ("b", [[{"LOWER": "of"}]])]
    )
    doc = tokenize("one of them", "en")
    assert [nlp("en").vocab.strings[k] for k, _, _ in f(doc)] == ["b"]
    assert list(f._matchers) == [(1,)]
    assert f(tokenize("no such word", "en")) == []


def _cue_words(lang: str) -> list[str]:
    """Every word the cues of `lang` spell out, capitalised words, punctuation and numbers."""
    from pipeline.lang import data as lang_data

    words = {"Title", "Great", "Weapon", "the", "unit", "X", "3", "(", ")", "\n", "'s"}
    words |= {".", ",", ";", ":", "!", "?", "-", "D6", "модели", "правилом", "Рикошет"}
    for patterns in lang_data(lang, "names")["cues"].values():
        for p in patterns:
            for spec in p:
                for attr in ("LOWER", "ORTH", "TEXT"):
                    value = spec.get(attr)
                    if isinstance(value, str):
                        words.add(value)
                    elif isinstance(value, dict):
                        words.update(str(v) for v in value.get("IN", value.get("NOT_IN", ())))
    return sorted(words)


@st.composite
def _instance(draw: st.DrawFn, pattern: list[dict]) -> list[str]:
    """Tokens that a pattern's tokens may match (a repeat 0 to 2 times), or nearly."""
    out: list[str] = []
    for spec in pattern:
        op = str(spec.get("OP", ""))
        low, high = {"?": (0, 1), "*": (0, 2), "+": (1, 2)}.get(op, (0, 3) if op else (1, 1))
        for _ in range(draw(st.integers(low, high))):
            out.append(draw(_token_for(spec)))
    return out


def _token_for(spec: dict) -> st.SearchStrategy[str]:
    for attr in ("LOWER", "ORTH", "TEXT"):
        value = spec.get(attr)
        if isinstance(value, str):
            return st.just(value)
        if isinstance(value, dict) and "IN" in value:
            return st.sampled_from([str(v) for v in value["IN"]])
        if isinstance(value, dict) and "REGEX" in value:  # '^(модел|отряд|фигур)': a stem
            stems = value["REGEX"].strip("^()").split("|")
            return st.sampled_from(stems).map(lambda stem: stem + "и")
    if spec.get("IS_TITLE"):
        return st.sampled_from(["Great", "Weapon", "Fear", "Рикошет"])
    return st.sampled_from(["the", "unit", "3", "X", "(", "\n", "movement"])


@pytest.mark.parametrize("lang", ["en", "ru"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_token_prefilter_by_runs_finds_what_one_matcher_finds_in_the_whole_doc(
    lang: str, data: st.DataObject
) -> None:
    """Texts of cue instances among the cues' words, punctuation and numbers, capitalised
    or not, matched twice (the second time from remembered runs): the matches and their
    order are one Matcher's of every pattern on the whole doc."""
    from spacy.tokens import Doc

    from pipeline.lang import data as lang_data
    from pipeline.lang import nlp

    patterns = [p for ps in lang_data(lang, "names")["cues"].values() for p in ps]
    word = st.sampled_from(_cue_words(lang))
    word = word | word.map(lambda w: w.capitalize())
    pieces = st.lists(word.map(lambda w: [w]) | st.sampled_from(patterns).flatmap(_instance))
    words = [w for piece in data.draw(pieces) for w in piece]
    f = _prefilter(lang)
    doc = Doc(nlp(lang).vocab, words=words)
    assert f(doc) == f._all(doc)
    assert f(doc) == f._all(doc)


@functools.cache
def _prefilter(lang: str) -> TokenPrefilter:
    from pipeline.lang import data as lang_data
    from pipeline.lang import nlp

    return TokenPrefilter(nlp(lang).vocab, list(lang_data(lang, "names")["cues"].items()))


def test_a_doc_is_matched_by_runs_between_its_stops() -> None:
    from pipeline.lang import nlp, tokenize

    f = TokenPrefilter(nlp("en").vocab, [("w", [[{"LOWER": "models"}, {"LOWER": "with"}]])])
    doc = tokenize("Models with Fear. Models with Fear; models with Scout", "en")
    assert [(s, e) for _, s, e in f(doc)] == [(0, 2), (4, 6), (8, 10)]
    assert len(f._runs) == 2  # "Models with Fear" once, "models with Scout"
    whole = TokenPrefilter(nlp("en").vocab, [("w", [[{"LOWER": "models"}, {}]])])
    assert whole._any_token is None  # a token that matches anything: no stops
    assert [(s, e) for _, s, e in whole(doc)] == [(0, 2), (4, 6), (8, 10)]
