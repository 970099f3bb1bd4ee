"""The sentences of a pair aligned once, for the checks that compare them sentence by
sentence (omission, the comparison of meaning).

Sentences are aligned by the aligner of the build (pipeline/align/sentences.py: Gale and
Church, beads 1-1, 1-2, 2-1, 2-2, 1-3, 3-1, 1-0 and 0-1) on their lengths and on what both
languages share (quantities, glossary terms, marks of meaning), so a translator who splits
or joins sentences is followed. A pair whose sentences correspond one to one with
proportional lengths (the usual case) needs no search; a build's own sentence links are used
where they name the sentences of the text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..align.sentences import align_sentences
from .model import Span
from .text import mask_tags

Bead = tuple[int, int, int, int]
"""First source sentence and how many, first target sentence and how many."""
Anchors = tuple[list[tuple[int, str]], list[tuple[int, str]]]
Links = tuple[tuple[str, tuple[Span, ...], tuple[Span, ...]], ...]

_HUGE = 40_000  # sentence pairs to score: beyond it, one bead of everything


@dataclass(frozen=True, slots=True)
class Alignment:
    beads: list[Bead]
    parallel: bool  # one to one with proportional lengths, found without a search
    linked: bool  # the build's own sentence links
    anchors: tuple[list[frozenset[str]], list[frozenset[str]]] = ([], [])
    """What each sentence shares with the other language, when the search read it."""

    def kept(self, bead: Bead) -> bool:
        """Every source sentence of the bead has anchors, all found in its translation:
        a join that lost words, not a sentence."""
        si, sn, tj, tn = bead
        src, tgt = self.anchors
        if not src or not tgt:
            return False
        mine = src[si : si + sn]
        theirs = frozenset().union(*tgt[tj : tj + tn])
        return all(mine) and frozenset().union(*mine) <= theirs


def lengths(text: str, spans: Sequence[Span]) -> list[int]:
    """Characters of each sentence, tags and spaces left out."""
    return [len(mask_tags(text[a:b]).replace(" ", "")) for a, b in spans]


def align(
    spans: tuple[Sequence[Span], Sequence[Span]],
    sizes: tuple[list[int], list[int]],
    ratio: float,
    anchors: Callable[[], Anchors] | None = None,
    links: Links = (),
) -> Alignment:
    """The beads of a pair. `ratio`: expected target characters per source character;
    `anchors` is called only when the sentences need a search."""
    s_sent, t_sent = spans
    ls, lt = sizes
    linked = _from_links(links, s_sent, t_sent)
    if linked is not None:
        return Alignment(linked, False, True)
    if len(ls) * len(lt) > _HUGE:
        return Alignment([(0, len(ls), 0, len(lt))], False, False)
    if _parallel(ls, lt, ratio):
        return Alignment([(k, 1, k, 1) for k in range(len(ls))], True, False)
    src, tgt = anchors() if anchors is not None else ([], [])
    sa, ta = _per_sentence(s_sent, src), _per_sentence(t_sent, tgt)
    out: list[Bead] = []
    si = tj = 0
    for b in align_sentences(ls, lt, sa, ta, ratio):
        out.append((si, len(b.source), tj, len(b.target)))
        si, tj = si + len(b.source), tj + len(b.target)
    return Alignment(out, False, False, (sa, ta))


def _parallel(ls: list[int], lt: list[int], c: float) -> bool:
    """Sentence for sentence with proportional lengths: the usual case, which needs no
    alignment search (an omission there would need an added sentence elsewhere as well)."""
    if len(ls) != len(lt):
        return False
    return all(0.6 * c * a <= b <= 1.8 * c * a + 10 for a, b in zip(ls, lt, strict=True))


def _per_sentence(spans: Sequence[Span], anchors: list[tuple[int, str]]) -> list[frozenset[str]]:
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


def _from_links(links: Links, s_sent: Sequence[Span], t_sent: Sequence[Span]) -> list[Bead] | None:
    """A build's sentence links as beads, when each names whole sentences of these texts in
    order (else None: the sentences are aligned here)."""
    if not links:
        return None
    s_at = {span: k for k, span in enumerate(s_sent)}
    t_at = {span: k for k, span in enumerate(t_sent)}
    out: list[Bead] = []
    si = tj = 0
    for _, s_spans, t_spans in links:
        ks = [s_at.get(tuple(s)) for s in s_spans]  # type: ignore[call-overload]
        kt = [t_at.get(tuple(t)) for t in t_spans]  # type: ignore[call-overload]
        if None in ks or None in kt:
            return None
        if ks != list(range(si, si + len(ks))) or kt != list(range(tj, tj + len(kt))):
            return None
        out.append((si, len(ks), tj, len(kt)))
        si, tj = si + len(ks), tj + len(kt)
    if si != len(s_sent) or tj != len(t_sent):
        return None
    return out
