"""Pure per-item work spread over the machine's cores, results in input order.

Workers are forked, so they inherit the items and the function (spaCy models, glossary
matchers) instead of receiving them pickled; only index ranges go out and results come
back. The order of results is the order of the items whatever the number of workers, so
a build is byte-identical with one process or several. Small inputs stay in this process:
forking and pickling results cost more than they save there. multiprocessing is imported
only when workers fork: a small job (`check` on a few pairs) does without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

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
    if not hasattr(os, "fork"):  # multiprocessing's "fork" start method needs it
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
    import ctypes
    import signal

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _fork_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of `workers` forked processes, imported when workers start."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    return ProcessPoolExecutor(workers, mp_context=context, initializer=_die_with_parent)


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
    pool = _fork_pool(n)
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


class Feed:
    """`fn(item)` of items given a batch at a time while this process goes on producing
    the next ones (texts detected while the files after them are read); `results` gives
    every result in the order the items came. Work stays in this process until `min_weight`
    items have come (RULEPIPE_WORKERS=1: always): then forked workers take the batches
    given so far and every batch after. `fn` and the items are sent to the workers, so
    they must pickle; the workers fork when the first batch is sent to them."""

    BATCH = 64  # items sent to a worker at a time, once the workers run

    def __init__(self, fn: Callable[[Any], Any], min_weight: int | None = None) -> None:
        self._fn = fn
        self._min = MIN_WEIGHT_PER_WORKER if min_weight is None else min_weight
        self._held: list[Any] = []  # items not sent: all of them, until the workers start
        self._sent: list[Any] = []  # futures of the batches sent, in order
        self._pool: ProcessPoolExecutor | None = None
        self._workers = workers_for(1 << 62)  # as many as the machine gives, or the setting

    def add(self, items: Sequence[Any]) -> None:
        self._held.extend(items)
        if self._pool is None and (self._workers == 1 or len(self._held) < self._min):
            return
        if self._pool is None:
            self._pool = _fork_pool(self._workers)
            for start, stop in chunks([1] * len(self._held), self._workers * CHUNKS_PER_WORKER):
                self._send(self._held[start:stop])
        elif len(self._held) >= self.BATCH:
            self._send(self._held)
        else:
            return
        self._held = []

    def _send(self, batch: list[Any]) -> None:
        assert self._pool is not None
        try:
            self._sent.append(self._pool.submit(_apply, self._fn, batch))
        except BaseException:
            self.cancel()
            raise

    def results(self) -> list[Any]:
        """Every result in item order, once all are done (the workers are stopped)."""
        out: list[Any] = []
        try:
            if self._pool is None:
                out = [self._fn(item) for item in self._held]
            elif self._held:
                self._send(self._held)
            for future in self._sent:
                out.extend(future.result())
        finally:
            self.cancel()
        self._held = []
        return out

    def cancel(self) -> None:
        """Stop the workers: batches not begun are dropped, those under way end first."""
        self._sent = []
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _apply(fn: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    return [fn(item) for item in batch]
