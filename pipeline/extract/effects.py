"""Effects of a rule text in the interpreter's vocabulary (schemas/effect.schema.json).

Rule prose is formulaic ("gain +2 Strength", "cannot Charge", "suffers X hits"), so effects
come from sentence patterns kept as data in `pipeline/lang/<lang>/effects.yaml`, not code:
a pattern matched in a sentence emits effects filled from its groups, and `attach` patterns
complete effects found elsewhere in the paragraph ("Hits are resolved with the Strength and
Armour Penetration of the model" sets `strength: self` on Ricochet's hits). Each effect keeps
the span of the text it came from; sentences that produced nothing are reported so that a
rule's coverage is honest about what is left to a human.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from typing import Any

from pipeline.extract.names import rule_id
from pipeline.extract.needs import Prefilter
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


_NONE = Prefilter(())  # of no patterns


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
    """Per view ("text", "lemmas"), which of the rules, then the conditions (numbered after
    the rules), read on it may match a sentence."""
    replacing: tuple[_Rule, ...] = ()
    """The rules that replace another rule's effects."""
    skip_filter: Prefilter = _NONE
    example_filter: Prefilter = _NONE
    reads_lemmas: bool = False
    """Some rule or condition reads a sentence's lemmas."""


@dataclass(frozen=True, slots=True)
class EffectResult:
    """What a paragraph's sentences gave: effects, and the sentences that gave nothing."""

    effects: tuple[dict[str, Any], ...]
    sentences: tuple[Span, ...]
    unformalised: tuple[Span, ...]
    skipped: tuple[Span, ...]


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
                pattern=re.compile(r["pattern"]),
                unless=re.compile(r["unless"]) if r.get("unless") else None,
                each=each if each in (None, "modifiers", "grants") else re.compile(each),
                emit=tuple(emit if isinstance(emit, list) else [emit]),
                when=str(r.get("when", "auto")),
                attach=r.get("attach"),
                replaces=r.get("replaces"),
                on=str(r.get("read", raw.get("match", "text"))),
            )
        )
    conditions = raw.get("conditions") or []
    condition_on = tuple(str(c.get("read", raw.get("match", "text"))) for c in conditions)
    patterns = [re.compile(c["pattern"]) for c in conditions]
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
        skip_filter=Prefilter(skip),
        example_filter=Prefilter(examples),
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


_WORD = re.compile(r"[^\W\d_]+")
_WORD_SPLIT = re.compile(f"({_WORD.pattern})")


class _View:
    """A sentence as patterns read it: its text, or its words in dictionary form (`match:
    lemmas`, so that one pattern matches every inflection), with each character's offset in
    the sentence so that spans and groups are always read back from the text itself. The
    offsets are worked out only for a sentence some pattern matches, and then only for the
    characters asked (a match's ends); the text as written is its own map."""

    __slots__ = ("_map", "_parts", "_words", "text")

    def __init__(
        self, text: str, parts: list[str] | None = None, words: list[str] | None = None
    ) -> None:
        self.text = text
        # the view's parts (between words, a word's lemma, ...) and the words they read;
        # None: the view is the sentence itself
        self._parts = parts
        self._words = words
        self._map: tuple[list[int], list[int]] | None = None

    def _at(self, i: int) -> int:
        """The offset in the sentence of the view's i-th character: each lemma character at
        its word's character, the surplus on the word's last one."""
        if self._map is None:
            assert self._parts is not None and self._words is not None
            lens = list(map(len, self._parts))
            view = list(accumulate(lens, initial=0))
            lens[1::2] = map(len, self._words)
            self._map = (view, list(accumulate(lens, initial=0)))
        view, sentence = self._map
        k = bisect_right(view, i) - 1  # the part holding it
        if k % 2 == 0:
            return sentence[k] + i - view[k]
        j = i - view[k]
        n = min(view[k + 1] - view[k] - 1, sentence[k + 1] - sentence[k] - 1)
        return sentence[k] + j if j < n else sentence[k + 1] - 1

    def start(self, i: int) -> int:
        if self._parts is None:
            return i
        size = len(self.text)
        return self._at(i) if i < size else (self._at(size - 1) + 1 if size else 0)

    def end(self, i: int) -> int:
        if self._parts is None:
            return i
        return self._at(i - 1) + 1 if i > 0 else 0


# A word form's dictionary form, lower case, per language: read once per form, not per
# occurrence. Cleared when full, so memory stays bounded.
_FORMS_KEPT = 50_000
_forms: dict[str, dict[str, str]] = {}


def _form(form: str, lang: str) -> str:
    """The dictionary form of one word form, lower case."""
    forms = _forms.setdefault(lang, {})
    word = forms.get(form)
    if word is None:
        word = (lemma(form, lang) or form).lower()
        if len(forms) >= _FORMS_KEPT:
            forms.clear()
        forms[form] = word
    return word


def _view(sentence: str, on: str, lang: str) -> _View:
    if on != "lemmas":
        return _View(sentence)
    parts = _WORD_SPLIT.split(sentence)  # between words, a word, between words, ...
    words = parts[1::2]
    known = _forms.setdefault(lang, {}).get
    parts[1::2] = [known(w) or _form(w, lang) for w in words]
    return _View("".join(parts), parts, words)


def _lemma_text(text: str, lang: str) -> str:
    """`text` with each word in dictionary form, lower case ("Силе" -> "сила")."""
    return _WORD.sub(lambda m: (lemma(m.group(), lang) or m.group()).lower(), text)


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
    """The named situations a sentence states, joined by " & "; a negated one wins over its
    plain form ("provided their unit is not Charging" is `not-charging`, never `charging`).
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
    view: _View | None = None,
) -> list[tuple[dict[str, Any], Span]]:
    """(groups, span in the paragraph) for each emission of `rule` in one sentence; a
    pattern read on the sentence's `view` gives groups and spans of the sentence's text."""
    v = view if view is not None else _View(sentence)
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
        assert isinstance(rule.each, re.Pattern)
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
) -> EffectResult:
    """Effects of `text[start:]` (after any leading labels), with spans into `text`.
    `spans`: the sentences of `text[start:]`, when the caller has split it already."""
    data = _data(lang)
    spans = sentences(text, start) if spans is None else list(spans)
    effects: list[dict[str, Any]] = []
    origin: list[tuple[int, str]] = []  # (sentence index, rule id) per effect
    used: set[int] = set()
    skipped: list[Span] = []
    attaches: list[tuple[int, _Rule, dict[str, Any]]] = []
    # the quantities of each sentence, in their order, found by bisection: scanning all of
    # them for every sentence was quadratic in a paragraph of thousands of sentences
    by_start = sorted(range(len(quantities)), key=lambda k: quantities[k].span[0])
    starts = [quantities[k].span[0] for k in by_start]
    for si, (a, b) in enumerate(spans):
        ks = sorted(by_start[bisect_left(starts, a) : bisect_left(starts, b)])
        read = _sentence(text[a:b], a, [quantities[k] for k in ks], data, lang)
        if read.skipped:
            skipped.append((a, b))
            continue
        if read.used:
            used.add(si)
        for effect, (x, y), fired_by in read.effects:
            effects.append({**_copy(effect), "span": [a + x, a + y]})
            origin.append((si, fired_by))
        attaches.extend((si, rule, groups) for rule, groups in read.attaches)
    for si, rule, groups in attaches:
        _attach(rule, groups, si, effects, origin, data, lang)
    unformalised = tuple(s for i, s in enumerate(spans) if i not in used and s not in skipped)
    return EffectResult(tuple(effects), tuple(spans), unformalised, tuple(skipped))


@dataclass(frozen=True, slots=True)
class _Read:
    """What one sentence gives, spans relative to the sentence: whether it is skipped,
    (effect without span, span, rule id) per effect, the attaching rules that fired and
    whether any rule fired."""

    skipped: bool
    effects: tuple[tuple[dict[str, Any], Span, str], ...]
    attaches: tuple[tuple[_Rule, dict[str, Any]], ...]
    used: bool


# Paragraphs repeat their sentences (copies, translations memories, a corpus's boilerplate),
# and reading one sentence is most of the cost: each is read once per language and the
# quantities in it. Cleared when full, so memory stays bounded.
_READ_KEPT = 20_000
_read: dict[tuple[Any, ...], _Read] = {}


def _sentence(
    raw: str, offset: int, quantities: Sequence[Quantity], data: _Data, lang: str
) -> _Read:
    """The effects of one sentence at `offset` in its paragraph, read once per sentence text,
    language and the quantities inside it (which `each: modifiers` rules read)."""
    end = offset + len(raw)
    inside = tuple(
        (q.span[0] - offset, q.span[1] - offset, q.type, repr(q.value), q.characteristic)
        for q in quantities
        if offset <= q.span[0] < end
    )
    key = (lang, raw, inside)
    read = _read.get(key)
    if read is None:
        read = _read_sentence(raw, offset, quantities, data, lang)
        if len(_read) >= _READ_KEPT:
            _read.clear()
        _read[key] = read
    return read


def _read_sentence(
    raw: str, a: int, quantities: Sequence[Quantity], data: _Data, lang: str
) -> _Read:
    # A sentence without an example's words is its own mask: no pattern blanks anything.
    sentence = _mask(raw, data.examples) if data.example_filter.candidates(raw) else raw
    if any(data.skip[i].search(sentence) for i in data.skip_filter.candidates(sentence)):
        return _Read(True, (), (), False)
    views = {"text": _View(sentence)}
    if data.reads_lemmas:
        views["lemmas"] = _view(sentence, "lemmas", lang)
    texts = {on: view.text for on, view in views.items()}
    maybe = _maybe(data.filters, texts)  # the rules, then conditions, that may match
    first = bisect_left(maybe, len(data.rules))
    lemmas = texts.get("lemmas")
    when = _condition(sentence, data, lemmas, [i - len(data.rules) for i in maybe[first:]])
    fired: dict[str, list[int]] = {}
    effects: list[tuple[dict[str, Any], Span, str]] = []
    attaches: list[tuple[_Rule, dict[str, Any]]] = []
    used = False
    for i in maybe[:first]:  # the rules a sentence may fire, in order
        rule = data.rules[i]
        view = views.get(rule.on, views["text"])
        if rule.pattern.search(view.text) is None:
            continue  # most rules: no call to read what they would give
        for groups, span in _matches(rule, sentence, a, quantities, data, view):
            if rule.attach is not None:
                attaches.append((rule, groups))
                used = True
                continue
            for template in rule.emit:
                effect = _clean(_fill(template, groups, data, lang))
                if effect is None:
                    continue
                if "when" not in effect and rule.when != "none":
                    cond = when if rule.when == "auto" else rule.when
                    if cond:
                        effect["when"] = cond
                fired.setdefault(rule.id, []).append(len(effects))
                effects.append((effect, (span[0] - a, span[1] - a), rule.id))
                used = True
    for rule in data.replacing if fired else ():
        if rule.id in fired:
            drop = set(fired.get(rule.replaces or "", ()))
            effects[:] = [e for i, e in enumerate(effects) if i not in drop]
    return _Read(False, tuple(effects), tuple(attaches), used)


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
) -> None:
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
