"""Names a translation gives with their English in brackets, read from every text.

"Авангард (Vanguard)" states a term pair outright, whether or not its paragraph was
linked in the first round; read as a term, the name anchors the other paragraphs that
use it without the bracket. The induction of `suggest` reads such names in the sure
links only; a paragraph of few numbers is often not among them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..glossary import Glossary, Term
from ..lang import fold
from ..model import Segment
from .terms import candidates, english_key

_BRACKETED = re.compile(r"\(\s*([A-Z][A-Za-z'’-]*(?: [A-Za-z'’-]+){0,4})\s*\)")
_CLOSING_QUOTES = '»"”’'
MAX_WORDS = 5


def _english_phrases(english: Iterable[Segment]) -> set[str]:
    """Every run of up to MAX_WORDS words of the English texts, by `english_key`."""
    out: set[str] = set()
    for seg in english:
        words = re.findall(r"[A-Za-z][A-Za-z'’-]*", seg.text)
        for n in range(1, MAX_WORDS + 1):
            for i in range(len(words) - n + 1):
                out.add(english_key(words[i : i + n]))
    return out


def _before(text: str, end: int, size: int, lang: str) -> str | None:
    """The name the translation writes right before a bracket: the candidate term ending
    there that starts with a capital, else the one of the English name's size."""
    found = [c for c in candidates(text[:end], lang) if c.end == end and not c.verb]
    capital = [c for c in found if c.words[0][:1].isupper()]
    exact = [c for c in found if c.size == size]
    for group in (capital, exact):
        if group:
            best = min(group, key=lambda c: (abs(c.size - size), -len(c.words)))
            return " ".join(best.words)
    return None


def bracketed_names(
    foreign: Sequence[Segment], english: Sequence[Segment], known: Glossary
) -> Glossary:
    """Terms of the names the foreign texts give in brackets and the English texts use,
    one per English name (its first rendering), leaving out names and renderings that
    `known` has."""
    if not any("(" in seg.text for seg in foreign):
        return Glossary("bracketed", "", known.languages, ())
    taken = {
        (lang, fold(form.lower()))
        for t in known.terms
        for lang, fs in t.renderings.items()
        for form in fs
    }
    phrases = _english_phrases(english)
    terms: dict[str, Term] = {}
    for seg in foreign:
        for m in _BRACKETED.finditer(seg.text):
            name = m.group(1)
            key = english_key(name.split())
            if key not in phrases or ("en", fold(name.lower())) in taken or key in terms:
                continue
            end = len(seg.text[: m.start()].rstrip().rstrip(_CLOSING_QUOTES).rstrip())
            form = _before(seg.text, end, len(name.split()), seg.lang)
            if form is None or (seg.lang, fold(form.lower())) in taken:
                continue
            taken.add((seg.lang, fold(form.lower())))
            terms[key] = Term(
                f"named-{key.replace(' ', '-')}", {"en": (name,), seg.lang: (form,)}, {}
            )
    return Glossary("bracketed", "", known.languages, tuple(terms.values()))
