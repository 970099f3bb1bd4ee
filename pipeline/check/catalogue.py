"""Every check, declared once in report order: id, severity, scope and what it finds.

Each declaration binds a check to the function of its family module (quantities, markup,
terms, script, omission, style, across_pairs) and hands that function what it needs from
the pair's context, so the family modules stay plain functions of texts and items.
"""

from __future__ import annotations

from collections.abc import Iterable

from .across_pairs import check_segments_across, check_shared_rendering, stand_in
from .context import Corpus, PairContext, Side
from .data import base_lang
from .effects import check_pair as check_effects
from .markup import check_markup
from .model import SEVERITIES, Finding
from .omission import check_omission
from .registry import check, declared
from .script import check_homoglyphs
from .style import check_doubled, check_punctuation, check_spelling, check_whitespace
from .terms import check_glossary


@check(
    "untranslated",
    "error",
    "pair",
    "the target is the source; English sentences or words left in it (D6, X, names in"
    " parentheses allowed: `pipeline/lang/<lang>/checks.yaml`)",
)
def untranslated(ctx: PairContext) -> Iterable[Finding]:
    return ctx.untranslated


def _quantity_check(check_id: str, finds: str) -> None:
    """Declare one of the four mismatch checks, which share the pair's one comparison of
    quantities (`PairContext.quantity_findings`)."""

    @check(check_id, "error", "pair", finds)
    def run(ctx: PairContext) -> Iterable[Finding]:
        return ctx.quantity_findings.get(check_id, ())


for _id, _finds in (
    ("number_mismatch", "a number missing, extra or different"),
    (
        "dice_mismatch",
        "dice missing, extra or different (D3 for D6, 2D3 for D3); `Д6`/`К6` for `D6` as info",
    ),
    (
        "distance_mismatch",
        'a distance missing, extra or different (`1"`, `1″` and `1 дюйм` are one); a'
        " distance that lost its inch mark",
    ),
    ("modifier_mismatch", "a modifier missing, extra, or of another sign or size (+1 for -1)"),
):
    _quantity_check(_id, _finds)


@check(
    "effect_mismatch",
    "error",
    "pair",
    "the translation means something else. Sentence by sentence (warning): forbids / allows"
    " / requires, a negation, a gain or a loss, a passed or failed roll, a reroll, the roll,"
    " the characteristic, the situation (charging, first round or turn, facing, shooting)"
    " and who is affected (`pipeline/lang/<lang>/meaning.yaml`); where both sides read as"
    " effects, an effect missing, extra or different, with what it changes in a reference"
    " attack; a dice table with other ranges, with each row's chance on both sides",
)
def effect_mismatch(ctx: PairContext) -> Iterable[Finding]:
    if ctx.unchanged:
        return ()
    compared = check_effects(
        ctx.id,
        (ctx.source, ctx.target),
        (ctx.source_lang, ctx.target_lang),
        (ctx.source_quantities, ctx.target_quantities),
        (ctx.source_sentences, ctx.target_sentences),
        lambda: ctx.alignment.beads,
        lambda: any(ctx.quantity_findings.values()),
        ctx.unmatched_terms,
    )
    ctx.unread = compared.unread
    return compared.findings


@check("markup_mismatch", "error", "pair", "BBCode missing, extra, unbalanced or reordered")
def markup_mismatch(ctx: PairContext) -> Iterable[Finding]:
    return check_markup(ctx.id, ctx.source, ctx.target)


@check(
    "glossary",
    "error",
    "pair",
    "a source term without its approved rendering; a deprecated rendering; other capitals"
    " in a rule name",
)
def glossary(ctx: PairContext) -> Iterable[Finding]:
    index = ctx.target_index
    if index is None or ctx.unchanged:
        return ()
    replaced = stand_in(
        ctx.source_terms, ctx.target_terms, index, (len(ctx.source), len(ctx.target)), ctx.target
    )
    return check_glossary(
        ctx.id,
        ctx.source_terms,
        ctx.target_terms,
        index,
        replaced[0].term if replaced else None,
    )


@check(
    "inconsistent_translation",
    "warning",
    "corpus",
    "a segment translated two ways across pairs; one rendering standing for two source terms",
)
def inconsistent_translation(corpus: Corpus) -> Iterable[Finding]:
    yield from check_segments_across(corpus.rows, corpus.target_norm)
    yield from check_shared_rendering(corpus.rows, corpus.indexes, corpus.targets)


@check(
    "homoglyph",
    "error",
    "segment",
    "words mixing Latin and Cyrillic letters; `Х+D6`, `(1х5)` (`pipeline/lang/homoglyphs.yaml`)",
)
def homoglyph(side: Side) -> Iterable[Finding]:
    return check_homoglyphs(
        side.pair_id,
        side.text,
        side.lang,
        side.items,
        side.is_source,
        side.other_items,
        None if side.is_source else side.ctx.source,
    )


@check("omission", "error", "pair", "a source sentence with no counterpart")
def omission(ctx: PairContext) -> Iterable[Finding]:
    return check_omission(
        ctx.id,
        ctx.source,
        (ctx.source_sentences, ctx.target_sentences),
        ctx.sizes,
        ctx.ratio,
        lambda: ctx.alignment,
        ctx.pair.sentences,
    )


@check("doubled_word", "warning", "segment", '"with with", "в в"')
def doubled_word(side: Side) -> Iterable[Finding]:
    if not side.own:
        return ()
    return check_doubled(side.pair_id, side.text, side.lang, side.is_source)


@check(
    "punctuation",
    "warning",
    "pair",
    "end marks, brackets and quotes that differ from the source's",
)
def punctuation(ctx: PairContext) -> Iterable[Finding]:
    return check_punctuation(ctx.id, ctx.source, ctx.target)


@check("whitespace", "warning", "pair", "double and edge spaces, spaces around punctuation")
def whitespace(ctx: PairContext) -> Iterable[Finding]:
    return check_whitespace(ctx.id, ctx.source, ctx.target)


@check(
    "spelling_variant",
    "warning",
    "segment",
    'the master\'s "Armor" where the house writes "Armour" (`pipeline/lang/en/checks.yaml`)',
)
def spelling_variant(side: Side) -> Iterable[Finding]:
    if not (side.own and side.is_source and base_lang(side.lang) == "en"):
        return ()
    return check_spelling(side.pair_id, side.text, side.lang, True)


CHECKS = declared()
CHECK_IDS: tuple[str, ...] = tuple(c.id for c in CHECKS)


def tally(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """Findings per check and severity, every check present (zeros included), in the
    registry's order."""
    out = {c: dict.fromkeys(SEVERITIES, 0) for c in CHECK_IDS}
    for f in findings:
        out[f.check][f.severity] += 1
    return out
