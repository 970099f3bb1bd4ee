"""The one error a user sees for bad input: file, place and what is wrong, on one line."""

from __future__ import annotations


class InputError(Exception):
    """Bad usage or bad input; the command line turns it into exit code 2."""

    def __init__(self, file: str, what: str, where: str | None = None) -> None:
        self.file = file
        self.where = where
        self.what = what
        place = f"{file}:{where}" if where else file
        super().__init__(f"{place}: {what}")
