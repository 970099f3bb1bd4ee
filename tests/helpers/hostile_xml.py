"""Hostile and broken XML and zip inputs, built in memory (shared by the tests and the
benchmark). None of them is large on disk: the 1 GiB zip bomb is a 1 MiB file."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"


def gst(body: str = "", doctype: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"{doctype}"
        f'<gameSystem id="x" name="Hostile" revision="1" xmlns="{GST_NS}">\n'
        f"  <sharedRules>{body}</sharedRules>\n"
        "</gameSystem>\n"
    ).encode()


def external_entity(url: str) -> bytes:
    doctype = f'<!DOCTYPE gameSystem [<!ENTITY xxe SYSTEM "{url}">]>\n'
    return gst('<rule name="Leak"><description>&xxe;</description></rule>', doctype)


def billion_laughs(levels: int = 10) -> bytes:
    decls = ['<!ENTITY lol0 "lol">']
    decls += [f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)]
    doctype = "<!DOCTYPE gameSystem [\n" + "\n".join(decls) + "\n]>\n"
    return gst(f'<rule name="Laugh"><description>&lol{levels - 1};</description></rule>', doctype)


def external_dtd(url: str = "http://127.0.0.1:9/evil.dtd") -> bytes:
    return gst(
        '<rule name="R"><description>text</description></rule>', f'<!DOCTYPE x SYSTEM "{url}">\n'
    )


def parameter_entity_subset() -> bytes:
    doctype = '<!DOCTYPE x [<!ENTITY % ext SYSTEM "http://127.0.0.1:9/x.dtd"> %ext;]>\n'
    return gst('<rule name="R"><description>text</description></rule>', doctype)


def _zip_entry(name: bytes, payload: bytes, crc: int, size: int) -> tuple[bytes, bytes]:
    """A local header + data and its central directory record (deflated, no zip64)."""
    local = (
        struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(payload), size, len(name), 0
        )
        + name
        + payload
    )
    central = (
        struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            20,
            20,
            0,
            8,
            0,
            0x21,
            crc,
            len(payload),
            size,
            len(name),
            0,
            0,
            0,
            0,
            0,
            0,
        )
        + name
    )
    return local, central


def _zip(entries: list[tuple[bytes, bytes, int, int]]) -> bytes:
    out = io.BytesIO()
    centrals = []
    for name, payload, crc, size in entries:
        offset = out.tell()
        local, central = _zip_entry(name, payload, crc, size)
        out.write(local)
        centrals.append(central[:42] + struct.pack("<I", offset) + central[46:])
    cd_start = out.tell()
    for c in centrals:
        out.write(c)
    cd_size = out.tell() - cd_start
    out.write(
        struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), cd_size, cd_start, 0)
    )
    return out.getvalue()


def zip_bomb(mib: int = 1024, name: bytes = b"bomb.cat") -> bytes:
    """A real deflate stream of `mib` MiB of spaces in about 1 KiB per MiB: one fully
    flushed 1 MiB block repeated (each block stands alone), honest sizes and CRC."""
    chunk = b" " * (1 << 20)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = comp.compress(chunk) + comp.flush(zlib.Z_FULL_FLUSH)
    tail = comp.flush(zlib.Z_FINISH)
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(chunk, crc)
    return _zip([(name, block * mib + tail, crc, mib << 20)])


def lying_zip(declared: int = 1 << 30) -> bytes:
    """A tiny member whose header declares `declared` bytes uncompressed."""
    data = gst()
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    payload = comp.compress(data) + comp.flush()
    return _zip([(b"small.cat", payload, zlib.crc32(data), declared)])


def many_members(count: int = 5000) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for i in range(count):
            z.writestr(f"m{i}.cat", b"")
    return out.getvalue()


def nested_zip() -> bytes:
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("a.cat", gst())
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("a.cat", inner.getvalue())
    return out.getvalue()


def encrypted_zip() -> bytes:
    """A member flagged as encrypted (traditional PKWARE encryption bit set)."""
    data = zipfile_bytes({"a.cat": gst()})
    # set bit 0 of the general purpose flags in the local header and central directory
    local = data.find(b"PK\x03\x04")
    central = data.find(b"PK\x01\x02")
    raw = bytearray(data)
    raw[local + 6] |= 1
    raw[central + 8] |= 1
    return bytes(raw)


def zipfile_bytes(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()
