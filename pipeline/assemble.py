"""Assemble: one rule per section, from the facts of the canonical copies of its blocks.

Books write a rule as a heading and the paragraphs, lists and tables under it, so a
heading and the blocks it owns (up to the next heading of its level or higher, in its
language) are one rule, its `parts` in reading order; a block that names a rule of its
own, or stands under no heading, is a rule by itself. A rule keeps the provenance of every
copy of every part, the quantities, keywords, references and effects that extraction read
(spans moved into the rule's joined text), and flags for what could not be formalised,
conflicting variants, and foreign text with no English counterpart. A foreign cluster
that alignment linked to an English one is not a rule of its own: it joins the rule of
its English source, with the link's score. Ids come from names, or from the file and
block of a rule with none, never from its words (which change from drop to drop).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .align.links import Link
from .dedup import Cluster, Member
from .drops import Drop, ranks
from .extract.facts import Facts
from .ingest.text import heading_level
from .model import Segment, rule_flag
from .schemas import validator
from .slug import slugify, unique

PART_BREAK = "\n\n"
PLACE_CHARS = 24
_VARIABLE = re.compile(r"(?<![A-Za-z])([XY])(?![A-Za-z])")


def _source(segment: Segment, relation: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "segment": segment.id,
        "drop": segment.drop,
        "file": segment.file,
        "block": segment.block,
        "lines": list(segment.lines),
    }
    if segment.page is not None:
        out["page"] = segment.page
    return out | {"sha256": segment.sha256, "relation": relation}


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
        detail = f"{effect.get('op')} effect not executable: {error.message[:200]}"
        spans = [effect["span"]] if "span" in effect else []
        flags.append(rule_flag("unformalised", lang, detail, spans))
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


_INHERITED = frozenset({"heading", "parenthesised-english", "table-context", "table-lead-in"})
_OWN_KINDS = ("special-rule", "weapon", "unit-rule", "spell", "weapon-profile", "grant")


@dataclass(slots=True)
class _Part:
    """One block of a rule: its cluster, the facts of its canonical copy, its link."""

    cluster: Cluster
    segment: Segment
    facts: Facts
    link: Link | None = None


@dataclass(slots=True)
class _Draft:
    """A rule before it is written: its parts in reading order, the section above it."""

    parts: list[_Part]
    parent: int | None = None

    @property
    def head(self) -> _Part:
        return self.parts[0]

    @property
    def lang(self) -> str:
        return self.head.cluster.lang


def _shift(span: Sequence[int], by: int) -> list[int]:
    return [span[0] + by, span[1] + by]


def _body(parts: Sequence[_Part]) -> list[_Part]:
    """The parts whose text is rule text: all but a heading that has blocks under it."""
    body = [p for p in parts if p.segment.kind != "heading"]
    return body or list(parts[:1])


def _text_of(
    parts: Sequence[_Part], lang: str, link: Link | None
) -> tuple[dict[str, Any], list[int]]:
    """A language's text of a rule (its parts joined by blank lines) and where each part starts."""
    body = _body(parts)
    offsets, pieces, at = [], [], 0
    for part in body:
        offsets.append(at)
        pieces.append(part.segment.text)
        at += len(part.segment.text) + len(PART_BREAK)
    text: dict[str, Any] = {
        "text": PART_BREAK.join(pieces),
        "cluster": parts[0].cluster.id,
        "sources": [_source(m.segment, m.relation) for p in parts for m in p.cluster.members],
    }
    if lang != "en":
        text["link"] = {
            "score": link.score if link else 0.0,
            "status": link.status if link else "unlinked",
        }
    return text, offsets


def _part_json(part: _Part, start: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "lang": part.cluster.lang,
        "kind": part.segment.kind,
        "cluster": part.cluster.id,
        "segment": part.segment.id,
    }
    if start is not None:
        out["span"] = [start, start + len(part.segment.text)]
    return out | {"sources": [_source(m.segment, m.relation) for m in part.cluster.members]}


def _kind(parts: Sequence[_Part]) -> str:
    """A table under a heading makes its section a table; else the first part that says
    what it is (a rule, a weapon, a grant ...); else a section."""
    if len(parts) == 1:
        return parts[0].facts.kind
    kinds = [p.facts.kind for p in parts]
    if "table" in kinds or any(p.facts.table is not None for p in parts):
        return "table"
    return next((k for k in kinds if k in _OWN_KINDS), "section")


def _rule(draft: _Draft, translations: Sequence[_Part]) -> dict[str, Any]:
    """The rule of a draft: names, texts and parts per language, and the facts of every
    part with their spans moved into the joined text of their language."""
    parts = [*draft.parts, *translations]
    by_lang: dict[str, list[_Part]] = {}
    for part in parts:
        by_lang.setdefault(part.cluster.lang, []).append(part)
    lang = draft.lang
    names: dict[str, str] = {}
    evidence: str | None = None
    for part in parts:
        f = part.facts
        if f.name and part.cluster.lang not in names:
            names[part.cluster.lang] = f.name
            if part is draft.head or (evidence is None and part.cluster.lang == lang):
                evidence = evidence or f.name_evidence
        if f.name_en and "en" not in names:
            names["en"] = f.name_en
    texts: dict[str, Any] = {}
    quantities: list[dict[str, Any]] = []
    effects: list[dict[str, Any]] = []
    flags: list[dict[str, Any]] = []
    keywords: set[str] = set()
    references: list[str] = []
    labels: list[str] = []
    unformalised: dict[str, list[list[int]]] = {}
    read_clauses = 0
    part_rows: list[dict[str, Any]] = []
    table = profile = None
    translated_tables: list[dict[str, Any]] = []
    variables: set[str] = set()
    refused_any = False
    for part_lang, group in by_lang.items():
        scored = [p.link for p in group if p.link is not None]
        link = max(scored, key=lambda x: x.score) if scored else None
        text, offsets = _text_of(group, part_lang, link)
        texts[part_lang] = text
        body = _body(group)
        start_of = {id(p): o for p, o in zip(body, offsets, strict=True)}
        for part in group:
            start = start_of.get(id(part))
            part_rows.append(_part_json(part, start))
            if start is None:
                continue
            f = part.facts
            quantities.extend(
                q.to_json() | {"lang": part_lang, "span": _shift(q.span, start)}
                for q in f.quantities
            )
            keywords.update(f.keywords)
            flags.extend(_conflicts(part.cluster, part_lang))
            if part_lang != lang:
                if f.table is not None:
                    translated_tables.append(f.table)
                continue
            own = names.get(part_lang)
            references.extend(r for r in f.references if r not in references and r != own)
            labels.extend(x for x in f.labels if x not in labels)
            kept, refused = _checked_effects(f, part_lang)
            refused_any = refused_any or bool(refused)
            for effect in kept:
                if "span" in effect:
                    effect["span"] = _shift(effect["span"], start)
                effects.append(effect)
            for flag in refused:
                flag["spans"] = [_shift(x, start) for x in flag.get("spans", [])]
                flags.append(flag)
            unformalised.setdefault(part_lang, []).extend(_shift(x, start) for x in f.unformalised)
            read_clauses += f.read_clauses
            variables.update(_variables(f))
            if table is None and f.table is not None:
                table = f.table
            if profile is None and f.profile is not None:
                profile = f.profile
    head_link = texts[lang].get("link")
    if lang != "en" and (head_link or {}).get("status") != "linked":
        status = head_link["status"] if head_link else "unlinked"
        best = next((p.link for p in draft.parts if p.link and p.link.status == status), None)
        like = next((p.link for p in draft.parts if p.link and p.link.resembles), None)
        if status == "ambiguous":
            detail = (
                f"close to {len(best.alternatives) + 1 if best else 2} English texts; none chosen"
            )
        elif like is not None:  # a look-alike, or a translation with a wrong number
            detail = (
                f"resembles the English text {like.resembles_source}, but its quantities"
                f" differ ({'; '.join(like.differs)}): a text that translates nothing, or a"
                " translation with a wrong number"
            )
        else:
            detail = "no English text in the corpus translates it"
        flags.insert(0, {"flag": status, "lang": lang, "detail": detail})
    if not names:
        flags.insert(
            1 if lang != "en" else 0,
            {"flag": "no-name", "lang": lang, "detail": "the text names no rule"},
        )
    unread: list[dict[str, Any]] = []
    for part_lang, spans in unformalised.items():
        if spans:
            flags.append(
                rule_flag(
                    "unformalised", part_lang, "clauses naming a game quantity not read", spans
                )
            )
            body = texts[part_lang]["text"]
            unread.extend({"lang": part_lang, "text": body[a:b], "span": [a, b]} for a, b in spans)
    if len(draft.parts) == 1:
        coverage = draft.head.facts.coverage
    elif not effects and table is None and profile is None:
        coverage = "descriptive"
    else:
        coverage = "partial" if unformalised.get(lang) else "full"
    if refused_any:
        coverage = "partial" if effects else "descriptive"
    rule: dict[str, Any] = {
        "id": "",
        "kind": _kind(draft.parts),
        "names": dict(sorted(names.items())),
    }
    if evidence:
        rule["name_evidence"] = evidence
    if names and variables:
        rule["signature"] = f"{names.get('en', names.get(lang))} ({', '.join(sorted(variables))})"
    if labels:
        rule["labels"] = labels
    rule |= {
        "texts": dict(sorted(texts.items())),
        "keywords": sorted(keywords) if len(parts) > 1 else list(draft.head.facts.keywords),
        "references": references,
        "quantities": quantities,
    }
    if len(parts) > 1:
        rule["parts"] = part_rows
    if profile is not None:
        rule["profile"] = profile
    if table is not None:
        rule["table"] = _with_translated_rows(table, translated_tables)
    rule |= {"effects": effects, "coverage": coverage, "flags": flags, "unread": unread}
    rule["clauses"] = {"read": read_clauses, "unread": len(unformalised.get(lang, []))}
    return rule


def _with_translated_rows(
    table: dict[str, Any], translations: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """The table with each row's text in the languages of its linked translations too, so
    that an outcome reads in English beside Russian; rows pair by their range (natural rows
    by their value), and a translation whose row has no counterpart adds nothing there."""
    if not translations:
        return table

    def merged(rows: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
        out = []
        for row in rows:
            text = dict(row.get("text") or {})
            for other in translations:
                for theirs in other.get(key) or ():
                    if theirs.get(key_field[key]) == row.get(key_field[key]):
                        for lang, words in (theirs.get("text") or {}).items():
                            text.setdefault(lang, words)
                        break
            out.append(row | {"text": text} if text else row)
        return out

    key_field = {"rows": "range", "natural": "value"}
    return table | {k: merged(table[k], k) for k in key_field if k in table}


def _names_own_rule(part: _Part, heading: _Part) -> bool:
    """A block under a heading that names a rule other than the heading's is a rule of
    its own (a rule book's "Special Rules" chapter); the rest belong to the heading."""
    f = part.facts
    if not f.name or f.name_evidence in _INHERITED:
        return False
    return f.id != heading.facts.id


def _sections(
    segments: Sequence[Segment],
    parts_of: Mapping[str, _Part],
) -> list[_Draft]:
    """Drafts in reading order: a heading opens a section that owns the blocks under it
    until the next heading of the same or a higher level (a deeper heading opens a
    section inside it) and are in its language; any other block is a rule of its own."""
    drafts: list[_Draft] = []
    stack: list[tuple[int, int]] = []  # (heading level, draft index)
    current: tuple[str, str] | None = None
    for segment in segments:
        part = parts_of.get(segment.id)
        if part is None:
            continue
        where = (segment.drop, segment.file)
        if where != current:
            current, stack = where, []
        if segment.kind == "heading":
            level = heading_level(segment.raw)
            while stack and stack[-1][0] >= level:
                stack.pop()
            drafts.append(_Draft([part], stack[-1][1] if stack else None))
            stack.append((level, len(drafts) - 1))
            continue
        if stack and not _names_own_rule(part, drafts[stack[-1][1]].head):
            if part.cluster.lang != drafts[stack[-1][1]].lang:  # another language's block
                drafts.append(_Draft([part]))
                continue
            drafts[stack[-1][1]].parts.append(part)
            continue
        drafts.append(_Draft([part], stack[-1][1] if stack else None))
    return drafts


def _base_id(draft: _Draft) -> str:
    """The rule's English name, else its name transliterated; a rule with no name gets its
    place, file and block (`book-12`), which neither its wording nor its kind (read from
    the wording) can change."""
    for part in draft.parts:
        if part.facts.name:
            return part.facts.id or slugify(part.facts.name)
    segment = draft.head.segment
    place = slugify(Path(segment.file).stem, fallback="file")[:PLACE_CHARS].strip("-")
    return f"{place}-{segment.block}"


def _superseded(
    drafts: Sequence[_Draft], bases: Sequence[str], rank: Mapping[str, int]
) -> dict[int, int]:
    """Older rule -> the newer one that replaces it (indices into `drafts`): the same rule
    id and language, one rule in each of several drops; the newest drop wins."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, draft in enumerate(drafts):
        groups.setdefault((bases[i], draft.lang), []).append(i)
    replaced: dict[int, int] = {}
    for members in groups.values():
        drops = [drafts[i].head.segment.drop for i in members]
        if len(members) < 2 or len(set(drops)) != len(drops):
            continue
        newest = max(members, key=lambda i: rank.get(drafts[i].head.segment.drop, 0))
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
        if m.relation in ("cosmetic", "reworded", "conflict")
        and rank.get(m.segment.drop, 0) < newest
    ]


def _add_history(
    drafts: Sequence[_Draft],
    replaced: Mapping[int, int],
    rules: Mapping[int, dict[str, Any]],
    segments: Mapping[str, Segment],
    drops: Sequence[Drop],
    retired: Mapping[int, Sequence[_Part]] = {},
) -> None:
    """Give each rule the older texts of it, oldest first: the blocks of rules a newer
    drop superseded, translations a newer one replaced, and older variants in its own
    clusters."""
    drop_of = {d.folder: d for d in drops}
    rank = ranks(drops)
    found: dict[str, list[tuple[int, dict[str, Any]]]] = {}

    def add(rule: dict[str, Any], member: Segment, cluster: str, sources: list) -> None:
        entry = _history(member, cluster, sources, drop_of.get(member.drop))
        found.setdefault(rule["id"], []).append((rank.get(member.drop, 0), entry))

    for old, new in replaced.items():
        for part in drafts[old].parts:
            sources = [_source(m.segment, m.relation) for m in part.cluster.members]
            add(rules[new], part.segment, part.cluster.id, sources)
    for i, parts in retired.items():
        for part in parts if i in rules else ():
            sources = [_source(m.segment, m.relation) for m in part.cluster.members]
            add(rules[i], part.segment, part.cluster.id, sources)
    for i, rule in rules.items():
        for part in drafts[i].parts:
            for m in _older_variants(part.cluster, segments, rank):
                add(rule, m.segment, part.cluster.id, [_source(m.segment, m.relation)])
    for rule in rules.values():
        if rule["id"] in found:
            rule["history"] = [e for _, e in sorted(found[rule["id"]], key=lambda x: x[0])]


def assemble(
    segments: Sequence[Segment],
    clusters: Sequence[Cluster],
    facts: Mapping[str, Facts],
    links: Sequence[Link] = (),
    drops: Sequence[Drop] = (),
) -> list[dict[str, Any]]:
    """Rules in id order, with unique ids. A heading and the blocks under it are one rule;
    a foreign block linked to an English one joins that block's rule. Tables claim their
    ids first, sections last, so that a table keeps the id other rules chain to. A rule
    that a newer drop carries again keeps the older text as `history`."""
    by_id = {s.id: s for s in segments}
    link_of = {link.target_cluster: link for link in links}
    joined = {c: link for c, link in link_of.items() if link.status == "linked"}
    parts_of = {
        c.canonical: _Part(c, by_id[c.canonical], facts[c.canonical], link_of.get(c.id))
        for c in clusters
        if c.id not in joined
    }
    drafts = _sections(segments, parts_of)
    all_bases = [_base_id(d) for d in drafts]
    replaced = _superseded(drafts, all_bases, ranks(drops))
    kept = [i for i in range(len(drafts)) if i not in replaced]
    draft_of = {p.cluster.id: i for i, d in enumerate(drafts) for p in d.parts}
    translations: dict[int, list[_Part]] = {}
    for cluster in clusters:
        link = joined.get(cluster.id)
        if link is None or link.source_cluster is None:
            continue
        owner = draft_of[link.source_cluster]
        owner = replaced.get(owner, owner)
        part = _Part(cluster, by_id[cluster.canonical], facts[cluster.canonical], link)
        translations.setdefault(owner, []).append(part)
    rank = ranks(drops)
    retired: dict[int, list[_Part]] = {}
    for owner, parts in translations.items():
        translations[owner], retired[owner] = _current_translations(parts, rank)
    rules = {i: _rule(drafts[i], translations.get(i, ())) for i in kept}
    priority = {"table": 0, "section": 2}
    order = sorted(kept, key=lambda i: (priority.get(rules[i]["kind"], 1), i))
    for i, rule_id in zip(order, unique([all_bases[i] for i in order]), strict=True):
        rules[i]["id"] = rule_id
    for i in kept:
        parent = drafts[i].parent
        while parent is not None and parent in replaced:
            parent = None
        if parent is not None and parent in rules:
            rules[i] = _with_section(rules[i], rules[parent]["id"])
    _add_history(drafts, replaced, rules, by_id, drops, retired)
    return sorted(rules.values(), key=lambda r: r["id"])


def _current_translations(
    parts: Sequence[_Part], rank: Mapping[str, int]
) -> tuple[list[_Part], list[_Part]]:
    """The translations of a rule that are its text, and those a newer one replaced: of
    several translations of one source block into one language (a reviewed file brought
    back beside the old translation), the newest drop's; in one drop, one whose unit
    named its rule, else the last read. Whatever their words."""
    groups: dict[tuple[str, str | None], list[_Part]] = {}
    for part in parts:
        key = (part.cluster.lang, part.link.source_cluster if part.link else None)
        groups.setdefault(key, []).append(part)
    current: list[_Part] = []
    retired: list[_Part] = []
    for (_, source), group in groups.items():
        if source is None or len(group) == 1:
            current.extend(group)
            continue
        newest = max(
            range(len(group)),
            key=lambda i: (
                rank.get(group[i].segment.drop, 0),
                group[i].segment.rule is not None,
                i,
            ),
        )
        current.append(group[newest])
        retired.extend(p for i, p in enumerate(group) if i != newest)
    order = {id(p): i for i, p in enumerate(parts)}
    return sorted(current, key=lambda p: order[id(p)]), retired


def _with_section(rule: dict[str, Any], section: str) -> dict[str, Any]:
    """The rule with `section` (the rule it stands under) after its labels."""
    out: dict[str, Any] = {}
    for key, value in rule.items():
        if key == "texts":
            out["section"] = section
        out[key] = value
    return out


def rule_of_cluster(rules: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Cluster id -> id of the rule its text is in (a part of, or is history of)."""
    found = {}
    for rule in rules:
        for text in [*rule["texts"].values(), *rule.get("history", []), *rule.get("parts", [])]:
            found[text["cluster"]] = rule["id"]
    return found
