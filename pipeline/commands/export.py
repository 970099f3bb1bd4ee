"""`rulepipe export`: a build's rules, pairs or glossary in an exchange format, or a site."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options

DESCRIPTION = """\
Export what a build holds, for other tools:
  json, yaml   the rule bundle (rules.json of the build; YAML is a safe dump of the same)
  tmx          the aligned pairs (links with status linked in alignments.json) as TMX 1.4b,
               English source, translation target, BBCode as TMX inline codes
  xliff        the same pairs as XLIFF 2.0 (one target language per document), BBCode as
               <pc>/<sc>/<ec>/<ph> with the tags' text in <originalData>; or, with
               --xliff-version 1.2, as XLIFF 1.2 with one <file> per target language,
               BBCode as <bpt>/<ept>/<it>/<ph> holding the tags' text
  po           the same pairs as gettext PO, one catalogue per target language: msgctxt
               the rule id, #. the rule's name and link id, #: drop/file:line of the source
  tbx, tsv     the glossary (TBX-Basic; TSV with a header row naming the languages);
               deprecated renderings marked (TBX administrative status, TSV status column)
  site         a static site in the folder -o DIR (opens from the file system): index with
               search, a page per rule (texts side by side, sentences aligned, effects
               marked), table odds and attack examples as charts, units; --since OLD_BUILD
               adds a changes page
Without -o the document goes to standard output; with -o it is written to a temporary
file beside PATH and renamed, so PATH is never left half written.
PO writes one file per target language: without -o (standard output) or with -o FILE.po
the pairs must have one target language (choose it with --target-lang); with -o FOLDER
each language goes to FOLDER/LANG.po (the folder is made if missing), each file replaced
whole.
A reviewed XLIFF, TMX or PO file put into a new drop of the corpus (newer date in its
drop.yaml) gives the build its edited translations."""


def add(sub: argparse._SubParsersAction) -> None:
    from ..export import FORMATS

    p = sub.add_parser(
        "export",
        help="export rules (JSON/YAML), aligned pairs (TMX/XLIFF/PO), the glossary (TBX/TSV)"
        " or a static site",
        description=DESCRIPTION,
        epilog="examples:\n  rulepipe export --format json -o rules.json\n"
        "  rulepipe export --format xliff --xliff-version 1.2 -o review.xlf\n"
        "  rulepipe export --format po -o po\n"
        "  rulepipe export --format tbx --tbx-version 2 -o glossary.tbx\n"
        "  rulepipe export --format site -o site",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    p.add_argument(
        "-o",
        "--out",
        type=Path,
        metavar="PATH",
        help="file to write (default: standard output); for PO also a folder, one LANG.po"
        " each; for a site the folder",
    )
    options.build_dir(p)
    p.add_argument(
        "--level",
        choices=("paragraph", "sentence"),
        default="paragraph",
        help="TMX/XLIFF/PO: one unit per aligned paragraph (default) or per aligned sentence",
    )
    p.add_argument(
        "--target-lang",
        metavar="LANG",
        help="TMX/XLIFF/PO: only pairs translated into LANG (XLIFF 2.0, and PO to one file,"
        " need it when a build has several target languages)",
    )
    p.add_argument(
        "--xliff-version",
        choices=("1.2", "2.0"),
        default="2.0",
        help="XLIFF: 2.0 (default: the current OASIS standard, one target language a"
        " document, and what earlier versions of rulepipe wrote) or 1.2 (read by most CAT"
        " tools; every target language in one document)",
    )
    p.add_argument(
        "--tbx-version",
        choices=("2", "3"),
        default="3",
        help="TBX: 3 (default: TBX-Basic of ISO 30042:2019, the current standard, and what"
        " earlier versions of rulepipe wrote) or 2 (TBX-Basic of ISO 30042:2008, <martif>,"
        " which most CAT tools' term bases and translate-toolkit read)",
    )
    options.glossary(p, "TBX/TSV: the term base to write")
    p.add_argument(
        "--since",
        type=Path,
        metavar="OLD_BUILD",
        help="site: a changes page against this earlier build (or corpus)",
    )
    p.set_defaults(run=run)


def write_po_files(catalogues: dict[str, str], out: Path | None) -> None:
    """One catalogue to standard output or FILE.po; several to FOLDER/LANG.po."""
    from ..errors import InputError
    from ..files import write_output

    if out is None or out.suffix.lower() in (".po", ".pot"):
        if len(catalogues) > 1:
            raise InputError(
                "--target-lang",
                f"the pairs have {len(catalogues)} target languages ({', '.join(catalogues)})"
                " and a PO file holds one; choose one with --target-lang, or give -o FOLDER"
                " for one FOLDER/LANG.po each",
            )
        write_output(next(iter(catalogues.values())), out)
        return
    if out.exists() and not out.is_dir():
        raise InputError(str(out), "is a file; give a folder (or a .po file) to -o")
    if not out.parent.is_dir():
        raise InputError(str(out), "the folder to write into does not exist")
    out.mkdir(exist_ok=True)
    for lang, text in catalogues.items():
        write_output(text, out / f"{lang}.po")


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..export import render, render_po
    from ..files import write_output

    if args.format == "site":
        from ..export.site import write_site

        if args.out is None:
            raise InputError("-o", "a site is a folder: give it with -o DIR")
        write_site(args.build, args.out, args.since)
        return 0
    if args.format == "po":
        write_po_files(render_po(args.build, args.level, args.target_lang), args.out)
        return 0
    doc = render(
        args.format,
        args.build,
        level=args.level,
        target_lang=args.target_lang,
        glossary=args.glossary,
        xliff_version=args.xliff_version,
        tbx_version=args.tbx_version,
    )
    write_output(doc, args.out)
    return 0
