"""omission: a source sentence with no counterpart in the translation.

Sentences are aligned by the aligner of the build (pipeline/align/sentences.py: Gale and
Church, beads 1-1, 1-2, 2-1, 2-2, 1-3, 3-1, 1-0 and 0-1), so a translator who splits or joins
sentences is not flagged. A source sentence left in a 1-0 bead is an omission. When a build
gives sentence links, its 1-0 links are used instead. A translation far shorter than
expected, without a 1-0 bead, is reported at the bead that lost the most.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ..align.anchors import length_ratio
from ..align.sentences import Bead, align_sentences
from ..sentences import sentences
from .model import Finding, Span
from .text import WORD, mask_tags

_MIN_WORDS = 4
_JOIN_SHORT = 0.8
Anchors = list[frozenset[str]]


def _lens(text: str, spans: tuple[Span, ...]) -> list[int]:
    return [len(mask_tags(text[a:b]).replace(" ", "")) for a, b in spans]


def check_omission(
    pair_id: str,
    source: str,
    target: str,
    source_lang: str,
    target_lang: str | None,
    links: tuple[tuple[str, tuple[Span, ...], tuple[Span, ...]], ...] = (),
    anchors: Callable[[], tuple[list[tuple[int, str]], list[tuple[int, str]]]] | None = None,
    spans: tuple[list[Span], list[Span]] | None = None,
) -> Iterator[Finding]:
    """Omitted source sentences. `anchors` gives (position, key) of what both sides share,
    for each side; it is called only when the sentences need aligning. `spans`: the
    sentences of source and target, when the caller has split them already."""
    c = length_ratio(target_lang or "und") / length_ratio(source_lang)
    s_sent, t_sent = spans if spans is not None else (sentences(source), sentences(target))
    ls, lt = _lens(source, s_sent), _lens(target, t_sent)
    total_s, total_t = sum(ls), sum(lt)
    if total_s < 20:
        return
    ratio = total_t / (total_s * c)
    severity = "error" if ratio < 0.9 else "warning"
    if links:
        dropped = [spans[0] for kind, spans, _ in links if kind == "1-0" and spans]
        for span in dropped:
            if len(WORD.findall(source[span[0] : span[1]])) >= _MIN_WORDS:
                yield _dropped(pair_id, source, span, severity)
        return
    if len(s_sent) * len(t_sent) > 40_000:  # a huge segment: the length ratio alone
        beads = [(0, len(s_sent), 0, len(t_sent))]
    elif _parallel(ls, lt, c):
        return
    else:
        src_anchors, tgt_anchors = anchors() if anchors is not None else ([], [])
        sa, ta = _per_sentence(s_sent, src_anchors), _per_sentence(t_sent, tgt_anchors)
        beads = [
            (
                b.source[0] if b.source else si,
                len(b.source),
                b.target[0] if b.target else tj,
                len(b.target),
            )
            for b, si, tj in _starts(align_sentences(ls, lt, sa, ta, c))
        ]
    found = False
    for si, sn, tj, tn in beads:
        if sn == 1 and tn == 0:
            span = s_sent[si]
            if len(WORD.findall(source[span[0] : span[1]])) >= _MIN_WORDS:
                found = True
                yield _dropped(pair_id, source, span, severity)
        elif sn >= 2 and tn == 1 and ratio < 1.0:
            # Two sentences joined into one that is much shorter than both: one of them
            # may be lost in the join.
            joined = sum(ls[si : si + sn])
            if lt[tj] < _JOIN_SHORT * c * joined:
                found = True
                yield Finding(
                    "omission",
                    "warning",
                    pair_id,
                    f"{sn} source sentences have one shorter translation"
                    f" ({lt[tj] / (c * joined):.0%} of the expected length): one of them may"
                    " be missing",
                    (s_sent[si][0], s_sent[si + sn - 1][1]),
                    t_sent[tj],
                    expected="a translation of each sentence",
                )
    if found or ratio >= 0.7 or total_s < 60:
        return
    worst = min(
        (b for b in beads if b[1] and b[3]),
        key=lambda b: sum(lt[b[2] : b[2] + b[3]]) - c * sum(ls[b[0] : b[0] + b[1]]),
        default=None,
    )
    if worst is None:
        return
    si, sn, tj, tn = worst
    yield Finding(
        "omission",
        "warning",
        pair_id,
        f"the translation is {ratio:.0%} of the expected length: part of the source"
        " seems to be missing here",
        (s_sent[si][0], s_sent[si + sn - 1][1]),
        (t_sent[tj][0], t_sent[tj + tn - 1][1]),
        expected="a translation of the whole source",
    )


def _starts(beads: list[Bead]) -> list[tuple[Bead, int, int]]:
    """Each bead with the source and target positions where it starts."""
    out, si, tj = [], 0, 0
    for bead in beads:
        out.append((bead, si, tj))
        si, tj = si + len(bead.source), tj + len(bead.target)
    return out


def _parallel(ls: list[int], lt: list[int], c: float) -> bool:
    """Sentence for sentence with proportional lengths: the usual case, which needs no
    alignment search (an omission there would need an added sentence elsewhere as well)."""
    if len(ls) != len(lt):
        return False
    return all(0.6 * c * a <= b <= 1.8 * c * a + 10 for a, b in zip(ls, lt, strict=True))


def _per_sentence(spans: tuple[Span, ...], anchors: list[tuple[int, str]]) -> Anchors:
    out: list[set[str]] = [set() for _ in spans]
    k = 0
    for pos, key in sorted(anchors):
        while k < len(spans) and pos >= spans[k][1]:
            k += 1
        if k == len(spans):
            break
        if pos >= spans[k][0]:
            out[k].add(key)
    return [frozenset(s) for s in out]


def _dropped(pair_id: str, source: str, span: Span, severity: str) -> Finding:
    sent = source[span[0] : span[1]]
    short = sent if len(sent) <= 80 else sent[:77] + "..."
    return Finding(
        "omission",
        severity,
        pair_id,
        f"this source sentence has no counterpart in the translation: {short!r}",
        span,
        None,
        expected="a translation of this sentence",
    )
