"""The comparison of meaning: what a translation must keep of each sentence, read without
reading a whole effect.

Rule sentences carry their meaning in a few words that survive any wording: whether the
rule forbids, allows or requires ("cannot" / "не может", "нельзя", "запрещено"), whether
something is gained or lost, which roll and which characteristic, in which situation
(charging, the first round, a facing, shooting) and who is affected (enemies, friends,
attacks against the model). Each sentence is read into such marks from
`pipeline/lang/<code>/meaning.yaml` (characteristics from the quantity grammar's names), and
the marks of each aligned group of sentences (`beads`) are compared. A difference is a
warning naming both spans and what the translation changes, in a translator's words. A
sentence with no marks says nothing here, so a side that cannot be read is never reported.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import NamedTuple

from ..lang import ENGLISH, data_languages
from ..lang import data as lang_data
from ..quantities import characteristic_names
from .beads import Bead
from .model import Finding, Span
from .text import mask_tags

CHECK = "effect_mismatch"
CHARACTERISTIC = "characteristic"
# Families whose values name a situation a rule holds in; those a translation may add
# without changing much (a facing, shooting) are reported only when changed or dropped.
SITUATIONS = ("reroll", "charge", "round", "turn", "facing", "attack")
_ADDED_MATTERS = frozenset({"reroll", "charge", "round", "turn"})
# Families that help the sentence aligner tell sentences apart (anchors).
ANCHORING = frozenset({"roll", CHARACTERISTIC, *SITUATIONS, "side"})
_NEGATIVE = ("forbid", "never", "not")
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_DIGIT = re.compile(r"\d")


class Mark(NamedTuple):
    """One word of meaning in a text: its family ("modality"), value ("forbid") and span."""

    family: str
    value: str
    span: Span


@dataclass(frozen=True, slots=True)
class _Reader:
    pattern: re.Pattern[str] | None
    groups: dict[str, tuple[str, str]]  # group name -> (family, value)


@cache
def _reader(lang: str) -> _Reader:
    """One pattern for all the marks of a language, each value a named group, in the data's
    order (so that at one place the value listed first wins)."""
    raw = lang_data(lang, "meaning", fallback=False).get("marks") or {}
    parts, groups = [], {}
    for family, values in raw.items():
        for value, patterns in (values or {}).items():
            name = f"g{len(groups)}"
            groups[name] = (str(family), str(value))
            parts.append(f"(?P<{name}>{'|'.join(f'(?:{p})' for p in patterns)})")
    # one `\b` for all: the engine tries the values only where a word begins
    return _Reader(re.compile(r"\b(?:" + "|".join(parts) + ")") if parts else None, groups)


@cache
def names() -> dict[str, str]:
    """The words findings use for each value (English data)."""
    out = {str(k): str(v) for k, v in (lang_data(ENGLISH, "meaning").get("names") or {}).items()}
    for forms in characteristic_names(ENGLISH)[:2]:
        for form, slug in forms.items():
            if len(form) > 3:  # the full name, not an abbreviation
                out.setdefault(slug, form.title() if form.islower() else form)
    return out


class _Read(NamedTuple):
    """A sentence's marks (spans in the sentence) and how many of each value it has."""

    marks: tuple[Mark, ...]
    count: Counter[str]


# Sentences read, by language and text: sentences repeat across a translation memory.
_KEPT = 50_000
_known: dict[tuple[str, str], _Read] = {}


_LONGEST_KEPT = 2_000  # characters: a longer sentence is read each time, not kept


def _read(sentence: str, lang: str) -> _Read:
    key = (lang, _DIGIT.sub("0", sentence))  # numbers say nothing here; their length does
    got = _known.get(key)
    if got is None:
        found = _marks(sentence, lang)
        got = _Read(found, Counter(m.value for m in found))
        if len(sentence) <= _LONGEST_KEPT:
            if len(_known) >= _KEPT:
                _known.clear()
            _known[key] = got
    return got


def reads(lang: str) -> bool:
    """Whether the language has marks of meaning to compare."""
    return _reader(lang).pattern is not None


def unmarked(text: str, spans: Sequence[Span], lang: str) -> int:
    """How many of the sentences have no mark of meaning: nothing of them is compared."""
    return sum(1 for a, b in spans if not _read(text[a:b], lang).marks)


def marks(text: str, span: Span, lang: str) -> tuple[Mark, ...]:
    """The marks of the sentence `text[span]`, with spans in `text`."""
    a, b = span
    got = _read(text[a:b], lang).marks
    return tuple(Mark(m.family, m.value, (m.span[0] + a, m.span[1] + a)) for m in got) if a else got


def _marks(sentence: str, lang: str) -> tuple[Mark, ...]:
    reader = _reader(lang)
    if reader.pattern is None:
        return ()
    masked = mask_tags(sentence)
    low = masked.lower().replace("ё", "е")
    if len(low) != len(masked):  # a letter whose lower case is longer: keep offsets right
        low = "".join(ch.lower()[:1] for ch in masked).replace("ё", "е")
    out = [
        Mark(*reader.groups[m.lastgroup], m.span())
        for m in reader.pattern.finditer(low)
        if m.lastgroup is not None
    ]
    rolls = [m.span for m in out if m.family == "roll"]
    out += _characteristics(masked, lang, rolls)
    out.sort(key=lambda m: m.span)
    return tuple(out)


@cache
def _first_words(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """The first words of the characteristics' names, as written and in lower case: the
    only words where a name may begin."""
    exact, folded, _ = characteristic_names(lang)
    return (
        frozenset(f.split()[0] for f in exact),
        frozenset(f.split()[0] for f in folded),
    )


def _characteristics(text: str, lang: str, skip: list[Span]) -> list[Mark]:
    """Characteristics named in `text` (the longest name at each word), outside `skip`
    (the "Discipline" of a Discipline Test is the test's)."""
    exact, folded, most = characteristic_names(lang)
    first_exact, first_folded = _first_words(lang)
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    out: list[Mark] = []
    nxt = 0
    for i, (word, a, _) in enumerate(words):
        if i < nxt or (word not in first_exact and word.lower() not in first_folded):
            continue
        for n in range(min(most, len(words) - i), 0, -1):
            phrase = " ".join(w for w, _, _ in words[i : i + n])
            slug = exact.get(phrase) or folded.get(phrase.lower())
            if slug is None:
                continue
            if not any(s <= a < e for s, e in skip):
                out.append(Mark(CHARACTERISTIC, slug, (a, words[i + n - 1][2])))
            nxt = i + n
            break
    return out


def anchors(text: str, spans: Sequence[Span], lang: str) -> list[tuple[int, str]]:
    """(position, key) of the marks that tell sentences apart, for the sentence aligner."""
    return [
        (m.span[0], f"m:{m.value}")
        for span in spans
        for m in marks(text, span, lang)
        if m.family in ANCHORING
    ]


@dataclass(frozen=True, slots=True)
class Change:
    """One thing the translation changes: what, and where on each side."""

    message: str
    source: Span | None
    target: Span | None
    expected: str
    found: str
    term: bool = False  # a word that names a thing (a roll, a characteristic), not a grammar


class _Side:
    """The marks of one side of a bead, counted and found by value."""

    def __init__(self, text: str, found: Iterable[Mark], count: Counter[str] | None = None):
        self.text = text
        self.marks = list(found)
        self.count = count if count is not None else Counter(m.value for m in self.marks)
        self.families: dict[str, set[str]] = {}
        for m in self.marks:
            self.families.setdefault(m.family, set()).add(m.value)

    def n(self, *values: str) -> int:
        return sum(self.count[v] for v in values)

    def first(self, *values: str) -> Mark | None:
        return next((m for m in self.marks if m.value in values), None)

    def said(self, mark: Mark | None) -> str:
        return self.text[mark.span[0] : mark.span[1]] if mark else ""

    def of(self, family: str) -> set[str]:
        return self.families.get(family, set())


def _quote(side: _Side, mark: Mark | None) -> str:
    words = side.said(mark)
    return f" ({words!r})" if words else ""


def _change(message: str, s: _Side, sm: Mark | None, t: _Side, tm: Mark | None) -> Change:
    return Change(
        message,
        sm.span if sm else None,
        tm.span if tm else None,
        s.said(sm),
        t.said(tm),
    )


def _swapped(
    s: _Side, t: _Side, lost: tuple[str, ...], won: tuple[str, ...], text: str
) -> Change | None:
    """The source has more of `lost` and the translation more of `won`: `text` says how,
    with {s} and {t} the words of each side."""
    if s.n(*lost) > t.n(*lost) and t.n(*won) > s.n(*won):
        sm, tm = s.first(*lost), t.first(*won)
        return _change(text.format(s=_quote(s, sm), t=_quote(t, tm)), s, sm, t, tm)
    return None


def _modality(s: _Side, t: _Side) -> Change | None:
    return (
        _swapped(
            s,
            t,
            ("forbid",),
            ("permit", "oblige"),
            "the source forbids this{s}; the translation allows it{t}",
        )
        or _swapped(
            s,
            t,
            ("permit", "oblige"),
            ("forbid",),
            "the source allows this{s}; the translation forbids it{t}",
        )
        or _swapped(
            s,
            t,
            ("oblige",),
            ("permit",),
            "the source requires this{s}; the translation only allows it{t}",
        )
        or _swapped(
            s,
            t,
            ("permit",),
            ("oblige",),
            "the source allows this{s}; the translation requires it{t}",
        )
        or _swapped(
            s, t, ("never",), ("always",), "the source says never{s}; the translation always{t}"
        )
        or _swapped(
            s, t, ("always",), ("never",), "the source says always{s}; the translation never{t}"
        )
    )


def _negation(s: _Side, t: _Side) -> Change | None:
    """A plain negation ("does not", "не") on one side only, the other side negating
    nothing at all (a prohibition or "never" is compared as modality)."""
    if s.n("not") and not t.n(*_NEGATIVE):
        sm = s.first("not")
        return _change(
            f"the source negates this{_quote(s, sm)}; the translation does not", s, sm, t, None
        )
    if t.n("not") and not s.n(*_NEGATIVE):
        tm = t.first("not")
        return _change(
            f"the translation negates this{_quote(t, tm)}; the source does not", s, None, t, tm
        )
    return None


def _replaced(s: _Side, t: _Side, family: str) -> Change | None:
    """One value of `family` in the source, another in the translation (neither side
    naming the other's)."""
    lost, won = s.of(family) - t.of(family), t.of(family) - s.of(family)
    if not (lost and won):
        return None
    sm = next(m for m in s.marks if m.value in lost)
    tm = next(m for m in t.marks if m.value in won)
    name = names()
    message = (
        f"the source says {name.get(sm.value, sm.value)}{_quote(s, sm)}, the translation"
        f" {name.get(tm.value, tm.value)}{_quote(t, tm)}"
    )
    change = _change(message, s, sm, t, tm)
    return replace(change, term=True) if family in ("roll", CHARACTERISTIC) else change


def _situation(s: _Side, t: _Side, family: str) -> Change | None:
    name = names()
    if s.of(family) and t.of(family):
        return _replaced(s, t, family)
    if s.of(family):
        sm = next(m for m in s.marks if m.family == family)
        return _change(
            f"the translation leaves out {name.get(sm.value, sm.value)}{_quote(s, sm)}",
            s,
            sm,
            t,
            None,
        )
    if t.of(family) and family in _ADDED_MATTERS:
        tm = next(m for m in t.marks if m.family == family)
        return _change(
            f"the translation adds {name.get(tm.value, tm.value)}{_quote(t, tm)}, which the"
            " source does not say",
            s,
            None,
            t,
            tm,
        )
    return None


def _who(s: _Side, t: _Side) -> Change | None:
    changed = _replaced(s, t, "side")
    if changed is not None:
        return changed
    if "enemy" in t.of("side") and not s.of("side"):
        tm = t.first("enemy")
        return _change(
            f"the translation speaks of enemy models{_quote(t, tm)}; the source does not",
            s,
            None,
            t,
            tm,
        )
    for one, other, side in ((s, t, "source"), (t, s, "translation")):
        if one.of("against") and not other.of("against"):
            mark = one.first("against")
            rest = "translation" if side == "source" else "source"
            message = (
                f"the {side} speaks of attacks against the model{_quote(one, mark)}; the"
                f" {rest} does not"
            )
            if side == "source":
                return _change(message, s, mark, t, None)
            return _change(message, s, None, t, mark)
    return None


def _overlaps(change: Change, spans: tuple[Sequence[Span], Sequence[Span]]) -> bool:
    return any(
        mine is not None and any(a < mine[1] and mine[0] < b for a, b in theirs)
        for mine, theirs in zip((change.source, change.target), spans, strict=True)
    )


def _direction(s: _Side, t: _Side) -> Change | None:
    return _swapped(
        s, t, ("loss",), ("gain",), "the source's loss{s} is a gain in the translation{t}"
    ) or _swapped(
        s, t, ("gain",), ("loss",), "the source's gain{s} is a loss in the translation{t}"
    )


def _outcome(s: _Side, t: _Side) -> Change | None:
    return _swapped(
        s,
        t,
        ("failed",),
        ("passed",),
        "the source's failed roll{s} is a passed one in the translation{t}",
    ) or _swapped(
        s,
        t,
        ("passed",),
        ("failed",),
        "the source's passed roll{s} is a failed one in the translation{t}",
    )


# What each family's difference is compared by, in the order findings list them.
_RULES: tuple[tuple[frozenset[str], Callable[[_Side, _Side], Change | None]], ...] = (
    (frozenset({"modality", "frequency"}), _modality),
    (frozenset({"negation", "modality", "frequency"}), _negation),
    (frozenset({"direction"}), _direction),
    (frozenset({"outcome"}), _outcome),
    (frozenset({"roll"}), lambda s, t: _replaced(s, t, "roll")),
    (frozenset({CHARACTERISTIC}), lambda s, t: _replaced(s, t, CHARACTERISTIC)),
    *(
        (frozenset({f}), lambda s, t, f=f: _situation(s, t, f))  # type: ignore[misc]
        for f in SITUATIONS
    ),
    (frozenset({"action"}), lambda s, t: _replaced(s, t, "action")),
    (frozenset({"side", "against"}), _who),
)


def changes(s: _Side, t: _Side) -> list[Change]:
    """What the translation changes of the source, in a fixed order: only the families
    whose marks differ are compared."""
    if s.count == t.count:
        return []  # the same marks, as many of each: nothing changed that they say
    family = _families()
    differ = {family.get(v, CHARACTERISTIC) for v in (s.count - t.count) | (t.count - s.count)}
    found = [rule(s, t) for families, rule in _RULES if families & differ]
    return [c for c in found if c is not None]


@cache
def _families() -> dict[str, str]:
    """Each value's family, in every language's data."""
    out: dict[str, str] = {}
    for lang in data_languages():
        for family, value in _reader(lang).groups.values():
            out.setdefault(value, family)
    return out


def sides(
    source: str,
    target: str,
    bead: Bead,
    spans: tuple[Sequence[Span], Sequence[Span]],
    langs: tuple[str, str],
) -> tuple[_Side, _Side]:
    """The marks of a bead's source and target sentences."""
    si, sn, tj, tn = bead
    s_sent, t_sent = spans
    s = _Side(source, (m for k in range(si, si + sn) for m in marks(source, s_sent[k], langs[0])))
    t = _Side(target, (m for k in range(tj, tj + tn) for m in marks(target, t_sent[k], langs[1])))
    return s, t


# Sentence groups whose translation changes nothing the marks say, by language pair and
# text (numbers zeroed): a translation memory repeats its sentences and their translations.
_quiet: dict[tuple[str, str, str, str], bool] = {}


def _group(text: str, first: int, n: int, sent: Sequence[Span]) -> str:
    """The sentences of a group as one key, their numbers zeroed."""
    return "\n".join(_DIGIT.sub("0", text[a:b]) for a, b in sent[first : first + n])


def compare(
    pair_id: str,
    source: str,
    target: str,
    beads: Sequence[Bead],
    spans: tuple[Sequence[Span], Sequence[Span]],
    langs: tuple[str, str],
    terms: Callable[[], tuple[Sequence[Span], Sequence[Span]]] | None = None,
) -> list[Finding]:
    """A warning for each bead whose translation changes the meaning of its source: what
    changes, with the words of both sides. `terms` gives the spans of glossary terms without
    a rendering on the other side: a characteristic or roll changed there is the glossary's
    finding (one finding for one wrong word)."""
    if not (reads(langs[0]) and reads(langs[1])):
        return []
    out = []
    for bead in beads:
        si, sn, tj, tn = bead
        if not (sn and tn):
            continue
        key = (*langs, _group(source, si, sn, spans[0]), _group(target, tj, tn, spans[1]))
        if _quiet.get(key):
            continue
        s, t = sides(source, target, bead, spans, langs)
        found = changes(s, t)
        if len(key[2]) + len(key[3]) <= 2 * _LONGEST_KEPT:
            if len(_quiet) >= _KEPT:
                _quiet.clear()
            _quiet[key] = not found
        if found and terms is not None:
            found = [c for c in found if not (c.term and _overlaps(c, terms()))]
        if not found:
            continue
        first = found[0]
        s_span = first.source or (spans[0][si][0], spans[0][si + sn - 1][1])
        t_span = first.target or (spans[1][tj][0], spans[1][tj + tn - 1][1])
        out.append(
            Finding(
                CHECK,
                "warning",
                pair_id,
                "; ".join(c.message for c in found),
                s_span,
                t_span,
                expected=first.expected or None,
                found=first.found or None,
            )
        )
    return out
