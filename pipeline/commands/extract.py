"""`rulepipe extract`: what the pipeline reads in paragraphs, JSON Lines in and out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import options

DESCRIPTION = """\
Read FILE, one JSON object a line: {"id", "text", "lang"} (lang: en, ru, ...), and print
one JSON object a line: {"id", "name", "kind", "keywords", "quantities", "effects"}:
the rule the paragraph defines, its kind, glossary keywords, quantities with their
character spans, and effects in the interpreter's vocabulary."""


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "extract",
        help="show what the pipeline reads in paragraphs (JSON Lines in and out)",
        description=DESCRIPTION,
        epilog="example:\n  rulepipe extract corpus/examples/extract.jsonl",
        formatter_class=options.FORMATTER,
    )
    p.add_argument("file", type=Path, help="JSON Lines file ('-' for standard input)")
    options.glossary(p, "term base for keywords")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..extract.facts import extract_text
    from ..files import MAX_TEXT_CHARS, text_too_long
    from ..glossary import chosen_glossary
    from ..jsonl import read_jsonl
    from ..lang import data_languages

    glossary = chosen_glossary(args.glossary)
    required = {"id": str, "text": str, "lang": str}
    rows = list(read_jsonl(args.file, required))
    known = data_languages()
    for n, row in enumerate(rows, 1):
        if len(row["text"]) > MAX_TEXT_CHARS:
            raise text_too_long(str(args.file), len(row["text"]), str(n))
        if row["lang"] not in known:
            raise InputError(
                str(args.file),
                f"no extraction data for language {row['lang']!r}; use one of"
                f" {', '.join(sorted(known))}",
                str(n),
            )
    for row in rows:
        result = extract_text(row["id"], row["text"], row["lang"], glossary)
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return 0
