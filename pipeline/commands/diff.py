"""`rulepipe diff OLD NEW`: the changelog between two builds or corpora."""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options

DESCRIPTION = """\
Compare two builds (folders with manifest.json) or two corpora (folders with drops/,
built first into a temporary folder) and list the rules added, removed, renamed (same
texts, new id) and changed. For a changed rule: which quantity went from what to what,
which effect appeared or disappeared, which sentence was added, removed or changed, and
whether the change is wording only, touches numbers, or changes effects.
Markdown by default; JSON (schemas/diff.schema.json) with --json or --format json.
A difference is not a failure: the exit code is 0; 2 for a folder that is neither."""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "diff",
        help="changelog between two builds or corpora: rules added, removed, renamed, changed",
        description=DESCRIPTION,
        epilog="examples:\n  rulepipe diff output output --json\n  rulepipe diff corpus output",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("old", type=Path, help="the earlier build or corpus folder")
    p.add_argument("new", type=Path, help="the later build or corpus folder")
    p.add_argument("--format", choices=("md", "json"), default="md", help="default: md")
    p.add_argument("--json", action="store_true", help="the same as --format json")
    options.out_file(p)
    options.glossary(p, "term base for building corpus folders")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..diff import diff_folders
    from ..diff.render import to_markdown
    from ..emit import dump_json
    from ..files import write_output
    from ..progress import stage_progress

    with stage_progress() as progress:
        doc = diff_folders(args.old, args.new, args.glossary, progress)
    as_json = args.json or args.format == "json"
    write_output(dump_json(doc) if as_json else to_markdown(doc), args.out)
    return 0
