"""Paragraph alignment: which English cluster each foreign cluster translates.

Candidates come from an inverted index of anchors over the English clusters, read rarest
anchor first and capped per anchor, so the work grows with the number of paragraphs, not
with their product. Each candidate pair is scored from anchor agreement (weighted Jaccard,
idf weights), length ratio and sentence counts, lifted when a translation memory put the
two blocks side by side. Pairs are then assigned one to one per language, best first; a
foreign cluster whose best score is under the threshold stays `unlinked` unless its best
stands out from the rest (`clear_lead`) or the two choose each other with quantities that
agree (`_mutual`), and one whose runner-up is within the margin is `ambiguous`, unless the
anchors in which the close candidates differ clearly side with the best one
(`_told_apart`). A pair whose quantities contradict is linked at any score only when its
other anchors make the link without them (`_words_alone`); else the foreign cluster stays
`unlinked` and says what it resembles and what differs (`differences`).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import yaml

from .anchors import (
    FORBIDS,
    NAME,
    PERMITS,
    Anchors,
    also_renders,
    length_ratio,
    modal,
    says_a_die,
    sentence_lengths,
    spelled_numbers,
)


@cache
def params() -> dict[str, Any]:
    with (Path(__file__).with_name("params.yaml")).open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@dataclass(frozen=True, slots=True)
class Scored:
    """One candidate English cluster for a foreign one, with the evidence behind its score."""

    source: str  # English cluster id
    score: float
    evidence: dict[str, float]


@dataclass(frozen=True, slots=True)
class Decision:
    """Where one foreign cluster landed."""

    target: str  # foreign cluster id
    status: str  # linked / ambiguous / unlinked
    best: Scored | None  # the link (or, when unlinked, the best candidate turned down)
    alternatives: tuple[Scored, ...]
    # Unlinked although a candidate scored a link: the candidate it resembles and what
    # its quantities say otherwise (`differences`).
    resembles: Scored | None = None
    differs: tuple[str, ...] = ()
    # Linked as one paragraph translating two English ones that follow each other: the
    # second of them (`_merges`).
    merges: Scored | None = None


class AnchorIndex:
    """English clusters by anchor, with the idf of each anchor.

    Single anchors carried by many paragraphs (a 6" distance, the word "unit") say little
    and would make candidate lists long, so each paragraph is also indexed by the pairs of
    its rarest anchors: paragraphs made from one template, which share every common
    anchor, still meet their translation through the pair of numbers only they carry.
    """

    def __init__(self, english: Sequence[Anchors]) -> None:
        self.postings: dict[str, list[int]] = defaultdict(list)
        for i, a in enumerate(english):
            for key in a.keys:
                self.postings[key].append(i)
        self._latin: dict[str, list[int]] | None = None  # built when a foreign text has Latin
        self._idf: dict[str, float] = {}
        self._weights: dict[str, float] = {}
        self._spelled: dict[str, frozenset[str]] = {}
        self._written_out: dict[str, tuple[tuple[str, str, int], ...]] = {}
        self._named: dict[str, dict[str, tuple[str, ...]]] = {}
        self._stand_ins: dict[str, tuple[tuple[str, str, int, float], ...]] = {}
        self._walked: tuple[str, tuple[tuple[str, int, float, int], ...]] = ("", ())
        self.english = english
        self.n = max(len(english), 1)
        self.pairs: dict[str, list[int]] = defaultdict(list)
        for i, a in enumerate(english):
            for key in self.pair_keys(a):
                self.pairs[key].append(i)

    def weight(self, anchors: Anchors) -> float:
        """Sum of idf x count over a paragraph's anchors; an English name counts only
        when the foreign side states it (added through the shared part)."""
        found = self._weights.get(anchors.segment)
        if found is None:
            found = sum(
                self.idf(k) * c
                for k, c in anchors.keys.items()
                if anchors.lang != "en" or not k.startswith(NAME)
            )
            self._weights[anchors.segment] = found
        return found

    def written_out(self, anchors: Anchors) -> tuple[tuple[str, str, int], ...]:
        """A paragraph's counts and distances that can contradict one (`_counts`: key,
        value, count): what another text may write as words (`_spelled`), picked once."""
        found = self._written_out.get(anchors.segment)
        if found is None:
            found = self._written_out[anchors.segment] = tuple(
                (key, _magnitude(key), n)
                for key, n in anchors.keys.items()
                if key.startswith(_WRITTEN_OUT) and _counts(key)
            )
        return found

    def stand_ins(self, anchors: Anchors) -> tuple[tuple[str, str, int, float], ...]:
        """A foreign paragraph's anchors that may stand for another one the English has
        (key, the other key, count, weight), picked once: a word with two senses
        (`also_renders`: "атака" for a Charge), a roll or a number of one value ("3+"
        for "3 or more") and a turn's number ("6-й игровой ход" for "Game Turn 6")."""
        found = self._stand_ins.get(anchors.segment)
        if found is None:
            senses = dict(also_renders(anchors.lang))
            out = []
            for key, n in anchors.keys.items():
                others: tuple[str, ...] = senses.get(key, ())
                kind, _, value = key.partition("|")
                if kind + "|" in _OTHER_KIND and "|" not in value:  # not a natural roll
                    others = tuple(other + value for other in _OTHER_KIND[kind + "|"])
                out += [(key, o, n, min(self.idf(key), self.idf(o))) for o in others]
            found = self._stand_ins[anchors.segment] = tuple(out)
        return found

    def walk(self, anchors: Anchors) -> tuple[tuple[str, int, float, int], ...]:
        """A foreign paragraph's anchors as `_agreement` reads them against each candidate
        (key, count, idf, what it is: `_NAMED_KEY`, `_UNNAMED_KEY` or 0), worked out once
        for the candidates scored one after another (only the last text's are kept: one
        per text would cost memory by the text)."""
        if self._walked[0] != anchors.segment:
            self._walked = (
                anchors.segment,
                tuple(
                    (
                        key,
                        n,
                        self.idf(key),
                        _NAMED_KEY
                        if key.startswith(NAME)
                        else _UNNAMED_KEY
                        if key.endswith(_UNNAMED)
                        else 0,
                    )
                    for key, n in anchors.keys.items()
                ),
            )
        return self._walked[1]

    def spelled(self, anchors: Anchors) -> frozenset[str]:
        """The values a paragraph writes as words (`spelled_numbers`), read once."""
        found = self._spelled.get(anchors.segment)
        if found is None:
            found = self._spelled[anchors.segment] = spelled_numbers(anchors.text, anchors.lang)
        return found

    def latin_idf(self, word: str) -> float:
        """The weight of a Latin word a foreign text keeps, by the English texts that have
        it (`latin_postings`)."""
        return math.log(1 + self.n / max(len(self.latin_postings().get(word, ())), 1))

    def pair_keys(self, anchors: Anchors) -> list[str]:
        """Pairs of the paragraph's rarest anchors (by English document frequency)."""
        keys = [k for k in anchors.keys if not k.startswith(NAME)]
        keys.sort(key=lambda k: (len(self.postings.get(k, ())) or self.n + 1, k))
        rare = sorted(
            k for k in keys[: params()["paragraphs"]["pair_anchors"]] if k in self.postings
        )
        return [f"{a}||{b}" for i, a in enumerate(rare) for b in rare[i + 1 :]]

    def idf(self, key: str) -> float:
        found = self._idf.get(key)
        if found is None:
            found = self._idf[key] = math.log(1 + self.n / max(len(self.postings.get(key, ())), 1))
        return found

    def named_quantities(self, anchors: Anchors) -> dict[str, tuple[str, ...]]:
        """A paragraph's quantity keys that name what they count or modify, by the key the
        same quantity has unnamed ("q:modifier|1|armour-penetration" under
        "q:modifier|1|"); worked out once per paragraph."""
        found = self._named.get(anchors.segment)
        if found is None:
            grouped: dict[str, list[str]] = defaultdict(list)
            for key in sorted(anchors.keys):
                if key.startswith("q:") and not key.endswith(_UNNAMED):
                    grouped[key[: key.rindex("|") + 1]].append(key)
            found = self._named[anchors.segment] = {k: tuple(v) for k, v in grouped.items()}
        return found

    def latin_postings(self) -> dict[str, list[int]]:
        if self._latin is None:
            latin: dict[str, list[int]] = defaultdict(list)
            for i, a in enumerate(self.english):
                for word in a.latin:
                    latin[word].append(i)
            self._latin = latin
        return self._latin

    def candidates(self, foreign: Anchors) -> list[int]:
        """English clusters sharing an anchor with `foreign`, best-supported first."""
        p = params()["paragraphs"]
        cap = p["max_postings"]
        support: dict[int, float] = defaultdict(float)
        lists = [(key, self.postings.get(key, [])) for key in foreign.keys]
        if foreign.latin:
            latin = self.latin_postings()
            lists.extend((f"l:{w}", latin.get(w, [])) for w in foreign.latin)
        for _, posting in sorted(lists, key=lambda kv: (len(kv[1]), kv[0])):
            if not posting or len(posting) > cap:
                continue
            weight = math.log(1 + self.n / len(posting))
            for i in posting:
                support[i] += weight
        for key in self.pair_keys(foreign):
            posting = self.pairs.get(key, [])
            if 0 < len(posting) <= cap:
                weight = math.log(1 + self.n / len(posting))
                for i in posting:
                    support[i] += weight
        ranked = sorted(support, key=lambda i: (-support[i], i))
        return ranked[: p["max_candidates"]]


def _agreement(foreign: Anchors, english: Anchors, index: AnchorIndex) -> tuple[float, float]:
    """Weighted Jaccard of the two anchor multisets, and the shared weight behind it.

    Sum of max = both weights less the sum of min, so only the foreign keys are walked; an
    English name the foreign text does not state is left out (`weight` skips names).
    """
    shared = named = 0.0
    unnamed = []
    theirs = english.keys
    for key, a, w, kind in index.walk(foreign):
        b = theirs.get(key)
        if b:
            shared += w * (a if a < b else b)
            if kind == _NAMED_KEY:  # stated on both sides: the English count is in play
                named += w * b
        elif kind == _UNNAMED_KEY:
            unnamed.append((key, a))
    if unnamed:
        shared += _unnamed_quantities(unnamed, foreign, english, index)
    if stand_ins := index.stand_ins(foreign):
        shared += _stood_for(stand_ins, foreign, english)
    total = index.weight(foreign) + index.weight(english) + named - shared
    if foreign.label[1]:  # "правило «рослый»" beside "Tall"
        total -= _labels_alone(foreign, english, index)
    # a number the translation writes as a word is the English quantity, as if both had
    # it (rulebooks write digits; the other way round changed no link and cost time)
    shared += _spelled(english, foreign, index)
    if foreign.lang != "en" and foreign.latin:
        for word in foreign.latin:
            w = index.latin_idf(word)
            total += w
            if word in english.latin:
                shared += w
    return (shared / total if total > 0 else 0.0), shared


def _labels_alone(one: Anchors, other: Anchors, index: AnchorIndex) -> float:
    """Weight of the words of `one` that label a name ("с правилом «Вымуштрованные»")
    which `other` lacks: a translator adds the label where the English names the rule
    alone ("a model with Tall"), so it counts against no pair; where both write it ("the
    Drilled rule") it is shared as any word is. The English label a translation leaves out
    still counts: a translation that drops it alone ("вымуштрованный отряд", a second
    hand's) would otherwise outscore the one that keeps it."""
    key, labels = one.label
    if not labels:
        return 0.0
    extra = min(labels, one.keys[key] - other.keys.get(key, 0))
    return index.idf(key) * extra if extra > 0 else 0.0


_NAMED_KEY, _UNNAMED_KEY = 1, 2  # the kinds of key `AnchorIndex.walk` tells apart
# A roll and a number of one value agree ("5 или больше" beside "5+"), and so do a turn
# numbered after its noun and a number ("Game Turn 6" beside "6-й игровой ход", an ordinal
# whose noun the reader does not take for the turn's).
_OTHER_KIND = {
    "q:threshold|": ("q:number|",),
    "q:number|": ("q:threshold|", "q:turn|"),
    "q:turn|": ("q:number|",),
}


def _stood_for(
    stand_ins: tuple[tuple[str, str, int, float], ...], foreign: Anchors, english: Anchors
) -> float:
    """Shared weight of the foreign anchors the English lacks that stand for another it has
    and the foreign text lacks (`AnchorIndex.stand_ins`): "атака" beside "Charge", "ОЗ
    3+" beside "3 or more Health Points". Each anchor is used once."""
    shared = 0.0
    used: Counter[str] | None = None  # of the foreign anchors and of the English ones
    for key, other, count, weight in stand_ins:
        if other not in english.keys:  # most pairs: read no further
            continue
        used = used if used is not None else Counter()
        left = count - english.keys.get(key, 0) - used[key]
        n = min(left, english.keys[other] - foreign.keys.get(other, 0) - used[other])
        if n > 0:
            shared += weight * n
            used[key] += n
            used[other] += n
    return shared


def _spelled(digits: Anchors, words: Anchors, index: AnchorIndex) -> float:
    """Weight of the counts and distances of `digits` that `words` lacks but writes as a
    word ("up to 3 Supporting Attacks" and "до трёх атак поддержки"; a free hand writes
    many numbers out). A 1 is left out ("one" and "a" are everyday words), and so are
    modifiers, dice and rolls, which no hand writes out ("оба", both, is no "+2")."""
    if not (values := index.spelled(words)):  # most texts write no number out
        return 0.0
    missing = [
        (key, value, n) for key, value, n in index.written_out(digits) if key not in words.keys
    ]
    if not missing:
        return 0.0
    return sum(index.idf(key) * n for key, value, n in missing if value in values)


_D6 = re.compile(r"q:dice\|([0-9]*)D6")


def _dice_in_words(key: str, text: Anchors) -> bool:
    """Whether `text` says the D6 roll `key` in words: names a die ("бросьте кубик" for
    "roll a D6") and, for several, writes their count ("бросает два кубика" for "rolls
    2D6")."""
    m = _D6.fullmatch(key)
    if m is None or not says_a_die(text.text, text.lang):
        return False
    return m.group(1) in ("", "1") or m.group(1) in spelled_numbers(text.text, text.lang)


_MODIFIER = "q:modifier|"
_WRITTEN_OUT = ("q:number|", "q:distance|")  # quantities a hand may write as words
_UNNAMED = "|"  # a quantity key whose last part, what it counts or modifies, is not read


def _unnamed_quantities(
    unnamed: list[tuple[str, int]], foreign: Anchors, english: Anchors, index: AnchorIndex
) -> float:
    """Shared weight of foreign quantities whose characteristic the reader could not name
    ("+1 к пробиванию брони" where the vocabulary says "Бронебойность") with English ones
    of the same kind and value that name one and the foreign text does not match exactly:
    a number that survives translation, its word aside. Each English quantity is used
    once, at the lower of the two weights."""
    return sum(
        min(index.idf(key), index.idf(other)) * n
        for key, other, n in _unnamed_matches(unnamed, foreign, english, index)
    )


def _unnamed_matches(
    unnamed: list[tuple[str, int]], foreign: Anchors, english: Anchors, index: AnchorIndex
) -> Iterator[tuple[str, str, int]]:
    """(foreign key, the named English key it stands for, how many times) for each unnamed
    foreign quantity, each English quantity used once (`_unnamed_quantities`)."""
    named = index.named_quantities(english)
    used: dict[str, int] = {}
    for key, count in unnamed:
        for other in named.get(key, ()):
            free = english.keys[other] - foreign.keys.get(other, 0) - used.get(other, 0)
            if free > 0:
                n = min(count, free)
                used[other] = used.get(other, 0) + n
                count -= n
                yield key, other, n
            if not count:
                break


def _magnitude(key: str) -> str:
    """The value of a quantity key without its sign ("q:modifier|-1|" -> "1"): a sign is
    often said in words ("на 1 меньше" for -1)."""
    return key.split("|")[1].lstrip("+-")


def _counts(key: str) -> bool:
    """Whether a quantity's value can contradict one: not a 1 ("one" is written as a word
    as often as not) and not a letter standing for a number ("Fly (X, Y)" says what its
    parameters are called, which a translation may put anywhere: "(Fly X, Y)")."""
    value = _magnitude(key)
    return value != "1" and any(c.isdigit() for c in value)


_ONES = ("q:threshold|", "q:bracket|")  # kinds whose 1 is written in digits, no count


def _ones_of_their_kind(left: Counter[str], other: Counter[str]) -> list[str]:
    """The keys of `left` (the translation's quantities the English lacks) whose value is
    a 1 no count stands for: a natural roll ("натуральная 1") or a rule's parameter in
    brackets ("опасная местность (1)") is a number the translation adds where the English
    (`other`) has no 1 of its kind (a roll also none as a number, `_OTHER_KIND`); the 1 of
    a modifier ("-1 to hit") is another thing. A translation may leave a clause out, but
    adds none: a look-alike says things of its own."""
    added = [k for k in left if k.startswith(_ONES) and _magnitude(k) == "1"]
    if not added:  # most texts have none
        return []
    ones = {_kind(k) for k in other if _magnitude(k) == "1"}
    return [k for k in sorted(added) if ones.isdisjoint((_kind(k), *_OTHER_KIND.get(_kind(k), ())))]


def _kind(key: str) -> str:
    """The kind of a quantity key, as `_OTHER_KIND` names it ("q:threshold|1|" ->
    "q:threshold|")."""
    return key.split("|")[0] + "|"


def _named(key: str) -> tuple[str, str] | None:
    """(kind and value, what) of a quantity key naming what it counts or modifies
    ("q:modifier|1|strength"), else None."""
    parts = key.split("|")
    if len(parts) < 3 or not parts[-1]:
        return None
    return "|".join(parts[:-1]), parts[-1]


def contradicts(foreign: Anchors, english: Anchors) -> bool:
    """Whether the two texts' quantities say different things, or their sentences the
    opposite (`differences`)."""
    return bool(differences(foreign, english))


_OPPOSITE = "says the opposite"  # how `opposite` words what it finds


class _Said(dict[str, str]):
    """A sentence's clauses as `opposite` words them ("fp": "forbids, then allows")."""

    def __missing__(self, said: str) -> str:
        return ", then ".join("forbids" if c == FORBIDS else "allows" for c in said)


_MODAL = _Said({FORBIDS: "forbids", PERMITS: "allows"})


def opposite(foreign: Anchors, english: Anchors) -> list[str]:
    """Where the two texts say the opposite, for a reader: a sentence of one that only
    forbids ("A unit that has moved cannot be chosen again") paired with one of the other
    that only allows ("... всё ещё можно выбрать"), the sentences paired by where they
    stand (`_paired`; what they allow and forbid: `anchors.modality`). A translation may
    reword a rule, but keeps what it allows; a look-alike that says the rule's opposite
    is no translation.
    Empty when nothing is opposed: at once where one side allows or forbids nothing, or
    where the sentences that say either say the same in the same order (most pairs)."""
    f = modal(foreign)
    if not f:
        return []
    e = modal(english)
    if not e:
        return []
    fs, es = "".join(f), "".join(e)
    if not ((FORBIDS in fs and PERMITS in es) or (PERMITS in fs and FORBIDS in es)):
        return []
    if [s for s in f if s] == [s for s in e if s]:  # the same, sentence by sentence
        return []
    found = []
    pairs = _paired(foreign, english)
    # an English sentence no translation's sentence pairs with is said in one that pairs
    # with another (two sentences merged in one): what that one opens with may be it
    whole = {i for source, _ in pairs for i in source} == set(range(len(english.sentences)))
    for source, target in pairs:
        said_e = "".join(e[i] for i in source)
        said_f = "".join(f[j] for j in target)
        said_e, said_f = _once(said_e), _once(said_f)
        # each clause of one says the opposite of the other's, in order ("it cannot be
        # dispelled, and it may target" beside "его можно рассеять ..., и он не может");
        # or the English only forbids (allows) and the translation opens by allowing
        # (forbidding): it adds what its English does not say, as no translation does
        added = whole and len(said_e) == 1 and len(said_f) > 1 and said_f[0] != said_e
        if added or (
            said_e and len(said_e) == len(said_f) and all(map(str.__ne__, said_e, said_f))
        ):
            found.append(
                f"{_OPPOSITE}: the English {_MODAL[said_e]} in sentence {source[0] + 1},"
                f" the translation {_MODAL[said_f]}"
            )
    return found


def _once(said: str) -> str:
    """A sentence's clauses that all say one thing, said once ("ff" forbids as "f")."""
    return said[:1] if len(set(said)) == 1 else said


def _paired(foreign: Anchors, english: Anchors) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The sentences of the two texts in pairs (English, translation): one to one where
    they have as many (a translation keeps its source's sentences), else by where they
    stand in their texts (by length): the translation's sentences whose middles fall in
    one English sentence, when that sentence's middle falls in them too. Sentences that
    stand nowhere alike pair with none: read in one pass, not with the link's
    alignment, which costs a grid search per pair."""
    n = len(english.sentences)
    if n == len(foreign.sentences):
        return [((i,), (i,)) for i in range(n)]
    ends = [_ends(sentence_lengths(a)) for a in (english, foreign)]
    if not (ends[0] and ends[1]):
        return []
    groups: dict[int, list[int]] = defaultdict(list)
    for j, (a, b) in enumerate(pairwise([0.0, *ends[1]])):
        groups[min(bisect_right(ends[0], (a + b) / 2), n - 1)].append(j)
    out = []
    for i, js in groups.items():
        middle = ((ends[0][i - 1] if i else 0.0) + ends[0][i]) / 2
        if (ends[1][js[0] - 1] if js[0] else 0.0) <= middle <= ends[1][js[-1]]:
            out.append(((i,), tuple(js)))
    return out


def _ends(lengths: Sequence[int]) -> list[float]:
    """Where each sentence ends, as a share of the text's length."""
    total = sum(lengths)
    if total <= 0:
        return []
    out, at = [], 0
    for n in lengths:
        at += n
        out.append(at / total)
    return out


def differences(foreign: Anchors, english: Anchors) -> list[str]:
    """What the two texts say differently, for a reader: their quantities
    (`_quantities_differ`) and the sentences where one says the opposite of the other
    (`opposite`). Empty when nothing contradicts."""
    return _quantities_differ(foreign, english) + opposite(foreign, english)


def _quantities_differ(foreign: Anchors, english: Anchors) -> list[str]:
    """What the two texts' quantities say differently, for a reader: a number, distance
    or dice on one side whose value the other side has nowhere ("5 in the English
    only"), or a modifier of one value naming different characteristics on the two sides
    ("+1 к силе", "+1 Offensive Skill"). A translation keeps its numbers; a look-alike (an
    older table, another spell) changes them. A value of 1 is left out, but for a
    modifier's ("-1 to hit", written with its sign): "one" is written as a word as often
    as not; so is a value the other side writes as a word ("5+" beside
    "five or more", "a natural 6" beside "натуральная шестёрка"), and D6 rolls said in
    words ("roll a D6", "бросьте кубик"; `_dice_in_words`). Empty when nothing
    contradicts."""
    fq = Counter({k: v for k, v in foreign.keys.items() if k.startswith("q:")})
    eq = Counter({k: v for k, v in english.keys.items() if k.startswith("q:")})
    if not fq and not eq:
        return []
    f_left, e_left = fq - eq, eq - fq
    for one, other in ((f_left, e_left), (e_left, f_left)):
        for key in [k for k in one if k.endswith(_UNNAMED)]:
            for match in [k for k in other if k.startswith(key) and k != key]:
                n = min(one[key], other[match])
                one[key] -= n
                other[match] -= n
    f_left, e_left = +f_left, +e_left
    found = []
    for left, values, other, side in (
        (f_left, {_magnitude(k) for k in eq}, english, "translation"),
        (e_left, {_magnitude(k) for k in fq}, foreign, "English"),
    ):
        missing = [
            k
            for k in sorted(left)
            if _magnitude(k) not in values and (_counts(k) or k.startswith(_MODIFIER))
        ]
        missing = [k for k in missing if not _dice_in_words(k, other)]
        if side == "translation":  # a translation leaves a 1 out, but adds none
            missing += _ones_of_their_kind(left, eq)
        if missing:  # a value the other side writes as a word is there all the same
            spelled = spelled_numbers(other.text, other.lang)
            found.extend(
                f"{_shown(k)} in the {side} only" for k in missing if _magnitude(k) not in spelled
            )
    # a modifier of one value naming another characteristic on each side ("+1 к силе",
    # "+1 Offensive Skill"), or of one characteristic with another value on each side
    # though each value is found somewhere on the other ("+2 к Дисциплине", "+1 Discipline")
    other_what, other_value = [], []
    e_named = sorted((n, k) for k in e_left if (n := _named(k)))
    for (kv, what), k in sorted((n, k) for k in f_left if (n := _named(k))):
        for (e_kv, e_what), e_k in e_named:
            if kv == e_kv and what != e_what:
                other_what.append(
                    f"{kv.removeprefix('q:').replace('|', ' ')} to {_word(what)} in the"
                    f" translation, to {_word(e_what)} in the English"
                )
            elif (
                what == e_what
                and k.startswith(_MODIFIER)
                and e_k.startswith(_MODIFIER)
                and _magnitude(k) != _magnitude(e_k)
            ):
                other_value.append(f"{_shown(k)} in the translation, {_shown(e_k)} in the English")
    return found + other_what + other_value


_ADDED = "in the translation only"  # how `_quantities_differ` words an added value


def _adds_only(differ: Sequence[str]) -> bool:
    """Whether the quantities that differ are all ones the translation adds, the English
    keeping every number it has: a translation leaves numbers out (or miscopies one), but
    adds none; a look-alike of a shorter paragraph says the same and more of its own
    ("in 6″ of itself"), and its words cannot vouch for it."""
    return bool(differ) and all(d.endswith(_ADDED) for d in differ)


def _word(slug: str) -> str:
    return slug.replace("-", " ")


def _shown(key: str) -> str:
    """A quantity key as a reader writes it: "q:distance|12|inch" -> "12 inch",
    "q:modifier|1|" -> "1", "q:dice|D6" -> "D6"."""
    parts = key.removeprefix("q:").split("|")
    return " ".join(p for p in parts[1:] if p)


def score(
    foreign: Anchors, english: Anchors, index: AnchorIndex, adjacency: float = 0.0
) -> tuple[float, dict[str, float]]:
    """The score of a candidate pair in [0, 1], and each piece of evidence."""
    p = params()["paragraphs"]
    w = p["weights"]
    if foreign.kind != english.kind:
        return 0.0, {"kind": 0.0}
    agreement, shared = _agreement(foreign, english, index)
    confidence = 1 - math.exp(-shared / p["confidence_scale"])
    expected = english.length * length_ratio(foreign.lang)
    ratio = math.log(max(foreign.length, 1) / max(expected, 1))
    length = math.exp(-(ratio**2) / (2 * p["length_sigma"] ** 2))
    # a question and the sentence answering it are one sentence of the source
    nf = len(foreign.sentences) - foreign.questions
    ne = len(english.sentences) - english.questions
    sentence_fit = min(nf, ne) / max(nf, ne, 1)
    # Length and sentence counts only temper what the anchors say: two texts of the same
    # length that share nothing are not a translation.
    fit = 1 - w["length"] * (1 - length) - w["sentences"] * (1 - sentence_fit)
    base = agreement * confidence * fit
    # Sitting side by side proves nothing on its own (a heading before its paragraph):
    # it lifts only a pair whose anchors already agree. A translation unit of a TMX or
    # XLIFF file states the pair outright.
    stated = adjacency >= p["same_unit"]
    lift = adjacency if stated or agreement >= p["adjacency_needs"] else 0.0
    total = base + (1 - base) * lift
    evidence = {
        "anchors": round(agreement, 4),
        "confidence": round(confidence, 4),
        "length": round(length, 4),
        "sentences": round(sentence_fit, 4),
        "adjacency": round(adjacency, 4),
    }
    return total, evidence


def _words_alone(
    foreign: Anchors, english: Anchors, index: AnchorIndex, evidence: Mapping[str, float]
) -> bool:
    """Whether the pair still scores a link when none of its quantities counts as shared:
    numbers cannot vouch for a pair they contradict. A translation with a wrong number (or
    one a change of the English left behind) still says the rest of its English in its
    rule terms, vocabulary and names; a look-alike (a unit's own table of the same dice,
    another spell of the same range) is alike mostly in its numbers."""
    p = params()["paragraphs"]
    agreement, shared = _agreement(foreign, english, index)
    if not agreement:
        return False
    total = shared / agreement  # every anchor of either side, quantities included
    words = [_without_quantities(a) for a in (foreign, english)]
    _, said = _agreement(words[0], words[1], index)
    confidence = 1 - math.exp(-said / p["confidence_scale"])
    w = p["weights"]
    fit = 1 - w["length"] * (1 - evidence["length"]) - w["sentences"] * (1 - evidence["sentences"])
    return said / total * confidence * fit >= p["link_threshold"]


def _without_quantities(a: Anchors) -> Anchors:
    """The anchors of a text but its quantities (under a segment id of their own: the
    index caches weights by segment)."""
    keys = Counter({k: v for k, v in a.keys.items() if not k.startswith("q:")})
    return replace(a, segment=a.segment + "|words", keys=keys)


def _other_name(foreign: Anchors, english: Anchors) -> bool:
    """Whether the foreign text states an English name ("Страх (Fear). ...") and the
    English text has a name that is another ("Fear of Monsters: ..."): a text about
    another rule, however its words resemble this one."""
    stated = {k for k in foreign.keys if k.startswith(NAME)}
    named = {k for k in english.keys if k.startswith(NAME)}
    return bool(stated) and bool(named) and not stated & named


def _told_apart(
    foreign: Anchors, best: Anchors, rivals: Sequence[Anchors], index: AnchorIndex
) -> bool:
    """Whether the anchors that tell close candidates apart side with `best`.

    Candidates made from one text (a template, a rule repeated with one word changed)
    share most anchors, and what the translation carries on one side only is the same
    against each of them; the score dilutes the few anchors they differ in. Counted on
    those alone (idf-weighted), `best` must be off by clearly less than every rival."""
    candidates = (best, *rivals)
    keys = set(foreign.keys).union(*(c.keys for c in candidates))
    off = [0.0] * len(candidates)
    for key in keys:
        if key.startswith(NAME):
            continue
        have = foreign.keys.get(key, 0)
        gaps = [abs(have - c.keys.get(key, 0)) for c in candidates]
        if min(gaps) != max(gaps):
            w = index.idf(key)
            for i, gap in enumerate(gaps):
                off[i] += w * gap
    nearest = min(off[1:])
    return nearest > 0 and off[0] * params()["paragraphs"]["told_apart"] <= nearest


@dataclass(frozen=True, slots=True)
class _Race:
    """What the rules after the main link loop read, and extend (`chosen`: foreign text ->
    the index of its candidate linked; `taken`: English cluster and language linked)."""

    foreign: Sequence[Anchors]
    english: Sequence[Anchors]
    scored: Sequence[Sequence[Scored]]
    chosen: dict[int, int]
    taken: set[tuple[str, str]]
    stated: Mapping[str, str]
    by_cluster: Mapping[str, int]
    index: AnchorIndex
    best_for: Mapping[tuple[str, str], float]  # (English cluster, language) -> best score


def assign(
    foreign: Sequence[Anchors],
    english: Sequence[Anchors],
    adjacency: Mapping[tuple[str, str], float],
    stated: Mapping[str, str] | None = None,
    versions: Mapping[str, Sequence[Anchors]] | None = None,
) -> list[Decision]:
    """One decision per foreign cluster (same order), links one to one per language. A
    foreign cluster in `stated` (a translation unit that names its rule: foreign cluster
    -> its English cluster) is linked to it whatever its words, and leaves that English
    cluster free for the translation the anchors choose (an older one it replaces).
    `versions`: English cluster -> its members with other numbers (a translation of one
    of them does not contradict the cluster)."""
    p = params()["paragraphs"]
    stated = stated or {}
    versions = versions or {}
    index = AnchorIndex(english)
    by_cluster = {a.cluster: i for i, a in enumerate(english)}
    adjacent: dict[str, list[int]] = defaultdict(list)
    for target, source in adjacency:
        if source in by_cluster:
            adjacent[target].append(by_cluster[source])
    scored: list[list[Scored]] = []
    for f in foreign:
        pool = dict.fromkeys(index.candidates(f))
        pool.update(dict.fromkeys(adjacent.get(f.cluster, ())))
        found = []
        if f.cluster in stated and stated[f.cluster] in by_cluster:
            pool = {by_cluster[stated[f.cluster]]: None}
        for i in pool:
            e = english[i]
            s, evidence = score(f, e, index, adjacency.get((f.cluster, e.cluster), 0.0))
            found.append(Scored(e.cluster, round(s, 4), evidence))
        found.sort(key=lambda c: (-c.score, c.source))
        scored.append(found)
    # Best pairs first; each English cluster takes one foreign cluster per language.
    pairs = sorted(
        (
            (c.score, fi, ci)
            for fi, found in enumerate(scored)
            for ci, c in enumerate(found)
            if c.score >= p["link_threshold"] and foreign[fi].cluster not in stated
        ),
        key=lambda t: (-t[0], foreign[t[1]].cluster, scored[t[1]][t[2]].source),
    )
    taken: set[tuple[str, str]] = set()
    chosen: dict[int, int] = {}
    # A pair whose quantities contradict is not linked on its resemblance, however high it
    # scores: a look-alike (another spell, a unit's own table) is as like its English text
    # as a translation with a typo is, and a wrong link is worse than a missing one. The
    # text stays unlinked, naming what it resembles and the quantities that differ, unless
    # it sat beside the English in a translation memory (a placement, not a resemblance).
    refused: dict[int, tuple[int, list[str]]] = {}
    for _, fi, ci in pairs:
        if fi in chosen:
            continue
        candidate = scored[fi][ci]
        key = (candidate.source, foreign[fi].lang)
        if key in taken:
            continue
        if not candidate.evidence.get("adjacency"):
            source = english[by_cluster[candidate.source]]
            differ = differences(foreign[fi], source)
            if differ and any(
                not contradicts(foreign[fi], v) for v in versions.get(source.cluster, ())
            ):
                differ = []
            # what the words say cannot vouch for a text saying the opposite (`opposite`)
            if differ and (
                any(d.startswith(_OPPOSITE) for d in differ)
                or _adds_only(differ)
                or not _words_alone(foreign[fi], source, index, candidate.evidence)
            ):
                refused.setdefault(fi, (ci, differ))
                continue
        taken.add(key)
        chosen[fi] = ci
    # A best candidate under the threshold is still taken when it leads every other one by
    # far: a translation whose anchors are few (no numbers, rule terms the glossary lacks)
    # stands out from the rest of the book all the same; a look-alike resembles several,
    # or (one of a paragraph the drop does not translate) has other numbers.
    for fi, found in enumerate(scored):
        if fi in chosen or not found or found[0].score < p["clear_lead_threshold"]:
            continue
        runner_up = found[1].score if len(found) > 1 else 0.0
        key = (found[0].source, foreign[fi].lang)
        if found[0].score < p["clear_lead"] * runner_up or key in taken:
            continue
        if not contradicts(foreign[fi], english[by_cluster[found[0].source]]):
            taken.add(key)
            chosen[fi] = 0
    best_for: dict[tuple[str, str], float] = {}
    for fi, found in enumerate(scored):
        for c in found:
            key = (c.source, foreign[fi].lang)
            best_for[key] = max(best_for.get(key, 0.0), c.score)
    race = _Race(foreign, english, scored, chosen, taken, stated, by_cluster, index, best_for)
    passed = _mutual(race)
    merges = _merges(race)
    decisions = []
    for fi, f in enumerate(foreign):
        found = scored[fi]
        if f.cluster in stated and found:
            decisions.append(Decision(f.cluster, "linked", found[0], ()))
            continue
        if fi not in chosen:
            best = found[0] if found else None
            ci, differ = refused.get(fi, (None, []))
            like = found[ci] if ci is not None else None
            decisions.append(
                Decision(f.cluster, "unlinked", best, tuple(found[1:4]), like, tuple(differ))
            )
            continue
        best = found[chosen[fi]]
        rivals = [c for c in found if c is not best]
        # candidates the rest of the drop ruled out (`_first_in_race`, `_runner_up`) are
        # no rivals
        out = [c for c in found if c.source in passed[fi]] if fi in passed else []
        near = [c for c in rivals if best.score - c.score < p["ambiguous_margin"] and c not in out]
        if out:
            best = replace(best, evidence={**best.evidence, "ruled_out": float(len(out))})
        close = bool(near) and not _told_apart(
            f,
            english[by_cluster[best.source]],
            [english[by_cluster[c.source]] for c in near],
            index,
        )
        if fi in merges:
            second, together = merges[fi]
            best = replace(best, evidence={**best.evidence, "merged": together})
            decisions.append(Decision(f.cluster, "linked", best, tuple(rivals[:3]), merges=second))
            continue
        status = "ambiguous" if close else "linked"
        decisions.append(Decision(f.cluster, status, best, tuple(rivals[:3])))
    return _halves(decisions, race)


def _joined(first: Anchors, second: Anchors) -> Anchors:
    """Two texts of one language read as one (under a segment id of their own)."""
    return replace(
        first,
        segment=f"{first.segment}+{second.segment}",
        keys=first.keys + second.keys,
        latin=first.latin | second.latin,
        length=first.length + second.length,
        # the second's sentences where they stand in the text joined
        sentences=first.sentences
        + tuple((a + len(first.text) + 1, b + len(first.text) + 1) for a, b in second.sentences),
        text=f"{first.text} {second.text}",
        questions=first.questions + second.questions,
    )


def _merges(race: _Race) -> dict[int, tuple[Scored, float]]:
    """Links, in `chosen` and `taken`, of the foreign clusters still free that translate
    two English texts following each other in one paragraph: its two best candidates are
    free and next to each other in the English (clusters keep the order of the text),
    the two read as one score a link with it, higher than the better alone, and their
    quantities do not contradict it. The link is to the first of the two in the English
    order, where the translation starts. Foreign cluster -> (the second English text,
    the score of the two as one).

    A translation that merges two paragraphs is as like the one as the other, so neither
    leads; a look-alike resembles one paragraph, and the two read as one dilute it."""
    foreign, english, scored, chosen = race.foreign, race.english, race.scored, race.chosen
    taken, stated, by_cluster, index = race.taken, race.stated, race.by_cluster, race.index
    p = params()["paragraphs"]
    found_merges: dict[int, tuple[Scored, float]] = {}
    for fi, found in enumerate(scored):
        f = foreign[fi]
        if fi in chosen or f.cluster in stated or len(found) < 2:
            continue
        one, two = found[0], found[1]
        if (one.source, f.lang) in taken or (two.source, f.lang) in taken:
            continue
        a, b = sorted((by_cluster[one.source], by_cluster[two.source]))
        if b - a != 1:
            continue
        whole = _joined(english[a], english[b])
        together, _ = score(f, whole, index)
        if together < p["link_threshold"] or together <= one.score or contradicts(f, whole):
            continue
        taken.update({(one.source, f.lang), (two.source, f.lang)})
        # linked to the first in the English order, where the translation starts
        first = 0 if by_cluster[one.source] == a else 1
        chosen[fi] = first
        found_merges[fi] = (found[1 - first], round(together, 4))
    return found_merges


def _owners(
    decisions: Sequence[Decision], foreign: Sequence[Anchors], statuses: tuple[str, ...]
) -> dict[tuple[str, str], int]:
    """(English cluster, language) -> the decision that took it with one of `statuses`."""
    return {
        (d.best.source, f.lang): i
        for i, (d, f) in enumerate(zip(decisions, foreign, strict=True))
        if d.status in statuses and d.best is not None
    }


def _halves(decisions: list[Decision], race: _Race) -> list[Decision]:
    """Decisions where a foreign cluster left unlinked because its best candidate went to
    another text is linked to the same English cluster as the other half of one
    translation split in two paragraphs: the two read as one text score a link with that
    English cluster and higher than the linked half alone by `ambiguous_margin` at least
    (a whole translation is no more like its English with a look-alike beside it), and
    the unlinked one carries more of the English anchors the linked half lacks than of
    those it repeats.
    Where another text took the best candidate scoring higher with it, the next one, if
    it scores within `mutual_lead` of it, is tried as well (`_in_race`).

    A look-alike of a translated paragraph repeats the translation's anchors, so the two
    read as one score lower than the translation alone; one with other numbers
    contradicts the English and stays unlinked. The link's evidence says `split`: the
    score of the two halves as one text."""
    p = params()["paragraphs"]
    foreign, english, index = race.foreign, race.english, race.index
    owner = _owners(decisions, foreign, ("linked",))
    out = list(decisions)
    for i, (d, f) in enumerate(zip(decisions, foreign, strict=True)):
        if d.status != "unlinked" or d.best is None or d.resembles is not None:
            continue
        for c in _in_race(f, race.scored[i], race):
            j = owner.get((c.source, f.lang))
            source = english[race.by_cluster[c.source]]
            if j is None or contradicts(f, source):
                continue
            half = foreign[j]
            new = sum((f.keys & (source.keys - half.keys)).values())
            repeated = sum((f.keys & source.keys & half.keys).values())
            if new <= repeated:
                continue
            whole = _joined(half, f)
            together, _ = score(whole, source, index)
            alone, _ = score(half, source, index)
            if together < p["link_threshold"] or together - alone < p["ambiguous_margin"]:
                continue
            best = replace(c, evidence={**c.evidence, "split": round(together, 4)})
            rivals = tuple(r for r in race.scored[i] if r is not c)[:3]
            out[i] = Decision(d.target, "linked", best, rivals)
            break
    return out


def _in_race(f: Anchors, found: Sequence[Scored], race: _Race) -> list[Scored]:
    """The best candidate, and each next one while the one before went to a text scoring
    higher with it and the next scores within `mutual_lead` of it."""
    lead = params()["paragraphs"]["mutual_lead"]
    out = list(found[:1])
    for c, after in pairwise(found):
        key = (c.source, f.lang)
        if key not in race.taken or race.best_for[key] <= c.score or c.score >= lead * after.score:
            break
        out.append(after)
    return out


def _mutual(race: _Race) -> dict[int, set[str]]:
    """Links, in `chosen` and `taken`, of the foreign clusters still free whose best
    candidate in the race (`_first_in_race`) is free too and chooses them back: no other
    text of their language still free scores higher with it (one linked to a text it is
    more like competes no more), it leads the runner-up (the next candidate still in the
    race where the next one leads it by too little, `_runner_up`) by
    `mutual_lead` (`covered_lead` when the English text carries at least `covered` of
    what the foreign one says, `_covered`), the two share at least
    `mutual_shared` anchors (one shared word is all two unrelated headings need) and
    their quantities do not contradict each other (`contradicts`).

    A translation whose anchors are only the core vocabulary (no numbers, rule terms no
    glossary has) scores low against its English, yet higher than against anything else,
    and higher than any other translation scores against that English; a look-alike of a
    paragraph that is translated loses it to the translation, and one of a paragraph that
    is not has other numbers, or resembles several paragraphs. Returns the foreign
    clusters linked past candidates ruled out, with those candidates' English texts."""
    foreign, english, scored, chosen = race.foreign, race.english, race.scored, race.chosen
    taken, stated, by_cluster, index = race.taken, race.stated, race.by_cluster, race.index
    p = params()["paragraphs"]
    passed: dict[int, set[str]] = {}
    best_for = race.best_for
    rivals: dict[tuple[str, str], list[tuple[float, int]]] = defaultdict(list)
    for fi, found in enumerate(scored):
        if fi not in chosen:
            for c in found:
                rivals[(c.source, foreign[fi].lang)].append((c.score, fi))
    for texts in rivals.values():
        texts.sort(reverse=True)

    owner = {(scored[fi][ci].source, foreign[fi].lang): fi for fi, ci in chosen.items()}

    def copy_of_linked(fi: int) -> bool:
        """Whether `fi` is a near copy of the text that took its best candidate: it goes to
        the same English text (`share_with_near_copies`) and competes for no other."""
        best = scored[fi][0]
        j = owner.get((best.source, foreign[fi].lang))
        return j is not None and _near_copy(foreign[fi], foreign[j])

    def free_for(key: tuple[str, str]) -> float:
        """The best score with `key` of a text still without a link (one linked in this
        loop, to a text it is more like, competes no more; nor does a near copy of one)."""
        return next(
            (s for s, fi in rivals[key] if fi not in chosen and not copy_of_linked(fi)), 0.0
        )

    order = sorted(
        (fi for fi, found in enumerate(scored) if found and fi not in chosen),
        key=lambda fi: (-scored[fi][0].score, foreign[fi].cluster),
    )
    for fi in order:
        f, found = foreign[fi], scored[fi]
        first = _first_in_race(f, found, english, taken, best_for, by_cluster)
        best = found[first]
        if f.cluster in stated or best.score < p["mutual_threshold"]:
            continue
        if (best.source, f.lang) in taken or best.score < free_for((best.source, f.lang)):
            continue
        source = english[by_cluster[best.source]]
        lead = p["mutual_lead"]
        runner_up = found[first + 1].score if len(found) > first + 1 else 0.0
        if best.score < lead * runner_up and _covered(f, source, index) >= p["covered"]:
            lead = p["covered_lead"]
        skipped: set[str] = set()  # the runner-up is the next candidate still in the race
        if best.score < lead * runner_up:
            runner_up, skipped = _runner_up(f, found[first + 1 :], taken, best_for)
            # a translation shares words with one paragraph translated elsewhere; as like
            # several, it resembles several paragraphs, as a look-alike does
            if sum(best.score < lead * c.score for c in found if c.source in skipped) > 1:
                continue
        if best.score < lead * runner_up:
            continue
        if _shared_anchors(f, source, index, p["mutual_shared"]) < p["mutual_shared"]:
            continue
        if contradicts(f, source):
            continue
        if _other_name(f, source):
            continue
        taken.add((best.source, f.lang))
        chosen[fi] = first
        owner[(best.source, f.lang)] = fi
        if first or skipped:
            passed[fi] = {c.source for c in found[:first]} | skipped
    return passed


def _runner_up(
    f: Anchors,
    after: Sequence[Scored],
    taken: set[tuple[str, str]],
    best_for: Mapping[tuple[str, str], float],
) -> tuple[float, set[str]]:
    """The score of the first candidate in `after` still in the race for `f`, and the
    English texts passed over on the way: those another text of the language took scoring
    higher with them. A translation shares words with paragraphs the drop translates
    elsewhere, and the translations of those, more like them, rule them out; what is left
    is the rest of the book, from which a translation stands out (`_mutual` leaves a text
    out that is as like two of them: it resembles several paragraphs)."""
    skipped: set[str] = set()
    for c in after:
        key = (c.source, f.lang)
        if key in taken and best_for[key] > c.score:
            skipped.add(c.source)
            continue
        return c.score, skipped
    return 0.0, skipped


def _shared_anchors(foreign: Anchors, english: Anchors, index: AnchorIndex, enough: int) -> int:
    """How many anchors the two texts share, up to `enough`: the same keys, and a foreign
    quantity whose characteristic the reader could not name standing for an English one of
    its kind and value, as the score counts it (`_unnamed_quantities`): "-1 к ини" shares
    the "-1 Agility" of its English, whatever "ини" is."""
    n = sum((foreign.keys & english.keys).values())
    if n >= enough:
        return n
    unnamed = [
        (key, count)
        for key, count in foreign.keys.items()
        if key.endswith(_UNNAMED) and key not in english.keys
    ]
    return n + sum(m for _, _, m in _unnamed_matches(unnamed, foreign, english, index))


def _covered(foreign: Anchors, english: Anchors, index: AnchorIndex) -> float:
    """The share of what the foreign text says (its anchors' weight, Latin words too)
    that the English text says as well. A translation adds nothing to its source, though
    a condensing or free hand leaves much out and so leads its runner-up by little; a
    look-alike says things of its own (another terrain, another count)."""
    own = index.weight(foreign) + sum(index.latin_idf(w) for w in foreign.latin)
    return _agreement(foreign, english, index)[1] / own if own > 0 else 0.0


def _first_in_race(
    f: Anchors,
    found: Sequence[Scored],
    english: Sequence[Anchors],
    taken: set[tuple[str, str]],
    best_for: Mapping[tuple[str, str], float],
    by_cluster: Mapping[str, int],
) -> int:
    """Index of the first candidate still in the race for `f`: a candidate is out when
    another text of the language took it scoring higher with it (links are one to one)
    or when its quantities contradict `f`'s (a paragraph with other numbers is not the
    one `f` translates), and it is passed over only when the next candidate scores within
    `mutual_lead` of it: two candidates `f` alone cannot tell apart, one of which the rest
    of the drop rules out ("three Health Points" beside the Health Point another
    translation took). A candidate that leads clearly stays first, out or not, and so
    does one that scores a link: a look-alike of a translated paragraph resembles that
    one as much as a translation would, and its runner-up is no link."""
    p = params()["paragraphs"]
    i = 0
    while i + 1 < len(found) and found[i].score < p["mutual_lead"] * found[i + 1].score:
        c = found[i]
        if c.score >= p["link_threshold"]:
            break
        key = (c.source, f.lang)
        out = key in taken and best_for[key] > c.score
        if not out and not contradicts(f, english[by_cluster[c.source]]):
            break
        i += 1
    return i


def share_with_near_copies(
    decisions: Sequence[Decision],
    foreign: Sequence[Anchors],
    english: Sequence[Anchors],
    replies: Mapping[str, Set[str]] | None = None,
) -> list[Decision]:
    """Decisions where a foreign cluster left unlinked only because its best candidate went
    to a near copy of it (one translation pasted twice and edited a little, too far apart
    for dedup to merge) is linked to the same English cluster.

    Links are one to one per language, so the second copy would otherwise stay unlinked or
    fall to a wrong runner-up. Only the owner of its best candidate is compared with it (a
    similarity of the texts, rapidfuzz Indel), so the cost stays linear; a look-alike that
    says something else is far from the translation it resembles and stays unlinked, and
    so does a copy whose numbers contradict the English (`contradicts`: the template of
    another rule, a table with other results). A copy whose runner-up scores within the
    margin is `ambiguous`, as any link is: paragraphs made from one template are near
    copies of each other's translations, and one of them may fit as well.

    A text reworded further is another version of the translation (a second hand's, an
    older one kept in the file) when it would link to that English text on its own: it
    scores `link_threshold` and `clear_lead` times its runner-up, and its numbers agree
    (`version`: its similarity to the other, under `near_copy`). Where it says nothing
    its English does not (`version_covered` of what it says), a runner-up another
    translation took is no rival (`_free_runner_up`): a second hand says the rule again,
    in words the English paragraphs beside it share. A look-alike that scores as high
    resembles another paragraph nearly as much, has other numbers, or says things of its
    own.

    A chat message that quotes the translation that took its best candidate (`replies`:
    foreign cluster -> the clusters its quotations open) and gives a text of its own for
    the same English ("> Вымуштрованные: ..." / "я бы проще: ...") is another version by
    the chat's structure: it is judged as the mutual rule judges a translation
    (`mutual_lead` over the next candidate still in the race, `mutual_shared` anchors),
    not on a lead only a translation on its own shows.
    """
    p = params()["paragraphs"]
    english_of = {a.cluster: a for a in english}
    owner = _owners(decisions, foreign, ("linked", "ambiguous"))
    out = list(decisions)
    index: AnchorIndex | None = None  # built where a version needs it
    for i, (d, f) in enumerate(zip(decisions, foreign, strict=True)):
        if d.status != "unlinked" or d.best is None or d.best.score < p["mutual_threshold"]:
            continue
        j = owner.get((d.best.source, f.lang))
        if j is None:
            continue
        source = english_of.get(d.best.source)
        if source and contradicts(f, source):
            continue
        runner_up = d.alternatives[0].score if d.alternatives else 0.0
        alike = _similarity(f, foreign[j])
        if (
            source is not None
            and foreign[j].cluster in (replies or {}).get(f.cluster, ())
            and alike < p["near_copy"]
            and d.best.score
            >= p["mutual_lead"] * _free_runner_up(d.alternatives, decisions, owner, f.lang)
            and _shared_anchors(
                f, source, index := index or AnchorIndex(english), p["mutual_shared"]
            )
            >= p["mutual_shared"]
        ):
            best = Scored(
                d.best.source, d.best.score, {**d.best.evidence, "version": round(alike, 4)}
            )
            out[i] = Decision(d.target, "linked", best, d.alternatives)
            continue
        if (
            alike < p["near_copy"]
            and source is not None
            and p["link_threshold"] <= d.best.score < p["clear_lead"] * runner_up
            and _covered(f, source, index := index or AnchorIndex(english)) >= p["version_covered"]
        ):  # a version that says nothing of its own: the next candidate still in the race
            runner_up = _free_runner_up(d.alternatives, decisions, owner, f.lang)
        if alike >= p["near_copy"]:
            best = Scored(d.best.source, d.best.score, {**d.best.evidence, "near_copy": alike})
            close = d.best.score - runner_up < p["ambiguous_margin"]
            status = "ambiguous" if close else decisions[j].status
            out[i] = Decision(d.target, status, best, d.alternatives)
        elif d.best.score >= p["link_threshold"] and d.best.score >= p["clear_lead"] * runner_up:
            best = Scored(
                d.best.source, d.best.score, {**d.best.evidence, "version": round(alike, 4)}
            )
            out[i] = Decision(d.target, "linked", best, d.alternatives)
    return out


def _free_runner_up(
    alternatives: Sequence[Scored],
    decisions: Sequence[Decision],
    owner: Mapping[tuple[str, str], int],
    lang: str,
) -> float:
    """The score of the first of `alternatives` (an unlinked decision's three next
    candidates) no other text of `lang` took scoring higher with it (`_runner_up`): what
    is left is the rest of the book. Where all three are out, the last bounds the rest."""
    for c in alternatives:
        j = owner.get((c.source, lang))
        best = decisions[j].best if j is not None else None
        if best is None or best.score <= c.score:
            return c.score
    return alternatives[-1].score if len(alternatives) >= 3 else 0.0


def _similarity(one: Anchors, two: Anchors) -> float:
    """How alike two texts of one language are (rapidfuzz Indel, lower case)."""
    from rapidfuzz.distance import Indel  # here only: `check` reads this module, not this

    return Indel.normalized_similarity(one.text.lower(), two.text.lower())


def _near_copy(one: Anchors, two: Anchors) -> bool:
    """Whether one text is a near copy of the other (`near_copy` alike)."""
    return _similarity(one, two) >= params()["paragraphs"]["near_copy"]
