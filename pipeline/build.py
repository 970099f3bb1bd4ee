"""The whole flow, corpus to output folder:
ingest -> dedup -> extract -> align -> assemble -> emit.

Each stage is a pure function over records; this module only wires them together and
writes the results through `emit.BuildOutput`, so a failed build changes nothing.
"""

from __future__ import annotations

import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import __version__
from .align.bootstrap import bootstrap
from .align.links import Link, align
from .align.links import to_document as alignment_document
from .assemble import assemble, rule_of_cluster
from .coverage import summary as coverage_summary
from .dedup import Cluster, dedup, prefer_newest, to_document
from .drops import ranks
from .emit import BuildOutput
from .extract.facts import Facts, block_key, extract, in_context
from .extract.references import name_from_references, resolve_grants
from .gc_pause import gc_paused
from .glossary import Glossary, load_glossary
from .ingest import Ingested, corpus_files, ingest
from .model import Segment
from .parallel import map_in_order
from .progress import Report
from .units import corpus_units


@dataclass(frozen=True, slots=True)
class BuildResult:
    out: Path
    ingested: Ingested
    clusters: tuple[Cluster, ...]
    links: tuple[Link, ...]
    rules: tuple[dict[str, Any], ...]
    manifest: dict[str, Any]


def _tally(values: list[str]) -> dict[str, int]:
    return dict(sorted(Counter(values).items()))


def accounting(
    segments: tuple[Segment, ...], clusters: tuple[Cluster, ...], rules: tuple[dict[str, Any], ...]
) -> dict[str, Any]:
    """Where every block went: a rule, a copy in a cluster, or unassigned with a reason."""
    in_rules: set[str] = set()
    for rule in rules:
        for text in [*rule["texts"].values(), *rule.get("history", [])]:
            in_rules.update(s["segment"] for s in text["sources"] if s["relation"] == "canonical")
    copies = {m.segment.id for c in clusters for m in c.members if m.segment.id != c.canonical}
    unassigned = [
        {"segment": s.id, "reason": "in no cluster and no rule"}
        for s in segments
        if s.id not in in_rules and s.id not in copies
    ]
    return {
        "blocks": len(segments),
        "in_rules": len(in_rules),
        "copies": len(copies),
        "unassigned": len(unassigned),
        "balanced": len(in_rules) + len(copies) + len(unassigned) == len(segments),
        "unassigned_blocks": unassigned,
    }


def by_file(segments: tuple[Segment, ...]) -> dict[tuple[str, str], list[Segment]]:
    """Segments grouped by (drop, file), in input order."""
    grouped: dict[tuple[str, str], list[Segment]] = {}
    for segment in segments:
        grouped.setdefault((segment.drop, segment.file), []).append(segment)
    return grouped


def make_manifest(
    ingested: Ingested,
    clusters: tuple[Cluster, ...],
    cluster_summary: dict[str, Any],
    rules: tuple[dict[str, Any], ...],
    links: tuple[Link, ...],
    glossary: Glossary | None,
    rounds: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    segments = ingested.segments
    grouped = by_file(segments)
    rank = ranks(ingested.drops)
    file_counts = {
        f"{f.drop}/{f.file}": {
            "by_kind": _tally([s.kind for s in grouped.get((f.drop, f.file), [])]),
            "by_lang": _tally([s.lang for s in grouped.get((f.drop, f.file), [])]),
        }
        for f in ingested.inputs
    }
    manifest: dict[str, Any] = {"tool": {"name": "rulepipe", "version": __version__}}
    if glossary is not None:
        manifest["glossary"] = {
            "file": Path(glossary.file).name,
            "sha256": glossary.sha256,
            "terms": len(glossary.terms),
        }
    manifest |= {
        "inputs": [
            {
                "drop": f.drop,
                "file": f.file,
                "sha256": f.sha256,
                "bytes": f.bytes,
                "segments": f.segments,
            }
            | ({"version": f.version} if f.version else {})
            | ({"encoding": f.encoding} if f.encoding else {})
            for f in ingested.inputs
        ],
        "drops": [d.to_json() | {"rank": rank[d.folder]} for d in ingested.drops],
        "skipped": [{"drop": s.drop, "file": s.file, "reason": s.reason} for s in ingested.skipped],
        "counts": {
            "segments": len(segments),
            "by_kind": _tally([s.kind for s in segments]),
            "by_lang": _tally([s.lang for s in segments]),
            "by_file": file_counts,
            "clusters": cluster_summary["by_status"],
            "rules": _tally([r["kind"] for r in rules]),
            "coverage": _tally([r["coverage"] for r in rules]),
            "links": _tally([link.status for link in links]),
        },
        "conflicts": cluster_summary["conflicts"],
        "accounting": accounting(segments, clusters, rules),
        "coverage": coverage_summary(rules),
    }
    if rounds is not None:
        manifest["alignment"] = {"rounds": rounds}
    return manifest


def _quiet(stage: str, done: int, total: int) -> None:
    return None


STAGES = ("reading", "deduplicating", "extracting", "aligning", "assembling", "writing")


class _Clock:
    """Seconds, segments and peak memory per stage, for the manifest's `timings` (asked for
    with `build --timings`: times differ from run to run, and builds are byte-identical)."""

    def __init__(self) -> None:
        self.stages: dict[str, dict[str, Any]] = {}
        self._start = time.perf_counter()

    def lap(self, stage: str, segments: int) -> None:
        """Close `stage`, begun where the previous one ended."""
        now = time.perf_counter()
        peak = max(
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,  # extraction workers
        )
        self.stages[stage] = {
            "seconds": round(now - self._start, 3),
            "segments": segments,
            "peak_mib": round(peak / 1024, 1),  # Linux reports KiB
        }
        self._start = now

    def document(self) -> dict[str, Any]:
        total = sum(s["seconds"] for s in self.stages.values())
        return {"stages": self.stages, "seconds": round(total, 3)}


def extract_all(
    segments: tuple[Segment, ...],
    glossary: Glossary | None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Facts]:
    """Facts for every segment, file by file (headings and tables read their neighbours).
    Each distinct block is read once (repeated blocks share their facts, ids apart), spread
    over the cores on a large corpus, with the same result."""
    first: dict[tuple[Any, ...], int] = {}
    distinct: list[Segment] = []
    for segment in segments:
        key = block_key(segment)
        if key not in first:
            first[key] = len(distinct)
            distinct.append(segment)

    def tell(done: int, total: int) -> None:
        if progress:
            progress(done * len(segments) // total, len(segments))

    def extract_one(segment: Segment) -> Facts:
        return extract(segment, glossary)

    found = map_in_order(extract_one, distinct, progress=tell)
    facts: dict[str, Facts] = {}
    for file_segments in by_file(segments).values():
        read = [_as(found[first[block_key(s)]], s.id) for s in file_segments]
        for segment, one in zip(file_segments, in_context(file_segments, read), strict=True):
            facts[segment.id] = one
    return facts


def _as(facts: Facts, segment: str) -> Facts:
    """Facts read in another segment's copy of the block, as this segment's (the segment
    that was read keeps its own)."""
    return facts if facts.segment == segment else replace(facts, segment=segment)


def _glossary_forms(glossary: Glossary | None) -> tuple[str, ...]:
    """Every rendering of every glossary term: text holding one is never an aside."""
    if glossary is None:
        return ()
    forms = {f for t in glossary.terms for fs in t.renderings.values() for f in fs}
    return tuple(sorted(forms))


def build(
    corpus: Path,
    out: Path,
    glossary_path: Path | None = None,
    progress: Report | None = None,
    timings: bool = False,
) -> BuildResult:
    """Run every stage on a corpus and write the output folder atomically.

    The output folder is locked first, so a second build into it is refused at once
    rather than after doing all its work; a missing corpus is reported before that.
    `timings` adds each stage's seconds, segments and peak memory to the manifest."""
    next(corpus_files(corpus), None)
    clock = _Clock()
    # A build makes millions of objects that live to its end and next to no reference
    # cycles: at 1000x the seeds the collector's full passes found nothing to free and took
    # 17 s of the build process's 91 s of CPU. Paused for the build and its forked workers.
    with BuildOutput(out) as target, gc_paused():
        if glossary_path is None and (corpus / "glossary.yaml").is_file():
            glossary_path = corpus / "glossary.yaml"
        glossary = load_glossary(glossary_path) if glossary_path else None
        tell = progress or _quiet
        ingested = ingest(
            corpus, lambda done, total: tell("reading", done, total), _glossary_forms(glossary)
        )
        n = len(ingested.segments)
        clock.lap("reading", n)
        tell("deduplicating", 0, n)
        clusters = tuple(prefer_newest(dedup(ingested.segments), ranks(ingested.drops)))
        tell("deduplicating", n, n)
        clock.lap("deduplicating", n)
        found = extract_all(
            ingested.segments, glossary, lambda done, total: tell("extracting", done, total)
        )
        facts = name_from_references(ingested.segments, clusters, found)
        clock.lap("extracting", n)
        cluster_document = to_document(clusters)

        segments = (s.to_json() for s in ingested.segments)
        target.write_jsonl("segments.jsonl", segments, "segment")
        target.write_json("clusters.json", cluster_document, "clusters")
        tell("aligning", 0, n)
        rounds = None
        if glossary is None:  # a glossary induced from the surest links, then align again
            linked, rounds = bootstrap(ingested.segments, clusters, facts)
            links = tuple(linked)
        else:
            links = tuple(align(ingested.segments, clusters, facts))
        tell("aligning", n, n)
        clock.lap("aligning", n)
        tell("assembling", 0, n)
        rules = tuple(
            resolve_grants(assemble(ingested.segments, clusters, facts, links, ingested.drops))
        )
        tell("assembling", n, n)
        clock.lap("assembling", n)
        for rule in rules:
            target.write_yaml(f"rules/{rule['id']}.yaml", rule, "rule")
        manifest = make_manifest(
            ingested, clusters, cluster_document["summary"], rules, links, glossary, rounds
        )
        target.write_json(
            "alignments.json", alignment_document(links, rule_of_cluster(rules)), "alignments"
        )
        target.write_json("rules.json", list(rules), "rules", items_schema="rule")
        ids = {str(r["id"]) for r in rules}
        inputs = [(f.drop, f.file, f.path) for f in ingested.inputs if f.path is not None]
        target.write_json("units.json", corpus_units(inputs, ids), "units")
        target.finish()
        if timings:  # the manifest itself, written last, is not in the writing time
            clock.lap("writing", n)
            manifest["timings"] = clock.document()
        target.write_json("manifest.json", manifest, "manifest")
        tell("writing", 0, 1)
    tell("writing", 1, 1)
    return BuildResult(out, ingested, clusters, links, rules, manifest)
