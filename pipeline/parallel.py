"""Pure per-item work spread over the machine's cores, results in input order.

Workers are forked, so they inherit the items and the function (spaCy models, glossary
matchers) instead of receiving them pickled; only index ranges go out and results come
back. The order of results is the order of the items whatever the number of workers, so
a build is byte-identical with one process or several. Small inputs stay in this process:
forking and pickling results cost more than they save there.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import accumulate
from typing import Any

MIN_WEIGHT_PER_WORKER = 3000  # segments: under ~2 s of extraction a worker does not pay
CHUNKS_PER_WORKER = 8  # smaller pieces even out files of unequal cost
WORKERS_ENV = "RULEPIPE_WORKERS"

_WORK: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers_for(total_weight: int) -> int:
    """How many processes a job of this weight is worth; RULEPIPE_WORKERS, when set,
    says how many to use whatever the weight (1: none)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    setting = os.environ.get(WORKERS_ENV, "").strip()
    if setting.isdigit() and int(setting) > 0:
        return int(setting)
    return max(1, min(cores(), total_weight // MIN_WEIGHT_PER_WORKER))


def chunks(weights: Sequence[int], pieces: int) -> list[tuple[int, int]]:
    """Contiguous (start, stop) index ranges of about equal total weight, none empty."""
    if not weights:
        return []
    ends = list(accumulate(max(1, w) for w in weights))
    total = ends[-1]
    ranges: list[tuple[int, int]] = []
    start = 0
    for k in range(1, pieces + 1):
        target = total * k / pieces
        stop = start
        while stop < len(weights) and ends[stop] <= target:
            stop += 1
        if k == pieces:
            stop = len(weights)
        if stop > start:
            ranges.append((start, stop))
            start = stop
    return ranges


def _die_with_parent() -> None:
    """Worker start-up: ask Linux to kill this worker when the build process dies, so that
    a killed build leaves no workers behind (elsewhere they end when their queue closes)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _run(span: tuple[int, int]) -> list[Any]:
    assert _WORK is not None, "worker started without work"
    fn, items = _WORK
    return [fn(items[i]) for i in range(*span)]


def map_in_order(
    fn: Callable[[Any], Any],
    items: Sequence[Any],
    weights: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Any]:
    """[fn(item) for item in items], computed by forked workers when the job is big enough.

    `weights` (default 1 each) says how much work each item is, to size the job and cut it
    into pieces of equal work; `progress(done, total)` hears of each finished item or piece.
    A worker's error reaches the caller, and the pieces not begun are dropped.
    """
    weights = list(weights) if weights is not None else [1] * len(items)
    n = workers_for(sum(weights))
    out: list[Any] = []
    if n == 1:
        for item in items:
            out.append(fn(item))
            if progress:
                progress(len(out), len(items))
        return out
    global _WORK
    _WORK = (fn, items)
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(n, mp_context=context, initializer=_die_with_parent)
    try:
        try:  # the workers fork as the pieces are submitted: they inherit _WORK
            parts = pool.map(_run, chunks(weights, n * CHUNKS_PER_WORKER))
        finally:
            _WORK = None
        for part in parts:
            out.extend(part)
            if progress:
                progress(len(out), len(items))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return out
