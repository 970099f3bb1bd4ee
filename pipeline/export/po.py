"""Aligned pairs as gettext PO, one catalogue per target language (Weblate, Pootle, Poedit,
Lokalize and most CAT tools open it).

Per pair one entry: `msgctxt` the rule id (so two rules with one English sentence stay two
entries; the link id when the pair has no rule, and the link id added when a rule repeats a
text), `msgid` the English source, `msgstr` the translation, both as received (BBCode kept
as text). `#.` says which rule and link it is: extracted comments are the channel gettext
tools show the translator as notes, while `# ` comments are the translator's own and kept
untouched by tools. `#:` gives where the source sits in the corpus (`drop/file:line`). The
header names the `Language` and, as `X-Source-Language`, the source's, so the PO reader of
ingest can take a reviewed file back as a drop. Deterministic: no dates in the header.
"""

from __future__ import annotations

from collections.abc import Mapping

from .. import __version__
from .pairs import Pair

# A reference with white space in its file name is wrapped in FSI/PDI, as GNU gettext does.
_FSI, _PDI = "\u2068", "\u2069"


def quote(text: str) -> str:
    """One PO string literal (without the surrounding keyword)."""
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\t", "\\t")
        .replace("\r", "\\r")
        .replace("\n", "\\n")
    )
    return f'"{escaped}"'


def field(keyword: str, text: str) -> list[str]:
    """`keyword "text"`, or for text with line breaks `keyword ""` and one string per line."""
    if "\n" not in text.rstrip("\n"):
        return [f"{keyword} {quote(text)}"]
    lines = text.splitlines(keepends=True)
    return [f'{keyword} ""', *(quote(line) for line in lines)]


def _comment(prefix: str, text: str) -> list[str]:
    return [f"{prefix} {line}".rstrip() for line in text.splitlines() or [""]]


def _reference(place: str) -> str:
    return f"{_FSI}{place}{_PDI}" if any(c.isspace() for c in place) else place


def header(target_lang: str, source_lang: str) -> list[str]:
    fields = [
        f"Project-Id-Version: rulepipe {__version__}",
        "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator: FULL NAME <EMAIL@ADDRESS>",
        f"Language-Team: {target_lang}",
        f"Language: {target_lang}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        f"X-Generator: rulepipe {__version__}",
        f"X-Source-Language: {source_lang}",
    ]
    return [
        "# Rule texts of a rulepipe build and their translations, one entry per aligned pair.",
        'msgid ""',
        'msgstr ""',
        *(quote(f"{f}\n") for f in fields),
    ]


def write_po(
    pairs: list[Pair],
    target_lang: str,
    names: Mapping[str, str] | None = None,
    places: Mapping[str, str] | None = None,
    source_lang: str = "en",
) -> str:
    """The PO catalogue (text) of the pairs into `target_lang`, in link order. `names` maps
    rule ids to rule names, `places` pair ids to `drop/file:line` of their source."""
    names = names or {}
    places = places or {}
    lines = header(target_lang, source_lang)
    seen: set[tuple[str, str]] = set()
    for pair in (p for p in pairs if p.target_lang == target_lang):
        context = pair.rule or pair.id
        if (context, pair.source) in seen:
            context = f"{context} {pair.id}"
        seen.add((context, pair.source))
        lines.append("")
        if pair.rule:
            lines += _comment("#.", f"Rule: {names.get(pair.rule) or pair.rule} ({pair.rule})")
        lines += _comment("#.", f"Link: {pair.id}")
        if pair.id in places:
            lines.append(f"#: {_reference(places[pair.id])}")
        lines += field("msgctxt", context)
        lines += field("msgid", pair.source)
        lines += field("msgstr", pair.target)
    return "\n".join(lines) + "\n"
