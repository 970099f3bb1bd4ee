"""Plain text and Markdown: paragraphs, headings, pipe tables and list items.

Paragraphs are separated by blank lines, or by a line break after sentence-final
punctuation (drops that put one paragraph on each line). A soft-wrapped line, one that
breaks mid-sentence, continues its paragraph; so does text pasted from a page layout, read
by the page's structure: wrapped lines between blank lines, page furniture left inside a
sentence, a closing quote that ends no sentence (`goes_on`, `furniture_after`). What the
layout put into the words (hyphens at line ends, soft hyphens, running headers) is left out
of the normalised text by `layout_spans`; the raw text keeps it.

No block is longer than `MAX_BLOCK_CHARS`: a longer run of text (a file with no line
breaks, a paragraph that never ends a sentence) is cut at line breaks, sentence ends or
spaces, in that order of preference, so that no stage meets an unbounded string and no
character of the file is lost.

A file that is not UTF-8 (nor UTF-16) is read in the one-byte legacy encoding
charset-normalizer finds (Windows-1251, KOI8-R ...) only when it is sure; the encoding and
the detector's measures go to the manifest, and a file it cannot tell is refused with its
best guesses, never read in a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from ..files import decode
from ..footnotes import carries
from ..model import Block, SegmentKind
from ..sentences import CLOSERS, FULL_STOP, ends_sentence
from .chat import messages

_MD_HEADING = re.compile(r"^(#{1,6})\s+\S")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_PAREN = re.compile(r"\([^()]*\)")
_SENTENCE_END = tuple('.!?:;…)»"”')
MAX_HEADING = 120
MAX_BLOCK_CHARS = 20_000  # the longest rule paragraph of the seeds is under 2,000
_CUT_AT = ("\n", ". ", "! ", "? ", "; ", " ")


def is_caps_heading(line: str) -> bool:
    """A line whose letters outside brackets are all capitals: "УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)"."""
    s = line.strip()
    if len(s) > MAX_HEADING or s.endswith((".", ",", ";", ":")):
        return False
    letters = [c for c in _PAREN.sub("", s) if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _classify(line: str) -> str:
    s = line.strip()
    if not s:
        return "blank"
    if s.startswith("|"):
        return "table"
    if _MD_HEADING.match(s) or is_caps_heading(s) or is_numbered_heading(s) or is_bold_heading(s):
        return "heading"
    if _BULLET.match(line):
        return "bullet"
    return "text"


def split_cells(line: str) -> tuple[str, ...]:
    """Cells of a pipe-table row, trimmed; escaped pipes stay in the cell."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return tuple(c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s))


def table_rows(lines: list[str]) -> tuple[tuple[str, ...], ...]:
    """The cells of every row of a pipe table, the |---| rule lines left out."""
    return tuple(split_cells(line) for line in lines if not _TABLE_RULE.match(line.strip()))


def _cut(text: str, start: int) -> int:
    """Where to end the piece of text from `start`, no longer than MAX_BLOCK_CHARS."""
    limit = start + MAX_BLOCK_CHARS
    for mark in _CUT_AT:
        at = text.rfind(mark, start + MAX_BLOCK_CHARS // 2, limit)
        if at >= 0:
            return at + len(mark)
    if text[limit - 1] == "\r" and text.startswith("\n", limit):
        return limit - 1  # not inside a CRLF, which would count as two line breaks
    return limit


def _breaks(text: str) -> int:
    """Line breaks in text, counted as str.splitlines counts them."""
    return len((text + "x").splitlines()) - 1


def _emit_cut(
    text: str, start: int, end: int, kind: SegmentKind, line: int, blocks: list[Block]
) -> None:
    """Emit an over-long run of text as pieces of at most MAX_BLOCK_CHARS, each an exact
    slice of the file; a table piece that is not whole rows becomes a paragraph."""
    while start < end:
        stop = end if end - start <= MAX_BLOCK_CHARS else _cut(text, start)
        piece = text[start:stop]
        raw = piece.strip()
        if raw:
            lead = len(piece) - len(piece.lstrip())
            first = line + _breaks(piece[:lead])
            last = first + _breaks(raw)
            whole_rows = raw.startswith("|") and (stop == end or text[stop - 1] == "\n")
            if kind == "table" and whole_rows:
                rows = table_rows(raw.split("\n"))
                blocks.append(Block(kind="table", raw=raw, lines=(first, last), rows=rows))
            else:
                piece_kind: SegmentKind = "paragraph" if kind == "table" else kind
                blocks.append(Block(kind=piece_kind, raw=raw, lines=(first, last)))
        line += _breaks(piece)
        start = stop


def read_text(text: str, markdown: bool) -> list[Block]:
    """Split a text file into blocks; each block's raw text is an exact slice of the file."""
    lines = text.splitlines(keepends=True)
    kinds = [_classify(line) for line in lines]
    blocks: list[Block] = []
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def emit(kind: SegmentKind, first: int, last: int, **extra: object) -> None:
        start, end = offsets[first], offsets[last + 1]
        if end - start > MAX_BLOCK_CHARS:
            _emit_cut(text, start, end, kind, first + 1, blocks)
            return
        raw = text[start:end].rstrip("\r\n")
        blocks.append(Block(kind=kind, raw=raw, lines=(first + 1, last + 1), **extra))  # type: ignore[arg-type]

    wrapped = _wrapped(lines, kinds)
    runs = bilingual_runs(lines, kinds)
    chat = {m.first: m for m in messages(lines)}
    i = 0
    n = len(lines)
    while i < n:
        kind = kinds[i]
        if i in chat:  # a chat export's message: one block, its header and quotes asides
            m = chat[i]
            said = {"sender": m.sender, "time": m.stamp}
            emit("paragraph", i, m.last, asides=m.asides, extra=said)
            i = m.last + 1
            continue
        if kind == "blank":
            i += 1
            continue
        if kind == "table":
            j = i
            while j + 1 < n and kinds[j + 1] == "table":
                j += 1
            emit("table", i, j, rows=table_rows(lines[i : j + 1]))
            i = j + 1
            continue
        if kind == "heading":
            emit("heading", i, i)
            i += 1
            continue
        if kind == "bullet":
            in_list = (i > 0 and kinds[i - 1] == "bullet") or (
                i + 1 < n and kinds[i + 1] == "bullet"
            )
            if markdown or in_list:
                j = i
                while j + 1 < n and kinds[j + 1] == "text" and lines[j + 1][:1] in " \t":
                    j += 1  # an indented continuation line
                emit("list-item", i, j)
                i = j + 1
                continue
        if i in runs:  # a paragraph of a translator's bilingual working file
            emit("paragraph", i, runs[i])
            i = runs[i] + 1
            continue
        j = i
        while j + 1 < n:
            if kinds[j + 1] == "text" and (wrapped[j] or goes_on(lines[j], lines[j + 1])):
                j += 1
            elif kinds[j + 1] != "blank" and footnote_of(lines[i : j + 1], lines[j + 1]):
                j += 1  # a translator's footnote, written under the paragraph it explains
            elif skip := furniture_after(lines, j, kinds):
                j += skip + 1  # the paragraph goes on across a page's header or number
            else:
                break
        if not markdown:
            j = clause_run(lines, j, i)
        emit("paragraph", i, j)
        i = j + 1
    return blocks


def bilingual_runs(lines: list[str], kinds: list[str]) -> dict[int, int]:
    """First line -> last line of the paragraphs of a translator's bilingual working file;
    {} when the file is none. Such a file holds a run of text lines between blank lines
    (or the file's start and end, not the whole file) that alternate a source sentence and
    its translation (`bilingual.is_bilingual`): it separates its paragraphs by blank lines
    and breaks lines between the sentences of one paragraph, so each such run of it is one
    paragraph, the ones in one language too (a translation whose source lines were taken
    out). Only blank lines tell where such a paragraph ends: a file with none has no run."""
    from .bilingual import is_bilingual

    found: dict[int, int] = {}
    n = len(lines)
    i = 0
    while i < n:
        if kinds[i] != "text" or (i > 0 and kinds[i - 1] != "blank"):
            i += 1
            continue
        j = i
        while j + 1 < n and kinds[j + 1] == "text":
            j += 1
        if j > i and (j + 1 == n or kinds[j + 1] == "blank") and (i > 0 or j + 1 < n):
            found[i] = j
        i = j + 1
    if not any(is_bilingual(lines[a : b + 1]) for a, b in found.items()):
        return {}
    return found


# A clause's bullet: the marks of `_BULLET` but numbers (a numbered list counts items, as a
# table's results do), and a dash, which opens a clause only after a lead-in.
_CLAUSE_BULLET = re.compile(r"^(\s*)([-*+•—–])\s+\S")


def clause_run(lines: list[str], j: int, first: int = 0) -> int:
    """The last line of the clauses a paragraph's lead-in (line `j`) goes on into, as
    bulleted lines with no blank line between, some nested by indentation, a clause going
    on over an indented line or one in lower case; `j` when there are none. The bullets
    run to the first line that ends a sentence (the last clause), every line before it
    ending in ";", ",", ":" or no punctuation; when a bullet follows that last clause, the
    lines are a list of sentences, not clauses, and stay items of their own. A lead-in
    ending in ":" introduces its clauses; one ending in "." ("... подчиняется следующему.")
    only when the bullets read as clauses of one sentence (`_are_clauses`). A sentence or
    two after the last clause, with no blank line, close the paragraph (`_tail`) when it
    began after a blank line (`first`, its first line)."""
    lead = lines[j].rstrip()
    if j + 1 >= len(lines) or not lead.endswith((":", ".")) or lead.endswith(".."):
        return j
    if not _CLAUSE_BULLET.match(lines[j + 1]) or _classify(lines[j + 1]) in ("heading", "table"):
        return j
    m = j + 1
    while not ends_sentence(lines[m]):
        nxt = lines[m + 1] if m + 1 < len(lines) else ""
        goes = _CLAUSE_BULLET.match(nxt) or nxt[:1] in " \t" or nxt[:1].islower()
        if not nxt.strip() or not goes:
            break
        if _classify(nxt) in ("heading", "table"):
            break
        m += 1
    if m + 1 < len(lines) and _CLAUSE_BULLET.match(lines[m + 1]):
        return j
    if lead.endswith(".") and not _are_clauses(lines[j + 1 : m + 1]):
        return j
    return _tail(lines, m, first)


def _are_clauses(run: list[str]) -> bool:
    """Whether bulleted lines after a sentence are clauses it introduces, not a list: every
    bullet opens in lower case, one or more lines before the last end in ";" or ",", and
    the last ends the sentence ("- объявлять атаки;\n- стрелять.")."""
    for line in run:
        m = _CLAUSE_BULLET.match(line)
        if m and not line[m.end() - 1].islower():
            return False
    ends = [line.rstrip()[-1:] for line in run[:-1]]
    return ends_sentence(run[-1]) and any(e in ";," for e in ends if e)


MAX_TAIL = 3  # lines of text after the last clause that still close its paragraph


def _tail(lines: list[str], m: int, first: int) -> int:
    """The last line of the text that closes a paragraph of clauses whose last clause, line
    `m`, ends the sentence: up to MAX_TAIL lines of text after it, no blank line between,
    that run to a blank line or the end, when the paragraph began after a blank line (or at
    the start; a file that puts one paragraph on each line has its paragraphs on lines next
    to each other). A bullet, a heading, a table or a numbered line ("1–2: ...") there
    keeps it a block of its own, and so does a last item that ends no sentence (a list
    whose items have no punctuation, "• +1 Armour\nThis cannot ..."); `m` when there is no
    such text."""
    if (first > 0 and lines[first - 1].strip()) or not ends_sentence(lines[m]):
        return m
    k = m
    while k + 1 < len(lines) and lines[k + 1].strip():
        nxt = lines[k + 1]
        if k - m >= MAX_TAIL or _CLAUSE_BULLET.match(nxt) or _classify(nxt) != "text":
            return m
        if nxt.lstrip()[:1].isdigit():
            return m
        k += 1
    return k


def clause_marks(raw: str) -> list[tuple[int, int]]:
    """Raw spans of the bullet marks of a paragraph's clauses (`clause_run`): the lines
    after its lead-in, when they run to the end of the block."""
    lines = raw.splitlines(keepends=True)
    offset = 0
    for k, line in enumerate(lines[:-1]):
        offset += len(line)
        last = clause_run(lines, k)
        if last > k and last == len(lines) - 1:
            spans = []
            for rest in lines[k + 1 :]:
                m = _CLAUSE_BULLET.match(rest)
                if m:
                    spans.append((offset + m.start(2), offset + m.end() - 1))
                offset += len(rest)
            return spans
    return []


# A footnote's line opens with its marker: a superscript digit, a number in brackets, or
# asterisks ("¹ ...", "[1] ...", "* ..."); the text it explains carries the same marker
# right after a word or a number ("Магии¹", "Фазу Магии[1]", "заклинания*").
_FOOTNOTE_LINE = re.compile(r"\s*([¹²³⁴⁵⁶⁷⁸⁹]+|\[\d{1,2}\]|\*{1,3})\s+\S")


def footnote_of(paragraph: list[str], line: str) -> bool:
    """Whether `line` is a footnote of the paragraph whose lines are `paragraph`: it opens
    with a marker the paragraph carries attached to a word or a number (`footnotes.carries`:
    not "2*3", a product, nor "* " opening a list of the paragraph's own)."""
    m = _FOOTNOTE_LINE.match(line)
    return m is not None and carries("".join(paragraph), m.group(1))


def goes_on(line: str, nxt: str) -> bool:
    """Whether a paragraph goes on from `line` to the next line `nxt`: the line ends no
    sentence, or it ends in a semicolon or a closing quote or bracket that closes no
    sentence ("с правилом «Бешенство»", no . ! ? … before it) and `nxt` goes on in lower
    case (or, after a closing mark, opens a bracket)."""
    s = line.rstrip()
    if not s.endswith(_SENTENCE_END):
        return True
    head = nxt.lstrip()[:1]
    if s.endswith(";"):
        return head.islower()
    if s[-1] in CLOSERS:
        inner = s.rstrip(CLOSERS)
        return bool(inner) and not inner.endswith(FULL_STOP) and (head.islower() or head == "(")
    return False


_PAGE_NUMBER = re.compile(r"^\s*\d{1,4}\s*$")
MAX_FURNITURE = 2  # a running header and a page number, one line each


def is_furniture(line: str) -> bool:
    """A line shaped like page furniture: a page number alone ("43"), or a short line in
    capitals, as running headers are ("44 ГЛАВА 9. ПОЕДИНКИ", "ПОЕДИНКИ 45")."""
    return _PAGE_NUMBER.match(line) is not None or is_caps_heading(line)


def _ends_no_sentence(line: str) -> bool:
    return not line.rstrip().rstrip(CLOSERS).endswith((*FULL_STOP, ":", ";"))


def furniture_after(lines: list[str], j: int, kinds: list[str] | None = None) -> int:
    """How many lines after line `j` are page furniture left inside a sentence: 1 to
    MAX_FURNITURE furniture-shaped lines between a line that ends no sentence and a line
    of text that goes on in lower case; 0 when there are none."""
    if not _ends_no_sentence(lines[j]):
        return 0
    k = j + 1
    while k < len(lines) and k - j <= MAX_FURNITURE and is_furniture(lines[k]):
        k += 1
    if k == j + 1 or k >= len(lines) or (kinds is not None and kinds[k] != "text"):
        return 0
    return k - j - 1 if lines[k].lstrip()[:1].islower() else 0


def _wrapped(lines: list[str], kinds: list[str]) -> list[bool]:
    """Per line, whether it sits in wrapped text: a run of text lines between blank lines
    (furniture-shaped lines not counted) more of whose line breaks fall inside a sentence
    than after one, as a page's lines do. There a line that ends a sentence does not end
    the paragraph; a file that puts one paragraph on each line has no such run."""
    out = [False] * len(lines)
    i = 0
    while i < len(lines):
        if kinds[i] != "text":
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and (kinds[j + 1] == "text" or is_furniture(lines[j + 1])):
            j += 1
        run = [x for x in lines[i : j + 1] if not is_furniture(x)]
        ends = sum(x.rstrip().endswith(_SENTENCE_END) for x in run[:-1])
        if ends and len(run) - 1 - ends > ends:
            out[i : j + 1] = [True] * (j + 1 - i)
        i = j + 1
    return out


def marker_spans(block: Block) -> list[tuple[int, int]]:
    """Raw spans of Markdown heading marks and list bullets, and of the bullets of a
    paragraph's clauses (`clause_marks`), left out of normalised text."""
    if block.kind == "heading":
        m = re.match(r"^\s*#{1,6}\s+", block.raw)
        return [(0, m.end())] if m else []
    if block.kind == "list-item":
        m = re.match(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+", block.raw)
        return [(0, m.end())] if m else []
    if block.kind == "paragraph" and "\n" in block.raw:
        return clause_marks(block.raw)
    return []


_SOFT_HYPHEN = "\u00ad"
_LINE_END_HYPHEN = re.compile(r"((?:[^\W\d_]|\u00ad)+)([-\u2010\u00ad])[ \t]*\r?\n?$")
# A soft hyphen inside a word: a letter before it, a lower-case letter after it. One between
# digits ("1\u00ad4") or spaces, or before a capital ("Thrice\u00adForged"), stands for a
# hyphen or a dash a converter lost, and stays.
_SOFT_IN_WORD = re.compile(r"(?<=[^\W\d_])\u00ad+(?=[^\W\d_])")
_NEXT_WORD = re.compile(r"[ \t]*((?:[^\W\d_]|\u00ad)+)")


def layout_spans(block: Block) -> list[tuple[int, int]]:
    """Raw spans of a page's layout, left out of normalised text so that it reads as the
    words were written: soft hyphens inside a word; in a paragraph, page furniture left
    inside a sentence (`furniture_after`); in a paragraph or list item, the hyphen and line
    break of a word the layout cut ("со-\\nперника" reads "соперника"), or only the line
    break after a word's own hyphen ("кто-\\nто" reads "кто-то"; `hyphens.keeps_hyphen`).
    Computed from the block alone, as `marker_spans`, so the map to raw can be rebuilt."""
    raw = block.raw
    spans: list[tuple[int, int]] = []
    if _SOFT_HYPHEN in raw:  # most texts have none: no search
        spans = [
            (m.start(), m.end()) for m in _SOFT_IN_WORD.finditer(raw) if raw[m.end()].islower()
        ]
    if block.kind not in ("paragraph", "list-item") or "\n" not in raw:
        return spans
    from .hyphens import keeps_hyphen

    lines = raw.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    j = 0
    while j + 1 < len(lines):
        skip = furniture_after(lines, j) if block.kind == "paragraph" else 0
        nxt = j + 1 + skip
        if skip:
            spans.append((offsets[j + 1], offsets[nxt]))
        cut = _LINE_END_HYPHEN.search(lines[j])
        word = _NEXT_WORD.match(lines[nxt]) if cut and nxt < len(lines) else None
        if cut and word:
            left = cut.group(1).replace(_SOFT_HYPHEN, "")
            right = word.group(1).replace(_SOFT_HYPHEN, "")
            keep: bool | None
            if cut.group(2) == _SOFT_HYPHEN:  # the layout's own; before a capital, a lost dash
                keep = False if right[0].islower() else None
            else:
                keep = keeps_hyphen(left, right)
            if keep is not None:
                hyphen = offsets[j] + cut.start(2)
                spans.append((hyphen + 1 if keep else hyphen, offsets[nxt] + word.start(1)))
        j = nxt
    return spans


_NUMBERED_HEADING = re.compile(r"^\s*(\d{1,3}(?:\.\d{1,3})+)\.?\s+\S")
_BOLD_LINE = re.compile(r"^\s*(?:\[b\][^\[\]]{1,120}\[/b\]|\*\*[^*]{1,120}\*\*)\s*:?\s*$", re.I)


def is_numbered_heading(line: str) -> bool:
    """A short line opened by a section number with a dot ("2.1 Movement", "3.2.1. Charges")."""
    s = line.strip()
    return (
        len(s) <= MAX_HEADING
        and _NUMBERED_HEADING.match(s) is not None
        and not s.endswith((".", ",", ";"))
    )


def is_bold_heading(line: str) -> bool:
    """A line that is nothing but a bold label: "[b]Fear[/b]", "**Loose Mounts**"."""
    return _BOLD_LINE.match(line) is not None


def heading_level(raw: str) -> int:
    """How deep a heading sits: Markdown marks count (`##` is 2), a section number its
    parts ("2.1" is 2); a heading in capitals is a chapter (1); a bold label line sits
    under every other kind (7), so that it never closes a numbered or Markdown section."""
    s = raw.strip()
    m = _MD_HEADING.match(s)
    if m:
        return len(m.group(1))
    m = _NUMBERED_HEADING.match(s)
    if m:
        return m.group(1).count(".") + 1
    if is_bold_heading(s):
        return 7
    return 1


# Legacy encodings: what a file that is not UTF-8 was saved in, told by charset-normalizer
# (how well the bytes decode into text of one language), and taken only when it is sure.
MIN_ENCODING_CONFIDENCE = 0.5
_ONE_BYTE = frozenset(
    {
        "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1257", "koi8_r", "koi8_u",
        "cp866", "cp855", "mac_cyrillic", "iso8859_5", "latin_1", "iso8859_2", "iso8859_15",
        "mac_roman", "cp437", "cp850",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Encoding:
    """A legacy encoding as detected: its codec name, charset-normalizer's measures of the
    decoded text (chaos: the share of it that looks like noise; coherence: how well its
    letters fit one language) and the confidence taken from them, coherence x (1 - chaos)."""

    name: str
    confidence: float
    chaos: float
    coherence: float
    language: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "confidence": self.confidence,
            "chaos": self.chaos,
            "coherence": self.coherence,
            "language": self.language,
        }


def detect_encoding(data: bytes) -> tuple[Encoding | None, str]:
    """The one-byte encoding `data` is in, if the detector is sure of it (confidence at
    least MIN_ENCODING_CONFIDENCE, and no other encoding that reads the bytes as other
    letters is as likely); else None and why, naming the best guesses."""
    from charset_normalizer import from_bytes

    found = []
    for match in from_bytes(data, cp_isolation=sorted(_ONE_BYTE)):
        confidence = round(match.coherence * (1 - match.chaos), 3)
        found.append((confidence, match))
    found.sort(key=lambda f: (-f[0], f[1].encoding))
    if not found:
        return None, ", and no one-byte encoding reads it as text"
    best_conf, best = found[0]
    guesses = ", ".join(f"{m.encoding} {c:.2f}" for c, m in found[:3])
    if best_conf < MIN_ENCODING_CONFIDENCE:
        return None, (
            f", and its encoding cannot be told for sure (best guesses: {guesses}; needs"
            f" {MIN_ENCODING_CONFIDENCE})"
        )
    text = data.decode(best.encoding)
    rivals = [m for c, m in found[1:] if c >= best_conf - 0.1 and data.decode(m.encoding) != text]
    if rivals:
        return None, f", and its encoding cannot be told for sure ({guesses} read it differently)"
    return Encoding(
        best.encoding,
        best_conf,
        round(best.chaos, 3),
        round(best.coherence, 3),
        str(best.language),
    ), ""


def decode_text(name: str, data: bytes) -> tuple[str, Encoding | None]:
    """A text file's text (files.decode), and the legacy encoding it was read in, when it
    was not UTF-8 or UTF-16 and the detector was sure."""
    found: list[Encoding] = []

    def legacy(raw: bytes) -> tuple[str | None, str]:
        encoding, why = detect_encoding(raw)
        if encoding is None:
            return None, why
        found.append(encoding)
        return raw.decode(encoding.name), ""

    text = decode(name, data, legacy)
    return text, (found[0] if found else None)


def read_text_file(name: str, data: bytes, markdown: bool) -> list[Block]:
    """A text or Markdown file's blocks; the first carries the legacy encoding it was read
    in (`extra["encoding"]`), for the manifest."""
    text, encoding = decode_text(name, data)
    blocks = read_text(text, markdown)
    if encoding is not None and blocks:
        first = blocks[0]
        blocks[0] = replace(first, extra={**first.extra, "encoding": encoding.to_json()})
    return blocks
