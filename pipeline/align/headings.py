"""Names that head a paragraph in both languages: "Spear: ... with a Spear ..." and
"Копьё. ... с копьём ...".

Rules open with their name and go on to use it; a translation keeps the opening ("Копьё.",
"«Стоять и стрелять»:", "Расстроенный отряд."). The name heading the English text of a
link and the phrase heading its translation are one term when each is used again in its
own text: a section title said once ("Moving Characters:") is no term, and an article
opening the English is no word of the name ("A Third:" is Third). A word of the core
vocabulary that the English name lacks is left out of the rendering ("Расстроенный отряд"
for Disrupted is "Расстроенный": the unit is the sentence's, not the name's); one the
name says inside a term or opens a word with is not ("Проникновение Брони", "ширина
фронта" for Frontage), and a phrase of as many words as the name keeps them all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from ..lang import lemmas, parses
from .compose import english_forms, english_parts, foreign_parts
from .terms import Candidate, candidates, english_key

_ENGLISH_HEAD = re.compile(
    r"^([A-Z][\w'’!-]*(?:\s+(?:of|the|to|and|[A-Z][\w'’!-]*))*)\s*(?:\([^)]*\)\s*)*:"
)
#: A translation may number its sections ("4.1.2 Обычное присутствие."): no word of the name.
_FOREIGN_HEAD = re.compile(
    r"^(?:\d+(?:\.\d+)+\.?\s+|\d+\.\s+)?(«?)([^.:;!?()«»]+?)»?\s*(?:\([^)]*\)\s*)*[.:]"
)
MAX_HEAD_WORDS = 5
#: An article opening an English heading is no word of the name ("A Third:").
_ARTICLES = frozenset({"A", "An", "The"})
MIN_STEM = 4  # letters of a vocabulary word that opens a longer word and makes it
_WORD = re.compile(r"[\w-]+")


class _Bead(Protocol):
    source: str
    target: str
    link: str


@dataclass(frozen=True, slots=True)
class Heading:
    bead: int  # index of the link's first bead
    english: Candidate
    target: Candidate


def headings(beads: Sequence[_Bead], lang: str) -> list[Heading]:
    """The names heading both texts of a link and used again in them (see above)."""
    out = []
    for first, group in _links(beads):
        head = beads[first]
        english = _english_head(head.source)
        if english is None:
            continue
        source = " ".join(b.source for b in group)
        if not _again_english(english, source[english.end :]):
            continue
        target = _foreign_head(head.target, lang)
        if target is None:
            continue
        rest = " ".join(b.target for b in group)[target.end :]
        target = _without_stray_words(english, target, lang)
        if target is not None and _again_foreign(target.words, rest, lang):
            out.append(Heading(first, english, target))
    return out


def _links(beads: Sequence[_Bead]) -> list[tuple[int, list[_Bead]]]:
    """Each link's beads in order, with the index of its first (a bead with no link id is
    a link of its own)."""
    out: list[tuple[int, list[_Bead]]] = []
    for i, bead in enumerate(beads):
        if out and bead.link and out[-1][1][0].link == bead.link:
            out[-1][1].append(bead)
        else:
            out.append((i, [bead]))
    return out


def _english_head(text: str) -> Candidate | None:
    m = _ENGLISH_HEAD.match(text)
    if m is None:
        return None
    words = tuple(m.group(1).split())
    if words[-1].lower() in ("of", "the", "to", "and"):
        return None
    start = 0
    if len(words) > 1 and words[0] in _ARTICLES:  # "A Quarter:" names a quarter
        start = m.group(1).index(words[1], len(words[0]))
        words = words[1:]
    return Candidate(english_key(words), words, start, m.end(1), True, False, True)


def _again_english(head: Candidate, rest: str) -> bool:
    words = [re.escape(w) for w in head.key.split()]  # "Challenges:" ... "a challenge"
    pattern = r"\s+".join(words) + r"(?:s|es)?"
    return re.search(rf"(?<![\w-]){pattern}(?![\w-])", rest, re.IGNORECASE) is not None


def _foreign_head(text: str, lang: str) -> Candidate | None:
    """The phrase a translation opens with, up to its first full stop or colon (a name in
    guillemets, a bracket after it aside), as a candidate term of that span."""
    m = _FOREIGN_HEAD.match(text)
    if m is None:
        return None
    start, end = m.start(2), m.end(2)
    words = tuple(_WORD.findall(m.group(2)))
    if not 0 < len(words) <= MAX_HEAD_WORDS or not words[0][:1].isupper():
        return None
    whole = [c for c in candidates(text, lang) if c.start == start and c.end == end]
    if whole:
        return replace(whole[0], capitalised=bool(m.group(1)) or whole[0].capitalised)
    key = " ".join(lemmas(w, lang)[0] for w in words)
    return Candidate(key, words, start, end, True if m.group(1) else None, False, True)


def _english_has(words: tuple[str, ...]) -> set[str]:
    """The vocabulary terms an English name says: those of its words and phrases, each
    word's own ("Armour" inside "Armour Penetration") and the one a word is made from
    ("Frontage" of front, "Longbow" of long: it opens the word)."""
    ours = {t for part in english_parts(words) for t in part}
    ours |= {t for w in words for part in english_parts((w,)) for t in part}
    for w in words:
        low = w.lower()
        ours |= {t for form, t in english_forms().items() if _opens(form, low)}
    return ours


def _opens(form: tuple[str, ...], word: str) -> bool:
    """Whether a one-word vocabulary form opens a longer English word ("front", "Frontage")."""
    return (
        len(form) == 1
        and len(form[0]) >= MIN_STEM
        and len(word) > len(form[0])
        and word.startswith(form[0])
    )


def _without_stray_words(english: Candidate, target: Candidate, lang: str) -> Candidate | None:
    """The heading less a first or last word that renders a vocabulary word the English
    name does not have; None when nothing would be left, and a noun is kept with its
    complement ("Поворот колесом" for Wheels is no "колесо"). A heading of as many words as
    the English name renders it word for word: none of its words is stray ("Множественные
    Раны" for Multiple Wounds, whatever the vocabulary reads "раны" as)."""
    ours = _english_has(english.words)
    parts = foreign_parts(target.words, lang)
    if len(parts) != len(target.words):  # a two-word vocabulary phrase: keep it whole
        return target
    if len(parts) == len(english_parts(english.words)):
        return target
    words = list(target.words)
    for i in (len(words) - 1, 0):
        if len(words) > 1 and parts[i] and not parts[i] & ours:
            if i == 0 and lang == "ru" and _complement(words[1]):
                continue  # "Поворот колесом": the head and its complement, no name alone
            words.pop(i)
            parts = parts[:i] + parts[i + 1 :]
            key = " ".join(lemmas(w, lang)[0] for w in words)
            target = Candidate(key, tuple(words), target.start, target.end, None, False, True)
    return target if words else None


def _complement(word: str) -> bool:
    """Whether a Russian word is a noun in an oblique case, the complement of the word
    before it ("колесом" in "Поворот колесом")."""
    read = parses(word.lower())[:1]
    return bool(read) and read[0].tag.POS == "NOUN" and read[0].tag.case not in ("nomn", None)


def _again_foreign(words: tuple[str, ...], rest: str, lang: str) -> bool:
    """Whether the words come again in `rest`, one after another, in any form."""
    want = [set(lemmas(w, lang)) for w in words]
    text = [set(lemmas(w, lang)) for w in _WORD.findall(rest)]
    n = len(want)
    return any(all(want[k] & text[i + k] for k in range(n)) for i in range(len(text) - n + 1))
