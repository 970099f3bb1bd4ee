"""The site folder written whole or not at all: pages go to a temporary folder beside the
target, which then replaces the old site in one exchange (as a build replaces its output)."""

from __future__ import annotations

import os

from ...emit import FolderOutput
from ...errors import InputError

MARKER = "index.html"  # a folder without it is not a site: never replaced


class SiteOutput(FolderOutput):
    """Use as a context manager; `write` pages by relative path; lands only on success."""

    what = "site"

    def _refuse(self) -> None:
        if self.out.exists() and not self.out.is_dir():
            raise InputError(str(self.out), "exists and is not a folder")
        if self.out.is_dir() and any(self.out.iterdir()) and not (self.out / MARKER).is_file():
            raise InputError(str(self.out), "folder is not empty and not a site; not replacing it")
        if not self.out.parent.is_dir():
            raise InputError(str(self.out), "the folder to write into does not exist")

    def __enter__(self) -> SiteOutput:
        super().__enter__()
        return self

    def write(self, relative: str, text: str) -> None:
        root = os.fspath(self._tmp)
        target = os.path.normpath(os.path.join(root, relative))
        if not target.startswith(root + os.sep):
            raise InputError(relative, "page path would escape the site folder")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
