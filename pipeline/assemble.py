"""Assemble: one rule per cluster, from the facts of its canonical member.

A rule keeps the provenance of every copy in its cluster, the quantities, keywords,
references and effects that extraction read, and flags for what could not be
formalised, conflicting variants, and foreign text with no English counterpart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .dedup import Cluster
from .emit import validator
from .extract.facts import Facts
from .model import Segment
from .slug import slugify, unique

FALLBACK_WORDS = 6
_VARIABLE = re.compile(r"(?<![A-Za-z])([XY])(?![A-Za-z])")


def _source(segment: Segment, relation: str) -> dict[str, Any]:
    return {
        "segment": segment.id,
        "drop": segment.drop,
        "file": segment.file,
        "block": segment.block,
        "lines": list(segment.lines),
        "sha256": segment.sha256,
        "relation": relation,
    }


def _variables(facts: Facts) -> list[str]:
    """Bracket variables the rule uses (X in `Ricochet (X)`), from its effects."""
    found: set[str] = set()
    for effect in facts.effects:
        for value in effect.values():
            if isinstance(value, str):
                found.update(_VARIABLE.findall(value))
    return sorted(found)


def _checked_effects(facts: Facts, lang: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Effects the interpreter can execute, and a flag for each one it could not (an
    out-of-range step in a mistyped text): kept visible, never written as valid."""
    check = validator("effect")
    kept: list[dict[str, Any]] = []
    flags: list[dict[str, Any]] = []
    for effect in facts.effects:
        error = next(iter(check.iter_errors(effect)), None)
        if error is None:
            kept.append(dict(effect))
            continue
        flag: dict[str, Any] = {
            "flag": "unformalised",
            "lang": lang,
            "detail": f"{effect.get('op')} effect not executable: {error.message[:200]}",
        }
        if "span" in effect:
            flag["spans"] = [list(effect["span"])]
        flags.append(flag)
    return kept, flags


def _base_id(facts: Facts, segment: Segment) -> str:
    if facts.name:
        return slugify(facts.name_en or facts.name)
    words = segment.text.split()[:FALLBACK_WORDS]
    return slugify(" ".join(words), fallback=facts.kind)


def _rule(cluster: Cluster, segments: Mapping[str, Segment], facts: Facts) -> dict[str, Any]:
    canonical = segments[cluster.canonical]
    lang = canonical.lang
    names: dict[str, str] = {}
    if facts.name:
        names[lang] = facts.name
    if facts.name_en and lang != "en":
        names["en"] = facts.name_en
    text: dict[str, Any] = {
        "text": canonical.text,
        "cluster": cluster.id,
        "sources": [_source(m.segment, m.relation) for m in cluster.members],
    }
    flags: list[dict[str, Any]] = []
    if lang != "en":
        text["link"] = {"score": 0.0, "status": "unlinked"}
        flags.append({"flag": "unlinked", "lang": lang, "detail": "no English text in the corpus"})
    if not facts.name:
        flags.append({"flag": "no-name", "lang": lang, "detail": "the text names no rule"})
    for member in cluster.members:
        if member.relation == "conflict":
            differences = "; ".join(
                f"{d.type}: {d.canonical} -> {d.variant}" for d in member.differences
            )
            flags.append(
                {"flag": "conflict", "lang": lang, "detail": f"{member.segment.id}: {differences}"}
            )
    if facts.unformalised:
        flags.append(
            {
                "flag": "unformalised",
                "lang": lang,
                "detail": "sentences no effect was read from",
                "spans": [list(s) for s in facts.unformalised],
            }
        )
    effects, refused = _checked_effects(facts, lang)
    flags.extend(refused)
    coverage = facts.coverage
    if refused:
        coverage = "partial" if effects else "descriptive"
    rule: dict[str, Any] = {"id": "", "kind": facts.kind, "names": names}
    if facts.name_evidence:
        rule["name_evidence"] = facts.name_evidence
    variables = _variables(facts)
    if facts.name and variables:
        rule["signature"] = f"{names.get('en', facts.name)} ({', '.join(variables)})"
    if facts.labels:
        rule["labels"] = list(facts.labels)
    rule |= {
        "texts": {lang: text},
        "keywords": list(facts.keywords),
        "references": list(facts.references),
        "quantities": [q.to_json() | {"lang": lang} for q in facts.quantities],
    }
    if facts.profile is not None:
        rule["profile"] = facts.profile
    if facts.table is not None:
        rule["table"] = facts.table
    rule |= {"effects": effects, "coverage": coverage, "flags": flags}
    return rule


def assemble(
    segments: Sequence[Segment], clusters: Sequence[Cluster], facts: Mapping[str, Facts]
) -> list[dict[str, Any]]:
    """Rules in cluster order, with unique ids; tables claim their ids first, sections last,
    so that a table keeps the id other rules chain to."""
    by_id = {s.id: s for s in segments}
    rules = [_rule(c, by_id, facts[c.canonical]) for c in clusters]
    bases = [_base_id(facts[c.canonical], by_id[c.canonical]) for c in clusters]
    priority = {"table": 0, "section": 2}
    order = sorted(range(len(rules)), key=lambda i: (priority.get(rules[i]["kind"], 1), i))
    ids = unique([bases[i] for i in order])
    for i, rule_id in zip(order, ids, strict=True):
        rules[i]["id"] = rule_id
    return sorted(rules, key=lambda r: r["id"])
