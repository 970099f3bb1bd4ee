"""A sentence as patterns read it: its text, or its words in dictionary form.

Russian patterns read a sentence's words as lemmas (lower case), so that one pattern matches
every inflection; groups and spans are always read back from the text itself through each
character's offset in the sentence.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from pipeline.lang import lemma

WORD = re.compile(r"[^\W\d_]+")
_WORD_SPLIT = re.compile(f"({WORD.pattern})")
# Invisible characters some sources put between or inside words ("can \u200b never",
# "set\u200b to"), with the spaces beside them: read as one space, or as nothing inside a word
_INVISIBLE = re.compile(r"([ \t]*[\u00ad\u200b\u2060\ufeff][ \t\u00ad\u200b\u2060\ufeff]*)")


class View:
    """A sentence as patterns read it: its text, or its words in dictionary form (`match:
    lemmas`, so that one pattern matches every inflection), with each character's offset in
    the sentence so that spans and groups are always read back from the text itself. The
    offsets are worked out only for a sentence some pattern matches, and then only for the
    characters asked (a match's ends); the text as written is its own map."""

    __slots__ = ("_map", "_parts", "_words", "text")

    def __init__(
        self, text: str, parts: list[str] | None = None, words: list[str] | None = None
    ) -> None:
        self.text = text
        # the view's parts (between words, a word's lemma, ...) and the words they read;
        # None: the view is the sentence itself
        self._parts = parts
        self._words = words
        self._map: tuple[list[int], list[int]] | None = None

    def _at(self, i: int) -> int:
        """The offset in the sentence of the view's i-th character: each lemma character at
        its word's character, the surplus on the word's last one."""
        if self._map is None:
            assert self._parts is not None and self._words is not None
            lens = list(map(len, self._parts))
            view = list(accumulate(lens, initial=0))
            lens[1::2] = map(len, self._words)
            self._map = (view, list(accumulate(lens, initial=0)))
        view, sentence = self._map
        k = bisect_right(view, i) - 1  # the part holding it
        if k % 2 == 0:
            return sentence[k] + i - view[k]
        j = i - view[k]
        n = min(view[k + 1] - view[k] - 1, sentence[k + 1] - sentence[k] - 1)
        return sentence[k] + j if j < n else sentence[k + 1] - 1

    def start(self, i: int) -> int:
        if self._parts is None:
            return i
        size = len(self.text)
        return self._at(i) if i < size else (self._at(size - 1) + 1 if size else 0)

    def end(self, i: int) -> int:
        if self._parts is None:
            return i
        return self._at(i - 1) + 1 if i > 0 else 0


# A word form's dictionary form, lower case, per language: read once per form, not per
# occurrence. Cleared when full, so memory stays bounded.
FORMS_KEPT = 50_000
_forms: dict[str, dict[str, str]] = {}


def form(form: str, lang: str) -> str:
    """The dictionary form of one word form, lower case."""
    forms = _forms.setdefault(lang, {})
    word = forms.get(form)
    if word is None:
        word = (lemma(form, lang) or form).lower()
        if len(forms) >= FORMS_KEPT:
            forms.clear()
        forms[form] = word
    return word


def view(sentence: str, on: str, lang: str) -> View:
    if on != "lemmas":
        if not _INVISIBLE.search(sentence):
            return View(sentence)
        parts = _INVISIBLE.split(sentence)  # text, invisible run, text, ...
        runs = parts[1::2]
        parts[1::2] = [" " if any(c in " \t" for c in r) else "" for r in runs]
        return View("".join(parts), parts, runs)
    parts = _WORD_SPLIT.split(sentence)  # between words, a word, between words, ...
    words = parts[1::2]
    known = _forms.setdefault(lang, {}).get
    parts[1::2] = [known(w) or form(w, lang) for w in words]
    return View("".join(parts), parts, words)
