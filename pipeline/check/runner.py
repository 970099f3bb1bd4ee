"""Run every check over a list of pairs (and segments checked alone), in a stable order."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..gc_pause import gc_paused
from ..glossary import Glossary
from .corpus import (
    PairTerms,
    check_segments_across,
    check_shared_rendering,
    check_terms_across,
    normalise,
)
from .data import base_lang
from .markup import check_markup
from .model import CHECK_IDS, Finding, Pair, Report
from .omission import check_omission
from .quantities import Item, check_quantities, items
from .script import check_homoglyphs, check_untranslated, unmix
from .style import (
    check_doubled,
    check_punctuation,
    check_spelling,
    check_whitespace,
)
from .terms import Match, TermIndex, check_glossary

Progress = Callable[[int], None]


def _single(pair_id: str, text: str, lang: str) -> Iterable[Finding]:
    """Checks on one text alone: doubled words; for the English master, house spellings."""
    yield from check_doubled(pair_id, text, lang, True)
    if base_lang(lang) == "en":
        yield from check_spelling(pair_id, text, lang, True)


@gc_paused()
def run_checks(
    pairs: list[Pair],
    glossary: Glossary | None = None,
    alone: list[Pair] | None = None,
    inputs: dict | None = None,
    progress: Progress | None = None,
) -> Report:
    """All findings for `pairs` (source/target) and `alone` (segments checked on their own).

    With `alone` None, the single-text checks run on each pair's source instead, as for a
    pairs file; a build passes its segments, so each text is checked once.
    """
    findings: list[Finding] = []
    indexes: dict[str, TermIndex] = {}

    def index(lang: str) -> TermIndex | None:
        if glossary is None:
            return None
        key = base_lang(lang)
        if key not in indexes:
            indexes[key] = TermIndex(glossary, key)
        return indexes[key]

    rows: list[PairTerms] = []
    for n, pair in enumerate(pairs, start=1):
        src_items = items(pair.source, pair.source_lang)
        if alone is None:
            findings.extend(_single(pair.id, pair.source, pair.source_lang))
        if pair.target is None:
            findings.extend(
                check_homoglyphs(pair.id, pair.source, pair.source_lang, None, None, src_items, [])
            )
            continue
        tl = pair.target_lang or "und"
        tgt_items = items(pair.target, tl)
        untranslated = list(
            check_untranslated(pair.id, pair.source, pair.target, pair.source_lang, tl)
        )
        findings.extend(untranslated)
        findings.extend(check_quantities(pair.id, src_items, tgt_items))
        findings.extend(check_markup(pair.id, pair.source, pair.target))
        findings.extend(
            check_homoglyphs(
                pair.id, pair.source, pair.source_lang, pair.target, tl, src_items, tgt_items
            )
        )
        findings.extend(check_doubled(pair.id, pair.target, tl, False))
        findings.extend(check_punctuation(pair.id, pair.source, pair.target))
        findings.extend(check_whitespace(pair.id, pair.source, pair.target))
        s_index, t_index = index(pair.source_lang), index(tl)
        src_m = s_index.find(unmix(pair.source)) if s_index else []
        tgt_m = t_index.find(unmix(pair.target)) if t_index else []
        findings.extend(
            check_omission(
                pair.id,
                pair.source,
                pair.target,
                pair.source_lang,
                tl,
                pair.sentences,
                lambda: (_anchors(src_items, src_m), _anchors(tgt_items, tgt_m)),  # noqa: B023
            )
        )
        unchanged = any(f.source_span == (0, len(pair.source)) for f in untranslated)
        if t_index is not None and not unchanged:
            findings.extend(
                check_glossary(pair.id, pair.source, pair.target, src_m, tgt_m, t_index)
            )
        rows.append(
            PairTerms(
                pair.id,
                base_lang(tl),
                normalise(pair.source),
                normalise(pair.target),
                pair.target,
                len(pair.source),
                src_m,
                tgt_m,
            )
        )
        if progress is not None and n % 1000 == 0:
            progress(n)
    findings.extend(check_terms_across(rows))
    findings.extend(check_segments_across(rows))
    if glossary is not None:
        findings.extend(check_shared_rendering(rows, indexes))
    for seg in alone or ():
        findings.extend(_single(seg.id, seg.source, seg.source_lang))
        findings.extend(
            check_homoglyphs(
                seg.id,
                seg.source,
                seg.source_lang,
                None,
                None,
                items(seg.source, seg.source_lang),
                [],
            )
        )
    order = {p.id: i for i, p in enumerate([*pairs, *(alone or ())])}
    check_order = {c: i for i, c in enumerate(CHECK_IDS)}
    findings.sort(
        key=lambda f: (
            order.get(f.pair_id, len(order)),
            (f.source_span or f.target_span or (0, 0))[0],
            check_order[f.check],
        )
    )
    all_pairs = [*pairs, *(alone or ())]
    return Report(all_pairs, _dedupe(findings), dict(inputs or {}))


def _anchors(quantities: list[Item], terms: list[Match]) -> list[tuple[int, str]]:
    """Positions of what both languages share: quantity amounts and glossary term ids."""
    out = [(it.q.span[0], f"q:{it.amount}") for it in quantities]
    out += [(m.span[0], f"t:{m.term}") for m in terms]
    return out


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[tuple] = set()
    out = []
    for f in findings:
        key = (f.check, f.pair_id, f.source_span, f.target_span, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
