"""Language of a block, with a confidence, built on lingua's n-gram models.

Markup tags, numbers and dice notation carry no language, so they are stripped before
detection; the candidate set is data (pipeline/lang/languages.yaml). A few words say
little (lingua calls "Champion." Italian), so `settle` gives a file's short, unsure blocks
the file's main language when their words are that language's words in the file.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from functools import cache

from ..bbcode import TAG
from ..lang import alphabet_language, detector, min_letters, mixed_language, notation, shared
from ..parallel import Feed

# Tags, dice and numbers, punctuation. Every match begins with a character of the class in
# front, which lets the regex engine skip to such characters instead of trying each branch
# at every position (the same matches, in half the time).
_NOISE = re.compile(
    rf"(?=[\[\d{notation().die_letters}|+\-×x\"″'()\].,:;!?])"
    rf"(?:{TAG.pattern}|\b\d*[{notation().die_letters}]\d+\b|[\d|+\-×x\"″'()\[\].,:;!?]+)"
)
_LETTER = re.compile(r"[^\W\d_]")


_FOUND: dict[bytes, tuple[str, float] | None] = {}  # digest of a cleaned text -> its language
_REMEMBERED = 1 << 20  # texts kept: the cache is emptied before it grows past this


def _key(cleaned: str) -> bytes:
    """A short digest of a cleaned text: the cache keeps no copy of the text itself."""
    return hashlib.blake2b(cleaned.encode("utf-8"), digest_size=16).digest()


def identify(text: str) -> tuple[str, float] | None:
    """Return (ISO code, confidence) or None when the text has too few letters to tell.

    Detection is of the text without numbers and notation: corpora repeat their paragraphs
    with other numbers, which all clean to one text and need one detection."""
    return identify_all([text])[0]


def identify_all(texts: Sequence[str]) -> list[tuple[str, float] | None]:
    """`identify` of many texts at once (see `Identification`)."""
    found = Identification()
    found.add(texts)
    return found.results()


class Identification:
    """The languages of texts given a file at a time as a corpus is read. Texts not met
    before are detected in forked workers once they are many, each worker with a detector
    of its own (the detector's models, a quarter of a gigabyte, then never load into this
    process), while the files after them are read."""

    def __init__(self) -> None:
        self._keys: list[bytes] = []
        self._known: dict[bytes, tuple[str, float] | None] = {}
        self._todo: list[bytes] = []
        self._feed = Feed(_detect)

    def add(self, texts: Sequence[str]) -> None:
        known, keys = self._known, self._keys
        new: list[str] = []
        for text in texts:
            cleaned = _NOISE.sub(" ", text)
            key = _key(cleaned)
            keys.append(key)
            if key in known:
                continue
            if key in _FOUND:
                known[key] = _FOUND[key]
            elif _enough_letters().search(cleaned) is None:
                known[key] = None
            elif (lang := alphabet_language(cleaned) or mixed_language(cleaned)) is not None:
                known[key] = (lang, 1.0)
            else:
                known[key] = None  # until detected
                self._todo.append(key)
                new.append(cleaned)
        self._feed.add(new)

    def results(self) -> list[tuple[str, float] | None]:
        """The language of every text given, in order."""
        known = self._known
        known.update(zip(self._todo, self._feed.results(), strict=True))
        if len(_FOUND) + len(known) > _REMEMBERED:
            _FOUND.clear()
        _FOUND.update(known)
        return [known[key] for key in self._keys]

    def cancel(self) -> None:
        self._feed.cancel()


@cache
def _enough_letters() -> re.Pattern[str]:
    """Finds `min_letters` letters in a text (fewer carry too little evidence)."""
    return re.compile(rf"(?:[^\W\d_][\s\S]*?){{{min_letters()}}}")


def _detect(cleaned: str) -> tuple[str, float]:
    best = detector().compute_language_confidence_values(cleaned)[0]
    return best.language.iso_code_639_1.name.lower(), round(best.value, 4)


_WORD = re.compile(r"[^\W\d_]{2,}")


def _short_rule() -> tuple[int, float]:
    data = shared("languages")
    return int(data.get("short_words", 4)), float(data.get("sure_confidence", 0.7))


def settle(
    texts: Sequence[str],
    found: Sequence[tuple[str, float]],
    headings: Sequence[bool] | None = None,
) -> list[tuple[str, float]]:
    """A file's languages after its short blocks that the detector is unsure of
    ("Champion." as Italian, "Roll a D6:" as German) took the file's main language.

    Such a block changes only when most of its words are words of the main language's
    blocks of the same file, so a short translation-memory source ("armatura +3" in an
    English file) keeps its own language. A heading the detector is unsure of takes the
    language of the block under it, when that one is sure ("Rage" above an English rule).
    The confidence of a changed block is 0.
    """
    short_words, sure = _short_rule()
    letters: Counter[str] = Counter()
    for text, (lang, confidence) in zip(texts, found, strict=True):
        if lang != "und" and confidence >= sure:
            letters[lang] += len(text)
    if not letters:
        return list(found)
    main = letters.most_common(1)[0][0]
    vocabulary: set[str] | None = None
    out = list(found)
    for i, (text, (lang, confidence)) in enumerate(zip(texts, found, strict=True)):
        if lang in (main, "und") or confidence >= sure:
            continue
        words = [w.casefold() for w in _WORD.findall(text)]
        if not words or len(words) > short_words:
            continue
        if headings is not None and headings[i] and i + 1 < len(found):
            below, below_confidence = found[i + 1]
            if below_confidence >= sure and below != "und":
                out[i] = (below, 0.0)
                continue
        if vocabulary is None:  # each distinct word folded once: most words repeat
            main_texts = "\n".join(t for t, (lg, _) in zip(texts, found, strict=True) if lg == main)
            vocabulary = {w.casefold() for w in set(_WORD.findall(main_texts))}
        if sum(w in vocabulary for w in words) * 2 >= len(words):
            out[i] = (main, 0.0)
    return out
