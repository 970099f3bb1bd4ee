"""Evaluation: rule names found in real T9A rule texts, in two renderings made at run time.

    .venv/bin/python tests/bench/eval_names.py [--data ../shared/data/t9a-2.1.5] [--markdown]

The BattleScribe data of T9A 2.1.5 states every rule's name (`<rule name=..>`); that name
is the answer and is never shown to the extractor. Two renderings of the same rules:

- **texts alone**: each description as a paragraph of its own; scored over the rules whose
  name appears in their own text (else no reader could find it there);
- **rulebook**: all rules in one Markdown file, each named in turn by a heading (`## Name`),
  a bold label (`**Name**: text` or `[b]Name[/b] text`) or a `Name:` prefix, built with
  `rulepipe build` like any drop; scored over every rule (its rule file's English name).

A name is right when it equals the stated name without its bracket parameter (`Fear (X)`
is Fear), ignoring letter case, invisible characters and end punctuation (the data states
`Fire on Impact` for a rule its text writes `Fire on Impact!`, and `Rage:` for Rage). A
description keeps its line breaks, as the build reads it. Prints accuracy per rendering and
style, the misses, and how many texts that do not contain their name were given one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdoc import add_flag, publish

from pipeline.build import build
from pipeline.extract.facts import extract
from pipeline.extract.references import base_name
from pipeline.ingest.battlescribe import read_battlescribe
from pipeline.model import Segment
from pipeline.normalise import normalise

# ../shared/data/t9a-2.1.5 beside the checkout (or beside a folder above it)
DEFAULT_DATA = next(
    (
        p / "shared" / "data" / "t9a-2.1.5"
        for p in Path(__file__).resolve().parents[3:]
        if (p / "shared" / "data" / "t9a-2.1.5").is_dir()
    ),
    Path("../shared/data/t9a-2.1.5"),
)
STYLES = ("heading", "bold", "bbcode", "label")


def load_rules(folder: Path) -> list[tuple[str, str]]:
    """(name, description) of every distinct rule of the .gst/.cat files, in file order; a
    description keeps its line breaks (a first line may be its title), spaces are single."""
    seen: set[tuple[str, str]] = set()
    out: list[tuple[str, str]] = []
    for path in sorted([*folder.glob("*.gst"), *folder.glob("*.cat")]):
        for block in read_battlescribe(path.name, path.read_bytes()):
            if block.kind != "paragraph" or not block.name:
                continue
            text = "\n".join(" ".join(line.split()) for line in block.raw.splitlines())
            text = text.strip()
            key = (base_name(block.name), text)
            if text and key not in seen:
                seen.add(key)
                out.append(key)
    return out


_INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


def _fold(name: str) -> str:
    """A name as compared: folded as the pipeline folds texts, without letter case,
    invisible characters and end punctuation."""
    return " ".join(_INVISIBLE.sub("", normalise(name)).casefold().split()).rstrip("!:.")


def _same(found: str | None, name: str) -> bool:
    """Equal names, compared as the pipeline compares texts (quotes and glyphs folded)."""
    return found is not None and _fold(found) == _fold(name)


def _contains(text: str, name: str) -> bool:
    """The text states the name, both folded as `_fold` compares names (a name the data
    writes with zero-width spaces or a straight quote is still in a text without them)."""
    folded = " ".join(_INVISIBLE.sub("", normalise(text)).casefold().split())
    return re.search(rf"(?<!\w){re.escape(_fold(name))}(?!\w)", folded) is not None


def _segment(i: int, text: str) -> Segment:
    norm = normalise(re.sub(r"\[/?[a-zA-Z*]+(?:=[^\]]*)?\]", "", text))
    return Segment(f"eval#{i}", "eval", "eval.txt", i + 1, (i + 1, i + 1), "", "paragraph",
                   "en", 1.0, text, norm)  # fmt: skip


def texts_alone(
    rules: list[tuple[str, str]],
) -> tuple[int, int, list[tuple[str, str | None]], tuple[int, int]]:
    """Rules whose name is in their text: (right, scored, misses); and of the others, how
    many were given a name all the same (a name their text cannot state: wrong)."""
    right = scored = given = 0
    misses: list[tuple[str, str | None]] = []
    for i, (name, text) in enumerate(rules):
        found = extract(_segment(i, text)).name
        if not _contains(text, name):
            given += found is not None
            continue
        scored += 1
        if _same(found, name):
            right += 1
        else:
            misses.append((name, found))
    return right, scored, misses, (given, len(rules) - scored)


def render(name: str, text: str, style: str) -> str:
    if style == "heading":
        return f"## {name}\n\n{text}"
    if style == "bold":
        return f"**{name}**: {text}"
    if style == "bbcode":
        return f"[b]{name}[/b] {text}"
    return f"{name}: {text}"


def rulebook(rules: list[tuple[str, str]]) -> dict[str, tuple[int, int, list]]:
    """Build one Markdown rulebook of all rules; per style: (right, scored, misses)."""
    parts = ["# Special Rules"]
    for i, (name, text) in enumerate(rules):
        parts.append(render(name, text, STYLES[i % len(STYLES)]))
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus"
        (corpus / "drops" / "book").mkdir(parents=True)
        book = corpus / "drops" / "book" / "rules.md"
        book.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
        build(corpus, Path(tmp) / "out")
        built = json.loads((Path(tmp) / "out" / "rules.json").read_text("utf-8"))
    # the line each rule starts on -> the rule it renders (blocks are separated by blank lines)
    start_of: dict[int, int] = {}
    line = 3
    for i, part in enumerate(parts[1:]):
        start_of[line] = i
        line += part.count("\n") + 2
    found: dict[int, str | None] = {}
    for rule in built:
        for source in rule["texts"].get("en", {}).get("sources", []):
            i = start_of.get(source["lines"][0])
            if i is not None and i not in found:
                found[i] = rule["names"].get("en")
    out: dict[str, tuple[int, int, list]] = {}
    for style in STYLES:
        right = scored = 0
        misses = []
        for i, (name, _) in enumerate(rules):
            if STYLES[i % len(STYLES)] != style:
                continue
            scored += 1
            if _same(found.get(i), name):
                right += 1
            else:
                misses.append((name, found.get(i)))
        out[style] = (right, scored, misses)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", type=int, default=20, help="misses to print per rendering")
    add_flag(parser)
    args = parser.parse_args(argv)
    rules = load_rules(args.data)
    print(f"{len(rules)} distinct rules (name, text) in {args.data}")

    right, scored, misses, (given, unnamed) = texts_alone(rules)
    print(f"\ntexts alone: {right}/{scored} = {right / scored:.4f} (rules naming themselves)")
    print(f"  texts without their name given one all the same: {given}/{unnamed}")
    for name, got in Counter(misses).most_common(args.misses):
        print(f"  miss: {name!r} -> {got!r}")

    styles = rulebook(rules)
    total_right = sum(r for r, _, _ in styles.values())
    total = sum(n for _, n, _ in styles.values())
    print(f"\nrulebook: {total_right}/{total} = {total_right / total:.4f}")
    for style, (r, n, _) in styles.items():
        print(f"  {style:8} {r}/{n} = {r / n:.4f}")
    all_misses = [m for _, _, ms in styles.values() for m in ms]
    for name, got in Counter(all_misses).most_common(args.misses):
        print(f"  miss: {name!r} -> {got!r}")
    rows = [["texts alone (rules whose text holds their name)", f"{right}/{scored}",
             f"{right / scored:.3f}"]]  # fmt: skip
    rows.append(["rulebook, all styles", f"{total_right}/{total}", f"{total_right / total:.3f}"])
    rows += [
        [f"rulebook, {style}", f"{r}/{n}", f"{r / n:.3f}"] for style, (r, n, _) in styles.items()
    ]
    notes = (
        f"{len(rules)} distinct rules of `{args.data.name}`; texts without their name given one"
        f" all the same: {given}/{unnamed}."
    )
    publish(args, "Rule names", ["rendering", "right", "share"], rows, notes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
