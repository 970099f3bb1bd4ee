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
casualties.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..extract.effects import EffectResult, find_effects
from ..interpret.attack import resolve, scenario_from_dict
from ..interpret.rules import Build, Rule
from ..quantities import find_quantities
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


def effects_of(text: str, lang: str) -> EffectResult:
    """The effects of one text, read with its quantities."""
    return find_effects(text, lang, find_quantities(text, lang))


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
    pair_id: str, source: str, target: str, source_lang: str, target_lang: str
) -> list[Finding]:
    """The effect findings of one pair."""
    src, tgt = effects_of(source, source_lang), effects_of(target, target_lang)
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
    executed = _executed(s_eff, t_eff)
    out: list[Finding] = []
    for s, t in _pairs(missing, pending):
        if s is not None and t is not None:
            message = f"the translation reads {describe(t)} where the source reads {describe(s)}"
            out.append(_finding(pair_id, "error", message, s, t, executed))
        elif s is not None:
            if tgt.unformalised:
                a, b = tgt.unformalised[0]
                message = (
                    f"the source's {describe(s)} has no counterpart the checks can read; the"
                    f" translation's sentence {target[a:b][:60]!r} reads as no effect"
                )
                out.append(Finding(CHECK, "info", pair_id, message, _span(s), (a, b), describe(s)))
            else:
                message = f"the translation lacks the source's {describe(s)}"
                out.append(_finding(pair_id, "error", message, s, None, executed))
        elif t is not None:
            if src.unformalised:
                a, b = src.unformalised[0]
                message = (
                    f"the translation's {describe(t)} has no counterpart the checks can read;"
                    f" the source's sentence {source[a:b][:60]!r} reads as no effect"
                )
                out.append(Finding(CHECK, "info", pair_id, message, (a, b), _span(t), None))
            else:
                message = f"the translation adds {describe(t)}, which the source does not say"
                out.append(_finding(pair_id, "error", message, None, t, executed))
    return out


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
    """A build of one rule held in memory: the effects of one side of a pair."""

    def __init__(self, effects: Iterable[Mapping[str, Any]]) -> None:
        super().__init__(Path("/nonexistent-build"))
        self._rule = Rule("side", "special-rule", {}, tuple(effects), None, ("X",), Path("side"))

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
    result = resolve(scenario_from_dict(data, "reference scenario"), _Effects(effects))
    return result.casualties.mean()


def _executed(s_eff: list[dict[str, Any]], t_eff: list[dict[str, Any]]) -> str | None:
    """What the difference does in the reference attack, or None when it does nothing
    there (or the effects cannot be run)."""
    conditions = {w for e in s_eff for w in named_when(e) if not w.startswith("not-")}
    try:
        src = casualties([_bindable(e) for e in s_eff], conditions)
        tgt = casualties([_bindable(e) for e in t_eff], conditions)
    except Exception:  # an effect the reference attack cannot run says nothing here
        return None
    if src == tgt:
        return None
    where = f" ({', '.join(sorted(conditions))})" if conditions else ""
    return (
        f"in a reference attack{where} the translation gives {float(tgt):.2f} casualties"
        f" where the source gives {float(src):.2f}"
    )
