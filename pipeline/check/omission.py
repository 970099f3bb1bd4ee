"""omission: a source sentence with no counterpart in the translation.

The pair's sentences are aligned once (`beads.py`), so a translator who splits or joins
sentences is not flagged. A source sentence left in a 1-0 bead is an omission. When a build
gives sentence links, its 1-0 links are used instead. A translation far shorter than
expected, without a 1-0 bead, is reported at the bead that lost the most.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from .beads import Alignment, Links
from .model import Finding, Span
from .text import WORD

_MIN_WORDS = 4
_JOIN_SHORT = 0.8


def check_omission(
    pair_id: str,
    source: str,
    spans: tuple[Sequence[Span], Sequence[Span]],
    sizes: tuple[list[int], list[int]],
    ratio: float,
    alignment: Callable[[], Alignment],
    links: Links = (),
) -> Iterator[Finding]:
    """Omitted source sentences. `sizes`: the characters of each sentence of both sides;
    `ratio`: expected target characters per source character; `alignment` is called only
    for a pair long enough to judge."""
    c = ratio
    s_sent, t_sent = spans
    ls, lt = sizes
    total_s, total_t = sum(ls), sum(lt)
    if total_s < 20:
        return
    ratio = total_t / (total_s * c)
    severity = "error" if ratio < 0.9 else "warning"
    if links:
        dropped = [s[0] for kind, s, _ in links if kind == "1-0" and s]
        for span in dropped:
            if len(WORD.findall(source[span[0] : span[1]])) >= _MIN_WORDS:
                yield _dropped(pair_id, source, span, severity)
        return
    aligned = alignment()
    if aligned.parallel:
        return
    beads = aligned.beads
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
            if lt[tj] < _JOIN_SHORT * c * joined and not aligned.kept((si, sn, tj, tn)):
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
