"""The site folder written whole or not at all: pages go to a temporary folder beside the
target, which then replaces the old site in one exchange (as a build replaces its output)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import TracebackType

from ...emit import swap_in
from ...errors import InputError

MARKER = "index.html"  # a folder without it is not a site: never replaced


class SiteOutput:
    """Use as a context manager; `write` pages by relative path; lands only on success."""

    def __init__(self, out: Path) -> None:
        self.out = out.resolve()
        self._tmp = self.out.parent / f".{self.out.name}.tmp-{os.getpid()}"
        self._old = self.out.parent / f".{self.out.name}.old-{os.getpid()}"

    def __enter__(self) -> SiteOutput:
        if self.out.exists() and not self.out.is_dir():
            raise InputError(str(self.out), "exists and is not a folder")
        if self.out.is_dir() and any(self.out.iterdir()) and not (self.out / MARKER).is_file():
            raise InputError(str(self.out), "folder is not empty and not a site; not replacing it")
        if not self.out.parent.is_dir():
            raise InputError(str(self.out), "the folder to write into does not exist")
        for leftover in self.out.parent.glob(f".{self.out.name}.tmp-*"):
            shutil.rmtree(leftover, ignore_errors=True)
        self._tmp.mkdir()
        return self

    def write(self, relative: str, text: str) -> None:
        root = os.fspath(self._tmp)
        target = os.path.normpath(os.path.join(root, relative))
        if not target.startswith(root + os.sep):
            raise InputError(relative, "page path would escape the site folder")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)
            return
        swap_in(self._tmp, self.out, self._old)
