"""Effects of a rule text in the interpreter's vocabulary (schemas/effect.schema.json).

Clauses are read from the parts they are written in (`pipeline/extract/clauses.py`, parts in
`pipeline/lang/<lang>/clauses.yaml`); a few whole phrases the parts do not compose (a natural
roll's trigger, hits made several, Breath Attack's bracket) are idioms kept as data in
`pipeline/lang/<lang>/effects.yaml`: an idiom matched in a sentence emits its effects filled
from its groups, and `attach` idioms complete effects found elsewhere in the paragraph
("Hits are resolved with the Strength and Armour Penetration of the model" sets
`strength: self` on Ricochet's hits). A clause an idiom read is not read again. Each effect
keeps the span of the text it came from, and every clause that names a game quantity and was
not read is returned (`unread`), so that a rule's coverage is honest about what is left.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from pipeline.extract.clauses import (
    Clause,
    Context,
    activated,
    header_situation,
    offers_choice,
    own_label,
    read_sentence,
)
from pipeline.extract.names import rule_id
from pipeline.extract.needs import Prefilter, lazy
from pipeline.extract.views import WORD, View, view
from pipeline.lang import ENGLISH, lemma
from pipeline.lang import data as lang_data
from pipeline.quantities import Quantity
from pipeline.sentences import sentences
from pipeline.slug import slugify

Span = tuple[int, int]

_FIELD = re.compile(r"\{(\w+)(?:\|(\w+))?\}")
_WHOLE = re.compile(r"^\{(\w+)(?:\|(\w+))?\}$")
_SUFFIX = re.compile(r"^(.*\})\|(\w+)$")
_PAREN = re.compile(r"\s*\([^()]*\)")
_INT = re.compile(r"^[+\-−]?\d+$")


@dataclass(frozen=True, slots=True)
class _Rule:
    id: str
    pattern: re.Pattern[str]
    unless: re.Pattern[str] | None
    each: str | re.Pattern[str] | None
    emit: tuple[dict[str, Any], ...]
    when: str
    attach: dict[str, Any] | None
    replaces: str | None
    on: str = "text"


@dataclass(frozen=True, slots=True)
class _Data:
    rules: tuple[_Rule, ...]
    skip: tuple[re.Pattern[str], ...]
    conditions: tuple[tuple[re.Pattern[str], str], ...]
    lead: re.Pattern[str] | None
    characteristics: dict[str, str]
    rolls: dict[str, str]
    saves: dict[str, str]
    grant_exclude: frozenset[str]
    examples: tuple[re.Pattern[str], ...] = ()
    negations: dict[str, str] | None = None
    condition_on: tuple[str, ...] = ()
    grant_item: re.Pattern[str] = re.compile("")
    list_sep: re.Pattern[str] = re.compile("")
    filters: tuple[tuple[str, Prefilter], ...] = ()
    """Per view ("text", "lemmas"), which idioms, then the conditions (numbered after the
    idioms), read on it may match a sentence: most sentences hold no idiom's words."""
    replacing: tuple[_Rule, ...] = ()
    """The rules that replace another rule's effects."""
    reads_lemmas: bool = False
    """Some rule or condition reads a sentence's lemmas."""


@dataclass(frozen=True, slots=True)
class EffectResult:
    """What a paragraph's sentences gave: effects, the sentences that gave nothing, and its
    clauses with the spans of those that name a game quantity and were not read whole."""

    effects: tuple[dict[str, Any], ...]
    sentences: tuple[Span, ...]
    unformalised: tuple[Span, ...]
    skipped: tuple[Span, ...]
    clauses: tuple[Clause, ...] = ()
    unread: tuple[Span, ...] = ()


def _listing(raw: dict[str, Any], key: str) -> re.Pattern[str]:
    """A listing pattern (a rule name in a list, the list's separators) of the language, or
    English's when its file states none: every pattern is written once, in the data."""
    pattern = raw.get(key) or lang_data(ENGLISH, "effects")[key]
    return re.compile(str(pattern))


@cache
def _data(lang: str) -> _Data:
    raw = lang_data(lang, "effects")
    rules = []
    for r in raw.get("rules") or []:
        each = r.get("each")
        emit = r.get("emit") or []
        rules.append(
            _Rule(
                id=str(r["id"]),
                pattern=lazy(r["pattern"]),
                unless=lazy(r["unless"]) if r.get("unless") else None,
                each=each if each in (None, "modifiers", "grants") else lazy(each),
                emit=tuple(emit if isinstance(emit, list) else [emit]),
                when=str(r.get("when", "auto")),
                attach=r.get("attach"),
                replaces=r.get("replaces"),
                on=str(r.get("read", raw.get("match", "text"))),
            )
        )
    conditions = raw.get("conditions") or []
    condition_on = tuple(str(c.get("read", raw.get("match", "text"))) for c in conditions)
    patterns = [lazy(c["pattern"]) for c in conditions]
    skip = tuple(re.compile(p) for p in raw.get("skip") or [])
    examples = tuple(re.compile(p) for p in raw.get("examples") or [])
    return _Data(
        rules=tuple(rules),
        skip=skip,
        conditions=tuple((p, str(c["when"])) for p, c in zip(patterns, conditions, strict=True)),
        lead=re.compile(raw["lead_clause"]) if raw.get("lead_clause") else None,
        characteristics={str(k): str(v) for k, v in (raw.get("characteristics") or {}).items()},
        rolls={str(k).lower(): str(v) for k, v in (raw.get("rolls") or {}).items()},
        saves={str(k).lower(): str(v) for k, v in (raw.get("saves") or {}).items()},
        grant_exclude=frozenset(raw.get("grant_exclude") or ()),
        examples=examples,
        negations={str(k): str(v) for k, v in (raw.get("negations") or {}).items()},
        condition_on=condition_on,
        grant_item=_listing(raw, "grant_item"),
        list_sep=_listing(raw, "list_sep"),
        filters=_filters(
            [*(r.pattern for r in rules), *patterns], [*(r.on for r in rules), *condition_on]
        ),
        replacing=tuple(r for r in rules if r.replaces),
        reads_lemmas=any(r.on == "lemmas" for r in rules) or "lemmas" in condition_on,
    )


def _filters(
    patterns: Sequence[re.Pattern[str]], ons: Sequence[str]
) -> tuple[tuple[str, Prefilter], ...]:
    """A prefilter per view for patterns each read on its view ("lemmas", else the text)."""
    views = sorted({"lemmas" if on == "lemmas" else "text" for on in ons})
    return tuple(
        (
            view,
            Prefilter(
                [
                    p if ("lemmas" if on == "lemmas" else "text") == view else None
                    for p, on in zip(patterns, ons, strict=True)
                ]
            ),
        )
        for view in views
    )


def _maybe(filters: tuple[tuple[str, Prefilter], ...], texts: dict[str, str]) -> list[int]:
    """Indices of the patterns that may match, each on its view's text, ascending."""
    if len(filters) == 1:
        view, prefilter = filters[0]
        return prefilter.candidates(texts[view])
    found: set[int] = set()
    for view, prefilter in filters:
        found.update(prefilter.candidates(texts[view]))
    return sorted(found)


def _lemma_text(text: str, lang: str) -> str:
    """`text` with each word in dictionary form, lower case ("Силе" -> "сила")."""
    return WORD.sub(lambda m: (lemma(m.group(), lang) or m.group()).lower(), text)


def _mask(sentence: str, examples: Sequence[re.Pattern[str]]) -> str:
    """The sentence with its examples ("(e.g. Multiple Wounds (D3))") blanked, same length.

    An example illustrates a rule; a value in it is never the rule's own, so no pattern may
    read it. Blanking instead of cutting keeps every span an offset into the paragraph.
    """
    for pattern in examples:
        sentence = pattern.sub(lambda m: " " * len(m.group(0)), sentence)
    return sentence


def _number(value: str) -> int | str:
    v = value.strip().replace("−", "-")
    if _INT.match(v):
        return int(v)
    return v


def _dice(value: str) -> int | str:
    v = value.strip().replace("Х", "X").replace("Д", "D").replace("д", "D")
    return _number(v)


def _table_id(name: str, lang: str) -> str:
    words = name.split()
    return rule_id(" ".join([lemma(words[0], lang), *(w.lower() for w in words[1:])]))


def _filter(value: Any, name: str | None, data: _Data, lang: str) -> Any:
    if name is None or value is None:
        return value
    text = str(value)
    match name:
        case "int":
            return _number(text)
        case "dice":
            return _dice(text)
        case "slug":
            return slugify(text)
        case "roll":
            return data.rolls.get(text.lower()) or data.rolls.get(
                _lemma_text(text, lang), slugify(text)
            )
        case "char":
            return data.characteristics.get(slugify(text)) or data.characteristics.get(
                _lemma_text(text, lang), slugify(text).replace("-", "_")
            )
        case "save":
            return data.saves.get(text.lower()) or data.saves.get(
                _lemma_text(text, lang), slugify(text)
            )
        case "lemma":
            return _lemma_text(text, lang)
        case "table":
            return _table_id(text, lang)
    raise ValueError(f"unknown effect template filter {name!r}")


def _fill(template: Any, groups: dict[str, Any], data: _Data, lang: str) -> Any:
    if isinstance(template, dict):
        return {k: _fill(v, groups, data, lang) for k, v in template.items()}
    if isinstance(template, list):
        return [_fill(v, groups, data, lang) for v in template]
    if not isinstance(template, str):
        return template
    whole = _WHOLE.match(template)
    if whole:
        return _filter(groups.get(whole.group(1)), whole.group(2), data, lang)
    suffix = _SUFFIX.match(template)
    if suffix:
        return _filter(_fill(suffix.group(1), groups, data, lang), suffix.group(2), data, lang)

    def sub(m: re.Match[str]) -> str:
        return str(_filter(groups.get(m.group(1), ""), m.group(2), data, lang))

    return _FIELD.sub(sub, template)


def _clean(effect: dict[str, Any]) -> dict[str, Any] | None:
    out = {k: (v.strip() if isinstance(v, str) else v) for k, v in effect.items()}
    out = {k: v for k, v in out.items() if v not in (None, "", [])}
    for key, val in out.items():
        if key != "note" and isinstance(val, str) and "{" in val:
            return None  # a template field the match did not fill
    return out


def _depth_at(sentence: str, pos: int) -> int:
    return sentence.count("(", 0, pos) - sentence.count(")", 0, pos)


def _split_top(text: str, seps: re.Pattern[str]) -> list[str]:
    """Split at separators outside brackets ("A, B (1, 2) and C" -> A | B (1, 2) | C)."""
    parts, depth, last = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            m = seps.match(text, i)
            if m and i >= last:
                parts.append(text[last:i])
                last = m.end()
    parts.append(text[last:])
    return [p.strip() for p in parts if p.strip()]


def _grant_items(listed: str, data: _Data) -> list[tuple[str, list[str]]]:
    out = []
    for item in _split_top(listed.rstrip(". "), data.list_sep):
        m = data.grant_item.match(item)
        if m is None:
            continue
        name = m.group("name").rstrip(".")
        if name in data.grant_exclude:
            continue
        params = [p.strip() for p in (m.group("params") or "").split(",") if p.strip()]
        out.append((name, params))
    return out


def _condition(sentence: str, data: _Data, lemmas: str | None, maybe: Sequence[int]) -> str | None:
    """The named situations a sentence states for its idioms, joined by " & "; a negated one
    wins over its plain form ("provided their unit is not Charging" is `not-charging`).
    `lemmas`: the sentence in dictionary form, for conditions read as lemmas; `maybe`: the
    conditions that may match it (by number), the others are not searched."""
    found: list[str] = []
    ons = data.condition_on or ("text",) * len(data.conditions)
    for i in maybe:
        (pattern, when), on = data.conditions[i], ons[i]
        text = lemmas if on == "lemmas" and lemmas is not None else sentence
        if pattern.search(text) and when not in found:
            found.append(when)
    for negated, plain in (data.negations or {}).items():
        if negated in found and plain in found:
            found.remove(plain)
    if found:
        return " & ".join(found)
    if data.lead is not None:
        m = data.lead.match(sentence)
        if m:
            return " ".join(_PAREN.sub("", m.group("when")).split()) or None
    return None


def _matches(
    rule: _Rule,
    sentence: str,
    offset: int,
    quantities: Sequence[Quantity],
    data: _Data,
    seen: View | None = None,
) -> list[tuple[dict[str, Any], Span]]:
    """(groups, span in the paragraph) for each emission of `rule` in one sentence; a
    pattern read on the sentence's view `seen` gives groups and spans of the sentence's text."""
    v = seen if seen is not None else View(sentence)
    m = rule.pattern.search(v.text)
    if m is None or (rule.unless is not None and rule.unless.search(v.text)):
        return []

    def groups_of(match: re.Match[str]) -> dict[str, str]:
        out = {}
        for k in match.groupdict():
            if match.group(k) is not None:
                out[k] = sentence[v.start(match.start(k)) : v.end(match.end(k))]
        return out

    groups = groups_of(m)
    span = (offset + v.start(m.start()), offset + v.end(m.end()))
    if rule.each is None:
        return [(groups, span)]
    out: list[tuple[dict[str, Any], Span]] = []
    if rule.each == "modifiers":
        for q in quantities:
            a, b = q.span
            if q.type != "modifier" or not offset <= a < offset + len(sentence):
                continue
            if not sentence[a - offset : b - offset].strip():
                continue  # inside a blanked example
            if _depth_at(sentence, a - offset) > 0 or q.characteristic not in data.characteristics:
                continue
            item = {**groups, "value": str(q.value), "char": data.characteristics[q.characteristic]}
            out.append((item, (a, b)))
    elif rule.each == "grants":
        for name, params in _grant_items(groups.get("list", ""), data):
            out.append(({**groups, "rule": name, "params": params}, span))
    else:
        assert rule.each is not None and not isinstance(rule.each, str)
        for em in rule.each.finditer(v.text):
            item = {**groups, **groups_of(em)}
            out.append((item, (offset + v.start(em.start()), offset + v.end(em.end()))))
    return out


def find_effects(
    text: str,
    lang: str,
    quantities: Sequence[Quantity] = (),
    start: int = 0,
    spans: Sequence[Span] | None = None,
    name: str | None = None,
) -> EffectResult:
    """Effects of `text[start:]` (after any leading labels), with spans into `text`.
    `spans`: the sentences of `text[start:]`, when the caller has split it already; `name`:
    the rule's own name, which its text may use for itself ("models with Fear")."""
    data = _data(lang)
    header, _ = header_situation(text[:start], lang)
    more, after = header_situation(text[start:], lang)
    header = tuple(dict.fromkeys((*header, *more)))
    cut = own_label(text, start + after, name, lang)
    spans = sentences(text, start) if spans is None else list(spans)
    spans = [(max(a, cut), b) for a, b in spans if b > cut]
    spans = [(a + len(text[a:b]) - len(text[a:b].lstrip()), b) for a, b in spans]
    spans = [(a, b) for a, b in spans if a < b]
    special = "special" in header  # a special attack of its own: nothing here describes it
    header = tuple(h for h in header if h != "special")
    blocked = special or activated(text[start:], lang)
    ctx = Context(name=name, header=header, blocked=blocked)
    effects: list[dict[str, Any]] = []
    origin: list[tuple[int, str]] = []  # (sentence index, rule id) per effect
    used: set[int] = set()
    skipped: list[Span] = []
    clauses: list[Clause] = []
    attaches: list[tuple[int, _Rule, dict[str, Any], Span]] = []
    # the quantities of each sentence, in their order, found by bisection: scanning all of
    # them for every sentence was quadratic in a paragraph of thousands of sentences
    by_start = sorted(range(len(quantities)), key=lambda k: quantities[k].span[0])
    starts = [quantities[k].span[0] for k in by_start]
    for si, (a, b) in enumerate(spans):
        if not ctx.blocked and offers_choice(text[a:b], lang):
            ctx.blocked = True  # "choose one of the following: ...": alternatives from here
        ks = sorted(by_start[bisect_left(starts, a) : bisect_left(starts, b)])
        read = _sentence(text[a:b], a, [quantities[k] for k in ks], data, lang, ctx)
        if read.skipped:
            skipped.append((a, b))
            continue
        if read.used:
            used.add(si)
        for effect, (x, y), fired_by in read.effects:
            effects.append({**_copy(effect), "span": [a + x, a + y]})
            origin.append((si, fired_by))
        attaches.extend(
            (si, rule, groups, (a + x, a + y)) for rule, groups, (x, y) in read.attaches
        )
        clauses.extend(clause.moved(a) for clause in read.clauses)
    for si, rule, groups, span in attaches:
        if not _attach(rule, groups, si, effects, origin, data, lang):
            # it completes effects the paragraph does not have: what it says is not read
            clauses = [
                replace(c, state="unread", why="it completes no effect read here")
                if _overlaps(c.span, span)
                else c
                for c in clauses
            ]
    if any(c.frame == "restrict" and c.state == "unread" for c in clauses):
        # "This Attack Attribute can only be used with ..." not read: no effect holds always
        effects = []
        clauses = [
            replace(c, effects=(), state="unread", why="the rule's restriction is not read")
            if c.state in ("read", "partial")
            else c
            for c in clauses
        ]
    for clause in clauses:  # "This rule can only be used against ...": for all its effects
        for effect in effects if clause.restricts else ():
            parts_ = str(effect.get("when") or "").split(" & ") if effect.get("when") else []
            effect["when"] = " & ".join(
                [*parts_, *(w for w in clause.restricts if w not in parts_)]
            )
    unformalised = tuple(s for i, s in enumerate(spans) if i not in used and s not in skipped)
    unread = tuple(c.span for c in clauses if c.unread)
    return EffectResult(
        tuple(effects), tuple(spans), unformalised, tuple(skipped), tuple(clauses), unread
    )


@dataclass(frozen=True, slots=True)
class _Read:
    """What one sentence gives, spans relative to the sentence: whether it is skipped,
    (effect without span, span, rule id) per effect, the attaching rules that fired,
    whether any rule fired, its clauses, and the subject the next sentence's "it" means."""

    skipped: bool
    effects: tuple[tuple[dict[str, Any], Span, str], ...]
    attaches: tuple[tuple[_Rule, dict[str, Any], Span], ...]
    used: bool
    clauses: tuple[Clause, ...] = ()
    who: tuple[Any, ...] = (None, (), None)


# Paragraphs repeat their sentences (copies, translations memories, a corpus's boilerplate),
# and reading one sentence is most of the cost: each is read once per language, the
# quantities in it and what it shares with its paragraph. Cleared when full, so memory stays
# bounded.
_READ_KEPT = 20_000
_read: dict[tuple[Any, ...], _Read] = {}


def _sentence(
    raw: str, offset: int, quantities: Sequence[Quantity], data: _Data, lang: str, ctx: Context
) -> _Read:
    """The effects and clauses of one sentence at `offset` in its paragraph, read once per
    sentence text, language, the quantities inside it and the paragraph's context."""
    end = offset + len(raw)
    inside = tuple(
        Quantity(  # the same quantity, its span in the sentence (a dataclass copy is slow)
            q.type,
            (q.span[0] - offset, q.span[1] - offset),
            q.surface,
            q.value,
            q.expr,
            q.unit,
            q.characteristic,
            q.qualifier,
            q.inner,
            q.notes,
        )
        for q in quantities
        if offset <= q.span[0] < end
    )
    # the rule's name matters only to a sentence holding one of its words (a copy of a
    # rule under another name reads the same)
    name = ctx.name if ctx.name and _names_in(ctx.name, raw) else None
    key = (
        lang,
        raw,
        inside,
        name,
        ctx.header,
        ctx.who,
        ctx.who_when,
        ctx.blocked,
        ctx.carry,
    )
    read = _read.get(key)
    if read is None:
        read = _read_sentence(raw, inside, data, lang, ctx)
        if len(_read) >= _READ_KEPT:
            _read.clear()
        _read[key] = read
    ctx.who, ctx.who_when, ctx.carry = read.who
    return read


def _names_in(name: str, sentence: str) -> bool:
    """Whether a word of `name` (its first four letters: an inflected form counts) stands
    in `sentence`."""
    low = sentence.lower()
    return any(w[:4] in low for w in WORD.findall(name.lower()))


def _overlaps(a: Span, b: Sequence[int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _read_sentence(
    raw: str, inside: Sequence[Quantity], data: _Data, lang: str, ctx: Context
) -> _Read:
    sentence = _mask(raw, data.examples)
    if any(p.search(sentence) for p in data.skip):
        return _Read(True, (), (), False, (), (ctx.who, ctx.who_when, ctx.carry))
    views = {"text": View(sentence)}
    if data.reads_lemmas:
        views["lemmas"] = view(sentence, "lemmas", lang)
    texts = {on: seen.text for on, seen in views.items()}
    maybe = _maybe(data.filters, texts)  # the idioms, then conditions, that may match
    first = bisect_left(maybe, len(data.rules))
    lemmas = texts.get("lemmas")
    when = _condition(sentence, data, lemmas, [i - len(data.rules) for i in maybe[first:]])
    fired: dict[str, list[int]] = {}
    effects: list[tuple[dict[str, Any], Span, str]] = []
    attaches: list[tuple[_Rule, dict[str, Any], Span]] = []
    idiom_spans: list[Span] = []
    stated: set[int] = set()  # the effects whose idiom states their condition itself
    for i in maybe[:first]:  # the idioms a sentence may fire, in order
        rule = data.rules[i]
        seen = views.get(rule.on, views["text"])
        if rule.pattern.search(seen.text) is None:
            continue
        for groups, span in _matches(rule, sentence, 0, inside, data, seen):
            idiom_spans.append(span)
            if rule.attach is not None:
                attaches.append((rule, groups, span))
                continue
            for template in rule.emit:
                effect = _clean(_fill(template, groups, data, lang))
                if effect is None:
                    continue
                if "when" in effect or rule.when != "auto":
                    stated.add(id(effect))  # the idiom reads its sentence's condition itself
                if "when" not in effect and rule.when != "none":
                    cond = when if rule.when == "auto" else rule.when
                    if cond:
                        effect["when"] = cond
                fired.setdefault(rule.id, []).append(len(effects))
                effects.append((effect, span, rule.id))
    for rule in data.replacing if fired else ():
        if rule.id in fired:
            drop = set(fired.get(rule.replaces or "", ()))
            effects[:] = [e for i, e in enumerate(effects) if i not in drop]
    local = replace(ctx)
    clauses = []
    for clause in read_sentence(sentence, lang, inside, 0, local):
        if any(_overlaps(clause.span, s) for s in idiom_spans):
            mine = [s for s in idiom_spans if _overlaps(clause.span, s)]
            loose = [c for c in clause.cues if not any(a <= c[0] and c[1] <= b for a, b in mine)]
            drop = [
                e
                for e in effects
                if _overlaps(clause.span, e[1])
                and (ctx.blocked or (loose and id(e[0]) not in stated))
            ]
            if drop:
                # a condition no part reads: the idiom's effects would hold in the wrong place
                effects[:] = [e for e in effects if e not in drop]
                clause = replace(clause, effects=(), state="unread")
            else:
                # an idiom read this clause: what it gives stands for the clause
                clause = replace(clause, effects=(), state="read", why="")
        clauses.append(clause)
        for e in clause.effects:
            x, y = e["span"]
            effects.append(({k: v for k, v in e.items() if k != "span"}, (x, y), "clause"))
    used = bool(effects or attaches)
    who = (local.who, local.who_when, local.carry)
    return _Read(False, tuple(effects), tuple(attaches), used, tuple(clauses), who)


def _copy(value: Any) -> Any:
    """A copy of an effect's value down to its lists, so no caller shares the kept one."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _attach(
    rule: _Rule,
    groups: dict[str, Any],
    si: int,
    effects: list[dict[str, Any]],
    origin: list[tuple[int, str]],
    data: _Data,
    lang: str,
) -> bool:
    """Complete the effects an attaching idiom is for; whether there were any."""
    assert rule.attach is not None
    op, scope = rule.attach["op"], rule.attach.get("scope", "paragraph")
    values = _fill(rule.attach.get("set") or {}, groups, data, lang)
    targets = [i for i, e in enumerate(effects) if e["op"] == op]
    if scope == "sentence":
        targets = [i for i in targets if origin[i][0] == si]
    elif scope == "previous":
        targets = [i for i in targets if origin[i][0] <= si][-1:]
    named = {w for _, w in data.conditions}
    for i in targets:
        for key, val in values.items():
            old = effects[i].get(key)
            if key == "when" and old and old != val and set(str(old).split(" & ")) <= named:
                # a named situation of the sentence (melee, charging) still holds
                effects[i][key] = f"{old} & {val}"
            elif key == "when" or key not in effects[i]:
                effects[i][key] = val
    return bool(targets)
