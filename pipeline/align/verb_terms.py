"""The verbs of the rules, proposed by `glossary suggest` as entries of their own.

A team lists what the rules make a model or a unit do ("declare" = "объявлять", "pursue"
= "преследовать") beside the names of its rules. Neither side gives such a verb away by
a capital, so it is read from structure alone:

- an English verb is a word any word of the drop gives as a base, a name's too, that
  the drop also writes with -ed or -ing ("declare", "declared"; "Charge", "charging"),
  or that the core vocabulary lists so ("roll", "rolled"), its -s form counted with it;
  or one it writes only so, by its look ("destroyed", "removes"; not a form of a
  capitalised term of the vocabulary, "charged", which `suggest` reads as Charge); no
  stop word ("be", "have") or everyday verb (`light_verbs` of `lang/en/align.yaml`:
  "use"); counted where it is the text's own (lower case, or opening a sentence that
  is no title: "Failed Casting:" is one) and no noun (not after a determiner: "at the
  start"; an -ed or -ing form still is: "the charging unit");
- a Russian verb is one in its infinitive (pymorphy3), its aspect partner and its
  reflexive form counted with it ("объявить", "объявлять"), but for the verbs every
  sentence uses (`light_verbs` of `lang/ru/align.yaml`: "мочь", "являться");
- a pair is proposed where the sentence pairs that show the two together outnumber
  those that show either one without the other, on each side, in two sentence pairs or
  more (a near copy's, the same English, is no second one), and each is the other's
  best companion by Dice, the share of their sentence pairs they meet in ("leave" is
  "покинуть", not "бежать" said there and in many more); a lower-case word of the core
  vocabulary pairs only with its renderings and the verbs made from them ("wound" is no
  "кидать"), and a rendering of another word of the vocabulary said in half the
  pair's sentences or more is that word's ("объявить" beside "declare a Charge"); the
  rendering is the form the translation writes most there, the other forms it writes
  there the variants (and the active verb of a reflexive passive, where the English
  is an -ed form: "removed" = "сниматься", "снимать"); the English is the base where
  those sentences write it ("buy" beside "buying"), as a team lists a verb, else the
  form they write most ("removed").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import cache

from ..lang import data as lang_data
from ..lang import nlp, parses
from ..slug import slugify
from .suggest import MAX_VARIANTS, Bead, Suggestion, _inflections, _lemmas
from .terms import candidates, english_key

#: The note of a verb's proposal (`suggest(..., verbs=False)` proposes none: the
#: bootstrap's glossary).
VERB = "a verb both texts say"

#: Shortest English base read as a verb ("set", "hit" are words; "re" is none).
MIN_BASE = 3

#: Letters two infinitives share from the start to be one verb's two aspects, and at
#: most this many fewer than the shorter has ("объяв-ить", "объяв-лять"; "про-йти" and
#: "про-ходить" are too short to tell; "перест-роить" and "перест-авать" two verbs).
ASPECT_STEM = 5
ASPECT_REST = 3


def _forms(base: str) -> dict[str, str]:
    """The -s, -ed and -ing forms of an English base -> which ending each is."""
    out = {base + "s": "s", base + "es": "s", base + "ed": "ed", base + "ing": "ing"}
    if base.endswith("e"):
        out |= {base + "d": "ed", base[:-1] + "ing": "ing"}
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        out |= {base[:-1] + "ies": "s", base[:-1] + "ied": "ed"}
    if len(base) >= 3 and base[-1] not in "aeiouwxy" and base[-2] in "aeiou":
        out |= {base + base[-1] + "ed": "ed", base + base[-1] + "ing": "ing"}
    return out


@cache
def _vocabulary_bases() -> frozenset[str]:
    """The core vocabulary's English words listed with an -ed or -ing form ("roll",
    "rolled", "rolling"): verbs by the vocabulary's own word."""
    from ..extract.keywords import core_lexicon

    out = set()
    for term in core_lexicon().terms:
        forms = {f.lower() for f in term.renderings.get("en", ()) if " " not in f}
        for base in forms:
            if any(_forms(base).get(f) in ("ed", "ing") for f in forms):
                out.add(base)
    return frozenset(out)


#: Words before a noun, never a verb: "at the start", "keeps its place" ("that" is
#: also a relative pronoun: "a rule that sets").
DETERMINERS = frozenset(
    {"a", "an", "the", "its", "his", "her", "their", "your", "our", "my", "this", "these"}
    | {"those", "each", "every", "any", "no"}
)


def _words(text: str) -> list[tuple[str, bool, bool]]:
    """The words of an English sentence, lower case, each with whether it is a word of
    the text's own (lower case, or capitalised only where it opens the sentence and no
    capitalised word follows: "Failed Casting:" is a title) and whether it may be a verb
    there (not after a determiner: "at the start" is a noun)."""
    toks = [t.text for t in nlp("en").make_doc(text)]
    out = []
    opening = True
    before = ""
    for i, word in enumerate(toks):
        if not word.isalpha():
            opening = opening or word in ".!?:;"
            before = ""
            continue
        after = toks[i + 1] if i + 1 < len(toks) else ""
        free = word.islower() or (opening and word[1:].islower() and not after[:1].isupper())
        out.append((word.lower(), free, free and before.lower() not in DETERMINERS))
        opening = False
        before = word
    return out


def english_verbs(sources: Sequence[str]) -> list[dict[str, Counter[str]]]:
    """Each sentence's English verbs: base -> the forms written (the -s form as the
    base, which a glossary's key reads alike)."""
    stop = nlp("en").Defaults.stop_words | _light_verbs("en")
    words = [_words(s) for s in sources]
    # a verb by any word of the drop, a name's or a title's too ("Charge": "charged",
    # "charging"; "Buying Command Models:": "buy"), counted where it is the text's own
    written = {w for sentence in words for w, _, _ in sentence}
    bare = {w for w in written if len(w) >= MIN_BASE} - stop
    bases = {
        b
        for b in bare
        if any(kind in ("ed", "ing") and f in written for f, kind in _forms(b).items())
    } | (_vocabulary_bases() & written)
    of: dict[str, tuple[str, str]] = {}  # a written form -> (base, its ending)
    for b in bases:
        of[b] = (b, "")
        for f, kind in _forms(b).items():
            of.setdefault(f, (b, kind))
    # a verb the drop writes with -ed or -ing but never bare ("destroyed", "removes"):
    # its forms by their stem ("remov"), each as written
    # (not a form of a capitalised term of the vocabulary: "charged" is Charge's)
    stems = {_stem(w) for w in written - stop - of.keys() - _term_forms() if _inflected(w)}
    stems -= {_stem(w) for w in stop}  # "making" is make's
    for w in written - stop - of.keys():
        if _stem(w) in stems:
            of[w] = (_stem(w), "")
    out: list[dict[str, Counter[str]]] = []
    for sentence in words:
        found: dict[str, Counter[str]] = defaultdict(Counter)
        for w, own, verb in sentence:
            if own and w in of:
                base, kind = of[w]
                if verb or kind in ("ed", "ing") or _inflected(w):  # "the charging unit"
                    found[base][base if kind == "s" else w] += 1
        out.append(found)
    return out


@cache
def _term_forms() -> frozenset[str]:
    """The -ed and -ing forms of the vocabulary's capitalised terms ("charged",
    "marching"), which `suggest` reads as the terms."""
    from ..extract.keywords import core_lexicon

    return frozenset(
        inflected
        for term in core_lexicon().terms
        if term.renderings["en"][0][:1].isupper()
        for form in term.renderings["en"]
        for inflected in _inflections(form)
    )


def _inflected(word: str) -> bool:
    """An -ed or -ing form by its look ("destroyed", "hiding"; not "need", "thing")."""
    if word.endswith("ing"):
        return len(word) >= 6
    return word.endswith("ed") and not word.endswith("eed") and len(word) >= 5


def _stem(word: str) -> str:
    """An English word less its -s, -ed or -ing, a last "e" and a doubled consonant:
    "removes", "removed" and "remove" are "remov"; "stopped" is "stop"."""
    for suffix in ("ing", "ied", "ies", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_BASE:
            word = word[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            break
    word = word.removesuffix("e")
    if len(word) > MIN_BASE and word[-1] == word[-2] and word[-1] not in "aeiouy":
        word = word[:-1]
    return word


@cache
def _light_verbs(lang: str) -> frozenset[str]:
    """The verbs of a language no rule's own (`light_verbs` of its align.yaml)."""
    return frozenset(lang_data(lang, "align", fallback=False).get("light_verbs", ()))


@cache
def _aspect(verb: str) -> str:
    read = [p for p in parses(verb) if p.tag.POS == "INFN"]
    return str(read[0].tag.aspect or "") if read else ""


def _partners(a: str, b: str) -> bool:
    """One verb's two aspects ("объявить", "объявлять") or its reflexive form
    ("снимать", "сниматься")."""
    bare_a, bare_b = _unreflexive(a), _unreflexive(b)
    if bare_a == bare_b:
        return True
    shared = next(
        (i for i, (x, y) in enumerate(zip(bare_a, bare_b, strict=False)) if x != y),
        min(len(bare_a), len(bare_b)),
    )
    return (
        shared >= max(ASPECT_STEM, min(len(bare_a), len(bare_b)) - ASPECT_REST)
        and _aspect(a) != _aspect(b)
        and "" not in (_aspect(a), _aspect(b))
    )


def _unreflexive(verb: str) -> str:
    return verb.removesuffix("ся").removesuffix("сь")


def russian_verbs(targets: Sequence[str]) -> list[Counter[str]]:
    """Each sentence's Russian verbs by infinitive (participles and gerunds too)."""
    light = _light_verbs("ru")
    out = []
    for text in targets:
        out.append(Counter(c.key for c in candidates(text, "ru") if c.verb and c.key not in light))
    return out


def _active(verb: str) -> str:
    """The verb a reflexive one is the passive of, where the dictionary knows it
    ("сниматься": "снимать"), else ""."""
    bare = _unreflexive(verb)
    if bare == verb or not _aspect(bare) or _aspect(bare) != _aspect(verb):
        return ""
    return bare


def _families(verbs: Iterable[str]) -> dict[str, str]:
    """Each verb -> its family's first member (aspects and reflexive forms one family)."""
    head: dict[str, str] = {}
    for v in sorted(verbs):
        head[v] = next((head[h] for h in head if _partners(h, v)), v)
    return head


def verb_pairs(
    sources: Sequence[str], targets: Sequence[str], min_count: int = 2
) -> list[tuple[str, str, tuple[str, ...], int, int, int, int]]:
    """(English as written most, rendering, variants, together, English count, rendering
    count, first sentence of the pair) for each verb pair the sentences show."""
    en = english_verbs(sources)
    ru = russian_verbs(targets)
    family = _families({v for c in ru for v in c})
    en_beads: dict[str, set[int]] = defaultdict(set)
    ru_beads: dict[str, set[int]] = defaultdict(set)
    together: dict[tuple[str, str], set[int]] = defaultdict(set)
    for n, (e, r) in enumerate(zip(en, ru, strict=True)):
        fams = {family[v] for v in r}
        for b in e:
            en_beads[b].add(n)
        for f in fams:
            ru_beads[f].add(n)
        for b in e:
            for f in fams:
                together[(b, f)].add(n)
    # each one's best companion by Dice, the share of their sentence pairs they meet in
    best_ru: dict[str, tuple[float, str]] = {}
    best_en: dict[str, tuple[float, str]] = {}
    for (b, f), where in together.items():
        dice = 2 * len(where) / (len(en_beads[b]) + len(ru_beads[f]))
        if dice > best_ru.get(b, (0.0, ""))[0]:
            best_ru[b] = (dice, f)
        elif dice == best_ru.get(b, (0.0, ""))[0]:
            best_ru[b] = (dice, "")  # a tie: no pair
        if dice > best_en.get(f, (0.0, ""))[0]:
            best_en[f] = (dice, b)
        elif dice == best_en.get(f, (0.0, ""))[0]:
            best_en[f] = (dice, "")
    out = []
    for (b, f), where in together.items():
        k = len(where)
        if k < min_count or best_ru[b][1] != f or best_en[f][1] != b:
            continue
        if len({sources[n] for n in where}) < min_count:
            continue  # a near copy's sentence pair is no second one
        if 2 * k <= len(en_beads[b]) or 2 * k <= len(ru_beads[f]):
            continue  # the sentence pairs with one of them alone are as many
        members = [v for v in family if family[v] == f]
        if not _vocabulary_allows(b, members, [sources[n] for n in where]):
            continue
        english: Counter[str] = Counter()
        russian: Counter[str] = Counter()
        for n in where:
            english.update(en[n][b])
            russian.update({v: c for v, c in ru[n].items() if family[v] == f})
        # the base where the pair's sentences write it ("buy" beside "buying"), as a team
        # lists it; else the form they write most ("removed")
        written = b if english[b] else english.most_common(1)[0][0]
        first = russian.most_common(1)[0][0]
        variants = tuple(v for v, _ in russian.most_common() if v != first)
        active = _active(first)
        if active and active not in variants and written.endswith("ed"):
            # "is removed": "снимается", the passive of "снимать", as a team lists it
            variants = (active, *variants)
        out.append((written, first, variants, k, len(en_beads[b]), len(ru_beads[f]), min(where)))
    return out


@cache
def _vocabulary() -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    """The core vocabulary's lower-case English words -> their renderings (lemmas), and
    each rendering -> the English words of its entry."""
    from ..extract.keywords import core_lexicon

    renders: dict[str, tuple[str, ...]] = {}
    english: dict[str, set[str]] = defaultdict(set)
    for term in core_lexicon().terms:
        words = {f.lower() for f in term.renderings.get("en", ()) if " " not in f}
        forms = tuple(_lemmas(f, "ru") for f in term.renderings.get("ru", ()))
        if term.renderings["en"][0][:1].islower():
            for word in words:
                renders[word] = forms
        for form in forms:
            english[form] |= words
    return renders, {k: frozenset(v) for k, v in english.items()}


def _vocabulary_allows(base: str, verbs: Sequence[str], sentences: Sequence[str]) -> bool:
    """Whether the core vocabulary leaves the pair free: a lower-case word of it pairs
    with its renderings and the verbs made from them only ("wound" is no "кидать"), and
    a rendering of another word of it that most of the pair's sentences say renders that
    word ("объявить" beside "declare a Charge" is declare's, not "charged"'s)."""
    from .suggest import _cognate

    renders, english = _vocabulary()
    if base in renders and not any(v in renders[base] or _cognate(v, renders[base]) for v in verbs):
        return False
    said = [{w for w, _, _ in _words(s)} for s in sentences]
    for v in verbs:
        others = {w for w in english.get(v, ()) if _stem(w) != _stem(base)}
        if others and 2 * sum(bool(others & words) for words in said) >= len(said):
            return False
    return True


def propose(
    beads: Sequence[Bead],
    taken: Sequence[Suggestion],
    lang: str,
    min_count: int,
    reviewed_en: Iterable[str] = (),
    reviewed_target: Iterable[str] = (),
) -> list[Suggestion]:
    """The verb pairs of the beads as proposals, but for an English term or a rendering
    proposed already or reviewed in the glossary (keys and lemmas)."""
    if lang != "ru":
        return []  # the infinitive and the aspects are read with pymorphy3 only
    have_en = {english_key(s.source.split()) for s in taken} | set(reviewed_en)
    have_target = {_lemmas(f, "ru") for s in taken for f in (s.target, *s.variants)}
    have_target |= set(reviewed_target)
    out = []
    for written, first, variants, k, n_en, n_ru, n in verb_pairs(
        [b.source for b in beads], [b.target for b in beads], min_count
    ):
        if english_key(written.split()) in have_en or {first, *variants} & have_target:
            continue
        out.append(
            Suggestion(
                term=slugify(written, fallback="term"),
                source=written,
                target=first,
                lang=lang,
                together=k,
                source_count=n_en,
                target_count=n_ru,
                score=round(2 * k / (n_en + n_ru), 3),
                example=beads[n],
                note=VERB,
                variants=variants[:MAX_VARIANTS],
            )
        )
    return out
