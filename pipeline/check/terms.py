"""glossary: each source term's approved rendering (any inflected form) must be in the
translation, and no deprecated rendering may be; also where each term occurs and how it was
rendered, which the corpus-level check compares across pairs.

Words are matched on lemmas (`pipeline.lang.lemma`: pymorphy3 for Russian, ё read
as е), so "правилу Расстояния между отрядами" is the form "правило Расстояния между
отрядами". Two forms with the same lemmas ("правило Расстояния ..." approved, "Правило
расстояния ..." deprecated) are told apart by the capitals of their words after the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate, compress
from typing import NamedTuple

from ..glossary import Glossary
from ..lang import lemma
from ..lang import lemmas as lemmas_of
from .data import base_lang, lang_checks
from .model import Finding, Span

# Entries and matches are named tuples, not frozen dataclasses: a worker sends the matches
# of every pair back to the main process, and a tuple is pickled and rebuilt in C where a
# frozen dataclass sets each field through Python (most of the cost of a parallel run's
# results).


class Entry(NamedTuple):
    term: str
    status: str  # approved | variant | deprecated
    form: str
    lemmas: tuple[str, ...]
    caps: tuple[bool, ...]  # capitals of the words after the first


class Match(NamedTuple):
    term: str
    entry: Entry | None  # None: same lemmas as an entry, other capitals
    span: Span
    surface: str
    caps_of: Entry  # the entry whose lemmas it has (for messages)


_TERM_WORD = re.compile(r"[^\W\d_]+")
_TERM_SPLIT = re.compile(r"([^\W\d_]+)")


def _spellings(form: str) -> list[str]:
    """The form as spelt with the variants the house style forbids ("Armor Penetration"), so
    a source term is recognised even where the master misspells it (reported separately)."""
    rev: dict[str, str] = {}
    for variant, house in lang_checks("en").house_spellings.items():
        rev.setdefault(house, variant)
    words = form.split()
    swapped = [rev.get(w.lower(), w.lower()) for w in words]
    if swapped == [w.lower() for w in words]:
        return []
    return [
        " ".join(
            w.capitalize() if o[:1].isupper() else w for w, o in zip(swapped, words, strict=True)
        )
    ]


def _caps(words: list[str]) -> tuple[bool, ...]:
    if len(words) < 2:
        return ()
    return tuple([w[:1].isupper() for w in words[1:]])


class TermIndex:
    """The glossary's forms of one language, indexed by their first lemma."""

    def __init__(self, glossary: Glossary, lang: str) -> None:
        self.lang = base_lang(lang)
        self.by_first: dict[str, list[Entry]] = {}
        self._lemmas: dict[str, tuple[str, ...]] = {}  # word -> its readings
        self._cands: dict[str, tuple[Entry, ...]] = {}  # word -> entries it may start
        self.approved: dict[str, str] = {}
        self.has_rendering: set[str] = set()
        for term in glossary.terms:
            forms = term.renderings.get(self.lang, ())
            if forms:
                self.approved[term.id] = forms[0]
                self.has_rendering.add(term.id)
            tagged = [(f, "approved" if i == 0 else "variant") for i, f in enumerate(forms)]
            tagged += [(f, "deprecated") for f in term.deprecated.get(self.lang, ())]
            if self.lang == "en":
                tagged += [(v, "variant") for f in forms for v in _spellings(f)]
            for form, status in tagged:
                ws = _TERM_WORD.findall(form)
                if not ws:
                    continue
                lemmas = tuple(lemma(w, self.lang) for w in ws)
                entry = Entry(term.id, status, form, lemmas, _caps(ws))
                self.by_first.setdefault(lemmas[0], []).append(entry)
        for entries in self.by_first.values():
            entries.sort(key=lambda e: -len(e.lemmas))

    def replacement(self, deprecated: Entry) -> str | None:
        """The accepted form with the same words as a deprecated one ("правило Расстояния
        между отрядами" for "Правило расстояния между отрядами"), else the approved one."""
        for e in self.by_first.get(deprecated.lemmas[0], ()):
            same = e.term == deprecated.term and e.lemmas == deprecated.lemmas
            if same and e.status != "deprecated":
                return e.form
        return self.approved.get(deprecated.term)

    def _readings(self, word: str) -> tuple[str, ...]:
        got = self._lemmas.get(word)
        if got is None:
            got = self._lemmas[word] = lemmas_of(word, self.lang)
        return got

    def _candidates(self, word: str) -> tuple[Entry, ...]:
        """Entries whose first word this word may be, longest first (cached per word)."""
        got = self._cands.get(word)
        if got is None:
            found = [e for first in self._readings(word) for e in self.by_first.get(first, ())]
            found.sort(key=lambda e: -len(e.lemmas))
            got = self._cands[word] = tuple(found)
        return got

    def find(self, text: str) -> list[Match]:
        """Longest non-overlapping term occurrences in reading order.

        The hot path of the checks: each distinct word is looked up once per index (its
        candidates cached), only words that may start a term are visited, and word
        offsets are summed only for texts with a match.
        """
        parts = _TERM_SPLIT.split(text)  # separator, word, separator, ..., separator
        words = parts[1::2]
        cands = list(map(self._cands.get, words))
        if None in cands:  # words not seen before
            cands = [
                c if c is not None else self._candidates(w)
                for c, w in zip(cands, words, strict=True)
            ]
        out: list[Match] = []
        offsets: list[int] | None = None
        total = len(words)
        nxt = 0
        for i in compress(range(total), cands):  # the words that may start a term
            if i < nxt:
                continue
            first = cands[i][0]
            if len(first.lemmas) == 1:
                # one-word terms only (most words that start a term): the first entry is the
                # term, as the general case below finds with more steps (one word has no
                # capitals after it to tell entries apart)
                if offsets is None:
                    offsets = list(accumulate(map(len, parts), initial=0))
                a, b = offsets[2 * i + 1], offsets[2 * i + 2]
                out.append(Match(first.term, first, (a, b), text[a:b], first))
                nxt = i + 1
                continue
            best: list[Entry] = []
            after = self._readings(words[i + 1]) if i + 1 < total else ()
            for e in cands[i]:
                n = len(e.lemmas)
                if best and n < len(best[0].lemmas):
                    break
                # the second word tested inline: most terms have two words, and most
                # candidates fail there
                if n == 1 or (
                    i + n <= total
                    and e.lemmas[1] in after
                    and all(e.lemmas[k] in self._readings(words[i + k]) for k in range(2, n))
                ):
                    best.append(e)
            if not best:
                continue
            if offsets is None:
                offsets = list(accumulate(map(len, parts), initial=0))
            n = len(best[0].lemmas)
            caps = _caps(words[i : i + n])
            chosen = next((e for e in best if e.caps == caps), None)
            if chosen is None and n == 1:
                chosen = next((e for e in best if e.status != "deprecated"), best[0])
            span = (offsets[2 * i + 1], offsets[2 * (i + n - 1) + 2])
            ref = chosen or next((e for e in best if e.status == "approved"), best[0])
            out.append(Match(ref.term, chosen, span, text[span[0] : span[1]], ref))
            nxt = i + n
        return out


def check_glossary(
    pair_id: str,
    src_matches: list[Match],
    tgt_matches: list[Match],
    tgt_index: TermIndex,
    stood_in: str | None = None,
) -> Iterator[Finding]:
    """Source terms without their approved rendering; deprecated or mis-capitalised renderings.
    `stood_in`: a term another term's rendering replaced, which inconsistent_translation
    reports (one finding for one word)."""
    good = {m.term for m in tgt_matches if m.entry is not None and m.entry.status != "deprecated"}
    reported: set[str] = set()
    for m in tgt_matches:
        if m.entry is not None and m.entry.status == "deprecated":
            use = tgt_index.replacement(m.entry)
            yield Finding(
                "glossary",
                "error",
                pair_id,
                f"{m.surface!r} is a deprecated rendering of"
                f" {_source_name(src_matches, m.term)}: write {use!r}",
                _first_span(src_matches, m.term),
                m.span,
                expected=use,
                found=m.surface,
            )
            reported.add(m.term)
        elif m.entry is None:
            yield Finding(
                "glossary",
                "warning",
                pair_id,
                f"{m.surface!r} ({_source_name(src_matches, m.term)}) has other capitals than"
                f" the glossary's {m.caps_of.form!r}",
                _first_span(src_matches, m.term),
                m.span,
                expected=m.caps_of.form,
                found=m.surface,
            )
            reported.add(m.term)
    seen: set[str] = set()
    for m in src_matches:
        if m.term in seen or m.term in good or m.term in reported:
            continue
        seen.add(m.term)
        if m.term not in tgt_index.has_rendering or m.term == stood_in:
            continue
        yield Finding(
            "glossary",
            "warning",
            pair_id,
            f"the source term {m.surface!r} has no approved rendering in the translation"
            f" (glossary: {tgt_index.approved[m.term]!r}, any inflected form)",
            m.span,
            None,
            expected=tgt_index.approved[m.term],
        )


def _source_name(matches: list[Match], term: str) -> str:
    """How the source writes a term, quoted, else the glossary's id for it."""
    return repr(next((m.surface for m in matches if m.term == term), term))


def _first_span(matches: list[Match], term: str) -> Span | None:
    return next((m.span for m in matches if m.term == term), None)
