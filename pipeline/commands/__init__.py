"""The `rulepipe` command line: one module per command, one parser, one dispatch.

Each module here has `add(subparsers)`, which declares the command with the shared options of
`options.py`, and `run(args) -> int`. Modules import only argparse at the top, so that
`--help` and the light commands start without loading spaCy, lingua or pymorphy3.

Exit codes: 0 done; 1 findings at or above --fail-on; 2 bad usage or bad input (one line
naming the file, the place and what is wrong); 3 an internal error.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import InputError
from ..gc_pause import process_ends_with_command
from ..textsafe import one_line
from .options import FORMATTER

# The order of `rulepipe --help`: the flow first, then what reads a build.
COMMANDS = (
    "build",
    "extract",
    "glossary",
    "check",
    "export",
    "diff",
    "rules",
    "show",
    "coverage",
    "roll",
    "table",
    "charge",
    "attack",
    "matchup",
    "completion",
)

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


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, just that command is declared in full (the
    others by name alone), so that running one imports one command module, not all."""
    p = argparse.ArgumentParser(
        prog="rulepipe", description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER
    )
    p.add_argument("--version", action="version", version=f"rulepipe {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{name}").add(sub)
        else:
            sub.add_parser(name)
    return p


def entry() -> int:
    """The `rulepipe` program: `main`, then out of the process at once. A command has
    closed everything it writes when `main` returns; the interpreter's teardown would free
    every object one by one (a build's segments, spaCy's vocabulary, lingua's models):
    0.2 to 0.4 s of a 2 s build, for memory the system takes back anyway. The interpreter
    exits as it always has when the streams cannot be flushed (a closed pipe) and under a
    profiler or a coverage tracer, which write what they gathered at exit. For the same
    reason a command's pause of the garbage collector is not lifted."""
    process_ends_with_command()
    code = main()
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        return code
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    try:
        return int(args.run(args))
    except InputError as exc:
        print(f"rulepipe: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `rulepipe rules | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("rulepipe: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug: say so on one line, never a half-written output
        print(
            f"rulepipe: internal error: {type(exc).__name__}: {one_line(str(exc))}", file=sys.stderr
        )
        return 3
