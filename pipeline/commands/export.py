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
  xliff        the same pairs as XLIFF 2.0, BBCode as <pc>/<sc>/<ec>/<ph> with the tags'
               text in <originalData>; or, with --xliff-version 1.2, as XLIFF 1.2 (units
               approved, targets state="translated"), BBCode as <bpt>/<ept>/<it>/<ph>
               holding the tags' text; one target language a document
  po           the same pairs as gettext PO, one catalogue per target language: msgctxt
               the rule id, #. the rule's name and link id, #: drop/file:line of the source
  pot          a gettext template: every rule's English text, one entry per sentence
  tbx, tsv     the glossary (TBX-Basic; TSV with a header row naming the languages);
               deprecated renderings marked (TBX administrative status, TSV status column)
  site         a static site in the folder -o DIR (opens from the file system): index with
               search, a page per rule (texts side by side, sentences aligned, effects
               marked), table odds and attack examples as charts, units; --since OLD_BUILD
               adds a changes page
Without -o the document goes to standard output; with -o it is written to a temporary
file beside PATH and renamed, so PATH is never left half written.
XLIFF and PO write one file per target language: without -o (standard output) or with
-o FILE the pairs must have one target language (choose it with --target-lang); with
-o FOLDER each language goes to FOLDER/LANG.xlf or FOLDER/LANG.po (the folder is made if
missing), each file replaced whole.
Text to translate: a build with no translation into the languages asked (an English-only
drop), or --to-translate, gives every rule's English text with empty targets, one unit
per sentence whose id names the rule, the part and the sentence (fear.1.2); name the
languages with --target-lang (needed only then). A TMX of a build with no pairs is refused.
A translated or reviewed XLIFF, TMX or PO file put into a new drop of the corpus (newer
date in its drop.yaml) gives the build its translations: a unit that names a rule replaces
that rule's translation."""


def add(sub: argparse._SubParsersAction) -> None:
    from ..export import FORMATS

    p = sub.add_parser(
        "export",
        help="export rules (JSON/YAML), aligned pairs (TMX/XLIFF/PO), the glossary (TBX/TSV)"
        " or a static site",
        description=DESCRIPTION,
        epilog="examples:\n  rulepipe export --format json -o rules.json\n"
        "  rulepipe export --format xliff --xliff-version 1.2 --target-lang ru -o review.xlf\n"
        "  rulepipe export --format po -o po\n"
        "  rulepipe export --format xliff --to-translate --target-lang de -o out.xlf\n"
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
        help="TMX/XLIFF/PO: one unit per aligned paragraph or per aligned sentence (default:"
        " paragraph for pairs, sentence for text to translate)",
    )
    p.add_argument(
        "--target-lang",
        metavar="LANG",
        help="TMX/XLIFF/PO: only pairs translated into LANG (ru; several as ru,it); needed"
        " to write one file when the pairs have several, and to name the languages of text"
        " to translate when the build has no translation yet",
    )
    p.add_argument(
        "--to-translate",
        action="store_true",
        help="XLIFF/PO: every rule's English text with empty targets, one unit per sentence"
        " (what a build with no translation exports anyway)",
    )
    p.add_argument(
        "--xliff-version",
        choices=("1.2", "2.0"),
        default="2.0",
        help="XLIFF: 2.0 (default: the current OASIS standard, and what earlier versions of"
        " rulepipe wrote) or 1.2 (read by most CAT tools); one target language a document",
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


_FILES = frozenset({".po", ".pot", ".xlf", ".xliff", ".xml"})


def write_catalogues(docs: dict[str, str], out: Path | None, fmt: str, version: str) -> None:
    """One document to standard output or FILE; several to FOLDER/LANG.EXT."""
    from ..errors import InputError
    from ..export import CATALOGUES, one_catalogue
    from ..files import STANDARD_OUTPUT, write_output

    suffix = CATALOGUES[fmt]
    single = out is None or str(out) == STANDARD_OUTPUT or out.suffix.lower() in _FILES
    if single or (out is not None and out.exists() and not out.is_dir()):
        write_output(one_catalogue(docs, fmt, version), out)
        return
    if not out.parent.is_dir():
        raise InputError(str(out), "the folder to write into does not exist")
    out.mkdir(exist_ok=True)
    for lang, text in docs.items():
        write_output(text, out / f"{lang or 'template'}{suffix}")


def write_po_files(catalogues: dict[str, str], out: Path | None) -> None:
    """PO catalogues by language: one to standard output or FILE.po, several to
    FOLDER/LANG.po (write_catalogues for PO)."""
    write_catalogues(catalogues, out, "po", "2.0")


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..export import CATALOGUES, render, render_catalogues
    from ..files import write_output

    if args.format == "site":
        from ..export.site import write_site

        if args.out is None:
            raise InputError("-o", "a site is a folder: give it with -o DIR")
        write_site(args.build, args.out, args.since)
        return 0
    if args.to_translate and args.format not in ("xliff", "po"):
        raise InputError("--to-translate", "is for --format xliff or po")
    if args.format in CATALOGUES:
        docs = render_catalogues(
            args.format,
            args.build,
            level=args.level,
            target_lang=args.target_lang,
            xliff_version=args.xliff_version,
            to_translate=args.to_translate,
        )
        write_catalogues(docs, args.out, args.format, args.xliff_version)
        return 0
    doc = render(
        args.format,
        args.build,
        level=args.level,
        target_lang=args.target_lang,
        glossary=args.glossary,
        tbx_version=args.tbx_version,
    )
    write_output(doc, args.out)
    return 0
