"""Bytes to text, refusing what is not text with the file and byte offset named."""

from __future__ import annotations

import codecs

from ..errors import InputError

MAX_FILE_BYTES = 512 * 1024 * 1024


def decode(name: str, data: bytes) -> str:
    """Decode UTF-8 (with or without BOM) or BOM-marked UTF-16; refuse binary data."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(name, f"not valid UTF-16: {exc.reason}", f"byte {exc.start}") from None
        return _refuse_nul(name, text)
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(
            name, "binary file or unmarked UTF-16 (NUL byte); save it as UTF-8", _where(line, nul)
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            name, f"not UTF-8 ({exc.reason}); save it as UTF-8", _where(line, exc.start)
        ) from None
    return text


def _refuse_nul(name: str, text: str) -> str:
    nul = text.find("\x00")
    if nul >= 0:
        raise InputError(name, "NUL character in text", _where(text.count("\n", 0, nul) + 1, nul))
    return text


def _where(line: int, byte: int) -> str:
    return f"{line} (byte {byte})"
