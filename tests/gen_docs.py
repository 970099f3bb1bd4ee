"""Write the parts of docs/ that are made from the code, or check that they are current.

Run `.venv/bin/python tests/gen_docs.py` after changing a command's options or help, a check's
declaration, a limit or a schema; `--check` changes nothing and exits 1 naming each file
that differs (tests/test_docs.py runs it). A generated part of a hand-written file sits
between `<!-- generated: NAME -->` and `<!-- end generated -->`; docs/commands.md is
generated whole.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
COLUMNS = 100  # the width --help is formatted to, whatever the terminal

# Input and output bounds shown in docs/limits.md: module -> constants.
IO_LIMITS = {
    "pipeline.files": ("MAX_FILE_BYTES", "MAX_BUILD_FILE_BYTES"),
    "pipeline.xmlsafe": ("MAX_XML_BYTES", "MAX_ZIP_MEMBERS", "MAX_ZIP_RATIO", "RATIO_FLOOR"),
    "pipeline.ingest.text": ("MAX_BLOCK_CHARS",),
    "pipeline.jsonl": ("MAX_DEPTH",),
    "pipeline.check.report_html": ("MAX_LISTED", "MAX_QUOTED"),
}
_SECTION = re.compile(
    r"(<!-- generated: (?P<name>[\w-]+) -->\n).*?(<!-- end generated -->)", flags=re.S
)


def _parsers(
    parser: argparse.ArgumentParser,
) -> Iterator[argparse.ArgumentParser]:
    """A parser and every subcommand's parser below it, in declaration order."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _parsers(sub)


def commands() -> str:
    """Every --help of the command line, as `rulepipe ... --help` prints it."""
    from pipeline.commands import parser

    os.environ["COLUMNS"] = str(COLUMNS)
    parts = [
        "# Commands\n\n"
        "Every command's `--help`, as it prints it. Made by `tests/gen_docs.py` from the\n"
        "command line's parsers; do not edit by hand.\n"
    ]
    for p in _parsers(parser()):
        parts.append(f"\n## {p.prog}\n\n```text\n{p.format_help().rstrip()}\n```\n")
    return "".join(parts)


def checks() -> str:
    from pipeline.check.catalogue import CHECKS
    from pipeline.check.registry import markdown_table

    return markdown_table(CHECKS)


def _comments(module: str) -> dict[str, str]:
    """The comment at the end of each `NAME = value  # comment` line of a module."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    source = Path(spec.origin).read_text("utf-8")
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.end_lineno is not None:
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            line = source.splitlines()[node.end_lineno - 1]
            if isinstance(target, ast.Name) and "  # " in line:
                found[target.id] = line.split("  # ", 1)[1].strip()
    return found


def _value(name: str, value: int) -> str:
    if name.endswith(("_BYTES", "_FLOOR")) and value >= 1024 * 1024:
        size = f"{value / 1024**3:g} GiB" if value >= 1024**3 else f"{value / 1024**2:g} MiB"
        return f"{size} ({value:,} bytes)"
    return f"{value:,}"


def _constants(modules: dict[str, tuple[str, ...]], where: bool) -> str:
    head = "| constant | value | where |" if where else "| constant | value | what |"
    rows = [head, "|---|---:|---|"]
    for module, names in modules.items():
        values, notes = importlib.import_module(module), _comments(module)
        for name in names:
            last = f"`{module.replace('.', '/')}.py`" if where else notes.get(name, "")
            rows.append(f"| `{name}` | {_value(name, getattr(values, name))} | {last} |")
    return "\n".join(rows) + "\n"


def io_limits() -> str:
    return _constants(IO_LIMITS, where=True)


def interpreter_limits() -> str:
    from pipeline.interpret import limits

    names = tuple(n for n in vars(limits) if n.startswith("MAX_"))
    return _constants({"pipeline.interpret.limits": names}, where=False)


def _type(spec: dict) -> str:
    if "$ref" in spec:
        return spec["$ref"].rsplit("/", 1)[-1]
    kind = spec.get("type", "")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" and isinstance(spec.get("items"), dict):
        kind = f"array of {_type(spec['items']) or 'values'}"
    return kind or ("one of several" if "oneOf" in spec or "anyOf" in spec else "")


def schemas() -> str:
    """Each schema's title, what it describes, and its top-level fields."""
    parts = []
    for path in sorted((ROOT / "schemas").glob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        parts.append(f"### `schemas/{path.name}`: {schema.get('title', '')}\n")
        parts.append(f"{schema.get('description', '').strip()}\n")
        fields = schema.get("properties", {})
        if fields:
            required = set(schema.get("required", ()))
            rows = ["| field | type | required | what |", "|---|---|---|---|"]
            for name, spec in fields.items():
                what = " ".join(str(spec.get("description", "")).split())
                need = "yes" if name in required else ""
                rows.append(f"| `{name}` | {_type(spec)} | {need} | {what} |")
            parts.append("\n".join(rows) + "\n")
    return "\n".join(parts)


SECTIONS: dict[str, Callable[[], str]] = {
    "checks": checks,
    "io-limits": io_limits,
    "interpreter-limits": interpreter_limits,
    "schemas": schemas,
}
SECTION_FILES = ("checks.md", "limits.md", "formats.md")


def expected() -> dict[Path, str]:
    """Each generated file's text as the code makes it now."""
    made = {DOCS / "commands.md": commands()}
    texts = {name: make() for name, make in SECTIONS.items()}
    for name in SECTION_FILES:
        path = DOCS / name
        text = path.read_text("utf-8")
        seen = {m.group("name") for m in _SECTION.finditer(text)}
        if unknown := seen - set(texts):
            raise SystemExit(f"{path}: unknown generated part {sorted(unknown)}")
        made[path] = _SECTION.sub(lambda m: m.group(1) + texts[m.group("name")] + m.group(3), text)
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    stale = []
    for path, text in expected().items():
        if not path.exists() or path.read_text("utf-8") != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(text, "utf-8")
    for path in stale:
        print(f"{path}: {'differs from the code' if args.check else 'written'}")
    if stale and args.check:
        print("run: .venv/bin/python tests/gen_docs.py", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
