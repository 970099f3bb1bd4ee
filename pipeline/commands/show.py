"""`rulepipe show ID`: one rule of a build as a page a person reads."""

from __future__ import annotations

import argparse
from typing import Any

from . import options


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="one rule as a readable page: names, texts side by side, effects, table rows",
        description="Show one rule of a build: its names, its texts in every language side "
        "by side, each effect with the words it was read from, a table's rows in every "
        "language, and where each text came from. ID may also be a name (any language).",
        epilog="example:\n  rulepipe show ricochet",
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
        raise InputError(build, f"{len(found)} rules match {query!r}: {ids}")
    raise InputError(build, f"no rule {query!r}{did_you_mean(query, by_id)}")


def _words(rule: dict[str, Any], effect: dict[str, Any]) -> str:
    span = effect.get("span")
    text = ((rule.get("texts") or {}).get(effect.get("lang", "en")) or {}).get("text", "")
    return text[span[0] : span[1]] if span and text else ""


def run(args: argparse.Namespace) -> int:
    from ..build_folder import read_rules
    from .output import print_json, print_page

    rule = find(read_rules(args.build), args.id, str(args.build))
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
