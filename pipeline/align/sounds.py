"""The core vocabulary's English words written in a foreign text's own letters: a players'
hand writes "армор" for Armour, "вунда" for wound, "Пойзон" for Poison, inflected as its
own words ("вундит", "вунду"). Such a word says the vocabulary word as surely as its
translation does, so alignment reads it as that word (`w:` anchor), which the English text
carries where it says the word: a general reader of words written by sound
(`pipeline/lang/transcribed.py`), not a list of a drop's jargon.

A word is read so only where the language's dictionary does not know it, its stem has the
sound skeleton of one English form of one vocabulary entry, whole (no beginning of a longer
word: the vocabulary's words are short and common), and the vocabulary's own renderings
have not already read it. Texts are read token by token with each token's answer kept for
the process: the tokens of a drop recur, and a set of the tokens known to say nothing
passes most texts in one C-level test.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache

from ..lang import shared
from ..lang.transcribed import spelled_keys, transcribes, written_keys

_WORD = re.compile(r"[^\W\d_]+")
_MAX_TOKENS = 500_000  # tokens remembered per language before the table starts again


@cache
def _vocabulary(lang: str) -> dict[str, str]:
    """Sound key -> the id of the one vocabulary entry with a one-word English form of that
    skeleton (a key two entries share says neither). Read from the data file."""
    ids: dict[str, set[str]] = {}
    for term in shared("lexicon").get("terms") or ():
        for form in term.get("en") or ():
            if " " not in str(form):
                for key in spelled_keys(str(form), lang, prefixes=False):
                    ids.setdefault(key, set()).add(str(term["id"]))
    return {key: next(iter(found)) for key, found in ids.items() if len(found) == 1}


@cache
def _tokens(lang: str) -> tuple[set[str], set[str]]:
    """The tokens one of whose words writes a vocabulary word, and the tokens with none."""
    return set(), set()


def any_token_speaks(
    tokens: list[str], memo: tuple[set[str], set[str]], speaks: Callable[[str], bool]
) -> bool:
    """Whether `speaks` holds for one of `tokens` (a text split at white space), each
    token's answer kept in `memo` (the tokens that speak, those that do not) for the
    process, up to `_MAX_TOKENS`: most texts are made of tokens seen before, and a text
    whose tokens are all known to say nothing is passed over with one set test."""
    said, silent = memo
    if silent.issuperset(tokens):
        return False
    if len(said) + len(silent) > _MAX_TOKENS:
        said.clear()
        silent.clear()
    found = False
    for token in set(tokens) - silent:
        if token not in said:
            if not speaks(token):
                silent.add(token)
                continue
            said.add(token)
        found = True
    return found


def _speaks(token: str, lang: str) -> bool:
    vocabulary = _vocabulary(lang)
    words = _WORD.findall(token)
    if token.endswith("-"):  # "Персо-" of "Персо- нажем", broken at a line's end
        words = words[:-1]
    return any(key in vocabulary for word in words for key in written_keys(word, lang))


def _broken(text: str, end: int) -> bool:
    """Whether the word ending at `end` is the first piece of one broken at a line's end
    with a hyphen ("Персо- нажем" of a PDF copy): no word of its own."""
    return text[end : end + 1] == "-" and (end + 1 == len(text) or text[end + 1].isspace())


def vocabulary_by_sound(
    text: str, lang: str, read: Iterable[Iterable[int]], tokens: list[str] | None = None
) -> Counter[str]:
    """The vocabulary ids (`w:` anchors) of the words of `text` that write a vocabulary
    word's English by sound, but those starting at an offset of `read` (where the
    vocabulary's renderings or the glossary's terms were found already); `tokens`, the
    text split at white space, where the caller has it."""
    if lang == "en" or not transcribes(lang):
        return Counter()
    tokens = text.split() if tokens is None else tokens
    if not any_token_speaks(tokens, _tokens(lang), lambda token: _speaks(token, lang)):
        return Counter()
    vocabulary = _vocabulary(lang)
    taken = {start for starts in read for start in starts}
    found: Counter[str] = Counter()
    for m in _WORD.finditer(text):
        if m.start() in taken or _broken(text, m.end()):
            continue
        for key in written_keys(m.group(), lang):
            if key in vocabulary:
                found["w:" + vocabulary[key]] += 1
                break
    return found
