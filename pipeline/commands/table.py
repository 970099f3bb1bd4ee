"""`rulepipe table RULE`: outcome probabilities of a dice table, chains followed."""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from typing import Any

from . import options


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "table",
        help="outcome probabilities of a dice table, chains followed",
        description="Outcome probabilities of a dice table rule; rows that lead to another "
        "table are followed and their final outcomes reported. Each outcome is named in "
        "every language the build has the table in (a linked translation's row beside the "
        "English: one column per language; --json: `by_lang`).",
        epilog="example:\n  rulepipe table trudnaya-mestnost-i-prepyatstviya --modifier -1",
        formatter_class=options.FORMATTER,
    )
    p.add_argument(
        "rule",
        help="rule id of the table (e.g. trudnaya-mestnost-i-prepyatstviya, the LotOW jump table)",
    )
    p.add_argument(
        "--modifier", type=int, default=0, metavar="N", help="added to the die result (e.g. -1)"
    )
    options.when(p, "a situation that switches on the table's own modifiers (repeatable)")
    options.build_dir(p, "build folder whose rules/<id>.yaml files are read")
    options.json_flag(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..interpret.report import print_outcomes, table_json
    from ..interpret.rules import Build, parse_ref
    from ..interpret.tables import roll_table, table_conditions
    from .output import print_json

    build = Build(args.build)
    rule_id = parse_ref(args.rule, "table").id
    options.check_conditions(args.when, table_conditions(build, rule_id), f"table {rule_id}")
    outcomes = roll_table(build, rule_id, args.modifier, args.when or ())
    words = [outcome_words(build.rule(o.table).table or {}, o.outcome) for o in outcomes]
    langs = sorted({x for w in words for x in w}, key=lambda x: (x != "en", x))
    if args.json:
        doc = table_json(rule_id, args.modifier, outcomes)
        for row, w in zip(doc["outcomes"], words, strict=True):
            if w:
                row["by_lang"] = w
        print_json(doc)
        return 0
    mod = f" {args.modifier:+d}" if args.modifier else ""
    columns = [(x, [w.get(x, "") for w in words]) for x in langs] if len(langs) > 1 else []
    print_outcomes(f"table {rule_id}{mod}", outcomes, langs=columns)
    return 0


def outcome_words(table: Mapping[str, Any], outcome: str) -> dict[str, str]:
    """The words of `outcome` in each language its row is written in: the row's text cut
    where the language's tables put the dash between an outcome and its detail
    ("Thrown - the rider lands ..." -> "Thrown"); linked translations give a row several."""
    from ..lang import data as lang_data

    rows = [*(table.get("natural") or ()), *(table.get("rows") or ())]
    row = next((r for r in rows if r.get("outcome") == outcome), None)
    words = {}
    for lang, text in ((row or {}).get("text") or {}).items():
        split = re.compile(lang_data(lang, "tables")["outcome_split"])
        words[lang] = split.split(text, maxsplit=1)[0].strip(" .") or text
    return words
