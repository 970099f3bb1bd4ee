"""inconsistent_translation: what can only be seen across pairs (or across one long pair).

- one glossary term rendered two ways: an approved rendering beside a deprecated one or one
  with other capitals, in the same pair or in different pairs;
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


def check_terms_across(rows: list[PairTerms]) -> Iterator[Finding]:
    """A glossary term rendered in two ways anywhere in the corpus of one target language."""
    by_term: dict[tuple[str, str], list[tuple[PairTerms, Match]]] = defaultdict(list)
    for row in rows:
        for m in row.tgt:
            by_term[(row.target_lang, m.term)].append((row, m))
    for (_lang, term), uses in sorted(by_term.items()):
        kinds = Counter(m.rendering for _, m in uses)
        if len(kinds) < 2:
            continue
        usual = "approved" if "approved" in kinds else kinds.most_common(1)[0][0]
        usual_match = next(m for _, m in uses if m.rendering == usual)
        usual_surface = usual_match.surface
        expected = usual_match.entry.form if usual_match.entry is not None else usual_surface
        for row, m in uses:
            if m.rendering == usual:
                continue
            yield Finding(
                "inconsistent_translation",
                "warning",
                row.pair_id,
                f"the term {term!r} is rendered as {m.surface!r} here and as"
                f" {usual_surface!r} elsewhere ({kinds[usual]} time(s))",
                next((s.span for s in row.src if s.term == term), None),
                m.span,
                expected=expected,
                found=m.surface,
            )


def check_segments_across(
    rows: list[PairTerms], target_norm: Callable[[int], str]
) -> Iterator[Finding]:
    """The same source text translated differently in different pairs. `target_norm`: the
    translation of the k-th row normalised, asked only for a source text that repeats."""
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, row in enumerate(rows):
        groups[(row.target_lang, row.source_norm)].append(k)
    for (_lang, _src), numbers in groups.items():
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


def check_shared_rendering(
    rows: list[PairTerms], tgt_indexes: dict[str, TermIndex]
) -> Iterator[Finding]:
    """A source term whose rendering is missing while another term's rendering stands in."""
    for row in rows:
        index = tgt_indexes.get(row.target_lang)
        if index is None:
            continue
        src_terms = {m.term for m in row.src if m.term in index.has_rendering}
        tgt_terms = {m.term for m in row.tgt}
        lost = sorted(src_terms - tgt_terms)
        if len(lost) != 1:
            continue
        s = next(m for m in row.src if m.term == lost[0])
        # The stand-in: another term's approved rendering at about the same place.
        where = s.span[0] / max(1, row.source_len)
        stand_in = [
            m
            for m in row.tgt
            if m.term not in src_terms
            and m.entry is not None
            and m.entry.status == "approved"
            and abs(m.span[0] / max(1, row.target_len) - where) <= _SAME_PLACE
        ]
        if not stand_in:
            continue
        t = stand_in[0]
        yield Finding(
            "inconsistent_translation",
            "warning",
            row.pair_id,
            f"{s.surface!r} seems rendered as {t.surface!r}, which is the rendering of the"
            f" term {t.term!r}: two source terms would share one translation",
            s.span,
            t.span,
            expected=index.approved.get(lost[0]),
            found=t.surface,
        )
