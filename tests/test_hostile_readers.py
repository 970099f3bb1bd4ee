"""Hostile input for the readers of what teams send: a Word document that is a zip bomb or
carries an entity declaration, PDFs that claim a million pages, nest their page tree
without end, refer to themselves or inflate past any size, and text whose encoding cannot
be told. Each is refused in one line naming the file, within bounded memory and time, and
the previous build is left as it was (the helpers of tests/test_hostile.py)."""

from __future__ import annotations

import io
import zipfile
import zlib
from pathlib import Path

import docx
import pytest

from .helpers.outputs import assert_refused, make_corpus
from .test_hostile import PREVIOUS_TEXT, previous, previous_template, run_measured

__all__ = ["previous", "previous_template"]  # fixtures, used by name

MEMORY = 1024**3  # a child's address space: an expansion that got through would fail


def refused_within_bounds(tmp_path: Path, previous, files: dict[str, bytes], pattern: str):
    """Build a corpus of `files` over the previous build, in a child limited in memory
    and time: exit 2, one line matching `pattern`, the previous build untouched."""
    corpus = make_corpus(tmp_path / "c", {"ok.txt": PREVIOUS_TEXT, **files})
    out, before = previous
    code, stdout, stderr, _ = run_measured(
        "build", str(corpus), "-o", str(out), "-q", memory=MEMORY, timeout=120
    )
    import subprocess

    result = subprocess.CompletedProcess([], code, stdout, stderr)
    assert_refused(result, pattern, out, before)


def word_bytes() -> bytes:
    document = docx.Document()
    document.add_paragraph("Models with Fear suffer -1 Discipline.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def rezip(data: bytes, replace: dict[str, bytes], pad: str | None = None) -> bytes:
    """The archive with some members' bytes replaced (deflated); `pad` names a member
    written as 256 MiB of spaces, a megabyte at a time (it deflates about 1000 times)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename == pad:
                entry = zipfile.ZipInfo(pad)
                entry.compress_type = zipfile.ZIP_DEFLATED
                with dst.open(entry, "w", force_zip64=False) as member:
                    for _ in range(256):
                        member.write(b" " * 1024**2)
                continue
            body = replace.get(info.filename, src.read(info.filename))
            dst.writestr(info.filename, body, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def test_a_docx_zip_bomb_is_refused_before_it_is_expanded(tmp_path, previous):
    bomb = rezip(word_bytes(), {}, pad="word/document.xml")
    assert len(bomb) < 2 * 1024**2
    refused_within_bounds(
        tmp_path, previous, {"book.docx": bomb}, r"book\.docx: .*refused as a zip bomb"
    )


def test_a_docx_with_an_entity_declaration_is_refused(tmp_path, previous):
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;">]>'
        b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        b"<w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>"
    )
    hostile = rezip(word_bytes(), {"word/document.xml": laughs})
    refused_within_bounds(
        tmp_path,
        previous,
        {"book.docx": hostile},
        r"book\.docx:word/document\.xml:1:\d+: XML entity declaration refused",
    )


def test_a_docx_that_is_not_a_zip_is_refused(tmp_path, previous):
    refused_within_bounds(
        tmp_path, previous, {"book.docx": b"not a zip at all"}, r"book\.docx: not a zip archive"
    )


def pdf(objects: list[bytes]) -> bytes:
    """A PDF of these object bodies (object 1 the catalogue) with a correct xref table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>"


def test_a_pdf_of_a_million_pages_is_refused(tmp_path, previous):
    kids = b"3 0 R " * 1_000_000
    data = pdf([CATALOG, b"<< /Type /Pages /Kids [" + kids + b"] /Count 1000000 >>", PAGE])
    refused_within_bounds(
        tmp_path, previous, {"book.pdf": data}, r"book\.pdf: PDF refused: .*1000000 pages"
    )


def test_a_pdf_whose_object_refers_to_itself_is_refused(tmp_path, previous):
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 9 9] /Contents 4 0 R >>"
    data = pdf([CATALOG, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, b"4 0 R"])
    refused_within_bounds(
        tmp_path, previous, {"book.pdf": data}, r"book\.pdf: PDF refused: .*refers to itself"
    )


def test_a_pdf_page_tree_nested_without_end_is_refused(tmp_path, previous):
    depth = 5000
    tree = [
        f"<< /Type /Pages /Kids [{n + 1} 0 R] /Count 1 >>".encode() for n in range(2, depth + 2)
    ]
    data = pdf([CATALOG, *tree, b"<< /Type /Page /MediaBox [0 0 9 9] >>"])
    refused_within_bounds(
        tmp_path, previous, {"book.pdf": data}, r"book\.pdf: PDF refused: .*nests or loops"
    )


def test_a_pdf_stream_that_inflates_past_the_limit_is_refused(tmp_path, previous):
    bomb = zlib.compress(b"0" * (256 * 1024**2), 9)
    stream = f"<< /Length {len(bomb)} /Filter /FlateDecode >>\nstream\n".encode()
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 9 9] /Contents 4 0 R >>"
    data = pdf(
        [
            CATALOG,
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            page,
            stream + bomb + b"\nendstream",
        ]
    )
    refused_within_bounds(
        tmp_path, previous, {"book.pdf": data}, r"book\.pdf: PDF refused: .*compression bomb"
    )


def test_a_page_tree_that_loops_back_reads_each_page_once(tmp_path):
    # Kids that list their own parent: pdfminer walks each node once; nothing hangs
    data = pdf([CATALOG, b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 1 >>", PAGE])
    corpus = make_corpus(tmp_path / "c", {"ok.txt": PREVIOUS_TEXT, "loop.pdf": data})
    code, _, stderr, _ = run_measured(
        "build", str(corpus), "-o", str(tmp_path / "out"), "-q", memory=MEMORY, timeout=120
    )
    assert code == 0, stderr


@pytest.mark.parametrize(
    "data",
    [
        "Страх и Ужас. ".encode("cp1251") * 20 + "Страх и Ужас. ".encode("koi8_r") * 20,
        bytes(range(0x80, 0x100)) * 4,
    ],
    ids=["two-cyrillic-encodings", "every-high-byte"],
)
def test_text_whose_encoding_cannot_be_told_is_refused_never_guessed(tmp_path, previous, data):
    refused_within_bounds(
        tmp_path,
        previous,
        {"rules.txt": data},
        r"rules\.txt:1 \(byte \d+\): not UTF-8 .*(cannot be told|no one-byte encoding)",
    )
