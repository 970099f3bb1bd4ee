"""Benchmark: what refusing hostile XML and zip input costs.

    .venv/bin/python tests/bench/bench_xml_hostile.py [--markdown]

Two measures per input. `build`: `python -m pipeline build` on a one-file corpus in a
child process, wall time and the child's own peak RSS (os.wait4; children are started
before this process imports the pipeline), beside a valid one-file corpus for the cost of
starting the tool. `refuse`: the reader alone, in process, its time
and the peak Python allocation (tracemalloc) while it refuses. Every input must be
refused with exit 2 (the valid one must build); the script fails otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from benchdoc import add_flag, publish  # noqa: E402

from tests.helpers import hostile_xml as h  # noqa: E402

VALID = (ROOT / "tests" / "data" / "battlescribe" / "sonnstahl.cat").read_bytes()


def cases() -> list[tuple[str, bytes, int]]:
    return [
        ("valid.cat", VALID, 0),
        ("xxe-file.gst", h.external_entity("file:///etc/passwd"), 2),
        ("xxe-http.gst", h.external_entity("http://127.0.0.1:9/x"), 2),
        ("billion-laughs.cat", h.billion_laughs(), 2),
        ("external-dtd.gst", h.external_dtd(), 2),
        ("parameter-entity.gst", h.parameter_entity_subset(), 2),
        ("bomb-1gib.catz", h.zip_bomb(1024), 2),
        ("bomb-ratio-8mib.catz", h.zip_bomb(8), 2),
        ("lying-header.catz", h.lying_zip(), 2),
        ("many-members.catz", h.many_members(5000), 2),
        ("nested.catz", h.nested_zip(), 2),
        ("malformed.gst", h.gst("<rule><description>open\n</rule>"), 2),
    ]


def run_build(name: str, data: bytes) -> tuple[int, float, int, str]:
    with tempfile.TemporaryDirectory() as tmp:
        drop = Path(tmp) / "corpus" / "drops" / "d"
        drop.mkdir(parents=True)
        (drop / name).write_bytes(data)
        start = time.perf_counter()
        out = str(Path(tmp) / "out")
        proc = subprocess.Popen(
            [sys.executable, "-m", "pipeline", "build", str(drop.parents[1]), "-q", "-o", out],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert proc.stderr is not None
        err = proc.stderr.read().decode()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        return proc.returncode, wall, usage.ru_maxrss, err.strip()


def refuse_in_process(name: str, data: bytes) -> tuple[float, int]:
    from pipeline.errors import InputError
    from pipeline.ingest import read_file

    tracemalloc.start()
    start = time.perf_counter()
    with contextlib.suppress(InputError):
        read_file("d", name, name, data)
    took = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return took, peak


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_flag(ap)
    args = ap.parse_args()
    rows = []
    failed = False
    inputs = cases()
    # every child is forked before this process imports the pipeline, so a child's peak
    # RSS is its own, not the pages it shared with a large parent
    builds = [run_build(name, data) for name, data, _ in inputs]
    for (name, data, expected), (code, wall, rss_kib, err) in zip(inputs, builds, strict=True):
        took, peak = refuse_in_process(name, data)
        failed |= code != expected
        reason = err.split(name, 1)[-1][:80] if err else ""
        rows.append([name, f"{len(data):,}", code, f"{wall:.2f}", f"{rss_kib / 1024:.1f}",
                     f"{took * 1000:.2f}", f"{peak / 1024:.1f}", reason])  # fmt: skip
    header = ["input", "bytes", "exit", "build s", "RSS MiB", "refuse ms", "alloc KiB", "reason"]
    notes = "`build`: a one-file corpus in a child; `refuse`: the reader alone, in process."
    publish(args, "Hostile XML", header, rows, notes)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
