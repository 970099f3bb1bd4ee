"""`rulepipe check`: translation checks over a pairs file or the linked pairs of a build."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from ..errors import InputError
from ..gc_pause import gc_paused
from . import options

FORMATS = ("json", "html", "text")
_REPORT_FILES = (("checks.json", "json"), ("checks.html", "html"))
REPORTS = frozenset(name for name, _ in _REPORT_FILES)  # what -o DIR holds


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="check translations against the English master (numbers, dice, terms, markup ...)",
        description="""\
Compare each translation with its English source on what the pipeline reads in both:
numbers, dice, distances and modifiers (1" = 1″ = 1 дюйм; Д6 is D6, reported as style),
BBCode markup, glossary terms (Russian in any inflected form), the script of every letter
(homoglyphs such as a Cyrillic Х in Х+D6, English left untranslated), sentences with no
counterpart, doubled words, punctuation and white space. Across all pairs: a term or a
segment translated two ways. On the English master alone: doubled words and spellings
that are not the house's ("Armor" for "Armour").

Pairs come from --pairs FILE.jsonl (one object a line: {"id", "source", "target",
"source_lang", "target_lang"}) or from a build (--build DIR: the linked pairs of
alignments.json with the texts of segments.jsonl; every English segment, and every other
segment that is not in a linked pair, is also checked on its own: homoglyphs, doubled
words, and the master's spellings).

Each finding is reported once for all copies of its text, under the name of its rule.
Findings a reviewer accepted are read from --accepted FILE (default:
./corpus/accepted-findings.yaml if present; one line a finding, as the HTML report's
"Accept" button gives it): they are listed apart and never fail the run.

Writes DIR/checks.json (schemas/checks.schema.json) and DIR/checks.html (one
self-contained page: summary, filters, both texts side by side with the findings marked)
and prints a terse summary. DIR is replaced whole, as a build folder is: the reports of one
run are always together, a second run into DIR while one writes is refused, and a folder
holding other files is not replaced. Exit code 1 when open findings at or above --fail-on exist.""",
        epilog="examples:\n  rulepipe check --build output -o checks\n"
        "  rulepipe check --pairs corpus/examples/pairs.jsonl --glossary"
        " corpus/examples/terms.tsv --fail-on never",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("--pairs", type=Path, help="pairs file, JSON Lines ('-' for standard input)")
    options.build_dir(p, "build folder to check when no --pairs is given")
    options.glossary(p)
    p.add_argument(
        "-o", "--out", type=Path, default=Path("checks"), help="report folder (default: ./checks)"
    )
    p.add_argument(
        "--format",
        default="json,html,text",
        help="comma-separated: json, html, text (default: all three)",
    )
    p.add_argument(
        "--accepted",
        type=Path,
        metavar="FILE",
        help="accepted findings, listed apart and never failing the run"
        " (default: ./corpus/accepted-findings.yaml if present)",
    )
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "never"),
        default="error",
        help="exit 1 when findings of this severity or worse exist (default: error)",
    )
    p.set_defaults(run=run, build=None)  # None: not given, so --pairs and --build can clash


def _formats(raw: str) -> list[str]:
    wanted = [f.strip().lower() for f in raw.split(",") if f.strip()]
    bad = [f for f in wanted if f not in FORMATS]
    if bad or not wanted:
        raise InputError(
            "--format", f"unknown format {bad[0] if bad else raw!r}; use json, html, text"
        )
    return wanted


def use_colour(stream: TextIO) -> bool:
    """Colour on a terminal unless NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


# The collector stays paused until the run's records are freed (they are when `run` returns):
# switched on while they live, its first pass would walk every pair, segment and finding.
@gc_paused(command=True)
def run(args: argparse.Namespace) -> int:
    from ..check.accepted import DEFAULT, read_accepted
    from ..check.pairs import read_build, read_pairs
    from ..check.report_text import report_text, summary_line
    from ..check.review import review
    from ..check.runner import run_checks
    from ..glossary import chosen_glossary

    formats = _formats(args.format)
    glossary = chosen_glossary(args.glossary)
    inputs: dict[str, str | None] = {
        "pairs": None,
        "build": None,
        "glossary": glossary.file if glossary else None,
        "glossary_sha256": glossary.sha256 if glossary else None,
    }
    if args.pairs is not None and args.build is not None:
        raise InputError("--build", "give either --pairs FILE or --build DIR, not both")
    accepted_path = args.accepted
    if accepted_path is None and DEFAULT.is_file():
        accepted_path = DEFAULT
    accepted = read_accepted(accepted_path) if accepted_path is not None else []
    rule_names: dict[str, str] = {}
    if args.pairs is not None:
        pairs = read_pairs(args.pairs)
        alone = None
        inputs["pairs"] = str(args.pairs)
    else:
        args.build = args.build or Path("output")
        built = read_build(args.build)
        pairs, alone, rule_names = built.pairs, built.alone, built.rule_names
        inputs["build"] = str(args.build)
        if not built.has_alignments:
            print(
                f"rulepipe: note: {args.build}/alignments.json not found:"
                " only the checks on single segments ran",
                file=sys.stderr,
            )
    from ..progress import stage_progress

    with stage_progress() as progress:
        report = run_checks(pairs, glossary, alone, inputs, progress)
    file = str(accepted_path) if accepted_path is not None else None
    seen = review(report, accepted, rule_names, file)
    reports = [name for name, fmt in _REPORT_FILES if fmt in formats]
    if reports:  # one folder swap: the reports of one run, always together
        from ..check.report_html import html_pieces  # imported for a report file only
        from ..check.report_json import write_report_json
        from ..emit import ReportOutput

        with ReportOutput(args.out, REPORTS) as folder:
            # each written a piece at a time, checked against its schema as it goes:
            # nothing lands unless all is valid, and no report is ever whole in memory
            if "json" in formats:
                with folder.open("checks.json") as data:
                    write_report_json(report, seen, data)
            if "html" in formats:
                with folder.open("checks.html") as page:
                    for piece in html_pieces(report, seen):
                        page.write(piece.encode("utf-8"))
    written = [args.out / name for name in reports]
    if "text" in formats:
        sys.stdout.write(report_text(report, args.fail_on, use_colour(sys.stdout), seen))
    else:
        print(summary_line(report, seen))
    if written:
        print("reports: " + ", ".join(str(p) for p in written))
    if args.fail_on != "never" and seen.at_or_above(args.fail_on):
        return 1
    return 0
