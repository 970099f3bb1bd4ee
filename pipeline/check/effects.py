"""effect_mismatch: a translation that plays differently from its source.

Both texts are read into effects (`pipeline.extract.effects`, the same vocabulary in every
language) and compared op by op on what changes the game: the op, its roll, characteristic,
value, sign, target and the named situations it holds in (`charging`, `first-round`, ...).
Free-text conditions, spans and the names of granted rules (which differ by language) are
not compared. A difference is an error naming both effects; an effect with no counterpart
where the other side has sentences that read as no effect is only info, since those
sentences may say it in words the patterns do not know.

When the effects differ, a reference attack (`REFERENCE`) is resolved by the interpreter with
each side's effects, and the finding says what the translation changes in expected
casualties. A dice table on both sides (Markdown or prose, read as extraction reads it) is
rolled on each side by the interpreter, row by row in order (outcomes are words of their
language), and a translation that gives a row another chance is an error saying by how much.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..extract.effects import EffectResult, find_effects
from ..extract.tables import markdown_table, prose_table
from ..interpret.attack import casualties as removed
from ..interpret.attack import scenario_from_dict, sources
from ..interpret.rules import Build, Rule
from ..interpret.tables import roll_table
from ..quantities import Quantity, find_quantities
from .model import Finding

CHECK = "effect_mismatch"
NAMED = frozenset(
    {"charging", "not-charging", "first-round", "shooting", "front-facing", "first-player-turn"}
)
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


def prepare(lang: str) -> None:
    """Read a language's effect patterns and quantity grammar now: done before the workers
    fork, each inherits them instead of compiling them again (0.07 s for English and
    Russian)."""
    find_effects("", lang)
    find_quantities("1", lang)


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
    both = (set(s) & set(t)) - _IGNORED
    return all(_hashable(s[k]) == _hashable(t[k]) for k in both)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def describe(effect: Mapping[str, Any]) -> str:
    """An effect in a few words: `roll to-hit reroll failed (charging)`."""
    words = [str(effect["op"])]
    for k, v in effect.items():
        if k in _IGNORED or k == "op":
            continue
        shown = ", ".join(map(str, v)) if isinstance(v, list) else str(v)
        words.append(shown if k == "roll" else f"{k} {shown}")
    when = named_when(effect)
    return " ".join(words) + (f" ({' & '.join(when)})" if when else "")


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
    return _compare_effects(pair_id, source, target, src, tgt) + compare_tables(
        pair_id, source, target, source_lang, target_lang
    )


def _compare_effects(
    pair_id: str, source: str, target: str, src: EffectResult, tgt: EffectResult
) -> list[Finding]:
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
            message = f"the translation reads {describe(t)} where the source reads {describe(s)}"
            out.append(_finding(pair_id, "error", message, s, t, executed()))
        elif s is not None:
            if tgt.unformalised:
                out.append(_unread(pair_id, s, "source's", "translation's", target, tgt))
            else:
                message = f"the translation lacks the source's {describe(s)}"
                out.append(_finding(pair_id, "error", message, s, None, executed()))
        elif t is not None:
            if src.unformalised:
                out.append(_unread(pair_id, t, "translation's", "source's", source, src))
            else:
                message = f"the translation adds {describe(t)}, which the source does not say"
                out.append(_finding(pair_id, "error", message, None, t, executed()))
    return out


def _unread(
    pair_id: str, effect: dict[str, Any], side: str, other: str, other_text: str, read: Any
) -> Finding:
    """Info, not an error: `effect` has no counterpart, but the other side has a sentence
    that reads as no effect, which may well say it."""
    a, b = read.unformalised[0]
    message = (
        f"the {side} {describe(effect)} has no counterpart the checks can read; the {other}"
        f" sentence {other_text[a:b][:60]!r} reads as no effect"
    )
    if side == "source's":
        return Finding(CHECK, "info", pair_id, message, _span(effect), (a, b), describe(effect))
    return Finding(CHECK, "info", pair_id, message, (a, b), _span(effect), None)


def _finding(
    pair_id: str,
    severity: str,
    message: str,
    s: dict[str, Any] | None,
    t: dict[str, Any] | None,
    executed: str | None,
) -> Finding:
    if executed:
        message = f"{message}; {executed}"
    return Finding(
        CHECK,
        severity,
        pair_id,
        message,
        _span(s) if s else None,
        _span(t) if t else None,
        describe(s) if s else "no effect",
        describe(t) if t else "no effect",
    )


class _Effects(Build):
    """A build of one rule held in memory: the effects (or the table) of one side of a pair."""

    def __init__(
        self, effects: Iterable[Mapping[str, Any]], table: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(Path("/nonexistent-build"))
        self._rule = Rule("side", "special-rule", {}, tuple(effects), table, ("X",), Path("side"))

    def rule(self, rule_id: str, source: str = "rules") -> Rule:
        return self._rule


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
    data = {k: dict(v) for k, v in REFERENCE.items()}
    conds = sorted(set(conditions) - {"charging", "not-charging"})
    data["conditions"] = conds
    data["attacker"]["charging"] = "charging" in set(conditions)
    data["attacker"]["rules"] = ["side(3)"]
    scenario = scenario_from_dict(data, "reference scenario")
    # The casualties alone, as `resolve` computes them (not its hits and wounds, which cost
    # as much again and are not reported here).
    srcs, defender = sources(scenario, _Effects(effects))
    return removed(srcs, int(defender["health_points"]), scenario.defender.models).mean()


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
    chances = {o.outcome: o.p for o in roll_table(_Effects((), numbered), "side")}
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
