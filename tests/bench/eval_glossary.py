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

    python tests/bench/eval_glossary.py
"""

from __future__ import annotations

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

from pipeline.align.suggest import build_beads, suggest  # noqa: E402
from pipeline.align.terms import english_key  # noqa: E402
from pipeline.build import build  # noqa: E402
from pipeline.extract.keywords import core_lexicon  # noqa: E402
from pipeline.glossary import load_glossary  # noqa: E402
from pipeline.lang import lemma  # noqa: E402

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


def main() -> None:
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


if __name__ == "__main__":
    main()
