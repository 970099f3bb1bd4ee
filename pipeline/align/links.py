"""Paragraph links: each foreign cluster linked to the English cluster it translates, or to
none, and the sentences inside each link aligned (see the package's docstring)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..dedup import Cluster
from ..extract.facts import Facts
from ..gc_pause import gc_paused
from ..ingest.bilingual import SOURCE_COPY
from ..ingest.spans import raw_spans
from ..model import QUOTATION, Segment
from ..normalise import normalise
from .anchors import Anchors, anchors, length_ratio, sentence_anchors, sentence_lengths
from .paragraphs import Decision, Scored, assign, params, share_with_near_copies
from .sentences import Bead, align_sentences
from .short import read_short_forms

MASTER = "en"
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class SentenceLink:
    type: str
    source: tuple[int, ...]
    target: tuple[int, ...]
    source_spans: tuple[Span, ...]  # in the source segment's raw text
    target_spans: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Link:
    """A foreign cluster and the English cluster it translates (or none)."""

    id: str
    status: str
    score: float
    target: str
    target_lang: str
    target_cluster: str
    source: str | None
    source_cluster: str | None
    evidence: Mapping[str, float]
    alternatives: tuple[Scored, ...]
    sentences: tuple[SentenceLink, ...]
    # Unlinked although it resembles an English text as a translation would: that text
    # and the quantities the two say differently (a look-alike, or a translation with a
    # wrong number: the reader decides).
    resembles: Scored | None = None
    resembles_source: str | None = None  # that English cluster's canonical segment
    differs: tuple[str, ...] = ()
    # One paragraph translating two English ones that follow each other: the second
    merges: Scored | None = None
    merges_source: str | None = None  # that English cluster's canonical segment


def _adjacency(
    segments: Sequence[Segment], cluster_of: Mapping[str, str]
) -> dict[tuple[str, str], float]:
    """(foreign cluster, English cluster) -> how strongly their blocks sit together.

    A translation memory exported as text puts a source right before its target; a reader
    of TMX or XLIFF says so outright by giving both blocks one translation unit.
    """
    p = params()["paragraphs"]
    found: dict[tuple[str, str], float] = {}

    def lift(foreign: Segment, english: Segment, value: float) -> None:
        key = (cluster_of[foreign.id], cluster_of[english.id])
        found[key] = max(found.get(key, 0.0), value)

    units: dict[tuple[str, str, str], list[Segment]] = {}
    for i, seg in enumerate(segments):
        if seg.unit is not None:
            units.setdefault((seg.drop, seg.file, seg.unit), []).append(seg)
        if seg.lang == MASTER or seg.lang == "und":
            continue
        for j, value in ((i + 1, p["adjacency_next"]), (i - 1, p["adjacency_previous"])):
            if 0 <= j < len(segments):
                other = segments[j]
                same_file = (other.drop, other.file) == (seg.drop, seg.file)
                if same_file and other.lang == MASTER:
                    lift(seg, other, value)
    for members in units.values():
        for seg in members:
            if seg.lang not in (MASTER, "und"):
                for other in members:
                    if other.lang == MASTER:
                        lift(seg, other, p["same_unit"])
    return found


def _stated(
    segments: Sequence[Segment], cluster_of: Mapping[str, str]
) -> dict[str, tuple[Segment, Segment]]:
    """Foreign cluster -> (English source, translation) of a translation unit that names
    its rule (pipeline/ingest/unit_ids.py): the pair is stated, not guessed. Where several
    units state a translation of one cluster, the last read."""
    sources: dict[tuple[str, str, str], Segment] = {}
    for seg in segments:
        if seg.rule is not None and seg.unit is not None and seg.role == "source":
            sources[(seg.drop, seg.file, seg.unit)] = seg
    found: dict[str, tuple[Segment, Segment]] = {}
    for seg in segments:
        if seg.rule is None or seg.unit is None or seg.role != "target":
            continue
        source = sources.get((seg.drop, seg.file, seg.unit))
        if source is not None and source.lang == MASTER and seg.lang not in (MASTER, "und"):
            found[cluster_of[seg.id]] = (source, seg)
    return found


def _stated_sentences(source: Segment, target: Segment) -> tuple[SentenceLink, ...] | None:
    """Sentence links from the unit ids: sentence i of the source with sentence i of the
    translation (1-1), or with nothing where it came back untranslated (1-0)."""
    if source.sentences is None or target.sentences is None:
        return None
    if len(source.sentences) != len(target.sentences):
        return None
    links = []
    for i, (s_span, t_span) in enumerate(zip(source.sentences, target.sentences, strict=True)):
        if s_span[0] == s_span[1]:
            continue
        if t_span[0] == t_span[1]:
            links.append(SentenceLink("1-0", (i,), (), (s_span,), ()))
        else:
            links.append(SentenceLink("1-1", (i,), (i,), (s_span,), (t_span,)))
    return tuple(links)


def _sentence_links(
    source: Segment,
    target: Segment,
    src: Anchors,
    tgt: Anchors,
    source_facts: Facts,
    target_facts: Facts,
) -> tuple[SentenceLink, ...]:
    beads: list[Bead] = align_sentences(
        sentence_lengths(src),
        sentence_lengths(tgt),
        [set(a) for a in sentence_anchors(source_facts, src.sentences, src.notes)],
        [set(a) for a in sentence_anchors(target_facts, tgt.sentences, tgt.notes)],
        length_ratio(target.lang),
    )
    source_raw = raw_spans(source, list(src.sentences))
    target_raw = raw_spans(target, list(tgt.sentences))
    return tuple(
        SentenceLink(
            b.type,
            b.source,
            b.target,
            tuple(source_raw[i] for i in b.source),
            tuple(target_raw[j] for j in b.target),
        )
        for b in beads
    )


def _folded(text: str) -> str:
    return " ".join(normalise(text).casefold().split())


def _copied(clusters: Sequence[Cluster]) -> dict[str, str | None]:
    """Foreign cluster -> the English cluster a translator's copy of the source in its
    block (`ingest.bilingual`) is word for word, or None when it is no English text of the
    corpus. The copy is read from the first member that has one."""
    found: dict[str, str | None] = {}
    english: dict[str, str] | None = None
    for cluster in clusters:
        if cluster.lang in (MASTER, "und"):
            continue
        for member in cluster.members:
            seg = member.segment
            if not seg.asides:
                continue
            copy = [seg.raw[a.start : a.end] for a in seg.asides if a.reason == SOURCE_COPY]
            if not copy:
                continue
            if english is None:  # most corpora have no copy: no English text is folded
                english = {
                    _folded(m.segment.text): c.id
                    for c in clusters
                    if c.lang == MASTER
                    for m in c.members
                }
            text = " ".join(part.strip().removesuffix("/").strip() for part in copy)
            found[cluster.id] = english.get(_folded(text))
            break
    return found


def _assign_but_uncopied(
    foreign: Sequence[Anchors],
    english: Sequence[Anchors],
    adjacency: Mapping[tuple[str, str], float],
    stated: Mapping[str, str],
    versions: Mapping[str, Sequence[Anchors]],
    copied: Mapping[str, str | None],
) -> list[Decision]:
    """`assign` of the foreign clusters but those whose copy of the source is no English
    text of the corpus (a look-alike with English of its own, a text of another edition):
    what they translate is not here, so they stay unlinked and take no English text from
    the translation the anchors would choose."""
    kept = [f for f in foreign if copied.get(f.cluster, "") is not None]
    decided = iter(assign(kept, english, adjacency, stated, versions))
    return [
        next(decided)
        if copied.get(f.cluster, "") is not None
        else Decision(f.cluster, "unlinked", None, ())
        for f in foreign
    ]


QUOTE_KEY = 20  # characters of a quotation that name the message it quotes


def _replies(clusters: Sequence[Cluster], by_id: Mapping[str, Segment]) -> dict[str, set[str]]:
    """Foreign cluster -> the clusters of its language whose text one of its quotations
    opens (a chat message answering another, "> ..."). Texts are looked up by their first
    `QUOTE_KEY` characters, so the cost stays linear; a shorter quotation names nothing."""
    quoting = [c for c in clusters if any(a.reason == QUOTATION for a in by_id[c.canonical].asides)]
    if not quoting:  # most corpora: no text is looked up
        return {}
    opening: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for c in clusters:
        text = by_id[c.canonical].text.lower()
        opening.setdefault((c.lang, text[:QUOTE_KEY]), []).append((c.id, text))
    out: dict[str, set[str]] = {}
    for c in quoting:
        seg = by_id[c.canonical]
        for a in seg.asides:
            if a.reason != QUOTATION:
                continue
            quote = normalise(seg.raw[a.start : a.end].lstrip()[1:]).lower()
            if len(quote) < QUOTE_KEY:
                continue
            for other, text in opening.get((c.lang, quote[:QUOTE_KEY]), ()):
                if other != c.id and text.startswith(quote):
                    out.setdefault(c.id, set()).add(other)
    return out


@gc_paused()  # scores and links by the hundred thousand, no cycle among them (as dedup)
def align(
    segments: Sequence[Segment], clusters: Sequence[Cluster], facts: Mapping[str, Facts]
) -> list[Link]:
    """One link per foreign cluster, in cluster order."""
    by_id = {s.id: s for s in segments}
    cluster_of = {m.segment.id: c.id for c in clusters for m in c.members}
    canonical = {c.id: c.canonical for c in clusters}
    foreign_clusters = [c for c in clusters if c.lang not in (MASTER, "und")]
    foreign = [anchors(by_id[c.canonical], c.id, facts[c.canonical]) for c in foreign_clusters]
    foreign = read_short_forms(foreign, facts)
    wanted = frozenset(word for a in foreign for word in a.latin)
    english = [
        anchors(by_id[c.canonical], c.id, facts[c.canonical], wanted)
        for c in clusters
        if c.lang == MASTER
    ]
    # Versions of an English text with other numbers (dedup's `conflict` members): a
    # translation of any of them does not contradict the cluster.
    versions = {
        c.id: [
            anchors(by_id[m.segment.id], c.id, facts[m.segment.id], wanted)
            for m in c.members
            if m.relation == "conflict"
        ]
        for c in clusters
        if c.lang == MASTER and any(m.relation == "conflict" for m in c.members)
    }
    stated = _stated(segments, cluster_of)
    wanted_pairs = {c: cluster_of[pair[0].id] for c, pair in stated.items()}
    adjacency = _adjacency(segments, cluster_of)
    copied = _copied(clusters)
    for cluster, source_cluster in copied.items():
        if source_cluster is not None:  # its own translation unit: the copy is the source
            key = (cluster, source_cluster)
            adjacency[key] = max(adjacency.get(key, 0.0), params()["paragraphs"]["same_unit"])
    if any(source_cluster is None for source_cluster in copied.values()):
        decisions = _assign_but_uncopied(
            foreign, english, adjacency, wanted_pairs, versions, copied
        )
    else:
        decisions = assign(foreign, english, adjacency, wanted_pairs, versions)
    decisions = share_with_near_copies(
        decisions, foreign, english, _replies(foreign_clusters, by_id)
    )
    english_of = {a.cluster: a for a in english}
    links = []
    for cluster, found, decision in zip(foreign_clusters, foreign, decisions, strict=True):
        target = by_id[cluster.canonical]
        best = decision.best
        linked = decision.status != "unlinked" and best is not None
        source = by_id[canonical[best.source]] if linked and best else None
        sentences: tuple[SentenceLink, ...] = ()
        given = stated.get(cluster.id) if linked else None
        if given is not None and best is not None and best.source == cluster_of[given[0].id]:
            source, target = given  # the unit's own pair, its sentences by their ids
            sentences = _stated_sentences(source, target)
        if not sentences and source is not None:
            assert best is not None
            sentences = _sentence_links(
                source,
                target,
                english_of[best.source],
                found,
                facts[source.id],
                facts[target.id],
            )
        links.append(
            Link(
                id="l-" + hashlib.sha256(target.id.encode("utf-8")).hexdigest()[:12],
                status=decision.status,
                score=best.score if best else 0.0,
                target=target.id,
                target_lang=target.lang,
                target_cluster=cluster.id,
                source=source.id if source else None,
                source_cluster=best.source if linked and best else None,
                evidence=best.evidence if best else {},
                alternatives=decision.alternatives,
                sentences=sentences,
                resembles=decision.resembles,
                resembles_source=(
                    canonical[decision.resembles.source] if decision.resembles else None
                ),
                differs=decision.differs,
                merges=decision.merges if linked else None,
                merges_source=(
                    canonical[decision.merges.source] if linked and decision.merges else None
                ),
            )
        )
    return links


def to_document(links: Sequence[Link], rule_of_cluster: Mapping[str, str]) -> dict[str, Any]:
    """The JSON document of output/alignments.json."""
    items = []
    for link in links:
        item: dict[str, Any] = {
            "id": link.id,
            "status": link.status,
            "score": link.score,
            "source": link.source,
            "source_lang": MASTER if link.source else None,
            "source_cluster": link.source_cluster,
            "target": link.target,
            "target_lang": link.target_lang,
            "target_cluster": link.target_cluster,
            "rule": rule_of_cluster.get(link.target_cluster),
            "evidence": dict(link.evidence),
            "alternatives": [
                {"source_cluster": a.source, "score": a.score} for a in link.alternatives
            ],
            "sentences": [
                {
                    "type": s.type,
                    "source": list(s.source),
                    "target": list(s.target),
                    "source_spans": [list(x) for x in s.source_spans],
                    "target_spans": [list(x) for x in s.target_spans],
                }
                for s in link.sentences
            ],
        }
        if link.resembles is not None:
            item["resembles"] = {
                "source": link.resembles_source,
                "source_cluster": link.resembles.source,
                "score": link.resembles.score,
                "differs": list(link.differs),
            }
        if link.merges is not None:
            item["merges"] = {
                "source": link.merges_source,
                "source_cluster": link.merges.source,
                "score": link.merges.score,
            }
        items.append(item)
    statuses = Counter(link.status for link in links)
    return {
        "links": items,
        "summary": {
            "links": len(links),
            "by_status": {k: statuses.get(k, 0) for k in ("linked", "ambiguous", "unlinked")},
            "by_lang": dict(sorted(Counter(link.target_lang for link in links).items())),
            "sentence_beads": dict(
                sorted(Counter(s.type for link in links for s in link.sentences).items())
            ),
        },
    }
