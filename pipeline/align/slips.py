"""The core vocabulary typed with a slip: "объвляет" says "объявлять" (declare), "jтряда"
"отряд" (unit), "шернги" "шеренга" (rank), in a drop typed fast in a messenger. Such a word
says its vocabulary word as surely as the word spelled right, so alignment reads it as that
word (`w:` anchor), by the language's reader of slips (`pipeline/lang/typos.py`: a word
the dictionary does not know, one edit from words of one dictionary form only).

That reader tries every edit of a word, which costs; a word is handed to it only where a
form of a one-word vocabulary rendering is one edit from it (a letter left out or added, one
replaced, two swapped: a form and the word share a spelling with one letter or none left
out), or where it mixes Latin letters into the language's own. Texts are read token by
token, each token's answer kept for the process, as `sounds.py` does.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import cache

from ..lang import fold, shared, word_forms
from ..lang.typos import mended, min_letters

_WORD = re.compile(r"[^\W\d_]+")
_LATIN = re.compile("[a-z]")
_MAX_TOKENS = 500_000  # tokens remembered per language before the table starts again


def _deletes(word: str) -> set[str]:
    """The word and the word with any one letter left out."""
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


@cache
def _vocabulary(lang: str) -> tuple[dict[str, str], frozenset[str]]:
    """The dictionary form of each one-word rendering of the vocabulary -> its id, and the
    spellings of their forms with one letter or none left out (a word none of whose
    spellings so is among them is no slip of a vocabulary word)."""
    from ..lang import lemma

    ids: dict[str, set[str]] = {}
    keys: set[str] = set()
    for term in shared("lexicon").get("terms") or ():
        for form in term.get(lang) or ():
            if " " in str(form):
                continue
            low = fold(str(form).lower())
            ids.setdefault(lemma(low, lang), set()).add(str(term["id"]))
            for inflected in word_forms(low):
                keys.update(_deletes(fold(inflected)))
    return {k: next(iter(v)) for k, v in ids.items() if len(v) == 1}, frozenset(keys)


@cache
def _tokens(lang: str) -> tuple[dict[str, str], set[str]]:
    """Token -> the vocabulary id it says with a slip, and the tokens that say none."""
    return {}, set()


def _says(word: str, lang: str) -> str | None:
    """The vocabulary id a word typed with a slip says, or None."""
    low = fold(word.lower())
    if len(low) < min_letters(lang) or low.isascii():
        return None
    by_lemma, keys = _vocabulary(lang)
    if keys.isdisjoint(_deletes(low)) and not _LATIN.search(low):  # most words: no slip
        return None
    found = mended(word, lang)
    return by_lemma.get(found) if found else None


def vocabulary_by_slip(text: str, lang: str, read: Iterable[Iterable[int]]) -> Counter[str]:
    """The vocabulary ids (`w:` anchors) of the words of `text` typed with a slip, but those
    starting at an offset of `read` (where the vocabulary or the glossary was found)."""
    if lang == "en" or not min_letters(lang):
        return Counter()
    said, silent = _tokens(lang)
    words = _WORD.findall(text)
    if silent.issuperset(words):
        return Counter()
    if len(said) + len(silent) > _MAX_TOKENS:
        said.clear()
        silent.clear()
    for word in set(words) - silent - said.keys():
        found = _says(word, lang)
        if found is None:
            silent.add(word)
        else:
            said[word] = found
    if not said.keys() & set(words):
        return Counter()
    taken = {start for starts in read for start in starts}
    out: Counter[str] = Counter()
    for m in _WORD.finditer(text):
        if m.start() not in taken and (found := said.get(m.group())):
            out["w:" + found] += 1
    return out
