"""`rulepipe export`: a build's rules, pairs or glossary in an exchange format."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..emit import dump_json, dump_yaml
from ..errors import InputError

FORMATS = ("json", "yaml", "tmx", "xliff", "tbx", "tsv", "site")

DESCRIPTION = """\
Export what a build holds, for other tools:
  json, yaml   the rule bundle (rules.json of the build; YAML is a safe dump of the same)
  tmx          the aligned pairs (links with status linked in alignments.json) as TMX 1.4b,
               English source, translation target, BBCode as TMX inline codes
  xliff        the same pairs as XLIFF 2.0 (one target language per document), BBCode as
               <pc>/<sc>/<ec>/<ph> with the tags' text in <originalData>
  tbx, tsv     the glossary (TBX-Basic; TSV with a header row naming the languages);
               deprecated renderings marked (TBX administrative status, TSV status column)
  site         a static site in the folder -o DIR (opens from the file system): index with
               search, a page per rule (texts side by side, sentences aligned, effects
               marked), table odds and attack examples as charts, units; --since OLD_BUILD
               adds a changes page
Without -o the document goes to standard output; with -o it is written to a temporary
file beside PATH and renamed, so PATH is never left half written."""


def add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="export rules (JSON/YAML), aligned pairs (TMX/XLIFF) or the glossary (TBX/TSV)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    p.add_argument("-o", "--out", type=Path, help="file to write (default: standard output)")
    p.add_argument(
        "--build", type=Path, default=Path("output"), help="build folder (default: ./output)"
    )
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
    p.add_argument(
        "--glossary",
        type=Path,
        help="TBX/TSV: the term base (default: ./corpus/glossary.yaml)",
    )
    p.add_argument(
        "--since",
        type=Path,
        metavar="OLD_BUILD",
        help="site: a changes page against this earlier build (or corpus)",
    )
    p.set_defaults(run=run_export)


def render(args: argparse.Namespace) -> str:
    """The whole document, built in memory before anything is written."""
    fmt = args.format
    if fmt in ("tbx", "tsv"):
        from ..glossary import DEFAULT_GLOSSARY, chosen_glossary

        glossary = chosen_glossary(args.glossary)
        if glossary is None:
            raise InputError(str(DEFAULT_GLOSSARY), "no glossary here; pass --glossary FILE")
        if fmt == "tsv":
            from .tsv import write_tsv

            return write_tsv(glossary)
        from .tbx import write_tbx

        return write_tbx(glossary, Path(glossary.file).name)
    if fmt in ("json", "yaml"):
        from ..build_folder import read_rules

        rules = read_rules(args.build)
        return dump_json(rules) if fmt == "json" else dump_yaml(rules)
    from .pairs import load_pairs, select_target

    pairs = select_target(
        load_pairs(args.build, args.level), args.target_lang, one_only=fmt == "xliff"
    )
    if fmt == "tmx":
        from .tmx import write_tmx

        return write_tmx(pairs, args.level)
    from .xliff import write_xliff

    return write_xliff(pairs)


def run_export(args: argparse.Namespace) -> int:
    from ..files import write_output

    if args.format == "site":
        from .site import write_site

        if args.out is None:
            raise InputError("-o", "a site is a folder: give it with -o DIR")
        write_site(args.build, args.out, args.since)
        return 0

    write_output(render(args), args.out)
    return 0
