"""The core vocabulary read for one language: the same renderings of that language as when
read for all, and no Russian parsing for an English text."""

from __future__ import annotations

import subprocess
import sys

from pipeline.extract.keywords import core_words

from .conftest import ROOT


def test_one_language_s_renderings_are_those_read_for_every_language() -> None:
    every = {t.id: t.renderings for t in core_words().terms}
    for lang in ("en", "ru", "it"):
        one = {t.id: t.renderings.get(lang) for t in core_words(lang).terms}
        assert one == {i: r.get(lang) for i, r in every.items()}
    misread = sum(len(r.get("ru", ())) for r in every.values())
    listed = sum(len(t.renderings.get("ru", ())) for t in core_words("en").terms)
    assert misread > listed  # Russian inflections add readings, English's asks none


def test_english_words_load_no_russian_analyser() -> None:
    code = (
        "import sys\n"
        "from pipeline.extract.keywords import core_words\n"
        "core_words('en')\n"
        "print('pymorphy3' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"
