"""The term base: loaded once, validated, shared by extraction, alignment and checks."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .files import decode, parse_yaml, read_bytes, text_lines
from .schemas import validator
from .slug import slugify
from .textsafe import cell_text


@dataclass(frozen=True, slots=True)
class Term:
    id: str
    renderings: dict[str, tuple[str, ...]]  # language -> approved first, then variants
    deprecated: dict[str, tuple[str, ...]]
    kind: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Glossary:
    """The approved terms, and the review state of proposals (`rulepipe glossary suggest`):
    `proposed` terms wait for a reviewer and are not used; `rejected` ones are never
    proposed again."""

    file: str
    sha256: str
    languages: tuple[str, ...]
    terms: tuple[Term, ...]
    proposed: tuple[Term, ...] = ()
    rejected: tuple[Term, ...] = ()


DEFAULT_GLOSSARY = Path("corpus/glossary.yaml")


def chosen_glossary(path: Path | None) -> Glossary | None:
    """The glossary a command was given, else ./corpus/glossary.yaml when there is one."""
    if path is not None:
        return load_glossary(path)
    return load_glossary(DEFAULT_GLOSSARY) if DEFAULT_GLOSSARY.is_file() else None


def load_glossary(path: Path) -> Glossary:
    """Read a glossary: `.tsv` (or `.csv`) as a language-headed table, `.tbx` as TBX,
    anything else as the project's YAML."""
    suffix = path.suffix.lower()
    if suffix == ".tsv":
        return _load_tsv(path)
    if suffix == ".csv":
        return _load_csv(path)
    if suffix == ".tbx":
        return _load_tbx(path)
    return _load_yaml(path)


_LANG_HEADER = re.compile(r"[a-z]{2,3}")
# Columns a TSV may carry besides languages: `term` (id), `status` and `note`, as
# `rulepipe export --format tsv` writes them; `count`, `score` and the example pair, as
# `rulepipe glossary suggest` writes them (ignored).
_OTHER_COLUMNS = frozenset(
    {"term", "status", "note", "count", "score", "example_source", "example_target", "example_ids"}
)
#: Review states of a proposal: kept apart from the approved terms.
REVIEW_STATUSES = ("proposed", "rejected")
_STATUSES = frozenset({"preferred", "admitted", "deprecated", *REVIEW_STATUSES})


def _load_tsv(path: Path) -> Glossary:
    """A TSV term list: header `en<TAB>ru[...]`, one term a row; the first column names the id.

    Translators exchange term lists as spreadsheets; this reads the plain export of one. A
    cell may hold variants separated by `;` (approved first). With `term` and `status`
    columns, rows of one term merge: `preferred` gives the approved renderings, `admitted`
    adds variants, `deprecated` renderings not to use. Empty or duplicate terms, unknown
    columns and rows with a different number of cells than the header are refused with
    their line.
    """
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    lines = list(text_lines(decode(name, data_bytes)))
    if not lines or not lines[0].strip():
        raise InputError(name, "empty glossary: expected a header row such as 'en<TAB>ru'", "1")
    if "\t" not in lines[0] and ("," in lines[0] or ";" in lines[0]):
        raise InputError(
            name,
            "the header row has no tab: a comma-separated table is read as .csv; else use a"
            " tab-separated file (header such as 'en<TAB>ru')",
            "1",
        )
    rows = [(n, line.split("\t")) for n, line in enumerate(lines[1:], start=2) if line.strip()]
    return _from_rows(name, data_bytes, lines[0].split("\t"), rows)


def _load_csv(path: Path) -> Glossary:
    """A term list saved as CSV by a spreadsheet: comma- or semicolon-separated (told from
    the header row), quoted cells as the csv module reads them, then the same columns and
    checks as a TSV. A file whose separator cannot be told is refused."""
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    text = decode(name, data_bytes)
    first = text.split("\n", 1)[0]
    counts = {sep: first.count(sep) for sep in (",", ";")}
    sep = max(counts, key=lambda k: counts[k])
    if not first.strip() or counts[sep] == 0 or counts[","] == counts[";"]:
        raise InputError(
            name,
            "the header row is not comma- or semicolon-separated language columns; use a"
            " tab-separated file (.tsv, header such as 'en<TAB>ru')",
            "1",
        )
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    try:
        header = next(reader)
        rows = [(reader.line_num, row) for row in reader if any(c.strip() for c in row)]
    except csv.Error as exc:
        raise InputError(
            name, f"not readable as CSV ({exc}); use a tab-separated file", str(reader.line_num)
        ) from None
    return _from_rows(name, data_bytes, header, rows)


def _from_rows(
    name: str, data_bytes: bytes, head: list[str], rows: list[tuple[int, list[str]]]
) -> Glossary:
    """The glossary of a table's header and rows (each with its line number)."""
    header = [h.strip().lower() for h in head]
    for col, head in enumerate(header, start=1):
        if not _LANG_HEADER.fullmatch(head) and head not in _OTHER_COLUMNS:
            raise InputError(name, f"header column {col} is not a language code: {head!r}", "1")
    if len(set(header)) != len(header):
        raise InputError(name, "a column is named twice in the header", "1")
    langs = [h for h in header if h not in _OTHER_COLUMNS]
    if not langs or header[0] != langs[0]:
        raise InputError(name, "the first column must be a language, e.g. 'en'", "1")
    renderings: dict[str, dict[str, list[str]]] = {}
    deprecated: dict[str, dict[str, list[str]]] = {}
    review: dict[str, dict[str, dict[str, list[str]]]] = {k: {} for k in REVIEW_STATUSES}
    notes: dict[str, str] = {}
    first_line: dict[str, int] = {}
    for n, raw_cells in rows:
        cells = [cell_text(c.strip()) for c in raw_cells]  # as textsafe.cell wrote it
        if len(cells) != len(header):
            raise InputError(
                name, f"{len(cells)} cells where the header names {len(header)} columns", str(n)
            )
        row = dict(zip(header, cells, strict=True))
        status = row.get("status") or "preferred"
        if status not in _STATUSES:
            raise InputError(
                name, f"unknown status {status!r} (known: {sorted(_STATUSES)})", str(n)
            )
        forms = {lang: [f.strip() for f in row[lang].split(";") if f.strip()] for lang in langs}
        if status in review:
            if not forms[langs[0]]:
                raise InputError(name, f"empty term in column {langs[0]!r}", str(n))
            term_id = row.get("term") or slugify(forms[langs[0]][0], fallback="term")
            for lang, found in forms.items():
                review[status].setdefault(term_id, {}).setdefault(lang, []).extend(found)
            continue
        if status == "preferred" and not forms[langs[0]]:
            raise InputError(name, f"empty term in column {langs[0]!r}", str(n))
        term_id = row.get("term") or (
            slugify(forms[langs[0]][0], fallback="term") if forms[langs[0]] else ""
        )
        if not term_id:
            raise InputError(name, "a variant row names no term (column 'term')", str(n))
        if status == "preferred":
            if term_id in first_line:
                raise InputError(
                    name,
                    f"duplicate term {term_id!r} (first on line {first_line[term_id]})",
                    str(n),
                )
            first_line[term_id] = n
        target = deprecated if status == "deprecated" else renderings
        for lang, found in forms.items():
            if found:
                bucket = target.setdefault(term_id, {}).setdefault(lang, [])
                if status == "preferred":
                    bucket[:0] = found  # approved renderings first
                else:
                    bucket.extend(found)
        if row.get("note"):
            notes.setdefault(term_id, row["note"])
    missing = sorted((set(renderings) | set(deprecated)) - set(first_line))
    if missing:
        raise InputError(name, f"variant rows for a term with no preferred row: {missing[0]!r}")
    if not first_line and not any(review.values()):
        raise InputError(name, "no terms below the header row", "2")
    terms = tuple(
        Term(
            term_id,
            {k: tuple(v) for k, v in renderings.get(term_id, {}).items()},
            {k: tuple(v) for k, v in deprecated.get(term_id, {}).items()},
            note=notes.get(term_id),
        )
        for term_id in sorted(first_line, key=first_line.__getitem__)
    )
    proposed, rejected = (
        tuple(
            Term(term_id, {k: tuple(dict.fromkeys(v)) for k, v in forms.items() if v}, {})
            for term_id, forms in review[status].items()
        )
        for status in REVIEW_STATUSES
    )
    digest = hashlib.sha256(data_bytes).hexdigest()
    return Glossary(name, digest, tuple(langs), terms, proposed, rejected)


def _load_yaml(path: Path) -> Glossary:
    """Read a YAML glossary; a malformed one is an InputError naming file and place."""
    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    data = parse_yaml(name, data_bytes)
    error = next(iter(validator("glossary").iter_errors(data)), None)
    if error is not None:
        place = "/".join(str(p) for p in error.absolute_path) or "top level"
        raise InputError(name, f"not a glossary: {error.message}", place)
    seen: set[str] = set()
    owners: dict[tuple[str, str], str] = {}
    terms = []
    for i, t in enumerate(data["terms"]):
        if t["id"] in seen:
            raise InputError(name, f"duplicate term id {t['id']!r}", f"terms/{i}")
        seen.add(t["id"])
        renderings = {k: tuple(v) for k, v in t.items() if k != "id" and len(k) <= 3}
        _claim_renderings(name, i, t["id"], renderings, owners)
        deprecated = {k: tuple(v) for k, v in t.get("deprecated", {}).items()}
        terms.append(Term(t["id"], renderings, deprecated, t.get("kind"), t.get("note")))
    return Glossary(
        name, hashlib.sha256(data_bytes).hexdigest(), tuple(data["languages"]), tuple(terms)
    )


def _claim_renderings(
    name: str,
    index: int,
    term: str,
    renderings: dict[str, tuple[str, ...]],
    owners: dict[tuple[str, str], str],
) -> None:
    """Refuse a rendering already claimed by another term: a text using it would be
    tagged with one of the two at random, so the glossary must say which it means."""
    for lang, forms in renderings.items():
        for j, form in enumerate(forms):
            key = (lang, " ".join(form.casefold().split()))
            owner = owners.setdefault(key, term)
            if owner != term:
                raise InputError(
                    name,
                    f"{form!r} ({lang}) is already a rendering of term {owner!r}",
                    f"terms/{index}/{lang}/{j}",
                )


_ADMIN = {
    "preferredTerm-admn-sts": "preferred",
    "admittedTerm-admn-sts": "admitted",
    "deprecatedTerm-admn-sts": "deprecated",
    "supersededTerm-admn-sts": "deprecated",
}


def _load_tbx(path: Path) -> Glossary:
    """A TBX term base: TBX-Basic 3 (`conceptEntry`/`langSec`/`termSec`, as `rulepipe export`
    writes it) or TBX 2 (`martif`: `termEntry`/`langSet`/`tig`). A rendering's status is its
    `administrativeStatus`; an entry whose `<note>` starts with `proposed` or `rejected` is
    a proposal under review (`rulepipe glossary suggest` writes them so)."""
    from .xmlsafe import XML_LANG, local, parse_xml

    name = str(path)
    data_bytes = read_bytes(path, "glossary")
    root = parse_xml(name, data_bytes)
    langs: list[str] = []
    buckets: dict[str, list[Term]] = {"terms": [], **{k: [] for k in REVIEW_STATUSES}}
    seen: set[str] = set()
    for entry in root.iter():
        if local(entry) not in ("conceptEntry", "termEntry"):
            continue
        note = next(((e.text or "").strip() for e in entry if local(e) == "note"), "")
        status = note.split(";", 1)[0].split()[0] if note else ""
        renderings: dict[str, list[str]] = {}
        deprecated: dict[str, list[str]] = {}
        for section in entry:
            if local(section) not in ("langSec", "langSet"):
                continue
            lang = (section.get(XML_LANG) or "").lower()
            if lang and lang not in langs:
                langs.append(lang)
            for term_sec in section:
                if local(term_sec) not in ("termSec", "tig", "ntig"):
                    continue
                text = next(
                    ("".join(e.itertext()).strip() for e in term_sec.iter() if local(e) == "term"),
                    "",
                )
                admin = next(
                    (
                        (e.text or "").strip()
                        for e in term_sec.iter()
                        if local(e) == "termNote" and e.get("type") == "administrativeStatus"
                    ),
                    "preferredTerm-admn-sts",
                )
                if not text:
                    continue
                kind = _ADMIN.get(admin, "admitted")
                bucket = deprecated if kind == "deprecated" else renderings
                forms = bucket.setdefault(lang, [])
                forms.insert(0, text) if kind == "preferred" else forms.append(text)
        term_id = entry.get("id") or slugify(next(iter(renderings.get("en", ())), ""), "term")
        if term_id.startswith("t-") and term_id[2:3].isdigit():
            term_id = term_id[2:]
        if term_id in seen:
            raise InputError(name, f"duplicate term id {term_id!r}", f"line {entry.sourceline}")
        seen.add(term_id)
        term = Term(
            term_id,
            {k: tuple(v) for k, v in renderings.items()},
            {k: tuple(v) for k, v in deprecated.items()},
            note=None if status in REVIEW_STATUSES else note or None,
        )
        buckets[status if status in REVIEW_STATUSES else "terms"].append(term)
    if not any(buckets.values()):
        raise InputError(name, "no term entries (conceptEntry or termEntry) in the TBX file")
    if "en" in langs:
        langs.insert(0, langs.pop(langs.index("en")))
    return Glossary(
        name,
        hashlib.sha256(data_bytes).hexdigest(),
        tuple(langs),
        tuple(buckets["terms"]),
        tuple(buckets["proposed"]),
        tuple(buckets["rejected"]),
    )
