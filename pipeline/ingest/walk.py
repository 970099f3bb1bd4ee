"""The files of a corpus: what is read, and what is refused with the reason.

Only regular files inside the corpus folder are read. The walk never follows a symbolic
link to a folder (a drop linked to `/` would walk the whole file system) and follows a link
to a file only when the file it names is inside the corpus; a link out of the corpus, a
dangling link, a FIFO (reading it would wait), a socket or a device is listed with the
reason instead, so the manifest says what was left out.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..files import file_kind, safe_name


@dataclass(frozen=True, slots=True)
class Entry:
    """A file of a drop: `path` is what to open (a link's target inside the corpus),
    `refused` why it is not read, if it is not."""

    drop: str
    file: str
    path: Path
    refused: str | None = None


def _inside(path: str, root: str) -> bool:
    return os.path.commonpath([path, root]) == root


def _link(drop: str, file: str, path: Path, root: str) -> Entry:
    """A symbolic link: its target if that is a regular file inside the corpus."""
    try:
        shown = safe_name(os.readlink(path))
    except OSError:
        shown = "?"
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return Entry(drop, file, path, f"dangling symbolic link (-> {shown})")
    if not _inside(target, root):
        return Entry(
            drop, file, path, f"symbolic link out of the corpus (-> {shown}); not followed"
        )
    if stat.S_ISDIR(mode):
        return Entry(drop, file, path, f"symbolic link to a folder (-> {shown}); not followed")
    if not stat.S_ISREG(mode):
        return Entry(drop, file, path, f"symbolic link to {file_kind(mode)}; not read")
    return Entry(drop, file, Path(target))


def _walk(drop: str, folder: Path, prefix: str, root: str) -> Iterator[Entry]:
    try:
        names = os.listdir(folder)
    except OSError as exc:
        raise InputError(str(folder), f"cannot list folder: {exc.strerror}") from None
    for name in names:
        path = folder / name
        file = prefix + safe_name(name)
        try:
            mode = os.lstat(path).st_mode
        except OSError as exc:
            yield Entry(drop, file, path, f"cannot read: {exc.strerror}")
            continue
        if stat.S_ISDIR(mode):
            yield from _walk(drop, path, file + "/", root)
        elif stat.S_ISREG(mode):
            yield Entry(drop, file, path)
        elif stat.S_ISLNK(mode):
            yield _link(drop, file, path, root)
        else:
            yield Entry(drop, file, path, f"{file_kind(mode)}, not a regular file; not read")


def corpus_entries(corpus: Path) -> Iterator[Entry]:
    """Every file of every drop, in a fixed order (drop, then path inside the drop);
    a drop folder that is a symbolic link is one refused entry (file `.`)."""
    if not corpus.is_dir():
        raise InputError(str(corpus), "corpus folder not found")
    root = os.path.realpath(corpus)
    drops_dir = corpus / "drops"
    if not drops_dir.is_dir():
        raise InputError(str(corpus), "no drops/ folder in the corpus (expected drops/<drop>/...)")
    if not _inside(os.path.realpath(drops_dir), root):
        raise InputError(str(drops_dir), "drops/ is a symbolic link out of the corpus; refused")
    drops = sorted(
        p
        for p in drops_dir.iterdir()
        if not p.name.startswith(".") and (p.is_symlink() or p.is_dir())
    )
    if not drops:
        raise InputError(str(drops_dir), "no drop folders")
    for drop in drops:
        if drop.is_symlink():
            shown = safe_name(os.readlink(drop))
            yield Entry(
                safe_name(drop.name),
                ".",
                drop,
                f"drop folder is a symbolic link (-> {shown}); not followed",
            )
            continue
        if safe_name(drop.name) != drop.name:  # the drop's name is in every id: it must be text
            yield Entry(
                safe_name(drop.name),
                ".",
                drop,
                "drop folder name is not printable UTF-8 text; not read (rename the folder)",
            )
            continue
        entries = sorted(_walk(drop.name, drop, "", root), key=lambda e: e.file)
        if not entries:
            raise InputError(str(drop), "empty drop: no files")
        yield from entries
