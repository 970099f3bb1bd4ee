"""What the checks read: one context per pair, computed once and shared by every check.

The quantities, glossary terms and the untranslated verdict of a pair are each wanted by
several checks (quantities by four mismatch checks, the homoglyph check and the sentence
aligner's anchors; terms by the glossary check, the aligner and the checks across pairs).
A context computes each on first use and keeps it while the pair is checked; after it, only
what the checks across pairs need (`PairTerms`) is kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from ..align.anchors import length_ratio, note_spans
from ..glossary import Glossary
from ..lang.scripts import unmix
from ..model import Span
from ..pairs import Pair
from ..quantities import Quantity, find_quantities
from ..sentences import sentences
from . import meaning
from .across_pairs import PairTerms, normalise
from .beads import Alignment, align, lengths
from .data import base_lang
from .model import Finding
from .quantities import Item, check_quantities, items_of
from .script import check_untranslated
from .terms import Match, TermIndex

T = TypeVar("T")


class cached_property(Generic[T]):
    """functools.cached_property without its lock (taken on every first read in Python
    3.11, a few percent of the checks' time); a context is read by one thread only."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj: Any, owner: type | None = None) -> T:
        if obj is None:
            return self  # type: ignore[return-value]
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class Run:
    """What one run shares across its pairs: the glossary's term index per language."""

    def __init__(self, glossary: Glossary | None) -> None:
        self.glossary = glossary
        self.indexes: dict[str, TermIndex] = {}

    def index(self, lang: str) -> TermIndex | None:
        if self.glossary is None:
            return None
        key = base_lang(lang)
        if key not in self.indexes:
            self.indexes[key] = TermIndex(self.glossary, key)
        return self.indexes[key]


def _rule_quantities(text: str, lang: str) -> list[Quantity]:
    """The quantities of a text less those of its translator's notes and footnotes
    (`note_spans`: "[прим. пер.: в прошлой редакции было 6″]"): a note's numbers are an
    older edition's or a comparison, no number of the rule to compare."""
    found = find_quantities(text, lang)
    notes = note_spans(text) if found else []
    return [q for q in found if not any(a <= q.span[0] < b for a, b in notes)] if notes else found


class PairContext:
    """One pair as the checks read it. `own_source`: the source's single-text checks run
    here (a pairs file), not on a segment of its own (a build)."""

    def __init__(self, pair: Pair, run: Run, own_source: bool) -> None:
        self.pair = pair
        self.run = run
        self.own_source = own_source
        self.id = pair.id
        self.source = pair.source
        self.source_lang = pair.source_lang
        self.target_lang = pair.target_lang or "und"
        self.unread = (0, 0)
        """Sentences of source and translation with no mark of meaning: what the effect
        check could not compare (set by it)."""

    @property
    def target(self) -> str:
        """The translation; pair-scoped checks run only on pairs that have one."""
        assert self.pair.target is not None
        return self.pair.target

    def sides(self) -> list[Side]:
        """The texts of the pair, source first."""
        if self.pair.target is None:
            return [Side(self, True)]
        return [Side(self, True), Side(self, False)]

    @cached_property
    def source_quantities(self) -> list[Quantity]:
        return _rule_quantities(self.source, self.source_lang)

    @cached_property
    def target_quantities(self) -> list[Quantity]:
        if self.pair.target is None:
            return []
        return _rule_quantities(self.target, self.target_lang)

    @cached_property
    def source_sentences(self) -> list[Span]:
        """Sentence spans, read by the effect and the omission checks."""
        return sentences(self.source)

    @cached_property
    def target_sentences(self) -> list[Span]:
        return sentences(self.target) if self.pair.target is not None else []

    @cached_property
    def source_items(self) -> list[Item]:
        return items_of(self.source_quantities)

    @cached_property
    def target_items(self) -> list[Item]:
        return items_of(self.target_quantities)

    @cached_property
    def target_index(self) -> TermIndex | None:
        return self.run.index(self.target_lang)

    @cached_property
    def source_terms(self) -> list[Match]:
        index = self.run.index(self.source_lang)
        return index.find(unmix(self.source)) if index else []

    @cached_property
    def target_terms(self) -> list[Match]:
        index = self.target_index
        return index.find(unmix(self.target)) if index else []

    @cached_property
    def untranslated(self) -> list[Finding]:
        return list(
            check_untranslated(
                self.id, self.source, self.target, self.source_lang, self.target_lang
            )
        )

    @cached_property
    def unchanged(self) -> bool:
        """The translation is the source itself (then its terms are not the glossary's concern)."""
        return any(f.source_span == (0, len(self.source)) for f in self.untranslated)

    @cached_property
    def quantity_findings(self) -> dict[str, list[Finding]]:
        """The quantities of both sides compared once; findings by check id."""
        out: dict[str, list[Finding]] = defaultdict(list)
        for f in check_quantities(self.id, self.source_items, self.target_items):
            out[f.check].append(f)
        return out

    def anchors(self) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
        """Positions of what both languages share, per side: quantity amounts, glossary
        term ids and marks of meaning (for aligning sentences)."""
        return (
            _anchors(self.source_items, self.source_terms)
            + meaning.anchors(self.source, self.source_sentences, self.source_lang),
            _anchors(self.target_items, self.target_terms)
            + meaning.anchors(self.target, self.target_sentences, self.target_lang),
        )

    def unmatched_terms(self) -> tuple[list[Span], list[Span]]:
        """Where a glossary term of one side has none of its renderings on the other: the
        glossary check's business, whatever else a word there changes."""
        s_terms = {m.term for m in self.source_terms}
        t_terms = {m.term for m in self.target_terms}
        return (
            [m.span for m in self.source_terms if m.term not in t_terms],
            [m.span for m in self.target_terms if m.term not in s_terms],
        )

    @cached_property
    def ratio(self) -> float:
        """Expected characters of the translation per character of the source."""
        return length_ratio(self.target_lang) / length_ratio(self.source_lang)

    @cached_property
    def sizes(self) -> tuple[list[int], list[int]]:
        """Characters of each sentence of both sides."""
        return (
            lengths(self.source, self.source_sentences),
            lengths(self.target, self.target_sentences),
        )

    @cached_property
    def alignment(self) -> Alignment:
        """The sentences of both sides aligned (the build's links when they name them)."""
        return align(
            (self.source_sentences, self.target_sentences),
            self.sizes,
            self.ratio,
            self.anchors,
            self.pair.sentences,
        )

    def terms_row(self) -> PairTerms:
        """What the checks across pairs keep of this pair."""
        return PairTerms(
            self.id,
            base_lang(self.target_lang),
            normalise(self.source),
            len(self.source),
            len(self.target),
            self.source_terms,
            self.target_terms,
        )


class Side:
    """One text of a pair, for the checks that read a text on its own."""

    __slots__ = ("ctx", "is_source")

    def __init__(self, ctx: PairContext, is_source: bool) -> None:
        self.ctx = ctx
        self.is_source = is_source

    @property
    def pair_id(self) -> str:
        return self.ctx.id

    @property
    def text(self) -> str:
        return self.ctx.source if self.is_source else self.ctx.target

    @property
    def lang(self) -> str:
        return self.ctx.source_lang if self.is_source else self.ctx.target_lang

    @property
    def own(self) -> bool:
        """This text's single-text findings belong here (a source of a build pair has
        them on its own segment)."""
        return self.ctx.own_source if self.is_source else True

    @property
    def items(self) -> list[Item]:
        return self.ctx.source_items if self.is_source else self.ctx.target_items

    @property
    def other_items(self) -> list[Item]:
        """The other side's quantities (none for a text without a translation)."""
        return self.ctx.target_items if self.is_source else self.ctx.source_items


class Corpus:
    """All pairs of a run, for the checks across pairs: what each pair with a target kept
    (`rows`) and those pairs' translations, in the same order, for what only a few need."""

    def __init__(self, rows: list[PairTerms], run: Run, targets: list[str]) -> None:
        assert len(rows) == len(targets)
        self.rows = rows
        self.indexes = run.indexes
        self.targets = targets

    def target_norm(self, k: int) -> str:
        """The k-th row's translation normalised, as its source is."""
        return normalise(self.targets[k])


def _anchors(quantities: list[Item], terms: list[Match]) -> list[tuple[int, str]]:
    out = [(it.q.span[0], f"q:{it.amount}") for it in quantities]
    out += [(m.span[0], f"t:{m.term}") for m in terms]
    return out
