"""Candidate terms of a sentence, as whole noun phrases in their dictionary form.

English: runs of capitalised words ("Round of Combat", "Battle Standard Bearer"), joined by
"of"/"the"/"to"; a lone capitalised word that only starts a sentence is not one. Russian
(pymorphy3): a head noun with the adjectives that agree with it, its genitive complements
and a complement joined by a linking preposition (`term_links` of lang/ru/align.yaml), and
every shorter phrase with the same head, so that counting across pairs can tell the whole
term ("раунд боя") from its parts; a capitalised adjective standing alone is a term too
(rule names such as "Бесстрашный"). Each Russian candidate knows its dictionary form: the
head in the nominative, adjectives agreeing with it, complements as written, and the
capitals as written ("Зону расстановки" -> "зона расстановки" at a sentence start,
"шаге Инициативы" -> "шаг Инициативы").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ..lang import data as lang_data
from ..lang import lemma, morph, nlp

_CAPITALISED = re.compile(r"^[A-Z][a-z'’!-]*[a-z!]$|^[A-Z]{2,}$")
_JOINERS = frozenset({"of", "the", "to"})
_RU_WORD = re.compile(r"^[а-яё][а-яё-]*$", re.IGNORECASE)
_OTHER_WORD = re.compile(r"^\w[\w'’-]*$")
_SENTENCE_START = frozenset('.!?:;(-–—«"')
MAX_ADJECTIVES = 3
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
        return len([w for w in self.words if w.lower() not in _JOINERS])


def _initial(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or before[-1] in _SENTENCE_START


def english_key(words: tuple[str, ...] | list[str]) -> str:
    """Lower case, the last word singular: "Panic Tests" and "Panic Test" are one term."""
    low = [w.lower() for w in words]
    last = low[-1]
    if len(last) > 3 and last.endswith("ies"):
        last = last[:-3] + "y"
    elif len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is")):
        last = last[:-1]
    return " ".join([*low[:-1], last])


def english_candidates(text: str) -> list[Candidate]:
    """Capitalised runs of an English sentence (see the module docstring)."""
    doc = nlp("en").make_doc(text)
    toks = list(doc)
    found = []
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
        if j - i > 1 or not initial:
            words = tuple(t.text for t in toks[i:j])
            end = toks[j - 1].idx + len(toks[j - 1].text)
            plural = english_key(words) != " ".join(w.lower() for w in words)
            found.append(
                Candidate(english_key(words), words, toks[i].idx, end, True, plural, initial)
            )
        i = j
    return found


@cache
def _ru_data() -> tuple[frozenset[str], frozenset[str]]:
    data = lang_data("ru", "align")
    return frozenset(data.get("term_links", ())), frozenset(data.get("not_term_heads", ()))


@lru_cache(maxsize=100_000)
def _parses(word: str) -> tuple[Any, ...]:
    return tuple(morph().parse(word.lower())[:4])


def _nouns(word: str) -> list[Any]:
    """Noun readings of a word whose likeliest reading is a noun ("в" is no noun)."""
    parses = _parses(word)
    if len(word) < 2 or not parses or parses[0].tag.POS != "NOUN":
        return []
    return [p for p in parses if p.tag.POS == "NOUN" and "Abbr" not in p.tag]


def _adjectives(word: str) -> list[Any]:
    """Adjective readings of a word whose likeliest reading is one; pronouns that inflect
    as adjectives ("свой", "такой", "любой") belong to the sentence, not to a term."""
    parses = _parses(word)
    if not parses or parses[0].tag.POS not in ("ADJF", "PRTF") or "Apro" in parses[0].tag:
        return []
    return [p for p in parses if p.tag.POS in ("ADJF", "PRTF")]


def _agrees(adj: Any, noun: Any) -> bool:
    a, n = adj.tag, noun.tag
    if a.case != n.case or a.number != n.number:
        return False
    return n.number == "plur" or a.gender is None or n.gender is None or a.gender == n.gender


def _phrase(words: list[Any], i: int, case: str | None) -> tuple[list[tuple[int, Any]], Any] | None:
    """Adjectives + noun starting at token i (noun in `case` when given): the parses used."""
    j = i
    while j < len(words) and j - i <= MAX_ADJECTIVES and words[j] is not None:
        for noun in _nouns(words[j].text):
            if case and noun.tag.case != case:
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
        tok.idx + len(tok.text),
        None if initial else capital,
        False,
        initial,
        verb=True,
    )


def russian_candidates(text: str) -> list[Candidate]:
    """Noun phrases of a Russian sentence, with every shorter phrase of the same head, and
    its verbs (`_verb`)."""
    links, not_heads = _ru_data()
    doc = nlp("ru").make_doc(text)
    words = [t if _RU_WORD.match(t.text) else None for t in doc]
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
            nxt = words[i + 1] if i + 1 < len(words) else None
            agrees_next = nxt is not None and any(
                _agrees(a, n) for a in adjs for n in _nouns(nxt.text)
            )
            if adjs and tok.text[:1].isupper() and not agrees_next:
                found.append(_make(text, [(tok, adjs[0], "head")], 0))
            continue
        for noun in nouns[:1] if len(nouns) == 1 else _distinct_cases(nouns):
            if lemma(tok.text, "ru") in not_heads:
                break
            left: list[tuple[Any, Any]] = []
            k = i - 1
            while k >= 0 and words[k] is not None and len(left) < MAX_ADJECTIVES:
                adj = next((a for a in _adjectives(words[k].text) if _agrees(a, noun)), None)
                if adj is None:
                    break
                left.insert(0, (words[k], adj))
                k -= 1
            # complements to the right: genitive phrases, or one joined by a preposition
            rights: list[list[tuple[Any, Any, str]]] = [[]]
            j = i + 1
            for _ in range(MAX_COMPLEMENTS):
                if j >= len(words) or words[j] is None:
                    break
                linked = words[j].text.lower() in links
                start = j + 1 if linked else j
                got = (
                    _phrase(words, start, None if linked else "gent")
                    if start < len(words)
                    else None
                )
                if got is None or lemma(words[start + len(got[0])].text, "ru") in not_heads:
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
    return found


def _distinct_cases(nouns: list[Any]) -> list[Any]:
    return nouns[:1]


def _make(text: str, parts: list[tuple[Any, Any, str]], head: int) -> Candidate:
    toks = [t for t, _, _ in parts]
    start, end = toks[0].idx, toks[-1].idx + len(toks[-1].text)
    initial = _initial(text, start)
    caps = [t.text[:1].isupper() for t in toks]
    capitalised = any(caps[1:]) or (caps[0] and not initial) or (None if initial else False)
    if initial and caps[0] and not any(caps[1:]):
        capitalised = None
    key = " ".join(lemma(t.text, "ru") for t in toks)
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


def dictionary_form(candidate: Candidate, plural: bool, capitals: tuple[bool, ...]) -> str:
    """The candidate with its head in the nominative (singular unless `plural`), agreeing
    adjectives, complements as written, and the given capital per word."""
    if candidate.verb:
        words = [candidate.key]
    elif not candidate.parts:
        words = list(candidate.words)
    else:
        head = next(p for p, role in candidate.parts if role == "head")
        number = "plur" if plural or "Pltm" in head.tag else "sing"
        target = {"nomn", number}
        new_head = head.inflect(target) or head
        gender = new_head.tag.gender
        words = []
        for word, (parse, role) in zip(candidate.words, candidate.parts, strict=True):
            if role == "head":
                if parse.tag.POS in ("ADJF", "PRTF"):
                    form = parse.inflect({"nomn", "sing", "masc"}) if not plural else None
                    form = form or parse.inflect({"nomn", number}) or parse
                    words.append(form.word)
                else:
                    words.append(new_head.word)
            elif role == "adjective":
                want = {"nomn", number} | ({gender} if number == "sing" and gender else set())
                words.append((parse.inflect(want) or parse).word)
            else:
                words.append(word.lower())
    out = [
        w[:1].upper() + w[1:] if cap else w[:1].lower() + w[1:]
        for w, cap in zip(words, capitals, strict=True)
    ]
    return " ".join(out)


def candidates(text: str, lang: str) -> list[Candidate]:
    """The candidate terms of a sentence in `lang`: English and Russian as above; other
    languages: capitalised words and pairs of words (no grammar of their own yet)."""
    if lang == "en":
        return english_candidates(text)
    if lang == "ru":
        return russian_candidates(text)
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
