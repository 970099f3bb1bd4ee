"""Evaluate the checks on the labelled set (tests/data/checks/labelled.yaml) beside
translate-toolkit's pofilter, and print both tools' precision and recall side by side, overall
and per check (a check's precision: of the pairs it reported on, those whose error it is).

The pairs go to pofilter as one PO file (msgctxt = pair id; pofilter checks each unit on its
own, so one file is the same as one file a pair); its failed tests are mapped to our check
ids (`numbers` counts for any quantity check, `brackets` for punctuation or markup, ...).
A prediction is a (pair, check id): right when the pair's injected error has that id. Our
own run checks each pair with the clean pairs it names as context, as the test does.

    .venv/bin/python tests/bench/eval_checks.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from translate.storage import po  # noqa: E402

from pipeline.check import CHECK_IDS  # noqa: E402
from tests.helpers.labelled import (  # noqa: E402
    Labelled,
    load_labelled,
    rulepipe_predictions,
    score,
)

QUANTITY = {"number_mismatch", "dice_mismatch", "distance_mismatch", "modifier_mismatch"}
POFILTER_MAP: dict[str, set[str]] = {
    "untranslated": {"untranslated"},
    "unchanged": {"untranslated"},
    "numbers": QUANTITY,
    "xmltags": {"markup_mismatch"},
    "brackets": {"punctuation", "markup_mismatch"},
    "doublewords": {"doubled_word"},
    "endpunc": {"punctuation"},
    "startpunc": {"punctuation"},
    "puncspacing": {"punctuation", "whitespace"},
    "doublequoting": {"punctuation"},
    "singlequoting": {"punctuation"},
    "sentencecount": {"omission", "punctuation"},
    "long": {"omission"},
    "short": {"omission"},
    "doublespacing": {"whitespace"},
    "startwhitespace": {"whitespace"},
    "endwhitespace": {"whitespace"},
}


def pofilter_findings(items: list[Labelled]) -> dict[str, list[str]]:
    """Pair id -> names of the pofilter tests that failed on it."""
    store = po.pofile()
    for it in items:
        unit = store.addsourceunit(it.pair.source)
        unit.target = it.pair.target
        unit.setcontext(it.pair.id)
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "pairs.po", Path(tmp) / "failed.po"
        src.write_bytes(bytes(store))
        pofilter = Path(sys.executable).with_name("pofilter")
        subprocess.run(
            [str(pofilter), "--language=ru", "--progress=none", "-i", str(src), "-o", str(out)],
            check=True,
            capture_output=True,
        )
        failed = po.pofile(out.read_bytes()) if out.exists() else po.pofile()
    found: dict[str, list[str]] = defaultdict(list)
    for unit in failed.units:
        if unit.isheader():
            continue
        for line in unit.getnotes("translator").splitlines():
            if line.startswith("(pofilter) "):
                found[unit.getcontext()].append(line[len("(pofilter) ") :].split(":", 1)[0])
    return found


def pofilter_scores(items: list[Labelled]) -> tuple[object, dict[str, list[str]]]:
    raw = pofilter_findings(items)
    tp = fp = found = 0
    clean_flagged = []
    for it in items:
        tests = raw.get(it.pair.id, [])
        hit = False
        for test in tests:
            mapped = POFILTER_MAP.get(test, set())
            if it.label is not None and it.label in mapped and not hit:
                hit = True
                tp += 1
            else:
                fp += 1
        found += int(hit)
        if it.label is None and tests:
            clean_flagged.append(it.pair.id)
    injected = sum(1 for it in items if it.label is not None)
    return (tp, fp, found, injected, clean_flagged), raw


def _ratio(right: int, said: int) -> str:
    """Precision of one check: the pairs it spoke on that carry its error ("-" if silent)."""
    return f"{right / said:.2f}" if said else "-"


def main() -> None:
    items = load_labelled()
    predicted, errors = rulepipe_predictions(items)
    ours = score(predicted, errors, items)
    (p_tp, p_fp, p_found, injected, p_clean), raw = pofilter_scores(items)
    p_recall = p_found / injected
    p_precision = p_tp / (p_tp + p_fp) if p_tp + p_fp else 1.0
    clean = sum(1 for it in items if it.label is None)
    print(f"labelled set: {len(items)} pairs, {clean} clean, {injected} with one injected error")
    print()
    print(f"{'':34}{'rulepipe':>10}{'pofilter':>10}")
    print(f"{'recall (injected errors found)':34}{ours.recall:>10.2f}{p_recall:>10.2f}")
    print(f"{'precision (pair, check id)':34}{ours.precision:>10.2f}{p_precision:>10.2f}")
    rp_clean = sum(1 for it in items if it.label is None and predicted[it.pair.id])
    print(f"{'clean pairs with any finding':34}{rp_clean:>10}{len(p_clean):>10}")
    print(f"{'clean pairs with an error':34}{len(ours.clean_with_error):>10}{'-':>10}")
    print()
    print(f"{'by check':34}{'rulepipe':>20}{'pofilter':>20}")
    print(f"{'':34}{'recall':>10}{'precision':>10}{'recall':>10}{'precision':>10}")
    for check in CHECK_IDS:
        mine = [it for it in items if it.label == check]
        ours_n = sum(1 for it in mine if check in predicted[it.pair.id])
        ours_said = sum(1 for it in items if check in predicted[it.pair.id])
        theirs_said = [
            it
            for it in items
            if any(check in POFILTER_MAP.get(t, set()) for t in raw.get(it.pair.id, []))
        ]
        theirs = sum(1 for it in theirs_said if it.label == check)
        print(
            f"  {check:32}{ours_n:>6}/{len(mine):<3}{_ratio(ours_n, ours_said):>10}"
            f"{theirs:>6}/{len(mine):<3}{_ratio(theirs, len(theirs_said)):>10}"
        )
    missed = [it.pair.id for it in items if it.label and it.label not in predicted[it.pair.id]]
    print()
    print(f"rulepipe missed: {', '.join(missed) or 'none'}")
    tests = sorted({t for ts in raw.values() for t in ts})
    print(f"pofilter tests that fired: {', '.join(tests)}")


if __name__ == "__main__":
    main()
