"""Run `rulepipe ARGS` in surroundings that fail in a known way, as a user's machine can:

python -m tests.helpers.faults kill-after BYTES ARGS...  killed (SIGKILL) once BYTES
    bytes have gone through os.write to files other than standard output and error: a
    kill in the middle of writing, which a timer cannot place (and Python ignores
    SIGXFSZ, so a file size limit does not kill it either)
python -m tests.helpers.faults read-only DIR ARGS...     DIR is on a read-only file
    system: creating, opening for writing, renaming or removing anything in it is EROFS
python -m tests.helpers.faults mount-point DIR ERRNO ARGS...  DIR is a mount point:
    renaming or exchanging it fails with ERRNO (EBUSY, EXDEV)
"""

from __future__ import annotations

import errno
import os
import signal
import sys

from pipeline import emit
from pipeline.commands import main

_real = {name: getattr(os, name) for name in ("write", "open", "mkdir", "rename", "replace")}


def kill_after(limit: int) -> None:
    written = 0

    def write(fd: int, data) -> int:
        nonlocal written
        if fd > 2:
            if written + len(data) > limit:
                _real["write"](fd, bytes(data)[: max(limit - written, 0)])
                os.kill(os.getpid(), signal.SIGKILL)
            written += len(data)
        return _real["write"](fd, data)

    os.write = write


def read_only(folder: str) -> None:
    folder = os.path.realpath(folder)

    def inside(path) -> bool:
        path = os.path.realpath(os.fsdecode(path))
        return path == folder or path.startswith(folder + os.sep)

    def refuse(path) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))

    def open_(path, flags, *args, **kwargs):
        writing = flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | getattr(os, "O_TMPFILE", 0))
        if writing and inside(path):
            refuse(path)
        return _real["open"](path, flags, *args, **kwargs)

    def mkdir(path, *args, **kwargs):
        if inside(path) and not os.path.isdir(path):
            refuse(path)
        return _real["mkdir"](path, *args, **kwargs)

    def moved(name: str):
        def move(src, dst, *args, **kwargs):
            if inside(src) or inside(dst):
                refuse(dst)
            return _real[name](src, dst, *args, **kwargs)

        return move

    os.open, os.mkdir = open_, mkdir
    os.rename, os.replace = moved("rename"), moved("replace")


def mount_point(folder: str, code: int) -> None:
    folder = os.path.realpath(folder)

    def fail(path) -> None:
        raise OSError(code, os.strerror(code), os.fsdecode(path))

    def moved(name: str):
        def move(src, dst, *args, **kwargs):
            if folder in (os.path.realpath(os.fsdecode(src)), os.path.realpath(os.fsdecode(dst))):
                fail(folder)
            return _real[name](src, dst, *args, **kwargs)

        return move

    os.rename, os.replace = moved("rename"), moved("replace")
    emit._exchange = lambda a, b: fail(b)


if __name__ == "__main__":
    mode, rest = sys.argv[1], sys.argv[2:]
    if mode == "kill-after":
        kill_after(int(rest.pop(0)))
    elif mode == "read-only":
        read_only(rest.pop(0))
    elif mode == "mount-point":
        folder = rest.pop(0)
        mount_point(folder, getattr(errno, rest.pop(0)))
    else:
        raise SystemExit(f"unknown mode {mode}")
    sys.exit(main(rest))
