"""`rulepipe export`: a build's rules, pairs or glossary in an exchange format."""

from __future__ import annotations

import argparse

from . import options

DESCRIPTION = """\
Export what a build holds, for other tools:
  json, yaml   the rule bundle (rules.json of the build; YAML is a safe dump of the same)
  tmx          the aligned pairs (links with status linked in alignments.json) as TMX 1.4b,
               English source, translation target, BBCode as TMX inline codes
  xliff        the same pairs as XLIFF 2.0 (one target language per document), BBCode as
               <pc>/<sc>/<ec>/<ph> with the tags' text in <originalData>
  tbx, tsv     the glossary (TBX-Basic; TSV with a header row naming the languages);
               deprecated renderings marked (TBX administrative status, TSV status column)
Without -o the document goes to standard output; with -o it is written to a temporary
file beside PATH and renamed, so PATH is never left half written."""


def add(sub: argparse._SubParsersAction) -> None:
    from ..export import FORMATS

    p = sub.add_parser(
        "export",
        help="export rules (JSON/YAML), aligned pairs (TMX/XLIFF) or the glossary (TBX/TSV)",
        description=DESCRIPTION,
        formatter_class=options.FORMATTER,
    )
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    options.out_file(p)
    options.build_dir(p)
    p.add_argument(
        "--level",
        choices=("paragraph", "sentence"),
        default="paragraph",
        help="TMX/XLIFF: one unit per aligned paragraph (default) or per aligned sentence",
    )
    p.add_argument(
        "--target-lang",
        metavar="LANG",
        help="TMX/XLIFF: only pairs translated into LANG (XLIFF needs it when a build has"
        " several target languages)",
    )
    options.glossary(p, "TBX/TSV: the term base to write")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..export import render
    from ..files import write_output

    doc = render(
        args.format,
        args.build,
        level=args.level,
        target_lang=args.target_lang,
        glossary=args.glossary,
    )
    write_output(doc, args.out)
    return 0
