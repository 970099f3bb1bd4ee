"""Synthetic rules corpora from the seeds' patterns, with planted near copies.

`generate(n, seed)` gives `n` English/Russian paragraphs: sentences of the seed rules
recombined under generated rule names, with names and numbers varied, plus near copies
of some of them whose expected dedup relation is known:

- `cosmetic`: white space before punctuation, punctuation, letter case, one synonym
  (from `pipeline/lang/<code>/synonyms.yaml`);
- `conflict`: one number, distance or die changed;
- `distinct`: the rule name changed, so a different rule that must *not* be merged.

Deterministic for a seed; copies come after all originals, so originals are canonical.
Used by `bench_dedup.py`; reusable for any stage that needs a corpus many times the seeds.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pipeline.dedup import lang_data

SEED_DIR = Path(__file__).resolve().parents[2] / "corpus" / "drops" / "seed"
EDITS: dict[str, str] = {
    "space": "cosmetic",
    "punctuation": "cosmetic",
    "case": "cosmetic",
    "synonym": "cosmetic",
    "number": "conflict",
    "dice": "conflict",
    "name": "distinct",
}

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ\"«(\-])")
_NAME = {"en": re.compile(r"(?<=\s)[A-Z][a-z]{3,}\b"), "ru": re.compile(r"(?<=\s)[А-ЯЁ][а-яё]{3,}")}
_NUMBER = re.compile(r"(?<![\w.])(\d+)(?![\d½])")
_DICE = re.compile(r"(?<![\w])(\d?)([DД])(3|6)(?![\d])")


@dataclass(frozen=True, slots=True)
class Paragraph:
    id: str
    lang: str
    text: str


@dataclass(frozen=True, slots=True)
class Plant:
    """A planted copy of `original`: which edit and what dedup should call it."""

    original: str
    copy: str
    edit: str
    expected: str  # cosmetic | conflict | distinct


@dataclass(frozen=True, slots=True)
class Corpus:
    paragraphs: list[Paragraph]
    plants: list[Plant]


@cache
def _seed_patterns(lang: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(sentences, names) of the seed texts of one language."""
    if lang == "en":
        raw = (SEED_DIR / "002_c7ff2043f171b6ae.txt").read_text(encoding="utf-8").split("\n\n")
        blocks = [p.strip() for p in raw if p.strip() and not p.startswith("armatura")]
    else:
        raw = (SEED_DIR / "000_745db052e7f633dc.txt").read_text(encoding="utf-8").splitlines()
        raw += (SEED_DIR / "004_8c6b2bd97740666a.txt").read_text(encoding="utf-8").splitlines()
        blocks = [line.strip() for line in raw if line.strip() and not line.startswith("|")]
    sentences = sorted({s for b in blocks for s in _SENTENCE_END.split(b) if len(s) > 12})
    names = sorted({m.group() for b in blocks for m in _NAME[lang].finditer(b)})
    return tuple(sentences), tuple(names)


def _paragraph(rng: random.Random, lang: str) -> str:
    sentences, names = _seed_patterns(lang)
    picked = [rng.choice(sentences) for _ in range(rng.randint(1, 4))]
    body = " ".join(picked)
    body = _NAME[lang].sub(lambda m: rng.choice(names) if rng.random() < 0.3 else m.group(), body)
    body = _NUMBER.sub(lambda m: str(rng.randint(1, 12)) if rng.random() < 0.3 else m.group(), body)
    return f"{rng.choice(names)} {rng.choice(names)}: {body}"


def _synonym_swap(rng: random.Random, text: str, lang: str) -> str | None:
    """Swap one word for a listed synonym (either direction), keeping its capital."""
    pairs: dict[str, str] = {}
    for variant, key in lang_data(lang).synonyms.items():
        if len(variant) > 1 and " " not in variant + key:
            pairs.setdefault(variant, key)
            pairs.setdefault(key, variant)
    found = [
        m
        for m in re.finditer(r"\w+", text)
        if m.group().casefold() in pairs and not m.group().isupper()
    ]
    if not found:
        return None
    m = rng.choice(found)
    word = pairs[m.group().casefold()]
    if m.group()[0].isupper():
        word = word[0].upper() + word[1:]
    return text[: m.start()] + word + text[m.end() :]


def plant(rng: random.Random, text: str, lang: str, kind: str) -> str | None:
    """`text` with one edit of `kind`, or None when the text offers no place for it."""
    if kind == "space":
        spots = [m.start() for m in re.finditer(r"(?<=\w)[,.;:](?=\s|$)", text)]
        if not spots:
            return None
        i = rng.choice(spots)
        return text[:i] + " " + text[i:]
    if kind == "punctuation":
        if ", " in text:
            i = rng.choice([m.start() for m in re.finditer(", ", text)])
            return text[:i] + text[i + 1 :]
        return text.rstrip(".") + "!"
    if kind == "case":
        spots = [m for m in _NAME[lang].finditer(text)]
        if not spots:
            return None
        m = rng.choice(spots)
        return text[: m.start()] + m.group().lower() + text[m.end() :]
    if kind == "synonym":
        return _synonym_swap(rng, text, lang)
    if kind == "number":
        spots = list(_NUMBER.finditer(text))
        if not spots:
            return None
        m = rng.choice(spots)
        new = str(int(m.group(1)) + rng.choice((1, 2, 6)))
        return text[: m.start()] + new + text[m.end() :]
    if kind == "dice":
        spots = list(_DICE.finditer(text))
        if not spots:
            return None
        m = rng.choice(spots)
        side = "6" if m.group(3) == "3" else "3"
        return text[: m.start()] + m.group(1) + m.group(2) + side + text[m.end() :]
    if kind == "name":
        _, names = _seed_patterns(lang)
        head, _, rest = text.partition(":")
        return f"{head.split()[0]} {rng.choice([n for n in names if n not in head])}:{rest}"
    raise ValueError(f"unknown edit {kind!r}")


def generate(n: int, seed: int = 0, ru_share: float = 0.3, plant_share: float = 0.1) -> Corpus:
    """`n` paragraphs in all, of which about `plant_share` are planted near copies."""
    rng = random.Random(seed)
    n_plants = int(n * plant_share)
    originals: list[Paragraph] = []
    seen: set[str] = set()
    while len(originals) < n - n_plants:
        lang = "ru" if rng.random() < ru_share else "en"
        text = _paragraph(rng, lang)
        if text not in seen:
            seen.add(text)
            originals.append(Paragraph(f"gen/{lang}#{len(originals)}", lang, text))
    kinds = list(EDITS)
    order = list(range(len(originals)))
    rng.shuffle(order)
    cursor = dict.fromkeys(kinds, 0)  # per edit kind: where its search for a fit resumes
    used: set[int] = set()
    copies: list[Paragraph] = []
    plants: list[Plant] = []
    for k in range(n_plants):
        kind = kinds[k % len(kinds)]
        while cursor[kind] < len(order):
            idx = order[cursor[kind]]
            cursor[kind] += 1
            if idx in used:
                continue
            source = originals[idx]
            text = plant(rng, source.text, source.lang, kind)
            if text is None or text == source.text or text in seen:
                continue
            used.add(idx)
            seen.add(text)
            copy_id = f"gen/{source.lang}#{len(originals) + len(copies)}"
            copies.append(Paragraph(copy_id, source.lang, text))
            plants.append(Plant(source.id, copy_id, kind, EDITS[kind]))
            break
    return Corpus(originals + copies, plants)
