"""`rulepipe rules [QUERY]`: list and search the rules and units of a build."""

from __future__ import annotations

import argparse

from . import options

DESCRIPTION = """\
List the rules and units of a build, or those whose id or name (in any language; case,
accents and ё ignored) contains every word of QUERY: id, kind, names and coverage. Units
of the army books are kind `unit`; their model profiles are parts of them, not rules of
their own. Use the id with `rulepipe show ID`, `rulepipe table ID` or in a scenario."""

EPILOG = """\
examples:
  rulepipe rules
  rulepipe rules рикошет
  rulepipe rules --kind table
  rulepipe build corpus/examples/army -o army-build
  rulepipe rules --kind unit --build army-build"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="list and search the rules, tables and units of a build",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("query", nargs="*", help="words to look for in ids and names")
    p.add_argument(
        "--kind", metavar="KIND", help="only entries of this kind (table, weapon, unit ...)"
    )
    options.lang(p, "only rules with a name or text in LANG")
    options.build_dir(p)
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..build_folder import read_rules, read_units
    from ..lookup import check_kind, listed, search, unit_entries
    from .output import print_json, print_table

    entries = [*listed(read_rules(args.build)), *unit_entries(read_units(args.build) or [])]
    check_kind(args.kind, entries, "--kind")
    found = search(entries, " ".join(args.query), args.kind, args.lang)
    rows = [
        {
            "id": r["id"],
            "kind": r.get("kind"),
            "names": r.get("names") or {},
            "coverage": r.get("coverage"),
        }
        for r in found
    ]
    if args.json:
        print_json(rows)
        return 0
    langs = sorted({lang for r in rows for lang in r["names"]}, key=lambda x: (x != "en", x))
    print_table(
        ["id", "kind", *langs, "coverage"],
        [
            [r["id"], r["kind"] or "", *(r["names"].get(x, "") for x in langs), r["coverage"] or ""]
            for r in rows
        ],
        f"{len(rows):,} of {len(entries):,} rules and units",
    )
    return 0
