"""User files: bytes to text and YAML to data, refusing bad input with the file and the
place named on one line (InputError), never a traceback; and documents written whole or
not at all."""

from __future__ import annotations

import codecs
import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .errors import InputError
from .textsafe import INPUT_CONTROL, describe, input_control
from .textsafe import file_name as safe_name

# The files of a build folder (segments.jsonl, rules.json ...) are the tool's own and grow
# with the corpus: 200 MB of segments at 155,000 paragraphs.
MAX_BUILD_FILE_BYTES = 4 * 1024 * 1024 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024  # past this a file is refused before it is read
# One text a reader gives (a translation unit, a PO entry, a rule description), a side of a
# pair, an `extract` text: longer is refused. The stages are linear up to it (measured
# there, docs/limits.md) and spaCy tokenizes no more at once.
MAX_TEXT_CHARS = 1_000_000


def text_too_long(name: str, length: int, where: str | None = None) -> InputError:
    """The refusal of a text longer than MAX_TEXT_CHARS."""
    return InputError(
        name, f"a text of {length:,} characters; the limit is {MAX_TEXT_CHARS:,}", where
    )


_SPACE = re.compile(r"[ \n]")
_CHUNK = 1024 * 1024


Legacy = Callable[[bytes], tuple[str | None, str]]


def decode(name: str, data: bytes, legacy: Legacy | None = None) -> str:
    """Decode UTF-8 (with or without BOM) or UTF-16 (with a BOM, or without one when every
    NUL byte is the high byte of a code unit and the text has spaces or line breaks and
    no control characters, as a Windows "Unicode" save gives); refuse binary data: NUL
    bytes otherwise, and control characters other than white space. Bytes that are not
    UTF-8 go to `legacy` when given (a detector of one-byte legacy encodings: the text,
    or None and why it cannot tell), else are refused."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError(name, f"not valid UTF-16: {exc.reason}", f"byte {exc.start}") from None
        return _refuse_controls(name, text, "utf-16-le", 2)
    nul = data.find(b"\x00")
    if nul >= 0:
        text = _unmarked_utf16(data)
        if text is not None:
            return text
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(name, "binary file (NUL byte); save it as UTF-8", _where(line, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        found, why = legacy(data) if legacy is not None else (None, "")
        if found is not None:  # a one-byte encoding: the n-th character is the n-th byte
            control = INPUT_CONTROL.search(found)
            if control is None:
                return found
            at = control.start()
            where = _where(found.count("\n", 0, at) + 1, at)
            raise InputError(
                name, f"{describe(control.group())} in text: not a text file", where
            ) from None
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            name, f"not UTF-8 ({exc.reason}){why}; save it as UTF-8", _where(line, exc.start)
        ) from None
    return _refuse_controls(name, text, "utf-8", 0)


_LINE_END = re.compile(r"\r\n?|\n")


def text_lines(text: str) -> Iterator[str]:
    """The lines of a line-based format (JSON Lines, PO, TSV), one at a time: split at
    LF, CR LF and CR only. str.splitlines also splits at U+0085, U+2028, U+2029, VT, FF
    and the file separators, which a JSON or PO string holds as text."""
    start = 0
    for end in _LINE_END.finditer(text):
        yield text[start : end.start()]
        start = end.end()
    if start < len(text):
        yield text[start:]


def _unmarked_utf16(data: bytes) -> str | None:
    """The text of UTF-16 without a BOM, or None if the bytes are not that."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    if bool(even) == bool(odd):  # NULs on both sides (binary) or on neither
        return None
    try:
        text = data.decode("utf-16-le" if odd else "utf-16-be")
    except UnicodeDecodeError:
        return None
    if input_control(text) or not _SPACE.search(text):
        return None
    return text


def _refuse_controls(name: str, text: str, encoding: str, skipped: int) -> str:
    """The text, unless it holds a NUL or another control character (not white space)."""
    control = INPUT_CONTROL.search(text)
    if control is None:
        return text
    at = control.start()
    what = describe(control.group())
    byte = skipped + len(text[:at].encode(encoding))
    raise InputError(
        name, f"{what} in text: not a text file", _where(text.count("\n", 0, at) + 1, byte)
    )


def _where(line: int, byte: int) -> str:
    return f"{line} (byte {byte})"


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def file_kind(mode: int) -> str:
    """What a non-regular file is, in words, for a refusal."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes(
    path: Path, what: str = "file", limit: int = MAX_FILE_BYTES, follow: bool = True
) -> bytes:
    """The bytes of a regular user file, never more than `limit`. FIFOs, devices and
    sockets are refused before they are opened (and checked again on the descriptor,
    opened non-blocking, should the file change in between); a file that reports a small
    size but reads longer (/proc) is cut off at the limit and refused. With `follow` false
    a symbolic link is refused too."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
        if stat.S_ISLNK(mode):
            raise InputError(str(path), f"{what} is a symbolic link; not followed")
        if not stat.S_ISREG(mode):  # refused before it is opened: a FIFO never sees a reader
            raise InputError(str(path), f"{what} is {file_kind(mode)}, not a regular file")
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError(str(path), f"no such {what}") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            raise InputError(str(path), f"{what} is a symbolic link; not followed") from None
        raise InputError(str(path), f"cannot read {what}: {exc.strerror}") from None
    with os.fdopen(fd, "rb", buffering=0) as fh:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise InputError(str(path), f"{what} is {file_kind(mode)}, not a regular file")
        size = os.fstat(fd).st_size
        if size > limit:
            raise InputError(str(path), f"{what} too large ({size} bytes; limit {limit})")
        chunks: list[bytes] = []
        got = 0
        try:
            while got <= limit:
                want = size + 1 if size and not chunks else _CHUNK  # one read, one copy
                chunk = fh.read(min(want, limit + 1 - got))
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        except OSError as exc:
            raise InputError(str(path), f"cannot read {what}: {exc.strerror}") from None
        if got > limit:
            raise InputError(str(path), f"{what} too large (over {limit} bytes; limit {limit})")
        return b"".join(chunks)


# libyaml's safe loader where installed: the same data (the same constructor and resolver
# on libyaml's parser), read several times faster; user files too (a rule file 2.3 ms ->
# 0.3 ms, and `matchup` reads about a hundred). Only an error's wording differs. yaml is
# imported on the first file read (about 10 ms): `rules` and `show` read no YAML.
def _yaml_load(stream: Any) -> Any:
    import yaml

    return yaml.load(stream, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_data(path: Path) -> dict[str, Any]:
    """A data file shipped with the package (language, core and combat data): a mapping,
    empty when the file is; read with the fast loader, since these files are ours."""
    with path.open(encoding="utf-8") as fh:
        data = _yaml_load(fh) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    return data


def read_yaml(path: Path, what: str = "file") -> Any:
    """Safe-load a YAML file; a missing, non-UTF-8 or malformed one is an InputError."""
    return parse_yaml(str(path), read_bytes(path, what))


#: Nesting of mappings and lists in a user's YAML file (a scenario, a glossary, drop.yaml,
#: an accepted-findings or rule file): deeper is refused, as in JSON Lines.
MAX_YAML_DEPTH = 64


def parse_yaml(name: str, data: bytes) -> Any:
    import yaml

    try:
        found = _yaml_load(decode(name, data))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else None
        raise InputError(name, f"not valid YAML: {getattr(exc, 'problem', exc)}", where) from None
    except RecursionError:  # the parser's own recursion, some hundreds of levels down
        raise InputError(name, f"YAML nested too deeply (limit {MAX_YAML_DEPTH})") from None
    if _deeper_than(found, MAX_YAML_DEPTH):
        raise InputError(name, f"YAML nested too deeply (limit {MAX_YAML_DEPTH})")
    return found


def _deeper_than(obj: Any, limit: int) -> bool:
    """Whether lists and mappings nest past `limit` in `obj`. Aliases may put one list
    inside many, so the height of each container is worked out once (without recursion)
    and the heights of those inside it reused."""
    height: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(obj, False)]
    while stack:
        item, done = stack.pop()
        if not isinstance(item, (dict, list)) or (not done and id(item) in height):
            continue
        values = list(item.values() if isinstance(item, dict) else item)
        inner = [v for v in values if isinstance(v, (dict, list))]
        if done:
            height[id(item)] = 1 + max((height[id(v)] for v in inner), default=0)
            if height[id(item)] > limit:
                return True
            continue
        height[id(item)] = 0  # being worked out: a cycle back to it adds nothing
        stack.append((item, True))
        stack.extend((v, False) for v in inner if id(v) not in height)
    return False


def _umask() -> int:
    """The process umask (reading it means setting it; set straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


# What writing can meet from its surroundings rather than from the input: each becomes
# exit 2 with the path and the reason (a hint where one helps), what was there kept.
_ENVIRONMENT = {
    errno.EACCES: "",
    errno.EPERM: "",
    errno.EROFS: "",
    errno.ENOSPC: "",
    errno.EDQUOT: "",
    errno.EFBIG: " (the file size limit, ulimit -f)",
    errno.EBUSY: " (a mount point cannot be replaced: give a path inside it)",
    errno.EXDEV: " (a mount point cannot be replaced: give a path inside it)",
    errno.EIO: "",
    errno.ENAMETOOLONG: "",
    errno.EMLINK: "",
    errno.ENOTDIR: "",
    errno.EISDIR: "",
}


def environment_error(
    out: Path, exc: BaseException, doing: str, hidden: str | None = None
) -> InputError | None:
    """The one-line refusal for an OSError met while writing `out`, or None when the
    surroundings do not explain it (then it is a bug and stays an internal error). A file
    name under `hidden` (a temporary folder) is not shown: it means nothing to a user."""
    if not isinstance(exc, OSError) or exc.errno not in _ENVIRONMENT:
        return None
    reason = exc.strerror or os.strerror(exc.errno)
    name = os.fspath(exc.filename) if exc.filename else ""
    shown = name and name != os.fspath(out) and not (hidden and name.startswith(hidden))
    named = f" ({name})" if shown else ""
    return InputError(
        str(out), f"{doing}: {reason}{_ENVIRONMENT[exc.errno]}{named}; nothing was changed"
    )


_O_TMPFILE = getattr(os, "O_TMPFILE", 0)


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` whole: a reader never sees half a file, and a failed or
    killed write leaves the old one and nothing beside it. The text goes to an unnamed file
    in the target's folder (Linux O_TMPFILE), named only once complete and renamed over the
    target at once; where the file system has no unnamed files, to a named temporary file,
    removed on any error or signal that Python sees (not after SIGKILL)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not _write_unnamed(path, text.encode("utf-8")):
            _write_named(path, text)
    except OSError as exc:
        raise environment_error(path, exc, "cannot write") or exc from None


def unnamed_file(folder: Path) -> int | None:
    """A file with no name yet in `folder` (Linux O_TMPFILE), open for writing: nothing of
    it is left if the process dies before `name_unnamed`; None where the system or file
    system has no such files."""
    if not _O_TMPFILE:
        return None
    try:
        return os.open(folder, _O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, 0o666)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None
        raise


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _write_unnamed(path: Path, data: bytes) -> bool:
    """Write through an unnamed file; False where there are none (nothing written)."""
    fd = unnamed_file(path.parent)
    if fd is None:
        return False
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    try:
        write_all(fd, data)
        tmp.unlink(missing_ok=True)  # left by an earlier process of this id, killed
        if not name_unnamed(fd, tmp):
            return False
        try:
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    finally:
        os.close(fd)
    return True


def name_unnamed(fd: int, name: Path) -> bool:
    """Give the O_TMPFILE file `fd` a name: linkat on its /proc link, following it (os.link
    would link the /proc link itself); False where /proc is not mounted."""
    import ctypes  # here: a command that writes nothing does not load it

    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, at_symlink_follow = -100, 0x400
    proc = os.fsencode(f"/proc/self/fd/{fd}")
    if libc.linkat(at_fdcwd, proc, at_fdcwd, os.fsencode(name), at_symlink_follow) == 0:
        return True
    err = ctypes.get_errno()
    if err == errno.ENOENT and not os.path.exists("/proc/self/fd"):
        return False
    raise OSError(err, os.strerror(err), str(name))


def _write_named(path: Path, text: str) -> None:
    import tempfile  # only where there are no unnamed files

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp's 0600 would not be what the user set
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- where a command's output goes: the one rule for every -o (docs/limits.md) ----------
#
# A regular file, or nothing, is replaced whole (write_atomic); a folder is replaced whole
# only when it holds nothing but what the writer itself writes (its Inventory); a FIFO, a
# character device (a terminal, /dev/null) or `-` is written into as a stream. A symbolic
# link is never replaced: one that leads to a stream is written through (/dev/stdout,
# /dev/fd/N), one that leads to a file or a folder is refused, naming its target. Replacing
# works by renaming over the path, and a rename through a link would replace a file in
# another folder than the one named (in a shared folder, one that a planted link chose).

STANDARD_OUTPUT = "-"


class Inventory(NamedTuple):
    """Everything a folder writer puts in its folder, which recognises a folder it made:
    one holding nothing else (no other file, folder or link) is its own to replace."""

    noun: str  # what such a folder is, for refusals: "a rulepipe build", "check reports"
    marker: str | None  # a file every such folder holds once written (manifest.json)
    files: frozenset[str]  # files at the top of the folder
    trees: tuple[tuple[str, str], ...] = ()  # (folder, suffix): files so named, at any depth

    def holds(self, relative: str) -> bool:
        """Whether the writer writes `relative` (a path with `/`)."""
        top, _, rest = relative.partition("/")
        if not rest:
            return top in self.files
        return any(top == folder and rest.endswith(suffix) for folder, suffix in self.trees)

    def foreign(self, folder: Path) -> str | None:
        """The first entry of `folder` (relative path, sorted order) that the writer never
        writes: a name outside the inventory, a link, anything but a regular file or
        folder where one is expected. None when every entry is the writer's own."""
        tree = dict(self.trees)
        todo: list[tuple[str, str | None]] = [("", None)]  # (relative folder, suffix)
        while todo:
            relative, suffix = todo.pop()
            with os.scandir(folder / relative) as listing:
                entries = sorted(listing, key=lambda e: e.name)
            for entry in entries:
                name = f"{relative}{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    if suffix is None and entry.name not in tree:
                        return name
                    todo.append((name + "/", tree[entry.name] if suffix is None else suffix))
                elif not entry.is_file(follow_symlinks=False) or not (
                    entry.name in self.files if suffix is None else entry.name.endswith(suffix)
                ):
                    return name
        return None


def _link_refusal(path: Path) -> InputError:
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return InputError(
        str(path),
        f"is a symbolic link (to {safe_name(target)}): a link is never replaced, and only"
        " a FIFO or a device is written through one; give the path it names",
    )


def folder_output(path: Path, inventory: Inventory) -> None:
    """Refuse (InputError) a `path` that a writer of `inventory` may not replace whole: `-`
    (a folder is not a stream), a link, anything but a folder, a folder without the
    marker or with anything the writer does not write. Absent or empty is the writer's."""
    if os.fspath(path) == STANDARD_OUTPUT:
        raise InputError(
            STANDARD_OUTPUT, f"{inventory.noun} is a folder; give -o DIR, not standard output"
        )
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise InputError(str(path), f"cannot write here: {exc.strerror}") from None
    if stat.S_ISLNK(mode):
        raise _link_refusal(path)
    if not stat.S_ISDIR(mode):
        raise InputError(str(path), f"is {_kind(mode)}, not a folder; not replacing it")
    try:
        entries = sorted(os.listdir(path))
        if not entries:
            return
        marker = inventory.marker
        if marker is not None and not stat.S_ISREG(_lmode(path / marker)):
            raise InputError(
                str(path),
                f"folder is not {inventory.noun} (no {marker}); not replacing it:"
                " give a new or empty folder",
            )
        other = inventory.foreign(path)
    except OSError as exc:
        raise InputError(str(path), f"cannot read the folder: {exc.strerror}") from None
    if other is not None:
        raise InputError(
            str(path),
            f"folder holds files that are not {inventory.noun} ({safe_name(other)});"
            " not replacing it: give a new or empty folder",
        )


def _lmode(path: Path) -> int:
    try:
        return os.lstat(path).st_mode
    except FileNotFoundError:
        return 0


def _kind(mode: int) -> str:
    return "a file" if stat.S_ISREG(mode) else file_kind(mode)


def _is_std(status: os.stat_result) -> int | None:
    """1 or 2 when `status` is the file of standard output or error (`/dev/stdout`)."""
    for fd in (1, 2):
        try:
            std = os.fstat(fd)
        except OSError:
            continue
        if (std.st_dev, std.st_ino) == (status.st_dev, status.st_ino):
            return fd
    return None


def _stream(path: Path) -> int | None:
    """Where the output rule sends a document for `path`: None to replace it whole (a
    regular file, or nothing yet in an existing folder), 1 or 2 for standard output or
    error, or a descriptor opened for writing into a FIFO or a character device. Refuses
    (InputError) a folder, a socket, a block device, a link to a file, folder or nothing."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        folder = path.parent if str(path.parent) else Path(".")
        if not folder.is_dir():
            raise InputError(str(path), "the folder to write into does not exist") from None
        return None
    except OSError as exc:
        raise InputError(str(path), f"cannot write: {exc.strerror}") from None
    try:
        status = os.stat(path)
    except OSError:  # a link to nothing (or a loop)
        raise _link_refusal(path) from None
    std = _is_std(status)
    if std is not None:
        return std
    if stat.S_ISLNK(mode) and not _is_stream(status.st_mode):
        raise _link_refusal(path)
    if stat.S_ISREG(status.st_mode):
        return None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(str(path), "is a folder; give a file name to -o")
    if not _is_stream(status.st_mode):
        raise InputError(str(path), f"is {file_kind(status.st_mode)}; not written")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)  # a FIFO waits for a reader
    except OSError as exc:
        raise environment_error(path, exc, "cannot write") or exc from None
    opened = os.fstat(fd)
    if (opened.st_dev, opened.st_ino) != (status.st_dev, status.st_ino):  # changed meanwhile
        os.close(fd)
        raise InputError(str(path), "changed while it was opened; nothing was written")
    return fd


def _is_stream(mode: int) -> bool:
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def write_output(text: str, path: Path | None) -> None:
    """A command's document by the output rule: to standard output when `path` is None or
    `-`; written into a FIFO or a character device; else replacing the file whole."""
    fd = 1 if path is None or os.fspath(path) == STANDARD_OUTPUT else _stream(path)
    if fd is None:
        assert path is not None
        write_atomic(path, text)
    elif fd in (1, 2):
        stream = sys.stdout if fd == 1 else sys.stderr
        stream.write(text)
        stream.flush()
    else:
        try:
            write_all(fd, text.encode("utf-8"))
        except BrokenPipeError:  # the FIFO's reader left: it has what it wanted
            pass
        except OSError as exc:
            assert path is not None
            raise environment_error(path, exc, "cannot write") or exc from None
        finally:
            os.close(fd)
