"""`rulepipe show ID`: one rule or unit of a build as a page a person reads."""

from __future__ import annotations

import argparse
from typing import Any

from . import options

EPILOG = """\
examples:
  rulepipe show ricochet
  rulepipe build corpus/examples/army -o army-build
  rulepipe show baron --build army-build
  rulepipe show unit:knights --build army-build"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="one rule or unit as a readable page: texts, effects, table rows; a unit's "
        "parts, characteristics, equipment, options, points and sizes",
        description="Show one rule of a build: its names, its texts in every language side "
        "by side, each effect with the words it was read from, a table's rows in every "
        "language, and where each text came from; or one unit of its army books: size, "
        "points, each part's characteristics and rules, equipment, options and mounts with "
        "their points. ID may also be a name (any language); `unit:ID` asks for the unit "
        "when a rule has the same id.",
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("id", help="rule id or name")
    options.build_dir(p)
    options.json_flag(p)
    p.set_defaults(run=run)


def find(rules: list[dict[str, Any]], query: str, build: str) -> dict[str, Any]:
    """The rule with id `query`, else the only rule whose name matches it."""
    from ..errors import InputError
    from ..lookup import did_you_mean, search

    by_id = {r["id"]: r for r in rules}
    if query in by_id:
        return by_id[query]
    found = search(rules, query)
    if len(found) == 1:
        return dict(found[0])
    if found:
        ids = ", ".join(str(r["id"]) for r in found[:8])
        raise InputError(build, f"{len(found)} rules and units match {query!r}: {ids}")
    raise InputError(build, f"no rule or unit {query!r}{did_you_mean(query, by_id)}")


def _owner(rule: dict[str, Any], units: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The unit a model profile belongs to: the unit whose lines of the same file hold it."""
    for src in ((rule.get("texts") or {}).get("en") or {}).get("sources") or []:
        for u in units:
            us = u["source"]
            same = (us["drop"], us["file"]) == (src["drop"], src["file"])
            if same and us["lines"][0] <= src["lines"][0] and src["lines"][1] <= us["lines"][1]:
                return u
    return None


def _words(rule: dict[str, Any], effect: dict[str, Any]) -> str:
    span = effect.get("span")
    text = ((rule.get("texts") or {}).get(effect.get("lang", "en")) or {}).get("text", "")
    return text[span[0] : span[1]] if span and text else ""


def run(args: argparse.Namespace) -> int:
    from ..build_folder import read_rules, read_units
    from ..errors import InputError
    from ..lookup import UNIT, UNLISTED_KINDS, listed, unit_entries
    from .output import print_json, print_page

    rules = read_rules(args.build)
    units = read_units(args.build) or []
    query = args.id
    entries = [*listed(rules), *unit_entries(units)]
    if query.startswith(f"{UNIT}:"):
        query = query.split(":", 1)[1]
        entries = unit_entries(units)
    hidden = {r["id"]: r for r in rules if r.get("kind") in UNLISTED_KINDS}
    if query in hidden and not any(e["id"] == query for e in entries):
        owner = _owner(hidden[query], units)
        where = f": rulepipe show unit:{owner['id']}" if owner else ""
        raise InputError(str(args.build), f"{query!r} is a model profile, part of a unit{where}")
    by_id = {e["id"]: e for e in reversed(entries)}  # a rule before a unit of the same id
    entry = by_id.get(query) or find(entries, query, str(args.build))
    if entry.get("kind") == UNIT and "unit" in entry:
        return _show_unit(entry["unit"], args.json, any(r["id"] == entry["id"] for r in rules))
    rule = entry
    if args.json:
        print_json(rule)
        return 0
    texts = rule.get("texts") or {}
    langs = sorted(texts, key=lambda x: (x != "en", x))
    names = rule.get("names") or {}
    effects = [
        (
            ", ".join(f"{k} {v}" for k, v in e.items() if k not in ("op", "span")),
            e["op"],
            _words(rule, e),
        )
        for e in rule.get("effects") or []
    ]
    rows = []
    table = rule.get("table") or {}
    for row in table.get("rows") or []:
        lo, hi = row["range"]
        cells = [str(lo) if lo == hi else f"{lo}-{hi}"]
        cells += [(row.get("text") or {}).get(x, "") for x in langs]
        rows.append(cells)
    sources = [
        f"{x}: {s['drop']}/{s['file']} lines {s['lines'][0]}-{s['lines'][1]}"
        for x in langs
        for s in texts[x].get("sources") or []
    ]
    if any(u["id"] == rule["id"] for u in units):
        sources.append(f"a unit has this id too: rulepipe show unit:{rule['id']}")
    print_page(
        title=" / ".join(names.get(x, "") for x in sorted(names, key=lambda x: (x != "en", x)))
        or rule["id"],
        subtitle=f"{rule['id']} · {rule.get('kind')} · coverage {rule.get('coverage')}",
        texts=[(x, texts[x].get("text", "")) for x in langs],
        effects=effects,
        table=([table.get("die", "roll"), *langs], rows) if rows else None,
        sources=sources,
    )
    return 0


def _show_unit(unit: dict[str, Any], as_json: bool, rule_too: bool) -> int:
    from ..units import unit_view
    from .output import print_json, print_unit

    if as_json:
        print_json(unit)
        return 0
    print_unit(unit_view(unit, rule_too))
    return 0
