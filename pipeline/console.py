"""Rich consoles for what commands print. A closed pipe (`rulepipe roll 3D6 | head -1`) is
the reader having what it wanted: it surfaces as BrokenPipeError, which the command layer
turns into exit 0, where rich alone would exit 1."""

from __future__ import annotations

import sys
from typing import Any, TextIO


def console(file: TextIO | None = None, **options: Any) -> Any:
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    options.setdefault("soft_wrap", not (file or sys.stdout).isatty())
    return _Console(file=file, highlight=False, emoji=False, **options)
