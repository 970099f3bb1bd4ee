"""`rulepipe glossary suggest`: term pairs proposed from a build's linked translations."""

from __future__ import annotations

import argparse

from . import options

SUGGEST = """\
Read candidate terms on both sides of every linked sentence pair of a build (English
capitalised terms; Russian noun phrases in their dictionary form), pair them by how
often they occur together, where, and whether both are capitalised, and print one
rendering per term as the project's TSV glossary (status `proposed`, count, score, a
note giving the evidence and saying when it is thin: `unsure: ...`, with a score of 0.6
at most; one example pair with its ids), or as TBX.
Terms the glossary already has, and terms it marks `rejected`, are left out. Set a
row's status to `preferred` to accept it or `rejected` to never see it again, then
give the file back with --glossary (TSV and TBX both load)."""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "glossary",
        help="glossary tools: propose term pairs from a build's linked translations",
        description="Glossary tools. `rulepipe glossary suggest` proposes term pairs.",
    )
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    s = tools.add_parser(
        "suggest",
        help="propose term pairs from the linked pairs of a build (TSV or TBX)",
        description=SUGGEST,
        epilog="example:\n  rulepipe glossary suggest --lang ru",
        formatter_class=options.FORMATTER,
    )
    options.build_dir(s)
    s.add_argument(
        "--lang",
        type=options.language_code,
        default="ru",
        help="language of the translations (default: ru)",
    )
    options.glossary(s, "leave out the terms of this term base, approved or rejected")
    s.add_argument(
        "--min-count",
        type=int,
        default=2,
        help="sentence pairs a term pair must share (default: 2; a pair seen once is"
        " proposed only when nothing else could be meant)",
    )
    s.add_argument("--format", choices=("tsv", "tbx"), default="tsv", help="default: tsv")
    options.out_file(s, "write the file here")
    s.set_defaults(run=run_suggest)


def run_suggest(args: argparse.Namespace) -> int:
    from ..align.suggest import build_beads, suggest, to_glossary, to_tsv
    from ..build_folder import read_json, read_segments, require_build
    from ..files import write_output
    from ..glossary import chosen_glossary

    glossary = chosen_glossary(args.glossary)
    aligned = require_build(args.build) / "alignments.json"
    alignments = read_json(aligned, "alignments (alignments.json): run `rulepipe build` first")
    raw: dict[str, str] = {}
    langs = {"en", args.lang}
    for seg in read_segments(args.build):
        raw[seg["id"]] = seg["raw"]
        langs.add(seg["lang"])
    languages = sorted(langs - {"und"})
    languages.insert(0, languages.pop(languages.index("en")))
    beads = build_beads(alignments, raw, args.lang)
    found = suggest(beads, args.lang, glossary, args.min_count)
    if args.format == "tbx":
        from ..export.tbx import write_tbx

        text = write_tbx(to_glossary(found, languages), f"suggested from {args.build}")
    else:
        text = to_tsv(found, languages)
    write_output(text, args.out)
    return 0
