"""What commands print: `--json` is one JSON document on standard output, nothing else; the
text views are rich tables, plain when standard output is not a terminal."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

from ..textsafe import one_line


def print_json(doc: Any) -> None:
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")


def _console() -> Any:
    from ..console import console

    return console()


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], caption: str) -> None:
    """A table on a terminal; tab-separated lines, nothing cut, for a pipe or a file."""
    if not sys.stdout.isatty():
        for row in [header, *rows]:
            sys.stdout.write("\t".join(one_line(c) for c in row) + "\n")
        return
    from rich.table import Table

    table = Table(*header, caption=caption, show_edge=False, pad_edge=False)
    for row in rows:
        table.add_row(*row)
    _console().print(table)


def print_page(
    title: str,
    subtitle: str,
    texts: Sequence[tuple[str, str]],
    effects: Sequence[tuple[str, str, str]],
    table: tuple[Sequence[str], Sequence[Sequence[str]]] | None,
    sources: Sequence[str],
) -> None:
    """One rule: its texts side by side, effects with their words, table rows, sources."""
    from rich.markup import escape
    from rich.table import Table

    console = _console()
    console.print(f"[bold]{escape(title)}[/bold]")
    console.print(escape(subtitle))
    if texts and sys.stdout.isatty():
        side = Table(*(lang for lang, _ in texts), show_edge=False, expand=True)
        side.add_row(*(escape(text) for _, text in texts))
        console.print(side)
    else:
        for lang, text in texts:
            console.print(f"[bold]{lang}[/bold]\n{escape(text)}")
    if effects:
        console.print("[bold]effects[/bold]")
        for detail, op, words in effects:
            said = f'  ← "{escape(words)}"' if words else ""
            console.print(f"  {escape(op)} {escape(detail)}{said}")
    if table:
        header, rows = table
        grid = Table(*header, show_edge=False)
        for row in rows:
            grid.add_row(*(escape(c) for c in row))
        console.print(grid)
    if sources:
        console.print("[bold]sources[/bold]")
        for s in sources:
            console.print(f"  {escape(s)}")


def print_unit(page: dict[str, Any]) -> None:
    """One unit (`show.unit_page`): facts, parts with characteristics, lists, variants."""
    from rich.markup import escape
    from rich.table import Table

    console = _console()
    console.print(f"[bold]{escape(page['title'])}[/bold]")
    for fact in page["facts"]:
        console.print(escape(fact))

    def grid(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
        if not sys.stdout.isatty():
            for row in [header, *rows]:
                sys.stdout.write("\t".join(c.replace("\t", " ") for c in row) + "\n")
            return
        t = Table(*header, show_edge=False)
        for row in rows:
            t.add_row(*(escape(c) for c in row))
        console.print(t)

    grid(*page["parts"])
    for title, items in page["lists"]:
        if items:
            console.print(f"[bold]{escape(title)}[/bold]")
            for item in items:
                console.print(f"  {escape(item)}")
    for head, parts in page["variants"]:
        console.print(f"[bold]{escape(head)}[/bold]")
        if parts:
            grid(*parts)
        else:
            console.print("  the data states no profile for it")
    console.print(f"[bold]source[/bold]\n  {escape(page['source'])}")
