"""Emit: every file validated against schemas/ before it is written, all of a build
written to a temporary folder and moved into place, so a crash never leaves half an
output and a second build at the same time is refused instead of interleaved.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO

import orjson
import yaml

from .build_folder import BUILD
from .errors import InputError
from .files import (
    Inventory,
    environment_error,
    folder_output,
    name_unnamed,
    unnamed_file,
    write_all,
)
from .parallel import map_in_order
from .schemas import SchemaViolation, validate, validator
from .yamltext import WIDTH, block_yaml

#: orjson's options for json.dumps's compact and indent=2 texts; dataclasses and datetimes,
#: which json.dumps refuses, go to its `default` (none: TypeError) instead of being written.
#: orjson writes json.dumps's text for every value a build holds: strings, integers, string
#: keys, and floats that their makers round to at most four places (scores, shares,
#: confidences), so none is below 1e-4. A float below 1e-4 or from 1e16 up would differ in
#: form (orjson 1e-5, json.dumps 1e-05), and NaN would be null.
_PLAIN = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
_INDENT = _PLAIN | orjson.OPT_INDENT_2


def _json(obj: Any, option: int) -> bytes:
    """orjson's text, or json.dumps's for what orjson refuses (an integer past 64 bits, a
    key that is not a string; json.dumps raises on what JSON cannot hold)."""
    try:
        return orjson.dumps(obj, option=option)
    except orjson.JSONEncodeError:
        if option & orjson.OPT_INDENT_2:
            return json.dumps(obj, ensure_ascii=False, indent=2).encode("utf-8")
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def dump_json(obj: Any) -> str:
    """`obj` as indented JSON (`json.dumps(obj, ensure_ascii=False, indent=2)`) and a
    newline; json.dumps's text where orjson refuses the value (a lone surrogate too, which
    no UTF-8 bytes can hold)."""
    try:
        return orjson.dumps(obj, option=_INDENT).decode("utf-8") + "\n"
    except orjson.JSONEncodeError:
        return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def write_json_stream(obj: Any, fh: BinaryIO) -> None:
    """Write dump_json(obj), UTF-8, to fh, a list one item at a time (a build's rules.json
    is hundreds of megabytes at scale, never one text); on an error nothing is written."""
    start = fh.tell()
    try:
        if type(obj) is not list or not obj:
            fh.write(_json(obj, _INDENT) + b"\n")
            return
        sep = b"[\n  "
        for item in obj:  # no JSON string holds a raw line break: indenting is a replace
            fh.write(sep + _json(item, _INDENT).replace(b"\n", b"\n  "))
            sep = b",\n  "
        fh.write(b"\n]\n")
    except BaseException:
        fh.seek(start)
        fh.truncate()
        raise


def dump_jsonl_line(obj: Any) -> bytes:
    """One JSON Lines line, UTF-8: json.dumps(obj, ensure_ascii=False, separators=(",",
    ":")) and a newline."""
    return _json(obj, _PLAIN) + b"\n"


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """libyaml's dumper when present (same output), every value written out in full: an
    object met twice (facts shared by repeated blocks) is never an anchor and an alias."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_yaml(obj: Any) -> str:
    """`obj` as YAML: written directly when it is plain data (`yamltext`), else by PyYAML;
    the text is the same either way. The items of a list (an export of rules) are written
    one by one: each item's text does not depend on the others."""
    if type(obj) is list and len(obj) > 1:
        return "".join(dump_yaml([item]) for item in obj)
    text = block_yaml(obj)
    if text is not None:
        return text
    return yaml.dump(obj, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=WIDTH)


def _write_yaml(item: tuple[Path, Any, str, str]) -> None:
    target, obj, schema, relative = item
    validate(obj, schema, relative)
    data = dump_yaml(obj).encode("utf-8")
    # os.open and os.write, not Path.write_text: no text layer is made for tens of
    # thousands of files written once each
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 with RENAME_EXCHANGE), so that the
    output folder is never missing, even for a moment; False where that is unsupported."""
    renameat2 = getattr(_libc(), "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_in(new: Path, out: Path, old: Path) -> None:
    """Put the folder `new` where `out` is, the previous `out` gone: in one exchange where the
    system has it, else by moving `out` aside to `old` first (a moment without the folder,
    which the next build's recovery repairs; a failed second move puts it straight back)."""
    if not out.exists():
        new.rename(out)
    elif _exchange(new, out):
        shutil.rmtree(new, ignore_errors=True)  # now the previous folder
    else:
        out.rename(old)
        try:
            new.rename(out)
        except OSError:
            old.rename(out)
            raise
        shutil.rmtree(old, ignore_errors=True)


@cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


class FolderOutput:
    """A folder written whole or not at all: an exclusive lock beside it (a second writer is
    refused at once), the files written to a temporary folder beside it, which replaces
    the folder in one exchange on success and is removed on failure. Use as a context
    manager. `what` names the writer in refusals; `inventory` is everything it writes: an
    existing folder holding anything else (or a link, a file, a device) is refused, before
    the work and again at the swap (files.folder_output), and writing a name outside it
    is a bug."""

    what = "folder"
    inventory: Inventory

    def __init__(self, out: Path) -> None:
        if os.fspath(out) == "-":
            folder_output(out, self.inventory)  # refused: a folder is not a stream
        given = Path(os.path.abspath(out))
        # the folders above are followed to where they are; the last name is judged itself
        self.out = given.parent.resolve() / given.name if given.name else given
        parent = self.out.parent
        self._lock_path = parent / f".{self.out.name}.lock"
        self._tmp = parent / f".{self.out.name}.tmp-{os.getpid()}"
        self._old = parent / f".{self.out.name}.old-{os.getpid()}"
        self._lock_fd: int | None = None

    def _lock(self) -> int:
        """An exclusive lock on `.OUT.lock` beside the output. The file is removed when the
        writing ends; a lock taken on a file that was removed meanwhile is taken again on
        the file now at that path, so two writers never both hold one."""
        while True:
            fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise InputError(
                    str(self.out),
                    f"another {self.what} is writing this folder; try again when it ends",
                ) from None
            try:
                same = os.stat(self._lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return fd
            os.close(fd)

    def _refuse(self) -> None:
        """Raise InputError if the existing `out` is not this writer's to replace."""
        folder_output(self.out, self.inventory)

    def __enter__(self) -> FolderOutput:
        self._refuse()  # at once, before anything is made (the lock's file included)
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
            self._lock_fd = self._lock()
            self._recover()
            self._refuse()  # again, now that no other writer can change it
            self._start()
        except BaseException as exc:
            self._unlock()
            if isinstance(exc, OSError):
                raise self._environment(exc, "cannot write here") or exc from None
            raise
        return self

    def _recover(self) -> None:
        """Clean up after a writer that was killed: restore an output it had moved aside."""
        for leftover in self.out.parent.glob(f".{self.out.name}.old-*"):
            if not self.out.exists():
                leftover.rename(self.out)
            else:
                shutil.rmtree(leftover, ignore_errors=True)
        for leftover in self.out.parent.glob(f".{self.out.name}.tmp-*"):
            shutil.rmtree(leftover, ignore_errors=True)

    def _start(self) -> None:
        """Make the temporary folder the files are written to."""
        self._tmp.mkdir()

    def _environment(self, exc: BaseException, doing: str) -> InputError | None:
        return environment_error(self.out, exc, doing, hidden=str(self._tmp))

    def write_text(self, relative: str, text: str) -> None:
        self.path(relative).write_text(text, encoding="utf-8")

    def path(self, relative: str) -> Path:
        target = self._target(relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        return Path(target)

    def _target(self, relative: str) -> str:
        """The path of `relative` in the temporary folder: inside it, and in the inventory
        (a name the writer does not declare would make its next run refuse the folder)."""
        root = os.fspath(self._tmp)
        target = os.path.normpath(os.path.join(root, relative))
        if not target.startswith(root + os.sep):
            raise InputError(relative, "output path would escape the output folder")
        name = target[len(root) + 1 :].replace(os.sep, "/")
        if not self.inventory.holds(name):
            raise ValueError(f"{name} is not in the {self.what}'s inventory")
        return target

    def _complete(self) -> None:
        """What is left to write once the body has run (nothing here)."""

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            if exc is not None:
                self._abandon()
                shutil.rmtree(self._tmp, ignore_errors=True)
                refusal = self._environment(exc, f"cannot write the {self.what}")
                if refusal is not None:
                    raise refusal from None
                return
            try:
                self._complete()
                self._refuse()  # what came into the folder while this ran is not lost
                swap_in(self._tmp, self.out, self._old)
            except BaseException as err:
                shutil.rmtree(self._tmp, ignore_errors=True)
                refusal = self._environment(err, f"cannot put the {self.what} in place")
                if refusal is not None:
                    raise refusal from None
                raise
        finally:
            self._unlock()

    def _abandon(self) -> None:
        """Work still under way for a failed run stops before its files are removed."""

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            # removed while still held, so no lock file is left beside the output
            self._lock_path.unlink(missing_ok=True)
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = None


class BuildOutput(FolderOutput):
    """A build folder being written: it lands only on success."""

    what = "build"
    inventory = BUILD

    def __init__(self, out: Path) -> None:
        super().__init__(out)
        self._dirs: set[str] = set()
        self._yaml: list[tuple[Path, Any, str, str]] = []  # rendered together, on more cores

    def __enter__(self) -> BuildOutput:
        super().__enter__()
        return self

    def path(self, relative: str) -> Path:
        target = self._target(relative)
        folder = os.path.dirname(target)
        if folder not in self._dirs:  # the temporary folder is new: no links to follow
            os.makedirs(folder, exist_ok=True)
            self._dirs.add(folder)
        return Path(target)

    def write_json(
        self, relative: str, obj: Any, schema: str, items_schema: str | None = None
    ) -> None:
        """Validate and write; with `items_schema`, `obj` is an array whose items were each
        validated against that schema when they were written on their own."""
        if items_schema is None:
            validate(obj, schema, relative)
        elif not isinstance(obj, list):
            raise SchemaViolation(f"{relative} must be an array of {items_schema} objects")
        with self.path(relative).open("wb") as fh:
            write_json_stream(obj, fh)

    def write_yaml(self, relative: str, obj: Any, schema: str) -> None:
        """Validate, render and write with the other YAML files when the build is complete,
        many at once over the cores (YAML rendering is the slowest part of writing many
        rules); a file its schema refuses fails `finish` (and the build: nothing lands)."""
        self._yaml.append((self.path(relative), obj, schema, relative))

    def finish(self) -> None:
        """Every file given is written when this returns: the YAML files in forked workers
        when they are many (the texts never travel back to this process)."""
        items, self._yaml = self._yaml, []
        map_in_order(_write_yaml, items)

    def _complete(self) -> None:
        self.finish()

    def write_jsonl(self, relative: str, objs: Iterable[Any], schema: str) -> None:
        check = validator(schema)
        with self.path(relative).open("wb") as fh:
            for n, obj in enumerate(objs, start=1):
                if not check.is_valid(obj):
                    validate(obj, schema, f"{relative} line {n}")
                fh.write(dump_jsonl_line(obj))


class ReportFile:
    """One report being written, in pieces: bytes gathered a megabyte at a time and
    written to a file with no name yet (O_TMPFILE), or where there are none to an
    anonymous temporary file, copied at the swap."""

    _BUFFER = 1024 * 1024

    def __init__(self, folder: Path) -> None:
        fd = unnamed_file(folder)
        self.unnamed = fd is not None
        if fd is None:  # a named file, unnamed at once
            fd, name = tempfile.mkstemp(prefix=".report.", suffix=".tmp", dir=folder)
            os.unlink(name)
        self.fd = fd
        self._pending: list[bytes] = []
        self._size = 0

    def write(self, data: bytes) -> None:
        self._pending.append(data)
        self._size += len(data)
        if self._size >= self._BUFFER:
            self.flush()

    def __enter__(self) -> ReportFile:
        return self

    def __exit__(self, *exc: object) -> None:
        """Written out when its writing ends, so that a full disk is met there."""
        if exc[0] is None:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            write_all(self.fd, b"".join(self._pending))
            self._pending, self._size = [], 0

    def land(self, target: Path) -> None:
        """Name the finished file `target` (a path in the folder about to be swapped in)."""
        self.flush()
        if not self.unnamed:
            os.lseek(self.fd, 0, os.SEEK_SET)
            with open(target, "wb") as out, os.fdopen(os.dup(self.fd), "rb") as src:
                shutil.copyfileobj(src, out)
        elif not name_unnamed(self.fd, target):
            raise OSError(errno.ENOENT, "/proc is not mounted", "/proc/self/fd")

    def close(self) -> None:
        os.close(self.fd)


class ReportOutput(FolderOutput):
    """A folder of reports (`check -o DIR`) written as one: the files of one run always
    side by side, never one run's JSON beside another's HTML. A folder holding anything
    but such reports is not replaced. Each report is written, in pieces, to a file with no
    name yet (`open`), and the temporary folder is made only to receive the finished
    reports and swap at once: a run killed while writing leaves nothing behind."""

    what = "check"

    def __init__(self, out: Path, own: frozenset[str]) -> None:
        self.inventory = Inventory("check reports", None, own)
        super().__init__(out)
        self._written: list[tuple[str, ReportFile]] = []

    def __enter__(self) -> ReportOutput:
        super().__enter__()
        return self

    def _start(self) -> None:
        """No temporary folder yet: see `_complete`."""

    def open(self, relative: str) -> ReportFile:
        """A report of the folder, to write in pieces; it lands with the others."""
        self._target(relative)  # a name of the inventory, or a bug said before any writing
        report = ReportFile(self.out.parent)
        self._written.append((relative, report))
        return report

    def write_text(self, relative: str, text: str) -> None:
        with self.open(relative) as report:
            report.write(text.encode("utf-8"))

    def _complete(self) -> None:
        self._tmp.mkdir()
        for relative, report in self._written:
            report.land(self.path(relative))

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            super().__exit__(exc_type, exc, tb)
        finally:
            for _, report in self._written:
                report.close()
            self._written.clear()
