"""Assemble: one rule per cluster, from the facts of its canonical member.

A rule keeps the provenance of every copy in its cluster, the quantities, keywords,
references and effects that extraction read, and flags for what could not be
formalised, conflicting variants, and foreign text with no English counterpart. A foreign
cluster that alignment linked to an English one is not a rule of its own: its text, name
and quantities join the English rule, with the link's score.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .align import Link
from .dedup import Cluster, Member
from .drops import Drop, ranks
from .extract.facts import Facts
from .model import Segment
from .schemas import validator
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


def _conflicts(cluster: Cluster, lang: str) -> list[dict[str, Any]]:
    flags = []
    for member in cluster.members:
        if member.relation == "conflict":
            differences = "; ".join(
                f"{d.type}: {d.canonical} -> {d.variant}" for d in member.differences
            )
            flags.append(
                {"flag": "conflict", "lang": lang, "detail": f"{member.segment.id}: {differences}"}
            )
    return flags


def _add_translation(
    rule: dict[str, Any],
    cluster: Cluster,
    segments: Mapping[str, Segment],
    facts: Facts,
    link: Link,
) -> None:
    """Put a linked foreign cluster's text, name and quantities into the English rule."""
    canonical = segments[cluster.canonical]
    lang = canonical.lang
    if facts.name:
        rule["names"][lang] = facts.name
        rule["names"] = dict(sorted(rule["names"].items()))
    rule["texts"][lang] = {
        "text": canonical.text,
        "cluster": cluster.id,
        "sources": [_source(m.segment, m.relation) for m in cluster.members],
        "link": {"score": link.score, "status": link.status},
    }
    rule["texts"] = dict(sorted(rule["texts"].items()))
    rule["quantities"].extend(q.to_json() | {"lang": lang} for q in facts.quantities)
    rule["keywords"] = sorted(set(rule["keywords"]) | set(facts.keywords))
    rule["flags"].extend(_conflicts(cluster, lang))


def _base_id(facts: Facts, segment: Segment) -> str:
    if facts.name:
        return slugify(facts.name_en or facts.name)
    words = segment.text.split()[:FALLBACK_WORDS]
    return slugify(" ".join(words), fallback=facts.kind)


def _rule(
    cluster: Cluster, segments: Mapping[str, Segment], facts: Facts, link: Link | None
) -> dict[str, Any]:
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
        status = link.status if link else "unlinked"
        text["link"] = {"score": link.score if link else 0.0, "status": status}
        detail = (
            f"close to {len(link.alternatives) + 1} English texts; none chosen"
            if status == "ambiguous"
            else "no English text in the corpus translates it"
        )
        flags.append({"flag": status, "lang": lang, "detail": detail})
    if not facts.name:
        flags.append({"flag": "no-name", "lang": lang, "detail": "the text names no rule"})
    flags.extend(_conflicts(cluster, lang))
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


def _superseded(
    own: Sequence[Cluster],
    bases: Sequence[str],
    segments: Mapping[str, Segment],
    rank: Mapping[str, int],
) -> dict[int, int]:
    """Older rule -> the newer one that replaces it (indices into `own`): the same rule
    name and language, one rule in each of several drops; the newest drop wins."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, cluster in enumerate(own):
        groups.setdefault((bases[i], cluster.lang), []).append(i)
    replaced: dict[int, int] = {}
    for members in groups.values():
        drops = [segments[own[i].canonical].drop for i in members]
        if len(members) < 2 or len(set(drops)) != len(drops):
            continue
        newest = max(members, key=lambda i: rank.get(segments[own[i].canonical].drop, 0))
        replaced.update({i: newest for i in members if i != newest})
    return replaced


def _history(
    segment: Segment, cluster: str, sources: list[dict[str, Any]], drop: Drop | None
) -> dict[str, Any]:
    entry: dict[str, Any] = {"lang": segment.lang, "drop": segment.drop}
    if drop is not None and drop.version is not None:
        entry["version"] = drop.version
    if drop is not None and drop.date is not None:
        entry["date"] = drop.date
    return entry | {"text": segment.text, "cluster": cluster, "sources": sources}


def _older_variants(
    cluster: Cluster, segments: Mapping[str, Segment], rank: Mapping[str, int]
) -> list[Member]:
    """Copies from older drops whose text differs from the canonical (newest) one."""
    newest = rank.get(segments[cluster.canonical].drop, 0)
    return [
        m
        for m in cluster.members
        if m.relation in ("cosmetic", "conflict") and rank.get(m.segment.drop, 0) < newest
    ]


def _add_history(
    candidates: Sequence[Cluster],
    replaced: Mapping[int, int],
    rule_of: Mapping[str, dict[str, Any]],
    segments: Mapping[str, Segment],
    drops: Sequence[Drop],
) -> dict[str, dict[str, Any]]:
    """Give each rule the older texts of it, oldest first: rules a newer drop superseded
    and older variants in its own cluster. Returns superseded cluster -> the rule now."""
    drop_of = {d.folder: d for d in drops}
    rank = ranks(drops)
    found: dict[str, list[tuple[int, dict[str, Any]]]] = {}

    def add(rule: dict[str, Any], member: Segment, cluster: str, sources: list) -> None:
        entry = _history(member, cluster, sources, drop_of.get(member.drop))
        found.setdefault(rule["id"], []).append((rank.get(member.drop, 0), entry))

    moved: dict[str, dict[str, Any]] = {}
    for old, new in replaced.items():
        cluster, rule = candidates[old], rule_of[candidates[new].id]
        sources = [_source(m.segment, m.relation) for m in cluster.members]
        add(rule, segments[cluster.canonical], cluster.id, sources)
        moved[cluster.id] = rule
    for cluster in candidates:
        rule = rule_of.get(cluster.id)
        if rule is not None:
            for m in _older_variants(cluster, segments, rank):
                add(rule, m.segment, cluster.id, [_source(m.segment, m.relation)])
    for rule in rule_of.values():
        if rule["id"] in found:
            rule["history"] = [e for _, e in sorted(found[rule["id"]], key=lambda x: x[0])]
    return moved


def assemble(
    segments: Sequence[Segment],
    clusters: Sequence[Cluster],
    facts: Mapping[str, Facts],
    links: Sequence[Link] = (),
    drops: Sequence[Drop] = (),
) -> list[dict[str, Any]]:
    """Rules in id order, with unique ids; tables claim their ids first, sections last,
    so that a table keeps the id other rules chain to. A rule that a newer drop carries
    again keeps the older text as `history`."""
    by_id = {s.id: s for s in segments}
    link_of = {link.target_cluster: link for link in links}
    joined = {c: link for c, link in link_of.items() if link.status == "linked"}
    candidates = [c for c in clusters if c.id not in joined]
    all_bases = [_base_id(facts[c.canonical], by_id[c.canonical]) for c in candidates]
    replaced = _superseded(candidates, all_bases, by_id, ranks(drops))
    own = [c for i, c in enumerate(candidates) if i not in replaced]
    bases = [b for i, b in enumerate(all_bases) if i not in replaced]
    rules = [_rule(c, by_id, facts[c.canonical], link_of.get(c.id)) for c in own]
    priority = {"table": 0, "section": 2}
    order = sorted(range(len(rules)), key=lambda i: (priority.get(rules[i]["kind"], 1), i))
    ids = unique([bases[i] for i in order])
    for i, rule_id in zip(order, ids, strict=True):
        rules[i]["id"] = rule_id
    rule_of = {c.id: rule for c, rule in zip(own, rules, strict=True)}
    rule_of |= _add_history(candidates, replaced, rule_of, by_id, drops)
    for cluster in clusters:
        link = joined.get(cluster.id)
        if link is not None and link.source_cluster is not None:
            _add_translation(
                rule_of[link.source_cluster], cluster, by_id, facts[cluster.canonical], link
            )
    return sorted(rules, key=lambda r: r["id"])


def rule_of_cluster(rules: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Cluster id -> id of the rule its text is in (or is history of)."""
    found = {}
    for rule in rules:
        for text in [*rule["texts"].values(), *rule.get("history", [])]:
            found[text["cluster"]] = rule["id"]
    return found
