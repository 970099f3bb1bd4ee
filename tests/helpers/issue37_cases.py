"""Cases of the third hardening pass (defects 3 to 11) for the hostile suite
(tests/test_hostile.py runs each in a child under time and memory limits): each input is
a few lines built to break one reader or writer, and the command either does its work or
refuses it on one line (exit 2), never exit 3."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from .output_cases import Case

SEPARATORS = "\u2028\u0085\u2029"


def _edited_build(root: Path, template: Path, name: str = "build") -> Path:
    """A copy of the template build whose first segment's text holds the line and
    paragraph separators, as a build of such a text writes it (raw, one line each)."""
    build = root / name
    shutil.copytree(template, build)
    path = build / "segments.jsonl"
    lines = path.read_text("utf-8").split("\n")
    seg = json.loads(lines[0])
    seg["raw"] = seg["text"] = f"D6 +1{SEPARATORS[0]} 12″{SEPARATORS[1]} x{SEPARATORS[2]}."
    lines[0] = json.dumps(seg, ensure_ascii=False, separators=(",", ":"))
    path.write_text("\n".join(lines), "utf-8")
    return build


def _corpus(root: Path, files: dict[str, str]) -> Path:
    drop = root / "c" / "drops" / "d"
    drop.mkdir(parents=True)
    for name, text in files.items():
        (drop / name).write_text(text, "utf-8")
    return root / "c"


def _reports(root: Path) -> Path:
    folder = root / "checks"
    folder.mkdir()
    (folder / "checks.json").write_text('{"previous": true}\n', "utf-8")
    return folder


# --- defect 4: a line or paragraph separator in a text --------------------------------


def separators_built_then_checked(root: Path, template: Path) -> Case:
    """A real build of a text holding them, then `check --build` over it."""
    corpus = _corpus(root, {"fear.txt": f"D6 +1{SEPARATORS} 12″.\n\n"})
    build = root / "build"
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(build), "-q"],
        capture_output=True,
        text=True,
        cwd=root,
    )
    assert done.returncode == 0, done.stderr
    assert SEPARATORS[0] in (build / "segments.jsonl").read_text("utf-8")
    folder = _reports(root)
    args = ["check", "--build", str(build), "-o", str(folder), "--fail-on", "never"]
    return Case(args, 0, folder)


def separators_exported(root: Path, template: Path) -> Case:
    build = _edited_build(root, template)
    args = ["export", "--format", "tmx", "--build", str(build), "-o", str(root / "out.tmx")]
    case = Case(args, 0, root / "out.tmx")

    def kept(root: Path, stdout: str) -> None:
        assert SEPARATORS[0] in (root / "out.tmx").read_text("utf-8")

    case.expect = kept
    return case


def separators_suggested(root: Path, template: Path) -> Case:
    build = _edited_build(root, template)
    args = ["glossary", "suggest", "--build", str(build), "-o", str(root / "terms.tsv")]
    return Case(args, 0, root / "terms.tsv")


def separators_in_pairs(root: Path, template: Path) -> Case:
    pairs = root / "pairs.jsonl"
    row = {"id": "p", "source": f"Fear{SEPARATORS} -1.", "target": f"Страх{SEPARATORS} -1."}
    row |= {"source_lang": "en", "target_lang": "ru"}
    pairs.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    folder = _reports(root)
    args = ["check", "--pairs", str(pairs), "-o", str(folder), "--fail-on", "never"]
    return Case(args, 0, folder)


def separators_in_po(root: Path, template: Path) -> Case:
    po = (
        'msgid ""\nmsgstr ""\n"Language: ru\\n"\n"X-Source-Language: en\\n"\n\n'
        f'msgctxt "a"\nmsgid "D6 +1{SEPARATORS} 12″."\nmsgstr "D6 +1{SEPARATORS} 12″."\n'
    )
    corpus = _corpus(root, {"t.po": po})
    out = root / "output"
    case = Case(["build", str(corpus), "-o", str(out), "-q"], 0, out)

    def read(root: Path, stdout: str) -> None:
        lines = (out / "segments.jsonl").read_text("utf-8").split("\n")
        texts = [json.loads(line)["raw"] for line in lines if line]
        assert texts == [f"D6 +1{SEPARATORS} 12″."] * 2

    case.expect = read
    return case


CASES = {
    "37.4-separators-built-then-checked": separators_built_then_checked,
    "37.4-separators-exported": separators_exported,
    "37.4-separators-suggested": separators_suggested,
    "37.4-separators-in-pairs": separators_in_pairs,
    "37.4-separators-in-po": separators_in_po,
}
