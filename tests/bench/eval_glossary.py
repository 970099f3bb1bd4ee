"""Evaluate glossary induction against the glossary a translator would write.

The labelled set: the Russian test drop (tests/data/align/translations.yaml, translations
of paragraphs of the seed 002 and distractors) built with the seeds and no glossary, so
that the pairs are the ones alignment links on its own; and the terms a translator would
write for those texts (tests/data/align/glossary.yaml, with corpus/glossary.yaml for the
seeds' own rules and the capitalised rule terms of the core vocabulary). A proposal is
right when its English term and its rendering (compared on lemmas, any form) are a term
and a rendering of one labelled entry.

Prints, per language: proposals, right, wrong, unjudged (English term in no labelled
entry; counted as wrong in the strict precision), precision, and the share of labelled
terms occurring in the linked pairs that were found.

Then the same for each unseen drop of tests/data/align/unseen/ (bench/unseen.py), built
with no glossary as a new team would: a proposal is right when its English term and its
rendering (or a variant it offers) are a term and a rendering of one entry of the terms the
translators used (`<name>.terms.yaml`); any other proposal is wrong. The share is of all
those entries, by kind (term, name, characteristic, roll, verb, state); "with no doubt
noted" is the precision of the proposals whose note has no `unsure: ...` (`suggest.sure`;
a proposal with a doubt has a confidence of 0.6 at most). The held-out drops are marked so.

    python tests/bench/eval_glossary.py [--unseen-only]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from pipeline.align.suggest import build_beads, suggest, sure  # noqa: E402
from pipeline.align.terms import english_key  # noqa: E402
from pipeline.build import build  # noqa: E402
from pipeline.extract.keywords import core_lexicon  # noqa: E402
from pipeline.glossary import load_glossary  # noqa: E402
from pipeline.lang import lemma  # noqa: E402

sys.path.insert(0, str(ROOT / "tests" / "bench"))
from benchdoc import add_flag, publish  # noqa: E402
from unseen import build_drop, drops  # noqa: E402

DATA = ROOT / "tests" / "data" / "align"


def lemmas(text: str, lang: str) -> str:
    return " ".join(lemma(w, lang) for w in text.split())


def labelled(lang: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """English key -> the lemma forms of its labelled renderings, and -> its English forms."""
    out: dict[str, set[str]] = {}
    written: dict[str, set[str]] = {}
    glossaries = [
        load_glossary(DATA / "glossary.yaml"),
        load_glossary(ROOT / "corpus/glossary.yaml"),
    ]
    terms = [t for g in glossaries for t in g.terms]
    terms += [t for t in core_lexicon().terms if t.renderings["en"][0][:1].isupper()]
    for term in terms:
        forms = {lemmas(f, lang) for f in term.renderings.get(lang, ())}
        for en in term.renderings.get("en", ()):
            out.setdefault(english_key(en.split()), set()).update(forms)
            written.setdefault(english_key(en.split()), set()).add(en)
    return out, written


def evaluate_unseen(verbose: bool = True, markdown: bool = False) -> None:
    """Suggestions from each unseen drop, judged against its translators' terms; with
    `markdown`, the table is also written into docs/benchmarks.md."""
    from collections import Counter

    rows = []
    for drop in drops():
        # the held-out drop's proposals are counted, not listed: nothing is tuned on them
        listed = verbose and not drop.held_out
        with tempfile.TemporaryDirectory() as tmp:
            built = build_drop(drop, Path(tmp))
        beads = build_beads(built.alignments, built.raw, "ru")
        found = suggest(beads, "ru")
        gold = drop.gold_terms()
        by_key: dict[str, list[int]] = {}
        for i, term in enumerate(gold):
            for en in term["en"]:
                by_key.setdefault(english_key(en.split()), []).append(i)
        hit: set[int] = set()
        details: list[str] = []  # a development drop's wrong proposals and missed terms
        right = wrong = judged = sure_count = sure_right = 0
        for s in found:
            entries = by_key.get(english_key(s.source.split()), [])
            forms = {lemmas(f, "ru") for f in (s.target, *s.variants)}
            good = [i for i in entries if forms & {lemmas(f, "ru") for f in gold[i]["ru"]}]
            hit.update(good)
            right += bool(good)
            wrong += not good
            judged += bool(entries)  # the list has the English term: its rendering is judged
            if sure(s):
                sure_count += 1
                sure_right += bool(good)
            if listed and not good:
                details.append(f"  x {s.source} -> {s.target} ({s.together}, {s.score}) {s.note}")
        kinds = Counter(t.get("kind", "term") for t in gold)
        got = Counter(gold[i].get("kind", "term") for i in hit)
        if listed:
            missed = [f"{t['en'][0]}={t['ru'][0]}" for i, t in enumerate(gold) if i not in hit]
            details.append("  missed: " + ", ".join(missed))
        label = f"{drop.name} (held out)" if drop.held_out else drop.name
        rows.append(
            [
                label,
                len(found),
                f"{right / max(len(found), 1):.3f}",
                f"{right} of {judged}",
                f"{len(hit)} of {len(gold)}",
                f"{len(hit) / max(len(gold), 1):.2f}",
                f"{sure_right} of {sure_count}",
            ]
        )
        print(
            f"{label}: {len(found)} proposed, {right} right, {wrong} wrong;"
            f" precision {right / max(len(found), 1):.3f};"
            f" of the {judged} terms the list has, {right} right"
            f" ({right / max(judged, 1):.3f});"
            f" terms found {len(hit)} of {len(gold)} ({len(hit) / max(len(gold), 1):.3f});"
            f" with no doubt noted {sure_right} of {sure_count}"
            f" ({sure_right / max(sure_count, 1):.3f});"
            " by kind " + ", ".join(f"{k} {got[k]}/{n}" for k, n in sorted(kinds.items()))
        )
        for line in details:  # after the drop's line, so that they read under it
            print(line)
    header = [
        "drop",
        "proposed",
        "precision",
        "right of those judged",
        "terms found",
        "share",
        "right with no doubt",
    ]
    notes = (
        "`rulepipe glossary suggest` on a build of each unseen drop with no glossary, judged"
        " against the terms its translators used (`<drop>.terms.yaml`). Precision counts a"
        " proposal of a term the list does not hold as wrong; the next column judges only"
        " the proposals of terms the list holds (is the rendering the team's?). A held-out"
        " drop is reported by its counts only."
    )
    publish(
        argparse.Namespace(markdown=markdown), "Unseen drops: glossary suggest", header, rows, notes
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unseen-only", action="store_true", help="the unseen drops only")
    add_flag(parser)
    args = parser.parse_args()
    if args.unseen_only:
        evaluate_unseen(markdown=args.markdown)
        return
    pairs = yaml.safe_load((DATA / "translations.yaml").read_text("utf-8"))["pairs"]
    random.Random(11).shuffle(pairs)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        shutil.copytree(ROOT / "corpus" / "drops", corpus / "drops")
        (corpus / "drops" / "ru-test").mkdir()
        text = "\n\n".join(p["ru"] for p in pairs) + "\n"
        (corpus / "drops" / "ru-test" / "rules.txt").write_text(text, "utf-8")
        out = Path(tmp) / "out"
        build(corpus, out)
        alignments = json.loads((out / "alignments.json").read_text("utf-8"))
        segments = [json.loads(x) for x in (out / "segments.jsonl").read_text("utf-8").splitlines()]
    raw = {s["id"]: s["raw"] for s in segments}
    for lang in sorted({link["target_lang"] for link in alignments["links"]}):
        beads = build_beads(alignments, raw, lang)
        if not beads:
            continue
        truth, written = labelled(lang)
        found = suggest(beads, lang)
        right = wrong = unjudged = 0
        for s in found:
            key = english_key(s.source.split())
            if key not in truth or not truth[key]:
                unjudged += 1
                print(f"  ? {s.source} -> {s.target} ({s.together}, {s.score}) {s.note}")
            elif lemmas(s.target, lang) in truth[key]:
                right += 1
            else:
                wrong += 1
                print(f"  x {s.source} -> {s.target} ({s.together}, {s.score}) {s.note}")
        # labelled rule terms in the linked pairs: capitalised in English as the labelled
        # entry writes it, and one of its renderings (any form) in the same bead
        present = set()
        for k, forms in truth.items():
            alternatives = "|".join(map(re.escape, written[k]))
            pattern = re.compile(rf"\b(?:{alternatives})s?\b")
            for b in beads:
                target = f" {lemmas(b.target, lang)} "
                if (
                    any(w[:1].isupper() for w in written[k])
                    and pattern.search(b.source)
                    and any(f" {f} " in target for f in forms)
                ):
                    present.add(k)
        hits = {english_key(s.source.split()) for s in found} & present
        print("  missed:", ", ".join(sorted(present - hits)))
        judged = right + wrong
        print(
            f"{lang}: {len(found)} proposed, {right} right, {wrong} wrong, {unjudged} unjudged;"
            f" precision {right / max(judged, 1):.3f}"
            f" (strict {right / max(len(found), 1):.3f});"
            f" labelled terms found {len(hits)} of {len(present)}"
            f" ({len(hits) / max(len(present), 1):.3f})"
        )
    evaluate_unseen(markdown=args.markdown)


if __name__ == "__main__":
    main()
