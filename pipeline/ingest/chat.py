"""A chat export read as messages: each message one block, its header line page furniture.

Teams discuss and share translations in chats and hand over the export: every message
under a header line (a time stamp and a sender: Telegram's "[12.03.2026 21:14] Оля:",
WhatsApp's "12.03.2026, 21:14 - Оля: text" with the text on the same line, Discord's
"Оля — 12.03.2026 21:14"), some opening with a quoted line ("> ...") of an earlier
message. Read as prose, a header ending in ":" and a quoted line ending in "." become
paragraphs of their own, and no message is one block.

A file is a chat by its structure, never by its words: at least `MIN_MESSAGES` lines of one
header shape and at most `MAX_PREAMBLE` lines of text before the first (a title, an export
notice); their time order is not asked for (messages copied out of order are still a chat).
A file with a line that merely holds a time ("10:30 the gates open:", "[Note]:") is no chat.
A message runs from its header to the next; its
header and its quoted lines are asides of the block (`chat-header`, `quotation`): kept in
the raw text with their spans, left out of the normalised text, so a quotation of another
message is never read as this one's translation. The header is furniture, also left out of
the hash (two messages that say the same are exact copies); a quotation counts in it, as
any aside does.

A sentence split over two messages is one message: when a sender's message ends no
sentence and their next one, within `JOIN_MINUTES`, goes on in lower case ("... до 4;" /
"каждая ...") the two are one block, both headers furniture.

A message may open with a remark before the translation it shares ("дальше мой: Захождение
назад: ...", "похожее у колесниц. Колесницы и манёвры: ..."): a few words in lower case up
to a colon or a full stop, then a capital. A translation opens as its rule does, with a
capital; the remark is an aside of the block (`chat-remark`), kept in the raw text and the
hash, left out of the normalised text as a quotation is: it is not what the translation
says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from ..model import CHAT_HEADER, CHAT_REMARK, QUOTATION, Aside
from ..sentences import ends_sentence

MIN_MESSAGES = 3  # header lines of one shape that make a file a chat
MAX_PREAMBLE = 3  # lines of text a chat export may have before its first message
JOIN_MINUTES = 2  # a sender's two messages this close may be one split sentence
MAX_REMARK_WORDS = 4  # a remark opening a message before its translation is this short
HEADER = CHAT_HEADER
FURNITURE = frozenset({HEADER})  # asides left out of the hash too

_DATE = r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}"
_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?"
# A sender: a short name, no colon, bracket or line break, with a letter in it.
_SENDER = r"(?=[^:\[\]\n]*[^\W\d_])[^\s:\[\]][^:\[\]\n]{0,39}?"
_REST = r":(?:[ \t]+(?P<rest>\S.*))?$"  # the colon after the sender, text on the line
# Each shape: its name and its pattern; `stamp`, `sender` and the text after the header on
# the same line (`rest`), if any.
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    # Telegram, IRC: "[12.03.2026 21:14] Оля:" (the text may follow on the line)
    (
        "bracketed",
        re.compile(rf"^\[(?P<stamp>(?:{_DATE},?\s+)?{_TIME})\]\s+(?P<sender>{_SENDER}){_REST}"),
    ),
    # WhatsApp: "12.03.2026, 21:14 - Оля: text", "[12.03.26, 21:14:05] Оля: text"
    (
        "dated",
        re.compile(
            rf"^\[?(?P<stamp>{_DATE},?\s+{_TIME})\]?\s+(?:[-–—]\s+)?(?P<sender>{_SENDER}){_REST}"
        ),
    ),
    # Discord: "Оля — 12.03.2026 21:14"; Telegram Desktop: "Оля, [12.03.2026 21:14]"
    (
        "signed",
        re.compile(
            rf"^(?P<sender>{_SENDER})(?:\s+[—–-]\s+|,\s+\[)(?P<stamp>{_DATE},?\s+{_TIME})\]?$"
        ),
    ),
)
_CLOCK = re.compile(r"\d:\d\d")
_STAMP_WITHIN = 80  # every shape has its time this near the line's start
_QUOTE = re.compile(r"^>(?:[ \t]|$)")
# lower-case words up to a colon or a full stop, then a capital (checked by `_remark`)
_REMARK = re.compile(r"[ \t]*(?P<remark>[^\W\d_][^.:!?…\n]*?[.:])[ \t]+(?P<next>[^\W\d_])")


@dataclass(frozen=True, slots=True)
class Header:
    """A header line: its shape, stamp and sender, and where its text starts on the line
    (the line's length when the text is on the lines below)."""

    shape: str
    stamp: str
    sender: str
    end: int


@dataclass(frozen=True, slots=True)
class Message:
    """A message: its first and last line (0-based, inclusive), its header, its asides."""

    first: int
    last: int
    sender: str
    stamp: str
    asides: tuple[Aside, ...]


def header(line: str) -> Header | None:
    """The header a line is, if it has a header's shape."""
    s = line.rstrip("\r\n")
    if not s[:1].strip() or ":" not in s or _CLOCK.search(s, 0, _STAMP_WITHIN) is None:
        return None  # most lines: no time near their start, no pattern tried
    for shape, pattern in _SHAPES:
        m = pattern.match(s)
        if m:
            rest = m.groupdict().get("rest")
            end = m.start("rest") if rest else len(s)
            return Header(shape, m.group("stamp"), m.group("sender").strip(), end)
    return None


def _when(stamp: str) -> datetime | None:
    """A stamp's time, when its date reads day first or year first (else None)."""
    s = re.sub(r"\s+", " ", stamp.replace(",", " ")).strip().upper().replace(".M.", "M")
    for form in (
        "%d.%m.%Y %H:%M", "%d.%m.%Y %H:%M:%S", "%d.%m.%y %H:%M", "%d.%m.%y %H:%M:%S",
        "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%d/%m/%Y %H:%M", "%d/%m/%y %H:%M",
        "%m/%d/%y %I:%M %p", "%m/%d/%Y %I:%M %p", "%m/%d/%y %I:%M%p", "%H:%M", "%H:%M:%S",
    ):  # fmt: skip
        try:
            return datetime.strptime(s, form)
        except ValueError:
            continue
    return None


def messages(lines: list[str]) -> list[Message]:
    """The messages of a text's lines when the text is a chat export; [] when it is not."""
    found = [(i, h) for i, line in enumerate(lines) if (h := header(line)) is not None]
    if len(found) < MIN_MESSAGES:
        return []
    shape = max({h.shape for _, h in found}, key=lambda s: sum(h.shape == s for _, h in found))
    found = [(i, h) for i, h in found if h.shape == shape]
    first = found[0][0]
    preamble = sum(1 for line in lines[:first] if line.strip())
    if len(found) < MIN_MESSAGES or preamble > MAX_PREAMBLE:
        return []
    out: list[Message] = []
    for k, (i, h) in enumerate(found):
        last = found[k + 1][0] - 1 if k + 1 < len(found) else len(lines) - 1
        while last > i and not lines[last].strip():
            last -= 1
        out.append(Message(i, last, h.sender, h.stamp, _asides(lines, i, last, h)))
    return [_with_remark(lines, m) for m in _join_split(lines, out)]


def _remark(line: str) -> tuple[int, int] | None:
    """The span of a remark opening a message's first line of its own text: at most
    `MAX_REMARK_WORDS` words starting in lower case, up to a colon or a full stop, then a
    capital; the span takes the space after it (what is left opens with the capital). A
    translation opens with a capital; so does a rule's "Name: text", whose name a remark
    in lower case cannot be."""
    m = _REMARK.match(line)
    if m is None or not m["remark"][0].islower() or not m["next"].isupper():
        return None
    if len(m["remark"].split()) > MAX_REMARK_WORDS:
        return None
    return m.start("remark"), m.start("next")  # the space after it too


def _with_remark(lines: list[str], m: Message) -> Message:
    """`m` with a remark opening its own text (`_remark`) as an aside."""
    head = header(lines[m.first])
    start = head.end if head is not None else 0
    at = 0  # offset of each line in the message's raw text
    for k, line in enumerate(lines[m.first : m.last + 1]):
        text = line[start:] if k == 0 else line
        if text.strip() and not _QUOTE.match(text):
            span = _remark(text.rstrip("\r\n"))
            if span is None:
                return m
            skip = at + (start if k == 0 else 0)
            found = Aside(skip + span[0], skip + span[1], CHAT_REMARK)
            return Message(m.first, m.last, m.sender, m.stamp, (*m.asides, found))
        at += len(line)
    return m


def _asides(lines: list[str], first: int, last: int, head: Header) -> tuple[Aside, ...]:
    """A message's header and quoted lines as asides, spans into the message's raw text
    (its lines joined, the last without its line break)."""
    found = [Aside(0, head.end, HEADER)]
    offset = len(lines[first])
    for line in lines[first + 1 : last + 1]:
        if _QUOTE.match(line):
            found.append(Aside(offset, offset + len(line.rstrip("\r\n")), QUOTATION))
        offset += len(line)
    return tuple(found)


def _text_lines(lines: list[str], m: Message) -> list[str]:
    """A message's lines of its own text: not its header, quotes or blank lines."""
    head = header(lines[m.first])
    end = head.end if head is not None else 0
    own = [lines[m.first][end:]]
    own += lines[m.first + 1 : m.last + 1]
    return [x for x in own if x.strip() and not _QUOTE.match(x)]


def _goes_on(before: Message, after: Message, lines: list[str]) -> bool:
    """Whether `after` goes on with the sentence `before` left open: one sender, within
    JOIN_MINUTES, `before` ending no sentence and `after` opening in lower case."""
    if before.sender != after.sender:
        return False
    t0, t1 = _when(before.stamp), _when(after.stamp)
    if t0 is None or t1 is None or (t1 - t0).total_seconds() > JOIN_MINUTES * 60:
        return False
    mine, theirs = _text_lines(lines, before), _text_lines(lines, after)
    if not mine or not theirs:
        return False
    if ends_sentence(mine[-1]):
        return False
    return theirs[0].lstrip()[:1].islower()


def _join_split(lines: list[str], found: list[Message]) -> list[Message]:
    """Messages with a sentence split over two of them joined into one."""
    out: list[Message] = []
    for m in found:
        if out and _goes_on(out[-1], m, lines):
            prev = out[-1]
            shift = sum(len(x) for x in lines[prev.first : m.first])
            moved = tuple(Aside(a.start + shift, a.end + shift, a.reason) for a in m.asides)
            out[-1] = Message(prev.first, m.last, prev.sender, prev.stamp, prev.asides + moved)
        else:
            out.append(m)
    return out
