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

Text sent out for translation (export/to_translate.py) has empty `msgstr`s and `msgctxt`
the unit id, which names the rule, the part and the sentence (`fear.1.2`); a template
(POT) has no `Language`.
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


def header(target_lang: str | None, source_lang: str, untranslated: bool = False) -> list[str]:
    """The header entry; `target_lang` None for a template (POT)."""
    fields = [
        f"Project-Id-Version: rulepipe {__version__}",
        "PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE",
        "Last-Translator: FULL NAME <EMAIL@ADDRESS>",
        f"Language-Team: {target_lang or 'LANGUAGE <LL@li.org>'}",
        f"Language: {target_lang or ''}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        f"X-Generator: rulepipe {__version__}",
        f"X-Source-Language: {source_lang}",
    ]
    what = (
        "to translate, one entry per sentence (msgctxt: rule.part.sentence)"
        if untranslated
        else "and their translations, one entry per aligned pair"
    )
    return [
        f"# Rule texts of a rulepipe build {what}.",
        'msgid ""',
        'msgstr ""',
        *(quote(f"{f}\n") for f in fields),
    ]


def write_po(
    pairs: list[Pair],
    target_lang: str | None,
    names: Mapping[str, str] | None = None,
    places: Mapping[str, str] | None = None,
    source_lang: str = "en",
    context_is_id: bool = False,
) -> str:
    """The PO catalogue (text) of the pairs into `target_lang`, in link order (a template
    of every pair when `target_lang` is None). `names` maps rule ids to rule names,
    `places` pair ids to `drop/file:line` of their source; `context_is_id` makes each
    `msgctxt` the pair's id (units that name their rule and sentence)."""
    names = names or {}
    places = places or {}
    lines = header(target_lang, source_lang, context_is_id)
    seen: set[tuple[str, str]] = set()
    for pair in (p for p in pairs if target_lang is None or p.target_lang == target_lang):
        context = pair.id if context_is_id else pair.rule or pair.id
        if (context, pair.source) in seen:
            context = f"{context} {pair.id}"
        seen.add((context, pair.source))
        lines.append("")
        if pair.rule:
            lines += _comment("#.", f"Rule: {names.get(pair.rule) or pair.rule} ({pair.rule})")
        if not context_is_id:
            lines += _comment("#.", f"Link: {pair.id}")
        if pair.id in places:
            lines.append(f"#: {_reference(places[pair.id])}")
        lines += field("msgctxt", context)
        lines += field("msgid", pair.source)
        lines += field("msgstr", pair.target or "")
    return "\n".join(lines) + "\n"
