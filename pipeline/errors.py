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

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, str | None]]:
        """Sent whole from a worker process to the one that reports it."""
        return (type(self), (self.file, self.what, self.where))
