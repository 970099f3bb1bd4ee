"""`rulepipe glossary suggest`: term pairs proposed from a build's linked translations."""

from __future__ import annotations

import argparse

from . import options

SUGGEST = """\
Count English capitalised terms ("Unit Spacing", "Round of Combat") against lemma
n-grams of the translation in the same aligned sentences of every linked pair of a
build, and print the pairs that keep turning up together (Dice coefficient) as TSV:
  en<TAB>ru<TAB>count<TAB>score
Terms the glossary already has are left out. Review the rows, then merge them into the
glossary; a TSV whose header names the languages loads as a glossary (--glossary)."""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "glossary",
        help="glossary tools: propose term pairs from a build's linked translations",
        description="Glossary tools. `rulepipe glossary suggest` proposes term pairs.",
    )
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    s = tools.add_parser(
        "suggest",
        help="propose term pairs from the linked pairs of a build (TSV)",
        description=SUGGEST,
        formatter_class=options.FORMATTER,
    )
    options.build_dir(s)
    s.add_argument("--lang", default="ru", help="language of the translations (default: ru)")
    options.glossary(s, "leave out the terms of this term base")
    s.add_argument(
        "--min-count", type=int, default=2, help="sentences a pair must share (default: 2)"
    )
    options.out_file(s, "write the TSV here")
    s.set_defaults(run=run_suggest)


def run_suggest(args: argparse.Namespace) -> int:
    from ..align.suggest import build_beads, suggest, to_tsv
    from ..build_folder import read_json, require_build
    from ..files import MAX_BUILD_FILE_BYTES, write_output
    from ..glossary import chosen_glossary
    from ..jsonl import read_jsonl

    glossary = chosen_glossary(args.glossary)
    found = require_build(args.build) / "alignments.json"
    alignments = read_json(found, "alignments (alignments.json): run `rulepipe build` first")
    segments = read_jsonl(
        args.build / "segments.jsonl", {"id": str, "raw": str}, MAX_BUILD_FILE_BYTES
    )
    raw = {s["id"]: s["raw"] for s in segments}
    found = suggest(build_beads(alignments, raw, args.lang), glossary, args.min_count)
    write_output(to_tsv(found), args.out)
    return 0
