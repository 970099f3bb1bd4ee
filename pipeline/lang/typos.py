"""Words typed with one slip: "объвляет" for "объявляет", "отрядаа", "шернги", and a letter
typed in the other keyboard layout, "jтряд" for "отряд", "dызов" for "вызов".

A hand typing fast in a messenger swaps, doubles or drops a letter in one word of fifteen.
Such a word still says its word to a reader, so it is read as that word, but only where it
can be read for sure (`<code>/typos.yaml`):

- the language's dictionary knows no parse of the word as typed: a word that is a word
  ("свой", "перс") is never mended, whatever word it is one letter from;
- it has `min_letters` letters or more: a short word is one slip from many;
- every word of the dictionary one edit from it (a letter left out, added, replaced, or two
  side by side swapped) has one dictionary form: "получет" is one letter from "получает"
  and from "получит", two verbs, and stays unread;
- a word in the language's letters with a Latin letter or two in it is read with each
  replaced by the letter of its key in the language's `layout`, where that is a word, but
  not where a Latin letter looks like one of the language's ("пpавилом" with a Latin p,
  `homoglyphs.yaml`): a converter or a copy put that one there, not a keyboard, and the
  checks name it.
"""

from __future__ import annotations

from functools import cache, lru_cache

from .scripts import homoglyphs
from .service import data, fold, lemmatised


@cache
def _rules(lang: str) -> tuple[str, dict[str, str], int] | None:
    """(the language's lower-case letters, Latin letter -> the language's letter on its key
    or of its look, the fewest letters of a word read) or None where nothing is mended."""
    raw = data(lang, "typos", fallback=False)
    if not raw or lang not in lemmatised():
        return None
    swaps = {str(k): str(v) for k, v in (raw.get("layout") or {}).items()}
    return str(raw["alphabet"]), swaps, int(raw.get("min_letters", 5))


@cache
def _look_alikes(alphabet: str) -> frozenset[str]:
    """The Latin letters, either case, that look like a letter of `alphabet` ("p", "B")."""
    return frozenset(lat for cyr, lat in homoglyphs().items() if cyr.lower() in alphabet)


def min_letters(lang: str) -> int:
    """The fewest letters of a word the reader of slips mends in `lang`; 0 where it mends
    none (the language has no `typos.yaml`, or no dictionary)."""
    rules = _rules(lang)
    return rules[2] if rules else 0


def known(word: str) -> bool:
    """Whether the dictionary knows `word` (lower case)."""
    from .words import morph

    try:
        return bool(morph().word_is_known(word))
    except ValueError:  # a letter with no Unicode name
        return True


def edits(word: str, lang: str) -> set[str]:
    """Every string one edit from `word` in the letters of `lang` (none where it mends
    nothing): a letter left out, two side by side swapped, one replaced, one added."""
    rules = _rules(lang)
    return _edits(word, rules[0]) if rules else set()


def _edits(word: str, alphabet: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out.update(a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1)
    out.update(a + c + b[1:] for a, b in splits if b for c in alphabet if c != b[0])
    out.update(a + c + b for a, b in splits for c in alphabet)
    out.discard(word)
    return out


def _relaid(word: str, alphabet: str, swaps: dict[str, str]) -> set[str]:
    """A word in the language's letters with Latin letters in it, each Latin letter read as
    the key's letter of the other layout or as the letter it looks like ("jтряд": "отряд")."""
    latin = [i for i, ch in enumerate(word) if ch not in alphabet]
    if not latin or len(latin) == len(word) or len(latin) > 2:
        return set()
    out = {""}
    for ch in word:
        options = swaps.get(ch, "") if ch not in alphabet else ch
        out = {w + o for w in out for o in options}
    return out


@lru_cache(maxsize=100_000)
def mended(word: str, lang: str) -> str | None:
    """The dictionary form of the one word `word` is a slip of, by the rules above; None
    where it is a word, too short, or one slip from none or from words of two forms."""
    rules = _rules(lang)
    if rules is None:
        return None
    alphabet, swaps, min_letters = rules
    if not _look_alikes(alphabet).isdisjoint(word):
        return None  # a homoglyph ("пpавилом"), or a word in Latin letters
    low = fold(word.lower())
    if len(low) < min_letters or not low.isalpha():
        return None
    relaid = _relaid(low, alphabet, swaps)
    if relaid:
        candidates = relaid
    elif any(ch not in alphabet for ch in low) or known(low):
        return None
    else:
        candidates = _edits(low, alphabet)
    from .words import lemma

    forms = {lemma(c, lang) for c in candidates if known(c)}
    return next(iter(forms)) if len(forms) == 1 else None
