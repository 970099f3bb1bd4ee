"""Ingest: corpus drops to segments with provenance.

Readers are registered by file suffix; a reader turns a file's bytes into blocks, and
this module gives every block its provenance, markup, asides, normalised text, hash and
language. New formats plug in with `@reader(".ext")` and touch nothing else.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..bbcode import find_markup
from ..drops import METADATA, Drop, read_drop
from ..errors import InputError
from ..files import MAX_FILE_BYTES, MAX_TEXT_CHARS, read_bytes, text_too_long
from ..model import Aside, Block, Markup, Segment
from ..normalise import normalise
from .asides import find_asides
from .bilingual import SOURCE_COPY, source_copies
from .chat import FURNITURE
from .langid import Identification, identify, identify_all, settle
from .spans import left_out
from .text import read_text_file
from .walk import Entry, corpus_entries

Reader = Callable[[str, bytes], list[Block]]
READERS: dict[str, Reader] = {}
METADATA_FILES = frozenset({METADATA})
# Why a file of a kind that is read gave no block at all.
_EMPTY = {
    ".pdf": "no text layer (a scan, or only images); not read",
    ".docx": "no paragraph or table with text; not read",
}


def reader(*suffixes: str) -> Callable[[Reader], Reader]:
    """Register a reader for file suffixes (lower case, with the dot)."""

    def register(fn: Reader) -> Reader:
        for suffix in suffixes:
            READERS[suffix] = fn
        return fn

    return register


@reader(".txt", ".text")
def _plain(name: str, data: bytes) -> list[Block]:
    return read_text_file(name, data, markdown=False)


@reader(".md", ".markdown")
def _markdown(name: str, data: bytes) -> list[Block]:
    return read_text_file(name, data, markdown=True)


@dataclass(frozen=True, slots=True)
class InputFile:
    drop: str
    file: str
    sha256: str
    bytes: int
    segments: int
    version: dict[str, str] | None = None  # what the file states of itself (BattleScribe)
    path: Path | None = None  # where it was read: `file` is escaped where its name needs it
    encoding: dict[str, Any] | None = None  # the legacy encoding it was read in, if any


@dataclass(frozen=True, slots=True)
class Skipped:
    drop: str
    file: str
    reason: str


@dataclass(frozen=True, slots=True)
class Ingested:
    segments: tuple[Segment, ...]
    inputs: tuple[InputFile, ...]
    skipped: tuple[Skipped, ...]
    drops: tuple[Drop, ...] = ()


def corpus_files(corpus: Path) -> Iterator[Entry]:
    """Every file of every drop, in a fixed order, with the reason if it is not read."""
    return corpus_entries(corpus)


def make_segment(
    drop: str, file: str, index: int, block: Block, terms: tuple[str, ...] = ()
) -> Segment:
    """Give a block its markup, asides, normalised text, hash and language. The hash is
    of the normalised text with the asides in: two blocks that differ only in an aside
    are not exact copies (a chat message's header is furniture, not an aside, and is out)."""
    return _segment(drop, file, index, block, _normalised(block, terms))


_Read = tuple[tuple[Markup, ...], tuple[Aside, ...], str, str]


def _normalised(block: Block, terms: tuple[str, ...]) -> _Read:
    """A block's markup, asides, normalised text, and the normalised text it is hashed on."""
    raw = block.raw
    markup = find_markup(raw)
    asides = find_asides(raw, terms)
    stated = block.asides  # the reader's own: a chat message's header and quotes
    if block.kind == "paragraph" and block.role is None and (copies := source_copies(raw)):
        stated += tuple(Aside(s, e, SOURCE_COPY) for s, e in copies)
    if stated:  # they come first: a remark found inside one is part of it
        found = [a for a in asides if not any(a.start < b.end and b.start < a.end for b in stated)]
        asides = tuple(sorted((*stated, *found), key=lambda a: a.start))
    removed = left_out(block, markup, asides)
    text = normalise(raw, removed)
    furniture = tuple(a for a in asides if a.reason in FURNITURE)
    hashed = normalise(raw, left_out(block, markup, furniture)) if asides else text
    return markup, asides, text, hashed


def _segment(
    drop: str,
    file: str,
    index: int,
    block: Block,
    read: _Read,
    found: tuple[str, float] | None = None,
) -> Segment:
    """The segment of a block; `found` is its detected language (None: detect it now)."""
    raw = block.raw
    markup, asides, text, hashed = read
    if block.lang_hint is not None:
        found = (block.lang_hint, 1.0)
    elif found is None:
        found = identify(text)
    lang, confidence = found if found else ("und", 0.0)
    return Segment(
        id=f"{drop}/{file}#{index}",
        drop=drop,
        file=file,
        block=index,
        lines=block.lines,
        sha256=hashlib.sha256(hashed.encode("utf-8")).hexdigest(),
        kind=block.kind,
        lang=lang,
        lang_confidence=confidence,
        raw=raw,
        text=text,
        markup=markup,
        asides=asides,
        rows=block.rows,
        role=block.role,
        unit=block.unit,
        name=block.name,
        rule=block.rule,
        sentences=block.sentences,
        page=block.page,
    )


def _inherit_languages(segments: list[Segment]) -> list[Segment]:
    """Blocks too short to identify take the language of their neighbour in the file;
    short blocks the detector is unsure of, the file's main language (langid.settle)."""
    settled = settle(
        [s.text for s in segments],
        [(s.lang, s.lang_confidence) for s in segments],
        [s.kind == "heading" for s in segments],
    )
    segments = [
        s if s.lang == lang else replace(s, lang=lang, lang_confidence=conf)
        for s, (lang, conf) in zip(segments, settled, strict=True)
    ]
    known = [s.lang for s in segments]
    for i, lang in enumerate(known):
        if lang == "und":
            before = next((known[j] for j in range(i - 1, -1, -1) if known[j] != "und"), None)
            after = next((known[j] for j in range(i + 1, len(known)) if known[j] != "und"), None)
            known[i] = before or after or "und"
    return [
        s if s.lang == k else replace(s, lang=k, lang_confidence=0.0)
        for s, k in zip(segments, known, strict=True)
    ]


def read_file(
    drop: str,
    file: str,
    name: str,
    data: bytes,
    lang_hint: str | None = None,
    terms: tuple[str, ...] = (),
) -> tuple[list[Segment], dict[str, str] | None]:
    """A file's segments, and the version it states of itself (a reader puts it in
    `Block.extra["version"]`), if any. `lang_hint` (from drop.yaml) is the language of
    blocks whose reader did not state one; `terms` (the glossary's) are never asides."""
    blocks, read = _blocks(file, name, data, lang_hint, terms)
    return _segments(drop, file, blocks, read, iter(identify_all(_unhinted(blocks, read))))


def _blocks(
    file: str, name: str, data: bytes, lang_hint: str | None, terms: tuple[str, ...]
) -> tuple[list[Block], list[_Read]]:
    """A file's blocks, each with its markup, asides and normalised text (no language yet)."""
    blocks = READERS[Path(file).suffix.lower()](name, data)
    for b in blocks:
        if len(b.raw) > MAX_TEXT_CHARS:  # one block: the text reader cuts, others give units
            raise text_too_long(name, len(b.raw), str(b.lines[0]))
    if lang_hint is not None:
        blocks = [b if b.lang_hint else replace(b, lang_hint=lang_hint) for b in blocks]
    return blocks, [_normalised(b, terms) for b in blocks]


def _unhinted(blocks: list[Block], read: list[_Read]) -> list[str]:
    """Normalised texts of the blocks whose language is to be detected."""
    return [r[2] for b, r in zip(blocks, read, strict=True) if b.lang_hint is None]


def _segments(
    drop: str,
    file: str,
    blocks: list[Block],
    read: list[_Read],
    languages: Iterator[tuple[str, float] | None],
) -> tuple[list[Segment], dict[str, str] | None]:
    """A file's segments, given the detected languages of its unhinted blocks in order
    (`identify_all` of `_unhinted`)."""
    segments = []
    for i, (b, r) in enumerate(zip(blocks, read, strict=True), start=1):
        found = next(languages) if b.lang_hint is None else None
        segments.append(_segment(drop, file, i, b, r, found or ("und", 0.0)))
    version = next((b.extra["version"] for b in blocks if "version" in b.extra), None)
    return _inherit_languages(segments), version


def _encoding(blocks: list[Block]) -> dict[str, Any] | None:
    return next((b.extra["encoding"] for b in blocks if "encoding" in b.extra), None)


def _left_out(blocks: list[Block]) -> str | None:
    """What a reader left out of a file it read (a Word file's tracked deletions), if any."""
    return next((b.extra["left_out"] for b in blocks if "left_out" in b.extra), None)


def ingest_file(drop: str, file: str, name: str, data: bytes) -> list[Segment]:
    return read_file(drop, file, name, data)[0]


def ingest(
    corpus: Path,
    progress: Callable[[int, int], None] | None = None,
    terms: tuple[str, ...] = (),
) -> Ingested:
    """Read every drop of a corpus into segments; raise InputError on bad input.
    `terms` are the glossary's renderings, which an aside never holds."""
    listed = list(corpus_files(corpus))
    metadata = {e.drop: e.path for e in listed if e.file == METADATA and e.refused is None}
    folders = dict.fromkeys(e.drop for e in listed if e.file != ".")
    drops = {d: read_drop(corpus / "drops" / d, metadata.get(d)) for d in folders}
    segments: list[Segment] = []
    inputs: list[InputFile] = []
    skipped: list[Skipped] = []
    # Every file's blocks first, their texts' languages detected meanwhile (by workers on
    # a large corpus, while the next files are read), then the segments.
    pending: list[tuple[str, str, list[Block], list[_Read], str, int, Path]] = []
    identification = Identification()
    try:
        for done, entry in enumerate(listed, start=1):
            drop, file, path = entry.drop, entry.file, entry.path
            name = str(corpus / "drops" / drop / file)
            if entry.refused is not None:
                skipped.append(Skipped(drop, file, entry.refused))
            elif Path(file).name in METADATA_FILES:
                pass
            elif Path(file).name.startswith("."):
                skipped.append(Skipped(drop, file, "hidden file"))
            elif Path(file).suffix.lower() not in READERS:
                suffix = Path(file).suffix
                what = f"{suffix!r} files" if suffix else "files without a suffix"
                reason = f"no reader for {what} (read: {', '.join(sorted(READERS))}); not read"
                skipped.append(Skipped(drop, file, reason))
            else:
                data = read_bytes(path, "file", MAX_FILE_BYTES, follow=False)
                lang = drops[drop].language_of(file)
                blocks, read = _blocks(file, name, data, lang, terms)
                identification.add(_unhinted(blocks, read))
                digest = hashlib.sha256(data).hexdigest()
                pending.append((drop, file, blocks, read, digest, len(data), path))
            if progress:
                progress(done, len(listed))
        languages = iter(identification.results())
    finally:
        identification.cancel()
    for drop, file, blocks, read, digest, size, path in pending:
        if not blocks and Path(file).suffix.lower() in _EMPTY:
            skipped.append(Skipped(drop, file, _EMPTY[Path(file).suffix.lower()]))
            continue
        found, version = _segments(drop, file, blocks, read, languages)
        segments.extend(found)
        if left_out := _left_out(blocks):  # read, but with parts left out: said, not silent
            skipped.append(Skipped(drop, file, left_out))
        encoding = _encoding(blocks)
        inputs.append(InputFile(drop, file, digest, size, len(found), version, path, encoding))
    if not segments:
        first = f"; {skipped[0].drop}/{skipped[0].file}: {skipped[0].reason}" if skipped else ""
        more = f" (and {len(skipped) - 1} more not read)" if len(skipped) > 1 else ""
        raise InputError(str(corpus), f"nothing in the corpus is readable text{first}{more}")
    skipped.sort(key=lambda s: (s.drop, s.file))
    return Ingested(tuple(segments), tuple(inputs), tuple(skipped), tuple(drops.values()))


# Readers of other formats register themselves on import (after `reader` exists).
from . import battlescribe, docx, pdf, po, tmx, xliff  # noqa: E402, F401
