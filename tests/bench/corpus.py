"""Generate a corpus many times the seeds' size, in the seeds' patterns.

Each copy of each seed file keeps its layout (blank-line paragraphs, one block a line,
capital headings, pipe tables, BBCode) while numbers, dice and word order vary, so the
pipeline sees new text with the same structure. Deterministic for a given seed.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent.parent / "corpus" / "drops" / "seed"
_NUMBER = re.compile(r"(?<![DdД\w])(\d+)(?![\w])")


def vary(text: str, rng: random.Random) -> str:
    """Change numbers and swap neighbouring words in some sentences; keep line layout."""

    def number(m: re.Match[str]) -> str:
        return str(int(m.group(1)) + rng.choice((0, 0, 1, 2))) if rng.random() < 0.5 else m.group(1)

    out_lines = []
    for line in text.split("\n"):
        if line.startswith("|") or not line.strip():
            out_lines.append(_NUMBER.sub(number, line))
            continue
        words = line.split(" ")
        for _ in range(len(words) // 25):
            i = rng.randrange(len(words) - 1)
            words[i], words[i + 1] = words[i + 1], words[i]
        out_lines.append(_NUMBER.sub(number, " ".join(words)))
    return "\n".join(out_lines)


def make_corpus(dest: Path, factor: int, seed: int = 1, files_per_drop: int = 300) -> Path:
    """Write `factor` varied copies of every seed file under dest/drops/, return dest."""
    if dest.exists():
        shutil.rmtree(dest)
    rng = random.Random(seed)
    originals = sorted(SEEDS.iterdir())
    texts = [p.read_text("utf-8") for p in originals]
    n = 0
    for copy in range(factor):
        for path, text in zip(originals, texts, strict=True):
            drop = dest / "drops" / f"gen{n // files_per_drop:04d}"
            drop.mkdir(parents=True, exist_ok=True)
            body = text if copy == 0 else vary(text, rng)
            (drop / f"{copy:05d}_{path.name}").write_text(body, encoding="utf-8")
            n += 1
    shutil.copy(SEEDS.parent.parent / "glossary.yaml", dest / "glossary.yaml")
    return dest
