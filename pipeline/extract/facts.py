"""Extraction: everything the pipeline reads in one segment, and across one file's segments.

`extract` is a pure function of a segment (and the glossary): the rule it defines, how the
name was found, its kind and labels, glossary keywords, references, quantities, a weapon
profile or dice table, effects in the interpreter's vocabulary, and an honest coverage.
Some facts need the neighbours: a heading names the paragraphs under it, and the sentence
after a table states its modifiers and where it chains. `extract_file` adds those, still
purely, from the segments of one file in order. Assembly into rule files is a later stage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pipeline.bbcode import find_markup, strip_tags, tag_spans
from pipeline.extract.clauses import activated, additional_spans, against_targets
from pipeline.extract.effects import find_effects
from pipeline.extract.keywords import Occurrences, core_words, keyword_spans
from pipeline.extract.kinds import classify, split_labels
from pipeline.extract.names import (
    find_name,
    find_references,
    heading_name,
    rule_id,
    table_lead_in,
    table_references,
)
from pipeline.extract.profiles import (
    TypedProfile,
    bracket_items,
    name_list,
    read_profile,
    without_repeats,
)
from pipeline.extract.tables import markdown_table, prose_table, table_context
from pipeline.glossary import Glossary
from pipeline.lang import data as lang_data
from pipeline.lang import tokenize
from pipeline.model import Segment
from pipeline.normalise import normalise, normalise_with_map, to_input_span
from pipeline.quantities import Quantity, find_quantities, parse_profile
from pipeline.slug import slugify

Span = tuple[int, int]
Coverage = Literal["full", "partial", "descriptive"]
_SIGNED_PARAM = re.compile(r"^\s*([+\-−])\s*(\d+)\s+(\w[\w ]*?)\s*$")


@dataclass(frozen=True, slots=True)
class Facts:
    """What extraction read in one segment; spans are offsets into `segment.text`."""

    segment: str
    lang: str
    name: str | None
    name_evidence: str | None
    kind: str
    name_en: str | None = None
    labels: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    terms: Occurrences = field(default_factory=Occurrences)  # glossary terms, in text order
    words: Occurrences = field(default_factory=Occurrences)  # core vocabulary (lang/lexicon.yaml)
    references: tuple[str, ...] = ()
    quantities: tuple[Quantity, ...] = ()
    profile: dict[str, Any] | None = None
    table: dict[str, Any] | None = None
    effects: tuple[dict[str, Any], ...] = ()
    coverage: Coverage = "descriptive"
    unformalised: tuple[Span, ...] = ()
    """The clauses that name a game quantity and were not read whole (spans)."""
    read_clauses: int = 0
    """How many clauses were read whole (each gave effects, or completes others)."""

    @property
    def id(self) -> str | None:
        """The rule id this segment's name gives (English name first), or None."""
        return rule_id(self.name, self.name_en) if self.name else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; empty optional fields are left out."""
        out: dict[str, Any] = {
            "segment": self.segment,
            "lang": self.lang,
            "name": self.name,
            "name_evidence": self.name_evidence,
            "kind": self.kind,
        }
        if self.name_en:
            out["name_en"] = self.name_en
        if self.name:
            out["id"] = self.id
        out |= {
            "labels": list(self.labels),
            "keywords": list(self.keywords),
            "references": list(self.references),
            "quantities": [q.to_json() for q in self.quantities],
        }
        if self.profile is not None:
            out["profile"] = self.profile
        if self.table is not None:
            out["table"] = self.table
        out["effects"] = [dict(e) for e in self.effects]
        out["coverage"] = self.coverage
        out["unformalised"] = [list(s) for s in self.unformalised]
        out["clauses"] = {"read": self.read_clauses, "unread": len(self.unformalised)}
        return out


def _profile_grants(profile: dict[str, Any], span: Span, lang: str) -> list[dict[str, Any]]:
    """A profile's attributes as grants (Area Attack (1×5)); Multiple Wounds is its own op."""
    exclude = set(lang_data(lang, "effects").get("grant_exclude") or ())
    out = []
    for attr in profile.get("attributes") or []:
        params = [p.get("canonical", p.get("text")) for p in attr.get("params") or []]
        if attr["name"] in exclude:
            if params:  # Multiple Wounds (D3): its own op, "against X" its condition
                effect = _multiple_wounds(params, lang)
                if effect is not None:
                    out.append({**effect, "span": list(span)})
            continue
        effect: dict[str, Any] = {"op": "grant", "rule": slugify(attr["name"])}
        if params:
            effect["params"] = params
        effect["span"] = [span[0], span[1]]
        out.append(effect)
    return out


def _multiple_wounds(params: Sequence[Any], lang: str) -> dict[str, Any] | None:
    """Multiple Wounds (D3, against Towering Presence): the amount, and the targets after
    "against" as the condition; None where the targets are two things at once."""
    read, when = against_targets([str(x) for x in params], lang)
    if not read:
        return None
    effect: dict[str, Any] = {"op": "multiple-wounds", "amount": params[0]}
    if when:
        effect["when"] = when
    return effect


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _coverage(
    effects: Sequence[Any], table: Any, profile: Any, unformalised: Sequence[Span]
) -> Coverage:
    if not effects and table is None and profile is None:
        return "descriptive"
    return "partial" if unformalised else "full"


def _read_count(result: Any) -> int:
    """Clauses read whole: each gave its effects (or states a situation for the others)."""
    return sum(1 for c in result.clauses if c.state == "read")


def _term_ids(terms: Occurrences) -> tuple[str, ...]:
    return tuple(sorted(set(terms.ids)))


def extract(segment: Segment, glossary: Glossary | None = None) -> Facts:
    """The facts of one segment, without context from its neighbours."""
    text, lang = segment.text, segment.lang
    if segment.kind == "heading":
        name, name_en = heading_name(text, lang)
        doc = tokenize(text, lang)
        terms = keyword_spans(doc, lang, glossary)
        return Facts(
            segment=segment.id,
            lang=lang,
            name=name,
            name_en=name_en,
            name_evidence="parenthesised-english" if name_en else "heading",
            kind="section",
            keywords=_term_ids(terms),
            terms=terms,
            words=keyword_spans(doc, lang, core_words(lang)),
            quantities=tuple(find_quantities(text, lang)),
        )
    if segment.kind == "profile" and segment.rows:
        typed = read_profile(text, segment.rows, segment.role, lang)
        if typed is not None:
            return _typed_facts(segment, typed, glossary)
    labels = split_labels(text, lang)
    doc = tokenize(text, lang)
    hit = find_name(doc, lang, glossary, raw=segment.raw, text=text)
    quantities = tuple(find_quantities(text, lang))
    table: dict[str, Any] | None = None
    table_span: Span | None = None
    if segment.kind == "table" and segment.rows:
        table = markdown_table(segment.rows, lang)
        table_span = (0, len(text)) if table else None
    else:
        found = prose_table(text, lang)
        if found is not None:
            table, table_span = found
    profile = parse_profile(text) if table is None else None
    own = segment.name or (hit.name if hit else None)
    result = find_effects(text, lang, quantities, start=labels.start, name=own)
    effects = list(result.effects)
    if profile is not None:
        effects.extend(_profile_grants(profile, (labels.start, len(text)), lang))
    unformalised = [
        s
        for s in result.unread
        if not (table_span and _overlaps(s, table_span)) and profile is None
    ]
    body = text[labels.start :]
    kind = classify(
        segment.kind,
        body,
        lang,
        sentences=[text[a:b] for a, b in result.sentences],
        name=hit.name if hit else None,
        name_kind=hit.kind if hit else None,
        label_kind=labels.kind,
        profile=profile,
        table=table,
        has_effects=bool(effects),
    )
    name = hit.name if hit and kind != "grant" else None
    terms = keyword_spans(doc, lang, glossary)
    refs = list(find_references(doc, lang, glossary, exclude=name))
    refs.extend(n for n, _, _ in table_references(text, lang) if n not in refs and n != name)
    return Facts(
        segment=segment.id,
        lang=lang,
        name=name,
        name_evidence=hit.evidence if name and hit else None,
        kind=kind,
        labels=labels.labels,
        keywords=_term_ids(terms),
        terms=terms,
        words=keyword_spans(doc, lang, core_words(lang)),
        references=tuple(refs),
        quantities=quantities,
        profile=profile,
        table=table,
        effects=tuple(effects),
        coverage=_coverage(effects, table, profile, unformalised),
        unformalised=tuple(unformalised),
        read_clauses=_read_count(result) if profile is None else 0,
    )


def _name_effects(
    names: Sequence[tuple[str, Span]], text: str, lang: str, exclude: set[str]
) -> list[dict[str, Any]]:
    """Effects of a listed attribute ("Strike at Initiative Step 0"), else a grant of it."""
    out: list[dict[str, Any]] = []
    for item, (a, b) in names:
        found = find_effects(text[:b], lang, find_quantities(text[:b], lang), start=a)
        if found.effects:
            out.extend(found.effects)
            continue
        m = re.match(r"^(?P<name>[^()]+?)\s*(?:\((?P<params>[^()]*)\))?$", item)
        name = m.group("name") if m else item
        params = [p.strip() for p in (m.group("params") or "").split(",") if p.strip()] if m else []
        if name in exclude and params:
            mw = _multiple_wounds(params, lang)
            if mw is not None:
                out.append({**mw, "span": [a, b]})
            continue
        effect: dict[str, Any] = {"op": "grant", "rule": slugify(name)}
        if params:
            effect["params"] = params
        effect["span"] = [a, b]
        out.append(effect)
    return out


def _typed_facts(segment: Segment, typed: TypedProfile, glossary: Glossary | None) -> Facts:
    """Facts of a BattleScribe profile from its columns (weapon, armour or model profile)."""
    text, lang = segment.text, segment.lang
    doc = tokenize(text, lang)
    quantities = tuple(find_quantities(text, lang))
    effects: list[dict[str, Any]] = list(typed.effects)
    unformalised: tuple[Span, ...] = ()
    read_clauses = 0
    profile = dict(typed.profile)
    if typed.names and typed.kind == "model-profile":
        profile["rules"] = [n for n, _ in typed.names]
    elif typed.names:
        exclude = set(lang_data(lang, "effects").get("grant_exclude") or ())
        effects.extend(_name_effects(typed.names, text, lang, exclude))
    elif typed.text_span is not None:
        a, b = typed.text_span
        inside = [q for q in quantities if a <= q.span[0] < b]
        found = find_effects(text[:b], lang, inside, start=a, name=segment.name)
        chars = lang_data(lang, "effects").get("characteristics") or {}
        extra = additional_spans(text[:b], lang, a)
        stated = [
            (chars[q.characteristic], q.value)
            for q in inside
            if q.type == "modifier"
            and q.characteristic in chars
            and isinstance(q.value, int)
            and q.span[0] not in extra
        ]
        prose = list(found.effects)
        left = list(found.unread)
        listed: list[dict[str, Any]] = []
        exclude = set(lang_data(lang, "effects").get("grant_exclude") or ())
        spent = activated(text[a:b], lang)  # "One use only.": nothing holds on its own
        listed_spans: list[Span] = []
        for u, v in found.sentences:  # a sentence that only lists rules ("Two-Handed.")
            names = None if spent else name_list(text[u:v])
            if names is None:
                continue
            prose = [e for e in prose if not _overlaps(tuple(e["span"]), (u, v))]
            left = [s for s in left if not _overlaps(s, (u, v))]
            read_clauses += 1
            listed_spans.append((u, v))
            plain, square = bracket_items([(n, (u + x, u + y)) for n, (x, y) in names], lang)
            listed.extend(square)  # [Multiple Wounds (D3)]: the one hit's own
            listed.extend(_name_effects(plain, text, lang, exclude))
        for e in prose:  # a bracket's modifiers ("Devastating Charge (+ 2 Strength)")
            for param in e.get("params") or () if e["op"] == "grant" else ():
                m = _SIGNED_PARAM.match(str(param))
                if m and slugify(m.group(3)) in chars:
                    sign = -1 if m.group(1) in "-−" else 1
                    stated.append((chars[slugify(m.group(3))], sign * int(m.group(2))))
        effects = without_repeats(typed.effects, prose, stated) + listed
        unformalised = tuple(left)
        read_clauses += sum(
            1
            for c in found.clauses
            if c.state == "read" and not any(_overlaps(c.span, x) for x in listed_spans)
        )
    terms = keyword_spans(doc, lang, glossary)
    name = segment.name
    refs = [r for r in find_references(doc, lang, glossary, exclude=name) if r != name]
    return Facts(
        segment=segment.id,
        lang=lang,
        name=name,
        name_evidence="stated" if name else None,
        kind=typed.kind,
        keywords=_term_ids(terms),
        terms=terms,
        words=keyword_spans(doc, lang, core_words(lang)),
        references=tuple(refs),
        quantities=quantities,
        profile=profile,
        effects=tuple(effects),
        coverage=("partial" if unformalised else "full")
        if effects or typed.kind != "special-rule"
        else "descriptive",
        unformalised=unformalised,
        read_clauses=read_clauses,
    )


def _chain_target(text: str, after: int, lang: str, tables: dict[str, str]) -> str | None:
    """The id of the table a chain sentence names, preferring a table of the same file."""
    for name, name_en, (a, _) in table_references(text, lang):
        if a >= after:
            key = rule_id(name)
            return tables.get(key) or rule_id(name, name_en)
    return None


def extract_file(segments: Sequence[Segment], glossary: Glossary | None = None) -> list[Facts]:
    """Facts for one file's segments in order, with headings and tables linked to their text.

    A heading names the paragraphs and tables after it that name nothing themselves; a table
    takes its name from the heading right above it or from its lead-in sentence, and the
    paragraph after it gives it modifiers and natural-result chains to other tables.
    """
    return in_context(segments, [extract(s, glossary) for s in segments])


def block_key(segment: Segment) -> tuple[Any, ...]:
    """All that `extract` reads of a segment but its id: segments with equal keys have the
    same facts (a corpus repeats its short blocks file after file), read once."""
    s = segment
    return (s.text, s.raw, s.lang, s.kind, s.rows, s.role, s.name)


def in_context(segments: Sequence[Segment], found: Sequence[Facts]) -> list[Facts]:
    """The facts `extract` found in one file's segments, in order, with what their
    neighbours add (see `extract_file`)."""
    facts = list(found)
    # ids of the file's tables by the id of their name, so a chain can find them
    heading: tuple[str, str | None] | None = None
    for i, (seg, f) in enumerate(zip(segments, facts, strict=True)):
        if seg.kind == "heading":
            heading = (f.name or "", f.name_en)
            continue
        if f.table is not None and seg.kind == "table":
            prev = segments[i - 1] if i > 0 else None
            lead = table_lead_in(prev.text, prev.lang) if prev and prev.kind != "heading" else None
            if lead:
                facts[i] = replace(f, name=lead, name_en=None, name_evidence="table-lead-in")
                facts[i - 1] = replace(facts[i - 1], name=lead, name_evidence="table-context")
                continue
        if f.name is None and heading is not None:
            evidence = "parenthesised-english" if heading[1] else "heading"
            facts[i] = replace(f, name=heading[0], name_en=heading[1], name_evidence=evidence)
    tables = {rule_id(f.name): f.id for f in facts if f.table is not None and f.name and f.id}
    for i, (seg, f) in enumerate(zip(segments, facts, strict=True)):
        if f.table is None or seg.kind != "table" or i + 1 >= len(segments):
            continue
        nxt = segments[i + 1]
        if nxt.kind == "heading":
            continue
        ctx = table_context(nxt.text, nxt.lang)
        if not ctx["modifiers"] and not ctx["natural"]:
            continue
        table = dict(f.table)
        if ctx["modifiers"]:
            table["modifiers"] = ctx["modifiers"]
        natural = []
        for row in ctx["natural"]:
            target = _chain_target(nxt.text, row["span"][0], nxt.lang, tables)
            if target is None:
                continue
            entry: dict[str, Any] = {"value": row["value"], "chain": target}
            if "when" in row:
                entry["when"] = row["when"]
            natural.append(entry)
        if natural:
            table["natural"] = natural
        facts[i] = replace(f, table=table)
        after = facts[i + 1]
        spans = ctx["spans"]
        left = tuple(s for s in after.unformalised if not any(_overlaps(s, c) for c in spans))
        read_now = after.read_clauses + len(after.unformalised) - len(left)
        facts[i + 1] = replace(
            after,
            name=f.name,
            name_en=f.name_en,
            name_evidence="table-context",
            unformalised=left,
            read_clauses=read_now,
            coverage="full" if not left else "partial",
        )
    return facts


def _segment_from_text(id: str, text: str, lang: str) -> Segment:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    rows = None
    kind: Any = "paragraph"
    if lines and all(line.startswith("|") for line in lines):
        kind = "table"
        rows = tuple(
            tuple(c.strip() for c in line.strip("|").split("|"))
            for line in lines
            if not re.fullmatch(r"[|\s:-]+", line)
        )
    norm = normalise(strip_tags(text))
    return Segment(id, "", "", 0, (0, 0), "", kind, lang, 1.0, text, norm, rows=rows)


def extract_text(id: str, text: str, lang: str, glossary: Glossary | None = None) -> dict[str, Any]:
    """What `rulepipe extract FILE.jsonl` prints for one `{"id","text","lang"}` line. Spans
    are offsets into the `text` given (not into its normalised form, which has no tags and
    single spaces), and a quantity's surface is that slice of it."""
    segment = _segment_from_text(id, text, lang)
    facts = extract(segment, glossary)
    normalised, offsets = normalise_with_map(text, tag_spans(find_markup(text)))
    if normalised != segment.text:  # one normaliser, two paths: a bug, not an input error
        raise AssertionError(f"{id}: the mapped normalisation differs from the text read")

    def raw(span: Sequence[int]) -> list[int]:
        return list(to_input_span(text, offsets, span[0], span[1]))

    quantities = []
    for q in facts.quantities:
        item = q.to_json()
        item["span"] = raw(q.span)
        item["surface"] = text[item["span"][0] : item["span"][1]]
        quantities.append(item)
    return {
        "id": id,
        "name": facts.name,
        "kind": facts.kind,
        "keywords": list(facts.keywords),
        "quantities": quantities,
        "effects": [_raw_spans(dict(e), raw) for e in facts.effects],
    }


def _raw_spans(obj: Any, raw: Any) -> Any:
    """`obj` with every `span` pair, at any depth, mapped by `raw`."""
    if isinstance(obj, dict):
        return {
            k: raw(v) if k == "span" and _is_span(v) else _raw_spans(v, raw) for k, v in obj.items()
        }
    if isinstance(obj, list | tuple):
        return [_raw_spans(v, raw) for v in obj]
    return obj


def _is_span(v: Any) -> bool:
    return isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(x, int) for x in v)
