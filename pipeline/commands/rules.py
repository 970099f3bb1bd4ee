"""`rulepipe rules [QUERY]`: list and search the rules of a build."""

from __future__ import annotations

import argparse

from . import options

DESCRIPTION = """\
List the rules of a build, or those whose id or name (in any language; case, accents and
ё ignored) contains every word of QUERY: id, kind, names and coverage. Use the id with
`rulepipe show ID`, `rulepipe table ID` or in an attack scenario."""

EPILOG = """\
examples:
  rulepipe rules
  rulepipe rules рикошет
  rulepipe rules --kind table"""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="list and search the rules, tables and units of a build",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("query", nargs="*", help="words to look for in ids and names")
    p.add_argument("--kind", metavar="KIND", help="only rules of this kind (table, weapon ...)")
    options.lang(p, "only rules with a name or text in LANG")
    options.build_dir(p)
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..build_folder import read_rules
    from ..lookup import search
    from .output import print_json, print_table

    rules = read_rules(args.build)
    found = search(rules, " ".join(args.query), args.kind, args.lang)
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
        f"{len(rows):,} of {len(rules):,} rules",
    )
    return 0
