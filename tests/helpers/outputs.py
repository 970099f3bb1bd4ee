"""What the hostile-input and crash tests check of a command's outputs: byte-identical
trees, nothing left beside an output folder, a refusal in one line."""

from __future__ import annotations

import re
import resource
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under folder with its bytes: equal trees are byte-identical folders."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def make_corpus(root: Path, files: dict[str, bytes | str], drop: str = "d") -> Path:
    """root/drops/<drop>/<name> for each file; str contents are written as UTF-8."""
    for name, data in files.items():
        path = root / "drops" / drop / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        path.write_bytes(data)
    return root


def leftovers(parent: Path) -> list[str]:
    """Temporary files or folders, or moved-aside build folders, left beside an output."""
    return sorted(
        p.name
        for p in parent.iterdir()
        if ".tmp-" in p.name or ".old-" in p.name or p.name.endswith(".tmp")
    )


def assert_refused(
    result: subprocess.CompletedProcess[str],
    pattern: str,
    out: Path | None = None,
    before: dict[str, bytes] | None = None,
) -> None:
    """Exit 2, nothing on stdout, one line on stderr matching pattern, no traceback, and
    the previous output (if any) byte-identical with nothing left beside it."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.search(pattern, lines[0]), lines[0]
    if out is not None:
        assert before is not None
        assert tree(out) == before
        assert leftovers(out.parent) == []


def limits(memory: int | None = None, file_size: int | None = None) -> Callable[[], None]:
    """A `preexec_fn` for a child: at most `memory` bytes of address space, files of at most
    `file_size` bytes (a write past that size fails with EFBIG, as on a full disk)."""

    def apply() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return apply
