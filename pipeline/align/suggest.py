"""Glossary induction: term pairs proposed from the linked sentence beads of a build.

Candidates are whole terms on both sides (`terms`): capitalised English runs, Russian noun
phrases. Inside each bead every English candidate meets every translation candidate; over
all beads a pair is scored by how often the two turn up together and rarely apart (Dice),
where they sit in their sentences, whether both are capitalised (the house style marks rule
terms so), and how many words each has. Then pairs are taken best first, one rendering per
term and one term per rendering (competitive linking); a second rendering is kept only when
it stands for the term in beads of its own; two pairs the counts cannot tell from their
crossed twins are taken in the order both texts give the words. What the glossary (and the
core vocabulary of lang/lexicon.yaml) already fixes is not proposed and its renderings are
not free to pair with anything else; rejected terms are never proposed again.

A pair seen once is proposed only when nothing else could be meant: a 1-1 bead whose one
unknown English term is capitalised and whose translation has one capitalised phrase, once
the terms already settled (by the glossary, the core vocabulary or surer pairs) are taken
out of both sides; settling a pair can leave one term alone in another bead, so this runs
until nothing changes. Two terms left in a bead with two capitalised phrases are paired in
order only when their word counts fit that pairing and not the crossed one; a capitalised
core-vocabulary term whose one rendering in the bead is capitalised too needs no second
bead. Any proposal with thin or contested evidence says so in its note (`unsure: ...`),
and its confidence is then 0.6 at most (`sure` tells the others).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import pairwise
from typing import Any

from ..extract.keywords import core_lexicon, core_words
from ..glossary import Glossary, Term
from ..lang import data as lang_data
from ..lang import lemma, lemmas, nlp, parses, singular
from ..slug import slugify
from ..textsafe import cell
from .compose import composed, composed_but_one, english_parts, foreign_parts, joining_words
from .headings import headings
from .paragraphs import params
from .terms import (
    Candidate,
    candidates,
    dictionary_form,
    drop_readings,
    english_key,
    heads_text,
    reread,
)

Span = tuple[int, int]
MIN_SCORE = 0.5
#: Renderings of a core-vocabulary term proposed beside its first (a noun and its verbs).
MAX_VARIANTS = 2
#: The least score of a pair the translation states itself ("Авангард (Vanguard)").
NAMED_SCORE = 0.9
#: ... of a pair made of the same core-vocabulary words ("раунд боя", `compose`), or of a
#: name heading a paragraph in both languages and used again in it.
COMPOSED_SCORE = 0.85
#: ... and of a pair made of the same vocabulary words but one on each side.
PARTLY_SCORE = 0.7
#: The evidence a note gives for a proposal.
NAMED = "named in brackets"
LEXICAL = "core vocabulary"
COMPOSED = "made of the core vocabulary"
HEADED = "heads its paragraph in both languages"
PARTLY = "made of the core vocabulary but for one word"
#: ... where the drop's own one-word pairs count as vocabulary ("реакция на натиск").
PARTLY_INDUCED = "made of the core vocabulary and the drop's terms but for one word"
#: ... where a family of the drop's terms shares the word ("Height" of Standard, Large and
#: Gigantic Height, "рост").
FAMILY = "the word a family of the drop's terms shares"
#: ... of an abbreviation in capitals written with the value the English gives the term
#: ("С 4, БП 1" for "Strength 4 with Armour Penetration 1").
VALUED = "written with its value"
#: The note of a rendering seen shorter than its term and once whole.
WRITTEN_SHORT = "also written short"
#: The most confidence a proposal whose note records a doubt (`unsure: ...`) is given, so
#: that the confidence says what the note says: above it, no doubt is noted.
UNSURE_CONFIDENCE = 0.6
UNSURE = "unsure: "
#: A lower-case compound ("base contact") must recur to be a term, not words side by side
#: ("the attack wounds").
COMPOUND_NEEDS = 2
#: A pair whose translation is never capitalised where the English term is needs this many
#: beads before it is believed (rule names are capitalised in both languages).
UNCAPITALISED_NEEDS = 3
#: ... unless the drop writes the vocabulary's capitalised terms in lower case in more than
#: half of this many places at least: then capitals tell nothing.
HOUSE_STYLE_NEEDS = 4
#: Two pairs scoring within this share of each other are told apart by the order of words.
CROSSED_CLOSE = 0.9
#: Letters two English words share at their start when one is a form of the other
#: ("Rally", "Rallying"), as `_described` reads them.
MIN_STEM = 4
#: The vocabulary's words for the things a rule is given to: a capitalised run of a term
#: the drop writes on its own and one of them ("Flammable Units", "Hex Spells") is that
#: term said of its kind (`_of_a_kind`).
KINDS = frozenset({"unit", "model", "spell"})

#: The kinds of the vocabulary's lower-case words proposed as terms: a word the rules
#: define (`term`: hit, rank) and a subject every rule speaks of (`subject`: model, unit,
#: enemy, target), which every hand writes in lower case, so that its case tells nothing
#: of how a drop writes its rule terms.
LOWER_KINDS = frozenset({"term", "subject"})


@dataclass(frozen=True, slots=True)
class Bead:
    """The English and translated text of one sentence bead, and where it comes from."""

    source: str
    target: str
    link: str = ""
    source_id: str = ""
    target_id: str = ""
    one_to_one: bool = True


@dataclass(frozen=True, slots=True)
class Suggestion:
    term: str  # id
    source: str  # English term as most often written
    target: str  # the rendering in its dictionary form
    lang: str
    together: int  # beads with both
    source_count: int
    target_count: int
    score: float
    example: Bead
    note: str = ""
    variants: tuple[str, ...] = ()


@dataclass(slots=True)
class _Pair:
    beads: list[int] = field(default_factory=list)
    position: float = 0.0  # sum of |relative position difference|
    caps_known: int = 0
    caps_agree: int = 0


def _lemmas(text: str, lang: str) -> str:
    return " ".join(lemma(w, lang) for w in text.split())


def _known(
    glossary: Glossary | None, lang: str
) -> tuple[dict[str, str], dict[str, str], dict[str, tuple[str, ...]], dict[str, str]]:
    """(English key -> term id of the glossary or a rejection, or of an everyday word of
    the core vocabulary, translation lemmas -> term id, core-vocabulary English key -> its
    renderings' lemmas, English key of any form of a core-vocabulary term -> the key of its
    first form: "Charging" is the term Charge)."""
    english: dict[str, str] = {}
    target: dict[str, str] = {}
    reviewed = (*glossary.terms, *glossary.rejected) if glossary else ()
    for term in reviewed:
        for form in (*term.renderings.get("en", ()), *term.deprecated.get("en", ())):
            english[english_key(form.split())] = term.id
        for form in (*term.renderings.get(lang, ()), *term.deprecated.get(lang, ())):
            target[_lemmas(form, lang)] = term.id
    lexicon: dict[str, tuple[str, ...]] = {}
    alias: dict[str, str] = {}
    everyday: dict[str, str] = {}
    for term in core_words().terms:
        forms = tuple(_lemmas(f, lang) for f in term.renderings.get(lang, ()))
        for form in forms:
            target.setdefault(form, "lexicon:" + term.id)
        english_forms = term.renderings.get("en", ())
        first = english_key(english_forms[0].split())
        # a capital marks a rule term of the vocabulary (Charge, March), which a team's
        # glossary holds, and so do `kind: term` (hit, rank) and `kind: subject` (unit);
        # everyday words (roll, player) are not proposed
        if first in english or not (english_forms[0][:1].isupper() or term.kind in LOWER_KINDS):
            if first not in english:
                everyday.update((english_key(f.split()), term.id) for f in english_forms)
            continue
        lexicon[first] = forms
        for form in english_forms:
            alias.setdefault(english_key(form.split()), first)
        if english_forms[0][:1].isupper():
            # the verb's forms of a rule term the vocabulary lists by its name only: "after
            # it Marched" is March, "the wielder Charged" is Charge
            for form in english_forms:
                for inflected in _inflections(form):
                    alias.setdefault(inflected, first)
    # an everyday word is no term however it is written: "Combat" capitalised in "Engaged
    # in Combat" is the word combat, which "бой" renders, and no rendering is free for it
    for key, term_id in everyday.items():
        if key not in alias and key not in lexicon:
            english.setdefault(key, "everyday:" + term_id)
    return english, target, lexicon, alias


def _inflections(form: str) -> tuple[str, ...]:
    """The past and -ing forms of a one-word English verb, lower case: "march" ->
    "marched", "marching"; "charge" -> "charged", "charging" (the plural or third person
    is the key's own: `english_key` makes "Marches" "march")."""
    low = form.lower()
    if " " in low or not low.isalpha():
        return ()
    stem = low[:-1] if low.endswith("e") else low
    return (stem + "ed", stem + "ing")


@cache
def _lower_forms() -> re.Pattern[str]:
    """The English forms of the vocabulary's `kind: term` and `kind: subject` words, as
    one pattern."""
    forms = sorted(
        {
            f.lower()
            for t in core_lexicon().terms
            if t.kind in LOWER_KINDS
            for f in t.renderings.get("en", ())
        },
        key=lambda f: (-len(f), f),
    )
    return _whole_words(forms, "s?", re.I)


def _whole_words(forms: Iterable[str], after: str = "", flags: int = 0) -> re.Pattern[str]:
    """Any of `forms`, tried in the order given, then `after`, as a whole word."""
    alternatives = "|".join(map(re.escape, forms))
    return re.compile(rf"(?<![\w-])(?:{alternatives}){after}(?![\w-])", flags)


def _lower_terms(text: str, capitalised: Sequence[Candidate]) -> list[Candidate]:
    """The vocabulary's lower-case rule terms in an English sentence ("hit", "rank"),
    outside its capitalised terms ("Impact Hits" is another term)."""
    out = []
    for m in _lower_forms().finditer(text):
        if (m.group()[:1].isupper() and not _opens_sentence(text, m.start())) or any(
            c.start < m.end() and m.start() < c.end for c in capitalised
        ):
            continue
        words = tuple(m.group().split())
        out.append(Candidate(english_key(words), words, m.start(), m.end(), False, False, False))
    return out


def _opens_sentence(text: str, start: int) -> bool:
    """Whether a word opens its sentence, where its capital is the sentence's ("Hits
    against ..."), not a term's."""
    before = text[:start].rstrip()
    return not before or before[-1] in ".!?:;"


_LOWER_WORD = re.compile(r"(?<![\w-])[a-z]+(?:-[a-z]+)?(?![\w-])")


def _lower_compounds(text: str, capitalised: Sequence[Candidate]) -> list[Candidate]:
    """Lower-case English terms made of core-vocabulary words: two words side by side
    ("base contact", "to-hit modifier") or joined by "to" ("roll to hit"), outside the
    capitalised terms. They pair only with a phrase made of the same words (`compose`)."""
    out = []
    for found, start, end in _lower_runs(text, (2, 3)):
        if len(found) == 3 and found[1] != "to":
            continue
        parts = english_parts(found)
        if len(parts) < 2 or not all(len(p) == 1 for p in parts):
            continue
        if any(c.start < end and start < c.end for c in capitalised):
            continue
        out.append(Candidate(english_key(found), found, start, end, False, False, False))
    return out


def _lower_runs(text: str, sizes: Sequence[int]) -> Iterator[tuple[tuple[str, ...], int, int]]:
    """(words, start, end) of each run of lower-case words one space apart, of each size
    in `sizes`, word by word through the text."""
    words = list(_LOWER_WORD.finditer(text))
    for i in range(len(words)):
        for n in sizes:
            span = words[i : i + n]
            if len(span) == n and all(text[a.end() : b.start()] == " " for a, b in pairwise(span)):
                yield tuple(m.group() for m in span), span[0].start(), span[-1].end()


#: A word and an English word whose transliteration begins alike for this many letters
#: are one word borrowed ("гигантский", "gigantic").
LOAN_PREFIX = 5


def _loaned(
    e: Candidate,
    fits: Sequence[Candidate],
    lang: str,
    induced: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
) -> list[str]:
    """Of the phrases that render a term but for one word on each side, the one whose
    word neither the vocabulary nor the drop's pairs (`induced`) know is the English
    one's borrowed ("гигантский рост" for "Gigantic Height", beside "рост чудовища",
    where "чудовище" is no "gigantic"): its key, where one phrase alone is so; else none."""
    en_known, known = induced or ({}, {})
    ours = [
        w.lower()
        for w in e.words
        if not any(english_parts((w,))) and singular(w.lower()) not in en_known
    ]
    if len(ours) != 1:
        return []
    out = []
    for c in fits:
        theirs = [
            w
            for w in c.words
            if not any(foreign_parts((w,), lang)) and lemmas(w, lang)[0] not in known
        ]
        if len(theirs) == 1:
            shared = 0
            for a, b in zip(slugify(theirs[0], fallback=""), ours[0], strict=False):
                if a != b:
                    break
                shared += 1
            if shared >= LOAN_PREFIX:
                out.append(c.key)
    return out if len(out) == 1 else []


def _deed(c: Candidate) -> bool:
    """Whether a phrase opens with an active participle that did something or does it to
    something ("Проваливший Тест на устойчивость отряд": the unit that failed the test):
    a clause about its noun, no name. A state is passive or intransitive ("бегущий",
    "дезорганизованный")."""
    if c.verb or len(c.parts) < 2 or c.parts[0][1] != "adjective" or c.parts[0][0] is None:
        return False
    if not c.initial and c.words[0][:1].isupper():
        return False  # capitalised inside a sentence, a name's word: "с Атакующим мастерством"
    tag = c.parts[0][0].tag
    head = c.parts[1][0]
    if head is not None and tag.case in ("datv", "ablt", "loct") and tag.case == head.tag.case:
        # agreeing in a case no object of a verb takes: the participle qualifies its noun
        # ("оснащение косящими лезвиями"), no deed done to it
        return False
    return tag.POS == "PRTF" and "actv" in tag and ("past" in tag or "tran" in tag)


def _count(c: Candidate) -> bool:
    """Whether a phrase opens with a cardinal numeral, also as the first half of a word
    written with a hyphen ("одной-единственной модели" for "1 model"): a count of its
    noun, no name. An ordinal names a rank ("первая шеренга") and stays."""
    if c.verb or len(c.parts) < 2 or c.parts[0][1] != "adjective":
        return False
    read = parses(c.words[0].split("-")[0].lower())[:1]
    tag = read[0].tag if read else None
    return tag is not None and (tag.POS == "NUMR" or ("Anum" in tag and "Apro" in tag))


@cache
def _measure_words(lang: str) -> frozenset[str]:
    """The lemmas of the words a quantity is measured in, repeated by or named by, in
    `lang`'s quantity grammar and alignment data: its units of length, its word for a time
    and its nouns for a number ("на шестьдесят дюймов" for "Range 60″", "раз за фазу" for
    "once per Phase", "на единицу сильнее" for "+1 Strength"). They say the number or its
    unit, which the English writes as a digit, a sign or an adverb: no term of the rules."""
    grammar = lang_data(lang, "quantities", fallback=False)
    words = [w for forms in (grammar.get("length_units") or {}).values() for w in forms]
    words += (grammar.get("count_nouns") or {}).get("time", ())
    nouns = lang_data(lang, "align", fallback=False).get("number_nouns") or {}
    words += [w for forms in nouns.values() for w in forms]
    return frozenset(_lemmas(w, lang) for w in words)


@cache
def _vocabulary_nouns() -> frozenset[str]:
    """The one-word Russian renderings of the core vocabulary, lower case, ё as е."""
    return frozenset(
        f.lower().replace("ё", "е")
        for t in core_lexicon().terms
        for f in t.renderings.get("ru", ())
        if " " not in f
    )


def _dictionary(c: Candidate, plural: bool, capitals: tuple[bool, ...]) -> str:
    """`dictionary_form`, with a word the vocabulary knows read as the vocabulary's word
    where the first reading of its form is another ("спасброска" is read "спасброска",
    a noun of its own, yet is "спасбросок"; so "особый спасбросок", not "особая
    спасброска")."""
    if c.verb or len(c.parts) != len(c.words):
        return dictionary_form(c, plural, capitals)
    known = _vocabulary_nouns()
    parts = []
    for word, (parse, role) in zip(c.words, c.parts, strict=True):
        if role in ("head", "substantive") and parse.normal_form.replace("ё", "е") not in known:
            pos = parse.tag.POS
            found = (p for p in parses(word) if pos == p.tag.POS)
            parse = next((p for p in found if p.normal_form.replace("ё", "е") in known), parse)
        parts.append((parse, role))
    return dictionary_form(replace(c, parts=tuple(parts)), plural, capitals)


def _form(seen: list[Candidate], plural: bool = False) -> str:
    """A rendering in its dictionary form, capitalised as the drop writes it."""
    return _dictionary(seen[0], plural, _capitals(seen))


def _verb_base(form: str, forms: Sequence[str]) -> str:
    """An English verb form's base as the vocabulary writes one of its forms ("charging"
    -> "charge" beside Charge, "pursues" -> "pursue"), else the form as written."""
    known = {f.lower() for f in forms}
    for end in ("ing", "ed", "es", "s"):
        if form.endswith(end):
            stem = form[: -len(end)]
            for base in (stem, stem + "e"):
                if base in known:
                    return base
    return form


@cache
def _term_verbs() -> frozenset[str]:
    """The verb forms the vocabulary lists for its capitalised terms ("flees", "fleeing"
    for Flee, "charging" for Charge)."""
    out = set()
    for t in core_lexicon().terms:
        forms = t.renderings.get("en", ())
        if not forms or not forms[0][:1].isupper():
            continue
        for form in forms[1:]:
            if form.lower() != forms[0].lower() and _verb_base(form, forms) == forms[0].lower():
                out.add(form.lower())
    return frozenset(out)


def _verb_apart(found: list[Candidate]) -> list[Candidate]:
    """The capitalised runs with a last word that is a vocabulary term's verb taken apart:
    "a Panic Test Flees" is the test and the verb, two terms side by side, not one; and so
    is a last word that is a verb form of a word before it in the run ("fails its Break
    Test Breaks": a term does not say its own word again)."""
    verbs = _term_verbs()
    out = []
    for c in found:
        last = c.words[-1]
        earlier = [w.lower() for w in c.words[:-1]]
        again = _verb_base(last.lower(), earlier) in earlier
        if len(c.words) < 2 or not c.capitalised or (last.lower() not in verbs and not again):
            out.append(c)
            continue
        head = c.words[:-1]
        while head and head[-1] in ("of", "the", "to"):
            head = head[:-1]
        start = c.end - len(last)
        if head:
            end = c.start + len(" ".join(head))
            plural = english_key(head) != " ".join(w.lower() for w in head)
            out.append(replace(c, key=english_key(head), words=head, end=end, plural=plural))
        out.append(Candidate(english_key((last,)), (last,), start, c.end, True, False, False))
    return out


def _rival_phrase(term: Candidate, text: str) -> bool:
    """Whether the English of a bead has, outside its capitalised terms, a lower-case
    phrase of the term's shape: its vocabulary words where the term has them and another
    unknown word where the term has its own ("normal movement" beside "Flying Movement").
    A translation made of those words but one may then render either."""
    shape = english_parts(term.words)
    taken = [c for c in candidates(text, "en") if c.capitalised or c.key == term.key]
    for found, start, end in _lower_runs(text, (len(term.words),)):
        if any(c.start < end and start < c.end for c in taken):
            continue
        if any(w in nlp("en").Defaults.stop_words for w in found):
            continue  # "units may" is no phrase
        parts = english_parts(found)
        if len(parts) == len(shape) and all(
            (p == q) if q else not p for p, q in zip(parts, shape, strict=True)
        ):
            return True
    return False


_WORDS = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")

#: The word right before a term, or governing it by "of" ("a friendly Great Green Idol",
#: "the end of the Player Turn").
_BEFORE = re.compile(r"([A-Za-z-]+) (?:of (?:the |a |an |its |their )?)?$")


def _takes_in(e: Candidate, c: Candidate, source: str, lang: str) -> bool:
    """Whether a phrase has the vocabulary's word for the English word beside the term
    (`_BEFORE`, in the term's sentence `source`), which the term does not say
    ("дружественный Великий Зелёный Идол" beside "a friendly Great Green Idol":
    "дружественный" renders "friendly", no word of the name)."""
    return _renders_beside(_BEFORE.search(source[: e.start]), e, c, lang)


#: The lower-case word right after a term ("Rank-and-File models").
_AFTER = re.compile(r"^ ([a-z-]+)")


def _takes_in_after(e: Candidate, c: Candidate, source: str, lang: str) -> bool:
    """Whether a phrase has the vocabulary's word for the lower-case word right after the
    term, which the term does not say ("рядовые модели" beside "Rank-and-File models":
    "модели" renders "models", the term is the word before it)."""
    return _renders_beside(_AFTER.match(source[e.end :]), e, c, lang)


def _renders_beside(m: re.Match[str] | None, e: Candidate, c: Candidate, lang: str) -> bool:
    """Whether `c` has the vocabulary's word for the English word `m` found beside the
    term `e`, a word none of the term's own words is."""
    parts = english_parts((m.group(1),)) if m is not None else ()
    said = parts[0] if parts else frozenset()
    if not said:
        return False
    ours = set().union(*english_parts(e.words))
    return any(p & said and not p & ours for p in foreign_parts(c.words, lang))


def _said_short(
    e: Candidate, fit: Candidate, fixed: Sequence[Candidate], source: str, lang: str
) -> bool:
    """Whether the translation has, apart from `fit`, a phrase of only the vocabulary's
    words for the term's own words, which the English says nowhere but inside the term:
    that phrase is the term written short ("Атаки" for "Attack Value", beside "Навык
    атаки", the next term of the list), so `fit` is no reading of it. A phrase
    written with a capital is a rule's name: the English word in lower case outside the
    term ("Attack Value is the number of attacks") is not what it says. `fixed`: every
    phrase of the bead the vocabulary or the glossary fixes, each place it is written."""
    ours = [p for p in english_parts(e.words) if p]
    if not ours:
        return False
    mine = frozenset().union(*ours)
    outside = _WORDS.findall(source[: e.start] + " " + source[e.end :])
    said = frozenset().union(frozenset(), *(p for w in outside for p in english_parts((w,))))
    named = frozenset().union(
        frozenset(), *(p for w in outside if w[:1].isupper() for p in english_parts((w,)))
    )
    for c in fixed:
        if c.verb or (c.start < fit.end and fit.start < c.end):
            continue
        theirs = foreign_parts(c.words, lang)
        other = named if any(w[:1].isupper() for w in c.words) else said
        if theirs and all(p & mine and not p & other for p in theirs):
            return True
    return False


#: An English name in brackets, with the rule's parameter in brackets of its own
#: ("(Impact Hits (X))"), and the translation's own other name of the term after it: an
#: abbreviation ("(Resilience, Ст)") or the players' word ("(Frenzy, френзи)").
_BRACKETED = re.compile(
    r"\(\s*([A-Za-z][A-Za-z '’-]*[A-Za-z])\s*(?:\([^()]{1,12}\)\s*)?"
    r"(?:,\s*([^\W\d_A-Za-z]+)\s*)?\)"
)


def _written_before(text: str, end: int, size: int) -> Candidate | None:
    """The `size` words before `end`, as written, when the first is capitalised."""
    words = list(re.finditer(r"[\w-]+", text[:end]))[-size:]
    if len(words) != size or not words[0].group()[:1].isupper():
        return None
    if re.search(r"[^\w\s-]", text[words[0].start() : end]):
        return None  # punctuation inside: not one name
    key = " ".join(lemma(w.group(), "ru") for w in words)
    before = text[: words[0].start()].rstrip()
    initial = not before or before[-1] in ".!?"
    return Candidate(
        key, tuple(w.group() for w in words), words[0].start(), end, True, False, initial
    )


def _bracketed(
    bead: Bead, english: Mapping[str, Candidate], found: Sequence[Candidate], lang: str
) -> list[tuple[Candidate, Candidate]]:
    """Names the translation gives with their English in brackets ("Авангард (Vanguard)",
    "«Снайпер» (Sniper)"), when the bead's English has that name, as a term of its own or
    inside a longer one ("Fortitude" in "Fortitude Saves"): the phrase right before the
    bracket that starts with a capital, else the one of the English name's length (the
    candidate ending there, else the words as written when the first is capitalised:
    "Сплотиться вокруг знамени (Rally Around the Flag)")."""
    out = []
    for m in _BRACKETED.finditer(bead.target):
        e = english.get(english_key(m.group(1).split())) or _written_in(bead.source, m.group(1))
        if e is None:
            continue
        end = len(bead.target[: m.start()].rstrip().rstrip(_CLOSING_QUOTES))
        ending = [c for c in found if c.end == end and not c.verb]
        if ending:  # the phrases that say the name's vocabulary words, and no more
            best = min(_name_fit(e, c, lang) for c in ending)
            ending = [c for c in ending if _name_fit(e, c, lang) == best]
        capital = [c for c in ending if c.words[0][:1].isupper()]  # where a name starts
        exact = [c for c in ending if c.size == e.size]
        # the words as written from a capital, of the name's length or one word more (a
        # preposition no term joins by: "Монстр с наездником (Ridden Monster)")
        written = _written_before(bead.target, end, e.size) or _written_before(
            bead.target, end, e.size + 1
        )
        titled = [
            w
            for w in (_written_before(bead.target, end, e.size), written)
            if w is not None and _title_case(w)
        ]
        if capital and titled and _inner_capitals(titled[0]) > max(map(_inner_capitals, capital)):
            # a name in title case runs back to its first capital: "Один в Своём Роде (One
            # of a Kind)" is no "Роде"
            out.append((e, titled[0]))
        elif capital:
            out.append((e, _fitting(e, capital)))
        elif written is not None and _infinitive(written.words[0]):
            out.append((e, written))  # an action's name: "Держать строй (Hold)"
        elif exact:
            out.append((e, _fitting(e, exact)))
        elif written is not None and not _finite(written.words[-1]):
            out.append((e, written))  # not "Враг бежит (Flee)": a clause, no name
        elif ending:
            out.append((e, _fitting(e, ending)))
        else:
            state = _participle(found, end)
            if state is not None and len(e.words) == 1:
                out.append((e, state))
    return out


_GLOSS = re.compile(r"\s*\(\s*([^\W\d_A-Za-z][^()]*?)\s*\)")


def _glossed(
    bead: Bead, english: Mapping[str, Candidate], found: Sequence[Candidate]
) -> list[tuple[Candidate, Candidate]]:
    """English terms a translation writes as they are with its own words after them in
    brackets ("Stomp Attacks (атаки топотом)", "to-hit roll (бросок на попадание)"): a
    draft that keeps the English names each term so, as a translation that gives the
    English in brackets does. The bracket is the rendering where one phrase fills it with
    no more words than the term has ("Discipline (дисциплина всадника)" is the rider's
    Discipline, no name of it)."""
    out = []
    joiners = joining_words("ru")
    for e in english.values():
        size = sum(1 for w in e.words for p in w.lower().split("-") if p and p not in joiners)
        pattern = _whole_words((" ".join(e.words),), flags=re.I)
        for m in pattern.finditer(bead.target):
            gloss = _GLOSS.match(bead.target, m.end())
            if gloss is None:
                continue
            whole = [
                c
                for c in found
                if c.start == gloss.start(1)
                and c.end == gloss.end(1)
                and not c.verb
                and sum(1 for w in c.words if w.lower() not in joiners) <= size
            ]
            if whole:
                out.append((e, whole[0]))
                break
    return out


_PARTICIPLES = frozenset({"PRTF", "PRTS"})
#: "in" and a capitalised word after a term ("Engaged in Combat"), and the word after a
#: rendering (`_complement`).
_IN_WORD = re.compile(r"\s+(in)\s+([A-Z][\w-]*)")
_NEXT_WORD = re.compile(r"\s+([^\W\d_]+)")


def _finite(word: str) -> bool:
    """Whether a word is read first as a finite verb ("бежит"): the words before it that a
    bracket follows are a clause about the name, not the name."""
    read = parses(word.lower())[:1]
    return bool(read) and read[0].tag.POS == "VERB"


def _infinitive(word: str) -> bool:
    """Whether a word is read first as an infinitive: a name of what a unit does starts
    with one ("Держать строй" for Hold, "Стоять и стрелять")."""
    read = parses(word.lower())[:1]
    return bool(read) and read[0].tag.POS == "INFN"


def _states(text: str, found: Sequence[Candidate]) -> list[Candidate]:
    """The participles a translation capitalises inside a sentence and that no phrase
    reads as a word of its own ("отряд Расстроен", "пока он Расстроен"): the name of a
    state, as its full form ("расстроенный"), keyed as the verb, as where a phrase reads
    it ("будучи Расстроенным")."""
    have = {(c.start, c.end) for c in found if not c.verb}
    out = []
    for c in found:
        if not c.verb or len(c.words) != 1 or (c.start, c.end) in have:
            continue
        if not c.words[0][:1].isupper() or _opens_sentence(text, c.start):
            continue
        state = _participle([c], c.end)
        if state is not None:
            out.append(replace(state, capitalised=True))
    return out


def _kind_after(text: str, c: Candidate) -> bool:
    """Whether the word after an English term says a unit or a model ("Tall models")."""
    m = _WORDS.match(text[c.end :].lstrip())
    parts = english_parts((m.group(),)) if m is not None else ()
    return bool(parts) and bool(parts[0] & KINDS)


def _named_adjectives(found: Sequence[Candidate], lang: str) -> list[Candidate]:
    """The adjectives the vocabulary does not know that describe a unit or a model
    ("Рослая модель", "незначительный юнит"): Russian writes a name that is an adjective
    used as a noun ("a model with Tall") as its adjective with the noun, so the adjective
    alone, in its dictionary form, may be the name, where the English writes the name
    without its unit or model in some sentence pair (`_kind_after`)."""
    out: list[Candidate] = []
    for c in found if lang == "ru" else ():
        if c.verb or [role for _, role in c.parts] != ["adjective", "head"]:
            continue
        said = foreign_parts(c.words, lang)  # a phrase the vocabulary lists is one part
        if len(said) != 2 or said[0] or not said[1] & KINDS or c.parts[0][0] is None:
            continue
        read = c.parts[0][0]
        if read.tag.POS != "ADJF":
            continue  # a participle describes a deed or a state ("бегущий отряд")
        full = read.inflect({"nomn", "sing", "masc"})
        if full is None:
            continue
        word = c.words[0][:1] + full.word[1:] if c.words[0][:1].isupper() else full.word
        end = c.start + len(c.words[0])
        out.append(replace(c, key=lemma(full.word, lang), words=(word,), end=end, parts=()))
    return out


def _participle(found: Sequence[Candidate], end: int) -> Candidate | None:
    """A participle ending at a bracket ("отряд дезорганизован (Disrupted)"): the state
    the English names, as its full form ("дезорганизованный"), keyed as the verb; else
    None."""
    for c in found:
        if c.end != end or not c.verb:
            continue
        read = parses(c.words[0].lower())[:1]
        if not read or read[0].tag.POS not in _PARTICIPLES:
            continue
        full = read[0].inflect({"PRTF", "nomn", "sing", "masc"})
        if full is not None:
            return replace(c, words=(full.word,), verb=False, parts=())
    return None


def _title_case(c: Candidate) -> bool:
    """Whether every word of a phrase after its first is capitalised or a preposition or
    conjunction ("Один в Своём Роде"): a name written in title case."""
    return all(
        w[:1].isupper() or any(p.tag.POS in ("PREP", "CONJ") for p in parses(w.lower())[:1])
        for w in c.words[1:]
    )


def _inner_capitals(c: Candidate) -> int:
    """The capitalised words of a phrase that no sentence start explains."""
    return sum(w[:1].isupper() for w in c.words[1:]) + bool(
        c.words[0][:1].isupper() and not c.initial
    )


def _also_named(
    bead: Bead, english: Mapping[str, Candidate], found: Sequence[Candidate]
) -> list[tuple[str, str]]:
    """(English term, phrase) for the other name a bracket gives a term after its English
    ("Бешенство (Frenzy, френзи)": "френзи"): the translation's second rendering of it,
    no rendering of another term."""
    out = []
    for m in _BRACKETED.finditer(bead.target):
        e = english.get(english_key(m.group(1).split()))
        if e is None or m.group(2) is None:
            continue
        at = m.start(2), m.end(2)
        out += [(e.key, c.key) for c in found if (c.start, c.end) == at and not c.verb]
    return out


def _as_named(seen: list[Candidate]) -> str:
    """A bracket's other name in its dictionary form; initials as written ("ОЗ")."""
    words = seen[0].words
    return " ".join(words) if all(w.isupper() for w in words) else _form(seen)


def _name_fit(e: Candidate, c: Candidate, lang: str) -> tuple[int, int]:
    """How far a phrase before a bracket is from the English name in it: the name's
    vocabulary words it does not say (word by word too: "раунда рукопашного боя" says
    round and combat, "рукопашного боя" only combat, for "Round of Combat"), then, for a
    name made of vocabulary words only, its words the vocabulary does not know
    ("Использование щита (Shield)": the use of a shield, the name is "щит")."""
    english = english_parts(e.words)
    ours = [p for p in english if p]
    words = tuple(w for w in c.words if w.lower() not in joining_words(lang))
    single = [frozenset().union(*foreign_parts((w,), lang)) for w in words]
    said = frozenset().union(*foreign_parts(c.words, lang), *single)
    missing = sum(1 for p in ours if not p & said)
    unknown = sum(1 for p in single if not p) if ours and len(ours) == len(english) else 0
    return missing, unknown


_CLOSING_QUOTES = '»"”’'


def _written_in(text: str, name: str) -> Candidate | None:
    """The English name as the bead's English writes it, capitalised as a name (every word
    but those that join one: "Rally Around the Flag", not the title "Allocating attacks"),
    or None."""
    m = _whole_words((name,), flags=re.I).search(text)
    if m is None:
        return None
    words = tuple(m.group().split())
    if not all(w[:1].isupper() or w in ("of", "the", "to", "and", "a", "an") for w in words):
        return None
    return Candidate(english_key(words), words, m.start(), m.end(), True, False, m.start() == 0)


_ENDINGS = ("ться", "ть", "ение", "ание", "ство", "ие")


def _stem(word: str) -> str:
    """A word less its infinitive or verbal-noun ending and a last vowel."""
    for end in _ENDINGS:
        if word.endswith(end) and len(word) > len(end) + 2:
            word = word[: -len(end)]
            break
    return word[:-1] if word[-1:] in "аеиоуыя" and len(word) > 3 else word


def _cognate(verb: str, forms: Sequence[str]) -> bool:
    """Whether a verb is made from one of the (one-word) renderings: "маршировать" from
    "марш", "нападать" from "нападение", "перестраиваться" from "перестроение" (their
    stems agree but for the last letter; "переставать" is another word)."""
    a = _stem(verb)
    for form in forms:
        if " " in form:
            continue
        b = _stem(form)
        shared = next(
            (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
        )
        if shared >= 4 and shared >= min(len(a), len(b)) - 1:
            return True
    return False


#: The suffixes and endings of a relational adjective made from a noun ("бой": "боевой",
#: "магия": "магический", "фланг": "фланговый"); the dictionary gives no derivation.
_RELATIONAL = re.compile(r"(?:ов|ев|н|ск|еск|ическ|альн)(?:ый|ий|ой)")


def _relational(adjective: str, noun: str) -> bool:
    """Whether an adjective (dictionary form) is made from a noun (dictionary form, one
    word): the noun's stem, less its last vowel, "й" or "ь" ("бо" of "бой") or its "-ия"
    ("маг" of "магия"), and then one relational suffix and an ending; "большой" is not
    made from "бой"."""
    stems = {noun}
    if noun[-1:] in "аеийоуыья":
        stems.add(noun[:-1])
    if noun.endswith(("ия", "ие")):
        stems.add(noun[:-2])
    return any(
        len(s) >= 2 and adjective.startswith(s) and _RELATIONAL.fullmatch(adjective[len(s) :])
        for s in stems
    )


@cache
def _vocabulary_words(lang: str) -> dict[str, tuple[str, ...]]:
    """Vocabulary term id -> the dictionary forms of its one-word renderings in `lang`."""
    return {
        t.id: tuple(_lemmas(f, lang) for f in t.renderings.get(lang, ()) if " " not in f)
        for t in core_lexicon().terms
    }


def _meet(pair: _Pair, n: int, e: Candidate, t: Candidate, bead: Bead) -> None:
    """Count bead `n` for a pair: where the two sit, whether the rendering is capitalised."""
    pair.beads.append(n)
    pair.position += abs(_relative(e, bead.source) - _relative(t, bead.target))
    if t.capitalised is not None:
        pair.caps_known += 1
        pair.caps_agree += t.capitalised


@cache
def _rule_words() -> frozenset[str]:
    """The vocabulary's `kind: term` words (hit, rank), by id."""
    return frozenset(t.id for t in core_lexicon().terms if t.kind == "term")


def _kind_of_rule_word(e: Candidate, c: Candidate, lang: str) -> bool:
    """Whether a lower-case compound of two words naming a kind of a rule word ("front
    rank", "rear rank") and a phrase of an adjective and its noun render each other: the
    noun renders the rule word, and the adjective the English word before it or no word
    the vocabulary knows ("первая шеренга", "задняя шеренга"; "передний ранг"). A subject
    described is no term: "вражеский отряд" for "enemy unit" (unit is no rule word)."""
    if len(e.words) != 2 or len(c.words) != 2 or c.verb:
        return False
    if [role for _, role in c.parts] != ["adjective", "head"]:
        return False
    before, head = english_parts(e.words)
    if len(head) != 1 or not head <= _rule_words():
        return False
    adjective, noun = foreign_parts(c.words, lang)
    return bool(noun & head) and adjective <= before


def _relative(c: Candidate, text: str) -> float:
    return (c.start + c.end) / 2 / max(len(text), 1)


def _groups(target: Sequence[Candidate]) -> list[list[Candidate]]:
    """The capitalised phrases of a translation, overlapping ones grouped, in text order."""
    groups: list[list[Candidate]] = []
    end = -1
    for c in sorted((c for c in target if c.capitalised), key=lambda c: (c.start, c.end)):
        if c.start >= end:
            groups.append([])
        groups[-1].append(c)
        end = max(end, c.end)
    return groups


def _fitting(e: Candidate, group: list[Candidate], source: str = "", lang: str = "ru") -> Candidate:
    """The phrase of a group closest to the English term's length, of those that do not
    take in the word beside the term (`_takes_in`; `source`: the term's sentence)."""
    return min(
        group,
        key=lambda c: (
            bool(source) and _takes_in(e, c, source, lang),
            abs(c.size - e.size),
            -len(c.words),
            c.key,
        ),
    )


def _single(
    bead: Bead, english: list[Candidate], target: list[Candidate], lang: str
) -> tuple[str, str] | None:
    """The one pair a bead can only mean, or None: a 1-1 bead, one unknown English term,
    one group of overlapping capitalised phrases in the translation (its phrase of the
    English term's length)."""
    if not bead.one_to_one or len(english) != 1:
        return None
    groups = _groups([c for c in target if not _initials(c, bead.target)])
    if len(groups) != 1:
        return None
    return english[0].key, _fitting(english[0], groups[0], bead.source, lang).key


def _initials(c: Candidate, text: str) -> bool:
    """Whether a word in capitals is the initials of words side by side in the sentence
    ("ОЗ" beside "очков здоровья"): that phrase written short, no name of its own."""
    word = c.words[0]
    if len(c.words) != 1 or not 2 <= len(word) <= 5 or not word.isupper():
        return False
    heads = "".join(w[0] for w in _WORDS.findall(text) if w != word).lower()
    return word.lower() in heads


_CAPITALS = re.compile(r"(?<![\w-])[^\W\d_a-z]{2,5}(?![\w-])")


def _abbreviated(found: Sequence[Sequence[Candidate]]) -> dict[str, Candidate]:
    """The drop's abbreviations: initials (lower case) -> the one phrase of two words or
    more that has them ("пб" -> "пробивание брони"), where one phrase alone has them."""
    by_initials: dict[str, dict[str, Candidate]] = defaultdict(dict)
    for bead in found:
        for c in bead:
            if len(c.words) >= 2 and not c.verb:
                by_initials["".join(w[0] for w in c.words).lower()].setdefault(c.key, c)
    return {k: next(iter(v.values())) for k, v in by_initials.items() if len(v) == 1}


def _short_forms(
    text: str, found: Sequence[Candidate], short: Mapping[str, Candidate]
) -> list[Candidate]:
    """The phrases a sentence writes as their initials ("+1 к ПБ": "пробивание брони"),
    where it does not write them whole: an occurrence of the phrase, at the initials."""
    have = {c.key for c in found}
    out = []
    for m in _CAPITALS.finditer(text):
        if not m.group().isupper():
            continue
        whole = short.get(m.group().lower())
        if whole is not None and whole.key not in have:
            have.add(whole.key)
            # capitals tell nothing there: read as at a sentence start
            out.append(replace(whole, start=m.start(), end=m.end(), capitalised=None, initial=True))
    return out


#: A value right after a term: a number or X ("Strength 4", "Strength X").
_VALUE_AFTER = re.compile(r"^ (\d+|X)(?![\w+])")
#: An abbreviation in capitals with its value after it ("С 4", "БП 1", "С X").
_ABBREVIATION_VALUE = re.compile(r"(?<![\w-])([А-ЯЁ]{1,3}) ?(\d+|[XХ])(?![\w+])")


def _valued(
    text: str, english: Iterable[Candidate], source: str
) -> list[tuple[Candidate, Candidate]]:
    """The English terms and the translation's abbreviations that give one value each,
    the one term and the one abbreviation of each value in the sentence ("Strength 4 with
    Armour Penetration 1", "С 4, БП 1"); an abbreviation opening a sentence may be a
    word ("С 4 моделями")."""
    terms: dict[str, list[Candidate]] = defaultdict(list)
    for c in english:
        m = _VALUE_AFTER.match(source[c.end :])
        if c.capitalised and m is not None:
            terms[m.group(1)].append(c)
    short: dict[str, list[Candidate]] = defaultdict(list)
    for m in _ABBREVIATION_VALUE.finditer(text):
        before = text[: m.start()].rstrip()
        if not before or before[-1] in ".!?":
            continue
        value = "X" if m.group(2) == "Х" else m.group(2)
        word = m.group(1)
        short[value].append(
            Candidate(word.lower(), (word,), m.start(), m.start() + len(word), True, False, False)
        )
    return [
        (terms[v][0], short[v][0])
        for v in terms
        if len(terms[v]) == 1 and len(short.get(v, ())) == 1
    ]


_IN_BRACKETS = re.compile(r"\([^()]*(?:\([^()]*\)[^()]*)*\)")
#: The rest of a run of English that a bracket in the translation's own words glosses.
#: Possessive: a long run of English with no bracket after it (a bilingual draft's
#: sentence) would otherwise be split into words every way before failing, exponentially.
_GLOSSED_RUN = re.compile(r"(?:[A-Za-z'’-]++|[ \t])*+\(\s*[^\W\d_A-Za-z]")
_ENGLISH_BEFORE = re.compile(r"[A-Za-z][A-Za-z'’-]*[ \t]+$")


def _left_in_english(text: str, terms: Iterable[Candidate]) -> list[Candidate]:
    """The capitalised English terms a translation writes as they are, outside brackets
    ("на Core отряды", "Ward Save 5+"): the term left untranslated, a rendering of its
    own. A name in brackets is the English named, not rendered ("Ярость (Rage)"), and a
    term inside a longer run of English that a bracket in the translation's words glosses
    is that run's ("Attacks against the Rider (атаки против всадника)")."""
    inside = [m.span() for m in _IN_BRACKETS.finditer(text)]
    out = []
    for e in terms:
        if not e.capitalised:
            continue
        for m in _whole_words((" ".join(e.words),)).finditer(text):
            tail = _GLOSSED_RUN.match(text, m.end())
            if tail and (
                re.search(r"[A-Za-z]", tail.group()) or _ENGLISH_BEFORE.search(text[: m.start()])
            ):
                continue  # in a longer run the draft glosses: "the Rider (всадника)"
            if not any(a <= m.start() < b for a, b in inside):
                # in its dictionary form, the English term's: "Talismans" is "Talisman"
                pairs = zip(e.key.split(), e.words, strict=True)
                words = tuple(k[:1].upper() + k[1:] if w[:1].isupper() else k for k, w in pairs)
                out.append(Candidate(e.key, words, m.start(), m.end(), True, False, False))
                break
    return out


def _two(english: list[Candidate], target: list[Candidate]) -> list[tuple[str, str]]:
    """Two unknown English terms and two capitalised phrases: paired in order only when
    the word counts say so and the crossed pairing would not fit them."""
    groups = _groups(target)
    if len(english) != 2 or len(groups) != 2:
        return []
    first, second = sorted(english, key=lambda c: c.start)
    if first.size == second.size:
        return []
    pairs = [(e, _fitting(e, g)) for e, g in zip((first, second), groups, strict=True)]
    if any(t.size != e.size for e, t in pairs):
        return []
    return [(e.key, t.key) for e, t in pairs]


def _left_alone(
    bead: Bead,
    english: Mapping[str, Candidate],
    free: Mapping[str, Candidate],
    fixed: Mapping[str, Candidate],
    settled: set[str] | dict[str, Any],
    taken: set[str],
    lang: str,
    every: Sequence[Candidate] = (),
) -> list[tuple[str, str]]:
    """`_single` (or `_two`) on what a bead has left once the settled English terms, and
    the phrases inside their renderings and inside what the glossary fixes, are taken out
    of it: inside any place the bead writes them (`every`: all its phrases), not the last
    only ("Предметы Армейской Книги ... в каждой Армейской Книге": the first holds the
    taken "армейская книга" as well)."""
    if not bead.one_to_one:
        return []
    # a lower-case English term pairs by the vocabulary alone: it leaves no term unread
    unknown = [e for e in english.values() if e.key not in settled and e.capitalised]
    if len(unknown) not in (1, 2):
        return []
    pool = every or [*free.values(), *fixed.values()]
    used = [c for c in pool if c.key in taken or c.key in fixed]
    left = [c for c in free.values() if c.key not in taken and _own_capital(c, used)]
    if len(unknown) == 2:
        return _two(unknown, left)
    one = _single(bead, unknown, left, lang)
    return [one] if one is not None else []


def _own_capital(c: Candidate, used: Sequence[Candidate]) -> bool:
    """Whether a phrase keeps a capital of its own once the settled phrases are taken out:
    not inside one of them, and not capitalised only through the words it shares with one
    ("дистанцию Случайного движения" around the settled "Случайное движение")."""
    over = [u for u in used if c.start < u.end and u.start < c.end]
    if any(u.start <= c.start and c.end <= u.end for u in over):
        return False
    theirs = {w for u in over for w in u.words}
    capitals = [w for i, w in enumerate(c.words) if w[:1].isupper() and (i or not c.initial)]
    return not over or any(w not in theirs for w in capitals)


def _as_written(form: str, found: list[Candidate]) -> str:
    """A vocabulary rendering in the capitals the drop gives it away from sentence starts
    (as the vocabulary writes it where the drop has it only there)."""
    words = form.split()
    if not any(not c.initial for c in found) or len(found[0].words) != len(words):
        return form
    caps = _capitals(found)
    pairs = zip(words, caps, strict=True)
    return " ".join(w[:1].upper() + w[1:] if cap else w.lower() for w, cap in pairs)


def _capitals(found: list[Candidate]) -> tuple[bool, ...]:
    """Per word, capitalised as most often written away from a sentence start; a phrase
    seen only at sentence starts keeps its first capital only when it is one word."""
    n = len(found[0].words)
    inner = [c for c in found if not c.initial]
    if inner:
        votes = [Counter(c.words[i][:1].isupper() for c in inner) for i in range(n)]
        return tuple(v[True] >= v[False] and v[True] > 0 for v in votes)
    rest = Counter(tuple(w[:1].isupper() for w in c.words[1:]) for c in found).most_common(1)
    return (n == 1, *rest[0][0])


def suggest(
    beads: Iterable[Bead],
    lang: str = "ru",
    glossary: Glossary | None = None,
    min_count: int = 2,
    min_score: float = MIN_SCORE,
    verbs: bool = True,
) -> list[Suggestion]:
    """Term pairs from the beads, best first (see the module docstring); with `verbs`,
    the verbs of the rules too (`verb_terms`)."""
    known_en, known_target, lexicon, alias = _known(glossary, lang)
    lexicon_forms: dict[str, dict[str, str]] = {}  # English key -> lemmas -> as written
    english_forms: dict[str, tuple[str, ...]] = {}  # ... -> the term's English forms
    for t in core_lexicon().terms:
        key = english_key(t.renderings["en"][0].split())
        lexicon_forms[key] = {_lemmas(f, lang): f for f in t.renderings.get(lang, ())}
        english_forms[key] = t.renderings["en"]
    first_form = {k: forms[0] for k, forms in english_forms.items()}
    subjects = {
        english_key(t.renderings["en"][0].split())
        for t in core_lexicon().terms
        if t.kind == "subject"
    }
    beads = list(beads)
    en_count: Counter[str] = Counter()
    target_count: Counter[str] = Counter()
    pairs: dict[tuple[str, str], _Pair] = defaultdict(_Pair)
    en_seen: dict[str, list[Candidate]] = defaultdict(list)
    target_seen: dict[str, list[Candidate]] = defaultdict(list)
    spots: dict[str, list[tuple[int, int, int]]] = defaultdict(list)  # (bead, start, end)
    en_spots: dict[str, list[tuple[int, int, int]]] = defaultdict(list)  # every occurrence
    en_where: dict[str, list[tuple[Candidate, int]]] = defaultdict(list)
    compound_keys: set[str] = set()
    singles: set[tuple[str, str]] = set()
    named: dict[tuple[str, str], Candidate] = {}  # the rendering as the bracket names it
    valued: set[tuple[str, str]] = set()  # abbreviations written with the term's value
    second_names: dict[str, set[str]] = defaultdict(set)  # ... and its other name there
    left_english: set[str] = set()  # English terms a translation keeps as they are
    seen: list[tuple[dict[str, Candidate], dict[str, Candidate], dict[str, Candidate]]] = []
    found_all: list[list[Candidate]] = []  # every phrase of each bead's translation
    described: set[tuple[int, str]] = set()  # (bead, an adjective of a unit or a model)
    bare: dict[int, set[str]] = {}  # each bead's English terms with no unit or model after
    # a word the dictionary reads two ways alike is read as the drop's other forms say
    readings = drop_readings(b.target for b in beads) if lang == "ru" else {}

    def read(text: str) -> list[Candidate]:
        return [
            reread(c, readings) for c in candidates(text, lang) if not _deed(c) and not _count(c)
        ]

    written_short = _abbreviated([read(b.target) for b in beads])

    def see(c: Candidate, n: int) -> None:
        """Count a phrase of the translation of bead `n`."""
        target_seen[c.key].append(c)
        spots[c.key].append((n, c.start, c.end))
        target_count[c.key] += 1

    for n, bead in enumerate(beads):
        english: dict[str, Candidate] = {}
        capitalised = _verb_apart(candidates(bead.source, "en"))
        lower = _lower_compounds(bead.source, capitalised)
        compounds = {c.key for c in lower}
        compound_keys |= compounds
        for c in (*capitalised, *_lower_terms(bead.source, capitalised), *lower):
            key = alias.get(c.key, c.key)
            if key not in known_en:
                english.setdefault(key, replace(c, key=key) if key != c.key else c)
                en_spots[key].append((n, c.start, c.end))
        found = read(bead.target)
        found += _states(bead.target, found)
        adjectives = _named_adjectives(found, lang)
        found += adjectives
        described.update((n, c.key) for c in adjectives)
        found += _short_forms(bead.target, found, written_short)
        kept = _left_in_english(bead.target, english.values())
        left_english.update(c.key for c in kept)
        found += kept
        # verbs pair with the core vocabulary's verbs only: free, every verb of a sentence
        # would compete with its nouns
        free = {
            c.key: c
            for c in found
            if c.key not in known_target and not c.verb and c.key not in _measure_words(lang)
        }
        fixed = {c.key: c for c in found if c.key in known_target}
        for c in english.values():
            en_seen[c.key].append(c)
            en_where[c.key].append((c, n))
        bare[n] = {c.key for c in english.values() if not _kind_after(bead.source, c)}
        for c in (*free.values(), *fixed.values()):
            see(c, n)
        en_count.update(english.keys())
        extra: dict[str, Candidate] = {}  # verbs of the core vocabulary met in this bead
        for e in english.values():
            # an English phrase the translation keeps is that term's only
            allowed = {k: c for k, c in free.items() if k not in left_english or k == e.key}
            if e.key in compounds and e.key not in lexicon:
                # a lower-case compound pairs only with a phrase made of its words, a noun
                # and its complements ("контакт основаниями"; "вражеский отряд" for "enemy
                # unit" is a noun described, not a term)
                allowed = {
                    c.key: c
                    for c in free.values()
                    if all(role != "adjective" for _, role in c.parts)
                    and composed(e.words, c.words, lang)
                }
                allowed.update((c.key, c) for c in free.values() if _kind_of_rule_word(e, c, lang))
            elif e.key in lexicon:
                # the core vocabulary's renderings and their verbs when the bead has one
                # ("марш", "маршировать"); the drop's own word when it has none ("натиск"
                # where the vocabulary says "нападение")
                forms = lexicon[e.key]
                allowed = {
                    c.key: c for c in found if c.key in forms or (c.verb and _cognate(c.key, forms))
                }
                if not allowed and e.capitalised:  # a word in lower case is everywhere
                    allowed = free
                for c in allowed.values():
                    if c.key not in free and c.key not in fixed and c.key not in extra:
                        extra[c.key] = c
                        see(c, n)
            for t in allowed.values():
                _meet(pairs[(e.key, t.key)], n, e, t, bead)
            if e.key in lexicon:
                # the vocabulary's one rendering here (its one noun, whatever verbs beside
                # it); a verb made from one only alone in a 1-1 bead
                own = [c for c in allowed.values() if c.key in lexicon[e.key]]
                nouns = [c for c in own if not c.verb] or own
                if len(nouns) == 1:
                    singles.add((e.key, nouns[0].key))
                elif len(allowed) == 1 and bead.one_to_one:
                    singles.add((e.key, next(iter(allowed))))
        for e, t in (*_bracketed(bead, english, found, lang), *_glossed(bead, english, found)):
            if e.key not in english:  # named inside a longer English term
                english[e.key] = e
                en_seen[e.key].append(e)
                en_count[e.key] += 1
            key = (e.key, t.key)
            if t.key not in free and t.key not in fixed and t.key not in extra:
                see(t, n)
            if n not in pairs[key].beads:
                _meet(pairs[key], n, english[e.key], t, bead)
            named.setdefault(key, t)
        for e_key, t_key in _also_named(bead, english, found):
            second_names[e_key].add(t_key)
        unknown = [e for e in english.values() if e.key not in lexicon and e.capitalised]
        one = _single(bead, unknown, list(free.values()), lang)
        if one is not None:
            singles.add(one)
        for e, t in _valued(bead.target, english.values(), bead.source):
            if t.key in known_target or any(c.key == t.key for c in found):
                continue  # a word of its own, read already
            see(t, n)
            _meet(pairs[(e.key, t.key)], n, e, t, bead)
            valued.add((e.key, t.key))
        seen.append((english, free, fixed))
        found_all.append(found)
    headed: set[tuple[str, str]] = set()
    for h in headings(beads, lang):
        h = replace(h, target=reread(h.target, readings))
        e_key = alias.get(h.english.key, h.english.key)
        vocabulary = lexicon.get(e_key, ())
        if e_key in known_en or (h.target.key in known_target and h.target.key not in vocabulary):
            continue
        english, free, _ = seen[h.bead]
        if e_key not in english:
            english[e_key] = replace(h.english, key=e_key)
            en_seen[e_key].append(english[e_key])
            en_where[e_key].append((english[e_key], h.bead))
            en_count[e_key] += 1
        if h.target.key not in free:
            free[h.target.key] = h.target
            see(h.target, h.bead)
        key = (e_key, h.target.key)
        if h.bead not in pairs[key].beads:
            _meet(pairs[key], h.bead, english[e_key], free[h.target.key], beads[h.bead])
        headed.add(key)

    def _lexical(key: tuple[str, str]) -> bool:
        """A pair the vocabulary makes: one of its renderings, or a verb made from one
        (a noun that merely looks like one, "бронь" beside "Бронебойность", is not)."""
        e, t = key
        if e not in lexicon:
            return False
        return t in lexicon[e] or (target_seen[t][0].verb and _cognate(t, lexicon[e]))

    # Whether capitals tell anything: a drop that writes the vocabulary's rule terms in
    # lower case ("нападение" for Charge) writes the rest so too. A subject ("отряд") is
    # in lower case in every hand: no evidence.
    lexical = [
        p
        for k, p in pairs.items()
        if _lexical(k) and not target_seen[k[1]][0].verb and k[0] not in subjects
    ]
    known = sum(p.caps_known for p in lexical)
    capitals = known < HOUSE_STYLE_NEEDS or 2 * sum(p.caps_agree for p in lexical) >= known

    vocabulary_use: dict[str, tuple[set[int], int]] = {}  # beads with any rendering, most
    for (e, t), pair in pairs.items():
        if _lexical((e, t)):
            beads_of, best = vocabulary_use.get(e, (set(), 0))
            vocabulary_use[e] = (beads_of | set(pair.beads), max(best, len(pair.beads)))

    def score(key: tuple[str, str]) -> float:
        e, t = key
        pair = pairs[key]
        together = len(pair.beads)
        if _lexical(key):
            # the vocabulary already pairs them: the questions are only how often the drop
            # uses its renderings where the English has the term, and which one most
            beads_of, best = vocabulary_use[e]
            return len(beads_of) / en_count[e] * together / best
        dice = 2 * together / (en_count[e] + target_count[t])
        position = 1 - pair.position / together
        caps = pair.caps_agree / pair.caps_known if pair.caps_known and capitals else 1.0
        size = 1 - 0.1 * min(abs(en_seen[e][0].size - target_seen[t][0].size), 3)
        found = dice * (0.8 + 0.2 * position) * (0.8 + 0.2 * caps) * size
        if _made_of_vocabulary(key) or key in headed:
            found = max(found, COMPOSED_SCORE)
        elif key in partly or key in family or (key in valued and together >= min_count):
            found = max(found, PARTLY_SCORE)
        # the translation names it with the English in brackets: as sure as a bead gets
        return max(found, NAMED_SCORE) if key in named else found

    @cache
    def _made_of_vocabulary(key: tuple[str, str]) -> bool:
        """Both made of the same vocabulary words ("раунд боя" for Round of Combat)."""
        e, t = key
        t_seen = target_seen[t][0]
        return (
            e not in lexicon
            and (e not in compound_keys or en_count[e] >= COMPOUND_NEEDS)
            and not t_seen.verb
            and not all(heads_text(c, beads[n].source) for c, n in en_where[e])
            and composed(en_seen[e][0].words, t_seen.words, lang)
        )

    # Made of the vocabulary's words but one on each side ("Special Save", "особый
    # спасбросок"): believed from one bead where no other phrase of the bead is so.
    named_terms = {e for e, _ in named}  # their renderings are the brackets' own

    def _partly(
        induced: tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]] | None = None,
    ) -> set[tuple[str, str]]:
        """The pairs made of the vocabulary's words (and what `induced` adds) but one on
        each side, each the one such reading of its bead."""
        out: set[tuple[str, str]] = set()
        for n, (english, free, _) in enumerate(seen):
            if induced is not None and not (
                any(w in induced[0] for e in english.values() for w in e.key.split())
                or any(w in induced[1] for t in free.values() for w in t.key.split())
            ):
                continue  # nothing the drop's pairs add is here: read already
            said = bead_words[n]
            shaped = {  # English term -> the phrases of the bead made of its words but one
                e.key: [
                    t.key
                    for t in free.values()
                    if not t.verb
                    and composed_but_one(
                        e.words, t.words, lang, induced, lambda i, s=said: i not in s
                    )
                ]
                for e in english.values()
                if e.capitalised and e.key not in lexicon and e.key not in compound_keys
            }

            for e in english.values():
                fits = shaped.get(e.key, [])
                if len(fits) > 1:  # "Гигантского роста чудовища": "гигантский" is "gigantic"
                    fits = _loaned(e, [free[k] for k in fits], lang, induced) or fits
                if len(fits) != 1 or n not in pairs[(e.key, fits[0])].beads:
                    continue
                if any(
                    fits[0] in other
                    for k, other in shaped.items()
                    if k != e.key and k not in named_terms
                ):
                    continue  # two terms of the bead fit it ("Wizard Level", "Wizard Adept")
                if all(_activity(c, beads[m].source) for c, m in en_where[e.key]):
                    continue  # a section title said once ("Learning Spells:") is no term yet
                if len(pairs[(e.key, fits[0])].beads) == 1 and _rival_phrase(e, beads[n].source):
                    continue  # the bead leaves two readings: not one term's evidence
                fixed = [c for c in found_all[n] if c.key in seen[n][2]]
                if _said_short(e, free[fits[0]], fixed, beads[n].source, lang):
                    continue  # "Attack Value" is "Атаки" there; "Навык атаки" is another's
                if _title_dropped(e.key, free[fits[0]], n):
                    continue  # "Unit Width:" is not said; "сомкнутом отряде" is the rule's
                out.add((e.key, fits[0]))
        return out

    def _title_dropped(e: str, t: Candidate, n: int) -> bool:
        """Whether a term is only ever the title of its paragraph ("Unit Width: a unit in
        Close Formation ...") and the translation of bead `n` does not open with the phrase:
        the translator left the title out (a condensing or free hand does), and the phrase
        renders the rule's words, not its name."""
        if not all(heads_text(c, beads[m].source) for c, m in en_where[e]):
            return False
        return bool(_WORDS.search(beads[n].target[: t.start]))

    # the vocabulary words each translation says, for a word the drop renders its own way
    bead_words = [
        frozenset().union(*foreign_parts(tuple(_WORDS.findall(b.target)), lang)) for b in beads
    ]
    partly = _partly()
    grown_all: set[tuple[str, str]] = set()  # ... read with the drop's own pairs

    def _says_other_words(key: tuple[str, str]) -> bool:
        """Whether every word of a rendering of two or more is the vocabulary's word for
        something the English term does not say ("вражеский отряд", enemy and unit, is no
        rendering of "Objective Marker", however often the two meet). One such word is no
        proof: "Навык атаки" renders "Offensive Skill"."""
        theirs = foreign_parts(target_seen[key[1]][0].words, lang)
        if len(theirs) < 2 or not all(theirs):
            return False
        ours = set().union(*english_parts(en_seen[key[0]][0].words))
        return not any(part & ours for part in theirs)

    def _words_around(key: tuple[str, str]) -> bool:
        """Whether a rendering has a vocabulary word that, in every bead of the pair, renders
        the English word right before the term or governing it (`_takes_in`: "конец хода"
        beside "the end of the Player Turn": "конец" is the sentence's "end", the term is
        "ход")."""
        where = {n: c for c, n in en_where[key[0]]}
        rendering = target_seen[key[1]][0]
        return all(
            n in where
            and (
                _takes_in(where[n], rendering, beads[n].source, lang)
                or _takes_in_after(where[n], rendering, beads[n].source, lang)
            )
            for n in set(pairs[key].beads)
        )

    def _own_term(key: str) -> bool:
        """A capitalised term of the vocabulary (Character), or a capitalised run the drop
        writes on its own ("units of Standard Size")."""
        if key in lexicon:
            return first_form.get(key, "")[:1].isupper()
        return any(c.capitalised for c in en_seen.get(key, ()))

    def _only_listed(key: str, right: Sequence[str]) -> bool:
        """Whether a word is written on its own only as an item of a list whose last item
        ends with `right` ("of Standard, Large or Gigantic Height"): the list shares its
        last word, and each item is the whole term written short."""
        if key in lexicon or not en_where.get(key):
            return False
        tail = r"(?:,? (?:or|and) |, )(?:[A-Z][\w-]*(?:,? (?:or|and) |, ))*[A-Z][\w-]* "
        ending = re.compile(tail + "(?i:" + re.escape(" ".join(right)) + r")(?![\w-])")
        return all(
            len(c.words) == 1 and ending.match(beads[n].source[c.end :]) is not None
            for c, n in en_where[key]
        )

    @cache
    def _side_by_side(e: str) -> bool:
        """Whether a capitalised run is two terms side by side, each written on its own
        elsewhere: "a Character of Standard Size" is Character and Standard Size, "Unbreakable
        Characters" the rule Unbreakable and Character; no term of its own. A run written in
        more sentence pairs than its first part alone, a word of the drop's own, is a name
        of its own ("a model with Towering Presence" beside a title's "Seeing the
        Towering")."""
        words = e.split()
        for i in range(1, len(words)):
            left, right = words[:i], words[i:]
            if right[0] == "of":
                right = right[1:]
            if not right or left[-1] in ("of", "the", "to", "and") or right[0] in ("the", "to"):
                continue
            if _own_term(english_key(left)) and _own_term(" ".join(right)):
                first = english_key(left)
                if first not in lexicon and en_count[e] > en_count[first]:
                    continue  # "Towering Presence", written more often than "Towering"
                if _only_listed(english_key(left), right):
                    continue  # "Standard, Large or Gigantic Height": Large Height shortened
                return True
        return False

    def eligible(key: tuple[str, str]) -> bool:
        if key in named or key in headed:
            return True
        beads_of = pairs[key].beads
        if all((b, key[1]) in described and key[0] not in bare[b] for b in beads_of):
            return False  # "Foot-and-Rank models", "рядовые модели": said with its models
        if _side_by_side(key[0]):
            return False
        if _made_of_vocabulary(key):
            return True
        pair = pairs[key]
        together = len(pair.beads)
        # capitals that disagree, where capitals mean it, refuse a guess ("установка
        # отряда") and a pair with thin evidence
        disagree = capitals and pair.caps_known and not pair.caps_agree
        if (key in partly or key in family) and not disagree:
            return True
        if _lexical(key):
            return together >= min_count or key in singles
        if together < min_count and key not in singles:
            return False
        if _says_other_words(key) or _words_around(key):
            return False
        return not (disagree and together < UNCAPITALISED_NEEDS)

    def _order(
        spots_a: Sequence[tuple[int, int, int]], spots_b: Sequence[tuple[int, int, int]], n: int
    ) -> bool | None:
        """Whether every occurrence of one term in bead `n` comes before every occurrence
        of the other (False: every one after; None: both ways, or either absent)."""
        a = [(s, x) for m, s, x in spots_a if m == n]
        b = [(s, x) for m, s, x in spots_b if m == n]
        if not a or not b:
            return None
        if max(x for _, x in a) <= min(s for s, _ in b):
            return True
        if max(x for _, x in b) <= min(s for s, _ in a):
            return False
        return None

    def _crossed(e: str, t: str) -> bool:
        """Whether the counts cannot tell a pair from its crossed twin and the order of the
        words can: another free term `e2` and rendering `t2` of the same beads pair with
        these two the other way round about as well (within `CROSSED_CLOSE`), and in every
        bead holding all four the English gives `e`, `e2` in the order the translation
        gives `t2`, `t` ("a Wizard Adept two spells and a Wizard Master four", "адепт два,
        а мастер четыре": the Adept is "адепт", though "мастер" counts as high)."""
        best = scored[(e, t)] * CROSSED_CLOSE
        for t2 in rivals_of[e]:
            if t2 == t or t2 in taken or scored.get((e, t2), 0.0) < best:
                continue
            for e2 in rivals_of_target[t]:
                if e2 == e or e2 in chosen or scored.get((e2, t), 0.0) < best:
                    continue
                shared = set(pairs[(e, t2)].beads) & set(pairs[(e2, t)].beads)
                said = [
                    (_order(en_spots[e], en_spots[e2], n), _order(spots[t], spots[t2], n))
                    for n in sorted(shared)
                ]
                if said and all(a is not None and b is not None and a != b for a, b in said):
                    return True
        return False

    def _described(e: str, t: str) -> bool:
        """Whether a phrase is a rendering already taken with adjectives before it, and the
        term that took it is in every bead of the pair: that term described ("наибольшая
        численность" beside "the highest Unit Strength", with "численность" taken by Unit
        Strength), no rendering of another ("Breaks", in the same sentence); or a phrase
        whose complement is so taken: the other term's thing ("Сектор Заклинателя" beside
        "the Caster's Front Arc", with "Заклинатель" taken by Caster)."""
        c = target_seen[t][0]
        roles = [role for _, role in c.parts]
        k = next((i for i, role in enumerate(roles) if role != "adjective"), len(roles))
        rest = " ".join(t.split()[k:])
        if not k or k == len(roles) or rest not in taken:
            words = t.split()
            rest = next(
                (" ".join(words[i:]) for i in range(1, len(words)) if " ".join(words[i:]) in taken),
                "",
            )
            if not rest:
                return False
        owner = next((e2 for e2, t2 in chosen.items() if t2 == rest), None)
        if owner is None or {w[:MIN_STEM] for w in owner.split()} & {
            w[:MIN_STEM] for w in e.split()
        }:
            # "Flying Advance Rate": the term names the other's words itself, in any form
            # ("Rally Test", "тест на сбор", beside "Rallying", "Сбор")
            return False
        return set(pairs[(e, t)].beads) <= set(pairs[(owner, rest)].beads)

    shared = _shared_words(seen, lang)
    # the shared word itself, where the drop writes it as a term of its own ("Its Height")
    family = {
        (w, t)
        for t, ids in shared[1].items()
        for w in (next(iter(ids))[1:],)
        if len(pairs.get((w, t), _Pair()).beads) >= min_count
        and sum(1 for k in en_seen if " " in k and w in k.split()) >= 2
    }
    rivals_of: dict[str, set[str]] = defaultdict(set)  # English term -> its renderings
    rivals_of_target: dict[str, set[str]] = defaultdict(set)  # ... and back
    for e_, t_ in pairs:
        rivals_of[e_].add(t_)
        rivals_of_target[t_].add(e_)
    chosen: dict[str, str] = {}
    taken: set[str] = set()
    taken_by_stem: dict[str, list[str]] = defaultdict(list)  # one-word renderings taken
    inside: dict[int, list[tuple[int, int]]] = defaultdict(list)  # spans of taken renderings
    en_inside: dict[int, list[tuple[int, int]]] = defaultdict(list)  # ... of chosen terms
    last_induced: tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]] = ({}, {})
    en_words: dict[str, set[int]] = defaultdict(set)  # English word as written -> beads
    for n, b in enumerate(beads):
        for w in _WORDS.findall(b.source):
            en_words[w].add(n)
    scored: dict[tuple[str, str], float] = {}
    while True:
        scored = {k: score(k) for k in pairs if eligible(k)}
        order = sorted(
            scored,
            key=lambda k: (
                k not in named and k not in headed,
                -scored[k],
                -len(pairs[k].beads),
                -len(k[1].split()),
                k,
            ),
        )
        for e, t in order:
            if scored[(e, t)] < min_score or e in chosen or t in taken:
                continue
            if _covered(spots[t], inside, set(pairs[(e, t)].beads)):
                continue
            if (e, t) not in named and _crossed(e, t):  # a bracket outweighs word order
                continue  # "Wizard Adept" is "адепт", said first as the English says it
            plain = (e, t) not in named and (e, t) not in headed and not _lexical((e, t))
            if plain and " " not in t and _cognate(t, taken_by_stem.get(_stem(t)[:4], ())):
                continue  # "бесстрашный" beside the taken "Бесстрашие" is Fearless's word
            if plain and _covered(en_spots[e], en_inside, set(pairs[(e, t)].beads)):
                continue  # "Stand" only inside "Stand and Shoot", which is taken
            if plain and _described(e, t):
                continue  # "наибольшая численность" is the highest Unit Strength
            chosen[e] = t
            taken.add(t)
            if (e, t) in named:  # the bracket's other name is this term's, no other's
                taken.update(second_names.get(e, ()))
            if " " not in t:
                taken_by_stem[_stem(t)[:4]].append(t)
            for n, start, end in spots[t]:
                inside[n].append((start, end))
            for n, start, end in _written_spots(en_seen[e], beads, en_words):
                en_inside[n].append((start, end))
        settled = {*chosen, *lexicon}
        more = {
            pair
            for bead, (english, free, fixed), every in zip(beads, seen, found_all, strict=True)
            for pair in _left_alone(bead, english, free, fixed, settled, taken, lang, every)
        } - singles
        more = {(e, t) for e, t in more if e not in chosen and t not in taken}
        # the drop's own renderings of one word read as vocabulary: "реакция на натиск"
        # is Charge Reaction once Charge is "натиск"
        induced = _induced(chosen, lexicon, lang)
        induced = (
            {**shared[0], **induced[0]},
            {**shared[1], **induced[1]},
        )
        grown = set()
        if induced != last_induced:  # nothing new settled: nothing new to read
            last_induced = induced
            grown = {
                (e, t) for e, t in _partly(induced) - partly if e not in chosen and t not in taken
            }
        if not more and not grown:
            break
        singles |= more
        partly |= grown
        grown_all |= grown

    def _rendering(t: str) -> str:
        """A rendering in its dictionary form: a verb's is its infinitive."""
        if any(c.verb for c in target_seen[t]):
            return t
        return _form(target_seen[t])

    def _verb_of(e: str, noun: str) -> Suggestion | None:
        """A vocabulary term's verb as an entry of its own, as a team lists it: where the
        English writes the term as a lower-case word of its own ("may pursue it" beside
        Pursuit) and the translation has there a verb made from the rendering
        ("преследовать" from "преследование")."""
        if any(c.verb for c in target_seen[noun]):
            return None  # the proposal is the verb already ("маршировать")
        own = [
            f for f in english_forms.get(e, ()) if f[:1].islower() and english_key(f.split()) != e
        ]
        if not own:
            return None
        pattern = _whole_words(own)
        best: tuple[int, str, Counter[str]] | None = None
        for (e2, v), pair in pairs.items():
            if e2 != e or v == noun or v in taken or not _lexical((e2, v)):
                continue
            if not any(c.verb for c in target_seen[v]):
                continue
            written: Counter[str] = Counter()
            for n in set(pair.beads):
                written.update(m.group() for m in pattern.finditer(beads[n].source))
            together = sum(1 for n in set(pair.beads) if pattern.search(beads[n].source))
            if together and (best is None or together > best[0]):
                best = (together, v, written)
        if best is None:
            return None
        together, v, written = best
        source = _verb_base(written.most_common(1)[0][0], english_forms[e])
        if english_key(source.split()) == e:
            return None  # "charging" is to charge: a variant of Charge's entry, not one more
        note = LEXICAL + "; the verb of " + first_form.get(e, e)
        confidence = score((e, v))
        if together == 1:
            note += "; " + UNSURE + "one occurrence"
            confidence = min(confidence, UNSURE_CONFIDENCE)
        pair = pairs[(e, v)]
        return Suggestion(
            term=slugify(source, fallback="term"),
            source=source,
            target=v,
            lang=lang,
            together=together,
            source_count=sum(written.values()),
            target_count=len(target_seen[v]),
            score=round(confidence, 3),
            example=beads[pair.beads[0]],
            note=note,
        )

    def _complement(e: str, t: str) -> tuple[str, str] | None:
        """The everyday word a term is written with and its rendering with: where every
        English occurrence of the pair is followed by "in" and a capitalised word of the
        vocabulary ("Engaged in Combat", which is the word combat, no term of its own) and
        every occurrence of the rendering by that word's rendering ("Связан Боем"), both
        are the term's words: ("Engaged in Combat", "боем"); else None."""
        where = set(pairs[(e, t)].beads)
        after = {
            (m.group(1), m.group(2)) if m else None
            for c, n in en_where[e]
            if n in where and not beads[n].source.startswith(":", c.end)  # a title's end
            for m in (_IN_WORD.match(beads[n].source, c.end),)
        }
        if len(after) != 1 or None in after:
            return None
        preposition, word = next(iter(after))
        wanted = english_parts((word,))[0]
        if not wanted:
            return None
        written: Counter[str] = Counter()
        for n, _, end in spots[t]:
            if n not in where:
                continue
            m = _NEXT_WORD.match(beads[n].target, end)
            if m is None or not foreign_parts((m.group(1),), lang)[0] & wanted:
                return None
            written[m.group(1)] += 1
        if not written:
            return None
        return f"{preposition} {word}", written.most_common(1)[0][0]

    def _state_of(e: str, t: str) -> tuple[str, str] | None:
        """A vocabulary term the drop writes only as a state: every English form of it an
        -ing form ("a Fleeing unit") and half the words of the rendering or more one
        participle ("Бегущий отряд", beside "отряд не Бежит"): the term as written and the
        participle's full form, as a team lists it ("Fleeing" = "бегущий"), not the verb
        both are made from."""
        written = Counter(" ".join(c.words) for c in en_seen[e])
        if not written or not all(w.lower().endswith("ing") and " " not in w for w in written):
            return None
        full: Counter[str] = Counter()
        for c in target_seen[t]:
            read = parses(c.words[0].lower())[:1] if c.verb and len(c.words) == 1 else []
            form = read[0].inflect({"PRTF", "nomn", "sing", "masc"}) if read else None
            if form is not None and read[0].tag.POS == "PRTF":
                full[form.word] += 1
        if len(full) != 1 or sum(full.values()) * 2 < len(target_seen[t]):
            return None
        return written.most_common(1)[0][0], next(iter(full))

    def _state_beside(e: str, found: Suggestion) -> Suggestion | None:
        """A vocabulary term's state as an entry of its own, as a team lists it beside the
        term: where the English writes the term's first form ("Flee") and, elsewhere, its
        -ing form alone ("a Fleeing unit"), and the translation has there a participle of
        the term's verb in half those sentence pairs or more, two at least, in one full
        form ("Бегущий отряд": "бегущий")."""
        ing = [(c, n) for c, n in en_where[e] if len(c.words) == 1 and c.words[0].endswith("ing")]
        if not ing or len(ing) == len(en_where[e]):
            return None  # the term only as its -ing form is `_state_of`'s
        full: Counter[str] = Counter()
        said: set[int] = set()
        for _, n in ing:
            for c in found_all[n]:
                if not c.verb or len(c.words) != 1:
                    continue
                if c.key not in lexicon[e] and not _cognate(c.key, lexicon[e]):
                    continue
                read = parses(c.words[0].lower())[:1]
                if not read or read[0].tag.POS != "PRTF":
                    continue
                form = read[0].inflect({"PRTF", "nomn", "sing", "masc"})
                if form is not None:
                    full[form.word] += 1
                    said.add(n)
        beads_of = {n for _, n in ing}
        if len(full) != 1 or len(said) < min_count or 2 * len(said) < len(beads_of):
            return None
        target = next(iter(full))
        if target in taken:
            return None
        written = Counter(c.words[0] for c, _ in ing)
        source = written.most_common(1)[0][0]
        return replace(
            found,
            term=slugify(source, fallback="term"),
            source=source,
            target=target,
            together=len(said),
            source_count=len(beads_of),
            target_count=sum(full.values()),
            note=LEXICAL + "; the state of " + found.source,
            variants=(),
        )

    def _noun_of(e: str, verb: str, found: Suggestion) -> Suggestion | None:
        """A vocabulary term's noun as an entry of its own, where the proposal is its verb
        written as the drop writes it ("Pursue" = "Преследовать") and the English also
        writes the term's own first form ("Pursuit") where the translation has a noun of
        the vocabulary's ("Преследование"); from one bead with a doubt."""
        first = first_form.get(e, "")
        if not any(c.verb for c in target_seen[verb]) or found.source.lower() == first.lower():
            return None
        pattern = _whole_words((first,), "s?", re.I)
        best: tuple[int, str] | None = None
        for (e2, v), pair in pairs.items():
            if e2 != e or v == verb or v in taken or not _lexical((e2, v)):
                continue
            if any(c.verb for c in target_seen[v]):
                continue
            together = sum(1 for n in set(pair.beads) if pattern.search(beads[n].source))
            if together and (best is None or together > best[0]):
                best = (together, v)
        if best is None:
            return None
        together, v = best
        written = Counter(
            m.group() for n in set(pairs[(e, v)].beads) for m in pattern.finditer(beads[n].source)
        )
        source = written.most_common(1)[0][0]
        note = LEXICAL + "; the noun of " + found.source
        confidence = score((e, v))
        if together == 1:
            note += "; " + UNSURE + "one occurrence"
            confidence = min(confidence, UNSURE_CONFIDENCE)
        return Suggestion(
            term=slugify(source, fallback="term"),
            source=source,
            target=_as_written(lexicon_forms[e].get(v, v), target_seen[v]),
            lang=lang,
            together=together,
            source_count=sum(written.values()),
            target_count=len(target_seen[v]),
            score=round(confidence, 3),
            example=beads[pairs[(e, v)].beads[0]],
            note=note,
        )

    def _relational_whole(e: str, t: str) -> str | None:
        """The one phrase met with the term that is the rendering after one adjective made
        from the vocabulary's word for a word of the term the rendering does not say
        (`_relational`: "боевой счёт" for Combat Score beside "счёт"); else None."""
        said = set().union(*foreign_parts(target_seen[t][0].words, lang))
        unsaid = {i for p in english_parts(en_seen[e][0].words) for i in p} - said
        nouns = [w for i in sorted(unsaid) for w in _vocabulary_words(lang).get(i, ())]
        longer = set()
        for k in pairs_of[e]:
            words = k[1].split()
            if k[1] in taken or words[1:] != t.split() or target_seen[k[1]][0].verb:
                continue
            if [role for _, role in target_seen[k[1]][0].parts][:1] != ["adjective"]:
                continue
            if any(_relational(words[0], noun) for noun in nouns):
                longer.add(k[1])
        return longer.pop() if len(longer) == 1 else None

    def _english_says(ids: frozenset[str], where: Iterable[int]) -> bool:
        """Whether the English of every bead `where` writes a vocabulary word of `ids`."""
        return all(
            any(p & ids for p in english_parts(tuple(_WORDS.findall(beads[n].source))))
            for n in set(where)
        )

    def _whole(e: str, t: str) -> str | None:
        """The phrase a rendering shorter than its term stands for: the one phrase of the
        term's size that begins with it and meets the term in a pair of its own ("Dispel
        Scroll": "свиток" twice, "свиток рассеивания" once), or of one word more that
        renders the word the English gives the term by "of" ("a Path of magic": "школа
        магии", beside "школа"), or, before either, the one phrase that is the rendering
        after the relational adjective of the vocabulary's word for a word of the term
        the rendering does not say ("Combat Score": "счёт" and "боевой счёт", "боевой" of
        "бой", combat); else None."""
        relational = _relational_whole(e, t)
        if relational is not None:
            return relational
        size = en_seen[e][0].size
        ours = {i for p in english_parts(en_seen[e][0].words) for i in p}
        of_words = _of_after(en_seen[e], beads, set(pairs[(e, t)].beads))
        longer = []
        for k in pairs_of[e]:
            if k[1] == t or k[1] in taken or k[1].split()[: len(t.split())] != t.split():
                continue
            whole = target_seen[k[1]][0]
            if whole.verb:
                continue
            if whole.size == size > target_seen[t][0].size:
                # the words added render the term's words, or words the English does not
                # write beside it ("реакция на атаку", the drop's word for Charge); where
                # every English sentence writes the word they render, they are its ("счёт
                # отряда" beside "the Combat Score of its unit")
                rest = foreign_parts(whole.words[len(t.split()) :], lang)
                others = [part for part in rest if part and not part & ours]
                if not any(_english_says(part, pairs[k].beads) for part in others):
                    longer.append(k[1])
            elif whole.size == target_seen[t][0].size + 1 and of_words:
                rest = foreign_parts(whole.words[len(t.split()) :], lang)
                if len(rest) == 1 and rest[0] & of_words:
                    longer.append(k[1])
        return longer[0] if len(longer) == 1 else None

    def _shares_rendering(e: str, t: str) -> bool:
        """Whether a rendering is a part of another term's rendering where the two English
        terms share a word: it may render that word alone, not the term."""
        return any(
            e2 != e and set(e.split()) & set(e2.split()) and set(t.split()) < set(t2.split())
            for e2, t2 in chosen.items()
        )

    def _suggestion(e: str, t: str, basis: str) -> Suggestion:
        """One proposal; the vocabulary's other renderings of the term (its noun and verb)
        are variants, not rivals."""
        pair = pairs[(e, t)]
        together = len(pair.beads)
        english = en_seen[e]
        written = Counter(" ".join(c.words) for c in english if not c.initial) or Counter(
            " ".join(c.words) for c in english
        )
        source = written.most_common(1)[0][0]
        plural = sum(c.plural for c in english) * 2 > len(english)
        found = target_seen[t]
        plural = plural and sum(c.plural for c in found) * 2 > len(found)
        target = _form(found, plural)
        notes = []
        if _apart(beads, pair.beads) == 1 and basis not in (NAMED, COMPOSED, HEADED):
            notes.append("one occurrence")  # a near copy's second bead is no second one
        rivals = sorted(
            (
                s
                for (e2, t2), s in scored.items()
                if e2 == e
                and t2 != t
                and not _nested(t, t2)
                and not _lexical((e2, t2))
                # the bracket's other name, and the English left as it is, are no rivals
                # of the name a bracket gives
                and not ((e, t) in named and (t2 in second_names.get(e, ()) or t2 in left_english))
            ),
            reverse=True,
        )
        if rivals and rivals[0] >= 0.9 * scored[(e, t)]:
            notes.append("another rendering scores close")
        if not basis and len(t.split()) < len(e.split()) and _shares_rendering(e, t):
            # "мастерство" for Offensive Skill, beside "Защитное мастерство" for Defensive
            # Skill: the word both names share, read where the bead writes both
            notes.append("renders only a word another term shares")
        if pair.caps_known and not pair.caps_agree and not basis and together < UNCAPITALISED_NEEDS:
            # thin evidence against the capitals (a drop that writes its terms in lower case
            # is believed from two pairs, yet "школа" for "Path" is two pairs too)
            notes.append("capitalised in English only")
        confidence = scored[(e, t)]
        if notes:
            confidence = min(confidence, UNSURE_CONFIDENCE)
        variants = []
        own = set(pair.beads)
        for (e2, t2), s in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0])):
            if e2 != e or t2 == t or t2 in taken or _nested(t, t2) or s < MIN_SCORE:
                continue
            apart = set(pairs[(e2, t2)].beads) - own
            if len(apart) >= 2:
                variants.append(_form(target_seen[t2], plural))
        return Suggestion(
            term=slugify(source, fallback="term"),
            source=source,
            target=target,
            lang=lang,
            together=together,
            source_count=len(english),
            target_count=len(found),
            score=round(confidence, 3),
            example=beads[pair.beads[0]],
            note="; ".join(x for x in (basis, (UNSURE + ", ".join(notes)) if notes else "") if x),
            variants=tuple(variants[:1]),
        )

    pairs_of: dict[str, list[tuple[str, str]]] = defaultdict(list)  # by English term
    for k in pairs:
        if k[0] in chosen:
            pairs_of[k[0]].append(k)
    out = []
    for e, t in chosen.items():
        basis = NAMED if (e, t) in named else ""
        if not basis and _lexical((e, t)):
            basis = LEXICAL
        if not basis and _made_of_vocabulary((e, t)):
            basis = COMPOSED
        if not basis and (e, t) in headed:
            basis = HEADED
        if not basis and (e, t) in partly:
            basis = PARTLY_INDUCED if (e, t) in grown_all else PARTLY
        if not basis and (e, t) in family:
            basis = FAMILY
        if not basis and (e, t) in valued:
            basis = VALUED
        found = _suggestion(e, t, basis)
        joined = _complement(e, t) if not basis and len(found.source.split()) == 1 else None
        if joined is not None:  # "Engaged in Combat" = "Связанный Боем"
            source = f"{found.source} {joined[0]}"
            found = replace(
                found,
                source=source,
                target=f"{found.target} {joined[1]}",
                term=slugify(source, fallback="term"),
            )
        whole = _whole(e, t) if not basis else None
        if whole is not None:  # "свиток" is "свиток рассеивания" written short
            short = found.target
            found = replace(
                found,
                target=_form(target_seen[whole]),
                variants=(short, *(v for v in found.variants if v != short)),
                note="; ".join(x for x in (WRITTEN_SHORT, found.note) if x),
            )
        if (e, t) in named:  # the name as the bracket gives it, capitals and all
            c = named[(e, t)]
            form = _dictionary(c, c.plural, tuple(w[:1].isupper() for w in c.words))
            others = sorted(second_names.get(e, set()) - {t})
            seconds = tuple(
                x
                for x in (_as_named(target_seen[o]) for o in others if o in target_seen)
                if x.lower() != form.lower()
            )
            rest = (v for v in found.variants if v not in seconds and v.lower() != form.lower())
            variants = (*seconds, *rest)
            found = replace(found, target=form, variants=variants[:MAX_VARIANTS])
        elif basis == LEXICAL:
            own = lexicon_forms[e].get(t)  # none for a misread form ("брони" as "бронь")
            if own:  # the vocabulary writes its own word best ("спасбросок")
                found = replace(found, target=_as_written(own, target_seen[t]))
            # the vocabulary's other renderings the drop uses too (the verb of a noun), in
            # two beads; or, where the proposal rests on one bead, in one bead of their own:
            # as well founded as it ("may reroll": "перебросить", beside "no reroll":
            # "переброс")
            others = sorted(
                (k for k in scored if k[0] == e and k[1] != t and k[1] not in taken),
                key=lambda k: (-len(pairs[k].beads), k[1]),
            )
            own_beads = set(pairs[(e, t)].beads)
            forms = [
                _rendering(k[1])
                for k in others
                if _lexical(k)
                and (
                    len(pairs[k].beads) >= min_count
                    or (len(own_beads) < min_count and set(pairs[k].beads) - own_beads)
                )
            ]
            forms = [
                f
                for i, f in enumerate(forms)
                if f.lower() not in {found.target.lower(), *(x.lower() for x in forms[:i])}
            ]
            found = replace(found, variants=tuple(forms[:MAX_VARIANTS]))
        elif basis == COMPOSED:
            # another phrase of the same words is the same term written another way
            # ("контакт основаниями", "контакт подставками"); its words in another order
            # are two phrases met at a border ("без брони спасбросок"), not one
            others = sorted(
                k[1]
                for k in scored
                if k[0] == e
                and k[1] != t
                and k[1] not in taken
                and _made_of_vocabulary(k)
                and sorted(k[1].split()) != sorted(t.split())
            )
            forms = [_form(target_seen[o]) for o in others]
            found = replace(found, variants=tuple(forms[:MAX_VARIANTS]))
        if e in lexicon:  # "Charging" is the vocabulary's Charge, whatever renders it
            source = first_form.get(e, found.source)
            own_word = _verb_base(found.source.lower(), english_forms[e])
            if english_key(own_word.split()) != e:  # "deployment" is no form of "deploy"
                source = found.source
            listed = {f.lower() for f in english_forms[e]}
            made = {x for f in english_forms[e] for x in _inflections(f)}
            written = {" ".join(c.words).lower() for c in en_seen[e]}
            named_it = any(k[0] == e for k in named)
            if found.source.lower() in made - listed and not written & listed and not named_it:
                # a form the vocabulary does not list, where the drop writes no form it
                # lists nor names the term in brackets: the term as the drop has it
                # ("Marched"; "Charged", beside "натиск (Charge)", is Charge)
                source = found.source
            found = replace(found, source=source, term=slugify(source, fallback="term"))
            state = _state_of(e, t)
            if state is not None:  # "Fleeing" = "бегущий": the state, as the drop has it
                found = replace(
                    found,
                    source=state[0],
                    target=state[1],
                    variants=(),
                    term=slugify(state[0], fallback="term"),
                )
                out.append(found)
                continue
            beside = _state_beside(e, found)
            if beside is not None:  # "Fleeing" = "бегущий" beside Flee = "бежать"
                out.append(beside)
            verb = _verb_of(e, t)
            if verb is not None:  # its rendering is the verb's, no more the noun's variant
                out.append(verb)
                found = replace(
                    found, variants=tuple(x for x in found.variants if x != verb.target)
                )
            noun = _noun_of(e, t, found)
            if noun is not None:  # "Pursuit" beside "Pursue": the noun's entry
                out.append(noun)
                found = replace(
                    found,
                    variants=tuple(x for x in found.variants if x.lower() != noun.target.lower()),
                )
        written = {" ".join(c.words) for c in en_seen[e]}
        if t == e and t in left_english and found.target not in written:
            # a name kept in English takes its dictionary form where the English writes
            # that form ("Talismans": "Talisman"); a name it writes in the plural only is plural
            # by nature ("Multiple Wounds"), and no singular renders it
            found = replace(found, target=found.source)
        out.append(found)
    own = {k for k, seen in en_seen.items() if any(c.capitalised for c in seen)}
    out = _of_a_kind(out, own, alias)
    out = _with_cognates(out, alias, en_where, found_all)
    from .common_terms import with_common_terms  # it builds on this module's classes

    reviewed = [k for k, v in known_en.items() if not v.startswith("everyday:")]
    out = with_common_terms(out, beads, lang, reviewed)
    if verbs:
        from .verb_terms import propose  # which imports this module

        reviewed_target = [k for k, v in known_target.items() if not v.startswith("lexicon:")]
        out += propose(beads, out, lang, min_count, reviewed, reviewed_target)
    return sorted(out, key=lambda s: (-s.score, -s.together, s.source))


def _pos(word: str) -> str:
    """A word's part of speech as the dictionary reads it first, "" if unknown."""
    read = parses(word.lower())[:1]
    return str(read[0].tag.POS or "") if read else ""


def _with_cognates(
    out: list[Suggestion],
    alias: Mapping[str, str],
    en_where: Mapping[str, list[tuple[Candidate, int]]],
    found_all: Sequence[Sequence[Candidate]],
) -> list[Suggestion]:
    """Each one-word rendering with its cognate of the other part of speech as a variant,
    where the translation writes that word in the term's own sentences: a team lists the
    noun and the verb of one English word ("Charge": "чардж", "чарджить"; "Reform":
    "перестроиться", "перестроение"), the verb in its dictionary form. A cognate another
    entry of the same English word renders already is left to it. A state ("расстроенный")
    is its verb's form and takes the verb ("расстроить"); an adjective takes nothing; nor
    is a name of two English words one word a verb says ("Bolt Thrower": "стреломёт", not
    "стрелять")."""
    taken: dict[str, set[str]] = defaultdict(set)
    for s in out:
        key = english_key(s.source.split())
        taken[alias.get(key, key)].update(x.lower() for x in (s.target, *s.variants))
    result = []
    for s in out:
        if " " in s.source or " " in s.target or len(s.variants) >= MAX_VARIANTS:
            result.append(s)
            continue
        key = english_key(s.source.split())
        key = alias.get(key, key)
        target = s.target.lower()
        if _pos(target) in ("ADJF", "ADJS"):
            result.append(s)
            continue
        is_verb = any(
            c.verb
            for n in {n for _, n in en_where.get(key, ())}
            for c in found_all[n]
            if c.key == target
        )
        counts: Counter[str] = Counter()
        for n in {n for _, n in en_where.get(key, ())}:
            for c in found_all[n]:
                if (
                    c.verb != is_verb
                    and len(c.words) == 1
                    and c.key not in taken[key]
                    and (_cognate(c.key, (target,)) if c.verb else _cognate(target, (c.key,)))
                ):
                    counts[c.key] += 1
        if not counts:
            result.append(s)
            continue
        word = counts.most_common(1)[0][0]
        if s.target[:1].isupper():
            word = word[:1].upper() + word[1:]
        taken[key].add(word.lower())
        result.append(replace(s, variants=(*s.variants, word)))
    return result


def _of_a_kind(
    found: Sequence[Suggestion], own: set[str], alias: Mapping[str, str]
) -> list[Suggestion]:
    """The proposals with a run of a term the drop writes on its own and the vocabulary's
    word for its kind (`KINDS`), each capitalised somewhere (`own`; "Fleeing Units:"
    titles "a fleeing unit"; any form of a vocabulary term is its first: `alias`), read as
    that term: "Flammable Units" is Flammable, "Hex Spells" Hex, "Fleeing Unit" Flee. The
    rendering loses the kind's word and its one word left takes its dictionary form
    ("горючий отряд": "горючий"; "Заклинание Урона": "урон"); where the term is proposed
    already, or a rendering would keep more than one word, the run is no term of its own."""
    proposed = {alias.get(k, k) for k in (english_key(s.source.split()) for s in found)}
    out: list[Suggestion] = []
    for s in found:
        words = s.source.split()
        if (
            len(words) < 2
            or english_key(words) not in own  # capitalised somewhere: "Fleeing Units:"
            or not english_parts((words[-1],))[0] & KINDS
            or alias.get(english_key(words[:-1]), english_key(words[:-1])) not in own
        ):
            out.append(s)
            continue
        term = alias.get(english_key(words[:-1]), english_key(words[:-1]))
        if term in proposed:
            continue  # the term itself is proposed: this is it said of a kind
        left = [w for w in s.target.split() if not foreign_parts((w,), s.lang)[0] & KINDS]
        if len(left) != 1:
            continue
        target = left[0]
        if len(left) < len(s.target.split()):  # the kind's word left out: the one word's form
            read = parses(target.lower())[:1]
            if read:
                adjective = read[0].tag.POS in ("ADJF", "PRTF")
                form = read[0].inflect({"nomn", "sing", "masc"} if adjective else {"nomn"})
                if form is not None:
                    target = form.word[:1].upper() if target[:1].isupper() else form.word[:1]
                    target += form.word[1:]
        source = " ".join(words[:-1])
        proposed.add(term)
        out.append(
            replace(
                s, term=slugify(source, fallback="term"), source=source, target=target, variants=()
            )
        )
    return out


def _apart(beads: Sequence[Bead], where: Iterable[int]) -> int:
    """How many of the beads `where` are not a near copy of another of them: a translation
    pasted twice and edited a little, beside the same English, shows a pair once."""
    from rapidfuzz.distance import Indel

    near_copy = params()["paragraphs"]["near_copy"]  # what alignment takes for one
    kept: dict[str, list[str]] = defaultdict(list)  # English sentence -> its translations
    for n in sorted(set(where)):
        b = beads[n]
        target = b.target.lower()
        if not any(Indel.normalized_similarity(target, t) >= near_copy for t in kept[b.source]):
            kept[b.source].append(target)
    return sum(map(len, kept.values()))


#: A word pair the drop's terms share is believed from this many beads ...
SHARED_NEEDS = 3
#: ... where the two meet this much (Dice) and each meets no other word as often.
SHARED_DICE = 0.8


def _shared_words(
    seen: Sequence[tuple[Mapping[str, Candidate], Mapping[str, Candidate], Any]], lang: str
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """Words the vocabulary does not know that go together through the drop, as
    `_induced` gives them: an English word of the capitalised terms and a word of the
    translation's phrases that meet in most beads either is in, and each the other's best
    ("Height" of Standard, Large and Gigantic Height, and "рост" of "обычный", "крупный"
    and "гигантский рост"). Each term of the family is then made of the vocabulary and
    the drop's words but for one word, and needs no second bead."""
    joiners = joining_words(lang)
    en_in: dict[str, set[int]] = defaultdict(set)
    their_in: dict[str, set[int]] = defaultdict(set)
    for n, (english, free, _) in enumerate(seen):
        for e in english.values():
            if not e.capitalised:
                continue
            for w in e.words:
                for piece in w.lower().split("-"):
                    if piece and piece not in joiners and not any(english_parts((piece,))):
                        en_in[singular(piece)].add(n)
        for c in free.values():
            if c.verb:
                continue
            for w in c.words:
                if w.lower() not in joiners and not any(foreign_parts((w,), lang)):
                    their_in[lemmas(w, lang)[0]].add(n)

    def best(beads: set[int], others: Mapping[str, set[int]]) -> list[tuple[int, str]]:
        return sorted(((len(beads & b), k) for k, b in others.items()), reverse=True)[:2]

    english: dict[str, frozenset[str]] = {}
    foreign: dict[str, frozenset[str]] = {}
    for w, beads in en_in.items():
        if len(beads) < SHARED_NEEDS:
            continue
        top = best(beads, their_in)
        if not top or (len(top) > 1 and top[1][0] == top[0][0]):
            continue
        together, r = top[0]
        if together < SHARED_NEEDS or 2 * together < SHARED_DICE * (len(beads) + len(their_in[r])):
            continue
        back = best(their_in[r], en_in)
        if back[0][1] != w or (len(back) > 1 and back[1][0] == back[0][0]):
            continue
        english[w] = foreign[r] = frozenset({"=" + w})
    return english, foreign


def sure(s: Suggestion) -> bool:
    """Whether a proposal's note records no doubt: what a team may accept with the least
    review. One with a doubt has a confidence of `UNSURE_CONFIDENCE` at most."""
    return UNSURE not in s.note


def _activity(c: Candidate, text: str) -> bool:
    """Whether a term only heads its paragraph and names an activity ("Learning Spells:",
    "Allocating Hits:"): a section's title, where "Unit Spacing:" names a rule."""
    return heads_text(c, text) and c.words[0].lower().endswith("ing")


def _induced(
    chosen: Mapping[str, str], lexicon: Mapping[str, Any], lang: str
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """The pairs settled so far as vocabulary for `composed_but_one`: English word -> its
    ids, the foreign word's first reading -> the same ids. A one-word pair gives its two
    words (a vocabulary term's ids, "charge"; another term's its English, "=hex"); a
    longer pair the one word on each side its other words leave ("Flee Distance",
    "дистанция бегства": flee = бегство, so distance = дистанция)."""
    english: dict[str, set[str]] = defaultdict(set)
    foreign: dict[str, set[str]] = defaultdict(set)
    joiners = joining_words(lang)
    for e, t in chosen.items():
        en_words = [w for w in e.replace("-", " ").split() if w not in joiners]
        words = [w for w in t.split() if w not in joiners]
        if len(en_words) != len(words):
            continue
        if len(words) == 1:
            ids = english_parts((e,))[0] if e in lexicon else frozenset()
            ids = ids or frozenset({"=" + e})
            english[e] |= ids
            foreign[t] |= ids
            continue
        ours, theirs = english_parts(tuple(en_words)), foreign_parts(tuple(words), lang)
        if len(ours) != len(en_words) or len(theirs) != len(words):
            continue  # two words read as one phrase: no word by word
        mine = [i for i, p in enumerate(ours) if not any(p & q for q in theirs)]
        yours = [i for i, q in enumerate(theirs) if not any(p & q for p in ours)]
        if len(mine) == 1 == len(yours):
            ids = ours[mine[0]] or frozenset({"=" + en_words[mine[0]]})
            english[en_words[mine[0]]] |= ids
            foreign[words[yours[0]]] |= ids
    return (
        {k: frozenset(v) for k, v in english.items()},
        {k: frozenset(v) for k, v in foreign.items()},
    )


def _written(seen: Sequence[Candidate], after: str = "") -> re.Pattern[str]:
    """Where a term is written as it was seen, the longest form first, followed by
    `after`, as a whole word."""
    return _whole_words(
        sorted({" ".join(c.words) for c in seen}, key=lambda f: (-len(f), f)), after
    )


def _of_after(seen: Sequence[Candidate], beads: Sequence[Bead], where: set[int]) -> frozenset[str]:
    """The vocabulary words a term is given by "of" right after it ("Path of magic"), in
    the beads `where`."""
    pattern = _written(seen, r" of ([a-z]+)")
    found: frozenset[str] = frozenset()
    for n in where:
        for m in pattern.finditer(beads[n].source):
            found = found.union(*english_parts((m.group(1),)))
    return found


def _written_spots(
    seen: Sequence[Candidate], beads: Sequence[Bead], where: Mapping[str, set[int]]
) -> list[tuple[int, int, int]]:
    """Every place a term of two words or more is written as it was seen, candidate or not
    ("Stand and Shoot" inside the run "Stand and Shoot Charge Reaction"); `where`: the
    beads each English word is written in."""
    if not any(c.capitalised and len(c.words) > 1 for c in seen):
        return []
    pattern = _written(seen)
    near = set().union(*(where.get(c.words[0], set()) for c in seen))
    found = ((n, pattern.finditer(beads[n].source)) for n in sorted(near))
    return [(n, m.start(), m.end()) for n, ms in found for m in ms]


def _covered(
    spots: Sequence[tuple[int, int, int]], inside: Mapping[int, list[Span]], beads: set[int]
) -> bool:
    """Whether, in every bead a pair was seen in, the rendering occurs only inside
    renderings already taken ("стойкость" inside "стойкость духа"): there it is a piece of
    another term, no evidence for this one."""
    return all(
        any(a <= start and end <= b for a, b in inside.get(n, ()))
        for n, start, end in spots
        if n in beads
    )


def _nested(a: str, b: str) -> bool:
    """Two renderings sharing a word (one inside the other, or overlapping)."""
    return bool(set(a.split()) & set(b.split()))


def build_beads(
    alignments: dict[str, Any], raw: Mapping[str, str], lang: str, min_score: float = 0.0
) -> list[Bead]:
    """The sentence beads with both sides of every linked pair in `lang` (score at least
    `min_score`)."""
    beads = []
    for link in alignments["links"]:
        if link["status"] != "linked" or link["target_lang"] != lang:
            continue
        if link["score"] < min_score:
            continue
        source, target = raw[link["source"]], raw[link["target"]]
        for bead in link["sentences"]:
            if bead["source_spans"] and bead["target_spans"]:
                beads.append(
                    Bead(
                        " ".join(source[a:b] for a, b in bead["source_spans"]),
                        " ".join(target[a:b] for a, b in bead["target_spans"]),
                        link["id"],
                        link["source"],
                        link["target"],
                        bead["type"] == "1-1",
                    )
                )
    return beads


def to_glossary(
    suggestions: Sequence[Suggestion], languages: Sequence[str], name: str = "suggested"
) -> Glossary:
    """The proposals as a glossary whose terms all carry status `proposed` (for TBX)."""
    terms = []
    for s in suggestions:
        ex = s.example
        note = "; ".join(
            x
            for x in (
                "proposed",
                f"count {s.together}",
                f"score {s.score}",
                s.note,
                f"example {ex.link} ({ex.source_id} / {ex.target_id}): {ex.source} / {ex.target}",
            )
            if x
        )
        terms.append(
            Term(s.term, {"en": (s.source,), s.lang: (s.target, *s.variants)}, {}, note=note)
        )
    return Glossary(name, "", tuple(languages), tuple(terms))


def _cell(text: str) -> str:
    """One line, never a formula to a spreadsheet (textsafe.cell)."""
    return cell(" ".join(text.split()))


TSV_COLUMNS = (
    "status",
    "term",
    "count",
    "score",
    "note",
    "example_source",
    "example_target",
    "example_ids",
)


def to_tsv(suggestions: Sequence[Suggestion], languages: Sequence[str]) -> str:
    """The project's TSV glossary: a column per language of the build, then status
    (`proposed`), term id, count, score, note and one example pair with its ids. Change a
    row's status to `preferred` to accept it, `rejected` to never see it again, and give
    the file back with --glossary."""
    langs = ["en", *(x for x in languages if x != "en")]
    rows = ["\t".join([*langs, *TSV_COLUMNS])]
    for s in suggestions:
        ex = s.example
        for k, target in enumerate((s.target, *s.variants)):
            cells = {"en": s.source, s.lang: target}
            note = s.note if k == 0 else "another rendering the drop uses for the term"
            rows.append(
                "\t".join(
                    [
                        *(_cell(cells.get(x, "")) for x in langs),
                        "proposed",
                        s.term,
                        str(s.together),
                        str(s.score),
                        note,
                        _cell(ex.source),
                        _cell(ex.target),
                        f"{ex.link} {ex.source_id} {ex.target_id}".strip(),
                    ]
                )
            )
    return "\n".join(rows) + "\n"
