"""Work spread over forked workers: results in item order, errors that reach the caller,
and no worker left behind."""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path

import pytest

from pipeline.emit import BuildOutput
from pipeline.parallel import WORKERS_ENV, Feed, map_in_order
from pipeline.schemas import SchemaViolation

from .conftest import ROOT
from .helpers.outputs import leftovers


def _mark(item: tuple[Path, int]) -> tuple[int, int]:
    folder, n = item
    (folder / f"{n}.done").write_text(str(os.getpid()))
    return n * n, os.getpid()


def _fail_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven")
    return n


def test_workers_give_the_results_in_item_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(WORKERS_ENV, "2")
    results = map_in_order(_mark, [(tmp_path, n) for n in range(40)])
    assert [square for square, _ in results] == [n * n for n in range(40)]
    assert os.getpid() not in {pid for _, pid in results}
    assert len(list(tmp_path.glob("*.done"))) == 40


def test_a_small_job_runs_in_this_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    results = map_in_order(_mark, [(tmp_path, n) for n in range(3)])
    assert results == [(n * n, os.getpid()) for n in range(3)]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_worker_error_reaches_the_caller(monkeypatch: pytest.MonkeyPatch, workers: str) -> None:
    monkeypatch.setenv(WORKERS_ENV, workers)
    with pytest.raises(ValueError, match="seven"):
        map_in_order(_fail_on_seven, list(range(20)))
    assert multiprocessing.active_children() == []


def test_a_feed_works_on_batches_while_the_caller_gives_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items given in batches of any size: workers take them once there are enough, and
    have done the first batches before the last is given; results come in item order."""
    monkeypatch.setenv(WORKERS_ENV, "2")
    feed = Feed(_mark, min_weight=10)
    feed.add([(tmp_path, n) for n in range(4)])
    assert list(tmp_path.glob("*.done")) == []  # too few yet: held
    feed.add([(tmp_path, n) for n in range(4, 100)])
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("*.done"))) < 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(list(tmp_path.glob("*.done"))) == 100  # before the last batch came
    feed.add([(tmp_path, n) for n in range(100, 103)])
    results = feed.results()
    assert [square for square, _ in results] == [n * n for n in range(103)]
    assert os.getpid() not in {pid for _, pid in results}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_feed_too_small_or_on_one_process_works_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    monkeypatch.setenv(WORKERS_ENV, workers)
    feed = Feed(_mark, min_weight=10 if workers == "2" else 1)
    feed.add([(tmp_path, n) for n in range(5)])
    feed.add([(tmp_path, 5)])
    assert feed.results() == [(n * n, os.getpid()) for n in range(6)]


def test_a_feeds_worker_error_reaches_the_caller_and_stops_the_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(WORKERS_ENV, "2")
    feed = Feed(_fail_on_seven, min_weight=5)
    feed.add(list(range(20)))
    feed.add(list(range(20, 200)))
    with pytest.raises(ValueError, match="seven"):
        feed.results()
    assert multiprocessing.active_children() == []


def test_reading_that_fails_while_languages_are_detected_stops_the_detectors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bad file after many good ones: its error, and no detector left running."""
    from pipeline import parallel
    from pipeline.errors import InputError
    from pipeline.ingest import ingest

    monkeypatch.setenv(WORKERS_ENV, "2")
    monkeypatch.setattr(parallel, "MIN_WEIGHT_PER_WORKER", 5)
    monkeypatch.setattr("pipeline.ingest.langid._FOUND", {})
    sent: list[int] = []
    send = Feed._send
    monkeypatch.setattr(
        Feed, "_send", lambda self, batch: (sent.append(len(batch)), send(self, batch))
    )
    drop = tmp_path / "drops" / "d"
    drop.mkdir(parents=True)
    for n in range(8):
        words = ["".join(chr(97 + int(d)) for d in f"{n}{k:02d}") for k in range(20)]
        text = "\n\n".join(f"The {w} models with Fear move and then they fight." for w in words)
        (drop / f"{n:02d}.txt").write_text(text, "utf-8")
    (drop / "99.txt").write_bytes(b"binary\x00data")
    with pytest.raises(InputError, match="binary"):
        ingest(tmp_path)
    assert sum(sent) >= 5  # detected by workers while the files were read
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_rule_its_schema_refuses_fails_the_build_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    """Rules are checked against their schema where they render (in workers, on a large
    build): one bad rule among many fails the build, and the folder before it stays."""
    monkeypatch.setenv(WORKERS_ENV, workers)
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text("{}")
    rule = json.loads((ROOT / "output" / "rules.json").read_text("utf-8"))[0]
    refused = pytest.raises(SchemaViolation, match=r"rules/r350\.yaml does not match rule")
    with refused, BuildOutput(out) as target:
        for n in range(400):
            bad = {"kind": 12} if n == 350 else {}
            target.write_yaml(f"rules/r{n}.yaml", {**rule, "id": f"r{n}", **bad}, "rule")
    assert multiprocessing.active_children() == []
    assert [p.name for p in out.iterdir()] == ["manifest.json"]
    assert leftovers(tmp_path) == []
