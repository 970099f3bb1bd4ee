"""Marks text that is not rule text (translators' comments) so later stages skip it."""

from __future__ import annotations

import re
from functools import cache

from ..lang import shared
from ..model import Aside


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    data = shared("asides")
    return tuple((re.compile(a["pattern"], re.IGNORECASE), a["reason"]) for a in data["asides"])


def find_asides(raw: str) -> tuple[Aside, ...]:
    """Return non-overlapping asides; each span takes the white space before it."""
    found: list[Aside] = []
    for pattern, reason in _patterns():
        for m in pattern.finditer(raw):
            start = m.start()
            while start > 0 and raw[start - 1] in " \t":
                start -= 1
            if not any(a.start < m.end() and start < a.end for a in found):
                found.append(Aside(start, m.end(), reason))
    return tuple(sorted(found, key=lambda a: a.start))
