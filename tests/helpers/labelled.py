"""The labelled check set (tests/data/checks/labelled.yaml): faithful translations of master
paragraphs and copies with one injected error each, loaded and scored here for the tests and
for tests/bench/eval_checks.py, which reports the same figures (and pofilter's)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from pipeline.check import Pair, run_checks
from pipeline.glossary import load_glossary
from tests.conftest import CORPUS

DATA = Path(__file__).resolve().parents[1] / "data" / "checks" / "labelled.yaml"


@dataclass(frozen=True)
class Labelled:
    pair: Pair
    label: str | None  # None: clean
    context: tuple[Pair, ...]


def _edit(text: str, edit: list[str], what: str) -> str:
    old, new = edit
    assert text.count(old) == 1, f"{what}: {old!r} must occur once"
    return text.replace(old, new)


def load_labelled() -> list[Labelled]:
    data = yaml.safe_load(DATA.read_text("utf-8"))
    clean = {c["id"]: Pair(c["id"], c["source"], c["target"], "en", "ru") for c in data["clean"]}
    out = [Labelled(p, None, ()) for p in clean.values()]
    for inj in data["injected"]:
        base = clean.get(inj.get("base", ""))
        source = inj.get("source", base.source if base else None)
        target = inj.get("target", base.target if base else None)
        assert source is not None and target is not None, inj["id"]
        if inj.get("target_is_source"):
            target = source
        if "edit" in inj:
            target = _edit(target, inj["edit"], inj["id"])
        if "source_edit" in inj:
            source = _edit(source, inj["source_edit"], inj["id"])
        context = tuple(clean[c] for c in inj.get("context", ()))
        out.append(Labelled(Pair(inj["id"], source, target, "en", "ru"), inj["label"], context))
    return out


@dataclass(frozen=True)
class Scores:
    tp: int
    fp: int
    found: int  # injected errors found
    injected: int
    clean_with_error: list[str]

    @property
    def recall(self) -> float:
        return self.found / self.injected if self.injected else 1.0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0


def score(predicted: dict[str, set[str]], errors: dict[str, bool], items: list[Labelled]) -> Scores:
    """Score predictions given as pair id -> set of check ids (and whether any was an error).

    A (pair, check id) prediction is right when the pair's injected error has that id;
    anything reported on a clean pair, or with another id, counts against precision.
    """
    tp = fp = found = 0
    clean_err = []
    for it in items:
        got = predicted.get(it.pair.id, set())
        tp += int(it.label in got)
        fp += len(got - {it.label})
        if it.label is not None:
            found += int(it.label in got)
        elif errors.get(it.pair.id):
            clean_err.append(it.pair.id)
    injected = sum(1 for it in items if it.label is not None)
    return Scores(tp, fp, found, injected, clean_err)


def rulepipe_predictions(items: list[Labelled]) -> tuple[dict[str, set[str]], dict[str, bool]]:
    glossary = load_glossary(CORPUS / "glossary.yaml")
    predicted: dict[str, set[str]] = {}
    errors: dict[str, bool] = {}
    for it in items:
        report = run_checks([*it.context, it.pair], glossary)
        mine = [f for f in report.findings if f.pair_id == it.pair.id]
        predicted[it.pair.id] = {f.check for f in mine}
        errors[it.pair.id] = any(f.severity == "error" for f in mine)
    return predicted, errors
