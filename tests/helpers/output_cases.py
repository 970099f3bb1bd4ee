"""Cases of the output-path rule for the hostile suite (tests/test_hostile.py runs each in a
child under time and memory limits): what `-o` may replace (a file, nothing, a folder a
writer made), what it writes into (a FIFO, a terminal, `-`, standard output) and what it
refuses (a folder holding anything else, a link to a file or folder, a socket)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .outputs import tree


@dataclass
class Case:
    args: list[str]
    code: int  # 0 done, 2 refused; never 3
    previous: Path  # must be byte-identical after a refusal; the only path a success changes
    module: str = "pipeline"
    file_size: int | None = None
    said: str = ""  # what the one line of a refusal says (a regular expression)
    expect: Callable[[Path, str], None] | None = None  # more to check: (root, stdout)
    also: list[Path] = field(default_factory=list)  # more paths a success may change


def state(root: Path) -> dict[str, tuple[object, ...]]:
    """Every entry under root, links not followed: its kind and what it holds (bytes and
    mode of a file, target of a link), to tell that nothing was touched."""
    found: dict[str, tuple[object, ...]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            mode = os.lstat(path).st_mode
            key = path.relative_to(root).as_posix()
            if stat.S_ISLNK(mode):
                found[key] = ("link", os.readlink(path))
            elif stat.S_ISREG(mode):
                found[key] = ("file", path.read_bytes(), stat.S_IMODE(mode))
            else:
                found[key] = (stat.S_IFMT(mode), os.lstat(path).st_ino)
    return found


def export_args(build: Path, out: Path | str, fmt: str = "json") -> list[str]:
    return ["export", "--format", fmt, "--build", str(build), "-o", str(out)]


def exported(build: Path) -> str:
    """The JSON export of a build, made in this process: what a stream must receive."""
    from pipeline.export import render

    return render("json", build)


class Reader:
    """Reads a FIFO or a terminal's other end in a thread while the child writes."""

    def __init__(self, fd_or_path: int | Path) -> None:
        self.data = bytearray()
        self.opened = threading.Event()
        self._source = fd_or_path
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        fd = self._source if isinstance(self._source, int) else os.open(self._source, os.O_RDONLY)
        self.opened.set()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: a terminal's other end is closed
                return
            if not chunk:
                return
            self.data += chunk

    def text(self, expected: str, seconds: float = 10.0) -> str:
        """What was read, once it is as long as `expected` (or the time is up)."""
        deadline = time.monotonic() + seconds
        while len(self.data) < len(expected.encode()) and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.data.decode("utf-8", "replace")


def new_terminal() -> tuple[int, str]:
    """A new terminal (a character device no root is needed for): its reading end, and
    its device path, with output processing off so that the bytes arrive as written."""
    main, other = os.openpty()
    attrs = termios.tcgetattr(other)
    attrs[1] &= ~termios.OPOST
    termios.tcsetattr(other, termios.TCSANOW, attrs)
    return main, os.ttyname(other)


def _receives(reader: Reader, build: Path) -> Callable[[Path, str], None]:
    def check(root: Path, stdout: str) -> None:
        doc = exported(build)
        assert reader.text(doc) == doc

    return check


def _prints(build: Path) -> Callable[[Path, str], None]:
    def check(root: Path, stdout: str) -> None:
        assert stdout == exported(build)

    return check


def _previous_file(root: Path) -> Path:
    path = root / "rules.json"
    path.write_text("previous\n", "utf-8")
    return path


# --- defect 1: a folder that is not the writer's own is never replaced --------------------


def site_over_a_folder_with_photos(root: Path, template: Path) -> Case:
    folder = root / "w"
    (folder / "photos").mkdir(parents=True)
    (folder / "index.html").write_text("hi\n", "utf-8")
    (folder / "photos" / "p.jpg").write_bytes(b"x\n")
    args = export_args(template, folder, "site")
    return Case(args, 2, folder, said=r"w: folder holds files that are not a site \(photos\)")


def site_over_its_own_site(root: Path, template: Path) -> Case:
    folder = root / "site"
    (folder / "rules").mkdir(parents=True)
    for name in ("index.html", "site.css", "rules/gone.html"):
        (folder / name).write_text("<p>previous</p>\n", "utf-8")
    case = Case(export_args(template, folder, "site"), 0, folder)

    def replaced(root: Path, stdout: str) -> None:
        files = tree(root / "site")
        assert "rules/gone.html" not in files and "search.js" in files
        assert b"previous" not in files["index.html"]

    case.expect = replaced
    return case


def build_over_a_build_with_notes(root: Path, template: Path) -> Case:
    out = root / "output"
    shutil.copytree(template, out)
    (out / "notes.txt").write_text("mine\n", "utf-8")
    corpus = _corpus(root)
    said = r"output: folder holds files that are not a rulepipe build \(notes\.txt\)"
    return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)


def build_over_a_build_holding_a_link(root: Path, template: Path) -> Case:
    out = root / "output"
    shutil.copytree(template, out)
    (out / "rules" / "mine.yaml").symlink_to(root / "canary.txt")
    corpus = _corpus(root)
    said = r"not a rulepipe build \(rules/mine\.yaml\)"
    return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)


def build_over_a_file(root: Path, template: Path) -> Case:
    out = _previous_file(root)
    corpus = _corpus(root)
    said = "is a file, not a folder"
    return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)


def check_over_reports_and_a_folder(root: Path, template: Path) -> Case:
    folder = root / "checks"
    (folder / "old").mkdir(parents=True)
    (folder / "checks.json").write_text("{}\n", "utf-8")
    args = ["check", "--build", str(template), "-o", str(folder), "--fail-on", "never"]
    return Case(args, 2, folder, said=r"not check reports \(old\)")


def _corpus(root: Path) -> Path:
    drop = root / "c" / "drops" / "d"
    drop.mkdir(parents=True)
    (drop / "fear.txt").write_text("D6 +1 12″.\n\n", "utf-8")
    return root / "c"


# --- defect 2: streams are written into, links and devices never replaced -----------------


def export_into_a_fifo(root: Path, template: Path) -> Case:
    fifo = root / "fifo"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    return Case(export_args(template, fifo), 0, fifo, expect=_receives(reader, template))


def export_into_a_device(root: Path, template: Path) -> Case:
    """Written into a character device, which stays one. Run as root: a node made in the
    case's folder with /dev/null's numbers (`mknod n c 1 3`), so that a writer that
    replaced device nodes would replace that node, never one of /dev; else a terminal,
    whose other end must receive the document."""
    if os.geteuid() == 0:
        node = root / "null"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return Case(export_args(template, node), 0, root / "none")
    main, device = new_terminal()
    reader = Reader(main)
    return Case(export_args(template, device), 0, root / "none", expect=_receives(reader, template))


def export_through_a_link_to_a_terminal(root: Path, template: Path) -> Case:
    main, device = new_terminal()
    reader = Reader(main)
    (root / "tty").symlink_to(device)
    case = Case(export_args(template, root / "tty"), 0, root / "tty")
    case.expect = _receives(reader, template)
    return case


def export_to_dash(root: Path, template: Path) -> Case:
    return Case(export_args(template, "-"), 0, root / "none", expect=_prints(template))


def export_to_standard_output_by_name(root: Path, template: Path) -> Case:
    """A path naming the process's own standard output (what /dev/stdout is: a link to
    /proc/self/fd/1, made here so that a writer that replaced it would replace this one)
    is written to that stream."""
    (root / "stdout").symlink_to("/proc/self/fd/1")
    case = Case(export_args(template, root / "stdout"), 0, root / "stdout")
    case.expect = _prints(template)
    return case


def export_through_a_link_to_a_file(root: Path, template: Path) -> Case:
    target = _previous_file(root)
    (root / "link.json").symlink_to(target)
    said = r"link\.json: is a symbolic link \(to .*rules\.json\)"
    return Case(export_args(template, root / "link.json"), 2, target, said=said)


def export_through_a_dangling_link(root: Path, template: Path) -> Case:
    (root / "link.json").symlink_to(root / "nowhere.json")
    said = r"link\.json: is a symbolic link \(to .*nowhere\.json\)"
    return Case(export_args(template, root / "link.json"), 2, root / "link.json", said=said)


def export_over_a_folder(root: Path, template: Path) -> Case:
    folder = root / "folder"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine\n", "utf-8")
    return Case(export_args(template, folder), 2, folder, said="is a folder")


def export_over_a_socket(root: Path, template: Path) -> Case:
    import socket

    path = root / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    return Case(export_args(template, path), 2, path, said="sock: is a socket; not written")


def diff_through_a_link(root: Path, template: Path) -> Case:
    target = _previous_file(root)
    (root / "changes.md").symlink_to(target)
    args = ["diff", str(template), str(template), "-o", str(root / "changes.md")]
    return Case(args, 2, target, said="is a symbolic link")


def build_through_a_link_to_a_build(root: Path, template: Path) -> Case:
    out = root / "output"
    shutil.copytree(template, out)
    (root / "link").symlink_to(out)
    corpus = _corpus(root)
    args = ["build", str(corpus), "-o", str(root / "link"), "-q"]
    return Case(args, 2, out, said=r"link: is a symbolic link \(to .*output\)")


def build_to_dash(root: Path, template: Path) -> Case:
    corpus = _corpus(root)
    said = "a rulepipe build is a folder; give -o DIR"
    return Case(["build", str(corpus), "-o", "-", "-q"], 2, corpus, said=said)


def site_into_a_fifo(root: Path, template: Path) -> Case:
    fifo = root / "fifo"
    os.mkfifo(fifo)
    return Case(export_args(template, fifo, "site"), 2, fifo, said="is a FIFO, not a folder")


def check_reports_into_a_link_to_reports(root: Path, template: Path) -> Case:
    folder = root / "checks"
    folder.mkdir()
    (folder / "checks.json").write_text(json.dumps({"previous": True}) + "\n", "utf-8")
    (root / "reports").symlink_to(folder)
    args = ["check", "--build", str(template), "-o", str(root / "reports")]
    return Case([*args, "--fail-on", "never"], 2, folder, said="is a symbolic link")


CASES = {
    "37.1-site-over-a-folder-with-photos": site_over_a_folder_with_photos,
    "37.1-site-over-its-own-site": site_over_its_own_site,
    "37.1-build-over-a-build-with-notes": build_over_a_build_with_notes,
    "37.1-build-over-a-build-holding-a-link": build_over_a_build_holding_a_link,
    "37.1-build-over-a-file": build_over_a_file,
    "37.1-check-over-reports-and-a-folder": check_over_reports_and_a_folder,
    "37.2-export-into-a-fifo": export_into_a_fifo,
    "37.2-export-into-a-device": export_into_a_device,
    "37.2-export-through-a-link-to-a-terminal": export_through_a_link_to_a_terminal,
    "37.2-export-to-dash": export_to_dash,
    "37.2-export-to-standard-output-by-name": export_to_standard_output_by_name,
    "37.2-export-through-a-link-to-a-file": export_through_a_link_to_a_file,
    "37.2-export-through-a-dangling-link": export_through_a_dangling_link,
    "37.2-export-over-a-folder": export_over_a_folder,
    "37.2-export-over-a-socket": export_over_a_socket,
    "37.2-diff-through-a-link": diff_through_a_link,
    "37.2-build-through-a-link-to-a-build": build_through_a_link_to_a_build,
    "37.2-build-to-dash": build_to_dash,
    "37.2-site-into-a-fifo": site_into_a_fifo,
    "37.2-check-reports-through-a-link": check_reports_into_a_link_to_reports,
}
