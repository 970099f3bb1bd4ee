"""Rule clauses read from the parts they are written in.

A sentence is cut into clauses, one verb each ("The bearer gains +1 Strength, and must
reroll failed to-hit rolls" is two), and a clause is read as

    [lead condition,] [who] VERB [values] [situations]

where every part is found by patterns kept as data (`pipeline/lang/<code>/clauses.yaml`):
who the effects are for (the bearer, its attacks, attacks against it, enemies in base
contact, its unit), the verb and the frame its values are read in (gains, suffers, is set
to, becomes, must or may reroll, cannot, automatically, always), the values (a
characteristic or roll modifier, a set value, a limit, granted rules) and the situations
(charging, first round, facing, engaged in flank or rear, against a type or rule, shooting
or close combat, a weapon used). Effects are composed from the parts, never from a pattern
per rule shape.

What no part reads is accounted for: a clause that names a game quantity (a roll, a
characteristic, a number, a situation) and is not read whole is `unread`. A clause whose
subject, negation or condition is not understood gives no effect at all (a condition
dropped makes a wrong number); one that only leaves a number aside keeps what it read and
is still listed unread.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from pipeline.extract.needs import Prefilter, lazy, needs
from pipeline.extract.views import View, form, view
from pipeline.lang import data as lang_data
from pipeline.quantities import Quantity
from pipeline.slug import slugify

Span = tuple[int, int]
BLANK = "\x00"  # what a read part leaves in the text: no pattern reads across it
_MACRO = re.compile(r"\{(\w+)\}")
_GROUP = re.compile(r"\(\?P<(\w+)>")
_BRACKET = re.compile(r"\([^()]*(?:\([^()]*\)[^()]*)*\)")
_SIGNED = re.compile(r"[+\-−]\s?\d")
SELF = "\x01"  # where the rule's own name stands in the text read


@dataclass(frozen=True, slots=True)
class _Verb:
    frame: str
    pattern: re.Pattern[str]
    may: bool = False
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Parts:
    """One language's clause parts, compiled."""

    lang: str
    on: str  # "text", or "lemmas": patterns read the words in dictionary form
    headers: tuple[tuple[re.Pattern[str], str | None], ...]
    fillers: re.Pattern[str]
    lead: re.Pattern[str]
    vacuous: tuple[re.Pattern[str], ...]
    anaphoric: re.Pattern[str]
    who: tuple[tuple[str, re.Pattern[str]], ...]
    who_filter: Prefilter
    situations: tuple[tuple[str | None, bool, re.Pattern[str]], ...]
    situation_filter: Prefilter  # which situations may match a text (by their literals)
    verbs: tuple[_Verb, ...]
    verb_filter: Prefilter  # which verbs may match a text in lower case
    any_verb: re.Pattern[str]
    predicates: re.Pattern[str]
    values: dict[str, re.Pattern[str]]
    rolls: tuple[tuple[str, re.Pattern[str]], ...]
    any_roll: re.Pattern[str]
    chars: tuple[tuple[str, re.Pattern[str]], ...]
    any_char: re.Pattern[str]
    counts: re.Pattern[str]  # numbers written as words ("two Bound Spells")
    named_char: re.Pattern[str]  # a characteristic named in full ("Strength", never "Attacks")
    slugs: dict[str, str]  # the quantity grammar's characteristic slugs -> the interpreter's
    char_first: re.Pattern[str]  # "Armour +1": a characteristic, then its modifier
    type_word: re.Pattern[str]  # a word naming a type or height ("Large", "Beasts")
    height_word: re.Pattern[str]  # a word naming a height ("Large")
    actions: tuple[tuple[str, re.Pattern[str]], ...]
    enemy_actions: tuple[tuple[str, re.Pattern[str]], ...]
    states: frozenset[str]
    cues: re.Pattern[str]
    narrowing: re.Pattern[str]
    cue_filter: Prefilter  # whether a text may hold a cue or a narrowing word at all
    separators: re.Pattern[str]
    conjunctions: re.Pattern[str]
    grant_item: re.Pattern[str]
    list_sep: re.Pattern[str]
    rule_cues: re.Pattern[str] | None
    choices: re.Pattern[str] | None
    bullet: re.Pattern[str]
    adverbs: re.Pattern[str]
    stopwords: frozenset[str]
    glue: re.Pattern[str]
    clause_starts: re.Pattern[str]
    connectors: re.Pattern[str]
    word_map: dict[str, str] = field(default_factory=dict)
    """Words of the language's parts that name a rule or a test ("тест" -> "test")."""


def _expand(pattern: str, macros: dict[str, str], counter: list[int]) -> str:
    """`pattern` with each `{macro}` replaced by its fragment (recursively); named groups of a
    fragment get a numbered suffix, so a fragment may stand twice in one pattern."""

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in macros:
            return m.group(0)
        counter[0] += 1
        n = counter[0]
        body = _expand(macros[name], macros, counter)
        body = _GROUP.sub(lambda g: f"(?P<{g.group(1)}__{n}>", body)
        return f"(?:{body})"

    return _MACRO.sub(sub, pattern)


def _alternation(forms: Iterable[str]) -> str:
    return "(?:" + "|".join(sorted(forms, key=len, reverse=True)) + ")"


@cache
def parts(lang: str) -> Parts:
    """The clause parts of `lang` (English's where the language states none)."""
    raw = lang_data(lang, "clauses")
    effects = lang_data(lang, "effects")
    rolls = [(str(r["roll"]), str(r["pattern"])) for r in raw.get("rolls") or []]
    chars = [(str(k), _alternation(map(str, v))) for k, v in (raw["characteristics"]).items()]
    macros = {str(k): str(v) for k, v in (raw.get("macros") or {}).items()}
    macros["self"] = _alternation(str(s) for s in raw.get("self") or [])
    macros["name"] = f"{SELF}+"
    macros["roll"] = _alternation(p for _, p in rolls)
    macros["char"] = _alternation(p for _, p in chars)
    counter = [0]

    def c(pattern: str, flags: int = 0) -> re.Pattern[str]:
        return lazy(_expand(pattern, macros, counter), flags)

    stands: dict[str, str] = {}

    def needed(pattern: str) -> re.Pattern[str]:
        """`pattern` as its prefilter reads it: each macro a group of the literals one of
        which its every match holds (`needs`), found once per macro, so that a long one
        ({bearer}: 500 characters) is not parsed again in each of 30 subjects (0.04 s a
        start). A group never joins the literals beside it: each literal found is needed."""

        def stand(m: re.Match[str]) -> str:
            name = m.group(1)
            if name in macros and name not in stands:
                found = needs(lazy(_expand(m.group(0), macros, [0])))
                stands[name] = f"({'|'.join(map(re.escape, sorted(found)))})" if found else "(.*)"
            return stands.get(name, m.group(0))

        return lazy(_MACRO.sub(stand, pattern))

    verbs = tuple(  # case-blind: a verb may open a sentence ("Strike at Initiative Step 0")
        _Verb(str(v["frame"]), c(v["pattern"], re.I), bool(v.get("may")), bool(v.get("negated")))
        for v in raw["verbs"]
    )
    # a subject ends where a word ends: "она" is never read as "он" and a stray "а"
    who = tuple((str(w["who"]), c(f"(?:{w['pattern']})(?![^\\W_])")) for w in raw["who"])
    every = "|".join([*(v["pattern"] for v in raw["verbs"]), raw["predicates"]])
    any_verb = c(_GROUP.sub("(?:", every))
    situations = [
        (x.get("when"), bool(x.get("free")), str(x["pattern"])) for x in raw["situations"]
    ]
    rule_cues = raw.get("rule_cues")
    return Parts(
        lang=lang,
        on=str(raw.get("match", "text")),
        headers=tuple((c(h["pattern"]), h.get("when")) for h in raw.get("headers") or []),
        fillers=c(raw["fillers"]),
        lead=c(raw["lead"]),
        vacuous=tuple(c(p) for p in raw.get("vacuous") or []),
        anaphoric=c(raw["anaphoric"]),
        who=who,
        who_filter=Prefilter([needed(f"(?:{w['pattern']})(?![^\\W_])") for w in raw["who"]]),
        situations=tuple((when, free, c(pat)) for when, free, pat in situations),
        situation_filter=Prefilter([needed(pat) for _, _, pat in situations]),
        verbs=verbs,
        verb_filter=Prefilter([needed(v["pattern"]) for v in raw["verbs"]], fold=True),
        any_verb=any_verb,
        predicates=c(raw["predicates"], re.I),
        values={str(k): c(v) for k, v in raw["values"].items()},
        rolls=tuple((r, c(p)) for r, p in rolls),
        any_roll=c("{roll}"),
        chars=tuple((k, c(p)) for k, p in chars),
        any_char=c("{char}"),
        counts=c(raw["counts"]),
        named_char=c(raw["named_characteristics"]),
        slugs={str(k): str(v) for k, v in (effects.get("characteristics") or {}).items()},
        char_first=c("{char}\\s*[+\\-−]\\s?\\d"),
        type_word=c("{type}", re.I),
        height_word=c("{height}", re.I),
        actions=tuple((str(a["action"]), c(a["pattern"])) for a in raw.get("actions") or []),
        enemy_actions=tuple(
            (str(a["action"]), c(a["pattern"])) for a in raw.get("enemy_actions") or []
        ),
        states=frozenset(str(s) for s in raw.get("states") or []),
        cues=c(raw["cues"]),
        narrowing=c(raw["narrowing"]),
        cue_filter=Prefilter([needed(f"(?:{raw['cues']})|(?:{raw['narrowing']})")]),
        separators=c(raw["separators"]),
        conjunctions=c(raw["conjunctions"]),
        grant_item=re.compile(
            str(effects.get("grant_item") or lang_data("en", "effects")["grant_item"])
        ),
        list_sep=re.compile(str(effects.get("list_sep") or lang_data("en", "effects")["list_sep"])),
        rule_cues=c(rule_cues) if rule_cues else None,
        choices=c(raw["choices"]) if raw.get("choices") else None,
        bullet=c(raw["bullet"]),
        adverbs=c(raw["adverbs"]),
        stopwords=frozenset(str(w).lower() for w in raw["stopwords"]),
        glue=c(raw["glue"]),
        clause_starts=c(raw["clause_starts"]),
        connectors=c(raw["connectors"]),
        word_map={str(k): str(v) for k, v in (raw.get("words") or {}).items()},
    )


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of a rule: its span in the paragraph, the parts read and what they give.

    `state`: `read` (every part read; `effects` hold), `partial` (effects read, but a number
    of the clause was not), `unread` (it names a game quantity and gives no effect), `none`
    (it names no game quantity and gives none). `why` says what stopped the reading.
    """

    span: Span
    who: str | None
    frame: str | None
    negated: bool
    situations: tuple[str, ...]
    effects: tuple[dict[str, Any], ...]
    state: str
    why: str = ""
    cue: str = ""
    """A word saying when or to what the clause applies that no part read ("within")."""
    cues: tuple[Span, ...] = ()
    """Where such words stand (spans in the paragraph)."""
    restricts: tuple[str, ...] = ()
    """Situations the clause states for every effect of its rule ("This rule can only be
    used against attacks from enemies Engaged in the model's unit's Front Facing")."""

    @property
    def unread(self) -> bool:
        """Whether an answer using this rule must say this clause was not read."""
        return self.state in ("unread", "partial")

    def moved(self, by: int) -> Clause:
        """The clause with its spans (its effects' too) `by` characters later: a sentence's
        clauses are read once and placed in each paragraph that holds it."""
        effects = tuple({**e, "span": [e["span"][0] + by, e["span"][1] + by]} for e in self.effects)
        return Clause(
            (self.span[0] + by, self.span[1] + by),
            self.who,
            self.frame,
            self.negated,
            self.situations,
            effects,
            self.state,
            self.why,
            self.cue,
            tuple((a + by, b + by) for a, b in self.cues),
            self.restricts,
        )


@dataclass(slots=True)
class Context:
    """What a paragraph's clauses share: the rule's own name, the situation its header
    states (Attack Attribute - Shooting), the subject of the clause before (for "it")."""

    name: str | None = None
    header: tuple[str, ...] = ()
    who: str | None = None
    """Who the clause before was for; "lost" when its subject was not read ("Model parts ...
    upgraded to a Champion gain ..."): "their"/"it" after it names no one the reader knows."""
    who_when: tuple[str, ...] = ()
    blocked: bool = False  # the rule states a one-use or activated effect
    carry: tuple[tuple[str, ...], str | None, bool] | None = None
    """A condition that leads a list ("If X, - A. - B."): it holds for each item."""


@dataclass(frozen=True, slots=True)
class _Maybe:
    """The situations, verbs and subjects a text may hold, and whether it may hold a cue:
    found once per sentence by the literal words each part needs."""

    situations: tuple[int, ...]
    verbs: tuple[int, ...]
    who: tuple[int, ...]
    cue: bool

    @staticmethod
    def of(text: str, p: Parts) -> _Maybe:
        return _Maybe(
            tuple(p.situation_filter.candidates(text)),
            tuple(p.verb_filter.candidates(text.lower())),
            tuple(p.who_filter.candidates(text)),
            bool(p.cue_filter.candidates(text)),
        )


@dataclass(slots=True)
class _Text:
    """A clause's view text, with the parts read blanked out, and its map to the sentence."""

    text: str
    view: View
    offset: int  # where the clause starts in the view
    maybe: _Maybe | None = None  # which parts its sentence may hold (by their words)

    def may(self, p: Parts) -> _Maybe:
        """The parts whose words the text holds (its sentence's, when it has one: a
        clause holds no word its sentence lacks)."""
        if self.maybe is None:
            self.maybe = _Maybe.of(self.text, p)
        return self.maybe

    def take(self, a: int, b: int) -> None:
        self.text = self.text[:a] + BLANK * (b - a) + self.text[b:]

    def span(self, a: int, b: int) -> Span:
        """A span of the clause (view offsets) in the sentence."""
        return (self.view.start(self.offset + a), self.view.end(self.offset + b))

    def local(self, i: int, end: bool = False) -> int:
        """The clause's view offset of the sentence's offset `i`."""
        return _to_view(self.view, i, self.view.text, end) - self.offset


def _groups(m: re.Match[str]) -> dict[str, str]:
    """A match's named groups that matched, without the numbered suffix of a fragment."""
    out: dict[str, str] = {}
    for k, v in m.groupdict().items():
        if v is not None:
            out.setdefault(k.split("__", 1)[0], v)
    return out


def _fold(name: str) -> str:
    return slugify(_BRACKET.sub("", name))


def _own(ctx: Context) -> str | None:
    return _fold(ctx.name) if ctx.name else None


@lru_cache(maxsize=4096)
def _name_pattern(name: str, lang: str, on: str) -> re.Pattern[str] | None:
    """Where a rule's own name stands in a text (its words in the view's form, any spacing,
    a plural's s): "Oi it bites!" in "Units with models with Oi it bites! cannot ..."."""
    words = re.findall(r"[^\W_]+", _BRACKET.sub("", name))
    if not words:
        return None
    if on == "lemmas":
        words = [form(w, lang) for w in words]
    gap = r"(?:s|es)?[\W_]+"  # a plural on any word ("Banners of Speed")
    return re.compile(
        r"(?<![^\W_])" + gap.join(map(re.escape, words)) + r"(?:s|es)?(?![^\W_])", re.I
    )


def mark_self(text: str, name: str | None, lang: str, on: str = "text") -> str:
    """`text` with the rule's own name replaced by `SELF` (same length, so every offset
    stays), for `{self}` to match whatever the name's words are."""
    if not name:
        return text
    pattern = _name_pattern(name, lang, on)
    if pattern is None:
        return text
    return pattern.sub(lambda m: SELF * len(m.group(0)), text)


def header_situation(text: str, lang: str) -> tuple[tuple[str, ...], int]:
    """The situation a rule's leading labels state ("Attack Attribute - Shooting." is
    shooting), and where the labels end."""
    p = parts(lang)
    seen = view(text, p.on, lang)  # the labels as the patterns read them
    found: list[str] = []
    pos = 0
    moved = True
    while moved:
        moved = False
        rest = seen.text[pos:]
        lead = len(rest) - len(rest.lstrip())
        for pattern, when in p.headers:
            m = pattern.match(rest, lead)
            if m and m.end() > lead:
                if when and when not in found:
                    found.append(str(when))
                pos += m.end()
                moved = True
                break
    return tuple(found), seen.end(pos)


def _when_of(
    template: str,
    groups: dict[str, str],
    free: bool = False,
    split: re.Pattern[str] | None = None,
    words: dict[str, str] | None = None,
) -> str:
    """A situation's condition: its template with each `{group}` as an id ("Large" ->
    large; a type in the plural, "Beasts", as its singular; a word the language's `words`
    name, as that id), or as written (`free`)."""

    def fill(m: re.Match[str], value: str) -> str:
        if free:
            return value
        slug = (words or {}).get(value.strip().lower()) or slugify(value)
        return slug.rstrip("s") if m.group(1) == "t" else slug

    field = re.search(r"\{(\w+)\}", template)
    if field is None:
        return template
    value = groups.get(field.group(1), "")
    if free:
        return template.replace(field.group(0), value)
    # a list ("Large or Gigantic") is alternatives: one must hold
    items = [x for x in (split.split(value) if split else [value]) if x] or [value]
    return " | ".join(template.replace(field.group(0), fill(field, x)) for x in items)


def _situations(
    t: _Text, p: Parts, own: str | None = None, start: int = 0, end: int | None = None
) -> list[str]:
    """The named situations of `t` (each read is blanked), with the words that introduce
    them; `own`: the rule's name as an id ("using Paired Weapons" in Paired Weapons' own
    text states no condition)."""
    found: list[str] = []
    end = len(t.text) if end is None else end
    for i in t.may(p).situations:  # in the data's order
        when, free, pattern = p.situations[i]
        for m in list(pattern.finditer(t.text, start, end)):
            if m.end() > m.start() and not _inside_brackets(t.text, m.start()):
                _situation(t, p, m, when, free, own, found)
    return found


def _situation(
    t: _Text, p: Parts, m: re.Match[str], when: Any, free: bool, own: str | None, found: list[str]
) -> None:
    """Read one situation (and the words that introduce it: "unless" negates it) into
    `found`."""
    t.take(m.start(), m.end())
    lead = p.connectors.search(t.text, max(0, m.start() - 60), m.start())
    negated = bool(lead and lead.group("negated"))
    if lead:
        t.take(lead.start(), lead.end())
    if not when:
        return
    groups = {**_groups(m), "own": own or ""}
    w = _when_of(str(when), groups, free, p.values["alternatives"], p.word_map)
    if own and w.startswith("has:") and _same_weapon(w[4:], own):
        return  # the rule's own weapon: no condition
    if negated:
        w = _negate(w)
    if w and w not in found and not w.endswith(":"):
        found.append(w)


def _test_id(name: str, p: Parts) -> str | None:
    """A test's id: its name as a slug ("Panic" -> panic), or in a language whose `words`
    name its tests, the id its words (or its first word) stand for, else None."""
    name = name.strip()
    if not name:
        return None
    if not p.word_map:
        return slugify(name)
    key = name.lower()
    return p.word_map.get(key) or p.word_map.get(key.split()[0])


def _named(m: re.Match[str], name: str) -> bool:
    """Whether a group called `name` (or `name2`, ...) of a verb's pattern matched."""
    return any(v is not None and k.rstrip("0123456789") == name for k, v in m.groupdict().items())


def _negate(when: str) -> str:
    """The condition that holds when `when` does not ("a | b" -> "not-a & not-b")."""
    if " & " in when:
        return when  # not(a & b) has no form here; such a part never comes negated
    alts = [a.strip() for a in when.split(" | ")]
    return " & ".join(a[4:] if a.startswith("not-") else f"not-{a}" for a in alts)


def _same_weapon(named: str, own: str) -> bool:
    """Whether a weapon named in a rule's text is the rule's own ("a Lance" in the Light
    Lance's text, "Spears" in the Spear's)."""
    named, own = named.rstrip("s"), own.rstrip("s")
    return named == own or own.endswith(f"-{named}") or named.endswith(f"-{own}")


def _skip(text: str, pos: int) -> int:
    """The first position from `pos` that is not a space or a part already read."""
    while pos < len(text) and text[pos] in " ," + BLANK:
        pos += 1
    return pos


def _lead_condition(
    m: re.Match[str], p: Parts, ctx: Context, written: str
) -> tuple[list[str], str | None, bool]:
    """(named situations, free text, blocked) of a leading condition ("When Charging, ...",
    "In the First Round of Combat, ..."): named situations if it holds nothing else, else
    its words as written (`written`) as a free-text condition a scenario may name."""
    lead = m.group("when") or m.group("at") or ""
    bare = " ".join(_BRACKET.sub("", lead).split())
    if p.anaphoric.match(bare):
        return [], None, True
    for pattern in p.vacuous:
        m = pattern.match(bare)
        if m:
            return [], None, False
    t = _Text(lead, View(lead), 0)
    named = _situations(t, p, _own(ctx))
    words = re.findall(r"[^\W_]+", t.text.replace(BLANK, " "))
    rest = [w for w in words if w.lower() not in p.stopwords]
    if named and not rest:
        return named, None, False
    return named, " ".join(_BRACKET.sub("", written).split()), False


def _items(text: str, p: Parts) -> list[tuple[str, int, int]]:
    """Items of a list ("A, B (1, 2) and C"): (item, start, end) split outside brackets."""
    out: list[tuple[str, int, int]] = []
    depth, last, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            m = p.list_sep.match(text, i)
            if m and m.end() > i:
                out.append((text[last:i], last, i))
                last = i = m.end()
                continue
        i += 1
    out.append((text[last:], last, len(text)))
    return out


@dataclass(slots=True)
class _Read:
    """What a clause's frame read: effects with their clause-local spans."""

    effects: list[tuple[dict[str, Any], Span]] = field(default_factory=list)
    blocked: str = ""
    partial: str = ""  # a value the frame could not read: the effects stand, the clause is unread


def _char_name(text: str, p: Parts) -> str | None:
    for name, pattern in p.chars:
        if pattern.fullmatch(text.strip()):
            return name
    return None


def _roll_names(text: str, p: Parts) -> list[tuple[str, int, int]]:
    out = []
    for m in p.any_roll.finditer(text):
        for name, pattern in p.rolls:
            if pattern.fullmatch(m.group(0)):
                out.append((name, m.start(), m.end()))
                break
    return out


def _int(s: str) -> int:
    return int(s.replace("−", "-").replace(" ", ""))


def _grants(t: _Text, a: int, b: int, p: Parts, raw: str, out: _Read, applies: str | None) -> None:
    """Granted rules listed in `t.text[a:b]` (read from the sentence's own text `raw`)."""
    sa, sb = t.span(a, b)
    region = raw[sa:sb]
    # what earlier parts read is blank in the view; blank it in the text too, a run of
    # blanks at a time (a lemma shorter than its word covers the whole word)
    for run in re.finditer(BLANK + "+", t.text[a:b]):
        x, y = t.span(a + run.start(), a + run.end())
        region = region[: x - sa] + BLANK * (y - x) + region[y - sa :]
    for item, ia, _ib in _items(region, p):
        body = item.strip(" .,;" + BLANK)
        if not body:
            continue
        lead = len(item) - len(item.lstrip(" .,;" + BLANK))
        m = p.grant_item.match(body)
        if m is None:
            words = re.findall(r"[^\W\d_]+", body.replace(BLANK, " "))
            condition = p.values.get("condition_words")
            trailing = condition is not None and "," not in body  # not a clause of its own
            if trailing and condition.match(body.lstrip(BLANK + " ")):
                # "... gain +1 to hit from the Flank": when the values hold, not read
                out.blocked = out.blocked or f"the condition {body.strip()!r} is not read"
                out.partial = out.partial or out.blocked
            elif any(w.lower() not in p.stopwords for w in words):
                out.partial = out.partial or f"{body.strip()!r} is not read"
            continue
        name = m.group("name").rstrip(".").strip()
        tail = body[m.end() :].replace(BLANK, " ").strip(" .,*")
        if re.fullmatch(r"[+\-−]?\d+[\"″]?", tail):
            continue  # "Shots 3": a value no part reads, not a rule (it stays unread)
        if tail and any(w.lower() not in p.stopwords for w in re.findall(r"[^\W_]+", tail)):
            out.blocked = out.blocked or f"words after {name!r} not read"
            out.partial = out.partial or out.blocked  # a rule named: the clause is not read
            continue
        if name in p.states:
            out.partial = out.partial or f"{name} is a state, not a rule"
            continue
        params = [x.strip() for x in (m.group("params") or "").split(",") if x.strip()]
        x, y = t.local(sa + ia + lead), t.local(sa + ia + lead + m.end(), end=True)
        effect = _grant_effect(name, params, applies, p)
        if effect is None:  # "(2, against Large Beasts, Gigantic)": targets not read
            out.blocked = out.blocked or f"the targets of {name!r} are not read"
            out.partial = out.partial or out.blocked
            continue
        out.effects.append((effect, (x, y)))
        t.take(x, y)


_SAVES = frozenset({"aegis", "fortitude", "regeneration"})


def _targets(groups: list[str], p: Parts) -> str | None:
    """`target-has:` alternatives of a bracket's "against A, B and C" (comma-separated
    `groups`), or None where a target is two things at once ("Large Beasts", "Large and
    Cavalry, Gigantic"): a condition no alternatives can state."""
    out: list[str] = []
    for group in groups:
        items = [x for x in p.values["alternatives"].split(group) if x]
        words = group.split()
        if len(words) > 1 and all(p.type_word.fullmatch(w) for w in words):
            return None  # "Large Beasts": Large and a Beast
        if len(groups) > 1 and len(items) > 1:
            return None  # "Large and Beasts, Large and Cavalry": each one both
        heights = [bool(p.height_word.fullmatch(x.strip())) for x in items]
        if " and " in f" {group} " and any(heights) and not all(heights):
            return None  # "Large and Infantry": a height and a type, one model both
        out += [f"target-has:{slugify(x).rstrip('s')}" for x in items]
    return " | ".join(out) if out else None


def _against(params: Sequence[str], p: Parts) -> tuple[list[str], list[str]] | None:
    """A bracket's params without its "against A, B" lists (each runs on to the next
    number: "(D3, against Large, Gigantic)"), and the `target-has:` condition of each list;
    None where a list's targets are not read (see `_targets`)."""
    kept: list[str] = []
    lists: list[list[str]] = []
    listing = False
    for param in params:
        m = p.values["against_param"].match(param)
        if m:
            lists.append([m.group("what")])
            listing = True
        elif listing and not re.search(r"\d", param):
            lists[-1].append(param)  # "against Large, Gigantic": the list goes on
        else:
            listing = False
            kept.append(param)
    when = [_targets(x, p) for x in lists]
    return (kept, [w for w in when if w]) if all(when) else None


def against_targets(params: Sequence[str], lang: str) -> tuple[bool, str | None]:
    """The condition a bracket's "against A, B" states ("Multiple Wounds (D3, against
    Towering Presence)" as a profile's attribute): (whether it is read, the `target-has:`
    alternatives or None when the bracket has none)."""
    read = _against(params, parts(lang))
    return (False, None) if read is None else (True, " & ".join(read[1]) or None)


def _grant_effect(
    name: str, params: list[str], applies: str | None, p: Parts
) -> dict[str, Any] | None:
    rule = slugify(name)
    read = (params, []) if rule in _SAVES else _against(params, p)  # Aegis (4+, against X)
    if read is None:
        return None
    kept, when = read
    if rule == "multiple-wounds" and kept:
        effect: dict[str, Any] = {"op": "multiple-wounds", "amount": _number(kept[0])}
        if applies == "unit":
            effect["applies_to"] = "model"
    else:
        effect = {"op": "grant", "rule": rule}
        if kept:
            effect["params"] = kept
        if applies in ("attack", "unit"):
            effect["applies_to"] = applies
    if when:
        effect["when"] = " & ".join(when)
    return effect


def _number(text: str) -> int | str:
    v = text.strip().replace("−", "-")
    return int(v) if re.fullmatch(r"[+-]?\d+", v) else v


def _modify(char: str, applies: str | None, **values: Any) -> dict[str, Any]:
    effect: dict[str, Any] = {"op": "modify", "characteristic": char, **values}
    if applies in ("attack", "enemy", "unit"):
        effect["applies_to"] = applies
    return effect


def _roll(roll: str, applies: str | None, **values: Any) -> dict[str, Any]:
    effect: dict[str, Any] = {"op": "roll", "roll": roll, **values}
    if applies == "enemy":
        effect["applies_to"] = "enemy"
    return effect


def _applies(who: str | None) -> str | None:
    return {"attack": "attack", "against": "enemy", "enemy": "enemy", "unit": "unit"}.get(who or "")


def _char_values(
    t: _Text,
    a: int,
    b: int,
    pattern: re.Pattern[str],
    p: Parts,
    out: _Read,
    effect: Any,
) -> None:
    """Read each characteristic value `pattern` finds in `t.text[a:b]` ("at least Strength
    5") into `effect(characteristic, number)`."""
    for m in list(pattern.finditer(t.text, a, b)):
        char = _char_name(m.group("char"), p)
        if char:
            out.effects.append((effect(char, _int(m.group("n"))), (m.start(), m.end())))
            t.take(m.start(), m.end())


def _frame_gain(
    t: _Text,
    a: int,
    p: Parts,
    who: str | None,
    quantities: Sequence[tuple[Quantity, int, int]],
    raw: str,
    have: bool = False,
) -> _Read:
    """Gains ("gains +1 Strength and Fear", "suffers a -1 to-hit modifier", "to a maximum of
    3"); `have`: set values and bounds ("always have at least Strength 5"), never rules."""
    out = _Read()
    applies = _applies(who)
    b = len(t.text)
    v = p.values
    if have:  # "always have at least Strength 4", "always have Armour Penetration 10"
        _char_values(t, a, b, v["at_least"], p, out, lambda c, n: _modify(c, applies, min=n))
        _char_values(t, a, b, v["set_value"], p, out, lambda c, n: _modify(c, applies, to=n))
    _char_values(t, a, b, v["as_user"], p, out, lambda c, n: _modify(c, "attack", by=n))
    for m in list(v["roll_modifier"].finditer(t.text, a, b)):
        roll = next((r for r, x, y in _roll_names(m.group("roll"), p)), None)
        if roll in ("to-hit", "to-wound"):
            out.effects.append(
                (_roll(roll, applies, modifier=_int(m.group("n"))), (m.start(), m.end()))
            )
            t.take(m.start(), m.end())
    for m in list(v["additional"].finditer(t.text, a, b)):
        t.take(m.start(), m.end())
    # characteristic modifiers: the quantities the language's grammar read ("+1 Strength")
    for q, qa, qb in quantities:
        if qa < a or qb > b or BLANK in t.text[qa:qb] or _inside_brackets(t.text, qa):
            continue
        if not t.text[qa:qb].strip():
            continue  # inside an example, blanked before reading
        if q.type != "modifier" or q.characteristic is None or not isinstance(q.value, int):
            continue
        char = p.slugs.get(q.characteristic)
        if char is None:
            continue
        effect = _modify(char, applies, by=q.value)
        out.effects.append((effect, (qa, qb)))
        t.take(qa, qb)
        m = v["maximum"].match(t.text, qb) or v["maximum"].match(t.text.replace(BLANK, " "), qb)
        if m:
            effect["max"] = int(m.group("n") or m.group("n2"))
            t.take(m.start(), m.end())
    _char_values(t, a, b, v["at_least"], p, out, lambda c, n: _modify(c, applies, min=n))
    if have and who != "attack":  # "has access to Alchemy": having is no gaining
        if re.search(r"[^\W\d_]{3,}", t.text[a:b].replace(BLANK, " ")):
            out.partial = out.partial or "what it has is not read"
        return out
    word = v.get("rule_word")  # "получает правила Страх и ..." (a language that says "rule")
    for m in list(word.finditer(t.text, a, b)) if word else ():
        t.take(m.start(), m.end())
    _grants(t, a, b, p, raw, out, applies)
    return out


def _word_at(text: str, i: int) -> bool:
    """Whether a word goes on at `i` (a part ends only where a word ends)."""
    return i < len(text) and (text[i].isalnum() or text[i] == "_")


def _inside_brackets(text: str, i: int) -> bool:
    return text.count("(", 0, i) > text.count(")", 0, i)


def _frame_set(
    t: _Text, a: int, verb: re.Match[str], p: Parts, who: str | None, start: int
) -> _Read:
    """ "X and Y are set to N", "has its X set to N": characteristics before the verb."""
    out = _Read()
    applies = _applies(who)
    m = re.compile(r"\s*(?P<n>\d+)(?:\s*(?:\"|″|”|''|′′))?").match(t.text, verb.end())
    if m is None:
        out.blocked = "the value set is not a number"
        return out
    n = int(m.group("n"))
    found = []
    for cm in list(p.any_char.finditer(t.text, start, verb.start())):
        char = _char_name(cm.group(0), p)
        if char:
            found.append((char, cm.start()))
            t.take(cm.start(), cm.end())
    if not found:
        out.blocked = "no characteristic named before the value set"
        return out
    t.take(m.start(), m.end())
    limit = p.values["not_improved"].match(t.text, m.end())
    for char, at in found:
        out.effects.append((_modify(char, applies, to=n), (at, m.end())))
        if limit:
            out.effects.append((_modify(char, applies, max=n), (limit.start(), limit.end())))
    if limit:
        t.take(limit.start(), limit.end())
    return out


def _reroll_which(
    text: str, a: int, b: int, p: Parts
) -> tuple[Any, list[tuple[str, int, int]], Span | None]:
    """Which results a reroll is for (failed, successful or natural faces) and of which rolls."""
    v = p.values
    nat = v["natural"].search(text, a, b)
    rolls = _roll_names(text[a:b], p)
    rolls = [(r, x + a, y + a) for r, x, y in rolls]
    if nat:
        return [int(nat.group("n"))], rolls, (nat.start(), nat.end())
    fail = v["failed"].search(text, a, b)
    if fail:
        return "failed", rolls, (fail.start(), fail.end())
    ok = v["successful"].search(text, a, b)
    if ok:
        return "successful", rolls, (ok.start(), ok.end())
    return None, rolls, None


def _frame_reroll(
    t: _Text, a: int, b: int, verb: _Verb, vm: re.Match[str], p: Parts, who: str | None
) -> _Read:
    out = _Read()
    which, rolls, wspan = _reroll_which(t.text, a, b, p)
    if which is None or not rolls:
        out.blocked = "which rolls are rerolled is not read"
        return out
    applies = _applies(who)
    if who == "attack":
        applies = None
    owner = p.values.get("roll_owner")
    for om in list(owner.finditer(t.text, a, b)) if owner else ():
        t.take(om.start(), om.end())  # the bearer's own rolls: no condition
    against = p.values.get("against_bearer")
    if against:
        am = against.search(t.text, a, b)
        if am:
            applies = "enemy"
            t.take(am.start(), am.end())
    for rm in list(p.values["rolling"].finditer(t.text, a, b)):
        t.take(rm.start(), rm.end())
    for roll, x, y in rolls:
        extra: dict[str, Any] = {"reroll": which}
        if verb.may:
            extra["may"] = True
        effect = _roll(roll, applies, **extra)
        out.effects.append((effect, (min(x, vm.start()), max(y, vm.end()))))
        t.take(x, y)
    if wspan:
        t.take(*wspan)
    return out


def _frame_roll_sub(t: _Text, start: int, vm: re.Match[str], p: Parts) -> _Read:
    out = _Read()
    rolls = [(r, x + start, y + start) for r, x, y in _roll_names(t.text[start : vm.start()], p)]
    if not rolls:
        out.blocked = "no roll named before 'subject to'"
        return out
    drop = "lowest" if _named(vm, "max") else "highest"
    for roll, x, y in rolls:
        out.effects.append(
            ({"op": "roll", "roll": roll, "extra_dice": 1, "drop": drop}, (x, vm.end()))
        )
        t.take(x, y)
    return out


def _frame_need(t: _Text, vm: re.Match[str], p: Parts, key: str) -> _Read:
    out = _Read()
    m = p.values["need"].search(t.text, vm.end(), min(len(t.text), vm.end() + 12))
    roll = "to-hit" if _named(vm, "hit") else "to-wound"
    if m is None:
        out.blocked = "the roll needed is not read"
        return out
    bound = p.values.get("need_bound")
    if key == "need" and bound is not None and bound.search(t.text, vm.end(), m.start()):
        key = "need_max"  # "wounds on at least 3+": never worse than 3+
        t.take(vm.end(), m.start())
    out.effects.append(
        ({"op": "roll", "roll": roll, key: int(m.group("n"))}, (vm.start(), m.end()))
    )
    t.take(m.start(), m.end())
    return out


def _frame_lose(
    t: _Text, vm: re.Match[str], p: Parts, who: str | None, states: Sequence[str]
) -> _Read:
    """ "Attacks against the bearer with X and/or Y lose these Attack Attributes": the
    attacker's X and Y do nothing against the bearer. Any other rule lost (the bearer's own,
    "loses Scoring") is a change no effect here describes: not read."""
    out = _Read()
    back = p.values.get("lose_back")
    m = back.match(t.text, vm.end()) if back else None
    lost = [
        x.removeprefix("target-has:")
        for s in states
        for x in s.split(" | ")
        if x.startswith("target-has:")
    ]
    if who != "against" or m is None or not lost:
        out.partial = "a rule lost is not read"
        return out
    for rule in lost:
        out.effects.append(({"op": "ignore", "what": rule}, (vm.start(), m.end())))
    t.take(m.start(), m.end())
    return out


@dataclass(slots=True)
class _Parsed:
    """What one clause's parts say, before its effects get their conditions."""

    who: str | None = None
    who_when: list[str] = field(default_factory=list)  # what the subject states ("Charging")
    frame: str | None = None
    negated: bool = False
    situations: list[str] = field(default_factory=list)
    lead: tuple[list[str], str | None, bool] = ([], None, False)
    read: _Read = field(default_factory=_Read)
    named: bool = False  # the clause names a game quantity


def _subject(t: _Text, p: Parts, ctx: Context, pos: int) -> tuple[str | None, list[str], int]:
    """Who a clause is for, read at `pos`: (who, what its words state, where it ends)."""
    for i in t.may(p).who:
        role, pattern = p.who[i]
        wm = pattern.match(t.text, pos)
        if wm is None or wm.end() == pos or _word_at(t.text, wm.end()):
            continue
        g = _groups(wm)
        states: list[str] = []
        if "charging" in g:
            states.append("enemy-charging")
        if any(k.startswith("selfcharging") for k in g):
            states.append("charging")
        if "melee" in g:
            states.append("melee")
        if "shooting" in g:
            states.append("shooting")
        weapon = g.get("weapon") or g.get("weapon2")
        if weapon and (ctx.name is None or not _same_weapon(slugify(weapon), _fold(ctx.name))):
            states.append(f"has:{slugify(weapon)}")
        if "rules" in g:  # "attacks against the bearer with Lethal Strike": the attacker's
            names = [x for x in re.split(r",? and/or |,? or |,? and |, ", g["rules"]) if x]
            states.append(" | ".join(f"target-has:{slugify(x)}" for x in names))
        t.take(wm.start(), wm.end())
        if role == "inherit":
            if ctx.who == "lost":
                return "lost", [], wm.end()
            return ctx.who or "model", list(ctx.who_when), wm.end()
        return role, states, wm.end()
    return None, [], pos


def _verb(t: _Text, p: Parts, pos: int) -> tuple[_Verb | None, re.Match[str] | None]:
    """The clause's verb: the first of the data's verbs found ("has its Strength set to" is
    set, not have)."""
    for i in t.may(p).verbs:
        found = p.verbs[i].pattern.search(t.text, pos)
        if found:
            return p.verbs[i], found
    return None, None


def read_clause_parts(
    t: _Text,
    p: Parts,
    ctx: Context,
    quantities: Sequence[tuple[Quantity, int, int]],
    raw: str,
) -> _Parsed:
    """Read one clause (its view text in `t`, the sentence as written in `raw`)."""
    out = _Parsed()
    # it names a game quantity: a number, a roll, a characteristic (or a situation, below)
    out.named = bool(
        quantities
        or p.any_roll.search(t.text)
        or p.named_char.search(t.text)
        or p.counts.search(t.text)
    )
    pos = _skip(t.text, 0)
    m = p.fillers.match(t.text, pos)
    while m and m.end() > pos:
        t.take(m.start(), m.end())
        pos = _skip(t.text, m.end())
        m = p.fillers.match(t.text, pos)
    lm = p.lead.match(t.text, pos)
    if lm:  # a condition of this clause only ("..., and, when using a Sky Reaper, +2 to-hit")
        g = "when" if lm.group("when") else "at"
        x, y = t.span(lm.start(g), lm.end(g))
        out.lead = _lead_condition(lm, p, ctx, raw[x:y])
        t.take(lm.start(), lm.end())
        pos = _skip(t.text, lm.end())
    out.who, out.who_when, pos = _subject(t, p, ctx, pos)
    verb, vm = _verb(t, p, pos)
    read = out.read
    if verb is not None and vm is not None and verb.frame == "forbid":
        # what is forbidden is read before the situations ("make Close Combat Attacks")
        actions = p.enemy_actions if out.who == "enemy" else p.actions
        for action, pattern in actions:
            for am in list(pattern.finditer(t.text, vm.end())):
                if _inside_brackets(t.text, am.start()):
                    continue  # "(unless already Fleeing)": an aside
                read.effects.append(({"op": "forbid", "action": action}, (am.start(), am.end())))
                t.take(am.start(), am.end())
    if verb is None or vm is None:
        out.situations = _situations(t, p, _own(ctx))
        out.named = out.named or bool(out.situations)
        implicit = t.text[pos:].lstrip(" " + BLANK)
        bare = out.who is None and not p.any_verb.search(t.text, pos)
        if bare and (_SIGNED.match(implicit) or p.char_first.match(implicit)):
            # a line made only of values ("+1 Strength, +1 Armour Penetration.") gives them;
            # after a condition of its own ("..., and, when using a Spear, +1 to hit") they
            # are the clause before's, its verb left out
            out.who, out.frame = "model", "gain"
            if lm:
                out.who = ctx.who or "model"
                out.who_when = [*ctx.who_when, *out.who_when]
            out.read = _frame_gain(t, pos, p, out.who, quantities, raw)
            if not out.read.effects or out.read.partial:
                out.read.blocked = "no verb"
            if out.who == "lost":
                out.read.blocked = "who the clause is for is not read"
            return out
        read.blocked = "no verb read"
        return out
    if verb.frame == "set":  # "has the Strength of its Close Combat Attacks set to 4"
        of = p.values["of_attacks"].search(t.text, pos, vm.start())
        if of:
            if out.who is None:  # "..., and has the Strength of its attacks set to 4"
                out.who_when = [*ctx.who_when, *out.who_when]
            out.who = "attack" if out.who in (None, "model") else out.who
            out.who_when += [w for w in ("melee", "shooting") if of.group(w)]
            t.take(of.start(), of.end())
    # the subject's situations ("A Charging model part using a Pistol"): "their ..." keeps them
    subject = _situations(t, p, _own(ctx), 0, vm.start())
    out.situations = subject + [w for w in _situations(t, p, _own(ctx)) if w not in subject]
    out.who_when += [w for w in subject if w not in out.who_when]
    out.named = out.named or bool(out.situations)
    if out.who is None:  # a situation first ("При нападении модель получает ..."), then who
        after = _skip(t.text, pos)
        if after < vm.start():
            who, states, end = _subject(t, p, ctx, after)
            if who is not None:
                out.who, pos = who, end
                out.who_when += [w for w in states if w not in out.who_when]
    between = re.findall(r"[^\W_]+", t.text[pos : vm.start()])
    opens = p.any_verb.match(t.text, _skip(t.text, pos))  # "..., and have their Strength set"
    shared = opens or all(p.adverbs.match(w) for w in between)
    if out.who is None and shared:
        out.who, out.who_when = ctx.who or "model", [*ctx.who_when, *out.who_when]
    t.take(vm.start(), vm.end())
    who, frame = out.who, verb.frame
    out.frame = frame
    # a verb about a roll or a value names a game quantity itself ("is subject to Maximised
    # Roll", "must reroll", "is set to")
    out.named = out.named or frame in (
        "roll-sub",
        "reroll",
        "rerolled",
        "auto",
        "need",
        "never",
        "strike",
        "set",
        "lose",
        "exempt",
    )
    if verb.negated:
        out.negated = True
        read.blocked = "a negated verb"
        return out
    # a subject no part reads ("Gnawers gain Impact Hits"): read the rest as if for the
    # bearer, so that what the clause would give makes it a clause not read, then withhold it
    unknown = who is None and frame not in ("set", "rerolled", "roll-sub", "restrict")
    if unknown:
        who = "model"
    if frame in ("gain", "have"):
        out.read = read = _frame_gain(t, vm.end(), p, who, quantities, raw, frame == "have")
    elif frame == "set":
        out.read = read = _frame_set(t, vm.end(), vm, p, who, pos)
    elif frame == "become":
        _grants(t, vm.end(), len(t.text), p, raw, read, _applies(who))
    elif frame == "reroll":
        out.read = read = _frame_reroll(t, vm.end(), len(t.text), verb, vm, p, who)
        if who == "attack" and any(e.get("applies_to") == "enemy" for e, _ in read.effects):
            # "Attacks with Flaming Attacks must reroll ... rolls against the model": the
            # attacks are the enemy's, so what they have is the other side's
            out.who_when = [f"target-{w}" if w.startswith("has:") else w for w in out.who_when]
    elif frame == "rerolled":
        out.read = read = _frame_reroll(t, pos, vm.start(), verb, vm, p, who)
    elif frame == "roll-sub":
        out.read = read = _frame_roll_sub(t, pos, vm, p)
    elif frame == "auto":
        roll = "to-hit" if _named(vm, "hit") else "to-wound"
        read.effects.append(
            ({"op": "roll", "roll": roll, "result": "pass"}, (vm.start(), vm.end()))
        )
    elif frame == "pass":
        after = t.text[vm.end() :]
        for tm in list(p.values["tests"].finditer(after)):
            x, y = vm.end() + tm.start(), vm.end() + tm.end()
            for name in p.values["alternatives"].split(tm.group("test").strip()):
                test = _test_id(name, p)
                if test:
                    read.effects.append(({"op": "auto-pass", "test": test}, (x, y)))
                elif name:
                    read.partial = read.partial or f"the test {name!r} is not read"
            t.take(x, y)
    elif frame == "strike":
        for q, qa, qb in quantities:
            if qa >= vm.end() and q.type == "initiative-step" and isinstance(q.value, int):
                read.effects.append(({"op": "strike-at", "step": q.value}, (vm.start(), qb)))
                t.take(qa, qb)
                break
    elif frame == "lose":
        out.read = read = _frame_lose(t, vm, p, who, out.who_when)
    elif frame == "need":
        out.read = read = _frame_need(t, vm, p, "need")
    elif frame == "never":
        key = "need_min" if _named(vm, "better") else "need_max"
        out.read = read = _frame_need(t, vm, p, key)
    elif frame not in ("forbid", "restrict"):  # forbid: read above; restrict: see Clause
        read.blocked = f"the verb of frame {frame!r} is not read into effects"
    if frame in ("reroll", "rerolled", "pass", "roll-sub") and read.effects:
        text = _BRACKET.sub(lambda m: " " * len(m.group(0)), t.text)
        left = p.values["unknown_roll"].search(text)
        if left:
            read.partial = read.partial or f"{left.group(0)!r} is not read"
    gap = re.findall(r"[^\W_]+", t.text[pos : vm.start()])
    if not all(p.adverbs.match(w) or p.glue.match(w) for w in gap):
        # "A model that has lost one or more Health Points ... suffers", "the Offensive Skill
        # of models in a unit joined by ... is set to 6": the subject is not (only) the
        # bearer, in words no part reads; a verb right after the subject ("gain +1 Armour
        # Penetration, become Magical Attacks") is a verb phrase not read, the subject read
        if p.any_verb.match(t.text, _skip(t.text, pos)):
            read.blocked = read.blocked or "a verb before the one read is not read"
        else:
            read.blocked = read.blocked or "who the clause is for is narrowed in words not read"
    if who == "enemy" and any(e["op"] in ("grant", "multiple-wounds") for e, _ in read.effects):
        read.blocked = read.blocked or "a rule granted to enemies"
    if who == "against" and any(
        e["op"] not in ("modify", "roll", "ignore") for e, _ in read.effects
    ):
        read.blocked = read.blocked or "only modifiers of attacks against the bearer are read"
    if unknown or who == "lost":  # "lost": the subject before was not read
        read.blocked = "who the clause is for is not read"
    return out


def _verb_starts(text: str, p: Parts, start: int, maybe: _Maybe) -> list[int]:
    """Where any verb (read or not) starts, in order."""
    found = {m.start() for m in p.predicates.finditer(text, start)}
    for i in maybe.verbs:
        found.update(m.start() for m in p.verbs[i].pattern.finditer(text, start))
    return sorted(found)


def clause_spans(text: str, p: Parts, start: int = 0, maybe: _Maybe | None = None) -> list[Span]:
    """Where a sentence's view text splits into clauses (view offsets from `start`): at a
    separator, and at a conjunction followed by another verb before any number (a verb
    inside a situation, "is not Charging", starts no clause)."""
    hard = [(m.start(), m.end()) for m in p.separators.finditer(text, start)]
    cuts: list[Span] = list(hard)
    conjunctions = [m for m in p.conjunctions.finditer(text, start)]
    verbs: list[int] = []
    if conjunctions:
        plain = _Text(text, View(text), 0, maybe)
        _situations(plain, p)
        for m in list(p.values["not_improved"].finditer(plain.text)):  # a limit, no verb
            plain.take(m.start(), m.end())
        verbs = _verb_starts(plain.text, p, start, plain.may(p))
    last = start
    for m in conjunctions:
        if _inside_brackets(text, m.start()):
            continue
        if not any(last <= v < m.start() for v in verbs):
            continue
        lm = p.lead.match(text, m.end())
        if lm and (_SIGNED.match(text, lm.end()) or p.char_first.match(text, lm.end())):
            # "..., and, when using a Spear, +1 to hit": values of their own, the verb left out
            cuts.append((m.start(), m.end()))
            last = m.end()
            continue
        nxt = next((v for v in verbs if v >= m.end()), None)
        stop = next((a for a, _ in hard if a >= m.end()), len(text))
        if nxt is None or nxt >= stop or re.search(r"\d", text[m.end() : nxt]):
            continue
        between = text[m.end() : nxt].split()
        while between and between[0] in ("and", "or", "but", "nor"):
            between = between[1:]
        if between and not (
            all(p.adverbs.match(w) for w in between) or p.clause_starts.match(between[0])
        ):
            continue  # a list goes on ("Panic Tests and Decimated Tests and cannot ...")
        cuts.append((m.start(), m.end()))
        last = m.end()
    cuts.sort()
    out: list[Span] = []
    at = start
    for a, b in cuts:
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < len(text):
        out.append((at, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip(" ,." + BLANK)]


def read_sentence(
    sentence: str,
    lang: str,
    quantities: Sequence[Quantity],
    offset: int,
    ctx: Context,
) -> list[Clause]:
    """The clauses of one sentence at `offset` in its paragraph (spans in the paragraph);
    `quantities` are the paragraph's. Updates `ctx.who` for the sentence after."""
    p = parts(lang)
    v = view(sentence, p.on, lang)
    text = mark_self(v.text, ctx.name, lang, p.on)
    pos = 0
    m = p.fillers.match(text)
    if m:
        pos = m.end()
    lead: tuple[list[str], str | None, bool] = ([], None, False)
    bullet = bool(p.bullet.match(text))
    if bullet and ctx.carry is not None:
        lead = (list(ctx.carry[0]), ctx.carry[1], ctx.carry[2])
    elif not bullet:
        ctx.carry = None
    lm = p.lead.match(text, pos)
    lead_end = pos
    if lm:
        g = "when" if lm.group("when") else "at"
        own = _lead_condition(lm, p, ctx, sentence[v.start(lm.start(g)) : v.end(lm.end(g))])
        free = " & ".join(x for x in (lead[1], own[1]) if x) or None
        lead = ([*lead[0], *own[0]], free, lead[2] or own[2])
        lead_end = lm.end()
        if p.bullet.match(text, lead_end):  # the condition of a list's items
            ctx.carry = (tuple(lead[0]), lead[1], lead[2])
    maybe = _Maybe.of(text, p)
    if not maybe.verbs and not _names_a_quantity(text, p, maybe, sentence, quantities, offset):
        # no verb to read and nothing a player counts: one clause that needs no reading
        ctx.carry = ctx.carry if bullet else None
        end = len(sentence.rstrip(" .,;"))
        return [Clause((offset, offset + end), None, None, False, (), (), "none")] if end else []
    spans = clause_spans(text, p, lead_end, maybe)
    # a lead's own words name a quantity too ("If one or more Resilience Tests are failed")
    head = text[:lead_end]
    lead_named = bool(lead[0] or p.any_roll.search(head) or p.named_char.search(head))
    lead_named = lead_named or bool(p.counts.search(head))
    if spans and lead_end > 0:
        spans[0] = (0, spans[0][1])
    out: list[Clause] = []
    held = ""  # a condition no part reads that opens the sentence ("The first time X, it ...")
    for ca, cb in spans:
        ctext = text[ca:cb]
        if ca == 0 and lm:
            ctext = BLANK * (lead_end) + text[lead_end:cb]
        t = _Text(ctext, v, ca, maybe)
        inside = []
        for q in quantities:
            qa, qb = q.span[0] - offset, q.span[1] - offset
            sa, sb = v.start(ca), v.end(cb)
            if sa <= qa and qb <= sb:
                inside.append((q, _to_view(v, qa, text) - ca, _to_view(v, qb, text, end=True) - ca))
        parsed = read_clause_parts(t, p, ctx, inside, sentence)
        read = parsed.read
        when_parts = [*ctx.header, *lead[0], *parsed.lead[0], *parsed.situations]
        when_parts += [w for w in parsed.who_when if w not in when_parts]
        free = " & ".join(x for x in (lead[1], parsed.lead[1]) if x) or None
        blocked = read.blocked
        if lead[2] or parsed.lead[2]:
            blocked = blocked or "its condition points back to another sentence"
        if ctx.blocked:
            blocked = blocked or "a one-use, activated or special effect"
        blocked = blocked or held
        left = _leftovers(t, inside)
        cue_spans = _cues(t, p, p.cues)
        narrow = _cues(t, p, p.narrowing)
        first = (cue_spans or narrow)[:1]
        cue = sentence[first[0][0] : first[0][1]] if first else ""
        restricts: tuple[str, ...] = ()
        restricted = parsed.frame == "restrict" and not cue and not blocked
        restricted = restricted and bool(parsed.situations)
        if restricted:
            restricts = tuple(w for w in parsed.situations if w not in ctx.header)
        if cue and (read.effects or parsed.frame == "restrict"):
            blocked = blocked or f"{cue!r} is not read"
        effects: list[dict[str, Any]] = []
        if not blocked:
            for effect, (x, y) in read.effects:
                e = dict(effect)
                conds = _join(e.get("when"), when_parts, free)
                if conds:
                    e["when"] = conds
                a, b = t.span(x, y)
                e["span"] = [offset + a, offset + b]
                effects.append(e)
        named = parsed.named or bool(when_parts and read.effects) or lead_named
        if effects or restricted:
            state = "partial" if left or read.partial else "read"
        elif parsed.frame == "restrict":  # the rule's effects hold only where it says
            state = "unread"
            blocked = blocked or "the restriction of the whole rule is not read"
        else:  # an effect withheld (a condition not read) is a clause not read
            # a frame that began to read and stopped ("words after 'Impact Hits' not read")
            state = "unread" if named or read.effects or read.partial else "none"
        why = blocked or read.partial or ("a number not read" if left else "")
        a, b = v.start(ca), v.end(cb)
        while b > a and sentence[b - 1] in " .,;":
            b -= 1
        out.append(
            Clause(
                span=(offset + a, offset + b),
                who=parsed.who,
                frame=parsed.frame,
                negated=parsed.negated,
                situations=tuple(when_parts),
                effects=tuple(effects),
                state=state,
                why=why if state != "read" else "",
                cue=cue,
                cues=tuple((offset + x, offset + y) for x, y in cue_spans),
                restricts=restricts,
            )
        )
        if parsed.frame is not None and read.blocked.startswith("who the clause is for"):
            ctx.who = "lost"
        elif parsed.frame is not None and parsed.who is not None:
            ctx.who, ctx.who_when = parsed.who, tuple(parsed.who_when)
        if parsed.frame is None and cue_spans and not held:
            held = f"{cue!r} before it is not read"
    return out


def _names_a_quantity(
    text: str, p: Parts, maybe: _Maybe, sentence: str, quantities: Sequence[Quantity], offset: int
) -> bool:
    """Whether a sentence may name a game quantity: a number, a roll, a characteristic named
    in full, a number word, or a situation's words."""
    end = offset + len(sentence)
    return bool(
        maybe.situations
        or any(offset <= q.span[0] < end for q in quantities)
        or p.any_roll.search(text)
        or p.named_char.search(text)
        or p.counts.search(text)
    )


def _to_view(v: View, i: int, text: str, end: bool = False) -> int:
    """The view offset of sentence offset `i` (the text as written is its own view)."""
    if v._parts is None:
        return i
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        if (v.end(mid) if end else v.start(mid)) < i:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _join(own: Any, parts_: Sequence[str], free: str | None) -> str | None:
    found: list[str] = []
    for part in [
        *(str(own).split(" & ") if own else []),
        *(x for p in parts_ for x in p.split(" & ")),
    ]:
        if part and part not in found:
            found.append(part)
    if free and free not in found:
        found.append(free)
    return " & ".join(found) or None


def _leftovers(t: _Text, inside: Sequence[tuple[Quantity, int, int]]) -> list[Span]:
    """Quantities of the clause no part read (outside brackets)."""
    out = []
    for _q, a, b in inside:
        if (
            0 <= a < b <= len(t.text)
            and BLANK not in t.text[a:b]
            and t.text[a:b].strip()
            and not _inside_brackets(t.text, a)
        ):
            out.append((a, b))
    return out


def _cues(t: _Text, p: Parts, pattern: re.Pattern[str]) -> list[Span]:
    """Where the clause says when or to what it applies in words no part read (spans in
    the sentence; brackets are asides, never conditions)."""
    if not t.may(p).cue:
        return []
    text = _BRACKET.sub(lambda m: " " * len(m.group(0)), t.text) if "(" in t.text else t.text
    return [t.span(m.start(), m.end()) for m in pattern.finditer(text)]


def additional_spans(text: str, lang: str, start: int = 0) -> frozenset[int]:
    """Where the modifiers a text calls additional start ("an additional +1 Armour
    Penetration" is on top of a profile's column, never a restatement of it)."""
    pattern = parts(lang).values["additional"]
    return frozenset(m.end() for m in pattern.finditer(text, start))


def own_label(text: str, start: int, name: str | None, lang: str) -> int:
    """Where a paragraph's text starts after its own name written as a label ("Blessings
    All models ...", "Warden's Bond: ..."), else `start`."""
    p = parts(lang)
    if not name or p.on != "text":
        return start
    pattern = _name_pattern(name, lang, p.on)
    m = pattern.match(text, start) if pattern else None
    if m is None:
        return start
    after = re.compile(r"\s*[:.]?\s+(?=[A-Z])").match(text, m.end())
    if after is None or p.any_verb.match(text, after.end()):
        return start
    return after.end()


def offers_choice(text: str, lang: str) -> bool:
    """Whether a sentence opens a list of alternatives ("choose one of the following"):
    what follows is one the player picks, none of it holds on its own."""
    choices = parts(lang).choices
    return bool(choices and choices.search(text))


def activated(text: str, lang: str) -> bool:
    """Whether a rule's text makes it an effect the player activates or spends ("One use
    only."): none of its clauses holds on its own."""
    cues = parts(lang).rule_cues
    return bool(cues and cues.search(text))
