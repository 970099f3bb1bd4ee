"""Progress on the terminal: one bar per stage of a long job, on standard error, only when
that is a terminal (a pipe, a file or CI sees nothing), gone when the job ends."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Report = Callable[[str, int, int], None]
"""`report(stage, done, total)`: `stage` names the bar; `done` of `total` is complete."""


@contextmanager
def stage_progress(enabled: bool = True) -> Iterator[Report | None]:
    """A `Report` that draws bars while the block runs, or None where no one would see it."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (
        TextColumn("{task.description:<14}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, transient=True, console=Console(stderr=True)) as bar:
        tasks: dict[str, int] = {}

        def report(stage: str, done: int, total: int) -> None:
            total = max(total, 1)
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=min(done, total), total=total)

        yield report
