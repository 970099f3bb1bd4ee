"""omission: a source sentence with no counterpart in the translation.

Sentences are aligned by length (Gale and Church 1993: a translation's length in characters is
about proportional to its source's, with a variance that grows with length), with beads 1-1,
1-2, 2-1, 2-2, 1-3, 3-1, 1-0 and 0-1, so a translator who splits or joins sentences is not
flagged. A source sentence left in a 1-0 bead is an omission. When a build gives sentence
links, its 1-0 links are used instead. A translation far shorter than expected, without a
1-0 bead, is reported at the bead that lost the most.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from .data import lang_checks
from .model import Finding, Span
from .text import WORD, mask_tags, sentences

_PRIOR = {
    (1, 1): 0.89,
    (1, 0): 0.005,
    (0, 1): 0.005,
    (2, 1): 0.0445,
    (1, 2): 0.0445,
    (2, 2): 0.011,
    (3, 1): 0.002,
    (1, 3): 0.002,
}
_COST = {k: -math.log(v) for k, v in _PRIOR.items()}
_VARIANCE = 6.8
_MIN_WORDS = 4
_JOIN_SHORT = 0.8


def _length_cost(ls: int, lt: int, c: float) -> float:
    if ls == 0 or lt == 0:
        # A sentence with no counterpart costs its prior only: the normal model of lengths
        # would make any long omitted sentence cheaper to hide in a 2-1 bead than to show.
        return 0.0
    mean = (ls + lt / c) / 2
    delta = (lt - ls * c) / math.sqrt(max(mean, 1.0) * _VARIANCE)
    p = math.erfc(abs(delta) / math.sqrt(2))  # two-sided tail of the normal
    return -math.log(max(p, 1e-300))


Anchors = list[frozenset[str]]
_ANCHOR_WEIGHT = 1.5


def _anchor_cost(src: Anchors, tgt: Anchors, i: int, ni: int, j: int, nj: int) -> float:
    """Anchors (glossary terms, quantities) one side of a bead has and the other lacks."""
    if not src or not tgt or ni == i or nj == j:
        return 0.0
    a = frozenset().union(*src[i:ni])
    b = frozenset().union(*tgt[j:nj])
    return _ANCHOR_WEIGHT * len(a ^ b)


def align(
    src_lens: list[int],
    tgt_lens: list[int],
    c: float,
    src_anchors: Anchors | None = None,
    tgt_anchors: Anchors | None = None,
) -> list[tuple[int, int, int, int]]:
    """Beads (source start, source count, target start, target count) of the cheapest path.

    Cost of a bead: its prior, how far its lengths are from proportional, and the anchors
    (glossary term ids, quantity keys) found on one side of it only.
    """
    sa, ta = src_anchors or [], tgt_anchors or []
    n, m = len(src_lens), len(tgt_lens)
    inf = float("inf")
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == inf:
                continue
            for (di, dj), prior in _COST.items():
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                ls = sum(src_lens[i:ni])
                lt = sum(tgt_lens[j:nj])
                total = here + prior + _length_cost(ls, lt, c) + _anchor_cost(sa, ta, i, ni, j, nj)
                if total < cost[ni][nj]:
                    cost[ni][nj] = total
                    back[ni][nj] = (di, dj)
    beads = []
    i, j = n, m
    while i or j:
        step = back[i][j]
        assert step is not None
        di, dj = step
        beads.append((i - di, di, j - dj, dj))
        i, j = i - di, j - dj
    return beads[::-1]


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
) -> Iterator[Finding]:
    """Omitted source sentences. `anchors` gives (position, key) of what both sides share,
    for each side; it is called only when the sentences need aligning."""
    c = lang_checks(target_lang).length_ratio / lang_checks(source_lang).length_ratio
    s_sent = sentences(source)
    t_sent = sentences(target)
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
        beads = align(ls, lt, c, sa, ta)
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
