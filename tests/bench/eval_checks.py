"""Evaluate the checks on the labelled set (tests/data/checks/labelled.yaml) beside
translate-toolkit's pofilter, and print both tools' precision and recall side by side, overall
and per check (a check's precision: of the pairs it reported on, those whose error it is).

The pairs go to pofilter as one PO file (msgctxt = pair id; pofilter checks each unit on its
own, so one file is the same as one file a pair); its failed tests are mapped to our check
ids (`numbers` counts for any quantity check, `brackets` for punctuation or markup, ...).
A prediction is a (pair, check id): right when the pair's injected error has that id. Our
own run checks each pair with the clean pairs it names as context, as the test does.

Then the meaning set (tests/data/checks/meaning.yaml: faithful translations, copies changed
in meaning, the translator-facing cases of the checks): recall and precision per check on
its development part and on its held-out third apart, the changes found by kind, the pairs
nothing may report that got an error, and the cases whose findings miss what they expect.

    .venv/bin/python tests/bench/eval_checks.py [--markdown]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

from benchdoc import add_flag, publish  # noqa: E402
from translate.storage import po  # noqa: E402

from pipeline.check import CHECK_IDS  # noqa: E402
from tests.helpers.labelled import (  # noqa: E402
    Labelled,
    load_labelled,
    rulepipe_predictions,
    score,
)
from tests.helpers.meaning import (  # noqa: E402
    Case,
    clean_with_error,
    findings_of,
    load_cases,
    scores,
    unmet,
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


GROUPS = ("faithful", "changed", "defects")


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def meaning_report(args: argparse.Namespace) -> None:
    """The meaning set: per check, recall and precision on the development part and on
    the held-out third; then what the held-out changes and expectations came to."""
    cases = load_cases()
    found = findings_of(cases)
    parts: dict[str, list[Case]] = {
        "development": [c for c in cases if not c.held],
        "held out": [c for c in cases if c.held],
    }
    print()
    print("meaning set: " + ", ".join(f"{len(v)} {k}" for k, v in parts.items()) + " cases")
    for name, part in parts.items():
        groups = {g: sum(1 for c in part if c.group == g) for g in ("faithful", "changed")}
        defects = sum(1 for c in part if c.group == "defects")
        print(
            f"  {name}: {groups['faithful']} faithful, {groups['changed']} changed in meaning,"
            f" {defects} cases of the checks"
        )
    print()
    print(f"{'by check':34}{'development':>20}{'held out':>20}")
    print(f"{'':34}{'recall':>10}{'precision':>10}{'recall':>10}{'precision':>10}")
    dev = scores(parts["development"], found, CHECK_IDS)
    held = scores(parts["held out"], found, CHECK_IDS)
    for d, h in zip(dev, held, strict=True):
        if not (d.labelled or d.said or h.labelled or h.said):
            continue
        cells = []
        for s in (d, h):
            cells.append(f"{s.found:>6}/{s.labelled:<3}" if s.labelled else f"{'-':>10}")
            cells.append(f"{_fraction(s.precision):>10}")
        print(f"  {d.check:32}" + "".join(cells))
    rows = []
    for s in held:
        if s.labelled or s.said:
            recall = f"{s.found}/{s.labelled}" if s.labelled else "-"
            rows.append([f"`{s.check}`", recall, _fraction(s.precision)])
    counts = {g: sum(1 for c in parts["held out"] if c.group == g) for g in GROUPS}
    publish(
        args,
        "Checks on the held-out meaning set",
        ["check", "recall", "precision"],
        rows,
        f"The held-out third of tests/data/checks/meaning.yaml: {counts['faithful']} faithful"
        f" translations, {counts['changed']} changed in meaning, {counts['defects']} cases of"
        " the checks. Recall: cases labelled with the check that it reported; precision:"
        " cases it reported that carry its label (a finding of any severity counts).",
    )
    for name, part in parts.items():
        bad = clean_with_error(part, found)
        print(f"{name}: pairs nothing may report with an error: {', '.join(bad) or 'none'}")
    held_changed = [c for c in parts["held out"] if c.group == "changed"]
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for c in held_changed:
        kinds[c.change or "?"][1] += 1
        kinds[c.change or "?"][0] += any(f.check == "effect_mismatch" for f in found[c.pair.id])
    print(
        "held-out changes found, by kind: "
        + ", ".join(f"{k} {n}/{m}" for k, (n, m) in sorted(kinds.items()))
    )
    for name, part in parts.items():
        missed = [
            c.pair.id
            for c in part
            if c.group == "changed"
            and not any(f.check == "effect_mismatch" for f in found[c.pair.id])
        ]
        print(f"{name}: changes missed: {', '.join(missed) or 'none'}")
        noisy = [
            f"{c.pair.id} ({', '.join(sorted({f.check for f in found[c.pair.id]}))})"
            for c in part
            if c.group == "faithful" and found[c.pair.id]
        ]
        print(f"{name}: faithful pairs with findings: {', '.join(noisy) or 'none'}")
        for c in part:
            if c.group == "defects":
                got = sorted({f.check for f in found[c.pair.id]})
                problems = unmet(c, found[c.pair.id])
                if not set(c.labels) <= set(got):
                    problems.insert(0, f"wants {sorted(c.labels)}, got {got}")
                extra = set(got) - set(c.labels)
                if extra:
                    problems.append(f"also {sorted(extra)}")
                if problems:
                    print(f"{name}: case {c.pair.id}: {'; '.join(problems)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_flag(ap)
    args = ap.parse_args()
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
    meaning_report(args)


if __name__ == "__main__":
    main()
