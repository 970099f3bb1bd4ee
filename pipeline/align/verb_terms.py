"""The verbs of the rules, proposed by `glossary suggest` as entries of their own.

A team lists what the rules make a model or a unit do ("declare" = "объявлять", "pursue"
= "преследовать") beside the names of its rules. Neither side gives such a verb away by
a capital, so it is read from structure alone:

- an English verb is a word the drop writes bare and also with -ed or -ing ("declare",
  "declared"; "flee", "fleeing"), or a word the core vocabulary lists with such a form
  ("roll", "rolled"), its -s form counted with it; no stop word ("be", "have") or
  everyday verb (`light_verbs` of `lang/en/align.yaml`: "use"), and
  capitalised only where it opens its sentence (elsewhere a capital makes a name's word);
- a Russian verb is one in its infinitive (pymorphy3), its aspect partner and its
  reflexive form counted with it ("объявить", "объявлять"), but for the verbs every
  sentence uses (`light_verbs` of `lang/ru/align.yaml`: "мочь", "являться");
- a pair is proposed where the sentence pairs that show the two together outnumber
  those that show either one without the other, on each side, in two sentence pairs or
  more, and each is the other's most frequent companion; the rendering is the form the
  translation writes most there, the other forms it writes there the variants; the
  English is the base where those sentences write it ("buy" beside "buying"), as a team
  lists a verb, else the form they write most ("removed").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from functools import cache

from ..lang import data as lang_data
from ..lang import lemma, nlp, parses
from ..slug import slugify
from .suggest import MAX_VARIANTS, Bead, Suggestion
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


def _words(text: str) -> list[tuple[str, bool]]:
    """The words of an English sentence, lower case, each with whether it may be a verb:
    lower case, or capitalised only where it opens the sentence."""
    doc = nlp("en").make_doc(text)
    out = []
    opening = True
    for tok in doc:
        word = tok.text
        if not word.isalpha():
            opening = opening or word in ".!?:;"
            continue
        out.append((word.lower(), word.islower() or (opening and word[1:].islower())))
        opening = False
    return out


def english_verbs(sources: Sequence[str]) -> list[dict[str, Counter[str]]]:
    """Each sentence's English verbs: base -> the forms written (the -s form as the
    base, which a glossary's key reads alike)."""
    stop = nlp("en").Defaults.stop_words | _light_verbs("en")
    read = [[w for w, free in _words(s) if free] for s in sources]
    bare = {w for words in read for w in words if len(w) >= MIN_BASE and w not in stop}
    written = {w for words in read for w in words}
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
    out: list[dict[str, Counter[str]]] = []
    for words in read:
        found: dict[str, Counter[str]] = defaultdict(Counter)
        for w in words:
            if w in of:
                base, kind = of[w]
                found[base][base if kind == "s" else w] += 1
        out.append(found)
    return out


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
    best_ru: dict[str, tuple[int, str]] = {}
    best_en: dict[str, tuple[int, str]] = {}
    for (b, f), where in together.items():
        k = len(where)
        if k > best_ru.get(b, (0, ""))[0]:
            best_ru[b] = (k, f)
        elif k == best_ru.get(b, (0, ""))[0]:
            best_ru[b] = (k, "")  # a tie: no pair
        if k > best_en.get(f, (0, ""))[0]:
            best_en[f] = (k, b)
        elif k == best_en.get(f, (0, ""))[0]:
            best_en[f] = (k, "")
    out = []
    for (b, f), where in together.items():
        k = len(where)
        if k < min_count or best_ru[b][1] != f or best_en[f][1] != b:
            continue
        if 2 * k <= len(en_beads[b]) or 2 * k <= len(ru_beads[f]):
            continue  # the sentence pairs with one of them alone are as many
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
        out.append((written, first, variants, k, len(en_beads[b]), len(ru_beads[f]), min(where)))
    return out


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
    have_target = {_lemmas(f) for s in taken for f in (s.target, *s.variants)}
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


def _lemmas(text: str) -> str:
    return " ".join(lemma(w, "ru") for w in text.split())
