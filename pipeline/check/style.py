"""doubled_word, spelling_variant (the master's own text), punctuation and whitespace
(the translation against its source)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from .data import lang_checks
from .model import Finding, Span
from .text import mask_tags

_DOUBLED = re.compile(r"(?<!\w)([^\W\d_]+)(\s+)(\1)(?!\w)", re.IGNORECASE)
_SPACE_BEFORE = re.compile(r"(?<=\S) +(?=[,.;:!?](?:\s|$))")
# A comma or semicolon with a letter after it; the letter before it is tested on each match
# (check_whitespace): a pattern that starts with a lookbehind is tried at every position of
# the text, this one only at commas and semicolons.
_NO_SPACE_AFTER = re.compile(r"[,;](?=[^\W\d_])")
_LETTER = re.compile(r"[^\W\d_]")
_SPACE_PUNCT = re.compile(r" [,.;:!?]")
_DOUBLE_SPACE = re.compile(r"(?<=\S)[ \t]{2,}(?=\S)")
_INCH = re.compile(r"(?<=\d)\"|(?<=\d)''")


def _span(src: bool, span: Span) -> tuple[Span | None, Span | None]:
    return (span, None) if src else (None, span)


def _maybe_doubled(text: str) -> bool:
    """A cheap pre-test: two equal neighbouring words, ignoring case (C-level split)."""
    toks = text.lower().split()
    return any(map(str.__eq__, toks, toks[1:]))


def check_doubled(pair_id: str, text: str, lang: str | None, is_source: bool) -> Iterator[Finding]:
    masked = mask_tags(text)
    if not _maybe_doubled(masked):
        return
    ok = lang_checks(lang).doubled_ok
    for m in _DOUBLED.finditer(masked):
        word = m.group(1)
        if word.lower() in ok or "\n" in m.group(2):
            continue
        s, t = _span(is_source, m.span())
        side = "source" if is_source else "translation"
        yield Finding(
            "doubled_word",
            "warning",
            pair_id,
            f"doubled word {m.group()!r} in the {side}",
            s,
            t,
            expected=word,
            found=m.group(),
        )


@lru_cache(maxsize=16)
def _spelling_pattern(lang: str | None) -> re.Pattern[str] | None:
    house = lang_checks(lang).house_spellings
    if not house:
        return None
    words = "|".join(sorted((re.escape(w) for w in house), key=len, reverse=True))
    return re.compile(rf"\b(?:{words})\b")  # run on lower-cased text: IGNORECASE is slow


def check_spelling(pair_id: str, text: str, lang: str | None, is_source: bool) -> Iterator[Finding]:
    pattern = _spelling_pattern(lang)
    if pattern is None:
        return
    house = lang_checks(lang).house_spellings
    masked = mask_tags(text)
    low = masked.lower()
    if len(low) != len(masked):  # a letter whose lower case is longer: keep offsets right
        low = "".join(ch.lower()[:1] for ch in masked)
    for m in pattern.finditer(low):
        word = masked[m.start() : m.end()]
        want = house.get(m.group())
        if want is None:
            continue
        if word.isupper():
            want = want.upper()
        elif word[0].isupper():
            want = want[0].upper() + want[1:]
        s, t = _span(is_source, m.span())
        yield Finding(
            "spelling_variant",
            "warning",
            pair_id,
            f"{word!r} is not the house spelling: write {want!r}",
            s,
            t,
            expected=want,
            found=word,
        )


_END_MARKS = ".!?:;…"
_CLOSERS = "\"'»”’)]"


def _end_mark(text: str) -> tuple[str, int]:
    """The end punctuation of a text (closing quotes and brackets skipped) and its offset."""
    body = mask_tags(text).rstrip()
    i = len(body)
    while i and (body[i - 1] in _CLOSERS or body[i - 1].isspace()):
        i -= 1
    j = i
    while j and body[j - 1] in _END_MARKS:
        j -= 1
    return body[j:i], j


def _last_mark(text: str, at: int) -> str:
    """The punctuation mark a text ends with when it has no end mark (a comma, a dash)."""
    before = mask_tags(text)[:at].rstrip()
    last = before[-1:]
    return last if last and not last.isalnum() and last not in _CLOSERS else ""


def _end_span(at: int, end: str, size: int) -> Span | None:
    """The end mark, else the last character before where it would be."""
    if end:
        return (at, at + len(end))
    return (at - 1, at) if 0 < at <= size else None


def _ending(mark: str) -> str:
    return f"with {mark!r}" if mark else "without an end mark"


def check_punctuation(pair_id: str, source: str, target: str) -> Iterator[Finding]:
    s_end, s_at = _end_mark(source)
    t_end, t_at = _end_mark(target)
    if s_end[:1] != t_end[:1] and source.strip() and target.strip():
        s_last, t_last = _last_mark(source, s_at), _last_mark(target, t_at)
        yield Finding(
            "punctuation",
            "warning",
            pair_id,
            f"the source ends {_ending(s_end or s_last)}, the translation"
            f" {_ending(t_end or t_last)}",
            _end_span(s_at, s_end, len(source)),
            _end_span(t_at, t_end, len(target)),
            expected=s_end or "no end mark",
            found=t_end or t_last,
        )
    masked_t = mask_tags(target)
    masked_s = mask_tags(source)
    if '"' in masked_t or "''" in masked_t:
        masked_t = _INCH.sub(" ", masked_t)
    if '"' in masked_s or "''" in masked_s:
        masked_s = _INCH.sub(" ", masked_s)
    for open_, close in (("(", ")"), ("[", "]"), ("«", "»"), ("“", "”")):
        t_bal = masked_t.count(open_) - masked_t.count(close)
        s_bal = masked_s.count(open_) - masked_s.count(close)
        if t_bal != 0 and s_bal == 0:
            pos = _unbalanced_at(masked_t, open_, close)
            yield Finding(
                "punctuation",
                "warning",
                pair_id,
                f"unbalanced {open_}{close} in the translation"
                f" ({masked_t.count(open_)} opening, {masked_t.count(close)} closing)",
                None,
                (pos, pos + 1),
                expected=f"{open_}...{close}",
                found=target[pos],
            )
    for q in ('"',):
        if masked_t.count(q) % 2 and not masked_s.count(q) % 2:
            pos = masked_t.rfind(q)
            yield Finding(
                "punctuation",
                "warning",
                pair_id,
                "an odd number of straight quotes in the translation",
                None,
                (pos, pos + 1),
                expected='"..."',
                found=q,
            )


def _unbalanced_at(text: str, open_: str, close: str) -> int:
    """The first closing mark without an opening one, else the last unclosed opening one."""
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch == open_:
            stack.append(i)
        elif ch == close:
            if not stack:
                return i
            stack.pop()
    return stack[-1] if stack else 0


def check_whitespace(pair_id: str, source: str, target: str) -> Iterator[Finding]:
    def f(message: str, span: Span, expected: str) -> Finding:
        return Finding(
            "whitespace",
            "warning",
            pair_id,
            message,
            None,
            span,
            expected=expected,
            found=target[span[0] : span[1]],
        )

    if target[:1].isspace() and not source[:1].isspace():
        n = len(target) - len(target.lstrip())
        yield f("the translation starts with white space", (0, n), "no leading space")
    if target[-1:].isspace() and not source[-1:].isspace():
        n = len(target.rstrip())
        yield f("the translation ends with white space", (n, len(target)), "no trailing space")
    if ("  " in target or "\t" in target) and not _DOUBLE_SPACE.search(source):
        for m in _DOUBLE_SPACE.finditer(target):
            yield f("double space in the translation", m.span(), "one space")
    if _SPACE_PUNCT.search(target) and not _SPACE_BEFORE.search(source):
        for m in _SPACE_BEFORE.finditer(target):
            yield f(
                "space before punctuation in the translation",
                (m.start(), m.end() + 1),
                target[m.end()],
            )
    for m in _NO_SPACE_AFTER.finditer(target):
        if not (m.start() and _LETTER.match(target, m.start() - 1)):
            continue
        yield f(
            "no space after punctuation in the translation",
            (m.start(), m.end() + 1),
            m.group() + " ",
        )
