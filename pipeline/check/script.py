"""homoglyph and untranslated: which script each letter is written in.

A Cyrillic `Х` in `Х+D6` looks right to a reader and breaks search, spell checking and the
dice parser; an English sentence left in a Russian translation is plain to see in the script
of its letters. Both checks read letters, not languages, so they need no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..lang.scripts import (
    ANY_CYRILLIC,
    ANY_LATIN,
    CYRILLIC_RANGE,
    LETTERS,
    homoglyphs,
    is_cyrillic,
    is_latin,
    latin_to_cyrillic,
    mixed_words,
    swapped,
)
from ..sentences import sentences
from .codepoints import name, swaps
from .data import base_lang, lang_checks
from .model import Finding, Span
from .quantities import Item
from .text import WORD, mask_tags, script_of

_ROMAN = re.compile(r"[IVXLC]+")
_PARENS = re.compile(r"\([^()]*\)")
# Latin words in a row (with the numbers among them: "On a 4+"), for the untranslated check.
_LATIN_RUN = re.compile(
    r"[A-Za-z][A-Za-z'’&\-]*(?:[ ,]+(?:[A-Za-z][A-Za-z'’&\-]*|\d+\+?(?![\w\"″])))*",
    re.UNICODE,
)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’&\-]*")
# A token around a letter: what a source reference, code or name copied as it stands keeps.
_TOKEN_EDGE = "()[]{}.,;:!?«»\"'“”"
# A letter with no letter after it; that none is before it is tested on each match
# (check_homoglyphs): a pattern that starts with a lookbehind is tried at every position of
# the text, this one only at letters of its script.
_LONE_LATIN = re.compile(rf"[A-Za-z](?!{LETTERS})")
_LONE_CYRILLIC = re.compile(rf"[{CYRILLIC_RANGE}](?!{LETTERS})")
_LETTER = re.compile(LETTERS)
_SAME_PLACE = 0.25  # relative position in the text, for a capital copied from the source
_LATIN_SCRIPT_LANGS = frozenset({"en", "it", "fr", "de", "es", "pt", "pl", "nl", "cs"})


def check_homoglyphs(
    pair_id: str,
    text: str,
    lang: str | None,
    quantities: list[Item],
    is_source: bool,
    other: list[Item] = (),  # type: ignore[assignment]
    source: str | None = None,
) -> Iterator[Finding]:
    """Homoglyph findings of one text; `other` (the other side's quantities, if the text
    has a counterpart) gives the span of the same notation there, so a report can mark both.
    `source`: the text a translation translates, whose references, codes and names in
    brackets it may copy as they are ("7.C", "Zone B")."""
    seen: set[int] = set()
    where = "source" if is_source else "translation"
    counterpart: dict[tuple, list[Span]] = {}
    for it in other:
        counterpart.setdefault(it.key, []).append(it.q.span)

    def finding(
        span: Span, message: str, expected: str | None, there: Span | None = None
    ) -> Finding:
        seen.update(range(*span))
        src, tgt = (span, there) if is_source else (there, span)
        return Finding(
            "homoglyph", "error", pair_id, message, src, tgt, expected, text[span[0] : span[1]]
        )

    # Cyrillic letters inside dice and variable notation, as the quantity reader saw them.
    for it in quantities:
        for note in it.q.notes:
            if not note.startswith("homoglyph:"):
                continue
            letter = note.split(":", 1)[1]
            a, b = it.q.span
            pos = text.find(letter, a, b)
            while pos >= 0 and pos in seen:
                pos = text.find(letter, pos + 1, b)
            if pos < 0:
                continue
            latin = homoglyphs().get(letter, "X")
            spans = counterpart.get(it.key)
            yield finding(
                (pos, pos + 1),
                f"Cyrillic {name(letter)} in the notation {it.q.surface.strip()!r} of the"
                f" {where}: write the Latin {name(latin)}",
                latin,
                spans.pop(0) if spans else None,
            )
    if not (ANY_LATIN.search(text) and ANY_CYRILLIC.search(text)):
        return  # one script only: nothing can be mixed
    text_script = script_of(text) if lang is None else _lang_script(lang, text)
    allowed = lang_checks(lang).allowed_latin
    masked = mask_tags(text)
    for m in mixed_words(masked):
        if m.start() in seen:
            continue
        word = m.group()
        cyr = sum(1 for ch in word if is_cyrillic(ch))
        to = "cyrl" if cyr * 2 > len(word) else "latn"
        if cyr * 2 == len(word):
            to = text_script
        fixed = swapped(word, to)
        odd = swaps(word, fixed) or [
            (ch, "")
            for ch in dict.fromkeys(word)
            if (is_latin if to == "cyrl" else is_cyrillic)(ch)
        ]
        letters = "; ".join(name(a) + (f" for {name(b)}" if b else "") for a, b in odd)
        yield finding(
            m.span(),
            f"{word!r} in the {where} mixes Latin and Cyrillic letters: {letters}",
            fixed,
        )
    lone, table, what = (
        (_LONE_LATIN, latin_to_cyrillic(), "Latin {} standing alone in Cyrillic text")
        if text_script == "cyrl"
        else (_LONE_CYRILLIC, homoglyphs(), "Cyrillic {} standing alone in Latin text")
    )
    for m in lone.finditer(masked):
        if m.start() and _LETTER.match(masked, m.start() - 1):
            continue  # the end of a longer word
        letter = m.group()
        if letter in allowed or letter not in table or m.start() in seen:
            continue
        if text_script == "cyrl" and (
            _in_latin_words(masked, m.start()) or _copied(masked, m.start(), source)
        ):
            continue
        message = what.format(name(letter)) + f" of the {where}: write {name(table[letter])}"
        yield finding(m.span(), message, table[letter])


def _in_latin_words(text: str, at: int) -> bool:
    """The letter at `at` is a word among Latin words ("On a 4+"): English left in the
    text, which the untranslated check reports."""
    before = text[:at].rstrip(" ,").rsplit(None, 1)
    after = text[at + 1 :].lstrip(" ,").split(None, 1)
    previous = before[-1].strip(_TOKEN_EDGE) if before else ""
    following = after[0] if after else ""
    return bool(_LATIN_WORD.fullmatch(previous) or _LATIN_WORD.match(following))


def _token(text: str, at: int) -> tuple[str, int]:
    """The token (between spaces, brackets and end marks trimmed) holding `at`, and where
    it starts."""
    a = text.rfind(" ", 0, at) + 1
    b = text.find(" ", at)
    b = len(text) if b < 0 else b
    raw = text[a:b]
    token = raw.strip(_TOKEN_EDGE)
    return token, a + raw.find(token)


def _copied(text: str, at: int, source: str | None) -> bool:
    """The Latin letter at `at` is copied from the source where it stands there as well: a
    section or code ("7.C", "A2") anywhere in it, a capital ("Zone B") at about the same
    place. A small letter alone is the look-alike of a Russian word ("a", "c")."""
    if not source:
        return False
    token, start = _token(text, at)
    if not token:
        return False
    for m in re.finditer(rf"(?<!\S){re.escape(token)}", source):
        theirs, _ = _token(source, m.start())
        if theirs != token:
            continue
        if not token.isalpha():
            return True
        here, there = start / max(1, len(text)), m.start() / max(1, len(source))
        if token.isupper() and abs(here - there) <= _SAME_PLACE:
            return True
    return False


def _lang_script(lang: str, text: str) -> str:
    base = base_lang(lang)
    if base in _LATIN_SCRIPT_LANGS:
        return "latn"
    if base in ("ru", "uk", "be", "bg", "sr"):
        return "cyrl"
    return script_of(text)


def _squash(text: str) -> str:
    return " ".join(mask_tags(text).split())


def _same_ends(source: str, target: str) -> bool:
    """Whether the first and the last word (white space apart, tags masked) of both texts
    are the same: what two texts the same but for spacing must have, told without
    splitting either whole (most translations of a similar length differ there)."""
    s, t = mask_tags(source), mask_tags(target)
    if s.split(None, 1)[:1] != t.split(None, 1)[:1]:
        return False
    return s.rsplit(None, 1)[-1:] == t.rsplit(None, 1)[-1:]


def check_untranslated(
    pair_id: str, source: str, target: str, source_lang: str, target_lang: str | None
) -> Iterator[Finding]:
    """The target is the source, or keeps English sentences or words that are not allowed."""
    if base_lang(source_lang) == base_lang(target_lang):
        return
    close = abs(len(source) - len(target)) <= max(8, len(source) // 5)
    same = close and _same_ends(source, target) and _squash(source) == _squash(target)
    if same and WORD.search(mask_tags(source)):
        yield Finding(
            "untranslated",
            "error",
            pair_id,
            "the translation is the source text, unchanged",
            (0, len(source)),
            (0, len(target)),
            expected=f"a {target_lang} translation",
        )
        return
    if _lang_script(target_lang or "", target) == "cyrl":
        yield from _latin_in_cyrillic(pair_id, source, target, target_lang)
    else:
        yield from _copied_sentences(pair_id, source, target)


def _latin_in_cyrillic(
    pair_id: str, source: str, target: str, target_lang: str | None
) -> Iterator[Finding]:
    allowed = lang_checks(target_lang).allowed_latin
    masked = _PARENS.sub(lambda m: " " * len(m.group()), mask_tags(target))
    source_words: set[str] | None = None
    for m in _LATIN_RUN.finditer(masked):
        run = m.group().strip(" ,")
        toks = [t for t in re.split(r"[ ,]+", run) if t]
        kept = [t for t in toks if t not in allowed and not _ROMAN.fullmatch(t)]
        if not kept or (len(toks) == 1 and len(run) == 1):
            continue  # a letter alone: a look-alike (homoglyph) or a code copied as it is
        if source_words is None:
            source_words = {w.lower() for w in WORD.findall(source)}
        from_source = [t for t in kept if t.lower() in source_words]
        span = (m.start(), m.start() + len(run))
        # words of a sentence, not a name kept in English: three or more, or a small word
        phrase = len(toks) >= 3 or any(t[:1].islower() for t in toks)
        if phrase and len(from_source) >= 2:
            yield Finding(
                "untranslated",
                "error",
                pair_id,
                f"English left in the translation: {run!r}",
                _find_in(source, run),
                span,
                expected=f"a {target_lang} rendering",
                found=run,
            )
        elif from_source:
            yield Finding(
                "untranslated",
                "warning",
                pair_id,
                f"English word(s) of the source kept in the translation: {run!r}"
                " (a rule name kept in English belongs in parentheses)",
                _find_in(source, run),
                span,
                expected=f"a {target_lang} rendering",
                found=run,
            )


def _find_in(text: str, needle: str) -> Span | None:
    pos = text.find(needle)
    return (pos, pos + len(needle)) if pos >= 0 else None


def _copied_sentences(pair_id: str, source: str, target: str) -> Iterator[Finding]:
    """For Latin-script targets: a source sentence of four words or more found verbatim."""
    for a, b in sentences(source):
        sent = source[a:b]
        if len(WORD.findall(sent)) < 4:
            continue
        pos = target.find(sent)
        if pos >= 0:
            yield Finding(
                "untranslated",
                "error",
                pair_id,
                f"a source sentence is left untranslated: {sent[:60]!r}",
                (a, b),
                (pos, pos + len(sent)),
                expected="a translation of this sentence",
                found=sent,
            )
