"""`rulepipe build`: the whole flow from a corpus folder to an output folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..gc_pause import gc_paused
from . import options

DESCRIPTION = """\
Read every drop under CORPUS/drops/ (plain text and Markdown, TMX, XLIFF 1.2 and 2.0,
BattleScribe .gst/.cat and their zipped forms), split it into blocks (paragraphs,
headings, pipe tables, list items, profiles), identify each block's language, mark
BBCode and translators' asides, deduplicate exact and near copies (reporting
conflicting variants), extract names, kinds, keywords, quantities, tables and effects,
link each translation to the English text it translates, assemble one rule per
section (a heading and the blocks under it) or named block, and write to OUT:
  segments.jsonl   every input block with provenance (drop, file, block, lines, sha256)
  clusters.json    copies grouped per language, with each member's relation
                   (exact, cosmetic, reworded, conflict)
  alignments.json  each translation's link to its English source, with sentence beads
  rules/<id>.yaml  one rule per section or block, its id from its English name
                   (loose-mounts), else its name transliterated (padenie-s-loshadi),
                   else its file and block (rules-12); rules.json, the bundle
  manifest.json    inputs with sha256, counts, and where every block went
The output folder is replaced only when the whole build succeeded; files are validated
against schemas/ before they are written. The same inputs give byte-identical output."""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "build",
        help="run the whole pipeline on a corpus and write the output folder",
        description=DESCRIPTION,
        epilog="example:\n  rulepipe build corpus -o output",
        formatter_class=options.FORMATTER,
    )
    p.add_argument(
        "corpus", nargs="?", default="corpus", type=Path, help="corpus folder (default: ./corpus)"
    )
    p.add_argument(
        "-o", "--out", default="output", type=Path, help="output folder (default: ./output)"
    )
    options.glossary(p)
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    p.add_argument(
        "--timings",
        action="store_true",
        help="add each stage's seconds, segments and peak memory to manifest.json (`timings`)"
        " and print them; off by default, as times differ between runs of the same build",
    )
    p.set_defaults(run=run)


# The collector stays paused until the build's records are freed (they are when `run`
# returns): switched on while they live, its first pass would walk every object the build
# made (2.5 s at 1000x).
@gc_paused(command=True)
def run(args: argparse.Namespace) -> int:
    from ..build import build
    from ..progress import stage_progress
    from ..summary import print_summary

    with stage_progress(enabled=not args.quiet) as progress:
        result = build(args.corpus, args.out, args.glossary, progress, timings=args.timings)
    if not args.quiet:
        print_summary(result, args.corpus)
        if args.timings:
            print(timings_table(result.manifest["timings"]))
    return 0


def timings_table(timings: dict) -> str:
    """The stages' times as the summary prints them: seconds, ms a segment, peak memory."""
    lines = ["  timings    stage            seconds   ms/segment   peak MiB"]
    for stage, t in timings["stages"].items():
        per = 1000 * t["seconds"] / t["segments"] if t["segments"] else 0.0
        lines.append(
            f"             {stage:<15}{t['seconds']:>9.2f}{per:>13.3f}{t['peak_mib']:>11.1f}"
        )
    lines.append(f"             {'total':<15}{timings['seconds']:>9.2f}")
    return "\n".join(lines)
