"""The site folder written whole or not at all: pages go to a temporary folder beside the
target, which then replaces the old site in one exchange (as a build replaces its output)."""

from __future__ import annotations

from ...emit import FolderOutput
from ...errors import InputError
from ...files import Inventory

#: Every page and file a site holds: a folder holding anything else is never replaced.
SITE = Inventory(
    "a site",
    "index.html",
    frozenset({"index.html", "changes.html", "search-index.js", "search.js", "site.css"}),
    (("rules", ".html"), ("units", ".html")),
)


class SiteOutput(FolderOutput):
    """Use as a context manager; `write` pages by relative path; lands only on success."""

    what = "site"
    inventory = SITE

    def _refuse(self) -> None:
        if not self.out.parent.is_dir():
            raise InputError(str(self.out), "the folder to write into does not exist")
        super()._refuse()

    def __enter__(self) -> SiteOutput:
        super().__enter__()
        return self

    def write(self, relative: str, text: str) -> None:
        with open(self.path(relative), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
