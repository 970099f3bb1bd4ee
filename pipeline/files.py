"""Reading user files: bytes to text, and YAML to data, refusing bad input with the file
and the place named on one line (InputError), never a traceback."""

from __future__ import annotations

import codecs
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError

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


def read_bytes(path: Path, what: str = "file") -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(str(path), f"no such {what}") from None
    except OSError as exc:
        raise InputError(str(path), f"cannot read {what}: {exc.strerror}") from None


def read_yaml(path: Path, what: str = "file") -> Any:
    """Safe-load a YAML file; a missing, non-UTF-8 or malformed one is an InputError."""
    return parse_yaml(str(path), read_bytes(path, what))


def parse_yaml(name: str, data: bytes) -> Any:
    try:
        return yaml.safe_load(decode(name, data))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else None
        raise InputError(name, f"not valid YAML: {getattr(exc, 'problem', exc)}", where) from None
