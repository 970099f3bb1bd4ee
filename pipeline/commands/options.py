"""Options several commands share, each defined once (the same flag, default and help)."""

from __future__ import annotations

import argparse
from pathlib import Path

FORMATTER = argparse.RawDescriptionHelpFormatter


def build_dir(p: argparse.ArgumentParser, what: str = "build folder to read") -> None:
    """`--build DIR`: the output folder of an earlier `rulepipe build`."""
    p.add_argument(
        "--build",
        type=Path,
        default=Path("output"),
        metavar="DIR",
        help=f"{what} (default: ./output)",
    )


def glossary(p: argparse.ArgumentParser, what: str = "term base") -> None:
    """`--glossary FILE`: the project's YAML term base or a TSV with a header of languages."""
    p.add_argument(
        "--glossary",
        type=Path,
        metavar="FILE",
        help=f"{what}: the project's YAML or a TSV whose header row names the languages"
        " (en<TAB>ru); default: ./corpus/glossary.yaml if present",
    )


def json_flag(p: argparse.ArgumentParser) -> None:
    """`--json`: one JSON document on standard output, nothing else there."""
    p.add_argument("--json", action="store_true", help="print one JSON document (exact fractions)")


def strict(p: argparse.ArgumentParser) -> None:
    """`--strict`: refuse (exit 2) rather than answer while a rule in play has clauses not read."""
    p.add_argument(
        "--strict",
        action="store_true",
        help="refuse (exit 2) instead of answering when a rule in play has clauses the "
        "result does not read (without it they are listed under the result)",
    )


def out_file(p: argparse.ArgumentParser, what: str = "file to write") -> None:
    """`-o PATH`: written whole or not at all; standard output without it."""
    p.add_argument(
        "-o", "--out", type=Path, metavar="PATH", help=f"{what} (default: standard output)"
    )


def when(p: argparse.ArgumentParser, what: str) -> None:
    """`--when CONDITION`: a named situation that switches on conditional effects."""
    p.add_argument("--when", action="append", metavar="CONDITION", help=what)


def language_code(value: str) -> str:
    """An ISO 639-1 code the pipeline knows (pipeline/lang/languages.yaml), else a usage error."""
    from ..lang import known_languages

    code = value.strip().lower()
    if code not in known_languages():
        known = ", ".join(sorted(known_languages()))
        raise argparse.ArgumentTypeError(f"unknown language {value!r}; known: {known}")
    return code


def lang(p: argparse.ArgumentParser, what: str) -> None:
    """`--lang LANG`: a language code, checked against the languages the pipeline knows."""
    p.add_argument("--lang", type=language_code, metavar="LANG", help=what)


def check_conditions(asked: list[str] | None, known: set[str], what: str) -> None:
    """Refuse a `--when` that nothing here switches on, naming what would."""
    from ..errors import InputError

    for name in asked or ():
        if name not in known:
            choices = ", ".join(sorted(known)) or "none"
            raise InputError("--when", f"{what} has no situation {name!r}; it knows: {choices}")
