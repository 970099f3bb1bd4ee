"""Rules of a build, read from `DIR/rules/<id>.yaml`, and their effects with parameters bound.

A rule is referenced as written in a profile: `great-weapon`, `impact-hits(D3)`,
`aegis(4+)`. The bracket parameters bind the rule's variables (`params: [X]`, or X, Y, Z in
order when the rule does not name them) so that `count: X` in an effect reads as `D3`.
Effects are checked against `schemas/effect.schema.json` when a rule is read: a typo in a rule
file is reported with its file and effect index instead of silently doing nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.build_folder import member, require_build
from pipeline.errors import InputError
from pipeline.files import read_yaml
from pipeline.interpret.limits import MAX_GRANT_DEPTH, MAX_GRANTS, refuse_count
from pipeline.lookup import did_you_mean
from pipeline.schemas import definition_validator, schema
from pipeline.slug import ID, slugify

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

DEFAULT_PARAMS = ("X", "Y", "Z")

_TIMES = re.compile(r"^(\d+)\s*[×xX]\s*(\d+)$")
_REF = re.compile(r"^\s*(?P<name>[^()\[\]]+?)\s*(?:[(\[](?P<params>[^()\[\]]*)[)\]])?\s*$")


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A reference to a rule with its bracket parameters, e.g. `impact-hits(D3)`."""

    id: str
    params: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.id}({', '.join(self.params)})" if self.params else self.id


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule file: the fields the interpreter reads (the rest stays in `data`)."""

    id: str
    kind: str
    names: Mapping[str, str]
    effects: tuple[Mapping[str, Any], ...]
    table: Mapping[str, Any] | None
    params: tuple[str, ...]
    path: Path
    data: Mapping[str, Any] = field(repr=False, default_factory=dict)


@dataclass(frozen=True, slots=True)
class BoundEffect:
    """An effect with the bindings of the reference that brought it in."""

    effect: Mapping[str, Any]
    bindings: Mapping[str, str]
    rule: str
    path: Path
    index: int
    params: tuple[str, ...] = ()  # the reference's whole bracket, for effects that read it
    bracket_hit: bool = False  # granted to the one hit that takes the square-bracket values
    attack_only: bool = False  # granted to the attacks only, not to the model's other hits

    @property
    def op(self) -> str:
        return str(self.effect["op"])

    def get(self, key: str, default: Any = None) -> Any:
        return self.effect.get(key, default)

    def where(self) -> str:
        return f"effects[{self.index}]"


def parse_ref(text: str, source: str = "rules") -> RuleRef:
    """Read `impact-hits(D3)`, `Multiple Wounds (D3)` or `aegis(4+)` into a reference."""
    m = _REF.match(str(text))
    if m is None:
        raise InputError(source, f"cannot read rule reference {text!r} (write id or id(param))")
    rule_id = slugify(m.group("name"), fallback="")
    if not ID.match(rule_id):
        raise InputError(source, f"rule reference {text!r} has no usable id")
    raw = m.group("params")
    params = tuple(p.strip() for p in raw.split(",")) if raw is not None and raw.strip() else ()
    params = _split_times(params)
    if any(not p for p in params):
        raise InputError(source, f"empty parameter in rule reference {text!r}")
    return RuleRef(rule_id, params)


def _split_times(params: tuple[str, ...]) -> tuple[str, ...]:
    """`1×5` is two parameters: Area Attack (X×Y), X hits in each of Y ranks."""
    times = _TIMES.match(params[0]) if len(params) == 1 else None
    return (times.group(1), times.group(2)) if times else params


def _validator(defn: str) -> Draft202012Validator:
    return definition_validator("effect", defn)


_OP_DEF = {"table": "table-ref"}


def validate_effect(effect: Any, path: Path | str, where: str) -> None:
    """Check one effect against the schema definition of its op; errors name the field."""
    if not isinstance(effect, dict) or "op" not in effect:
        raise InputError(str(path), "an effect must be a mapping with an 'op'", where)
    op = effect["op"]
    if op not in schema("effect")["properties"]["op"]["enum"]:
        raise InputError(str(path), f"unknown effect op {op!r}", where)
    _check(_validator(_OP_DEF.get(op, op)), effect, path, where)


def validate_table(table: Any, path: Path | str) -> None:
    """Check a table object against `$defs/table`."""
    _check(_validator("table"), table, path, "table")


def _check(validator: Draft202012Validator, value: Any, path: Path | str, where: str) -> None:
    errors = sorted(validator.iter_errors(value), key=lambda e: (len(e.path), str(e.path)))
    if errors:
        err = max(errors, key=lambda e: len(e.path))
        inner = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.path)
        raise InputError(str(path), err.message, where + inner)


class Build:
    """The rule files of one build folder, read on demand and cached."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)
        self.rules_dir = self.root / "rules"
        self._cache: dict[str, Rule] = {}

    def rule(self, rule_id: str, source: str = "rules") -> Rule:
        """The rule with this id; a missing or malformed file is an InputError naming it."""
        if rule_id in self._cache:
            return self._cache[rule_id]
        if not ID.match(rule_id):
            raise InputError(source, f"{rule_id!r} is not a rule id (lower case, digits, '-')")
        path = member(self.root, f"rules/{rule_id}.yaml")  # a link or a folder is refused
        if path is None:
            if not self.rules_dir.is_dir():
                require_build(self.root)  # says whether there is a build here at all
            known = (p.stem for p in self.rules_dir.glob("*.yaml"))
            raise InputError(
                str(self.root), f"no rule {rule_id!r} in this build{did_you_mean(rule_id, known)}"
            )
        rule = load_rule(path)
        if rule.id != rule_id:
            raise InputError(str(path), f"file holds rule {rule.id!r}, expected {rule_id!r}", "id")
        self._cache[rule_id] = rule
        return rule

    def effects(self, refs: Iterable[RuleRef | str], source: str = "rules") -> list[BoundEffect]:
        """All effects of the referenced rules, `grant`s followed, parameters bound.

        A model has a rule or it has not: a rule granted again (by another path, under the
        same conditions) adds nothing, so grants that fan out (20 rules each granting the
        same 20) are expanded once each. A rule granting itself through others is an error.
        """
        return self._walk(refs, source)[0]

    def in_play(
        self, refs: Iterable[RuleRef | str], source: str = "rules"
    ) -> tuple[list[str], list[tuple[str, str, Mapping[str, Any]]]]:
        """The ids of the rules the references bring into play (grants followed), in the
        order met, and the grants to rules this build lacks: (granting rule, missing id,
        the grant's effect), which do nothing here."""
        walk = self._walk(refs, source)[1]
        return list(dict.fromkeys(walk.reached)), walk.missing

    def _walk(self, refs: Iterable[RuleRef | str], source: str) -> tuple[list[BoundEffect], _Walk]:
        walk = _Walk()
        parsed = [parse_ref(r, source) if isinstance(r, str) else r for r in refs]
        walk.seen.update((ref, None) for ref in parsed)
        out: list[BoundEffect] = []
        for ref in parsed:
            out.extend(self._expand(ref, source, walk, (), None))
        return out, walk

    def _expand(
        self, ref: RuleRef, source: str, walk: _Walk, stack: tuple[str, ...], when: str | None
    ) -> list[BoundEffect]:
        """The effects of one rule and of what it grants; `when` is the condition every
        grant on the way here was under (the key of a rule already had)."""
        rule = self.rule(ref.id, source)
        walk.count += 1
        walk.reached.append(rule.id)
        refuse_count(walk.count, MAX_GRANTS, "rules reached through grants", str(rule.path))
        stack = (*stack, rule.id)
        ref, against = _against(rule, ref)
        names = rule.params or DEFAULT_PARAMS[: len(ref.params)]
        if len(ref.params) > len(names) and not _reads_bracket(rule):
            raise InputError(
                source,
                f"{ref} gives {len(ref.params)} parameters, {rule.id} takes {len(names)}",
            )
        bindings = dict(zip(names, ref.params, strict=False))
        out: list[BoundEffect] = []
        for i, effect in enumerate(rule.effects):
            bound = BoundEffect(effect, bindings, rule.id, rule.path, i, ref.params)
            if bound.op == "bracket":
                out.extend(self._bracket(bound, ref, walk, stack, when))
                continue
            out.append(bound)
            if bound.op == "grant":
                params = tuple(str(bindings.get(str(p), p)) for p in effect.get("params", ()))
                sub = RuleRef(str(effect["rule"]), _split_times(params))
                if not (self.rules_dir / f"{sub.id}.yaml").is_file():
                    walk.missing.append((rule.id, sub.id, effect))
                    continue  # an unresolved reference, flagged by the build: no effect
                cond = effect.get("when")
                granted = self._grant(sub, str(rule.path), bound.where(), walk, stack, when, cond)
                if effect.get("applies_to") == "bracket-hit":
                    granted = [replace(g, bracket_hit=True) for g in granted]
                elif effect.get("applies_to") == "attack":
                    granted = [replace(g, attack_only=True) for g in granted]
                out.extend(_with_when(g, str(cond)) if cond is not None else g for g in granted)
        for when_here in (against, "shooting" if _ranged(rule) else None):
            if when_here:
                out = [_with_when(g, when_here) for g in out]
        return out

    def _grant(
        self,
        sub: RuleRef,
        path: str,
        where: str,
        walk: _Walk,
        stack: tuple[str, ...],
        when: str | None,
        cond: Any,
    ) -> list[BoundEffect]:
        """A granted rule's effects, once per rule and condition; loops and depth refused."""
        if sub.id in stack:
            raise InputError(path, f"grants loop: {' -> '.join((*stack, sub.id))}", where)
        if len(stack) > MAX_GRANT_DEPTH:
            raise InputError(
                path, f"grants nest more than {MAX_GRANT_DEPTH} deep (the limit)", where
            )
        if cond is not None:
            when = str(cond) if when is None else f"{when} & {cond}"
        if (sub, when) in walk.seen:
            return []
        walk.seen.add((sub, when))
        return self._expand(sub, path, walk, stack, when)

    def _bracket(
        self,
        bound: BoundEffect,
        ref: RuleRef,
        walk: _Walk,
        stack: tuple[str, ...],
        when_here: str | None,
    ) -> list[BoundEffect]:
        """What a bracket states: `+1 Strength` modifies, `Poison Attacks` is granted."""
        from pipeline.interpret.core import core

        names = core()["characteristics"].get("names", {})
        out: list[BoundEffect] = []
        when = bound.get("when")
        for param in ref.params:
            m = _BRACKET_MOD.match(param)
            char = names.get(" ".join(m.group("name").lower().split())) if m else None
            if m and char:
                by = int(m.group("n")) * (-1 if m.group("sign") in "-−" else 1)
                effect: dict[str, Any] = {"op": "modify", "characteristic": char, "by": by}
                if when is not None:
                    effect["when"] = when
                out.append(BoundEffect(effect, {}, bound.rule, bound.path, bound.index))
                continue
            try:
                sub = parse_ref(param, str(bound.path))
            except InputError:
                continue
            if not (self.rules_dir / f"{sub.id}.yaml").is_file():
                walk.missing.append((bound.rule, sub.id, bound.effect))
                continue  # not a rule of this build: nothing to apply
            granted = self._grant(sub, str(bound.path), bound.where(), walk, stack, when_here, when)
            out.extend(_with_when(g, str(when)) if when else g for g in granted)
        return out


def split_params(text: str) -> tuple[str, ...]:
    """The parameters of a bracket's text: `D3, Clipped Wings` is X = D3 and a rule named."""
    return tuple(p.strip() for p in str(text).split(",") if p.strip()) or (str(text),)


def _reads_bracket(rule: Rule) -> bool:
    """Whether the rule reads its whole bracket (Devastating Charge (+1 Strength, Hatred),
    Breath Attack (Str 4, AP 1, Flaming Attacks, Magical Attacks)), not X, Y, Z."""
    return any(e.get("op") == "bracket" or e.get("attributes") == "bracket" for e in rule.effects)


_BRACKET_VALUE = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z ]*?)\s*(?P<n>\d+)\s*$")


def bracket_profile(
    params: Iterable[str], source: str = "rules"
) -> tuple[dict[str, int], list[RuleRef]]:
    """A bracket that states a profile: `Str 4` / `Strength 4` set a characteristic, every
    other item names a rule (`Breath Attack (Str 4, AP 1, Flaming Attacks)`)."""
    from pipeline.interpret.core import core

    names = core()["characteristics"].get("names", {})
    chars: dict[str, int] = {}
    refs: list[RuleRef] = []
    for param in params:
        m = _BRACKET_VALUE.match(param)
        char = names.get(" ".join(m.group("name").lower().split())) if m else None
        if m and char:
            chars[char] = int(m.group("n"))
            continue
        try:
            refs.append(parse_ref(param, source))
        except InputError:
            continue
    return chars, refs


@dataclass
class _Walk:
    """What one expansion of grants has met: (rule, condition) pairs had, rules reached."""

    seen: set[tuple[RuleRef, str | None]] = field(default_factory=set)
    count: int = 0
    reached: list[str] = field(default_factory=list)
    missing: list[tuple[str, str, Mapping[str, Any]]] = field(default_factory=list)


_BRACKET_MOD = re.compile(r"^\s*(?P<sign>[+\-−])\s*(?P<n>\d+)\s+(?P<name>[A-Za-z][A-Za-z ]*?)\s*$")


def _with_when(g: BoundEffect, when: str) -> BoundEffect:
    """The effect under `when` as well as its own condition."""
    own = g.get("when")
    both = when if own is None or own == when else f"{when} & {own}"
    return replace(g, effect={**g.effect, "when": both})


# what "against X" names when X is a kind of attack, not something the target has
AGAINST_MODES = {
    "shooting-attacks": "shooting",
    "ranged-attacks": "shooting",
    "close-combat-attacks": "melee",
    "melee-attacks": "melee",
}
_AGAINST = re.compile(r"^against\s+", re.I)


def against_condition(names: Iterable[str]) -> str:
    """`target-has:large | target-has:gigantic` for "against Large, Gigantic"; a kind of
    attack ("against Close Combat Attacks") is the attack's mode."""
    out = []
    for name in names:
        what = slugify(_AGAINST.sub("", name), fallback="")
        out.append(AGAINST_MODES.get(what) or f"target-has:{what}")
    return " | ".join(out)


def _against(rule: Rule, ref: RuleRef) -> tuple[RuleRef, str | None]:
    """A reference's bracket "(against X, Y)" that the rule does not read itself (Hatred
    (against Large, Gigantic)) is a condition on its effects: the reference without it, and
    the condition. A rule that takes it as a parameter (Aegis (4+, against Flaming Attacks))
    keeps it."""
    for i, param in enumerate(ref.params):
        if not _AGAINST.match(param):
            continue
        names = rule.params or DEFAULT_PARAMS[: len(ref.params)]
        if i < len(names) and _reads_variable(rule, names[i]):
            return ref, None
        return RuleRef(ref.id, ref.params[:i]), against_condition(ref.params[i:])
    return ref, None


def _reads_variable(rule: Rule, name: str) -> bool:
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(
        isinstance(v, str) and word.search(v) for e in rule.effects for v in e.values()
    ) or _reads_bracket(rule)


def _ranged(rule: Rule) -> bool:
    """A shooting weapon: its Strength, AP and attributes hold for its shots only."""
    profile = rule.data.get("profile") or {}
    return (
        rule.kind == "weapon" and isinstance(profile, Mapping) and profile.get("weapon") == "ranged"
    )


def load_rule(path: Path) -> Rule:
    """Read and check one rule file."""
    data = read_yaml(path, "rule file")
    if not isinstance(data, dict):
        raise InputError(str(path), "a rule file must hold one YAML mapping")
    for key in ("id", "kind"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise InputError(str(path), f"missing or empty {key!r}", key)
    names = data.get("names", {})
    if not isinstance(names, dict):
        raise InputError(str(path), "'names' must map languages to names", "names")
    effects = data.get("effects") or []
    if not isinstance(effects, list):
        raise InputError(str(path), "'effects' must be a list", "effects")
    for i, effect in enumerate(effects):
        validate_effect(effect, path, f"effects[{i}]")
    table = data.get("table")
    if table is not None:
        validate_table(table, path)
    params = data.get("params") or ()
    if not isinstance(params, list | tuple) or not all(isinstance(p, str) for p in params):
        raise InputError(str(path), "'params' must be a list of variable names", "params")
    return Rule(
        id=data["id"],
        kind=data["kind"],
        names=names,
        effects=tuple(effects),
        table=table,
        params=tuple(params),
        path=path,
        data=data,
    )


def as_int(value: Any, bindings: Mapping[str, str], source: str, where: str) -> int:
    """A number from an effect field; a variable reads its binding (`4+` reads as 4)."""
    if isinstance(value, bool):
        raise InputError(source, f"expected a number, not {value!r}", where)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if text in bindings:
        text = str(bindings[text]).strip()
    m = re.fullmatch(r"([+-]?\d+)\s*\+?", text)
    if m is None:
        hint = " (give it in brackets, e.g. rule(3))" if re.fullmatch(r"[A-Z]", text) else ""
        raise InputError(source, f"expected a number, found {value!r}{hint}", where)
    return int(m.group(1))


def holds(
    when: Any, conditions: Collection[str], own: Collection[str] = (), other: Collection[str] = ()
) -> bool:
    """Whether a condition holds: parts joined by ` & ` all hold, each part's alternatives
    (` | `) one at least; `not-X` negates; `has:ID` is a rule or keyword of the side (`own`),
    `target-has:ID` of the other side (`other`); any other name is a situation."""
    if when is None:
        return True
    return all(
        any(_alternative(alt.strip(), conditions, own, other) for alt in part.split("|"))
        for part in str(when).split(" & ")
    )


def _alternative(
    part: str, conditions: Collection[str], own: Collection[str], other: Collection[str]
) -> bool:
    negated = part.startswith("not-")
    name = part[4:] if negated else part
    if name.startswith("has:"):
        found = name[4:] in own
    elif name.startswith("target-has:"):
        found = name[11:] in other
    else:
        found = name in conditions
    return found != negated


def effect_conditions(effects: Iterable[BoundEffect]) -> set[str]:
    """The situations the effects' `when` names (`charging & not-first-round` gives both)."""
    found: set[str] = set()
    for effect in effects:
        for part in re.split(r"[&|]", str(effect.get("when") or "")):
            name = part.strip().removeprefix("not-")
            if name and ":" not in name:
                found.add(name)
    return found
