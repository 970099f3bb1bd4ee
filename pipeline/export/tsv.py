"""The glossary as TSV: a header row naming the languages (`en<TAB>ru<TAB>it`), then the
term's status, id and note.

Per term, the first row holds the approved rendering of every language (status
`preferred`); each further variant gets a row (`admitted`) and so does each deprecated
rendering (`deprecated`), in its language's column, other columns empty. A reader that only
wants approved pairs keeps the `preferred` rows.
"""

from __future__ import annotations

import re

from ..glossary import Glossary
from ..textsafe import cell
from .tbx import renderings

_SPACE = re.compile(r"\s+")


def _cell(text: str) -> str:
    """One line, never a formula to a spreadsheet (`=HYPERLINK(...)` becomes text)."""
    return cell(_SPACE.sub(" ", text).strip())


def write_tsv(glossary: Glossary) -> str:
    langs = list(glossary.languages)
    for term in glossary.terms:
        langs.extend(k for k in [*term.renderings, *term.deprecated] if k not in langs)
    lines = ["\t".join([*langs, "status", "term", "note"])]
    for term_id, note, items in renderings(glossary):
        preferred = {lang: text for lang, status, text in items if status == "preferred"}
        rows = [("preferred", preferred)]
        rows += [(status, {lang: text}) for lang, status, text in items if status != "preferred"]
        for status, cells in rows:
            row = [_cell(cells.get(lang, "")) for lang in langs]
            lines.append("\t".join([*row, status, term_id, _cell(note)]))
    return "\n".join(lines) + "\n"
