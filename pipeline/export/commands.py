"""`rulepipe export`: a build's rules, pairs or glossary in an exchange format."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..emit import dump_json, dump_yaml
from ..errors import InputError

FORMATS = ("json", "yaml", "tmx", "xliff", "po", "tbx", "tsv")

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
Without -o the document goes to standard output; with -o it is written to a temporary
file beside PATH and renamed, so PATH is never left half written.
PO writes one file per target language: without -o (standard output) or with -o FILE.po
the pairs must have one target language (choose it with --target-lang); with -o FOLDER
each language goes to FOLDER/LANG.po (the folder is made if missing), each file replaced
whole.
A reviewed XLIFF, TMX or PO file put into a new drop of the corpus (newer date in its
drop.yaml) gives the build its edited translations."""


def add_export(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="export rules (JSON/YAML), aligned pairs (TMX/XLIFF/PO) or the glossary (TBX/TSV)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    p.add_argument(
        "-o",
        "--out",
        type=Path,
        help="file to write (default: standard output); for PO also a folder, one LANG.po each",
    )
    p.add_argument(
        "--build", type=Path, default=Path("output"), help="build folder (default: ./output)"
    )
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
    p.add_argument(
        "--glossary",
        type=Path,
        help="TBX/TSV: the term base (default: ./corpus/glossary.yaml)",
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
        if args.tbx_version == "2":
            from .tbx2 import write_tbx2

            return write_tbx2(glossary, Path(glossary.file).name)
        from .tbx import write_tbx

        return write_tbx(glossary, Path(glossary.file).name)
    if fmt in ("json", "yaml"):
        from ..build_folder import read_rules

        rules = read_rules(args.build)
        return dump_json(rules) if fmt == "json" else dump_yaml(rules)
    from .pairs import load_pairs, select_target

    one_only = fmt == "xliff" and args.xliff_version == "2.0"
    pairs = select_target(load_pairs(args.build, args.level), args.target_lang, one_only)
    if fmt == "tmx":
        from .tmx import write_tmx

        return write_tmx(pairs, args.level)
    if args.xliff_version == "1.2":
        from .xliff12 import write_xliff12

        return write_xliff12(pairs)
    from .xliff import write_xliff

    return write_xliff(pairs)


def render_po(args: argparse.Namespace) -> dict[str, str]:
    """Target language -> its PO catalogue, all built in memory before anything is written."""
    from ..build_folder import read_rules
    from .pairs import load_pairs, select_target, source_places
    from .po import write_po

    pairs = select_target(load_pairs(args.build, args.level), args.target_lang, False)
    if not pairs:
        raise InputError("--target-lang", "no linked pairs to export")
    names = {}
    for rule in read_rules(args.build):
        found = rule.get("names") if isinstance(rule.get("names"), dict) else {}
        name = found.get("en") or next(iter(found.values()), None)
        if isinstance(name, str):
            names[rule["id"]] = name
    places = source_places(args.build, args.level)
    langs = sorted({p.target_lang for p in pairs})
    return {lang: write_po(pairs, lang, names, places) for lang in langs}


def write_po_files(catalogues: dict[str, str], out: Path | None) -> None:
    """One catalogue to standard output or FILE.po; several to FOLDER/LANG.po."""
    from ..files import write_atomic, write_output

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
        write_atomic(out / f"{lang}.po", text)


def run_export(args: argparse.Namespace) -> int:
    from ..files import write_output

    if args.format == "po":
        write_po_files(render_po(args), args.out)
        return 0
    write_output(render(args), args.out)
    return 0
