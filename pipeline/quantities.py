"""The quantity grammar: dice, distances, modifiers, thresholds, steps, counts and brackets.

One pure function, `find_quantities`, reads every quantity in a paragraph and gives it a
canonical form. Extraction stores them, dedup compares their keys to tell a conflicting
variant ("12″" vs "18″") from a cosmetic copy (a different inch glyph), and the translation
checks compare the keys of a source and its target.

How it works, and why this way: a single small regex finds the *cores* (a bracket, a dice
expression, a number, the variable X); the words around each core are then read as tokens
and looked up in dictionaries built from the per-language data files
`pipeline/lang/<lang>/quantities.yaml`. Dictionary lookups keep the cost flat however many
terms (and, for Russian, inflected forms) the data lists, which a regex alternation of all
forms would not. Spans are always slices of the input, so `text[a:b] == surface` holds.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, Literal

from pipeline.bbcode import TAG, strip_tags
from pipeline.footnotes import reference_marks
from pipeline.lang import ENGLISH, has_data, notation, primary, word_forms
from pipeline.lang import data as lang_data

__all__ = [
    "Quantity",
    "QuantityType",
    "find_quantities",
    "parse_profile",
    "quantity_keys",
]

QuantityType = Literal[
    "dice",
    "distance",
    "modifier",
    "threshold",
    "initiative-step",
    "number",
    "count",
    "bracket",
    "step",
    "turn",
]
Number = int | float


@dataclass(frozen=True, slots=True)
class Quantity:
    """One quantity found in a text.

    `value` holds a number (distances, modifiers, thresholds, steps, counts, numbers);
    `expr` a canonical dice or variable expression with Latin D and X ("2D6", "X+D6", "X");
    `unit` is "inch"/"mm"/"cm" for distances or the counted noun for counts ("hit");
    `characteristic` the canonical slug a modifier or value applies to ("strength");
    `qualifier` refines the type: "natural" for natural-roll thresholds, "additional" for an
    additional die, and for brackets the kind of content ("dice", "number", "variable",
    "area", "threshold", "distance", "list", "words"); `inner` is a bracket's content as
    written. `notes` flag what a checker may report: "homoglyph:Х", "style:Д6",
    "no-inch-mark", "spelling:Armor".
    """

    type: QuantityType
    span: tuple[int, int]
    surface: str
    value: Number | None = None
    expr: str | None = None
    unit: str | None = None
    characteristic: str | None = None
    qualifier: str | None = None
    inner: str | None = None
    notes: tuple[str, ...] = ()

    def key(self) -> tuple[Any, ...]:
        """The canonical, span-free identity that dedup and checks compare."""
        amount = self.value if self.value is not None else self.expr
        match self.type:
            case "dice":
                return ("dice", self.expr)
            case "distance":
                return ("distance", amount, self.unit)
            case "modifier":
                return ("modifier", self.value, self.characteristic)
            case "threshold":
                if self.qualifier == "natural":
                    return ("threshold", self.value, "natural")
                return ("threshold", self.value)
            case "count":
                return ("count", amount, self.unit)
            case "bracket":
                return ("bracket", self.expr if self.expr is not None else self.inner)
            case _:
                return (self.type, amount)

    def to_json(self) -> dict[str, Any]:
        """A plain dict without empty fields, for the JSON outputs."""
        out: dict[str, Any] = {"type": self.type, "span": list(self.span)}
        for name in ("value", "expr", "unit", "characteristic", "qualifier", "inner"):
            val = getattr(self, name)
            if val is not None:
                out[name] = val
        out["surface"] = self.surface
        if self.notes:
            out["notes"] = list(self.notes)
        return out


# --- the cores ---------------------------------------------------------------------------

_NOTATION = notation()
_DICE_LETTERS = _NOTATION.die_letters
_X = "X" + "".join(c for c in _NOTATION.looks_like("X") if c.isupper())  # X and Cyrillic Х
_TIMES = "×x" + _NOTATION.looks_like("x")  # ×, x and the Cyrillic х, Х of "(1х5)"
_VARIABLES = "XY" + "".join(c for c in _NOTATION.homoglyphs if c.isupper())  # X, Y, Х, У
_HOMOGLYPHS = "".join(_NOTATION.homoglyphs)
_CYRILLIC_TO_LATIN = _NOTATION.homoglyphs | dict.fromkeys(_NOTATION.foreign_die_letters, "D")
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75, "⅓": 1 / 3, "⅔": 2 / 3}
_SIGNS = "+\\-−–"

_P_DICE = (
    rf"(?:[{_X}]\s?\+\s?)?[0-9]{{0,2}}[{_DICE_LETTERS}][0-9]{{1,3}}"
    rf"(?:\s?[{_SIGNS}]\s?(?:[0-9]{{1,2}}|[{_X}]))?"
)
_P_PARAM = (
    rf"(?:{_P_DICE}|[0-9]+\s?[{_TIMES}*]\s?[0-9]+"
    rf"|[{_SIGNS}]?[0-9]+(?:[.,][0-9]+)?(?:\+|\"|″|'')?|[{_VARIABLES}])"
)
_P_PARAMS = rf"\s?{_P_PARAM}(?:\s?,\s?{_P_PARAM}){{0,3}}\s?"
_P_WORDS = r"[A-ZА-ЯЁ][a-zа-яё]+(?:[ -][A-ZА-ЯЁ][a-zа-яё]+){0,2}"

_CORE = re.compile(
    rf"\((?P<bri>{_P_PARAMS})\)|\[(?P<bsi>{_P_PARAMS})\]"
    rf"|\((?P<bwi>{_P_WORDS})\)"
    rf"|(?<![\w.])(?:(?P<dv>[{_X}])\s?\+\s?)?(?P<dn>[0-9]{{1,2}})?(?P<dd>[{_DICE_LETTERS}])"
    rf"(?P<ds>[0-9]{{1,3}})(?:\s?(?P<dop>[{_SIGNS}])\s?(?P<da>[0-9]{{1,2}}|[{_X}])(?!\w))?(?!\w)"
    rf"|(?<!\w)(?P<sign>[{_SIGNS}])?(?P<n>[0-9]+(?:[.,][0-9]+)?[½¼¾⅓⅔]?|[½¼¾⅓⅔])(?P<plus>\+(?![\w+]))?"
    rf"|(?<![\w'’.\-])(?P<var>[{_X}])(?![\w'’\-])"
)
_PARAM_ONE = re.compile(
    rf"(?P<dice>{_P_DICE})|(?P<area>(?P<a1>[0-9]+)\s?(?P<times>[{_TIMES}*])\s?(?P<a2>[0-9]+))"
    rf"|(?P<num>[{_SIGNS}]?[0-9]+(?:[.,][0-9]+)?)(?P<suffix>\+|\"|″|'')?|(?P<var>[{_VARIABLES}])"
)
_DICE_ONE = re.compile(
    rf"(?:(?P<dv>[{_X}])\s?\+\s?)?(?P<dn>[0-9]{{0,2}})(?P<dd>[{_DICE_LETTERS}])(?P<ds>[0-9]{{1,3}})"
    rf"(?:\s?(?P<dop>[{_SIGNS}])\s?(?P<da>[0-9]{{1,2}}|[{_X}]))?"
)
# Glyph inch marks straight after a number; ″ is unambiguous enough to allow one space.
_INCH_GLYPH = re.compile(r"\s?″|\s?′′|\"|”|''")
_DEGREE = re.compile(r"\s?°")
_QUOTES = "'‘’\"“”«»"
# Tokens around a core: a BBCode tag (skipped), a word (with inner hyphens), or one symbol.
_TOKEN = re.compile(rf"{TAG.pattern}|[^\W_]+(?:[-.][^\W_]+)*\.?|[^\s\w]")
_HAS_CORE_CHAR = re.compile(rf"[0-9(\[½¼¾⅓⅔{_X}]")
# Where a core may start, read off `_CORE`'s branches: a bracket, a digit or fraction, a
# sign before one, a die letter before a digit ("D6"), an X not inside a word ("X+", "X
# models"). Trying the core pattern only there, rather than at every character as a search
# does, halves the scan; the die letters' lookahead keeps out the letters of words ("d" in
# "and", "д" and "к" in "для", "к отряду": 77 to 86 % of the places tried without it).
_CORE_START = re.compile(
    rf"[(\[0-9½¼¾⅓⅔{_SIGNS}{_DICE_LETTERS}{_X}]"  # one class first: the engine skips to it
    rf"(?:(?<=[(\[0-9½¼¾⅓⅔])|(?<=[{_SIGNS}])(?=[0-9½¼¾⅓⅔])|(?<=[{_DICE_LETTERS}])(?=[0-9])"
    rf"|(?<=[{_X}])(?![\w'’\-]))"
)
_LEFT_WINDOW = 80
_RIGHT_WINDOW = 80


# --- the data ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Grammar:
    """Lookup tables of one language, built once from its data file."""

    # phrase (lower-cased, single-spaced) -> (role, canonical); roles: characteristic,
    # noun, length, initiative_step, step, turn, natural, natural_filler, within,
    # additional, modifier_link, count_link
    exact: dict[str, tuple[tuple[str, str], ...]]
    folded: dict[str, tuple[tuple[str, str], ...]]
    spelling: dict[str, str]
    max_words: int
    # phrase as written -> {role: canonical}, filled as texts are read (see `_roles`)
    seen: dict[str, dict[str, str]]
    # the end of a text before a section's number: "п. ", "see page ", "§"
    section: re.Pattern[str] | None
    # the end of a text that is a word a number may be typed glued to ("на5+", "в6″")
    glued: re.Pattern[str] | None = None


def _phrase_forms(phrase: str, inflect: bool) -> set[str]:
    words = phrase.split()
    if not inflect:
        return {" ".join(words)}
    return {" ".join(combo) for combo in product(*(sorted(word_forms(w.lower())) for w in words))}


def _tables(data: dict[str, Any], inflect: bool) -> Iterable[tuple[str, str, str]]:
    """Yield (form, role, canonical) for every term of one data file."""
    roles = {"characteristics": "characteristic", "count_nouns": "noun", "length_units": "length"}
    for section, role in roles.items():
        for slug, forms in (data.get(section) or {}).items():
            for form in forms:
                for variant in _phrase_forms(str(form), inflect):
                    yield variant, role, str(slug)
    for role, forms in (data.get("context") or {}).items():
        for form in forms:
            for variant in _phrase_forms(str(form), inflect):
                yield variant, str(role), str(role)


@lru_cache(maxsize=64)
def _grammar(lang: str) -> _Grammar:
    """The grammar of a language tag ("ru", "ru-RU"); unknown tags get the English one."""
    return _build_grammar(primary(lang) or ENGLISH)


@lru_cache(maxsize=16)
def _build_grammar(lang: str) -> _Grammar:
    """Build (once per language) the lookup tables: English, then the language on top."""
    en = lang_data(ENGLISH, "quantities")
    layers: list[tuple[dict[str, Any], bool]] = [(en, False)]
    if lang != ENGLISH and has_data(lang, "quantities"):
        data = lang_data(lang, "quantities")
        layers.append((data, bool(data.get("inflect"))))
    elif lang in (en.get("other_languages") or {}):
        layers.append((en["other_languages"][lang], False))
    exact: dict[str, list[tuple[str, str]]] = {}
    folded: dict[str, list[tuple[str, str]]] = {}
    spelling: dict[str, str] = {}
    max_words = 1
    section_words: set[str] = set()
    glued_words: set[str] = set()
    for data, inflect in layers:
        for phrase in data.get("section_words") or ():
            section_words.update(_phrase_forms(str(phrase), inflect))
        glued_words.update(str(w).lower() for w in data.get("glued_words") or ())
        for key, house in (data.get("spelling_variants") or {}).items():
            spelling[str(key).lower()] = str(house)
        for form, role, canon in _tables(data, inflect):
            # Short forms with capitals are abbreviations (AP, Str): match them as written.
            short = len(form) <= 3 and not form.islower()
            table = exact if short else folded
            key = form if short else form.lower()
            entries = table.setdefault(key, [])
            if (role, canon) not in entries:
                entries.append((role, canon))
            max_words = max(max_words, len(form.split()))
    return _Grammar(
        exact={k: tuple(v) for k, v in exact.items()},
        folded={k: tuple(v) for k, v in folded.items()},
        spelling=spelling,
        max_words=max_words,
        seen={},
        section=_ending_in(section_words, r"\s*$"),
        glued=_ending_in(glued_words, "$"),
    )


def _ending_in(words: set[str], tail: str) -> re.Pattern[str] | None:
    """A pattern for text that ends in one of `words` (a whole word, any case), then
    `tail`; None when there are none."""
    if not words:
        return None
    alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives}){tail}", re.IGNORECASE)


_SEEN_KEPT = 50_000  # phrases whose roles a grammar keeps; cleared when full
_NO_ROLES: dict[str, str] = {}


def _roles(g: _Grammar, phrase: str) -> dict[str, str]:
    """Each role `phrase` plays and its canonical term: as written first, then lower-cased,
    the first entry of a role winning. Kept per phrase: the words around numbers repeat, and
    each is asked for several roles."""
    got = g.seen.get(phrase)
    if got is None:
        got = {}
        for entries in (g.exact.get(phrase), g.folded.get(phrase.lower())):
            for role, canon in entries or ():
                got.setdefault(role, canon)
        if len(g.seen) >= _SEEN_KEPT:
            g.seen.clear()
        got = g.seen[phrase] = got or _NO_ROLES
    return got


def _lookup(g: _Grammar, words: list[str], role: str) -> str | None:
    """The canonical term `words` spell in `role`, or None."""
    return _roles(g, " ".join(words)).get(role)


# --- reading around a core ---------------------------------------------------------------


class _Tok:
    """A token around a core: its text, span, and whether it is a word (not a symbol)."""

    __slots__ = ("end", "is_word", "start", "text")

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text = text
        self.start = start
        self.end = end
        self.is_word = text[0].isalnum()


def _is_tag(tok: str) -> bool:
    return tok[0] == "[" and len(tok) > 2 and TAG.fullmatch(tok) is not None


def _scan(text: str, start: int, end: int) -> list[_Tok]:
    """Word and symbol tokens of text[start:end], BBCode tags dropped."""
    return [
        _Tok(m.group(), m.start(), m.end())
        for m in _TOKEN.finditer(text, start, end)
        if not _is_tag(m.group())
    ]


class _TextTokens:
    """The tokens of a whole text, read once for all its cores.

    The words before a core are the last few tokens of the window before it; reading the
    whole window again for each core cost most of the grammar's time. The window's tokens
    are the text's tokens that lie in it, from the first token start the window's own
    reading reaches (the token pattern looks at nothing before a match, so from a shared
    start on both readings agree); only a token cut by the window's end is read again.
    """

    __slots__ = ("ends", "index", "matches", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.matches = list(_TOKEN.finditer(text))
        self.ends = [m.end() for m in self.matches]
        self.index = {m.start(): i for i, m in enumerate(self.matches)}

    def last(self, start: int, end: int, n: int) -> list[_Tok]:
        """The last `n` tokens of `_scan(text, start, end)` (all of them when fewer)."""
        head: list[_Tok] = []
        for m in _TOKEN.finditer(self.text, start, end):
            k = self.index.get(m.start())
            if k is None:
                if not _is_tag(m.group()):
                    head.append(_Tok(m.group(), m.start(), m.end()))
                continue
            matches = self.matches
            stop = bisect_right(self.ends, end, k)
            out: list[_Tok] = []
            if stop < len(matches) and matches[stop].start() < end:
                out = _scan(self.text, matches[stop].start(), end)  # the token the end cuts
            i = stop - 1
            while len(out) < n and i >= k:
                tok = matches[i]
                if not _is_tag(tok.group()):
                    out.insert(0, _Tok(tok.group(), tok.start(), tok.end()))
                i -= 1
            if len(out) < n:
                out[:0] = head
            return out[-n:]
        return head[-n:]


_TEXT: list[_TextTokens] = []  # the tokens of the text being read (one at most)
_WINDOWS: list[Any] = [None, 0]  # the text being read window by window, characters read
_WHOLE_TEXT_MAX = 4000  # characters: a longer text is read window by window


def _last_tokens(text: str, start: int, end: int, n: int) -> list[_Tok]:
    """The last `n` word and symbol tokens of text[start:end], BBCode tags dropped.

    A text is read window by window until the windows have read as much as the whole text
    would: most paragraphs have a few numbers, and reading their windows is cheaper than
    reading the whole; a table of numbers then switches to its tokens read once."""
    if _TEXT and _TEXT[0].text is text:
        return _TEXT[0].last(start, end, n)
    if len(text) > _WHOLE_TEXT_MAX:
        return _scan_last(text, start, end, n)
    if _WINDOWS[0] is not text:
        _WINDOWS[:] = [text, 0]
    _WINDOWS[1] += end - start
    if _WINDOWS[1] <= len(text):
        return _scan_last(text, start, end, n)
    _TEXT[:] = [_TextTokens(text)]
    return _TEXT[0].last(start, end, n)


def _scan_last(text: str, start: int, end: int, n: int) -> list[_Tok]:
    """`_scan(text, start, end)[-n:]`, with token objects made for the last `n` only."""
    out: list[_Tok] = []
    for m in reversed(list(_TOKEN.finditer(text, start, end))):
        tok = m.group()
        if tok[0] != "[" or not _is_tag(tok):  # most tokens: no call to tell
            out.append(_Tok(tok, *m.span()))
            if len(out) == n:
                break
    out.reverse()
    return out


def _left_tokens(g: _Grammar, text: str, lo: int, start: int) -> list[_Tok]:
    """The tokens just before a core, nearest last, as many as the grammar reads back (a
    phrase, or "natural" and four filler words after a quote); a word cut by the window
    is dropped."""
    keep = max(g.max_words, 6)
    window = max(lo, start - _LEFT_WINDOW)
    toks = _last_tokens(text, window, start, keep + 1)
    if len(toks) > keep:  # not the window's first token: nothing to drop
        return toks[1:]
    first = toks[0].start if toks else 0
    if first > 0 and first == window and text[first - 1].isalnum():
        toks = toks[1:]
    return toks


def _right_tokens(g: _Grammar, text: str, end: int) -> list[_Tok]:
    """The tokens just after a core, as many as the grammar reads (a link word, a phrase)."""
    keep = g.max_words + 1
    out: list[_Tok] = []
    for m in _TOKEN.finditer(text, end, min(len(text), end + _RIGHT_WINDOW)):
        tok = m.group()
        if tok[0] != "[" or not _is_tag(tok):
            out.append(_Tok(tok, *m.span()))
            if len(out) == keep:
                break
    return out


def _match_right(
    g: _Grammar, toks: list[_Tok], role: str, link: str | None = None, first: int = 0
) -> tuple[str, int] | None:
    """Longest phrase of `role` at the start of `toks` (after an optional link word).

    Returns (canonical, end offset) or None. Stops at punctuation.
    """
    i = first
    if link and i < len(toks) and toks[i].is_word and _lookup(g, [toks[i].text], link):
        found = _match_right(g, toks, role, None, i + 1)
        if found:
            return found
    words: list[_Tok] = []
    for tok in toks[i : i + g.max_words]:
        if not tok.is_word:
            break
        words.append(tok)
    for n in range(len(words), 0, -1):
        last = words[n - 1]
        # A word token may carry a sentence-final period: try it with ("in.") and without.
        if last.text.endswith("."):
            canon = _lookup(g, [w.text for w in words[:n]], role)
            if canon is not None:
                return canon, last.end
        canon = _lookup(g, [w.text.rstrip(".") for w in words[:n]], role)
        if canon is not None:
            return canon, last.end - (1 if last.text.endswith(".") else 0)
    return None


def _match_left(g: _Grammar, toks: list[_Tok], roles: tuple[str, ...]) -> tuple[str, str, int]:
    """Longest phrase of one of `roles` ending at the last token of `toks`.

    Returns (role, canonical, start offset) or ("", "", -1).
    """
    words: list[_Tok] = []
    for tok in reversed(toks[-g.max_words :]):
        if not tok.is_word:
            break
        words.insert(0, tok)
    for n in range(len(words), 0, -1):
        found = _roles(g, " ".join([w.text for w in words[-n:]]))
        for role in roles if found else ():
            canon = found.get(role)
            if canon is not None:
                return role, canon, words[-n].start
    return "", "", -1


def _natural_left(g: _Grammar, toks: list[_Tok]) -> tuple[int, str]:
    """Start of "natural [to-hit roll of] ['" before a number, and the opening quote."""
    quote = ""
    i = len(toks) - 1
    if i >= 0 and toks[i].text in _QUOTES:
        quote = toks[i].text
        i -= 1
    skipped = 0
    while i >= 0 and toks[i].is_word and skipped <= 4:
        if _lookup(g, [toks[i].text], "natural"):
            return toks[i].start, quote
        if not _lookup(g, [toks[i].text], "natural_filler"):
            break
        i -= 1
        skipped += 1
    return -1, ""


# --- canonical forms ---------------------------------------------------------------------


def _number(raw: str) -> Number:
    """Parse "12", "1½", "12.5", "12,5", "-1", "−1" into an int or a float."""
    sign = -1 if raw[:1] in "-−–" else 1
    raw = raw.lstrip("+-−–")
    frac = 0.0
    if raw and raw[-1] in _FRACTIONS:
        frac = _FRACTIONS[raw[-1]]
        raw = raw[:-1]
    whole = float(raw.replace(",", ".")) if raw else 0.0
    total = sign * (whole + frac)
    if not math.isfinite(total):  # a run of hundreds of digits: find_quantities drops it
        return total
    return int(total) if total == int(total) else round(total, 4)


def _homoglyph_notes(surface: str) -> list[str]:
    return [f"homoglyph:{ch}" for ch in surface if ch in _HOMOGLYPHS]


def _dice(m: re.Match[str]) -> tuple[str, list[str]]:
    """Canonical dice expression of a dice match, with its homoglyph and style notes."""
    notes: list[str] = []
    expr = ""
    if m.group("dv"):
        expr = "X+"
        if m.group("dv") != "X":
            notes.append(f"homoglyph:{m.group('dv')}")
    count = m.group("dn") or ""
    expr += ("" if count in ("", "1") else count) + "D" + m.group("ds")
    letter = m.group("dd")
    if letter not in "Dd":
        notes.append(f"style:{letter}{m.group('ds')}")
    if m.group("dop"):
        op = "+" if m.group("dop") == "+" else "-"
        add = m.group("da")
        if add in _X:
            if add != "X":
                notes.append(f"homoglyph:{add}")
            add = "X"
        expr += op + add
    return expr, notes


def _param(raw: str) -> tuple[str, str, Number | None, list[str]]:
    """Read one bracket parameter: (kind, canonical, number or None, notes)."""
    text = raw.strip()
    m = _PARAM_ONE.fullmatch(text)
    if m is None:
        return "words", text, None, []
    if m.group("dice"):
        expr, notes = _dice(_DICE_ONE.fullmatch(m.group("dice")))  # type: ignore[arg-type]
        return "dice", expr, None, notes
    if m.group("area"):
        notes = _homoglyph_notes(m.group("times"))
        return "area", f"{int(m.group('a1'))}x{int(m.group('a2'))}", None, notes
    if m.group("var"):
        var = m.group("var")
        return "variable", _CYRILLIC_TO_LATIN.get(var, var), None, _homoglyph_notes(var)
    value = _number(m.group("num"))
    suffix = m.group("suffix")
    if suffix == "+":
        return "threshold", f"{value}+", value, []
    if suffix:
        return "distance", f'{value}"', value, []
    return "number", str(value), value, []


def _split_top(text: str) -> list[str]:
    """Split at commas that are not inside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def _script(word: str) -> str:
    return "cyrl" if any("\u0400" <= ch <= "\u04ff" for ch in word) else "latn"


# --- the grammar -------------------------------------------------------------------------


def find_quantities(text: str, lang: str) -> list[Quantity]:
    """All quantities in `text` in reading order, spans exact and never overlapping.

    `text` is normally the normalised text of a segment, but raw inch glyphs, quotes and
    BBCode tags are tolerated so that the function can run on raw text too.
    """
    if not _HAS_CORE_CHAR.search(text):
        return []
    for a, b in reference_marks(text):  # "2D6* дюймов" is 2D6″: the mark is a footnote's
        text = text[:a] + " " * (b - a) + text[b:]
    g = _grammar(lang)
    out: list[Quantity] = []
    pos = 0
    prev_end = 0
    while True:
        c = _CORE_START.search(text, pos)
        if c is None:
            break
        m = _CORE.match(text, c.start())
        if m is None and g.glued is not None:
            m = _glued_core(text, c.start(), g.glued)
        if m is None:
            pos = c.start() + 1
            continue
        if m.group("n") is not None and (skip := _section_number(text, m, g)):
            pos = skip
            continue
        q = _read_core(text, m, g, prev_end)
        if q is None or (isinstance(q.value, float) and not math.isfinite(q.value)):
            pos = m.end()  # not a quantity, or a digit run too long to be one
            continue
        out.append(q)
        pos = prev_end = q.span[1]
    return out


_GLUED_REACH = 4  # the longest word a number is read glued to, and the letter before it


def _glued_core(text: str, start: int, glued: re.Pattern[str]) -> re.Match[str] | None:
    """The core at `start` where it follows, with no space, a word of `glued_words`
    (`lang/<code>/quantities.yaml`): a hand typing fast writes "на5+", "в6″", "на2к6″"
    for "на 5+", "в 6″", "на 2к6″". Only a number or a die opening right after such a
    word is read, matched as if a space stood before it: "в6″" is 6″, while a digit after
    any other letters ("М4", "т1") stays unread."""
    if not text[start].isdigit() or not glued.search(text, max(0, start - _GLUED_REACH), start):
        return None
    spaced = f"{text[: start - 1]} {text[start:]}"  # one letter for a space: offsets stay
    m = _CORE.match(spaced, start)
    return m if m is not None and (m.group("n") or m.group("dd")) else None


def _make(
    text: str, start: int, end: int, type_: QuantityType, notes: Iterable[str] = (), **kw: Any
) -> Quantity:
    return Quantity(
        type=type_, span=(start, end), surface=text[start:end], notes=tuple(notes), **kw
    )


def _read_core(text: str, m: re.Match[str], g: _Grammar, lo: int) -> Quantity | None:
    """Classify one core by the words around it."""
    start, end = m.span()
    if m.group("bri") is not None or m.group("bsi") is not None:
        return _read_bracket(text, m, start, end)
    if m.group("bwi") is not None:
        return _read_word_bracket(text, m, start, end)
    if m.group("dd") is not None:
        return _read_dice(text, m, g, lo, start, end)
    if m.group("var") is not None:
        var = m.group("var")
        notes = _homoglyph_notes(var)
        noun = _match_right(g, _right_tokens(g, text, end), "noun", "count_link")
        if noun:
            return _make(text, start, noun[1], "count", notes, expr="X", unit=noun[0])
        return _make(text, start, end, "number", notes, expr="X")
    if _enumerator(text, m):
        return None
    return _read_number(text, m, g, lo, start, end)


_SECTION_POINTS = re.compile(r"[0-9]+(?:\.[0-9]+){2,}\.?")  # "7.3.2": no decimal
_SECTION_OPENING = re.compile(r"\s*[0-9]+(?:\.[0-9]+)+\.?\s+(?=[^\W\d_])")  # then a capital
_OPENING_REACH = 16  # where a text's opening number may start (after white space)


def _section_number(text: str, m: re.Match[str], g: _Grammar) -> int:
    """The end of the number of a rulebook's section that `m` starts, or 0: a hand that
    numbers its sections writes "7.3.2", "п. 7.4", "see page 45", or opens a paragraph
    with its section's number ("7.4 Орда: ..."). Such a number counts nothing; read as one,
    it would contradict the English that has none."""
    start = m.start()
    if m.group("sign") or m.group("plus"):
        return 0
    if points := _SECTION_POINTS.match(text, start):
        return points.end()
    if g.section is not None and g.section.search(text, max(0, start - 24), start):
        return m.end()
    if start < _OPENING_REACH and not text[:start].strip():  # the text's first number
        opening = _SECTION_OPENING.match(text)
        if opening and text[opening.end()].isupper():
            return m.end()
    return 0


_ITEM_OPENS = ":;.—–\n"  # what a list item follows ("...: 1) ...; 2) ...")


def _enumerator(text: str, m: re.Match[str]) -> bool:
    """Whether a number is a list item's mark ("два условия: 1) ...; 2) ...", "так: 1. ...;
    2. ..."): a whole number followed by a bracket opened nowhere before it, or by a full
    stop and a space, at the start of the text or after a colon, a semicolon, a full stop
    or a dash. It numbers the steps a hand writes a rule in, and counts nothing."""
    start, end = m.span()
    if m.group("sign") or m.group("plus") or not m.group("n").isdigit():
        return False
    if text.startswith(")", end):
        if text.count("(", 0, start) > text.count(")", 0, start):
            return False
    elif not (text.startswith(".", end) and text[end + 1 : end + 2].isspace()):
        return False
    before = text[:start].rstrip()
    return not before or before[-1] in _ITEM_OPENS


def _read_bracket(text: str, m: re.Match[str], start: int, end: int) -> Quantity:
    inner = (m.group("bri") if m.group("bri") is not None else m.group("bsi")).strip()
    parts = [_param(p) for p in inner.split(",")]
    notes = [n for p in parts for n in p[3]]
    if len(parts) == 1:
        kind, canon, value, _ = parts[0]
    else:
        kind, canon, value = "list", ",".join(p[1] for p in parts), None
    return _make(
        text, start, end, "bracket", notes, value=value, expr=canon, qualifier=kind, inner=inner
    )


def _read_word_bracket(text: str, m: re.Match[str], start: int, end: int) -> Quantity | None:
    """A bracket of words is a parameter only right after a rule name: "Strider (Forest)"."""
    if start < 2 or text[start - 1] != " ":
        return None
    before = _last_tokens(text, max(0, start - 40), start - 1, 1)
    if not before or not before[-1].is_word or before[-1].end != start - 1:
        return None
    name = before[-1].text
    inner = m.group("bwi")
    if not name[0].isupper() or name.isupper() or _script(name) != _script(inner):
        return None
    return _make(text, start, end, "bracket", qualifier="words", inner=inner)


def _read_dice(text: str, m: re.Match[str], g: _Grammar, lo: int, start: int, end: int) -> Quantity:
    expr, notes = _dice(m)
    inch = _INCH_GLYPH.match(text, end)
    if inch:
        return _make(text, start, inch.end(), "distance", notes, expr=expr, unit="inch")
    right = _right_tokens(g, text, end)
    length = _match_right(g, right, "length")
    if length:
        return _make(text, start, length[1], "distance", notes, expr=expr, unit=length[0])
    role, _, _ = _match_left(g, _left_tokens(g, text, lo, start), ("additional",))
    qualifier = "additional" if role else None
    noun = _match_right(g, right, "noun", "count_link")
    if noun:
        return _make(
            text, start, noun[1], "dice", notes, expr=expr, unit=noun[0], qualifier=qualifier
        )
    return _make(text, start, end, "dice", notes, expr=expr, qualifier=qualifier)


def _read_number(
    text: str, m: re.Match[str], g: _Grammar, lo: int, start: int, end: int
) -> Quantity:
    signed = m.group("sign") is not None
    value = _number((m.group("sign") or "") + m.group("n"))
    left = _left_tokens(g, text, lo, start)

    if m.group("plus"):
        nat, _ = _natural_left(g, left)
        if nat >= 0:
            return _make(text, nat, end, "threshold", value=value, qualifier="natural")
        return _make(text, start, end, "threshold", value=value)

    inch = _INCH_GLYPH.match(text, end)
    if inch:
        return _make(text, start, inch.end(), "distance", value=value, unit="inch")
    right = _right_tokens(g, text, end)
    length = _match_right(g, right, "length")
    if length:
        return _make(text, start, length[1], "distance", value=value, unit=length[0])

    nat, quote = _natural_left(g, left)
    if nat >= 0:
        close = end
        if quote and end < len(text) and text[end] in _QUOTES:
            close = end + 1
        return _make(text, nat, close, "threshold", value=value, qualifier="natural")

    if signed:
        char = _match_right(g, right, "characteristic", "modifier_link")
        if char:
            surface_char = text[right[0].start : char[1]] if right else ""
            notes = _spelling(g, surface_char)
            return _make(
                text, start, char[1], "modifier", notes, value=value, characteristic=char[0]
            )
        role, canon, at = _match_left(g, left, ("characteristic",))
        if role:
            notes = _spelling(g, text[at:start])
            return _make(text, at, end, "modifier", notes, value=value, characteristic=canon)
        return _make(text, start, end, "modifier", value=value)

    role, canon, at = _match_left(
        g, left, ("initiative_step", "step", "turn", "within", "characteristic")
    )
    if role == "initiative_step":
        return _make(text, at, end, "initiative-step", value=value)
    if role in ("step", "turn"):
        return _make(text, at, end, role, value=value)  # type: ignore[arg-type]
    noun = _match_right(g, right, "noun", "count_link")
    if noun:
        return _make(text, start, noun[1], "count", value=value, unit=noun[0])
    if role == "within":
        return _make(text, start, end, "distance", ("no-inch-mark",), value=value, unit="inch")
    degree = _DEGREE.match(text, end)
    if degree:
        return _make(text, start, degree.end(), "number", value=value, unit="degree")
    if role == "characteristic":
        return _make(text, start, end, "number", value=value, characteristic=canon)
    return _make(text, start, end, "number", value=value)


def _spelling(g: _Grammar, surface: str) -> list[str]:
    """A "spelling:Armor" note when the characteristic is not in the house spelling."""
    words = strip_tags(surface, " ").split()
    for i in range(len(words)):
        phrase = " ".join(words[i:])
        if phrase.lower() in g.spelling:
            return [f"spelling:{phrase}"]
    return []


@lru_cache(maxsize=16)
def characteristic_names(lang: str) -> tuple[dict[str, str], dict[str, str], int]:
    """The names of characteristics a text of `lang` may use, inflected forms included,
    as (forms matched as written, lower-cased forms, most words in one) -> slug. A form
    that is also a counted noun ("attacks", "атака") is left out: alone, it says nothing
    of a characteristic."""
    g = _grammar(lang)
    out: list[dict[str, str]] = []
    for table in (g.exact, g.folded):
        names: dict[str, str] = {}
        for form, entries in table.items():
            roles = dict(entries)
            if "characteristic" in roles and "noun" not in roles:
                names[form] = roles["characteristic"]
        out.append(names)
    return out[0], out[1], g.max_words


def quantity_keys(
    text: str, lang: str, types: Iterable[str] | None = None
) -> Counter[tuple[Any, ...]]:
    """The multiset of quantity keys of `text`, optionally only of some types.

    Two texts with equal keys say the same numbers; dedup uses this to call a near-duplicate a
    cosmetic copy, and the checks to compare a source with its translation.
    """
    wanted = set(types) if types is not None else None
    return Counter(
        q.key() for q in find_quantities(text, lang) if wanted is None or q.type in wanted
    )


# --- weapon profiles ---------------------------------------------------------------------


@lru_cache(maxsize=1)
def _profile_data() -> tuple[dict[str, str], tuple[str, ...]]:
    data = lang_data(ENGLISH, "quantities").get("profile") or {}
    labels: dict[str, str] = {}
    for field, forms in (data.get("labels") or {}).items():
        for form in forms:
            labels[str(form)] = str(field)
    same = tuple(str(s) for s in data.get("same_as_user") or ())
    return labels, same


@lru_cache(maxsize=1)
def _label_starts() -> re.Pattern[str]:
    """Every place where a profile label and the space after it begin, overlapping ones
    too: a field is an item that starts so, and most texts hold fewer than two."""
    labels, _ = _profile_data()
    return re.compile("(?=(?:" + "|".join(re.escape(f + " ") for f in labels) + "))")


_PROFILE_VALUE = re.compile(r"(?P<v>.+?)(?:\s*\[(?P<alt>[^\]]+)\])?")
_ATTRIBUTE = re.compile(r"(?P<name>[^()]+?)\s*(?:\((?P<params>.*)\))?")
_CATEGORY = re.compile(r"\s*(?P<cat>[A-Z][\w' -]{0,40}?)\.\s+")


def _profile_value(raw: str, same: tuple[str, ...]) -> int | str:
    """A profile value: an int, a signed modifier kept as written, "Same as user", a dice."""
    raw = raw.strip()
    for phrase in same:
        if raw.lower() == phrase.lower():
            return phrase
    m = re.fullmatch(r"[0-9]+", raw)
    if m:
        return int(raw)
    dice = _DICE_ONE.fullmatch(raw)
    if dice:
        return _dice(dice)[0]
    return raw


def parse_profile(text: str) -> dict[str, Any] | None:
    """Parse a weapon profile line, or return None if `text` is not one.

    "Artillery Weapon. Range 48″, Shots 1, Str 3 [6], AP 10, Area Attack (1×5),
    [Multiple Wounds (D3)]." gives category, range, shots, strength with its bracketed
    alternate, ap, and the attributes with their bracket parameters. A line needs two of the
    fields range/shots/strength/ap to count as a profile, so prose is not misread.
    """
    labels, same = _profile_data()
    body = strip_tags(text).strip().rstrip(".").strip()
    starts = _label_starts().finditer(body)
    if next(starts, None) is None or next(starts, None) is None:
        return None  # two fields need two places where a label and its space begin
    out: dict[str, Any] = {
        "category": None,
        "range": None,
        "shots": None,
        "strength": None,
        "strength_alt": None,
        "ap": None,
        "ap_alt": None,
        "attributes": [],
        "labels": {},
    }
    ordered = sorted(labels, key=len, reverse=True)  # "Armour Penetration" before "AP"

    def label_of(item: str) -> str | None:
        return next((lab for lab in ordered if item.startswith(lab + " ")), None)

    cat = _CATEGORY.match(body)
    if cat and label_of(body[cat.end() :]):
        out["category"] = cat.group("cat").strip()
        body = body[cat.end() :]
    fields = 0
    for item in (p.strip() for p in _split_top(body)):
        if not item:
            continue
        label = label_of(item)
        field = labels[label] if label else None
        if label and field and out[field] is None:
            fields += 1
            out["labels"][field] = label
            value = item[len(label) :].strip()
            if field == "range":
                out["range"] = _profile_range(value, same)
                continue
            pv = _PROFILE_VALUE.fullmatch(value)
            assert pv is not None  # `.+?` matches any non-empty value
            out[field] = _profile_value(pv.group("v"), same)
            if field in ("strength", "ap") and pv.group("alt"):
                out[f"{field}_alt"] = _profile_value(pv.group("alt"), same)
            continue
        out["attributes"].append(_profile_attribute(item))
    return out if fields >= 2 else None


def _profile_range(value: str, same: tuple[str, ...]) -> dict[str, Any] | str:
    for q in find_quantities(value, "en"):
        if q.type == "distance" and q.span[0] == 0:
            if q.value is not None:
                return {"value": q.value, "unit": q.unit}
            return {"expr": q.expr, "unit": q.unit}
    return _profile_value(value, same)


def _profile_attribute(item: str) -> dict[str, Any]:
    bracketed = item.startswith("[") and item.endswith("]")
    if bracketed:
        item = item[1:-1].strip()
    m = _ATTRIBUTE.fullmatch(item)
    name, params = (m.group("name"), m.group("params")) if m else (item, None)
    attr: dict[str, Any] = {"name": name.strip(), "params": []}
    if params is not None:
        for raw in _split_top(params):
            kind, canon, value, notes = _param(raw)
            param: dict[str, Any] = {"text": raw.strip(), "kind": kind, "canonical": canon}
            if value is not None:
                param["value"] = value
            if notes:
                param["notes"] = notes
            attr["params"].append(param)
    if bracketed:
        attr["bracketed"] = True
    return attr
