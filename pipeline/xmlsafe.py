"""The one way user XML and zip archives are opened: hardened, bounded, refusing on one line.

Every XML read goes through `parse_xml`. The lxml parser never resolves entities, never
touches the network, never loads a DTD and keeps libxml2's size limits (huge_tree off).
Before parsing, the bytes are checked against a size limit and scanned for a DOCTYPE: one
with an internal subset (entity declarations, the billion-laughs and external-entity
attacks) or pointing at a URL or absolute path (an external subset) is refused outright,
and any entity reference left in the tree is refused after parsing. A bare DOCTYPE naming a
local DTD file (`<!DOCTYPE tmx SYSTEM "tmx14.dtd">`, as TMX tools write) is accepted; the
DTD is never read. libxml2 still opens a relative external subset when `collect_ids` is off
(a `../../etc/passwd` or `/dev/stdin` would be read or waited on), so every parser carries a
resolver that answers any external identifier with an empty document: nothing named in a
document is ever opened.

`read_zip` opens a zipped file (`.catz`, `.gstz`) by its central directory: member count,
encryption, nesting, compression method, the declared uncompressed sizes and ratios are
checked before anything is expanded, and expansion stops at the declared size and a total
cap, so a zip bomb costs what its header costs.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from dataclasses import dataclass

from lxml import etree

from .errors import InputError

MAX_XML_BYTES = 64 * 1024 * 1024
MAX_ZIP_MEMBERS = 16
MAX_ZIP_RATIO = 100  # uncompressed / compressed, for members above RATIO_FLOOR bytes
RATIO_FLOOR = 1024 * 1024
_CHUNK = 1024 * 1024
#: xml:lang and xml:space, as lxml names attributes of the XML namespace
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_NESTED = (".zip", ".gstz", ".catz", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".jar")
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")

_DOCTYPE = re.compile(
    rb"<!DOCTYPE\s+[^\s\[>]+"
    rb"(?:\s+(?:SYSTEM\s+(?P<sys>\"[^\"]*\"|'[^']*')"
    rb"|PUBLIC\s+(?:\"[^\"]*\"|'[^']*')\s+(?P<pubsys>\"[^\"]*\"|'[^']*')))?"
    rb"\s*(?P<end>[\[>])?"
)
_URL = re.compile(rb"^(?:[A-Za-z][A-Za-z0-9+.-]*:|/|\\|[A-Za-z]:[\\/])")


class _NothingResolver(etree.Resolver):
    """Answers every external identifier (DTD, entity) with an empty document, so libxml2
    opens no file and no URL whatever the document names."""

    def resolve(self, system_url: str, public_id: str, context: object) -> object:
        return self.resolve_string("", context)


def _parser() -> etree.XMLParser:
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,
        recover=False,
    )
    parser.resolvers.add(_NothingResolver())
    return parser


def _scan_bytes(data: bytes) -> bytes:
    """The document as bytes in which markup is ASCII: as is for every ASCII-compatible
    encoding (UTF-8, the ISO and Windows code pages), re-encoded from UTF-16 and UTF-32."""
    head = data[:4]
    if head in (b"\xff\xfe\x00\x00", b"<\x00\x00\x00"):
        return data.decode("utf-32-le", errors="replace").encode("utf-8")
    if head in (b"\x00\x00\xfe\xff", b"\x00\x00\x00<"):
        return data.decode("utf-32-be", errors="replace").encode("utf-8")
    if head.startswith((b"\xff\xfe", b"<\x00")):
        return data.decode("utf-16-le", errors="replace").encode("utf-8")
    if head.startswith((b"\xfe\xff", b"\x00<")):
        return data.decode("utf-16-be", errors="replace").encode("utf-8")
    return data


def _line_of(text: bytes, offset: int) -> str:
    line = text.count(b"\n", 0, offset) + 1
    col = offset - (text.rfind(b"\n", 0, offset) + 1) + 1
    return f"{line}:{col}"


def check_prolog(name: str, data: bytes) -> None:
    """Refuse entity declarations and DTDs that point outside the file, before parsing."""
    text = _scan_bytes(data)
    entity = text.find(b"<!ENTITY")
    if entity >= 0:
        raise InputError(
            name,
            "XML entity declaration refused (entity expansion and external entities"
            " are not allowed)",
            _line_of(text, entity),
        )
    start = text.find(b"<!DOCTYPE")
    while start >= 0:
        m = _DOCTYPE.match(text, start)
        where = _line_of(text, start)
        if m is None or m.group("end") is None:
            raise InputError(name, "malformed or unsupported DOCTYPE refused", where)
        if m.group("end") == b"[":
            raise InputError(name, "DOCTYPE with an internal DTD subset refused", where)
        system = (m.group("sys") or m.group("pubsys") or b"  ")[1:-1].strip()
        if system and _URL.match(system):
            shown = system[:80].decode("utf-8", errors="replace")
            raise InputError(name, f"DOCTYPE points at an external DTD ({shown}); refused", where)
        start = text.find(b"<!DOCTYPE", start + 1)


def parse_xml(name: str, data: bytes, max_bytes: int = MAX_XML_BYTES) -> etree._Element:
    """Parse user XML safely and return its root element; InputError on anything hostile
    or malformed (with line and column)."""
    if len(data) > max_bytes:
        raise InputError(name, f"XML file too large ({len(data)} bytes; limit {max_bytes})")
    if not data.strip():
        raise InputError(name, "empty XML file")
    check_prolog(name, data)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, col = exc.position if exc.position else (exc.lineno, 0)
        msg = re.sub(r",? line \d+, column \d+$", "", str(exc.msg or exc)).strip()
        msg = " ".join(msg.split())
        raise InputError(name, f"malformed XML: {msg}", f"{line}:{col}") from None
    except (ValueError, LookupError) as exc:  # an encoding lxml cannot decode
        raise InputError(name, f"cannot read XML: {' '.join(str(exc).split())}") from None
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and (any(True for _ in dtd.iterentities()) or any(dtd.iterelements())):
        raise InputError(name, "DOCTYPE with an internal DTD subset refused")
    if docinfo.system_url and _URL.match(docinfo.system_url.encode("utf-8")):
        raise InputError(name, f"DOCTYPE points at an external DTD ({docinfo.system_url[:80]})")
    for entity in root.iter(etree.Entity):
        raise InputError(
            name, f"entity reference {entity.text} refused", f"{entity.sourceline or 0}"
        )
    return root


def local(element: etree._Element) -> str:
    """An element's name without its namespace (`{uri}name` is how lxml writes a tag: read
    with string methods, a third of the time of an `etree.QName`, for every element of a
    BattleScribe file, a tenth of the ingest's time)."""
    tag = element.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def line_span(element: etree._Element) -> tuple[int, int]:
    """First and last line of an element (its start tag to the end of its text)."""
    first = element.sourceline or 0
    newlines = sum(t.count("\n") for t in element.itertext())
    return first, first + newlines


@dataclass(frozen=True, slots=True)
class ZipMember:
    name: str
    data: bytes


def _central_directory(name: str, data: bytes, max_members: int) -> None:
    """Check the end-of-central-directory record (member count, directory size) before
    zipfile builds an object per member."""
    eocd = data.rfind(b"PK\x05\x06", max(0, len(data) - 65557))
    if eocd < 0 or len(data) - eocd < 22:
        raise InputError(name, "not a zip archive (no end of central directory)")
    _, _, _, entries, cd_size, _, _ = struct.unpack("<HHHHIIH", data[eocd + 4 : eocd + 22])
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF:
        raise InputError(name, "zip64 archive refused (too many or too large members)")
    if entries > max_members:
        raise InputError(name, f"zip archive has {entries} members; at most {max_members}")
    if cd_size > 1024 * max(1, max_members):
        raise InputError(name, f"zip central directory too large ({cd_size} bytes)")


def read_zip(
    name: str,
    data: bytes,
    max_members: int = MAX_ZIP_MEMBERS,
    max_bytes: int = MAX_XML_BYTES,
    max_ratio: int = MAX_ZIP_RATIO,
) -> list[ZipMember]:
    """Expand a zip archive's file members, refusing bombs, nesting and encryption."""
    _central_directory(name, data, max_members)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, struct.error) as exc:
        raise InputError(name, f"not a valid zip archive: {exc}") from None
    members = [i for i in archive.infolist() if not i.is_dir()]
    if len(members) > max_members:
        raise InputError(name, f"zip archive has {len(members)} members; at most {max_members}")
    total = 0
    for info in members:
        where = info.filename
        if info.flag_bits & 0x1:
            raise InputError(name, f"encrypted zip member {where!r} refused")
        if info.filename.lower().endswith(_NESTED):
            raise InputError(name, f"nested archive {where!r} refused")
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise InputError(
                name,
                f"zip member {where!r} uses compression method {info.compress_type}; "
                "only stored or deflated members are read",
            )
        if info.file_size > max_bytes:
            raise InputError(
                name,
                f"zip member {where!r} declares {info.file_size} bytes uncompressed "
                f"(limit {max_bytes}); refused as a zip bomb",
            )
        ratio = info.file_size / max(1, info.compress_size)
        if info.file_size > RATIO_FLOOR and ratio > max_ratio:
            raise InputError(
                name,
                f"zip member {where!r} expands {ratio:.0f} times (limit {max_ratio}); "
                "refused as a zip bomb",
            )
        total += info.file_size
        if total > max_bytes:
            raise InputError(
                name, f"zip members declare {total}+ bytes in all (limit {max_bytes}); refused"
            )
    out: list[ZipMember] = []
    for info in members:
        out.append(ZipMember(info.filename, _expand(name, archive, info)))
    return out


def _expand(name: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """Read one member in chunks, never past its declared size."""
    chunks: list[bytes] = []
    got = 0
    try:
        with archive.open(info) as stream:
            while True:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                if got > info.file_size:
                    raise InputError(name, f"zip member {info.filename!r} exceeds its size")
                chunks.append(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, zlib.error) as exc:
        raise InputError(name, f"corrupt zip member {info.filename!r}: {exc}") from None
    except RuntimeError as exc:  # zipfile's "password required" and similar
        raise InputError(name, f"unreadable zip member {info.filename!r}: {exc}") from None
    body = b"".join(chunks)
    if body.startswith(_ZIP_MAGIC):
        raise InputError(name, f"nested archive {info.filename!r} refused")
    return body
