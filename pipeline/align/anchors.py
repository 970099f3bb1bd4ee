"""Anchors: what a paragraph says that survives translation.

Quantities (a 1" distance is a 1" distance in any language), glossary terms (their ids are
shared by every rendering), rule names read in both languages, and Latin-script words left
in a foreign text ("Loose Mounts", a rule name in parentheses). Alignment compares paragraphs
by these, never by words of one language against words of another.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..footnotes import footnotes
from ..ingest.asides import notes
from ..lang import data as lang_data
from ..lang import lemma, lemmatised, parses
from ..model import Segment
from ..sentences import sentences
from ..slug import slugify
from .slips import vocabulary_by_slip
from .sounds import vocabulary_by_sound

if TYPE_CHECKING:
    from ..extract.facts import Facts
    from ..quantities import Quantity

Span = tuple[int, int]
KIND_FAMILY = {"list-item": "paragraph", "note": "paragraph"}
NAME = "n:"  # an English rule name: counts only when the foreign text states one too
_LATIN_WORD = re.compile(r"\b[A-Za-z][A-Za-z'’-]{2,}\b")


@dataclass(frozen=True, slots=True)
class Anchors:
    """The anchors of one cluster's canonical segment."""

    segment: str
    cluster: str
    lang: str
    kind: str  # the segment kind, folded: a heading translates a heading, a table a table
    keys: Counter[str]  # anchor -> how many times the paragraph carries it
    latin: frozenset[str]  # lower-cased Latin-script words
    length: int
    sentences: tuple[Span, ...]
    text: str = ""  # the segment's text, for what is read only when needed
    # questions the text asks and answers in the sentence after ("а если ...? Тогда ..."):
    # a hand's rhetorical question, one sentence with its answer in the source ("when ...")
    questions: int = 0
    notes: tuple[Span, ...] = ()  # a translator's notes and footnotes (`note_spans`)
    # the key of the word that labels a name beside it in a translation ("правило
    # «рослый»") and how many of its count do so (`_name_label`)
    label: tuple[str, int] = ("", 0)


# A paragraph opening with its name and the English name in brackets, then a stop or a
# colon: "Преследование (Pursuit). ...", "«Точность» (Accurate). ..." (a paragraph's name
# is not a heading's, so extraction does not give it as `name_en`).
_OPENING_NAME = re.compile(
    r"\s*«?[^\W\d_A-Za-z][^()«»\n.:]{0,60}?»?\s*\((?P<en>[A-Z][A-Za-z'’ -]{1,60}?)\)\s*[.:]"
)


_WORD = re.compile(r"[^\W\d_]+")


@cache
def _number_words(lang: str) -> dict[str, str]:
    """Each written form of a number of `lang` (lower case) -> its value."""
    table = lang_data(lang, "align").get("number_words") or {}
    return {form.lower(): str(value) for value, forms in table.items() for form in forms}


@cache
def _number_forms(lang: str) -> dict[str, str]:
    """Each form of a number word (lower case) -> its value: the written forms of
    `number_words` and, where the language is lemmatised, every form of those that the
    dictionary reads as a numeral ("двоих" of "двое", a collective numeral) and of the
    `number_nouns` ("шестёрок" of "шестёрка"), ё also written е."""
    words = _number_words(lang)
    forms = dict(words)
    if lang in lemmatised():
        nouns = lang_data(lang, "align").get("number_nouns") or {}
        wanted = [(w, "NUMR", words) for w in words]
        named = {n: str(value) for value, ns in nouns.items() for n in ns}
        wanted += [(n, "NOUN", named) for n in named]
        for word, pos, values in wanted:
            for p in parses(word):
                if pos == p.tag.POS and p.normal_form in values:
                    for f in p.lexeme:
                        forms.setdefault(f.word, values[p.normal_form])
                        forms.setdefault(f.word.replace("ё", "е"), values[p.normal_form])
    return forms


@cache
def _compound_number(lang: str) -> re.Pattern[str] | None:
    """A word whose first part is a number's stem before a unit or a multiple
    (`number_compound_heads`): "пятидюймовый" is 5, "двухкратный" 2."""
    heads = lang_data(lang, "align").get("number_compound_heads") or []
    stems = sorted(_number_words(lang), key=len, reverse=True)
    if not heads or not stems:
        return None
    return re.compile(f"({'|'.join(stems)})(?:{'|'.join(heads)})")


@cache
def _number_starts(lang: str) -> frozenset[str]:
    """The first three letters of the number words: a word starting otherwise is none."""
    return frozenset(f[:3] for f in _number_words(lang))


def _word_value(word: str, lang: str) -> str | None:
    """The number a word says: a form of a number word, or a numeral stem joined to a
    unit ("пятидюймовый" is 5)."""
    if value := _number_forms(lang).get(word):
        return value
    if (compound := _compound_number(lang)) and (m := compound.match(word)):
        return _number_words(lang)[m.group(1)]
    return None


@lru_cache(maxsize=4096)
def spelled_numbers(text: str, lang: str) -> frozenset[str]:
    """The values `text` writes as words, by `lang/<code>/align.yaml` (`number_words`):
    not anchors (a word is not read as a quantity), but no contradiction of a counterpart
    that writes the digits. Read only where a value is missing on one side. Words are
    looked up as a set, which most texts (none of whose words is a number) pass at once."""
    forms = _number_forms(lang)
    if not forms:
        return frozenset()
    words = _WORD.findall(text.lower())
    distinct = set(words)
    found = {forms[w] for w in distinct if w in forms}
    if compound := _compound_number(lang):
        starts = _number_starts(lang)
        for w in distinct:
            if w[:3] in starts and (m := compound.match(w)):
                found.add(_number_words(lang)[m.group(1)])
    if any(v.isdigit() and int(v) >= 20 for v in found):  # "двадцать четыре" is 24
        values = [_word_value(w, lang) or "" for w in words]
        for tens, unit in pairwise(values):
            round_tens = tens.isdigit() and int(tens) >= 20 and int(tens) % 10 == 0
            if round_tens and unit.isdigit() and int(unit) < 10:
                found.add(str(int(tens) + int(unit)))
    return frozenset(found)


@cache
def also_renders(lang: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(word anchor, the other word anchors its renderings may stand for), by
    `lang/<code>/align.yaml` (`also_renders`)."""
    table = lang_data(lang, "align", fallback=False).get("also_renders") or {}
    return tuple((f"w:{word}", tuple(f"w:{o}" for o in others)) for word, others in table.items())


@cache
def _die_words(lang: str) -> frozenset[str]:
    grammar = lang_data(lang, "quantities")
    return frozenset(lemma(w, lang) for w in (grammar.get("count_nouns") or {}).get("die", ()))


@lru_cache(maxsize=1024)
def says_a_die(text: str, lang: str) -> bool:
    """Whether `text` names a die in words ("бросьте кубик"): a hand writes "roll a D6" so
    as often as with the sign."""
    words = _die_words(lang)
    return any(lemma(w, lang) in words for w in set(_WORD.findall(text.lower())))


@cache
def length_ratio(lang: str) -> float:
    """Characters of `lang` per character of English in a faithful translation."""
    return float(lang_data(lang, "align").get("length_ratio", 1.0))


def quantity_anchor(key: tuple[Any, ...]) -> str:
    """A quantity's anchor; counts and bare numbers compare by value alone, since one
    language may name the counted noun where the other leaves it out, and a distance in
    centimetres by the inches it stands for (`_inches`)."""
    if key[0] in ("count", "number"):
        key = ("number", key[1])
    elif key[0] == "distance" and key[2] == "cm" and (inches := _inches(key[1])) is not None:
        key = ("distance", inches, "inch")
    return "q:" + "|".join("" if part is None else str(part) for part in key)


def _inches(cm: Any) -> int | float | None:
    """The inches a distance in centimetres stands for, where it is a whole or half
    number of them: a club that plays in centimetres counts an inch as 2.5 cm ("15 см"
    for 6″), a converter as 2.54 ("30,5 см" for 12″); None for a distance of its own."""
    if not isinstance(cm, int | float) or cm <= 0:
        return None
    for per_inch, slack in ((2.5, 1e-9), (2.54, 0.05)):
        halves = cm / per_inch * 2
        if abs(halves - round(halves)) <= slack * 2:
            inches = round(halves) / 2
            return int(inches) if inches.is_integer() else inches
    return None


def anchors(
    segment: Segment, cluster: str, facts: Facts, latin_wanted: AbstractSet[str] | None = None
) -> Anchors:
    """The anchors of a segment, from what extraction read in it. `latin_wanted` keeps
    only those Latin words (for English: the words some foreign text has left in Latin,
    not every word of every paragraph)."""
    set_apart = note_spans(segment.text)
    examples = _example_spans(segment.text, segment.lang) + set_apart
    keys: Counter[str] = Counter(
        _EXAMPLE + quantity_anchor(_key(q))[2:]
        if any(a <= q.span[0] < b for a, b in examples)
        else quantity_anchor(_key(q))
        for q in facts.quantities
    )
    keys.update(map("t:".__add__, facts.terms.ids))
    keys.update(map("w:".__add__, facts.words.ids))
    if segment.lang != "en":  # "армор" for Armour, "вундит" for wounds
        read = (facts.words.starts, facts.terms.starts)
        tokens = segment.text.split()
        keys.update(vocabulary_by_sound(segment.text, segment.lang, read, tokens))
        keys.update(vocabulary_by_slip(segment.text, segment.lang, read, tokens))  # "jтряд"
    label = ("", 0)
    if segment.lang != "en" and (reader := _name_label(segment.lang)):  # "правило «рослый»"
        word, pattern = reader
        if (has := keys.get(word)) and (n := len(pattern.findall(segment.text))):
            label = (word, min(n, has))
    if segment.lang == "en" and facts.name:
        keys[f"{NAME}{slugify(facts.name)}"] += 1
    elif facts.name_en:  # a foreign text that gives the English name ("... (Loose Mounts)")
        keys[f"{NAME}{slugify(facts.name_en)}"] += 1
    elif segment.lang != "en" and (m := _OPENING_NAME.match(segment.text)):
        keys[f"{NAME}{slugify(m.group('en'))}"] += 1  # "Преследование (Pursuit). ..."
    if latin_wanted is None:
        latin = frozenset(map(str.lower, _LATIN_WORD.findall(segment.text)))
    elif latin_wanted:
        latin = latin_wanted.intersection(map(str.lower, _LATIN_WORD.findall(segment.text)))
    else:
        latin = frozenset()  # no foreign text keeps a Latin word: none to look for
    spans = numbered_heading_joined(segment.text, tuple(sentences(segment.text)))
    if set_apart:  # a footnote's sentences are no sentences of the rule
        spans = tuple(s for s in spans if not any(a <= s[0] and s[1] <= b for a, b in set_apart))
    return Anchors(
        segment=segment.id,
        cluster=cluster,
        lang=segment.lang,
        kind=KIND_FAMILY.get(segment.kind, segment.kind),
        keys=keys,
        latin=latin,
        length=len(segment.text) - sum(b - a for a, b in set_apart),
        sentences=spans,
        text=segment.text,
        questions=_answered(segment.text, spans) if "?" in segment.text else 0,
        notes=tuple(set_apart),
        label=label,
    )


@cache
def _name_label(lang: str) -> tuple[str, re.Pattern[str]] | None:
    """The vocabulary word that labels a name beside it and where it does so, by
    `name_labels` of `lang/<code>/align.yaml`: one hand writes "the Drilled rule", "с
    правилом «Рослый»", another "a model with Tall"; there it is no anchor on either side,
    else a translation that adds or leaves out the label says a word its source does not."""
    raw = lang_data(lang, "align").get("name_labels")
    return (f"w:{raw['word']}", re.compile(raw["pattern"])) if raw else None


# A numbered document opens a paragraph with its section's number and a short heading
# ("4.1.2 Обычное присутствие. Модель ..."): the heading is the paragraph's name, as
# "Standard Presence: a model ..." writes it inside its first sentence.
_NUMBERED_HEADING = re.compile(r"\s*[0-9]+(?:\.[0-9]+)+[а-яёa-z]?\.?\s+(?=[^\W\d_])")
_HEADING_WORDS = 8  # a heading longer than this is a sentence of the rule


def numbered_heading_joined(text: str, spans: tuple[Span, ...]) -> tuple[Span, ...]:
    """`spans` with a numbered heading read as one sentence with the sentence after it:
    counted alone, it would be a sentence the English, whose heading opens its first
    sentence, does not have, and its sentences would be paired one off."""
    if len(spans) < 2 or not text[:1].isdigit():  # most texts open with a letter
        return spans
    opening = _NUMBERED_HEADING.match(text)
    first = text[spans[0][0] : spans[0][1]]
    if opening is None or opening.end() > spans[0][1] or not first.endswith("."):
        return spans
    if len(text[opening.end() : spans[0][1]].split()) > _HEADING_WORDS:
        return spans
    return ((spans[0][0], spans[1][1]), *spans[2:])


FORBIDS, PERMITS = "f", "p"  # a clause that forbids, one that allows (`modality`)
_AFTER = 1 << 62  # past any offset: (start, _AFTER) sorts after every span at start


@dataclass(frozen=True, slots=True)
class _Modality:
    stems: tuple[str, ...]  # a part of every such word: a text with none says neither
    says: re.Pattern[str]  # forbidding and allowing words, as groups `FORBIDS`, `PERMITS`
    breaks: re.Pattern[str]
    hedges: re.Pattern[str]


@cache
def _modality_reader(lang: str) -> _Modality | None:
    raw = lang_data(lang, "align").get("modality")
    if not raw:
        return None
    # at one place a forbidding word wins over the allowing one it holds ("may not")
    says = f"(?P<{FORBIDS}>{raw['forbid']})|(?P<{PERMITS}>{raw['permit']})"
    return _Modality(
        tuple(raw["stems"]),
        re.compile(f"(?=[{raw['first_letters']}]){raw['word_start']}(?:{says})"),
        re.compile(raw["clause_breaks"]),
        re.compile(raw["hedges"]),
    )


_BEFORE, _PAST = 48, 16  # how far a forbidding or allowing word reaches around its stem


def _around_stems(low: str, reader: _Modality) -> list[re.Match[str]]:
    """The forbidding and allowing words of a lower-cased text, in its order, read only
    around the stems they hold (`stems`: "no unit may" ends in one, "may not" opens with
    one): a rule text is long and says "may" twice, so a scan of it all would cost most."""
    windows = []
    for stem in reader.stems:
        at = low.find(stem)
        while at >= 0:
            windows.append((max(at - _BEFORE, 0), at + len(stem) + _PAST))
            at = low.find(stem, at + 1)
    if not windows:
        return []
    windows.sort()
    found: dict[int, re.Match[str]] = {}
    start, end = windows[0]
    for a, b in [*windows[1:], (len(low) + _BEFORE, 0)]:
        if a <= end:
            end = max(end, b)
            continue
        for m in reader.says.finditer(low, start, min(end, len(low))):
            found.setdefault(m.start(), m)
        start, end = a, b
    return [found[k] for k in sorted(found)]


_modal_read: dict[tuple[str, str], tuple[str, ...]] = {}
_MODAL_KEPT = 200_000  # texts whose `modality` is kept; past this the memo starts again


def modal(a: Anchors) -> tuple[str, ...]:
    """The `modality` of a text's sentences, read when a pair of it is first compared and
    kept by language and text: most texts are never compared so (`paragraphs.opposite`
    reads the translation's first, and the English only where that says something)."""
    key = (a.lang, a.text)
    found = _modal_read.get(key)
    if found is None:
        if len(_modal_read) >= _MODAL_KEPT:
            _modal_read.clear()
        found = _modal_read[key] = modality(a.text, a.sentences, a.lang)
    return found


def modality(text: str, spans: tuple[Span, ...], lang: str) -> tuple[str, ...]:
    """What each sentence of a text allows or forbids, clause by clause in its order: a
    string of `FORBIDS` ("cannot", "не может", "нельзя") and `PERMITS` ("may", "можно")
    per sentence ("fp": "it cannot be dispelled, and it may target ..."), by the
    `modality` of `lang/<code>/align.yaml`; a hedged clause ("only if", "at most") and one
    that says neither add nothing. Empty when no sentence says either: most texts, read
    with one search (only the clauses that say either are read further)."""
    reader = _modality_reader(lang)
    if reader is None:
        return ()
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer: keep offsets right
        low = "".join(ch.lower()[:1] for ch in text)
    by_sentence: dict[int, list[tuple[int, str]]] = {}
    for m in _around_stems(low, reader):
        i = bisect_right(spans, (m.start(), _AFTER)) - 1  # the sentence it is in, if any
        if i >= 0 and m.start() < spans[i][1]:
            by_sentence.setdefault(i, []).append((m.start(), m.lastgroup or ""))
    if not by_sentence:
        return ()
    out = [""] * len(spans)
    for i, words in by_sentence.items():
        a, b = spans[i]
        said, last, k = "", "", 0
        cuts = [*(m.end() for m in reader.breaks.finditer(low, a, b)), b]
        for start, end in zip([a, *cuts], cuts, strict=False):
            clause = ""
            while k < len(words) and words[k][0] < end:
                if words[k][1] not in clause:  # "may ..., and may not ...": both
                    clause += words[k][1]
                k += 1
            hedge = reader.hedges.search(low, start, end)
            if hedge and last and not low[start : hedge.start()].strip():
                said = said[: -len(last)]  # "может, только если ...": it hedges the one before
            last = "" if hedge else clause
            said += last
            if k == len(words) and not last:
                break  # no clause after it can hedge it
        out[i] = said
    return tuple(out)


def _answered(text: str, spans: tuple[Span, ...]) -> int:
    """How many sentences of `text` are questions another sentence follows: a tutorial
    hand asks "а если два эффекта срабатывают одновременно?" and answers "Тогда ...",
    where the rulebook says "when two effects happen at the same time, ..." in one."""
    return sum(text[a:b].rstrip(" »”\"'").endswith("?") for a, b in spans[:-1])


_EXAMPLE = "x:"  # a quantity of an example: it agrees with the same, contradicts nothing


def _key(q: Quantity) -> tuple[Any, ...]:
    """A quantity's key, a bracket holding one distance read as that distance: "15 см
    (6″)" gives the inches a second time, as the English "6″" does once."""
    if q.type == "bracket" and q.qualifier == "distance" and str(q.expr).endswith('"'):
        return ("distance", q.value, "inch")
    return q.key()


def _example_spans(text: str, lang: str) -> list[Span]:
    """The sentences of `text` that give an example ("Например, отряд из 8 моделей ..."),
    by `example_openers` of `lang/<code>/align.yaml`: their numbers are the example's own,
    which a translator may add, change or leave out."""
    openers = _example_openers(lang)
    low = text.lower()
    if not any(o in low for o in openers):  # most texts give none
        return []
    return [(a, b) for a, b in sentences(text) if low[a:b].lstrip('( «"').startswith(openers)]


def note_spans(text: str) -> list[Span]:
    """The spans of `text` that are a translator's note or a footnote rather than the
    rule: their numbers are the note's (an older edition's, a comparison), as an
    example's are, and their length is no part of the rule's. Most texts hold neither
    a bracket nor a footnote mark and pass at once."""
    found = notes(text) + footnotes(text)
    merged: list[Span] = []
    for a, b in sorted(found):  # a note inside a footnote is counted once
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


@cache
def _example_openers(lang: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in lang_data(lang, "align").get("example_openers") or ())


def sentence_lengths(a: Anchors) -> list[int]:
    """The length of each sentence of `a` without its notes (`note_spans`): a sentence that
    carries a footnote is as long as the one it translates."""
    return [b - s - sum(max(0, min(b, y) - max(s, x)) for x, y in a.notes) for s, b in a.sentences]


def sentence_anchors(
    facts: Facts, spans: tuple[Span, ...], notes: tuple[Span, ...] = ()
) -> list[Counter[str]]:
    """The quantity and term anchors inside each sentence span (offsets in segment.text);
    the quantities of `notes` are the notes' own and are left out."""
    out: list[Counter[str]] = [Counter() for _ in spans]
    starts = [a for a, _ in spans]

    def place(pos: int) -> int | None:
        """The sentence holding `pos`: the last one starting at or before it (found by
        bisection: a paragraph of thousands of sentences made this quadratic)."""
        i = bisect_right(starts, pos) - 1
        return i if i >= 0 and pos < spans[i][1] else None

    for q in facts.quantities:
        if notes and any(a <= q.span[0] < b for a, b in notes):
            continue
        i = place(q.span[0])
        if i is not None:
            out[i][quantity_anchor(q.key())] += 1
    for prefix, found in (("t:", facts.terms), ("w:", facts.words)):
        for term, start in found:
            i = place(start)
            if i is not None:
                out[i][prefix + term] += 1
    return out
