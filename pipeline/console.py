"""Rich consoles for what commands print. A closed pipe (`rulepipe roll 3D6 | head -1`) is
the reader having what it wanted: it surfaces as BrokenPipeError, which the command layer
turns into exit 0, where rich alone would exit 1. Every text they print (a cell, a title, a
line) is shown as `textsafe.terminal` spells it: an ESC from a rule's name or a pair's id
never reaches the terminal as ESC."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from .textsafe import terminal


def console(file: TextIO | None = None, **options: Any) -> Any:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

        def render_str(self, text: str, **how: Any) -> Any:
            return super().render_str(terminal(text), **how)

    options.setdefault("soft_wrap", not (file or sys.stdout).isatty())
    return _Console(file=file, highlight=False, emoji=False, **options)
