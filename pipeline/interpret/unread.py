"""What an answer did not read: the clauses of the rules in play that gave no effect.

A rule file lists, in `unread`, every clause naming a game quantity that no effect was read
from (`{"lang", "text", "span"}`, the span in `texts[lang].text`). An answer built from the
rule's effects alone would pass in silence over those clauses; `attack`, `charge` and
`matchup` list them under their result instead (`--strict` refuses to answer). A grant to a
rule the build does not have is listed too: it does nothing here; and so is an effect whose
condition is free text no scenario names ("using a Bow"): it never holds. Which clauses a command
lists is data (`pipeline/lang/<code>/answers.yaml`): a charge lists the clauses about
charging and moving, an attack every clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from pipeline.errors import InputError
from pipeline.interpret.rules import Build, RuleRef
from pipeline.lang import data as lang_data


@cache
def _patterns(lang: str, command: str) -> tuple[re.Pattern[str], ...] | None:
    """The patterns that make a clause matter to `command`, or None: every clause does."""
    raw = lang_data(lang, "answers", fallback=False).get(command)
    return None if raw is None else tuple(re.compile(p, re.I) for p in raw)


def _matters(text: str, lang: str, command: str) -> bool:
    patterns = _patterns(lang, command)
    return patterns is None or any(p.search(text) for p in patterns)


def _clause(rule: Mapping[str, Any], effect: Mapping[str, Any]) -> tuple[str, list[int]]:
    """The text an effect was read from (its span in the English text), else the rule's name."""
    text = str(((rule.get("texts") or {}).get("en") or {}).get("text") or "")
    span = effect.get("span")
    if isinstance(span, list) and len(span) == 2 and 0 <= span[0] < span[1] <= len(text):
        return text[span[0] : span[1]], list(span)
    return str((rule.get("names") or {}).get("en") or rule.get("id")), [0, 0]


def unread(
    build: Build, refs: Iterable[RuleRef | str], command: str = "attack", source: str = "rules"
) -> list[dict[str, Any]]:
    """`{"rule", "text", "span"}` of every clause not read of the rules `refs` bring into
    play (with the rules they grant), in the order met, each once."""
    ids, missing = build.in_play(list(refs), source)
    out: dict[tuple[str, str], dict[str, Any]] = {}  # the first entry of a rule's clause

    def add(entry: dict[str, Any]) -> None:
        out.setdefault((entry["rule"], entry["text"]), entry)

    for rule_id in ids:
        rule = build.rule(rule_id, source)
        for item in rule.data.get("unread") or []:
            if not isinstance(item, Mapping):
                continue
            text, lang = str(item.get("text", "")), str(item.get("lang", "en"))
            span = item.get("span") or [0, 0]
            if text and _matters(text, lang, command):
                add({"rule": rule_id, "text": text, "span": [int(span[0]), int(span[1])]})
    for rule_id in ids:
        data = build.rule(rule_id, source).data
        for effect in data.get("effects") or []:
            free = [p for p in _parts(effect.get("when")) if not _NAME.fullmatch(p)]
            text, span = _clause(data, effect)
            if free and _matters(text, "en", command):
                add({"rule": rule_id, "text": text, "span": span, "condition": free[0]})
    for rule_id, wanted, effect in missing:
        text, span = _clause(build.rule(rule_id, source).data, effect)
        if _matters(text, "en", command):
            add({"rule": rule_id, "text": text, "span": span, "missing": wanted})
    return list(out.values())


# a situation's name or `has:`/`target-has:` of an id; anything else is free text
_NAME = re.compile(r"(?:(?:target-)?has:)?[a-z0-9][a-z0-9-]*")


def _parts(when: Any) -> list[str]:
    """The names a condition is made of, without `not-`."""
    if when is None:
        return []
    return [p.strip().removeprefix("not-") for p in re.split(r"&|\|", str(when)) if p.strip()]


def lines(found: list[dict[str, Any]]) -> list[str]:
    """The text a user reads under an answer: each clause, quoted, with its rule and span."""
    if not found:
        return []
    out = ["", "not read (the result above leaves these clauses out):"]
    for u in found:
        where = f" [{u['span'][0]}-{u['span'][1]}]" if u["span"] != [0, 0] else ""
        why = f" (grants {u['missing']}, which this build does not have)" if "missing" in u else ""
        if "condition" in u:
            why = f' (holds only when a scenario names "{u["condition"]}", free text)'
        out.append(f'  {u["rule"]}: "{u["text"]}"{where}{why}')
    return out


def refuse(found: list[dict[str, Any]], source: str) -> None:
    """`--strict`: no answer when a rule in play has clauses not read."""
    if found:
        rules = ", ".join(dict.fromkeys(u["rule"] for u in found))
        raise InputError(
            source,
            f"--strict: {len(found)} clause(s) of the rules in play not read ({rules}); "
            "without --strict the answer lists them",
        )
