"""Rule ids: safe, readable slugs that cannot escape a folder or name a device."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from .lang import data

MAX_SLUG = 60
#: What an id read back from a file must look like to name a rule, a file or a page.
ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# Names that Windows reserves for devices, whatever the extension.
RESERVED = frozenset(
    ["con", "prn", "aux", "nul"]
    + [f"com{i}" for i in range(1, 10)]
    + [f"lpt{i}" for i in range(1, 10)]
)


@cache
def _translit() -> dict[str, str]:
    return {k: v or "" for k, v in data("ru", "translit", fallback=False).items()}


def slugify(name: str, fallback: str = "rule") -> str:
    """Lower-case ASCII words joined by '-': never empty, '.', '..', a path or a device name."""
    table = _translit()
    lowered = "".join(table.get(c, c) for c in name.lower())
    ascii_text = unicodedata.normalize("NFKD", lowered).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")
    if len(slug) > MAX_SLUG:
        slug = slug[:MAX_SLUG].rsplit("-", 1)[0] or slug[:MAX_SLUG]
    if not slug:
        slug = fallback
    if slug in RESERVED:
        slug = f"{slug}-rule"
    return slug


def unique(slugs: list[str]) -> list[str]:
    """Make slugs unique in order: the second 'fear' becomes 'fear-2', and so on."""
    seen: dict[str, int] = {}
    taken = set(slugs)
    out: list[str] = []
    for slug in slugs:
        n = seen.get(slug, 0) + 1
        seen[slug] = n
        candidate = slug if n == 1 else f"{slug}-{n}"
        while n > 1 and candidate in taken:
            n += 1
            seen[slug] = n
            candidate = f"{slug}-{n}"
        taken.add(candidate)
        out.append(candidate)
    return out
