"""Which of many patterns may match a text, told by the literal words each one needs.

A sentence is searched with every effect pattern of its language and nearly all of them
fail; a search costs about as much as reading the sentence once. Most patterns spell out
words ("cannot Charge", "re-roll"), and every match of such a pattern contains one of a few
literal strings read off the pattern itself. A text that contains none of them cannot match,
so a `Prefilter` tells, with a substring test per literal, the few patterns worth searching.
The answer is exact in one direction only: a pattern it names may still fail, one it leaves
out never matches.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

Needs = frozenset[str]
_MAX_ALTERNATIVES = 16  # spellings of one literal ("[Cc]harg[ei]s": 4); more are not kept
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def needs(pattern: re.Pattern[str]) -> Needs | None:
    """Literal strings one of which every match of `pattern` contains, or None when the
    pattern promises none (a case-blind pattern, a bare class, an optional part)."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        tree = sre_parse.parse(pattern.pattern, pattern.flags)
        return _sequence(list(tree), False)
    except (AttributeError, TypeError, ValueError, re.error):
        return None  # a parse tree of another shape (re's parser is internal): search always


def _best(options: list[Needs]) -> Needs | None:
    """The most selective of several needs that all hold: longest shortest literal, then
    fewest literals."""
    if not options:
        return None
    return max(options, key=lambda n: (min(map(len, n)), -len(n)))


def _sequence(items: list[tuple[Any, Any]], blind: bool) -> Needs | None:
    """The needs of a sequence of nodes: each run of literal characters (a small character
    class spells it several ways) and each part that must match. `blind`: case-blind here,
    where no literal is exact."""
    options: list[Needs] = []
    run = [""]

    def close() -> None:
        nonlocal run
        if run != [""]:
            options.append(frozenset(run))
        run = [""]

    for op, av in items:
        if blind:
            pass
        elif op is sre.LITERAL:
            run = [r + chr(av) for r in run]
            continue
        elif (
            op is sre.IN
            and all(o is sre.LITERAL for o, _ in av)
            and len(av) * len(run) <= _MAX_ALTERNATIVES
        ):
            run = [r + chr(v) for r in run for _, v in av]
            continue
        close()
        inner = _node(op, av, blind)
        if inner is not None:
            options.append(inner)
    close()
    return _best(options)


def _node(op: Any, av: Any, blind: bool) -> Needs | None:
    """The needs of one node that is not a literal: a group, a repeat of at least one, an
    alternation whose every branch needs something, a lookaround."""
    if op is sre.SUBPATTERN:
        _, add, remove, inner = av
        if add & sre.SRE_FLAG_IGNORECASE:
            blind = True
        if remove & sre.SRE_FLAG_IGNORECASE:
            blind = False
        return _sequence(list(inner), blind)
    if op in _REPEATS:
        low, _, inner = av
        return _sequence(list(inner), blind) if low >= 1 else None
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(av), blind)
    if op is sre.ASSERT:  # what a lookaround sees is in the text searched too
        return _sequence(list(av[1]), blind)
    if op is sre.BRANCH:
        out: set[str] = set()
        for branch in av[1]:
            inner = _sequence(list(branch), blind)
            if inner is None:
                return None
            out |= inner
        return frozenset(out)
    return None


_PATTERN_READS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "split")


class LazyPattern:
    """A pattern compiled when first read: a short run (`check` on a few pairs) searches few
    of a language's 350 clause patterns, and compiling them all was half its time. Its
    `pattern` and `flags` are there before (the prefilters read them); the first read of
    anything else compiles it, and from then on each method is the compiled pattern's own."""

    __slots__ = ("pattern", "flags", "groupindex", "groups", *_PATTERN_READS)

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> Any:  # only for a slot not yet filled
        compiled = re.compile(self.pattern, self.flags)
        for attr in ("groupindex", "groups", *_PATTERN_READS):
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`pattern`, compiled when first searched (a `LazyPattern` reads as a Pattern)."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]


class Prefilter:
    """The patterns of a list that may match a text, in list order."""

    __slots__ = ("always", "literals")

    def __init__(self, patterns: Sequence[re.Pattern[str] | None], fold: bool = False) -> None:
        """`fold`: the literals in lower case, for patterns searched case-blind (then ask
        `candidates` with the text in lower case)."""
        by_literal: dict[str, list[int]] = {}
        always: list[int] = []
        for i, pattern in enumerate(patterns):
            if pattern is None:
                continue
            need = needs(pattern)
            if need is None:
                always.append(i)
                continue
            for literal in sorted(need):
                key = literal.lower() if fold else literal
                if i not in by_literal.setdefault(key, []):
                    by_literal[key].append(i)
        self.always = tuple(always)
        self.literals = tuple((k, tuple(v)) for k, v in by_literal.items())

    def candidates(self, text: str) -> list[int]:
        """Indices of the patterns that may match `text`, ascending."""
        found = set(self.always)
        for literal, indices in self.literals:
            if literal in text:
                found.update(indices)
        return sorted(found)


# Token patterns (spaCy Matcher): a token that may be absent needs no word.
_OPTIONAL_OPS = frozenset({"?", "*", "!"})
_WORD_ATTRS = ("LOWER", "ORTH", "TEXT")


def token_needs(pattern: Sequence[Mapping[str, Any]]) -> tuple[frozenset[str], ...]:
    """For each token of a Matcher pattern that every match holds and that is spelt out
    (its LOWER, ORTH or TEXT one word or an IN list), the words it may be. A match needs
    one word of each set among the doc's words; a token that may be absent, or any word
    of a kind (IS_TITLE, REGEX, NOT_IN), needs nothing."""
    out: list[frozenset[str]] = []
    for spec in pattern:
        op = str(spec.get("OP", ""))
        if op in _OPTIONAL_OPS or (
            op.startswith("{") and op[1:].split(",")[0].strip("}") in ("", "0")
        ):
            continue
        for attr in _WORD_ATTRS:
            value = spec.get(attr)
            if isinstance(value, str):
                out.append(frozenset([value]))
                break
            if isinstance(value, Mapping) and set(value) == {"IN"}:
                out.append(frozenset(str(v) for v in value["IN"]))
                break
    return tuple(out)


# Token attributes that depend on the token's own text alone, never on its neighbours
_CONTEXT_FREE = frozenset({"ORTH", "TEXT", "LOWER", "IS_TITLE", "IS_LOWER", "IS_UPPER", "OP"})


class TokenPrefilter:
    """Matcher matches found with only the patterns a text's words allow, piece by piece.

    A Matcher's cost grows with its patterns times the doc's tokens, and most patterns
    need a word the doc lacks ("half of ... have" in a text with no "half"). Two things cut
    it, neither changing a match nor their order:

    - a doc is cut at its *stops*, tokens that no token of any pattern can match (".",
      ";", "?" for the name cues): a match never holds one, so each run of tokens between
      stops is matched alone, and the same run met again (paragraphs repeat their
      sentences) is not matched again;
    - a run is matched with a Matcher of only the patterns whose needed words
      (`token_needs`) all occur among its tokens (lower-cased or as written), one Matcher
      kept per such set, the patterns in their order.

    Runs are matched in order and each run's matches are those a Matcher of every pattern
    finds in it, so the whole is what that Matcher finds in the doc. Patterns that read a
    token's context (a sentence start, a negated `!` token) or that take any token leave
    the doc whole."""

    _MAX_MATCHERS = 512  # sets of patterns kept; past this, the Matcher of them all
    _MAX_RUNS = 50_000  # runs remembered; the memory is emptied when full

    def __init__(self, vocab: Any, groups: Sequence[tuple[str, Sequence[Any]]]) -> None:
        from spacy.attrs import LOWER, ORTH

        self._vocab = vocab
        self._attrs = [LOWER, ORTH]
        self._flat = [(key, p) for key, patterns in groups for p in patterns]
        self._needs = [
            tuple(frozenset(vocab.strings.add(w) for w in words) for words in token_needs(p))
            for _, p in self._flat
        ]
        self._all = self._matcher_of(tuple(range(len(self._flat))))
        self._matchers: dict[tuple[int, ...], Any] = {}
        specs = [spec for _, p in self._flat for spec in p]
        whole = any(set(s) - _CONTEXT_FREE or s.get("OP") == "!" or set(s) <= {"OP"} for s in specs)
        self._any_token = None if whole else self._token_matcher(specs)
        self._stop: dict[int, bool] = {}  # word id -> no pattern token matches it
        self._runs: dict[bytes, list[tuple[int, int, int]]] = {}  # word ids -> matches

    def __call__(self, doc: Any) -> list[tuple[int, int, int]]:
        rows = doc.to_array(self._attrs)
        if self._any_token is None:
            return self._matched(doc, set(rows.ravel().tolist()))
        orths = rows[:, 1].tolist()
        stop = self._stop
        for w in set(orths).difference(stop):
            self._learn(w)
        ends = [i for i, w in enumerate(orths) if stop[w]]
        ends.append(len(orths))
        out: list[tuple[int, int, int]] = []
        start = 0
        for end in ends:
            if end > start:
                out.extend(self._run(doc, rows, start, end))
            start = end + 1
        return out

    def _run(self, doc: Any, rows: Any, start: int, stop: int) -> list[tuple[int, int, int]]:
        """The matches in doc[start:stop], a run with no stop, remembered by its words."""
        key = rows[start:stop, 1].tobytes()
        found = self._runs.get(key)
        if found is None:
            found = self._matched(doc[start:stop], set(rows[start:stop].ravel().tolist()))
            if len(self._runs) >= self._MAX_RUNS:
                self._runs.clear()
            self._runs[key] = found
        return [(k, start + a, start + b) for k, a, b in found] if start else found

    def _matched(self, doclike: Any, words: set[int]) -> list[tuple[int, int, int]]:
        kept = tuple(
            i
            for i, need in enumerate(self._needs)
            if all(not words.isdisjoint(one) for one in need)
        )
        if not kept:
            return []
        matcher = self._matchers.get(kept)
        if matcher is None:
            if len(self._matchers) >= self._MAX_MATCHERS:
                return self._all(doclike)
            matcher = self._matcher_of(kept)
            self._matchers[kept] = matcher
        return matcher(doclike)

    def _learn(self, orth: int) -> None:
        """Whether a word is a stop. A token's attributes are its text's: whether any
        pattern token matches it is told once per word, on a doc of that word alone."""
        from spacy.tokens import Doc

        assert self._any_token is not None
        word = Doc(self._vocab, words=[self._vocab.strings[orth]])
        self._stop[orth] = not self._any_token(word)

    def _token_matcher(self, specs: list[Mapping[str, Any]]) -> Any:
        """A Matcher of every token of the patterns, each alone (`specs`: none is empty)."""
        from spacy.matcher import Matcher

        matcher = Matcher(self._vocab)
        matcher.add("token", [[{k: v for k, v in s.items() if k != "OP"}] for s in specs])
        return matcher

    def _matcher_of(self, kept: tuple[int, ...]) -> Any:
        from spacy.matcher import Matcher

        matcher = Matcher(self._vocab)
        by_key: dict[str, list[Any]] = {}
        for i in kept:
            key, pattern = self._flat[i]
            by_key.setdefault(key, []).append(pattern)
        for key, patterns in by_key.items():
            matcher.add(key, patterns)
        return matcher
