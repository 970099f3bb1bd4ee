"""The unseen drops of tests/data/align/unseen/: built as a new user would, scored.

Each drop is an English chapter and a Russian translation by another hand, shuffled, with
look-alike paragraphs that translate nothing and near copies (`<name>.yaml`), and the terms
its translators used (`<name>.terms.yaml`); a drop marked `held_out` is reported by its
counts only. `build_drop` writes the chapter and the shuffled translation into a corpus of
their own and builds it, with a glossary or without; `score_links` gives precision and
recall per Russian paragraph: a near copy counts as linked right when it is linked (on its
own or through its cluster) to the paragraph it renders, a look-alike is wrong whenever it
is linked.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
UNSEEN = ROOT / "tests" / "data" / "align" / "unseen"


@dataclass(frozen=True)
class Drop:
    name: str
    held_out: bool
    english: dict[str, str]  # id -> text
    russian: dict[str, str]
    truth: dict[str, str | None]  # Russian id -> English id, or None
    terms: Path  # the translators' terms (`<name>.terms.yaml`)

    def gold_terms(self) -> list[dict[str, Any]]:
        return yaml.safe_load(self.terms.read_text("utf-8"))["terms"]

    def team_glossary(self, folder: Path) -> Path:
        """The translators' terms as one glossary: entries of one English form merged,
        a rendering kept by its first entry only (the loader refuses shared ones)."""
        merged: dict[str, dict[str, Any]] = {}
        claimed: set[str] = set()
        for term in self.gold_terms():
            key = term["en"][0].lower()
            entry = merged.setdefault(key, {"id": term["id"], "en": [], "ru": []})
            for lang in ("en", "ru"):
                for form in term[lang]:
                    if (lang, form.lower()) not in claimed:
                        claimed.add((lang, form.lower()))
                        entry[lang].append(form)
        terms = [t for t in merged.values() if t["en"] and t["ru"]]
        path = folder / f"{self.name}.glossary.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            yaml.safe_dump({"languages": ["en", "ru"], "terms": terms}, allow_unicode=True),
            "utf-8",
        )
        return path


def drops() -> list[Drop]:
    out = []
    for path in sorted(UNSEEN.glob("*.yaml")):
        if path.name.endswith(".terms.yaml"):
            continue
        data = yaml.safe_load(path.read_text("utf-8"))
        out.append(
            Drop(
                path.stem,
                bool(data.get("held_out")),
                {e["id"]: e["text"] for e in data["english"]},
                {r["id"]: r["text"] for r in data["russian"]},
                {r["id"]: r["translates"] for r in data["russian"]},
                path.with_name(f"{path.stem}.terms.yaml"),
            )
        )
    return out


@dataclass(frozen=True)
class Built:
    out: Path
    alignments: dict[str, Any]
    raw: dict[str, str]  # segment id -> raw text
    manifest: dict[str, Any]


def build_drop(drop: Drop, tmp: Path, glossary: Path | None = None, seed: int = 7) -> Built:
    """The chapter and its shuffled translation built as one corpus (no glossary unless
    given; a corpus holding none is what a new team has)."""
    from pipeline.build import build

    corpus = tmp / drop.name / "corpus"
    (corpus / "drops" / "book").mkdir(parents=True, exist_ok=True)
    (corpus / "drops" / "book" / "en.txt").write_text(
        "\n\n".join(drop.english.values()) + "\n", "utf-8"
    )
    order = list(drop.russian.values())
    random.Random(seed).shuffle(order)
    (corpus / "drops" / "book" / "ru.txt").write_text("\n\n".join(order) + "\n", "utf-8")
    out = tmp / drop.name / ("out-glossary" if glossary else "out")
    build(corpus, out, glossary)
    segments = [json.loads(x) for x in (out / "segments.jsonl").read_text("utf-8").splitlines()]
    return Built(
        out,
        json.loads((out / "alignments.json").read_text("utf-8")),
        {s["id"]: s["raw"] for s in segments},
        json.loads((out / "manifest.json").read_text("utf-8")),
    )


def score_links(drop: Drop, built: Built) -> dict[str, Any]:
    """Precision and recall of the links of the Russian paragraphs, and the mistakes."""
    ru_of = {" ".join(t.split()): i for i, t in drop.russian.items()}
    en_of = {" ".join(t.split()): i for i, t in drop.english.items()}
    link_of_cluster = {lk["target_cluster"]: lk for lk in built.alignments["links"]}
    clusters = json.loads((built.out / "clusters.json").read_text("utf-8"))["clusters"]
    made = right = 0
    mistakes = []
    read: set[str] = set()
    for cluster in clusters:
        link = link_of_cluster.get(cluster["id"])
        for member in cluster["members"]:
            rid = ru_of.get(" ".join(built.raw[member["segment"]].split()))
            if rid is None:
                continue
            read.add(rid)
            if link is None:  # not aligned at all: read as another language
                if drop.truth[rid] is not None:
                    mistakes.append((rid, drop.truth[rid], None, f"read as {cluster['lang']}", 0.0))
                continue
            got = None
            if link["status"] == "linked":
                got = en_of.get(" ".join(built.raw[link["source"]].split()), "?")
            want = drop.truth[rid]
            if got is not None:
                made += 1
                right += got == want
            if got != want:
                mistakes.append((rid, want, got, link["status"], link["score"]))
    for rid, want in drop.truth.items():  # a paragraph ingest cut into several blocks
        if want is not None and rid not in read:
            mistakes.append((rid, want, None, "not read as one block", 0.0))
    wanted = sum(v is not None for v in drop.truth.values())
    return {
        "precision": right / max(made, 1),
        "recall": right / max(wanted, 1),
        "made": made,
        "right": right,
        "wanted": wanted,
        "mistakes": sorted(mistakes),
        "rounds": (built.manifest.get("alignment") or {}).get("rounds"),
    }
