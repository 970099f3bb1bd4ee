"""Names from a reference list: sources that state a rule's name beside its text.

A BattleScribe rule (`<rule name="Poison Attacks"><description>...`) says outright which rule
its text defines. Its segments take that name ("stated"), and a paragraph of another drop
that never names its rule ("If the attack successfully hits with a natural to-hit roll of
'6' ...") takes the name stated for the same text: a copy in its cluster, or failing that
the reference text most like it (`reference-list`, with the similarity in the evidence).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rapidfuzz import fuzz, process

from ..dedup import Cluster
from ..model import Segment, rule_flag
from .facts import Facts

MIN_SIMILARITY = 90.0  # rapidfuzz ratio, 0-100
_PARAMETER = re.compile(r"\s*\([^()]*\)\s*$")


def base_name(stated: str) -> str:
    """`Ricochet (X)` -> `Ricochet`: the bracket is a parameter, not part of the name."""
    return _PARAMETER.sub("", stated).strip() or stated


def name_from_references(
    segments: Sequence[Segment], clusters: Sequence[Cluster], facts: Mapping[str, Facts]
) -> dict[str, Facts]:
    """Facts with names filled in from stated names; the others unchanged."""
    out = dict(facts)
    references = [s for s in segments if s.name and s.kind == "paragraph"]
    for segment in segments:
        if segment.name:
            out[segment.id] = replace(
                out[segment.id], name=base_name(segment.name), name_evidence="stated"
            )
    if not references:
        return out
    by_lang: dict[str, list[Segment]] = {}
    for ref in references:
        by_lang.setdefault(ref.lang, []).append(ref)
    for cluster in clusters:
        found = out[cluster.canonical]
        if found.name or found.kind == "section":
            continue
        named = next((m.segment for m in cluster.members if m.segment.name), None)
        evidence = "reference-list"
        if named is None:
            choices = by_lang.get(cluster.lang, [])
            text = next(m.segment.text for m in cluster.members if m.relation == "canonical")
            best = process.extractOne(
                text,
                [r.text for r in choices],
                scorer=fuzz.ratio,
                score_cutoff=MIN_SIMILARITY,
            )
            if best is None:
                continue
            named = choices[best[2]]
            evidence = f"reference-list ({best[1]:.0f}% like {named.file})"
        assert named.name is not None
        out[cluster.canonical] = replace(found, name=base_name(named.name), name_evidence=evidence)
    return out


def resolve_grants(rules: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rules with every grant of a rule that is not in the build flagged
    `unresolved-reference` with its span. The grant stays (the rule may come with another
    drop); the interpreter gives it no effect until it resolves."""
    ids = {r["id"] for r in rules}
    out = []
    for rule in rules:
        effects = rule.get("effects") or []
        missing = [e for e in effects if e.get("op") == "grant" and e.get("rule") not in ids]
        if not missing:
            out.append(rule)
            continue
        lang = next(iter(rule.get("texts") or {"en": None}))
        flags = list(rule.get("flags") or [])
        for e in missing:
            detail = f"grants {e['rule']!r}, which is no rule of the build"
            spans = [e["span"]] if "span" in e else []
            flags.append(rule_flag("unresolved-reference", lang, detail, spans))
        out.append({**rule, "flags": flags})
    return out
