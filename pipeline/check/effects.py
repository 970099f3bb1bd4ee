"""effect_mismatch: a translation that plays differently from its source.

Both texts are read into effects (`pipeline.extract.effects`, the same vocabulary in every
language) and compared op by op on what changes the game: the op, its roll, characteristic,
value, sign, target and the named situations it holds in (`charging`, `first-round`, ...).
Free-text conditions, spans and the names of granted rules (which differ by language) are
not compared. A difference is an error naming both effects in plain words, unless the
sentences say the same where the readers of effects fell short (`explained`: a situation
the marks of meaning find on both sides alike). An
effect with no counterpart where the other side has sentences that read as no effect is
not reported: those sentences may say it in words the patterns do not know, and the pair
counts them as not read (`Compared.unread`). Every aligned sentence group is also compared
by its marks of meaning (`meaning.py`), which needs no whole effect.

When the effects differ, a reference attack (`REFERENCE`) is resolved by the interpreter with
each side's effects, and the finding says what the translation changes in expected
casualties. A dice table on both sides (Markdown or prose, read as extraction reads it) is
rolled on each side by the interpreter, row by row in order (outcomes are words of their
language), and a translation that gives a row another chance is an error saying by how much.
The interpreter (and numpy with it) is imported only when a pair needs it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from ..extract.effects import EffectResult, find_effects
from ..extract.tables import markdown_table, prose_table
from ..quantities import Quantity, find_quantities
from . import meaning
from .beads import Bead
from .model import Finding, Span

CHECK = meaning.CHECK
NAMED = frozenset(
    {"charging", "not-charging", "first-round", "shooting", "front-facing", "first-player-turn"}
)
# The mark of meaning that says a named situation in a sentence.
_SITUATION_MARK = {
    "charging": "charging",
    "first-round": "first-round",
    "shooting": "shooting",
    "front-facing": "front",
    "first-player-turn": "first-turn",
}
_IGNORED = frozenset({"span", "when", "note", "rule"})
REFERENCE: dict[str, Any] = {
    "attacker": {
        "models": 10,
        "attacks": 1,
        "offensive_skill": 4,
        "strength": 4,
        "armour_penetration": 0,
        "agility": 4,
    },
    "defender": {
        "models": 20,
        "defensive_skill": 4,
        "resilience": 4,
        "health_points": 1,
        "armour": 3,
    },
}


def effects_of(
    text: str,
    lang: str,
    quantities: Sequence[Quantity] | None = None,
    spans: Sequence[tuple[int, int]] | None = None,
) -> EffectResult:
    """The effects of one text, read with its quantities and sentences (found here unless
    given)."""
    if quantities is None:
        quantities = find_quantities(text, lang)
    return find_effects(text, lang, quantities, spans=spans)


def prepare(lang: str, interpreter: bool = False) -> None:
    """Read a language's effect patterns and quantity grammar now: done before the workers
    fork, each inherits them instead of compiling them again (0.07 s for English and
    Russian). `interpreter`: import the interpreter as well (a run large enough for
    workers has pairs that need it; each worker would import it again)."""
    find_effects("", lang)
    find_quantities("1", lang)
    meaning.marks("", (0, 0), lang)
    if interpreter:
        _interpreter()


def named_when(effect: Mapping[str, Any]) -> tuple[str, ...]:
    """The named situations of an effect's `when` (free text is not comparable)."""
    parts = str(effect.get("when") or "").split(" & ")
    return tuple(sorted(p.strip() for p in parts if p.strip() in NAMED))


def key(effect: Mapping[str, Any]) -> tuple[Any, ...]:
    """What of an effect must be the same in a faithful translation."""
    fields = tuple(
        sorted((k, _hashable(v)) for k, v in effect.items() if k not in _IGNORED and k != "op")
    )
    return (effect["op"], fields, named_when(effect))


def same(s: Mapping[str, Any], t: Mapping[str, Any]) -> bool:
    """Whether two effects play alike: the same op, named situations and every field both
    state (a field only one side states is a detail read on that side alone, such as an
    attached Strength; a grant's rule name and parameters are words of its language)."""
    if s["op"] != t["op"]:
        return False
    if s["op"] == "grant":
        return True
    if named_when(s) != named_when(t):
        return False
    return not _differing(s, t)


def _differing(s: Mapping[str, Any], t: Mapping[str, Any]) -> list[str]:
    """The fields both effects state with other values."""
    both = (set(s) & set(t)) - _IGNORED
    return sorted(k for k in both if _hashable(s[k]) != _hashable(t[k]))


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


# --- effects in plain words ---------------------------------------------------------------

_CHARACTERISTIC = {"attacks": "Attack Value"}
_ROLL = {
    "to-hit": "rolls to hit",
    "to-wound": "rolls to wound",
    "charge": "Charge Range rolls",
    "special-save": "special saves",
}
_ACTION = {
    "declare-charge": "declare a Charge",
    "be-charged": "be Charged",
    "be-joined-by-characters": "be joined by Characters",
    "close-combat-attacks": "make Close Combat Attacks",
    "declare-flee": "Flee as a Charge Reaction",
    "join-units": "join units",
    "move-normally": "move",
    "shield-against-melee": "use a Shield against Melee Attacks",
    "supporting-attacks": "make Supporting Attacks",
    "use-attack": "use the attack",
}
_NATURAL = {"auto-wound": "wounds automatically", "deny-save": "allows no {save} save"}
_WHEN = {
    "charging": "when charging",
    "not-charging": "when not charging",
    "first-round": "in the first Round of Combat",
    "shooting": "when shooting",
    "front-facing": "against the Front",
    "first-player-turn": "in the first Player Turn",
}


def _raw(value: Any) -> str:
    return str(value)


def _words(name: Any) -> str:
    return str(name).replace("-", " ").replace("_", " ")


def _title(name: Any) -> str:
    return _CHARACTERISTIC.get(str(name)) or _words(name).title()


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) else f"+{value}"


# Ops said by one template, each field written raw, in words or as a title.
_SAID: dict[str, tuple[str, dict[str, Callable[[Any], str]]]] = {
    "strike-at": ("strikes at Initiative Step {step}", {"step": _raw}),
    "multiple-wounds": ("Multiple Wounds ({amount})", {"amount": _raw}),
    "hits": ("suffers {count} hits", {"count": _raw}),
    "test": ("takes a {characteristic} Test", {"characteristic": _title}),
    "auto-pass": ("passes {test} Tests automatically", {"test": _title}),
    "ignore": ("ignores {what}", {"what": _words}),
    "immune": ("is immune to {to}", {"to": _words}),
    "special-save": ("has a {kind} save", {"kind": _title}),
    "table": ("rolls on the {table} table", {"table": _title}),
}


def plain(effect: Mapping[str, Any]) -> str:
    """An effect as a rule would say it: `+1 Strength when charging`, `rerolls failed rolls
    to hit in the first Round of Combat`, `cannot declare a Charge`."""
    e, op = effect, effect["op"]
    roll = _ROLL.get(str(e.get("roll")), f"{_words(e.get('roll'))} rolls")
    if op == "modify":
        said = f"{_signed(e.get('by'))} {_title(e.get('characteristic'))}"
        said += {"attack": " to its attacks", "enemy": " to enemy models"}.get(
            str(e.get("applies_to")), ""
        )
    elif op == "roll" and "modifier" in e:
        said = f"{_signed(e['modifier'])} to {roll}"
    elif op == "roll":
        reroll = e.get("reroll")
        which = (
            f"of {', '.join(map(str, reroll))}" if isinstance(reroll, list) else str(reroll or "")
        )
        said = (
            f"rerolls {which} {roll}"
            if which in ("failed", "successful")
            else f"rerolls {roll} {which}"
        )
    elif op == "forbid":
        action = str(e.get("action"))
        said = "cannot " + _ACTION.get(action, _words(action.removeprefix("use-")))
    elif op == "grant":
        params = f" ({e['params']})" if e.get("params") else ""
        said = f"gains {_title(e.get('rule'))}{params}"
    elif op == "on-natural":
        done = _NATURAL.get(str(e.get("effect")), _words(e.get("effect")))
        if e.get("effect") == "set-ap":
            done = f"sets Armour Penetration to {e.get('ap')}"
        said = f"a natural {e.get('value')} {roll.removeprefix('rolls ')} " + done.format(
            save=_title(e.get("save"))
        )
    elif op in _SAID:
        template, fields = _SAID[op]
        said = template.format(**{k: how(e.get(k)) for k, how in fields.items()})
    else:
        said = _words(op)
    when = [_WHEN[w] for w in named_when(effect)]
    return " ".join([said, *when])


def _span(effect: Mapping[str, Any]) -> tuple[int, int] | None:
    span = effect.get("span")
    return (int(span[0]), int(span[1])) if span else None


def _pairs(
    missing: list[dict[str, Any]], extra: list[dict[str, Any]]
) -> Iterator[tuple[dict[str, Any] | None, dict[str, Any] | None]]:
    """Unmatched effects paired by op (the same op with another value is one change), the
    rest alone."""
    extra = list(extra)
    for s in missing:
        same = [t for t in extra if t["op"] == s["op"]]
        close = [t for t in same if t.get("roll") == s.get("roll")] or same
        if close:
            extra.remove(close[0])
            yield s, close[0]
        else:
            yield s, None
    for t in extra:
        yield None, t


Explained = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]


@dataclass(frozen=True, slots=True)
class Compared:
    """The findings of a pair, and how many sentences of each side say nothing the
    comparison reads (no mark of meaning)."""

    findings: list[Finding]
    unread: tuple[int, int]


def compare(
    pair_id: str,
    source: str,
    target: str,
    source_lang: str,
    target_lang: str,
    quantities: tuple[Sequence[Quantity], Sequence[Quantity]] | None = None,
    sentences: tuple[Sequence[tuple[int, int]], Sequence[tuple[int, int]]] | None = None,
) -> list[Finding]:
    """The effect findings of one pair: its effects, then its dice tables. `quantities` and
    `sentences`: those of source and target when the caller has read them already."""
    qs, qt = quantities if quantities is not None else (None, None)
    ss, st = sentences if sentences is not None else (None, None)
    src = effects_of(source, source_lang, qs, ss)
    tgt = effects_of(target, target_lang, qt, st)
    return compare_effects(pair_id, src, tgt) + compare_tables(
        pair_id, source, target, source_lang, target_lang
    )


def check_pair(
    pair_id: str,
    texts: tuple[str, str],
    langs: tuple[str, str],
    quantities: tuple[Sequence[Quantity], Sequence[Quantity]],
    sentences: tuple[Sequence[Span], Sequence[Span]],
    beads: Callable[[], Sequence[Bead]],
    numbers_differ: Callable[[], bool] = lambda: True,
    terms: Callable[[], tuple[Sequence[Span], Sequence[Span]]] | None = None,
) -> Compared:
    """effect_mismatch of a pair: the marks of meaning of each aligned sentence group, its
    effects where something differs, and its dice tables. `beads` aligns the sentences;
    `numbers_differ`: whether a quantity check reports a difference; `terms`: where a
    glossary term has no rendering on the other side (a word there is the glossary
    check's finding).

    Effects are read only when the marks, the numbers or the sentences (one without a
    counterpart) differ, or a language has no marks: where they all agree, the effects of a
    faithful pair agree too, and a difference the readers of effects find there is theirs."""
    source, target = texts
    aligned = beads()
    unread = (
        meaning.unmarked(source, sentences[0], langs[0]),
        meaning.unmarked(target, sentences[1], langs[1]),
    )
    found = meaning.compare(pair_id, source, target, aligned, sentences, langs, terms=terms)
    tables = compare_tables(pair_id, source, target, langs[0], langs[1])
    compared = meaning.reads(langs[0]) and meaning.reads(langs[1])
    whole = all(sn and tn for _, sn, _, tn in aligned)
    if compared and not found and whole and not numbers_differ():
        return Compared(tables, unread)
    src = effects_of(source, langs[0], quantities[0], sentences[0])
    tgt = effects_of(target, langs[1], quantities[1], sentences[1])
    where = _Where(sentences, aligned)

    def explained(s: Mapping[str, Any], t: Mapping[str, Any]) -> bool:
        return _situations_said(s, t, texts, langs, sentences, aligned, where)

    effects = compare_effects(pair_id, src, tgt, explained) + tables
    covered = {k for f in effects for k in where.beads_of(f.source_span, f.target_span)}
    found = [f for f in found if not where.beads_of(f.source_span, f.target_span) & covered]
    return Compared(effects + found, unread)


class _Where:
    """Which aligned sentence group (bead) a span of either side falls in."""

    def __init__(self, sentences: tuple[Sequence[Span], Sequence[Span]], beads: Sequence[Bead]):
        self.starts = tuple([a for a, _ in side] for side in sentences)
        self.bead_of: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for k, (si, sn, tj, tn) in enumerate(beads):
            for i in range(si, si + sn):
                self.bead_of[0][i] = k
            for j in range(tj, tj + tn):
                self.bead_of[1][j] = k

    def bead(self, side: int, span: Span | None) -> int | None:
        if span is None or not self.starts[side]:
            return None
        sentence = bisect_right(self.starts[side], span[0]) - 1
        return self.bead_of[side].get(max(sentence, 0))

    def beads_of(self, source: Span | None, target: Span | None) -> set[int]:
        return {k for k in (self.bead(0, source), self.bead(1, target)) if k is not None}


def _situations_said(
    s: Mapping[str, Any],
    t: Mapping[str, Any],
    texts: tuple[str, str],
    langs: tuple[str, str],
    sentences: tuple[Sequence[Span], Sequence[Span]],
    beads: Sequence[Bead],
    where: _Where,
) -> bool:
    """The effects differ only in their named situations, and the sentences of both say
    each of them alike (a charge, a first round, "not": the reader of one side missed it)."""
    if s["op"] != t["op"] or _differing(s, t):
        return False
    differ = set(named_when(s)) ^ set(named_when(t))
    if not differ or not all(w.removeprefix("not-") in _SITUATION_MARK for w in differ):
        return False
    ks, kt = where.bead(0, _span(s)), where.bead(1, _span(t))
    if ks is None or kt is None:
        return False
    sides = meaning.sides(texts[0], texts[1], beads[ks], sentences, langs)
    if ks != kt:
        other = meaning.sides(texts[0], texts[1], beads[kt], sentences, langs)
        sides = (sides[0], other[1])
    for w in differ:
        mark = _SITUATION_MARK[w.removeprefix("not-")]
        said = [
            mark in side.count and bool(side.n("not")) == w.startswith("not-") for side in sides
        ]
        if not all(said):
            return False
    return True


def compare_effects(
    pair_id: str, src: EffectResult, tgt: EffectResult, explained: Explained | None = None
) -> list[Finding]:
    """Effects of one side with no like effect on the other, as errors in plain words;
    differences `explained` says the sentences agree on are left out, and so are effects
    facing sentences of the other side that read as no effect."""
    s_eff, t_eff = [dict(e) for e in src.effects], [dict(e) for e in tgt.effects]
    pending = list(t_eff)
    missing: list[dict[str, Any]] = []
    for e in s_eff:
        hit = next((t for t in pending if same(e, t)), None)
        if hit is None:
            missing.append(e)
        else:
            pending.remove(hit)
    if not missing and not pending:
        return []
    known: list[str | None] = []

    def executed() -> str | None:
        """The reference attack, resolved only for a pair with an error to explain."""
        if not known:
            known.append(_executed(s_eff, t_eff))
        return known[0]

    out: list[Finding] = []
    for s, t in _pairs(missing, pending):
        if s is not None and t is not None:
            if explained is not None and explained(s, t):
                continue
            message = f'the translation says "{plain(t)}" where the source says "{plain(s)}"'
            out.append(_finding(pair_id, message, s, t, executed()))
        elif s is not None and not tgt.unformalised:
            message = f'the translation leaves out "{plain(s)}"'
            out.append(_finding(pair_id, message, s, None, executed()))
        elif t is not None and not src.unformalised:
            message = f'the translation adds "{plain(t)}", which the source does not say'
            out.append(_finding(pair_id, message, None, t, executed()))
    return out


def _finding(
    pair_id: str,
    message: str,
    s: dict[str, Any] | None,
    t: dict[str, Any] | None,
    executed: str | None,
) -> Finding:
    if executed:
        message = f"{message}; {executed}"
    return Finding(
        CHECK,
        "error",
        pair_id,
        message,
        _span(s) if s else None,
        _span(t) if t else None,
        plain(s) if s else "nothing of the kind",
        plain(t) if t else "nothing",
    )


# --- what the interpreter makes of a difference ------------------------------------------


@cache
def _interpreter() -> Any:
    """The interpreter's pieces this check uses, imported on first need (with numpy)."""
    from ..interpret import attack, rules, tables

    class Effects(rules.Build):  # type: ignore[misc, name-defined]
        """A build of one rule held in memory: the effects (or the table) of one side."""

        def __init__(
            self, effects: Iterable[Mapping[str, Any]], table: Mapping[str, Any] | None = None
        ) -> None:
            super().__init__(Path("/nonexistent-build"))
            self._rule = rules.Rule(
                "side", "special-rule", {}, tuple(effects), table, ("X",), Path("side")
            )

        def rule(self, rule_id: str, source: str = "rules") -> Any:
            return self._rule

    return attack, tables, Effects


def _bindable(effect: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in effect.items() if k not in ("span", "when")}
    when = named_when(effect)
    if when:
        out["when"] = " & ".join(when)
    elif effect.get("when"):
        out["when"] = "never"  # a free-text situation the reference scenario does not hold
    return out


def casualties(effects: Iterable[Mapping[str, Any]], conditions: Iterable[str]) -> Fraction:
    """Expected casualties of the reference attack with these effects on the attacker."""
    attack, _, effects_build = _interpreter()
    data = {k: dict(v) for k, v in REFERENCE.items()}
    conds = sorted(set(conditions) - {"charging", "not-charging"})
    data["conditions"] = conds
    data["attacker"]["charging"] = "charging" in set(conditions)
    data["attacker"]["rules"] = ["side(3)"]
    scenario = attack.scenario_from_dict(data, "reference scenario")
    # The casualties alone, as `resolve` computes them (not its hits and wounds, which cost
    # as much again and are not reported here).
    srcs, defender = attack.sources(scenario, effects_build(effects))
    return attack.casualties(srcs, int(defender["health_points"]), scenario.defender.models).mean()


_REFERENCE_KEPT = 20_000
_reference: dict[tuple[str, tuple[str, ...]], Fraction | None] = {}


def reference_casualties(
    effects: list[dict[str, Any]], conditions: Iterable[str]
) -> Fraction | None:
    """`casualties`, or None where the reference attack cannot run these effects. Resolving
    the attack is most of what the effect check costs and paragraphs repeat their effects,
    so each answer is kept per effects (as written, in order) and conditions."""
    key = (repr(effects), tuple(sorted(set(conditions))))
    if key in _reference:
        return _reference[key]
    try:
        value: Fraction | None = casualties(effects, key[1])
    except Exception:  # an effect the reference attack cannot run says nothing here
        value = None
    if len(_reference) >= _REFERENCE_KEPT:
        _reference.clear()
    _reference[key] = value
    return value


def _executed(s_eff: list[dict[str, Any]], t_eff: list[dict[str, Any]]) -> str | None:
    """What the difference does in the reference attack, or None when it does nothing
    there (or the effects cannot be run)."""
    conditions = {w for e in s_eff for w in named_when(e) if not w.startswith("not-")}
    src = reference_casualties([_bindable(e) for e in s_eff], conditions)
    if src is None:
        return None
    tgt = reference_casualties([_bindable(e) for e in t_eff], conditions)
    if tgt is None or src == tgt:
        return None
    where = f" ({', '.join(sorted(conditions))})" if conditions else ""
    return (
        f"in a reference attack{where} the translation gives {float(tgt):.2f} casualties"
        f" where the source gives {float(src):.2f}"
    )


def table_of(text: str, lang: str) -> tuple[dict[str, Any], tuple[int, int]] | None:
    """The dice table a text states (Markdown rows, else prose) with its span, or None."""
    lines = [(m, line) for m, line in _lines(text) if line.strip().startswith("|")]
    if lines:
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for _, line in lines]
        table = markdown_table(rows, lang)
        if table is not None:
            return table, (lines[0][0], lines[-1][0] + len(lines[-1][1]))
    return prose_table(text, lang)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.splitlines(keepends=True):
        yield start, line.rstrip("\n")
        start += len(line)


def row_chances(table: Mapping[str, Any]) -> list[Fraction]:
    """The chance of each row of a table, in row order, as the interpreter rolls it."""
    rows = sorted(table["rows"], key=lambda r: r["range"][0])
    numbered = {**table, "rows": [{**r, "outcome": str(i)} for i, r in enumerate(rows)]}
    numbered.pop("natural", None)  # a natural row names another table, not held here
    _, tables, effects_build = _interpreter()
    chances = {o.outcome: o.p for o in tables.roll_table(effects_build((), numbered), "side")}
    return [chances.get(str(i), Fraction(0)) for i in range(len(rows))]


def compare_tables(
    pair_id: str, source: str, target: str, source_lang: str, target_lang: str
) -> list[Finding]:
    """A table translated with other ranges, rows or die: an error giving each side's outcome
    probabilities row by row; a table on one side only is info (the other may be prose the
    table patterns do not read)."""
    src, tgt = table_of(source, source_lang), table_of(target, target_lang)
    if src is None and tgt is None:
        return []
    if src is None or tgt is None:
        side = "source" if src is not None else "translation"
        span = (src or tgt)[1]  # type: ignore[index]
        message = f"only the {side} reads as a dice table; the other side is not compared"
        spans = (span, None) if src is not None else (None, span)
        return [Finding(CHECK, "info", pair_id, message, *spans)]
    try:
        a, b = row_chances(src[0]), row_chances(tgt[0])
    except Exception:  # a table the interpreter cannot roll is reported by extraction
        return []
    if a == b and src[0]["die"] == tgt[0]["die"]:
        return []
    rows_a = sorted(src[0]["rows"], key=lambda r: r["range"][0])
    rows_b = sorted(tgt[0]["rows"], key=lambda r: r["range"][0])
    diffs = []
    for i in range(max(len(a), len(b))):
        pa = a[i] if i < len(a) else Fraction(0)
        pb = b[i] if i < len(b) else Fraction(0)
        if pa != pb:
            name = rows_a[i]["outcome"] if i < len(rows_a) else rows_b[i]["outcome"]
            diffs.append(f"row {i + 1} ({name!r}) {_pct(pb)} where the source gives {_pct(pa)}")
    message = "the translation's table gives other outcome probabilities: " + "; ".join(diffs)
    return [
        Finding(
            CHECK,
            "error",
            pair_id,
            message,
            src[1],
            tgt[1],
            _ranges(src[0]),
            _ranges(tgt[0]),
        )
    ]


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _ranges(table: Mapping[str, Any]) -> str:
    rows = sorted(table["rows"], key=lambda r: r["range"][0])
    cells = [f"{lo}" if lo == hi else f"{lo}-{hi}" for lo, hi in (r["range"] for r in rows)]
    return f"{table['die']}: " + ", ".join(cells)
