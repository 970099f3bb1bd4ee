"""Writing an export: all of it or nothing (temporary file in the target folder, then rename)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from ..errors import InputError


def write_text(text: str, path: Path | None) -> None:
    """Print to stdout when `path` is None; otherwise replace `path` in one rename."""
    if path is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    if path.is_dir():
        raise InputError(str(path), "is a folder; give a file name to -o")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(str(path), "the folder to write into does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
