"""The checks against the labelled set (tests/helpers/labelled.py): recall of the injected
errors must be at least 0.95, and at most one clean pair may get an error-severity finding."""

from __future__ import annotations

from collections import Counter

from pipeline.check import CHECK_IDS
from tests.conftest import SEED
from tests.helpers.labelled import load_labelled, rulepipe_predictions, score


def test_labelled_set_is_built_as_described():
    items = load_labelled()
    master = {p.strip() for p in (SEED / "002_c7ff2043f171b6ae.txt").read_text().split("\n\n")}
    clean = [it for it in items if it.label is None]
    assert len(items) >= 60 and len(clean) >= 20
    counts = Counter(it.label for it in items if it.label)
    assert set(counts) == set(CHECK_IDS)
    assert min(counts.values()) >= 3
    for it in clean:
        assert it.pair.source in master, it.pair.id


def test_recall_and_clean_pairs_on_the_labelled_set():
    items = load_labelled()
    predicted, errors = rulepipe_predictions(items)
    s = score(predicted, errors, items)
    missed = [
        (it.pair.id, sorted(predicted[it.pair.id]))
        for it in items
        if it.label and it.label not in predicted[it.pair.id]
    ]
    assert s.recall >= 0.95, missed
    assert len(s.clean_with_error) <= 1, s.clean_with_error
