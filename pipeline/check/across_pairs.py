"""inconsistent_translation: what can only be seen across pairs, or beside another term.

- one source segment translated two ways in different pairs;
- two source terms sharing one rendering: a pair whose source term lost its rendering while
  the translation has the rendering of a term the source does not have.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import NamedTuple

from ..lang import fold
from .model import Finding
from .terms import Match, TermIndex
from .text import mask_tags

_SAME_PLACE = 0.15  # relative position in the text, for a stand-in rendering


class PairTerms(NamedTuple):
    """What the checks across pairs keep of one pair (a tuple: workers send one per pair)."""

    pair_id: str
    target_lang: str
    source_norm: str
    source_len: int
    target_len: int
    src: list[Match]
    tgt: list[Match]


def normalise(text: str) -> str:
    return " ".join(fold(mask_tags(text)).split())


def check_segments_across(
    rows: list[PairTerms], target_norm: Callable[[int], str]
) -> Iterator[Finding]:
    """The same source text translated differently in different pairs. `target_norm`: the
    translation of the k-th row normalised, asked only for a source text that repeats."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        groups[(row.target_lang, row.source_norm)].append(k)
    for numbers in groups.values():
        if len(numbers) < 2:
            continue
        members = [rows[k] for k in numbers]
        norms = [target_norm(k) for k in numbers]
        counts = Counter(norms)
        if len(counts) < 2:
            continue
        top = max(counts.values())
        usual = next(n for n in norms if counts[n] == top)
        for r, norm in zip(members, norms, strict=True):
            if norm == usual:
                continue
            yield Finding(
                "inconsistent_translation",
                "warning",
                r.pair_id,
                f"the same source text is translated in {len(counts)} different ways;"
                f" {top} pair(s) have the expected translation",
                None,
                (0, r.target_len),
                expected=usual,
                found=norm,
            )


def stand_in(
    src: list[Match],
    tgt: list[Match],
    index: TermIndex,
    sizes: tuple[int, int],
    target: str,
) -> tuple[Match, Match] | None:
    """The one source term whose rendering is missing from the translation, and another
    term's approved rendering at about the same place that stands in for it; None when
    there is no such pair. A rendering right after a capitalised word is part of the
    translator's own longer name ("Пробитию брони"), not a stand-in."""
    src_terms = {m.term for m in src if m.term in index.has_rendering}
    tgt_terms = {m.term for m in tgt}
    lost = sorted(src_terms - tgt_terms)
    if len(lost) != 1:
        return None
    s = next(m for m in src if m.term == lost[0])
    where = s.span[0] / max(1, sizes[0])
    for m in tgt:
        if (
            m.term not in src_terms
            and m.entry is not None
            and m.entry.status == "approved"
            and abs(m.span[0] / max(1, sizes[1]) - where) <= _SAME_PLACE
            and not _named_before(target, m.span[0])
        ):
            return s, m
    return None


def _named_before(text: str, at: int) -> bool:
    """The word just before `at`, with nothing but spaces between, starts with a capital."""
    before = text[:at].rstrip()
    word = before.rsplit(None, 1)[-1] if before else ""
    return word[-1:].isalpha() and word[:1].isupper()


def check_shared_rendering(
    rows: list[PairTerms], tgt_indexes: dict[str, TermIndex], targets: list[str]
) -> Iterator[Finding]:
    """A source term whose rendering is missing while another term's rendering stands in
    (`stand_in`); the glossary check leaves that term to this one."""
    for row, target in zip(rows, targets, strict=True):
        index = tgt_indexes.get(row.target_lang)
        if index is None:
            continue
        found = stand_in(row.src, row.tgt, index, (row.source_len, row.target_len), target)
        if found is None:
            continue
        s, t = found
        yield Finding(
            "inconsistent_translation",
            "warning",
            row.pair_id,
            f"{s.surface!r} seems rendered as {t.surface!r}, the glossary's rendering of"
            f" {t.term!r}: two source terms would share one translation",
            s.span,
            t.span,
            expected=index.approved.get(s.term),
            found=t.surface,
        )
