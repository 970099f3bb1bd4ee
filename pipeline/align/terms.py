"""Candidate terms of a sentence, as whole noun phrases in their dictionary form.

English: runs of capitalised words ("Round of Combat", "Battle Standard Bearer"), joined by
"of"/"the"/"to" (and two words joined by "and", "Stand and Shoot", besides each word); a
lone capitalised word that only starts a sentence is not one, unless it heads the text as
its name ("Pursuit: when ..."). Russian
(pymorphy3): a head noun with the adjectives that agree with it, its genitive complements
(past a preposition and a personal pronoun set between: "контакте с ним основаниями") and a
complement joined by a linking preposition (`term_links` of lang/ru/align.yaml), and
every shorter phrase with the same head, so that counting across pairs can tell the whole
term ("раунд боя") from its parts; a capitalised adjective standing alone is a term too
(rule names such as "Бесстрашный"). Each Russian candidate knows its dictionary form: the
head in the nominative, adjectives agreeing with it, complements as written, and the
capitals as written ("Зону расстановки" -> "зона расстановки" at a sentence start,
"шаге Инициативы" -> "шаг Инициативы"). An adjective used as a noun ("в рукопашной",
"раунд рукопашной") counts as one, and a name the translation sets in guillemets
("«Держать позицию»") is a candidate as written, whatever its grammar.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from ..lang import data as lang_data
from ..lang import fold, lemma, nlp, parses, singular
from ..lang.scripts import unmix

_CAPITALISED = re.compile(r"^[A-Z](?:[a-z'’!]|-[A-Za-z])*[a-z!]$|^[A-Z]{2,}$")
_JOINERS = frozenset({"of", "the", "to"})
_RU_WORD = re.compile(r"^[а-яё][а-яё-]*$", re.IGNORECASE)
_OTHER_WORD = re.compile(r"^\w[\w'’-]*$")
# A capital after these starts a sentence; one after an opening quote marks a name, and
# one after a colon a name too (rules go on in lower case: "Flee: the charged unit ...").
_SENTENCE_START = frozenset(".!?(-–—")
_QUOTED = re.compile(r"«([^«»]{1,80})»")
MAX_QUOTED_WORDS = 5
MAX_ADJECTIVES = 3
# A complement follows its head in the genitive ("раунд боя") or the instrumental
# ("контакт основаниями"); any case after a joining preposition.
_COMPLEMENT_CASES = frozenset({"gent", "ablt"})
MAX_COMPLEMENTS = 2


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate term in a sentence."""

    key: str  # what counts as the same term: lemmas (Russian) or lower-cased singular words
    words: tuple[str, ...]  # as written
    start: int  # character offsets in the sentence
    end: int
    capitalised: bool | None  # a capital beyond a sentence start; None when only there
    plural: bool  # the head as written is plural
    initial: bool  # starts a sentence
    parts: tuple[Any, ...] = ()  # Russian: (parse, role) per word, for the dictionary form
    verb: bool = False  # a verb, participle or gerund, keyed by its infinitive

    @property
    def size(self) -> int:
        """Words less the joiners ("of", "на"): "Round of Combat" and "проверка на
        разгром" are two each."""
        links = _ru_data()[0]
        return len([w for w in self.words if w.lower() not in _JOINERS | links])


def _initial(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in _SENTENCE_START


def english_key(words: tuple[str, ...] | list[str]) -> str:
    """Lower case, the last word singular: "Panic Tests" and "Panic Test" are one term."""
    low = [w.lower() for w in words]
    return " ".join([*low[:-1], singular(low[-1])])


def english_candidates(text: str) -> list[Candidate]:
    """Capitalised runs of an English sentence (see the module docstring)."""
    toks = _hyphened(nlp("en").make_doc(text), str.isalpha)
    runs: list[Candidate] = []  # every capitalised run, a lone sentence start included
    i = 0
    while i < len(toks):
        if not _CAPITALISED.match(toks[i].text):
            i += 1
            continue
        j = i + 1
        while j < len(toks):
            if _CAPITALISED.match(toks[j].text):
                j += 1
            elif (
                toks[j].text in _JOINERS
                and j + 1 < len(toks)
                and _CAPITALISED.match(toks[j + 1].text)
            ):
                j += 2
            else:
                break
        initial = _initial(text, toks[i].idx)
        if initial and j - i > 1 and toks[i].text.lower() in nlp("en").Defaults.stop_words:
            i += 1  # "At the Initiative Step": the sentence's first word is no part of it
            while i < j and toks[i].text in _JOINERS:
                i += 1
            initial = False
            if i >= j:
                continue
        words = tuple(t.text for t in toks[i:j])
        end = toks[j - 1].idx + len(toks[j - 1].text)
        plural = english_key(words) != " ".join(w.lower() for w in words)
        runs.append(Candidate(english_key(words), words, toks[i].idx, end, True, plural, initial))
        i = j
    stop = nlp("en").Defaults.stop_words
    found = [
        c
        for c in runs
        if (len(c.words) > 1 or not c.initial or heads_text(c, text))
        and not (len(c.words) == 1 and c.key in stop)
    ]
    return found + _and_names(text, runs) + _the_apart(text, found)


def _hyphened(toks: Sequence[Any], word: Callable[[str], bool]) -> list[Any]:
    """The tokens with a word written with a hyphen and no space kept one word, as the
    tokenizer does not: "Post-Combat Reform", whose second half alone is another term
    ("Combat Reform"); "армор-сейва", whose first half alone is no term ("армор"), and
    which the dictionary reads whole ("армор-сейв"). `word`: what a part must be."""
    out: list[Any] = []
    i = 0
    while i < len(toks):
        j = i
        while (
            j + 2 < len(toks)
            and toks[j + 1].text == "-"
            and not toks[j].whitespace_
            and not toks[j + 1].whitespace_
            and word(toks[j].text)
            and word(toks[j + 2].text)
        ):
            j += 2
        out.append(
            toks[i]
            if j == i
            else _Token(
                "".join(t.text for t in toks[i : j + 1]),
                toks[i].idx,
                _stop(toks[j]),
                toks[j].whitespace_,
            )
        )
        i = j + 1
    return out


def _the_apart(text: str, runs: list[Candidate]) -> list[Candidate]:
    """The two sides of a run joined by "the" besides the run ("in the Shooting Phase the
    Active Player": "Shooting Phase" and "Active Player"; "Rally Around the Flag" is one
    name): counting across pairs tells which it is."""
    out = []
    for c in runs:
        if "the" not in c.words[1:-1]:
            continue
        k = c.words.index("the", 1)
        left, right = c.words[:k], c.words[k + 1 :]
        if left[-1] in _JOINERS or right[0] in _JOINERS:
            continue
        end = c.start + len(" ".join(left))
        start = c.end - len(" ".join(right))
        if text[c.start : end] != " ".join(left) or text[start : c.end] != " ".join(right):
            continue  # not written with single spaces: leave the run whole
        for words, a, b, initial in ((left, c.start, end, c.initial), (right, start, c.end, False)):
            plural = english_key(words) != " ".join(w.lower() for w in words)
            out.append(Candidate(english_key(words), words, a, b, True, plural, initial))
    return out


def heads_text(c: Candidate, text: str) -> bool:
    """Whether a candidate heads the text as its name ("Pursuit: when ...")."""
    return c.start == 0 and text[c.end : c.end + 1] == ":"


def _and_names(text: str, runs: list[Candidate]) -> list[Candidate]:
    """Two capitalised words joined by "and" as one name besides each word ("Stand and
    Shoot" as well as "Stand" and "Shoot"): counting across pairs tells which it is."""
    out = []
    for a, b in pairwise(runs):
        if len(a.words) == 1 == len(b.words) and text[a.end : b.start] == " and ":
            words = (*a.words, "and", *b.words)
            out.append(Candidate(english_key(words), words, a.start, b.end, True, False, a.initial))
    return out


@cache
def _ru_data() -> tuple[frozenset[str], frozenset[str]]:
    data = lang_data("ru", "align")
    return frozenset(data.get("term_links", ())), frozenset(data.get("not_term_heads", ()))


@cache
def _preposition_nouns() -> frozenset[tuple[str, str]]:
    """(preposition, noun as written) that make a preposition together ("в качестве")."""
    data = lang_data("ru", "align").get("preposition_nouns") or {}
    return frozenset((p, fold(w)) for p, words in data.items() for w in words)


def _in_preposition(words: list[Any], i: int) -> bool:
    """Whether the noun at `i` makes a preposition with the word before it ("в качестве
    реакции": "качестве" heads no term there)."""
    before = words[i - 1] if i > 0 else None
    pair = (before.text.lower(), fold(words[i].text.lower())) if before is not None else None
    return pair in _preposition_nouns()


#: Readings of proper names, which a rules text does not mean where a common noun reads
#: the same form ("Кубы" is read first as the genitive of "Куба", the island).
_PROPER = frozenset({"Geox", "Name", "Surn", "Patr", "Orgn", "Trad"})


@lru_cache(maxsize=100_000)
def _parses(word: str) -> tuple[Any, ...]:
    """The likeliest readings of a word, a proper name's after every other, and every
    other case of the likeliest word: "боевой" is read first as a feminine genitive, and
    its masculine nominative ("Боевой Счёт") comes seventh, after readings of other words."""
    every = parses(word.lower())
    read = every[:4]
    if read:
        first = read[0]
        read += tuple(
            p
            for p in every[4:]
            if p.tag.POS == first.tag.POS and p.normal_form == first.normal_form
        )
    return tuple(sorted(read, key=lambda p: bool(_PROPER & p.tag.grammemes)))


@lru_cache(maxsize=100_000)
def _lemma(word: str) -> str:
    """`lemma`, unless its reading is a proper name's that a common noun's form also
    reads: then the common noun's ("кубы" is "куб")."""
    first = parses(word.lower())[:1]
    if first and _PROPER & first[0].tag.grammemes:
        return fold(_parses(word)[0].normal_form)
    return lemma(word, "ru")


def _nouns(word: str) -> list[Any]:
    """Noun readings of a word whose likeliest reading is a noun, or whose noun readings
    together are at least as likely as not ("марш", also an interjection); "в" is none."""
    parses = _parses(word)
    if len(word) < 2 or not parses:
        return []
    nouns = [p for p in parses if p.tag.POS == "NOUN" and "Abbr" not in p.tag]
    if parses[0].tag.POS != "NOUN" and sum(p.score for p in nouns) < 0.5:
        return []
    return nouns


def _adjectives(word: str) -> list[Any]:
    """Adjective readings of a word whose likeliest reading is one; pronouns that inflect
    as adjectives ("свой", "такой", "любой") belong to the sentence, not to a term."""
    parses = _parses(word)
    if not parses or parses[0].tag.POS not in ("ADJF", "PRTF") or "Apro" in parses[0].tag:
        return []
    return [p for p in parses if p.tag.POS in ("ADJF", "PRTF")]


#: The second genitive, accusative and locative of a few nouns ("в бою", "чашка чаю")
#: take adjectives in the first ("в Ближнем бою").
_SECOND_CASES = {"gen2": "gent", "acc2": "accs", "loc2": "loct"}


def _agrees(adj: Any, noun: Any) -> bool:
    a, n = adj.tag, noun.tag
    case = _SECOND_CASES.get(n.case, n.case)
    if a.case != case or a.number != n.number:
        return False
    return n.number == "plur" or a.gender is None or n.gender is None or a.gender == n.gender


@lru_cache(maxsize=100_000)
def _substantive(word: str) -> Any | None:
    """The reading of an adjective used as a noun ("рукопашной": of close combat), when
    the dictionary knows its nominative as a noun too ("рукопашная"); else None."""
    for adj in _adjectives(word):
        nominative = adj.inflect({"nomn", "sing"})
        if nominative and any(p.tag.POS == "NOUN" for p in _parses(nominative.word)):
            return adj
    return None


def _agrees_with_next(words: list[Any], i: int, adjs: list[Any]) -> bool:
    nxt = words[i + 1] if i + 1 < len(words) else None
    return nxt is not None and any(_agrees(a, n) for a in adjs for n in _nouns(nxt.text))


def _phrase(
    words: list[Any], i: int, case: frozenset[str] | None
) -> tuple[list[tuple[int, Any]], Any] | None:
    """Adjectives + noun starting at token i (noun in a `case` when given): the parses used;
    else an adjective used as a noun there, with no noun of its own after it."""
    found = _noun_phrase(words, i, case)
    if found is not None or words[i] is None:
        return found
    sub = _substantive(words[i].text)
    if sub is None or (case and sub.tag.case not in case) or _agrees_with_next(words, i, [sub]):
        return None
    return [], sub


def _noun_phrase(
    words: list[Any], i: int, case: frozenset[str] | None
) -> tuple[list[tuple[int, Any]], Any] | None:
    j = i
    while j < len(words) and j - i <= MAX_ADJECTIVES and words[j] is not None:
        for noun in _nouns(words[j].text):
            if case and noun.tag.case not in case:
                continue
            adjs = []
            for k in range(i, j):
                adj = next((a for a in _adjectives(words[k].text) if _agrees(a, noun)), None)
                if adj is None:
                    break
                adjs.append((k, adj))
            else:
                return adjs, noun
        j += 1
    return None


_VERB_FORMS = frozenset({"INFN", "VERB", "PRTF", "PRTS", "GRND"})


def _verb(text: str, tok: Any) -> Candidate | None:
    """A verb (or its participle or gerund) as a one-word candidate keyed by its infinitive:
    the rules say "нападает", "нападающий", "напали" where the English says Charge."""
    parses = _parses(tok.text)
    if not parses or parses[0].tag.POS not in _VERB_FORMS:
        return None
    initial = _initial(text, tok.idx)
    capital = tok.text[:1].isupper()
    return Candidate(
        lemma(tok.text, "ru"),
        (tok.text,),
        tok.idx,
        _stop(tok),
        None if initial else capital,
        False,
        initial,
        verb=True,
    )


def russian_candidates(text: str) -> list[Candidate]:
    """Noun phrases of a Russian sentence, with every shorter phrase of the same head, and
    its verbs (`_verb`)."""
    links, not_heads = _ru_data()
    toks = _hyphened(_rejoined(nlp("ru").make_doc(text)), lambda w: bool(_RU_WORD.match(w)))
    words = [t if _RU_WORD.match(t.text) else None for t in toks]
    found: list[Candidate] = []
    for i, tok in enumerate(words):
        if tok is None:
            continue
        verb = _verb(text, tok)
        if verb is not None:
            found.append(verb)
        nouns = _nouns(tok.text)
        if not nouns:
            adjs = _adjectives(tok.text)
            agrees_next = _agrees_with_next(words, i, adjs)
            if adjs and tok.text[:1].isupper() and not agrees_next:
                found.append(_make(text, [(tok, adjs[0], "head")], 0))
            elif adjs and not agrees_next and _after_preposition(words, i):
                sub = _substantive(tok.text)  # "в рукопашной"
                if sub is not None:
                    found.append(_make(text, [(tok, sub, "substantive")], 0))
            continue
        for noun in _reading(nouns, words[i - 1] if i else None):
            if lemma(tok.text, "ru") in not_heads or _in_preposition(words, i):
                break
            left: list[tuple[Any, Any]] = []
            k = i - 1
            while k >= 0 and words[k] is not None and len(left) < MAX_ADJECTIVES:
                adj = next((a for a in _adjectives(words[k].text) if _agrees(a, noun)), None)
                if adj is None:
                    break
                left.insert(0, (words[k], adj))
                k -= 1
            # complements to the right: genitive or instrumental phrases, or one joined by a
            # preposition
            rights: list[list[tuple[Any, Any, str]]] = [[]]
            j = i + 1
            for _ in range(MAX_COMPLEMENTS):
                if j >= len(words) or words[j] is None:
                    break
                j += _aside(words, j)
                if j >= len(words) or words[j] is None:
                    break
                linked = words[j].text.lower() in links
                start = j + 1 if linked else j
                got = (
                    _phrase(words, start, None if linked else _COMPLEMENT_CASES)
                    if start < len(words)
                    else None
                )
                if got is None or _introduces(words[start + len(got[0])].text, not_heads):
                    break
                adjs, comp = got
                end = start + len(adjs)
                part = [(words[j], None, "link")] if linked else []
                part += [(words[x], a, "complement") for x, a in adjs]
                part.append((words[end], comp, "complement"))
                rights.append(rights[-1] + part)
                j = end + 1
                if linked:
                    break
            for a in range(len(left) + 1):
                for right in rights:
                    parts = [(t, p, "adjective") for t, p in left[a:]]
                    parts.append((tok, noun, "head"))
                    parts += right
                    found.append(_make(text, parts, len(left) - a))
            break
    return _quoted(text, found)


def _introduces(word: str, not_heads: frozenset[str]) -> bool:
    """Whether a complement's noun only introduces a term (`not_term_heads`: "по правилу
    Случайного движения"), unless capitalised: a name's word ("Книга Правил")."""
    return not word[:1].isupper() and lemma(word, "ru") in not_heads


def _aside(words: list[Any], j: int) -> int:
    """How many words at `j` are a preposition and a personal pronoun set between a head
    and its complement ("в контакте с ним основаниями": the term is "контакт
    основаниями", "с ним" says with what): 2, else 0."""
    if j + 2 >= len(words) or words[j + 1] is None or words[j + 2] is None:
        return 0
    first, second = _parses(words[j].text)[:1], _parses(words[j + 1].text)[:1]
    if not first or not second or first[0].tag.POS != "PREP" or second[0].tag.POS != "NPRO":
        return 0
    return 2


def _after_preposition(words: list[Any], i: int) -> bool:
    before = words[i - 1] if i > 0 else None
    return before is not None and any(p.tag.POS == "PREP" for p in _parses(before.text)[:1])


def _quoted(text: str, found: list[Candidate]) -> list[Candidate]:
    """`found` with names set in guillemets ("«Держать позицию»", "«Залпом»", also in lower
    case: "ни правила «рослый»") kept whole: a candidate for each that no noun phrase spans
    whole, as written, and no candidate inside one ("позиция" alone is no term here)."""
    spans = {(c.start, c.end) for c in found}
    out = []
    names = []
    for m in _QUOTED.finditer(text):
        words = m.group(1).split()
        start, end = m.start(1), m.end(1)
        if not 0 < len(words) <= MAX_QUOTED_WORDS:
            continue
        if not all(_RU_WORD.match(w) for w in words):
            continue
        names.append((start, end))
        if (start, end) in spans:
            continue
        nouns = [p for p in _parses(words[0]) if p.tag.POS == "NOUN"] if len(words) == 1 else []
        if nouns:  # one word the likeliest reading takes for another part of speech
            made = _make(text, [(_Token(words[0], start), nouns[0], "head")], 0)
            out.append(replace(made, key=fold(nouns[0].normal_form)))
            continue
        key = " ".join(lemma(w, "ru") for w in words)
        capital = words[0][:1].isupper()  # a name in lower case is a name too: «рослый»
        out.append(Candidate(key, tuple(words), start, end, capital, False, False))
    kept = [
        c
        for c in found
        if not any(a <= c.start and c.end <= b and (c.start, c.end) != (a, b) for a, b in names)
    ]
    return kept + out


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    idx: int
    stop: int = -1  # where it ends in the text, when not `idx` + its length ("вра-\nжеский")
    whitespace_: str = ""  # as a spaCy token's: the space after it


def _stop(tok: Any) -> int:
    """Where a token ends in its text."""
    stop = getattr(tok, "stop", -1)
    return stop if stop >= 0 else tok.idx + len(tok.text)


def _known_word(word: str) -> bool:
    found = parses(word.lower())
    return bool(found) and found[0].is_known


def _rejoined(toks: Sequence[Any]) -> list[Any]:
    """The tokens of a translation pasted from a page, with its lines read as one text: a
    line break inside a sentence is a space ("Ударные\nпопадания" is one phrase); a word
    hyphenated at a line's end is one word, without the hyphen where the dictionary knows
    the word so ("вра-\nжеский": "вражеский") and with it otherwise ("армор-\nсейв"); and
    a word an OCR broke in two, a half no word the dictionary knows and the whole one it
    does ("Обыч ный": "Обычный", "же лезной": "железной"; "по том" and "армор сейв" stay
    two)."""
    out: list[Any] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.text.isspace() and "\n\n" not in tok.text:
            i += 1  # one line break: a space
            continue
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        after = toks[i + 2] if i + 2 < len(toks) else None
        if (
            after is not None
            and tok.text.endswith("-")
            and _RU_WORD.match(tok.text[:-1])
            and not tok.whitespace_
            and nxt.text.isspace()
            and "\n" in nxt.text
            and "\n\n" not in nxt.text
            and _RU_WORD.match(after.text)
            and after.text[:1].islower()
        ):
            whole = tok.text[:-1] + after.text
            text = whole if _known_word(whole) else tok.text + after.text
            out.append(_Token(text, tok.idx, _stop(after), after.whitespace_))
            i += 3
            continue
        if (
            nxt is not None
            and tok.whitespace_ == " "
            and _RU_WORD.match(tok.text)
            and _RU_WORD.match(nxt.text)
            and nxt.text[:1].islower()
            and "-" not in tok.text + nxt.text
            and not (_known_word(tok.text) and _known_word(nxt.text))
            and _known_word(tok.text + nxt.text)
        ):
            out.append(_Token(tok.text + nxt.text, tok.idx, _stop(nxt), nxt.whitespace_))
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


def _reading(nouns: list[Any], before: Any) -> list[Any]:
    """The noun reading to build on: the first an adjective before it agrees with ("особый
    спасбросок", where the likeliest reading of "спасбросок" is a plural genitive), else
    the likeliest."""
    adjs = _adjectives(before.text) if before is not None else []
    agreeing = [n for n in nouns if any(_agrees(a, n) for a in adjs)]
    return (agreeing or nouns)[:1]


def _make(text: str, parts: list[tuple[Any, Any, str]], head: int) -> Candidate:
    toks = [t for t, _, _ in parts]
    start, end = toks[0].idx, _stop(toks[-1])
    initial = _initial(text, start)
    caps = [t.text[:1].isupper() for t in toks]
    capitalised = any(caps[1:]) or (caps[0] and not initial) or (None if initial else False)
    key = " ".join(_lemma(t.text) for t in toks)
    head_parse = parts[head][1]
    plural = head_parse is not None and head_parse.tag.number == "plur"
    return Candidate(
        key,
        tuple(t.text for t in toks),
        start,
        end,
        capitalised,
        plural,
        initial,
        tuple((p, role) for _, p, role in parts),
    )


def _unstressed(form: Any, written: str) -> str:
    """An adjective's form, with the masculine "-ой" the dictionary guesses for a word it
    does not know read as "-ый" ("-ий" after г, к, х and the hushing letters) unless the
    text writes "-ой" itself: "двуручное" may come from either, and new words take the
    unstressed ending; the stressed ones ("большой") the dictionary knows."""
    word = form.word
    if (
        form.is_known
        or not word.endswith("ой")
        or "masc" not in form.tag
        or written.lower().endswith("ой")
    ):
        return word
    stem = word[:-2]
    return stem + ("ий" if stem[-1:] in "гкхжшчщ" else "ый")


def dictionary_form(candidate: Candidate, plural: bool, capitals: tuple[bool, ...]) -> str:
    """The candidate with its head in the nominative (singular unless `plural`), agreeing
    adjectives, complements as written, and the given capital per word."""
    if candidate.verb:
        words = [candidate.key]
    elif not candidate.parts:
        words = list(candidate.words)
    else:
        head = next(p for p, role in candidate.parts if role in ("head", "substantive"))
        number = "plur" if plural or "Pltm" in head.tag else "sing"
        target = {"nomn", number}
        new_head = head.inflect(target) or head
        gender = new_head.tag.gender
        words = []
        for word, (parse, role) in zip(candidate.words, candidate.parts, strict=True):
            if role == "substantive":  # its own gender: "рукопашная"
                words.append((parse.inflect({"nomn", number}) or parse).word)
            elif role == "head":
                if parse.tag.POS in ("ADJF", "PRTF"):
                    form = parse.inflect({"nomn", "sing", "masc"}) if not plural else None
                    form = form or parse.inflect({"nomn", number}) or parse
                    words.append(_unstressed(form, word))
                else:
                    words.append(new_head.word)
            elif role == "adjective":
                want = {"nomn", number} | ({gender} if number == "sing" and gender else set())
                words.append(_unstressed(parse.inflect(want) or parse, word))
            else:
                words.append(word.lower())
    out = [
        w[:1].upper() + w[1:] if cap else w[:1].lower() + w[1:]
        for w, cap in zip(words, capitals, strict=True)
    ]
    return " ".join(out)


_DROP_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*", re.IGNORECASE)


def _top(word: str) -> frozenset[str]:
    """The dictionary forms of a word's likeliest readings, all equally likely."""
    read = _parses(word)
    if not read:
        return frozenset()
    best = max(p.score for p in read)
    return frozenset(fold(p.normal_form) for p in read if p.score >= best - 1e-9)


def drop_readings(texts: Iterable[str]) -> dict[str, str]:
    """Word (lower case, folded) -> its dictionary form, for the words whose likeliest
    readings tie between dictionary forms: the one most of the drop's other words may read
    as, where it is not the first guess. "регеном" is "регеном" or "реген" to the
    dictionary, which does not know the word, and the drop also writes "реген" and
    "регена"; the drop, not the order of the guesses, tells a word's dictionary form."""
    forms = {fold(m.group().lower()) for t in texts for m in _DROP_WORD.finditer(t)}
    read: dict[str, set[str]] = {}  # dictionary form -> the forms a likeliest reading says
    tied: dict[str, frozenset[str]] = {}
    for form in forms:
        top = _top(form)
        for n in top:
            read.setdefault(n, set()).add(form)
        if len(top) > 1:
            tied[form] = top
    out = {}
    for form, top in tied.items():
        support = sorted(((len(read.get(n, set()) - {form}), n) for n in top), reverse=True)
        (best, chosen), (runner, _) = support[0], support[1]
        if best > runner and chosen != _lemma(form):
            out[form] = chosen
    return out


def reread(c: Candidate, readings: Mapping[str, str]) -> Candidate:
    """A candidate whose words take the readings `drop_readings` gives them, for its
    dictionary form; its key stays the first reading's, as every other reader of the
    drop (the vocabulary, a glossary) keys the word."""
    if c.verb or not c.parts or not readings:
        return c
    parts = list(c.parts)
    for i, word in enumerate(c.words):
        chosen = readings.get(fold(word.lower()))
        parse, role = parts[i]
        if chosen is None or parse is None:
            continue
        pos = parse.tag.POS
        same = (p for p in _parses(word) if pos == p.tag.POS and fold(p.normal_form) == chosen)
        parts[i] = (next(same, parse), role)
    return replace(c, parts=tuple(parts))


def candidates(text: str, lang: str) -> list[Candidate]:
    """The candidate terms of a sentence in `lang`: English and Russian as above; other
    languages: capitalised words and pairs of words (no grammar of their own yet)."""
    if lang == "en":
        return english_candidates(text)
    if lang == "ru":
        return russian_candidates(unmix(text))
    doc = nlp(lang).make_doc(text)
    toks = [t for t in doc if _OTHER_WORD.match(t.text)]
    out = []
    for n in (1, 2):
        for i in range(len(toks) - n + 1):
            part = toks[i : i + n]
            words = tuple(t.text for t in part)
            initial = _initial(text, part[0].idx)
            caps = any(w[:1].isupper() for w in words[1:]) or (
                words[0][:1].isupper() and not initial
            )
            key = " ".join(lemma(w, lang) for w in words)
            end = part[-1].idx + len(part[-1].text)
            out.append(Candidate(key, words, part[0].idx, end, caps or None, False, initial))
    return out
