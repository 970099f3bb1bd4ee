"""Hostile and broken inputs, run as a user runs them (`rulepipe build` on a corpus in
tmp): each gets a correct result, or exit 2 with one line naming the file and the place;
never a traceback, a hang, or a changed previous output folder.

The helpers here are shared with tests/test_emit_crash.py.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from pipeline.files import MAX_FILE_BYTES
from pipeline.ingest.text import MAX_BLOCK_CHARS
from pipeline.schemas import validator
from pipeline.slug import RESERVED

from .conftest import ROOT, run_cli
from .helpers.issue37_cases import CASES as ISSUE37_CASES
from .helpers.output_cases import CASES as OUTPUT_CASES
from .helpers.output_cases import Case, state
from .helpers.outputs import assert_refused, leftovers, limits, make_corpus, tree

PREVIOUS_TEXT = (
    "Models with Fear suffer -1 Discipline.\n\nМодели с правилом Страх получают -1 к Дисциплине.\n"
)


MEMORY_LIMIT = 2 * 1024**3  # address space of a child: a runaway allocation fails, not the host


def run_measured(
    *args: str,
    timeout: float = 600,
    cwd: Path | None = None,
    memory: int = MEMORY_LIMIT,
    file_size: int | None = None,
    module: str = "pipeline",
) -> tuple[int, str, str, int]:
    """Run `python -m pipeline ARGS` (or another module: tests.helpers.faults) with at most
    `memory` bytes of address space and files of at most `file_size` bytes; return exit
    code, stdout, stderr and the peak resident memory of that process alone, in KiB
    (killed after timeout seconds)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, "-m", module, *args],
            cwd=cwd or ROOT,
            env=env,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            preexec_fn=limits(memory=memory, file_size=file_size),
        )
        timer = threading.Timer(timeout, child.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (
            child.returncode,
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            usage.ru_maxrss,
        )


def copy_build(template: Path, dest: Path) -> Path:
    shutil.copytree(template, dest)
    return dest


# --- a previous build that every refused build must leave byte-identical -------------


@pytest.fixture(scope="session")
def previous_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("previous")
    corpus = make_corpus(root / "corpus", {"fear.txt": PREVIOUS_TEXT})
    result = run_cli("build", str(corpus), "-o", str(root / "output"), "-q")
    assert result.returncode == 0, result.stderr
    return root / "output"


@pytest.fixture
def previous(previous_template: Path, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A copy of a good build in tmp_path/output, and its bytes."""
    out = copy_build(previous_template, tmp_path / "output")
    return out, tree(out)


def build_over(
    previous: tuple[Path, dict[str, bytes]], corpus: Path, *extra: str
) -> subprocess.CompletedProcess[str]:
    out, _ = previous
    return run_cli("build", str(corpus), "-o", str(out), "-q", *extra)


def segments(out: Path) -> list[dict]:
    lines = (out / "segments.jsonl").read_text("utf-8").splitlines()
    return [json.loads(line) for line in lines]


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text("utf-8"))


# --- encodings ------------------------------------------------------------------------

INVALID_UTF8 = {
    # name: (bytes, line, byte offset of the first bad byte)
    "lone-continuation": (b"Fear.\n\nModels with \x80 Fear.\n", 3, 19),
    "truncated-at-end": ("Страх.\n".encode() + "Сила".encode()[:-1], 2, 18),
    "encoded-surrogate": (b"One.\nTwo \xed\xa0\x80 three.\n", 2, 9),
    "overlong-slash": (b"a.\nb.\nc \xc0\xaf d.\n", 3, 8),
}


@pytest.mark.parametrize("case", sorted(INVALID_UTF8))
def test_invalid_utf8_names_file_line_and_byte(tmp_path, previous, case):
    data, line, byte = INVALID_UTF8[case]
    corpus = make_corpus(tmp_path / "c", {"ok.txt": PREVIOUS_TEXT, "bad.md": data})
    result = build_over(previous, corpus)
    assert_refused(result, rf"bad\.md:{line} \(byte {byte}\): not UTF-8", *previous)


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_detected_and_read(tmp_path, encoding):
    text = "Модели с правилом Страх.\n\nModels with Fear suffer -1 Discipline.\n"
    corpus = make_corpus(tmp_path / "c", {"a.txt": text.encode(encoding)})
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"), "-q")
    assert result.returncode == 0, result.stderr
    assert [(s["raw"], s["lang"]) for s in segments(tmp_path / "out")] == [
        ("Модели с правилом Страх.", "ru"),
        ("Models with Fear suffer -1 Discipline.", "en"),
    ]


def test_utf16_with_bom_is_read_the_same_as_without(tmp_path):
    text = "Модели с правилом Страх.\n"
    corpus = make_corpus(
        tmp_path / "c", {"bom.txt": text.encode("utf-16"), "nobom.txt": text.encode("utf-16-le")}
    )
    result = run_cli("build", str(corpus), "-o", str(tmp_path / "out"), "-q")
    assert result.returncode == 0, result.stderr
    raws = [s["raw"] for s in segments(tmp_path / "out")]
    assert raws == ["Модели с правилом Страх.", "Модели с правилом Страх."]


@pytest.mark.parametrize(
    ("name", "data", "pattern"),
    [
        # a NUL code unit in BOM-marked UTF-16
        (
            "u16.txt",
            "Line one.\nLine\x00two.\n".encode("utf-16"),
            r"u16\.txt:2 \(byte 30\): NUL character",
        ),
        # NULs on both byte lanes: binary, whatever the name says
        ("blob.md", b"Fear.\n\n" + bytes(range(256)) * 4, r"blob\.md:3 \(byte 7\): binary"),
        # odd length with a NUL: cannot be UTF-16
        ("odd.txt", b"Fear\x00", r"odd\.txt:1 \(byte 4\): binary"),
        # one NUL lane, but no white space anywhere: not text in any encoding we read
        ("lane.txt", b"Fear\x00.", r"lane\.txt:1 \(byte 4\): binary"),
        # UTF-16 without a BOM and without a NUL: control characters in UTF-8 terms
        (
            "cyr.txt",
            "Страх".encode("utf-16-le"),
            r"cyr\.txt:1 \(byte 1\): control character U\+0004",
        ),
        # UTF-16 without a BOM that decodes to control characters: not text
        ("ctl.txt", "ab\x01\x02cd".encode("utf-16-le"), r"ctl\.txt:1 \(byte 1\): binary"),
    ],
)
def test_nul_bytes_are_refused_with_line_and_byte(tmp_path, previous, name, data, pattern):
    corpus = make_corpus(tmp_path / "c", {"ok.txt": PREVIOUS_TEXT, name: data})
    assert_refused(build_over(previous, corpus), pattern, *previous)


# --- size -----------------------------------------------------------------------------


def test_200_mb_single_line_file_is_refused_unread(tmp_path, previous):
    corpus = make_corpus(tmp_path / "c", {"ok.txt": PREVIOUS_TEXT})
    huge = corpus / "drops" / "d" / "huge.txt"
    line = b"Models with Fear suffer -1 Discipline and move 2D6 inches, " * 1000
    try:
        with huge.open("wb") as fh:  # streamed: 200 MB, no line break
            while fh.tell() < 200 * 1024 * 1024:
                fh.write(line)
        out, before = previous
        code, stdout, stderr, peak_kib = run_measured(
            "build", str(corpus), "-o", str(out), "-q", timeout=120
        )
        result = subprocess.CompletedProcess([], code, stdout, stderr)
        assert_refused(result, rf"huge\.txt: file too large \(\d+ bytes; limit {MAX_FILE_BYTES}\)")
        assert tree(out) == before
        assert leftovers(out.parent) == []
        assert peak_kib < 1024 * 1024  # never read into memory (a read alone would be 200 MB+)
    finally:
        huge.unlink(missing_ok=True)


def test_a_long_line_under_the_size_limit_is_cut_into_bounded_blocks(tmp_path):
    sentence = "Models with Fear suffer -1 Discipline and move 2D6 inches. "
    text = sentence * (300_000 // len(sentence)) + "Last words"
    corpus = make_corpus(tmp_path / "c", {"long.txt": text})
    out = tmp_path / "out"
    code, _, stderr, _ = run_measured("build", str(corpus), "-o", str(out), "-q", timeout=300)
    assert code == 0, stderr
    found = segments(out)
    assert len(found) >= len(text) // MAX_BLOCK_CHARS
    assert all(len(s["raw"]) <= MAX_BLOCK_CHARS for s in found)
    assert all(s["lines"] == [1, 1] for s in found)
    assert "".join(s["raw"] for s in found).replace(" ", "") == text.replace(" ", "")
    assert manifest(out)["accounting"]["balanced"] is True


def test_100000_tiny_files_build_and_are_all_accounted_for(tmp_path):
    corpus = tmp_path / "c"
    for i in range(100_000):
        folder = corpus / "drops" / f"d{i // 5000:02d}"
        if i % 5000 == 0:
            folder.mkdir(parents=True)
        lang_text = f"Models with Fear {i} suffer -1 Discipline." if i % 2 else f"Страх {i}."
        (folder / f"f{i:06d}.txt").write_text(lang_text + "\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, stderr, _ = run_measured("build", str(corpus), "-o", str(out), "-q", timeout=600)
    assert code == 0, stderr
    m = manifest(out)
    assert len(m["inputs"]) == 100_000
    assert m["counts"]["segments"] == 100_000
    accounting = m["accounting"]
    assert accounting["balanced"] is True
    assert accounting["in_rules"] + accounting["copies"] + accounting["unassigned"] == 100_000
    with (out / "segments.jsonl").open(encoding="utf-8") as fh:
        assert sum(1 for _ in fh) == 100_000
    shutil.rmtree(corpus)


# --- markup and layout ----------------------------------------------------------------


def test_deep_and_unbalanced_bbcode_builds_and_keeps_the_raw_text(tmp_path):
    deep = "[b]" * 6_000 + "Deep." + "[/i]" * 50  # under MAX_BLOCK_CHARS: one block
    crossed = "[b][i]Crossed [/b] tags[/i] and [url=javascript:alert(1)]a link[/url]."
    unclosed = "[quote][color=red]Never closed, spans\nthe next line."
    text = "\n\n".join([deep, crossed, unclosed]) + "\n"
    corpus = make_corpus(tmp_path / "c", {"bb.txt": text})
    out = tmp_path / "out"
    code, _, stderr, _ = run_measured("build", str(corpus), "-o", str(out), "-q", timeout=300)
    assert code == 0, stderr
    found = {s["raw"]: s for s in segments(out)}
    assert list(found) == [deep, crossed, unclosed]
    assert found[deep]["text"] == "Deep."
    assert len(found[deep]["markup"]) == 6_050
    assert found[crossed]["text"] == "Crossed tags and a link."
    assert found[unclosed]["text"] == "Never closed, spans the next line."
    assert manifest(out)["accounting"]["balanced"] is True


def test_markdown_table_with_ragged_rows_keeps_every_cell(tmp_path):
    table = (
        "| D6 | Result |\n|---|---|\n| 1 | Falls. |\n| 2-5 |\n"
        "| 6 | Lands. | extra | more |\n|\n| | |\n"
    )
    corpus = make_corpus(tmp_path / "c", {"t.md": "# ПРЫЖОК\n\n" + table})
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    [seg] = [s for s in segments(out) if s["kind"] == "table"]
    assert seg["rows"] == [
        ["D6", "Result"],
        ["1", "Falls."],
        ["2-5"],
        ["6", "Lands.", "extra", "more"],
        [""],
        ["", ""],
    ]
    assert seg["raw"] == table.rstrip("\n")


# --- rule names that would make bad file names ----------------------------------------

HOSTILE_NAMES = [
    "../../etc",
    "..",
    "...",
    "/etc/passwd",
    "C:\\Windows\\System32",
    "\\\\server\\share",
    "CON",
    "con.txt",
    "NUL",
    "LPT1",
    "—",
    "###",
    "Ωμέγα",
    "a" * 300,
]


def test_rule_names_that_would_escape_or_name_a_device_become_safe_ids(tmp_path):
    body = "\n\n".join(
        f"# {name}\n\nText number {i} under it." for i, name in enumerate(HOSTILE_NAMES)
    )
    corpus = make_corpus(tmp_path / "c", {"names.md": body + "\n"})
    out = tmp_path / "work" / "output"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "work").iterdir()) == ["output"]
    files = sorted((out / "rules").iterdir())
    rules = json.loads((out / "rules.json").read_text("utf-8"))
    assert sorted(f"{r['id']}.yaml" for r in rules) == [p.name for p in files]
    for path in files:
        assert path.parent == out / "rules" and path.is_file()
        stem = path.name.removesuffix(".yaml")
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", stem), stem
        assert stem.split(".")[0] not in RESERVED
        assert len(stem) <= 80
    ids = {r["id"] for r in rules}
    assert {"etc", "etc-passwd", "con-rule", "nul-rule", "lpt1-rule"} <= ids
    assert len(ids) == len(rules)


# --- YAML and JSON of the wrong shape -------------------------------------------------

BAD_GLOSSARIES = {
    "a-list": (
        "- en: [Fear]\n- ru: [Страх]\n",
        r":top level: not a glossary: .* is not of type 'object'",
    ),
    "a-scalar": (
        "just words\n",
        r":top level: not a glossary: 'just words' is not of type 'object'",
    ),
    "empty-file": ("", r":top level: not a glossary: None is not of type 'object'"),
    "terms-a-mapping": (
        "languages: [en]\nterms: {fear: [Fear]}\n",
        r":terms: not a glossary: .* is not of type 'array'",
    ),
    "duplicate-id": (
        "languages: [en, ru]\nterms:\n  - {id: fear, en: [Fear]}\n  - {id: fear, en: [Terror]}\n",
        r":terms/1: duplicate term id 'fear'",
    ),
    "empty-term": (
        "languages: [en]\nterms:\n  - {id: fear, en: ['']}\n",
        r":terms/0/en/0: not a glossary: '' should be non-empty",
    ),
    "blank-term": (
        "languages: [en]\nterms:\n  - {id: fear, en: ['   ']}\n",
        r":terms/0/en/0: not a glossary: '   ' does not match",
    ),
    "no-renderings": (
        "languages: [en]\nterms:\n  - {id: fear, en: []}\n",
        r":terms/0/en: not a glossary: \[\] should be non-empty",
    ),
    "duplicate-rendering": (
        "languages: [en]\nterms:\n  - {id: fear, en: [Fear, Fear]}\n",
        r":terms/0/en: not a glossary: .* has non-unique elements",
    ),
    "same-rendering-two-terms": (
        "languages: [en]\nterms:\n  - {id: fear, en: [Fear]}\n  - {id: dread, en: [' fear']}\n",
        r":terms/1/en/0: ' fear' \(en\) is already a rendering of term 'fear'",
    ),
    "empty-id": (
        "languages: [en]\nterms:\n  - {id: '', en: [Fear]}\n",
        r":terms/0/id: not a glossary: '' does not match",
    ),
    "bad-yaml": ("languages: [en\nterms: x\n", r":2:6: not valid YAML"),
    "nul-byte": ("languages: [en]\x00\n", r":1 \(byte 15\): binary file"),
}


@pytest.mark.parametrize("case", sorted(BAD_GLOSSARIES))
def test_glossary_of_the_wrong_shape_is_refused_with_its_place(tmp_path, previous, case):
    text, pattern = BAD_GLOSSARIES[case]
    corpus = make_corpus(tmp_path / "c", {"fear.txt": PREVIOUS_TEXT})
    glossary = tmp_path / "terms.yaml"
    glossary.write_bytes(text.encode("utf-8"))
    result = build_over(previous, corpus, "--glossary", str(glossary))
    assert_refused(result, r"terms\.yaml" + pattern, *previous)


RULE_FILE_SHAPES = {
    "a-list": ("- op: extra-dice\n", r": a rule file must hold one YAML mapping"),
    "a-scalar": ("swiftstride\n", r": a rule file must hold one YAML mapping"),
    "empty": ("", r": a rule file must hold one YAML mapping"),
    "effects-a-mapping": (
        "id: swiftstride\nkind: special-rule\neffects: {op: roll}\n",
        r":effects: 'effects' must be a list",
    ),
    "id-a-number": ("id: 7\nkind: special-rule\neffects: []\n", r":id: "),
    "bad-yaml": ("id: swiftstride\n  effects: [\n", r":2:\d+: not valid YAML"),
    "json-wrong-shape": ('["id", "swiftstride"]', r": a rule file must hold one YAML mapping"),
    "effect-unknown-op": (
        "id: swiftstride\nkind: special-rule\neffects: [{op: teleport}]\n",
        r":effects\[0\]: unknown effect op 'teleport'",
    ),
}


@pytest.mark.parametrize("case", sorted(RULE_FILE_SHAPES))
def test_charge_refuses_a_rule_file_edited_to_a_wrong_shape(tmp_path, case):
    text, pattern = RULE_FILE_SHAPES[case]
    build = copy_build(ROOT / "output", tmp_path / "output")
    target = build / "rules" / "swiftstride.yaml"
    assert target.is_file()
    target.write_text(text, encoding="utf-8")
    before = tree(build)
    args = ["--distance", "10", "--advance", "6", "--rules", "swiftstride", "--build", str(build)]
    result = run_cli("charge", *args, "--json")
    assert_refused(result, r"swiftstride\.yaml" + pattern)
    assert tree(build) == before


# --- JSON Lines ------------------------------------------------------------------------

GOOD_LINE = '{"id": "p1", "text": "Models with Fear suffer -1 Discipline.", "lang": "en"}'
BAD_JSONL = {
    "truncated": ('{"id": "p2", "text": "Cut off', r":2: not JSON: Unterminated string"),
    "array": ('["p2", "text", "en"]', r":2: expected a JSON object, got list"),
    "number": ("42", r":2: expected a JSON object, got int"),
    "null-text": ('{"id": "p2", "text": null, "lang": "en"}', r":2: field 'text' missing"),
    "no-lang": ('{"id": "p2", "text": "x"}', r":2: field 'lang' missing"),
    "id-a-number": ('{"id": 2, "text": "x", "lang": "en"}', r":2: field 'id' missing"),
    "trailing-garbage": (GOOD_LINE + " }", r":2: not JSON: Extra data"),
    "invalid-utf8": ('{"id": "p2", "text": "\udcff", "lang": "en"}', r":2 \(byte \d+\): not UTF-8"),
}


@pytest.mark.parametrize("case", sorted(BAD_JSONL))
def test_extract_refuses_a_broken_line_in_the_middle_and_prints_nothing(tmp_path, case):
    line, pattern = BAD_JSONL[case]
    path = tmp_path / "pairs.jsonl"
    body = "\n".join([GOOD_LINE, line, GOOD_LINE.replace("p1", "p3")]) + "\n"
    path.write_bytes(body.encode("utf-8", "surrogateescape"))
    result = run_cli("extract", str(path))
    assert_refused(result, r"pairs\.jsonl" + pattern)


def test_extract_reads_blank_lines_crlf_and_a_bom(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_bytes(("\ufeff" + GOOD_LINE + "\r\n\r\n" + GOOD_LINE.replace("p1", "p2")).encode())
    result = run_cli("extract", str(path))
    assert result.returncode == 0, result.stderr
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["id"] for r in rows] == ["p1", "p2"]
    assert all(r["name"] == "Fear" for r in rows)


@pytest.mark.parametrize(
    ("escape", "said"),
    [("\\u001B", "U+001B"), ("\\u0000", "NUL character"), ("\\b", "U+0008"), ("\\u00e9", None)],
)
def test_a_segment_holding_a_control_character_is_refused_however_escaped(previous, escape, said):
    """A build's texts are input text: ESC, NUL or a backspace in a segment (an edited
    build; no reader lets them in) is refused with its line, however JSON escapes it,
    before a writer copies it (a PO file took it raw); an escaped letter is text."""
    from pipeline.build_folder import read_segments
    from pipeline.errors import InputError

    out, _ = previous
    path = out / "segments.jsonl"
    first, *rest = path.read_text("utf-8").split("\n")
    edited = first.replace('"raw":"', '"raw":"\\\\b' + escape, 1)  # an escaped backslash too
    assert edited != first
    path.write_text("\n".join([edited, *rest]), "utf-8")
    if said is None:
        assert next(iter(read_segments(out)))["raw"].startswith("\\b\u00e9")
        return
    with pytest.raises(InputError, match=rf"segments\.jsonl:1: .*{re.escape(said)} in a string"):
        list(read_segments(out))


def test_every_object_of_a_hostile_build_validates(tmp_path):
    text = "# ../x\n\n[b]Models with [i]Fear[/b] -1.\n\n| 1 | a |\n| 2 |\n\nCON\n\nStrah.\n"
    corpus = make_corpus(tmp_path / "c", {"h.md": text})
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    for seg in segments(out):
        assert validator("segment").reference.is_valid(seg)
    for path in (out / "rules").iterdir():
        assert validator("rule").reference.is_valid(yaml.safe_load(path.read_text("utf-8")))
    assert validator("manifest").reference.is_valid(manifest(out))


# --- nothing is read outside the corpus -----------------------------------------------

CANARY = "CANARY-7f3a the secret of the machine"


def tmx(doctype: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"{doctype}\n"
        '<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="paragraph"'
        ' adminlang="en" creationtool="t" creationtoolversion="1" o-tmf="t"/>\n'
        '<body><tu><tuv xml:lang="en"><seg>Models with Fear suffer -1 Discipline.</seg></tuv>'
        "</tu></body></tmx>\n"
    )


def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary.txt"
    path.write_text(CANARY + "\n", "utf-8")
    return path


def output_text(out: Path) -> str:
    return "\n".join(data.decode("utf-8", "replace") for data in tree(out).values())


@pytest.mark.parametrize("system", ["tmx14.dtd", "../../../canary.txt", "../../../fifo"])
def test_a_doctype_naming_a_file_is_never_opened(tmp_path, system):
    """Real TMX exports name `tmx14.dtd`; a relative name reaching out of the corpus (a
    file, or a FIFO that would block the build) is not opened either."""
    canary(tmp_path)
    os.mkfifo(tmp_path / "fifo")
    opened = watch_fifo(tmp_path / "fifo")
    corpus = make_corpus(tmp_path / "c", {"tm.tmx": tmx(f'<!DOCTYPE tmx SYSTEM "{system}">')})
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", str(corpus), "-o", str(out), "-q"],
        cwd=corpus / "drops" / "d",
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 0, result.stderr
    assert [s["raw"] for s in segments(out)] == ["Models with Fear suffer -1 Discipline."]
    assert CANARY not in output_text(out)
    assert not opened.is_set()


def test_the_xml_parser_opens_no_relative_external_subset(tmp_path, monkeypatch):
    from pipeline.xmlsafe import parse_xml

    canary(tmp_path)
    monkeypatch.chdir(tmp_path)
    root = parse_xml("tm.tmx", tmx('<!DOCTYPE tmx SYSTEM "canary.txt">').encode())
    assert root.tag == "tmx"  # an opened canary is "Content error in the external subset"


def test_a_link_out_of_the_corpus_is_listed_not_read(tmp_path):
    secret = canary(tmp_path)
    corpus = make_corpus(tmp_path / "c", {"fear.txt": PREVIOUS_TEXT})
    drop = corpus / "drops" / "d"
    (drop / "passwd.txt").symlink_to(secret)
    (drop / "gone.txt").symlink_to(tmp_path / "nowhere.txt")
    (drop / "sub").symlink_to(drop)  # a loop, were it followed
    (drop / "again.txt").symlink_to(drop / "fear.txt")  # inside the corpus: read
    os.mkfifo(drop / "pipe.txt")
    opened = watch_fifo(drop / "pipe.txt")
    (corpus / "drops" / "root").symlink_to("/")
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    assert CANARY not in output_text(out)
    assert not opened.is_set()
    skipped = {(s["drop"], s["file"]): s["reason"] for s in manifest(out)["skipped"]}
    assert set(skipped) == {
        ("d", "passwd.txt"),
        ("d", "gone.txt"),
        ("d", "sub"),
        ("d", "pipe.txt"),
        ("root", "."),
    }
    assert "out of the corpus" in skipped[("d", "passwd.txt")]
    assert "dangling" in skipped[("d", "gone.txt")]
    assert "folder" in skipped[("d", "sub")]
    assert "FIFO" in skipped[("d", "pipe.txt")]
    assert "drop folder is a symbolic link" in skipped[("root", ".")]
    read = sorted(f["file"] for f in manifest(out)["inputs"])
    assert read == ["again.txt", "fear.txt"]


def watch_fifo(fifo: Path, seconds: float = 30.0) -> threading.Event:
    """Set when anything opens the FIFO for reading; that reader then gets end of file at
    once instead of waiting (so a test of a reader that wrongly opens it fails, not hangs)."""
    opened = threading.Event()

    def poll() -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: no reader
                time.sleep(0.05)
                continue
            opened.set()
            os.close(fd)
            return

    threading.Thread(target=poll, daemon=True).start()
    return opened


def test_only_regular_files_are_read_and_never_past_the_limit(tmp_path):
    from pipeline.errors import InputError
    from pipeline.files import read_bytes

    os.mkfifo(tmp_path / "fifo")
    opened = watch_fifo(tmp_path / "fifo")
    with pytest.raises(InputError, match="is a FIFO, not a regular file"):
        read_bytes(tmp_path / "fifo")  # refused at once, never waiting for a writer
    assert not opened.is_set()
    with pytest.raises(InputError, match="too large"):
        read_bytes(Path("/proc/self/status"), limit=16)  # its size says 0
    (tmp_path / "link").symlink_to(tmp_path / "fifo")
    with pytest.raises(InputError, match="symbolic link"):
        read_bytes(tmp_path / "link", follow=False)


def test_a_fifo_given_as_a_pairs_file_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "pairs.jsonl")
    watch_fifo(tmp_path / "pairs.jsonl")
    result = run_cli("check", "--pairs", str(tmp_path / "pairs.jsonl"))
    assert_refused(result, r"pairs\.jsonl: .*FIFO")


# --- no rule text is lost as a translator's aside ---------------------------------------

STUPID = "Models with Stupidity must take a Discipline Test at the start of each turn {}."


def test_a_parenthesis_with_rule_content_is_rule_text_and_not_a_copy(tmp_path):
    text = "\n\n".join(
        STUPID.format(f"(on a {n}, the unit may not move - Stupidity)")
        for n in ("1 or 2", "5 or 6")
    )
    corpus = make_corpus(tmp_path / "c", {"stupid.txt": text + "\n"})
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    segs = segments(out)
    assert [s.get("asides", []) for s in segs] == [[], []]
    assert "5 or 6" in segs[1]["text"]
    assert segs[0]["sha256"] != segs[1]["sha256"]
    assert "5 or 6" in (out / "rules.json").read_text("utf-8")


def test_only_a_persons_remark_is_set_apart():
    from pipeline.ingest.asides import find_asides

    remark = "Текст (тут, я чуть не упал под стол, - Oleon) дальше."
    assert [(a.start, a.end) for a in find_asides(remark)] == [(5, 45)]
    not_remarks = [
        "Text (the unit may not move - Stupidity) end.",  # rule terms, no first person
        "Text (I roll a D6 here - Oleon) end.",  # a quantity
        "Текст (я бы сказал: два раза - Oleon) дальше.",  # a number word
        "Текст (мне кажется, отряда тут нет - Oleon) дальше.",  # a rule term, inflected
    ]
    for raw in not_remarks:
        assert find_asides(raw) == (), raw
    assert find_asides("Text (I love Frenzy - Oleon) end.", ("Frenzy",)) == ()
    assert find_asides("Text (I love Frenzy - Oleon) end.") != ()


def test_blocks_that_differ_only_in_an_aside_are_not_exact_copies(tmp_path):
    text = "Модели с правилом Страх получают -1 к Дисциплине {}.\n\n"
    files = {
        "a.txt": text.format("(тут я чуть не упал под стол, - Oleon)"),
        "b.txt": text.format("(а я вот не упал, - Ivan)"),
    }
    corpus = make_corpus(tmp_path / "c", files)
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    segs = segments(out)
    assert all(s["asides"] for s in segs)
    assert segs[0]["text"] == segs[1]["text"]  # the text used for matching leaves them out
    assert segs[0]["sha256"] != segs[1]["sha256"]
    clusters = json.loads((out / "clusters.json").read_text("utf-8"))
    relations = [m["relation"] for c in clusters["clusters"] for m in c["members"]]
    assert "exact" not in relations


# --- drop.yaml as people write it ---------------------------------------------------------


def test_an_unquoted_yaml_date_is_read_as_the_date(tmp_path):
    corpus = make_corpus(
        tmp_path / "c", {"fear.txt": PREVIOUS_TEXT, "drop.yaml": "date: 2024-01-31\n"}
    )
    out = tmp_path / "out"
    result = run_cli("build", str(corpus), "-o", str(out), "-q")
    assert result.returncode == 0, result.stderr
    assert [d["date"] for d in manifest(out)["drops"]] == ["2024-01-31"]


@pytest.mark.parametrize(
    ("yaml_text", "pattern"),
    [
        ('language: "ru\\n"\n', r"drop\.yaml:language: not drop metadata"),
        (
            'date: "2024-13-45"\n',
            r"drop\.yaml:date: not drop metadata: '2024-13-45' is not a calendar",
        ),
        ('date: "٢٠٢٤-٠١-٣١"\n', r"drop\.yaml:date: not drop metadata"),
        ("date: 2024-01-31 10:00:00\n", r"drop\.yaml:date: not drop metadata"),
    ],
)
def test_drop_metadata_that_only_looks_right_is_refused(tmp_path, previous, yaml_text, pattern):
    corpus = make_corpus(tmp_path / "c", {"fear.txt": PREVIOUS_TEXT, "drop.yaml": yaml_text})
    assert_refused(build_over(previous, corpus), pattern, *previous)


def test_files_written_with_o_have_the_modes_of_the_build(tmp_path, previous):
    out, _ = previous
    target = tmp_path / "rules-export.json"
    result = run_cli("export", "--format", "json", "--build", str(out), "-o", str(target))
    assert result.returncode == 0, result.stderr
    build_mode = (out / "rules.json").stat().st_mode & 0o777
    assert target.stat().st_mode & 0o777 == build_mode == 0o666 & ~current_umask()


def test_a_build_is_its_own_and_writes_nothing_outside_its_inventory(tmp_path, previous):
    """The output rule tells a writer's folder by the exact inventory of what it writes:
    the committed build and a fresh one hold nothing else, and a writer asked to write
    another name fails before anything lands (its next run would refuse the folder)."""
    from pipeline.build_folder import BUILD
    from pipeline.emit import BuildOutput

    out, _ = previous
    assert BUILD.foreign(ROOT / "output") is None and BUILD.foreign(out) is None
    (out / "rules" / "deep").mkdir()
    (out / "rules" / "deep" / "x.yaml").write_text("id: x\n", "utf-8")
    assert BUILD.foreign(out) is None  # ids with a slash are rules/a/b.yaml
    (out / "rules" / "deep" / "x.yml").write_text("id: x\n", "utf-8")
    assert BUILD.foreign(out) == "rules/deep/x.yml"
    target = tmp_path / "new"
    with pytest.raises(ValueError, match="not in the build's inventory"), BuildOutput(target) as b:
        b.write_text("notes.json", "{}")
    assert not target.exists() and leftovers(tmp_path) == []


def test_po_files_written_into_a_folder_follow_the_rule_one_by_one(tmp_path):
    from pipeline.commands.export import write_po_files
    from pipeline.errors import InputError

    folder = tmp_path / "po"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n", "utf-8")
    (tmp_path / "theirs.po").write_text("previous\n", "utf-8")
    (folder / "ru.po").symlink_to(tmp_path / "theirs.po")
    with pytest.raises(InputError, match=r"ru\.po: is a symbolic link"):
        write_po_files({"it": "it\n", "ru": "ru\n"}, folder)
    assert (tmp_path / "theirs.po").read_text("utf-8") == "previous\n"
    (folder / "ru.po").unlink()
    write_po_files({"it": "it\n", "ru": "ru\n"}, folder)
    assert tree(folder) == {"it.po": b"it\n", "notes.txt": b"mine\n", "ru.po": b"ru\n"}


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("bundle", ['[{"id": 5}]', '[{"id": "x"}]', "[[]]"])
def test_diff_refuses_a_malformed_rule_bundle(tmp_path, previous, bundle):
    out, _ = previous
    broken = copy_build(out, tmp_path / "broken")
    (broken / "rules.json").write_text(bundle, "utf-8")
    result = run_cli("diff", str(out), str(broken))
    assert_refused(result, r"broken/rules\.json.*not a rule bundle")


@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        ('{"id": "a", "text": "x \\ud800 y", "lang": "en"}', r"lone surrogate"),
        (
            '{"id": "a", "text": "t", "lang": "en", "x": ' + "[" * 5000 + "]" * 5000 + "}",
            r"nested too deeply \(limit 64\)",
        ),
    ],
)
def test_extract_refuses_json_that_is_no_text(tmp_path, line, pattern):
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": "ok", "text": "Fear.", "lang": "en"}\n' + line + "\n", "utf-8")
    assert_refused(run_cli("extract", str(path)), rf"in\.jsonl:2: .*{pattern}")


# --- the check report stays linear however findings nest ---------------------------------


def test_the_check_report_stays_linear_with_thousands_of_nested_findings(tmp_path):
    """4,000 nested [b] in the source mirrored as [i] in the translation: 4,000 findings
    (each [b] written as [i]) whose spans all nest. Each cut of the texts is one flat mark
    naming the classes of finding over it, a pair lists its first findings one by one: the
    page, the JSON and the memory grow with the input, not with its square (before:
    112 MB, 922 MB)."""
    depth = 4000
    pair = {
        "id": "deep",
        "source": "[b]" * depth + "Models with Fear suffer -1 Discipline." + "[/b]" * depth,
        "target": "[i]" * depth
        + "Модели с правилом Страх получают -1 к Дисциплине."
        + "[/i]" * depth,
        "source_lang": "en",
        "target_lang": "ru",
    }
    pairs = tmp_path / "deep.jsonl"
    pairs.write_text(json.dumps(pair, ensure_ascii=False) + "\n", "utf-8")
    size = pairs.stat().st_size
    out = tmp_path / "report"
    code, _, stderr, peak_kib = run_measured(
        "check", "--pairs", str(pairs), "-o", str(out), "--fail-on", "never", timeout=300
    )
    assert code == 0, stderr
    page = (out / "checks.html").read_text("utf-8")
    data = json.loads((out / "checks.json").read_text("utf-8"))
    assert len(data["findings"]) == depth
    assert len(page.encode()) < 50 * size
    assert (out / "checks.json").stat().st_size < 100 * size
    assert peak_kib < 512 * 1024
    marks = re.findall(r"<mark[^>]*>([^<]*)</mark>", page)  # flat: no tag inside a mark
    assert page.count("<mark") == len(marks) <= 2 * 2 * depth + 4
    assert max(len(m) for m in re.findall(r'data-f="([^"]*)"', page)) < 100
    assert "and 3,800 more finding(s) of this pair" in page


def test_ranks_are_counted_as_the_models_would_stand():
    """_rank_bonus counts the ranks behind the front one in closed form: the same as
    standing the models rank by rank (as it did: 10^9 models never ended)."""
    from types import SimpleNamespace

    from pipeline.interpret.combat import _rank_bonus, combat_data

    rb = combat_data()["combat_score"]["rank_bonus"]

    def stood(alive: int, width: int, full: int) -> int:
        behind, ranks = alive - width, 0
        while behind > 0 and width >= full:
            ranks += min(width, behind) >= full
            behind -= width
        return min(ranks, int(rb["max"])) * int(rb["per_full_rank"])

    for height, full in rb["full_rank_by_height"].items():
        for width in range(1, 9):
            for alive in range(0, 60):
                force = SimpleNamespace(height=height, width=width)
                assert _rank_bonus(force, alive) == stood(alive, width, int(full))  # type: ignore[arg-type]


def test_a_matchup_is_priced_before_any_combat():
    from pipeline.errors import InputError
    from pipeline.interpret.limits import MAX_CELLS
    from pipeline.interpret.matchup import matchup

    units = [{"id": f"u{k}", "name": f"U {k}"} for k in range(101)]
    with pytest.raises(InputError, match=f"10,100 combats; the limit is {MAX_CELLS:,}"):
        matchup(None, units, units[:100])  # type: ignore[arg-type]


def test_the_accept_button_writes_a_line_the_next_run_reads(tmp_path):
    """A pair id holding U+0086 (which YAML takes only escaped) goes into the accepted
    line escaped: the next run reads the id back and sets the finding apart (before:
    "unacceptable character #x0086")."""
    import html

    pair = {"id": "p\x86q", "source": "Roll a D6.", "target": "Бросьте D3."}
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps(pair | {"source_lang": "en", "target_lang": "ru"}) + "\n")
    first = run_cli("check", "--pairs", str(pairs), "-o", "r1", cwd=tmp_path)
    assert first.returncode == 1, first.stderr  # an error finding: fails the run
    page = (tmp_path / "r1" / "checks.html").read_text("utf-8")
    lines = [html.unescape(m) for m in re.findall(r'data-line="([^"]*)"', page)]
    assert lines and all("\x86" not in line for line in lines)
    (tmp_path / "accepted.yaml").write_text("\n".join(lines) + "\n", "utf-8")
    args = ["check", "--pairs", str(pairs), "--accepted", "accepted.yaml", "-o", "r2"]
    second = run_cli(*args, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert f"{len(lines)} accepted" in second.stdout.splitlines()[0]


def test_a_term_base_in_tsv_holds_no_formula_and_reads_back_the_same(tmp_path, previous):
    """Spreadsheet formula injection: a cell that starts with =, +, - or @ is written with
    an apostrophe before it (text to a spreadsheet), which the TSV reader takes off."""
    from pipeline.glossary import load_glossary

    out, _ = previous
    terms = {
        "languages": ["en", "ru"],
        "terms": [
            {"id": "link", "en": ['=HYPERLINK("http://x.test","Fear")'], "ru": ["@SUM(A1)"]},
            {"id": "bonus", "en": ["+1 Strength", "-1 Discipline"], "ru": ["'=quoted"]},
        ],
    }
    source = tmp_path / "terms.yaml"
    source.write_text(yaml.safe_dump(terms, allow_unicode=True), "utf-8")
    target = tmp_path / "terms.tsv"
    args = ["export", "--format", "tsv", "--build", str(out), "--glossary", str(source)]
    done = run_cli(*args, "-o", str(target))
    assert done.returncode == 0, done.stderr
    cells = [c for line in target.read_text("utf-8").splitlines() for c in line.split("\t")]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]
    assert '\'=HYPERLINK("http://x.test","Fear")' in cells and "''=quoted" in cells
    back, given = load_glossary(target), load_glossary(source)
    assert [(t.id, t.renderings) for t in back.terms] == [(t.id, t.renderings) for t in given.terms]


class _Counting:
    """A report file that keeps nothing: what was written, counted."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data: bytes) -> None:
        self.size += len(data)


def test_the_check_reports_are_written_in_bounded_memory(monkeypatch):
    """The reports are streamed: checks.json a chunk of items at a time (all of them), the
    page a pair at a time and only the pairs of its first MAX_ON_PAGE findings, the rest
    counted. Writing 40,000 pairs with a finding each (a 36 MB JSON) takes a few MB beyond
    the findings themselves, not the size of the reports (before: 2.9 GiB at 200,000)."""
    import tracemalloc

    from pipeline.check.model import Finding, Report
    from pipeline.check.report_html import MAX_ON_PAGE, html_pieces
    from pipeline.check.report_json import write_report_json
    from pipeline.check.review import review
    from pipeline.pairs import Pair

    n = 40_000

    def text(a: int, b: int) -> str:
        return f"Models with Fear suffer -{a} Discipline and roll {b} dice. " * 3

    pairs = [Pair(f"p{k}", text(k, k + 1), text(k + 1, k), "en", "ru") for k in range(n)]
    found = [
        Finding("number_mismatch", "error", f"p{k}", f"number {k} is missing", (27, 28), (27, 28))
        for k in range(n)
    ]
    report = Report(pairs, found, {})
    seen = review(report)
    json_file, page = _Counting(), _Counting()
    tracemalloc.start()
    try:
        write_report_json(report, seen, json_file)
        for piece in html_pieces(report, seen):
            page.write(piece.encode("utf-8"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert json_file.size > 32 * 1024**2
    assert peak < 16 * 1024**2, peak
    assert page.size < 10 * 1024**2  # 5,000 articles of 1.4 KB
    html = "".join(html_pieces(report, seen))
    assert html.count('<article class="pair"') == MAX_ON_PAGE
    assert f"and {n - MAX_ON_PAGE:,} more finding(s) of {n - MAX_ON_PAGE:,} more pair(s)" in html


# --- every case of the hardening issue, each in a child with time and memory limits -------
#
# Each case makes its inputs in its own folder beside a canary file (a secret no output may
# hold) and a previous output (a build, a report folder or an exported file), and gives
# the command line with the exit code a user should get. The children run two at a time
# (the cores), before the tests that read their results.


NEUTRAL = "D6 +1 12″.\n\n"  # no words: the language models stay unloaded, the child quick


def _build_case(
    root: Path, template: Path, files: dict[str, bytes | str], code: int, said: str = ""
) -> Case:
    corpus = make_corpus(root / "c", files)
    out = copy_build(template, root / "output")
    return Case(["build", str(corpus), "-o", str(out), "-q"], code, out, said=said)


def case_outside_the_corpus(root: Path, template: Path) -> Case:
    case = _build_case(
        root,
        template,
        {
            "fear.txt": NEUTRAL,
            "rel.tmx": neutral_tmx('<!DOCTYPE tmx SYSTEM "../../../canary.txt">'),
            "stdin.tmx": neutral_tmx(
                '<!DOCTYPE tmx SYSTEM "../../../../../../../../../../dev/stdin">'
            ),
        },
        0,
    )
    drop = root / "c" / "drops" / "d"
    (drop / "passwd.txt").symlink_to(root / "canary.txt")
    (drop / "status.txt").symlink_to("/proc/self/status")
    (root / "c" / "drops" / "root").symlink_to("/")
    return case


def neutral_tmx(doctype: str) -> str:
    return tmx(doctype).replace("Models with Fear suffer -1 Discipline.", "2D6 +2 (1×5).")


def case_aside_with_rule_content(root: Path, template: Path) -> Case:
    text = "\n\n".join(STUPID.format(f"(on a {n}, the unit may not move)") for n in ("1", "6"))
    return _build_case(root, template, {"stupid.txt": text + "\n"}, 0)


def case_drop_yaml_unquoted_date(root: Path, template: Path) -> Case:
    return _build_case(root, template, {"fear.txt": NEUTRAL, "drop.yaml": "date: 2024-01-31\n"}, 0)


def _drop_yaml(text: str, said: str):
    def case(root: Path, template: Path) -> Case:
        return _build_case(root, template, {"fear.txt": NEUTRAL, "drop.yaml": text}, 2, said)

    return case


def case_hangul_and_oriya_in_tmx(root: Path, template: Path) -> Case:
    unit = tmx("").replace(
        "Models with Fear suffer -1 Discipline.", "\u1100\u1161\u11a8 \u0b15\u0b47\u0b3e -1."
    )
    case = _build_case(root, template, {"jamo.tmx": unit}, 0)

    def composed(root: Path, stdout: str) -> None:
        [seg] = segments(root / "output")
        assert seg["text"] == "\uac01 \u0b15\u0b4b -1."  # 각 and ୋ, as NFC composes them

    case.expect = composed
    return case


def case_file_names_not_utf8_or_with_a_newline(root: Path, template: Path) -> Case:
    """Read, under names escaped to one line of UTF-8 (the text is not lost; every output
    stays valid UTF-8, one record a line); a drop folder so named is listed, not read."""
    case = _build_case(root, template, {"fear.txt": NEUTRAL}, 0)
    drops = os.fsencode(root / "c" / "drops")
    with open(drops + b"/d/bad\xff.txt", "wb") as fh:
        fh.write("D3 +2 6″.\n".encode())
    with open(drops + b"/d/two\nlines.txt", "wb") as fh:
        fh.write(b"2D6 -3 (1x5).\n")
    os.mkdir(drops + b"/e\xfe")
    with open(drops + b"/e\xfe/x.txt", "wb") as fh:
        fh.write(b"D6 +4.\n")

    def named(root: Path, stdout: str) -> None:
        m = manifest(root / "output")
        assert sorted(f["file"] for f in m["inputs"]) == [
            "bad\\xff.txt",
            "fear.txt",
            "two\\nlines.txt",
        ]
        assert [(s["drop"], s["file"]) for s in m["skipped"]] == [("e\\xfe", ".")]
        assert "D3 +2" in (root / "output" / "rules.json").read_text("utf-8")

    case.expect = named
    return case


def case_invalid_utf8_text(root: Path, template: Path) -> Case:
    data, _, _ = INVALID_UTF8["lone-continuation"]
    return _build_case(root, template, {"ok.txt": NEUTRAL, "bad.md": data}, 2, r"bad\.md:3")


def _faulty_build(mode: str, *fault: str, file_size: int | None = None, said: str = ""):
    def case(root: Path, template: Path) -> Case:
        corpus = make_corpus(root / "c", {"fear.txt": NEUTRAL * 50})
        out = copy_build(template, root / "output")
        built = ["build", str(corpus), "-o", str(out), "-q"]
        if mode == "full-disk":
            return Case(built, 2, out, file_size=file_size, said=said)
        where = [str(root)] if mode == "read-only" else [str(out), *fault]
        return Case([mode, *where, *built], 2, out, module="tests.helpers.faults", said=said)

    return case


def _reports(root: Path) -> Path:
    """A previous report folder (what check -o DIR replaces)."""
    folder = root / "checks"
    folder.mkdir()
    (folder / "checks.json").write_text('{"previous": true}\n', "utf-8")
    (folder / "checks.html").write_text("<p>previous</p>\n", "utf-8")
    return folder


def _pairs(root: Path, lines: list[str]) -> Path:
    path = root / "pairs.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


GOOD_PAIR = json.dumps(
    {"id": "p", "source": "[b]Fear[/b] -1.", "target": "[b]Страх[/b] -2.", "source_lang": "en"}
    | {"target_lang": "ru"},
    ensure_ascii=False,
)


def _check(pairs_lines: list[str], code: int, mode: str = "", *fault: str, **kw):
    def case(root: Path, template: Path) -> Case:
        folder = _reports(root)
        pairs = _pairs(root, pairs_lines)
        args = ["check", "--pairs", str(pairs), "-o", str(folder), "--fail-on", "never"]
        if mode:
            where = [str(root)] if mode == "read-only" else [str(folder), *fault]
            return Case([mode, *where, *args], code, folder, module="tests.helpers.faults", **kw)
        return Case(args, code, folder, **kw)

    return case


DEEP = 1000
DEEP_PAIR = json.dumps(
    {"id": "deep", "source": "[b]" * DEEP + "Fear -1." + "[/b]" * DEEP}
    | {"target": "[i]" * DEEP + "Страх -1." + "[/i]" * DEEP, "source_lang": "en"}
    | {"target_lang": "ru"},
    ensure_ascii=False,
)


SPANNED = '{"id": "a", "text": "[b]Fear[/b]  causes panic, +1 to hit.", "lang": "en"}'


def spans_index_the_input(root: Path, stdout: str) -> None:
    [row] = [json.loads(line) for line in stdout.splitlines()]
    text = json.loads(SPANNED)["text"]
    assert [(q["span"], text[slice(*q["span"])]) for q in row["quantities"]] == [([27, 29], "+1")]


def _extract(lines: list[str], code: int, said: str = ""):
    def case(root: Path, template: Path) -> Case:
        path = root / "in.jsonl"
        path.write_text("\n".join(lines) + "\n", "utf-8")
        expect = spans_index_the_input if lines == [SPANNED] else None
        return Case(["extract", str(path)], code, path, said=said, expect=expect)

    return case


def _export(mode: str, *, file_size: int | None = None, said: str = ""):
    def case(root: Path, template: Path) -> Case:
        target = root / "rules.json"
        target.write_text("previous\n", "utf-8")
        args = ["export", "--format", "json", "--build", str(template), "-o", str(target)]
        if mode == "read-only":
            return Case([mode, str(root), *args], 2, target, "tests.helpers.faults", said=said)
        return Case(args, 2, target, file_size=file_size, said=said)

    return case


def case_diff_of_a_malformed_bundle(root: Path, template: Path) -> Case:
    broken = copy_build(template, root / "broken")
    (broken / "rules.json").write_text('[{"id": 5}]', "utf-8")
    return Case(["diff", str(template), str(broken)], 2, broken, said="not a rule bundle")


NOT_DONE = "nothing was changed"
CASES = {
    "1-files-outside-the-corpus": case_outside_the_corpus,
    "2-aside-with-rule-content": case_aside_with_rule_content,
    "3-drop-yaml-unquoted-date": case_drop_yaml_unquoted_date,
    "3-drop-yaml-language-newline": _drop_yaml('language: "ru\\n"\n', r"drop\.yaml:language"),
    "3-drop-yaml-impossible-date": _drop_yaml('date: "2024-13-45"\n', "not a calendar date"),
    "3-drop-yaml-arabic-indic-digits": _drop_yaml('date: "٢٠٢٤-٠١-٣١"\n', r"drop\.yaml:date"),
    "4-check-reports": _check([GOOD_PAIR], 0),
    "4-check-full-disk": _check([GOOD_PAIR], 2, file_size=2000, said="File too large"),
    "4-check-mount-point": _check([GOOD_PAIR], 2, "mount-point", "EBUSY", said="mount point"),
    "4-export-full-disk": _export("full-disk", file_size=500, said="File too large"),
    "5-check-nested-markup": _check([DEEP_PAIR], 0),
    "7-hangul-and-oriya-in-tmx": case_hangul_and_oriya_in_tmx,
    "7-file-names": case_file_names_not_utf8_or_with_a_newline,
    "7-invalid-utf8-text": case_invalid_utf8_text,
    "7-pairs-lone-surrogate": _check(
        [GOOD_PAIR.replace("Fear", "Fear \\ud800")], 2, said="lone surrogate"
    ),
    "7-extract-lone-surrogate": _extract([GOOD_LINE.replace("Fear", "\\ud800")], 2, "surrogate"),
    "7-extract-deep-json": _extract(
        ['{"id": "a", "text": "t", "lang": "en", "x": ' + "[" * 5000 + "]" * 5000 + "}"],
        2,
        "nested too deeply",
    ),
    "7-build-read-only-parent": _faulty_build("read-only", said="Read-only file system"),
    "7-build-full-disk": _faulty_build("full-disk", file_size=8_000, said="File too large"),
    "7-build-mount-point": _faulty_build("mount-point", "EBUSY", said="mount point"),
    "7-check-read-only-parent": _check([GOOD_PAIR], 2, "read-only", said="Read-only"),
    "7-export-read-only-parent": _export("read-only", said="Read-only file system"),
    "8-extract-spans": _extract(
        ['{"id": "a", "text": "[b]Fear[/b]  +1 to hit.", "lang": "en"}'], 0
    ),
    "8-diff-of-a-malformed-bundle": case_diff_of_a_malformed_bundle,
    **OUTPUT_CASES,
    **ISSUE37_CASES,
}


def snapshot(path: Path) -> dict[str, bytes] | bytes | None:
    if path.is_symlink() or not path.exists():
        return None if not path.is_symlink() else os.readlink(path).encode()
    if path.is_dir():
        return tree(path)
    return path.read_bytes() if path.is_file() else str(path.lstat().st_ino).encode()


def written_text(root: Path) -> str:
    """The text of every regular file under root but the canary (links not followed)."""
    texts = []
    for folder, _, names in os.walk(root):
        for name in names:
            path = Path(folder) / name
            if path.name != "canary.txt" and stat.S_ISREG(path.lstat().st_mode):
                texts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(texts)


@pytest.fixture(scope="module")
def hostile_runs(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    previous_template: Path,
):
    """Every case the session runs (`-k` may choose some), each in a child, two at a
    time: (case, snapshots before, result, root, seconds)."""

    def run(name: str):
        root = tmp_path_factory.mktemp(name)
        canary(root)
        case = CASES[name](root, previous_template)
        before = snapshot(case.previous), state(root)
        started = time.monotonic()
        result = run_measured(
            *case.args, timeout=120, cwd=root, file_size=case.file_size, module=case.module
        )
        return name, (case, before, result, root, time.monotonic() - started)

    chosen = sorted(
        {
            item.callspec.params["name"]
            for item in request.session.items
            if getattr(item, "originalname", "") == _EACH_CASE and hasattr(item, "callspec")
        }
    )
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(run, chosen))


_EACH_CASE = "test_each_case_of_the_issue_is_done_or_refused_and_reads_nothing_outside"


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_of_the_issue_is_done_or_refused_and_reads_nothing_outside(hostile_runs, name):
    case, (before, entries), (code, stdout, stderr, peak_kib), root, took = hostile_runs[name]
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    assert code == case.code, stderr
    assert CANARY not in stdout + stderr
    assert CANARY not in written_text(root)
    assert peak_kib < MEMORY_LIMIT // 1024 and took < 120
    assert leftovers(case.previous.parent) == []
    if code == 2:
        [line] = stderr.strip().splitlines()
        assert re.search(case.said, line), line
        assert snapshot(case.previous) == before  # byte-identical after a refusal
    # nothing else in its folder touched: a refusal changes nothing, a success its output
    after = state(root)
    changed = {key for key in entries.keys() | after.keys() if entries.get(key) != after.get(key)}
    mine = [p.relative_to(root).as_posix() for p in [case.previous, *case.also] if code == 0]
    assert {k for k in changed if not any(k == m or k.startswith(m + "/") for m in mine)} == set()
    if case.expect is not None:
        case.expect(root, stdout)
