"""A pause of the cyclic garbage collector around work that makes many objects and no cycles.

Dedup and the checks allocate a few objects per segment and keep them; each pass of the
collector walks that growing heap again, which cost a third of dedup's time on 200,000
segments and about a tenth of the checks'. Reference counting still frees what they drop.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_ENDS_WITH_COMMAND = False


def process_ends_with_command() -> None:
    """Say that this process leaves as soon as its command returns (the console script):
    a pause around a whole command is then not lifted. Lifting it starts a pass over every
    object the command made and kept (caches, vocabularies, compiled patterns: 0.05 to
    0.1 s of a build) in a process about to end."""
    global _ENDS_WITH_COMMAND
    _ENDS_WITH_COMMAND = True


@contextmanager
def gc_paused(command: bool = False) -> Iterator[None]:
    """The collector off inside the block (or the decorated function), as it was after;
    `command`: the block is a whole command's run (see `process_ends_with_command`).

    Usable as `with gc_paused():` or as a decorator `@gc_paused()`.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled and not (command and _ENDS_WITH_COMMAND):
            gc.enable()
