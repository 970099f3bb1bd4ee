"""The terms every team lists that are no capitalised run nor noun phrase of `suggest`:
dice as the drop writes them ("D6" = "к6"), rolls named by their number ("natural 6" =
"натуральная шестёрка", "double 1" = "дубль единиц") or by their goal ("to hit" = "на
попадание"), the sides a piece is on, said by an adjective ("enemy" = "вражеский",
"friendly" = "дружественный"), and the states the vocabulary's verbs name by a participle
("failed" = "проваленный").

A die is the first line of nearly every team's list, written the drop's own way ("к6",
"К6", "Д6" or "D6"). Both sides of a bead are read by `pipeline.quantities`, which gives a
die one canonical form whatever letter writes it: where the English and the translation of
one bead write the same die, the translation's form is the die's rendering, the form most
of its beads use. A roll is named by the quantity grammar's word for it (`context` of
`lang/*/quantities.yaml`: natural, double) and its number, a digit or one of the nouns of
`number_nouns` (`lang/ru/align.yaml`); a roll's goal ("to hit") by the rule word's
rendering after a preposition ("на попадание"). A side is the core vocabulary's adjective
for a word of `kind: subject` or `kind: side` (`lang/lexicon.yaml`) where the English
writes the word before a noun ("enemy unit"); a noun the drop proposes already for it
("противник") keeps the adjective as its variant. A state is the past form of a vocabulary
verb that lists its participle among its renderings (fail: "проваленный"), where the
translation writes a passive participle of one of the verb's renderings ("тест провален":
"проваленный"), or the -ing form of a vocabulary verb (not one the vocabulary lists first:
"shooting" is the noun), where it writes a present active participle ("a fleeing unit",
"бегущий отряд": "бегущий"). Alignment reads all of these as quantities and vocabulary
words already, so the bootstrap leaves them out (`COMMON_BASES`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from itertools import pairwise

from ..extract.keywords import core_words
from ..lang import data as lang_data
from ..lang import lemma, nlp, notation, parses
from ..quantities import find_quantities
from ..slug import slugify
from .suggest import UNSURE, UNSURE_CONFIDENCE, Bead, Suggestion
from .terms import english_key

#: The note of a die's proposal.
DIE = "a die the quantity reader reads on both sides"

#: A die's score: the notation pairs it, no count.
DIE_SCORE = 0.9

#: The quantities whose expression may hold a die ("2D6″" is a distance rolled).
_DICE_TYPES = frozenset({"dice", "distance", "bracket"})


def _proposal(
    source: str,
    target: str,
    lang: str,
    beads: Sequence[Bead],
    where: Sequence[int],
    counts: tuple[int, int],
    note: str,
    variants: tuple[str, ...] = (),
    score: float = DIE_SCORE,
    once: bool = True,
) -> Suggestion:
    """One proposal of this module, seen in the beads `where`; with `once`, one seen in a
    single bead says so and is as sure as any such proposal (`UNSURE_CONFIDENCE`)."""
    if once and len(where) < 2:
        note, score = f"{note}; {UNSURE}one occurrence", min(score, UNSURE_CONFIDENCE)
    return Suggestion(
        term=slugify(source, fallback="term"),
        source=source,
        target=target,
        lang=lang,
        together=len(where),
        source_count=counts[0],
        target_count=counts[1],
        score=score,
        example=beads[where[0]],
        note=note,
        variants=variants[:1],
    )


@cache
def _die() -> re.Pattern[str]:
    """A plain die written with any of the notation's die letters ("2к6", "D3")."""
    letters = re.escape(notation().die_letters)
    return re.compile(rf"(?<![\w+])([0-9]{{0,2}})([{letters}])([0-9]{{1,3}})(?!\w)")


def dice(text: str, lang: str) -> dict[str, str]:
    """The dice a text writes: canonical form ("2D6") -> the form as written ("2к6"); a
    die with something added is still that die ("D3+1" rolls D3, "к3+1" writes it
    "к3"); one added to a value ("X+D6") is the value's."""
    out: dict[str, str] = {}
    for q in find_quantities(text, lang):
        if q.type not in _DICE_TYPES or not q.expr:
            continue
        for m in _die().finditer(q.surface):
            count = "" if m.group(1) in ("", "1") else m.group(1)
            out.setdefault(f"{count}D{m.group(3)}", m.group())
    return out


def _most(forms: Counter[str]) -> str:
    """The form most beads write; of equal counts, the first in order."""
    return max(forms, key=lambda f: (forms[f], -sorted(forms).index(f)))


def die_terms(beads: Sequence[Bead], lang: str) -> list[Suggestion]:
    """A proposal for every die both sides of a bead write, in the translation's form."""
    english: dict[str, Counter[str]] = defaultdict(Counter)
    target: dict[str, Counter[str]] = defaultdict(Counter)
    where: dict[str, list[int]] = defaultdict(list)
    for n, bead in enumerate(beads):
        source = dice(bead.source, "en")
        if not source:
            continue
        for expr, written in dice(bead.target, lang).items():
            if expr in source:
                english[expr][source[expr]] += 1
                target[expr][written] += 1
                where[expr].append(n)
    out = []
    for expr, n_beads in where.items():
        source = _most(english[expr])
        forms = target[expr]
        first = _most(forms)
        # a form of the die a hand also writes often is its variant ("D6" beside "Д6")
        variants = tuple(
            f for f in sorted(forms, key=lambda f: -forms[f]) if f.lower() != first.lower()
        )
        variants = tuple(f for f in variants if forms[f] > 1)
        counts = (sum(english[expr].values()), sum(forms.values()))
        # a die is a die seen once too: no doubt
        proposal = _proposal(source, first, lang, beads, n_beads, counts, DIE, variants, once=False)
        out.append(proposal)
    return out


#: The note of an adjective's proposal.
MODIFIER = "the vocabulary's adjective where the English word stands before a noun"

#: The vocabulary's kinds whose adjective a team lists: the sides a piece is on.
SIDES = frozenset({"subject", "side"})

_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


@cache
def _adjectives(lang: str) -> dict[str, tuple[str, ...]]:
    """English form of a vocabulary word -> its renderings that are adjectives
    ("enemy" -> "вражеский")."""
    out: dict[str, tuple[str, ...]] = {}
    for t in core_words().terms:
        if t.kind not in SIDES:
            continue
        found = []
        for r in t.renderings.get(lang, ()):
            read = parses(r.lower())[:1] if " " not in r else []
            if read and read[0].tag.POS == "ADJF":
                found.append(r.lower())
        if found:
            for f in t.renderings.get("en", ()):
                if " " not in f:
                    out.setdefault(f.lower(), tuple(found))
    return out


def _before_a_noun(text: str, words: Iterable[str]) -> set[str]:
    """The words of `words` a text writes in lower case right before a word of meaning
    ("enemy unit", "friendly Characters"; not "the enemy is")."""
    stop = nlp("en").Defaults.stop_words
    out = set()
    for word in words:
        for m in re.finditer(rf"(?<![\w-]){re.escape(word)}\s+([\w-]+)", text):
            if m.group(1).lower() not in stop:
                out.add(word)
    return out


def _best_seen(met: dict[tuple[str, str], list[int]]) -> dict[str, tuple[str, list[int]]]:
    """Each English word's rendering seen in the most beads (of a tie, the first in order)
    and those beads, from (word, rendering) -> beads."""
    best: dict[str, tuple[str, list[int]]] = {}
    for (word, rendering), where in sorted(met.items()):
        if len(where) > len(best.get(word, ("", []))[1]):
            best[word] = (rendering, where)
    return best


def modifier_terms(beads: Sequence[Bead], lang: str) -> list[Suggestion]:
    """A vocabulary word the English writes before a noun ("enemy unit"), rendered by
    the vocabulary's adjective the translation writes there ("вражеский"), the one most
    beads write."""
    adjectives = _adjectives(lang)
    met: dict[tuple[str, str], list[int]] = defaultdict(list)
    english: Counter[str] = Counter()
    for n, bead in enumerate(beads):
        words = _before_a_noun(bead.source, adjectives)
        if not words:
            continue
        lemmas = {lemma(w, lang) for w in _WORD.findall(bead.target.lower())}
        for word in words:
            english[word] += 1
            for adjective in adjectives[word]:
                if adjective in lemmas:
                    met[(word, adjective)].append(n)
    out = []
    for word, (adjective, where) in _best_seen(met).items():
        score = round(len(where) / english[word], 3)
        counts = (english[word], len(where))
        out.append(_proposal(word, adjective, lang, beads, where, counts, MODIFIER, score=score))
    return out


#: The note of a roll's proposal.
ROLL = "a roll the quantity grammar names, with its number"

#: The quantity grammar's words that name a roll by the number it shows.
ROLL_WORDS = ("natural", "double")


@cache
def _roll_words(lang: str) -> dict[str, str]:
    """A roll's word in `lang`, by lemma -> its role ("натуральный" -> natural)."""
    context = lang_data(lang, "quantities").get("context") or {}
    return {lemma(w, lang): role for role in ROLL_WORDS for w in context.get(role, ())}


@cache
def _number_nouns(lang: str) -> dict[str, int]:
    """The nouns that name a number, by lemma ("шестёрка" -> 6)."""
    nouns = lang_data(lang, "align", fallback=False).get("number_nouns") or {}
    return {lemma(w, lang): int(n) for n, forms in nouns.items() for w in forms if n == int(n)}


def _english_rolls(text: str) -> dict[tuple[str, int], str]:
    """The rolls an English text names with a digit ("natural 6"; "double 1s" is double
    1)."""
    words = (lang_data("en", "quantities").get("context") or {}).get
    out = {}
    for role in ROLL_WORDS:
        for word in words(role, ()):
            for m in re.finditer(rf"(?<![\w-]){word} ([1-9])(?:'?s)?(?![\w-])", text, re.I):
                out.setdefault((role, int(m.group(1))), m.group()[: len(word) + 2])
    return out


def _rolls(text: str, lang: str) -> dict[tuple[str, int], str]:
    """The rolls a translation names: the grammar's word for a roll and the number after
    it, a digit or a noun ("натуральной шестёрке", "дубль единиц"), in dictionary form
    ("натуральная шестёрка": an adjective agrees with the noun, a noun heads its
    complement as written)."""
    roles, numbers = _roll_words(lang), _number_nouns(lang)
    words = list(_NUMBERED.finditer(text))
    out: dict[tuple[str, int], str] = {}
    for first, second in pairwise(words):
        role = roles.get(lemma(first.group(), lang))
        if role is None or text[first.end() : second.start()].strip():
            continue
        after = second.group()
        value = int(after) if after.isdigit() else numbers.get(lemma(after, lang))
        if value is None:
            continue
        read = parses(first.group().lower())[:1]
        noun = parses(after.lower())[:1] if not after.isdigit() else []
        head = first.group().lower()
        if read and read[0].tag.POS == "ADJF":  # "натуральная шестёрка", "натуральная 6"
            gender = noun[0].tag.gender if noun else read[0].tag.gender
            agreed = read[0].inflect({"nomn", "sing", gender} if gender else {"nomn", "sing"})
            head = agreed.word if agreed else read[0].normal_form
            after = noun[0].normal_form if noun else after
        elif read:
            head = read[0].normal_form
        out.setdefault((role, value), f"{head} {after}")
    return out


_NUMBERED = re.compile(r"[^\W\d_]+|[0-9]+")


def roll_terms(beads: Sequence[Bead], lang: str) -> list[Suggestion]:
    """A roll named by the number it shows ("natural 6", "double 1") where both sides of
    a bead name it, in the translation's form most of its beads use."""
    english: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    target: dict[tuple[str, int], Counter[str]] = defaultdict(Counter)
    where: dict[tuple[str, int], list[int]] = defaultdict(list)
    for n, bead in enumerate(beads):
        source = _english_rolls(bead.source)
        if not source:
            continue
        for key, written in _rolls(bead.target, lang).items():
            if key in source:
                english[key][source[key].lower()] += 1
                target[key][written] += 1
                where[key].append(n)
    out = []
    for key, n_beads in where.items():
        source = _most(english[key])
        counts = (sum(english[key].values()), sum(target[key].values()))
        out.append(_proposal(source, _most(target[key]), lang, beads, n_beads, counts, ROLL))
    return out


#: The note of a state's proposal: a past form, a passive participle.
STATE = "the passive participle of the vocabulary's verb where the English writes its past form"

#: ... an -ing form, an active participle.
STATE_ACTIVE = (
    "the active participle of the vocabulary's verb where the English writes its -ing form"
)


def _past(form: str) -> str:
    """The past form of a one-word English verb, lower case ("fail" -> "failed", "remove"
    -> "removed"); a form that is one already is itself."""
    low = form.lower()
    if low.endswith("ed"):
        return low
    return low + "d" if low.endswith("e") else low + "ed"


def _ing(form: str) -> str:
    """The -ing form of a one-word English verb, lower case ("flee" -> "fleeing", "pursue"
    -> "pursuing")."""
    low = form.lower()
    return low[:-1] + "ing" if low.endswith("e") and not low.endswith("ee") else low + "ing"


@cache
def _state_forms(lang: str) -> dict[str, tuple[str, frozenset[str]]]:
    """English form of a state -> the voice of the participle that renders it and the
    lemmas of its verb's one-word renderings: the past form of a vocabulary verb that lists
    its state, a participle, among its renderings ("failed": passive, "провалить"; a verb
    whose participle names an act, "распределённый" for allocated, lists none), and the
    -ing form of a vocabulary verb ("fleeing": active, "бежать"; "charging" also
    "атаковать", which `also_renders` gives Charge), unless the vocabulary lists the -ing
    form first ("shooting": the noun)."""
    out: dict[str, tuple[str, set[str]]] = {}
    one_word = {
        t.id: [r.lower() for r in t.renderings.get(lang, ()) if " " not in r]
        for t in core_words().terms
    }
    # the renderings of a word that many hands also write for another ("атаковать" for
    # Charge: `also_renders`) render that word's state too ("атакующий", charging)
    others: dict[str, set[str]] = defaultdict(set)
    table = lang_data(lang, "align", fallback=False).get("also_renders") or {}
    for word, stands_for in table.items():
        for other in stands_for:
            others[other].update(lemma(r, lang) for r in one_word.get(word, ()))
    for t in core_words().terms:
        words = one_word[t.id]
        renderings = {lemma(r, lang) for r in words}
        if any(read[:1] and read[0].tag.POS == "PRTF" for read in map(parses, words)):
            for f in t.renderings.get("en", ()):
                if " " not in f and f.isalpha():
                    out.setdefault(_past(f), ("pssv", set()))[1].update(renderings)
        forms = t.renderings.get("en", ("",))
        if forms[0].lower().endswith("ing"):  # "shooting": the word is the noun
            continue
        for f in forms:
            if f.isalpha() and not f.lower().endswith("ing"):
                out.setdefault(_ing(f), ("actv", set()))[1].update(renderings | others[t.id])
    return {k: (voice, frozenset(v)) for k, (voice, v) in out.items()}


def _participles(text: str, lang: str) -> dict[tuple[str, str], str]:
    """The participles of a translation: (voice, the verb's lemma) -> the participle's
    full form ("уничтожен": ("pssv", "уничтожить") -> "уничтоженный")."""
    out: dict[tuple[str, str], str] = {}
    for m in _WORD.finditer(text.lower()):
        read = parses(m.group())[:1]
        if not read or read[0].tag.POS not in ("PRTF", "PRTS"):
            continue
        full = read[0].inflect({"PRTF", "nomn", "sing", "masc"})
        voice = "pssv" if "pssv" in read[0].tag else "actv"
        if full is not None and (voice == "pssv" or "pres" in read[0].tag):
            out.setdefault((voice, read[0].normal_form), full.word)
    return out


def state_terms(beads: Sequence[Bead], lang: str) -> list[Suggestion]:
    """A vocabulary verb's past or -ing form the English writes in lower case ("a failed
    test", "a fleeing unit"), rendered by the participle of its verb the translation writes
    there, passive or active, in its full form ("проваленный", "бегущий"): the state a
    team lists."""
    states = _state_forms(lang)
    met: dict[tuple[str, str], list[int]] = defaultdict(list)
    for n, bead in enumerate(beads):
        words = {w for w in _WORD.findall(bead.source) if w in states}
        if not words:
            continue
        participles = _participles(bead.target, lang)
        for word in words:
            voice, verbs = states[word]
            for (has, verb), full in participles.items():
                if has == voice and verb in verbs:
                    met[(word, full)].append(n)
    out = []
    for word, (full, where) in _best_seen(met).items():
        note = STATE if states[word][0] == "pssv" else STATE_ACTIVE
        counts = (len(where), len(where))
        out.append(_proposal(word, full, lang, beads, where, counts, note))
    return out


#: The note of a roll's goal.
GOAL = "a roll's goal: the rule word after 'to', its rendering after a preposition"


@cache
def _goals(lang: str) -> tuple[re.Pattern[str], dict[str, frozenset[str]]]:
    """The English of a roll's goal, "to" and a `kind: term` word of the vocabulary ("to
    hit", "to-wound"), as a pattern; and that word -> the lemmas of its one-word noun
    renderings ("hit" -> "попадание")."""
    nouns: dict[str, frozenset[str]] = {}
    for t in core_words().terms:
        if t.kind != "term":
            continue
        found = frozenset(
            lemma(r.lower(), lang)
            for r in t.renderings.get(lang, ())
            if " " not in r and (read := parses(r.lower())[:1]) and read[0].tag.POS == "NOUN"
        )
        for f in t.renderings.get("en", ()):
            if f.isalpha() and found:
                nouns[f.lower()] = found
    words = "|".join(sorted(map(re.escape, nouns), key=lambda w: (-len(w), w)))
    context = (lang_data("en", "quantities").get("context") or {}).get("roll", ())
    rolls = "|".join(rf"{re.escape(w)}(?:s|ing)?" for w in context) or "(?!)"
    return (
        re.compile(
            rf"(?<![\w-])(?:(?P<before>{rolls}) )?(?P<goal>to[ -](?P<word>{words}))"
            rf"(?P<after> (?:{rolls}))?(?![\w-])",
            re.I,
        ),
        nouns,
    )


@cache
def _links(lang: str) -> frozenset[str]:
    """The prepositions that join a complement to a term ("тест на панику")."""
    return frozenset(lang_data(lang, "align", fallback=False).get("term_links") or ())


def goal_terms(beads: Sequence[Bead], lang: str) -> list[Suggestion]:
    """A roll's goal the English writes as "to" and a rule word ("to hit"), rendered by
    the word's rendering after a preposition as the drop writes it ("на попадание", "к
    попаданию"; with the quantity grammar's word for the roll where it stands before:
    "бросок на попадание"), the form most beads use; another form is its variant. Where
    both sides name the roll too ("roll to hit", "to-hit roll"), that is a term of its
    own."""
    pattern, nouns = _goals(lang)
    links = _links(lang)
    context = lang_data(lang, "quantities").get("context") or {}
    rolls = {lemma(w, lang) for w in context.get("roll", ())}
    english: dict[tuple[str, bool], Counter[str]] = defaultdict(Counter)
    target: dict[tuple[str, bool], Counter[str]] = defaultdict(Counter)
    where: dict[tuple[str, bool], list[int]] = defaultdict(list)
    for n, bead in enumerate(beads):
        # the goal as written, alone and with the roll's word ("to hit", "roll to hit")
        goals: dict[str, tuple[str, str]] = {}
        for m in pattern.finditer(bead.source):
            rolled = m.group() if m.group("before") or m.group("after") else ""
            goals.setdefault(m.group("word").lower(), (m.group("goal").lower(), rolled.lower()))
        if not goals:
            continue
        words = list(_WORD.finditer(bead.target))
        seen: dict[str, str] = {}
        for i, (before, word) in enumerate(pairwise(words)):
            if (
                before.group().lower() not in links
                or bead.target[before.end() : word.start()] != " "
            ):
                continue
            for goal in goals:
                if lemma(word.group().lower(), lang) in nouns[goal]:
                    written = f"{before.group().lower()} {word.group().lower()}"
                    head = words[i - 1].group().lower() if i else ""
                    if head and lemma(head, lang) in rolls:  # "бросок на попадание"
                        written = f"{lemma(head, lang)} {written}"
                    seen.setdefault(goal, written)
        for goal, written in seen.items():
            alone, rolled = goals[goal]
            # a roll the English and the translation both name is a term of its own
            key = (goal, bool(rolled) and written.split()[0] in rolls)
            english[key][rolled if key[1] else alone] += 1
            target[key][written] += 1
            where[key].append(n)
    out = []
    for goal, n_beads in where.items():
        source, forms = _most(english[goal]), target[goal]
        first = _most(forms)
        variants = tuple(f for f in sorted(forms, key=lambda f: -forms[f]) if f != first)
        counts = (sum(english[goal].values()), sum(forms.values()))
        out.append(_proposal(source, first, lang, beads, n_beads, counts, GOAL, variants))
    return out


#: The notes of these proposals, which alignment reads as quantities and words already.
COMMON_BASES = frozenset({DIE, MODIFIER, ROLL, STATE, STATE_ACTIVE, GOAL})


def with_common_terms(
    out: list[Suggestion], beads: Sequence[Bead], lang: str, known: Iterable[str] = ()
) -> list[Suggestion]:
    """The proposals with the dice, rolls, sides and states added, none of a term proposed
    already or known (a side's adjective joins the noun proposed for it as its variant)."""
    reviewed = set(known)
    taken = {english_key(s.source.split()) for s in out} | reviewed
    ids = {s.term for s in out}  # "to hit" beside a proposed "To-Hit" would share its id
    added = []
    for s in (
        *die_terms(beads, lang),
        *roll_terms(beads, lang),
        *state_terms(beads, lang),
        *goal_terms(beads, lang),
    ):
        if english_key(s.source.split()) not in taken and s.term not in ids:
            added.append(s)
            ids.add(s.term)
    by_key = {english_key(s.source.split()): i for i, s in enumerate(out)}
    out = list(out)
    for s in modifier_terms(beads, lang):
        key = english_key(s.source.split())
        if key in reviewed:
            continue
        if key in by_key:  # the noun proposed already: the adjective is its variant
            have = out[by_key[key]]
            if s.target not in {have.target.lower(), *(v.lower() for v in have.variants)}:
                out[by_key[key]] = replace(have, variants=(s.target, *have.variants))
        elif s.term not in ids:
            added.append(s)
            ids.add(s.term)
    return [*out, *added]
