"""The `rulepipe` command line: one entry point, one sub-command per job.

Exit codes: 0 done; 1 findings at or above --fail-on; 2 bad usage or bad input (one
line naming the file, the place and what is wrong); 3 an internal error.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import __version__
from .errors import InputError

DESCRIPTION = """\
rulepipe turns source drops of tabletop-wargame rules (rulebook and army-book text,
translation-memory dumps, army-builder data; English master with Russian, Italian ...
translations) into one structured, traceable model of the rules: deduplicated
segments, clusters of copies, and schema-valid rule data.

Start with `rulepipe build` on a corpus folder (corpus/drops/<drop>/<files>); it writes
output/ with segments, clusters, rule files and a manifest. The interpreter commands
(roll, table, charge, attack) compute exact odds from the rule files of a build."""

EPILOG = """\
exit codes: 0 done, 1 findings at or above --fail-on, 2 bad usage or bad input
(one line naming file, place and problem), 3 internal error.
Run `rulepipe COMMAND --help` for the options of a command."""


def _add_build(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build",
        help="run the whole pipeline on a corpus and write the output folder",
        description="""\
Read every drop under CORPUS/drops/ (plain text and Markdown), split it into blocks
(paragraphs, headings, pipe tables, list items), identify each block's language, mark
BBCode and translators' asides, deduplicate exact and near copies (reporting
conflicting variants), extract names, kinds, keywords, quantities, tables and effects,
assemble one rule per cluster, and write to OUT:
  segments.jsonl   every input block with provenance (drop, file, block, lines, sha256)
  clusters.json    copies grouped per language, with each member's relation
  rules/<id>.yaml  one rule per cluster; rules.json, the bundle of them all
  manifest.json    inputs with sha256, counts, and where every block went
The output folder is replaced only when the whole build succeeded; files are validated
against schemas/ before they are written. The same inputs give byte-identical output.""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "corpus", nargs="?", default="corpus", type=Path, help="corpus folder (default: ./corpus)"
    )
    p.add_argument(
        "-o", "--out", default="output", type=Path, help="output folder (default: ./output)"
    )
    p.add_argument(
        "--glossary",
        type=Path,
        help="term base (YAML, schemas/glossary.schema.json);"
        " default: CORPUS/glossary.yaml if present",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    p.set_defaults(run=_run_build)


def _run_build(args: argparse.Namespace) -> int:
    from .build import build
    from .summary import print_summary, progress_reporter

    with progress_reporter(enabled=not args.quiet) as progress:
        result = build(args.corpus, args.out, args.glossary, progress)
    if not args.quiet:
        print_summary(result, args.corpus)
    return 0


def _add_extract(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "extract",
        help="show what the pipeline reads in paragraphs (JSON Lines in and out)",
        description="""\
Read FILE, one JSON object a line: {"id", "text", "lang"} (lang: en, ru, ...), and print
one JSON object a line: {"id", "name", "kind", "keywords", "quantities", "effects"}:
the rule the paragraph defines, its kind, glossary keywords, quantities with their
character spans, and effects in the interpreter's vocabulary.""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", type=Path, help="JSON Lines file ('-' for standard input)")
    p.add_argument(
        "--glossary",
        type=Path,
        help="term base for keywords (default: ./corpus/glossary.yaml if present)",
    )
    p.set_defaults(run=_run_extract)


def _run_extract(args: argparse.Namespace) -> int:
    from .extract.facts import extract_text
    from .glossary import chosen_glossary
    from .jsonl import read_jsonl

    glossary = chosen_glossary(args.glossary)
    required = {"id": str, "text": str, "lang": str}
    rows = list(read_jsonl(args.file, required))
    out = sys.stdout
    for row in rows:
        result = extract_text(row["id"], row["text"], row["lang"], glossary)
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 0


def _add_glossary(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "glossary",
        help="glossary tools: propose term pairs from a build's linked translations",
        description="Glossary tools. `rulepipe glossary suggest` proposes term pairs.",
    )
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    s = tools.add_parser(
        "suggest",
        help="propose term pairs from the linked pairs of a build (TSV or TBX)",
        description="""\
Read candidate terms on both sides of every linked sentence pair of a build (English
capitalised terms; Russian noun phrases in their dictionary form), pair them by how
often they occur together, where, and whether both are capitalised, and print one
rendering per term as the project's TSV glossary (status `proposed`, count, score, a
note saying when the evidence is thin, one example pair with its ids), or as TBX.
Terms the glossary already has, and terms it marks `rejected`, are left out. Set a
row's status to `preferred` to accept it or `rejected` to never see it again, then
give the file back with --glossary (TSV and TBX both load).""",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument(
        "--build", type=Path, default=Path("output"), help="build folder (default: ./output)"
    )
    s.add_argument("--lang", default="ru", help="language of the translations (default: ru)")
    s.add_argument(
        "--glossary",
        type=Path,
        help="leave out terms of this glossary, approved or rejected"
        " (default: ./corpus/glossary.yaml if present)",
    )
    s.add_argument(
        "--min-count",
        type=int,
        default=2,
        help="sentence pairs a term pair must share (default: 2; a pair seen once is"
        " proposed only when nothing else could be meant)",
    )
    s.add_argument("--format", choices=("tsv", "tbx"), default="tsv", help="default: tsv")
    s.add_argument("-o", "--out", type=Path, help="write the file here (default: standard output)")
    s.set_defaults(run=_run_suggest)


def _run_suggest(args: argparse.Namespace) -> int:
    from .align.suggest import build_beads, suggest, to_glossary, to_tsv
    from .build_folder import read_json
    from .files import MAX_BUILD_FILE_BYTES, write_output
    from .glossary import chosen_glossary
    from .jsonl import read_jsonl

    glossary = chosen_glossary(args.glossary)
    alignments = read_json(
        args.build / "alignments.json", "alignments (alignments.json): run `rulepipe build` first"
    )
    raw: dict[str, str] = {}
    langs = {"en", args.lang}
    for s in read_jsonl(
        args.build / "segments.jsonl", {"id": str, "raw": str, "lang": str}, MAX_BUILD_FILE_BYTES
    ):
        raw[s["id"]] = s["raw"]
        langs.add(s["lang"])
    languages = sorted(langs - {"und"})
    languages.insert(0, languages.pop(languages.index("en")))
    beads = build_beads(alignments, raw, args.lang)
    found = suggest(beads, args.lang, glossary, args.min_count)
    if args.format == "tbx":
        from .export.tbx import write_tbx

        text = write_tbx(to_glossary(found, languages), f"suggested from {args.build}")
    else:
        text = to_tsv(found, languages)
    write_output(text, args.out)
    return 0


def _add_interpreter(sub: argparse._SubParsersAction) -> None:
    from .interpret import add_commands

    add_commands(sub)


def _add_export(sub: argparse._SubParsersAction) -> None:
    from .export.commands import add_export

    add_export(sub)


def _add_diff(sub: argparse._SubParsersAction) -> None:
    from .diff.commands import add_diff

    add_diff(sub)


def _add_check(sub: argparse._SubParsersAction) -> None:
    from .check.commands import add_commands

    add_commands(sub)


COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_build,
    _add_extract,
    _add_glossary,
    _add_interpreter,
    _add_export,
    _add_diff,
    _add_check,
]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rulepipe",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"rulepipe {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in COMMANDS:
        add(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    run = getattr(args, "run", None) or args.func
    try:
        return int(run(args))
    except InputError as exc:
        print(f"rulepipe: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulepipe: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so on one line, never a half-written output
        print(f"rulepipe: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 3
