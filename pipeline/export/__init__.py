"""Export: a build's rules, aligned pairs and the glossary in the formats other tools read.

One writer per format (tmx.py, xliff.py, tbx.py, tsv.py; JSON and YAML are dumps of the rule
bundle), each a pure function from records to the document's text; `render` picks the
writer and builds the whole document in memory (the command line, pipeline/commands/export.py,
writes it atomically).
"""

from __future__ import annotations

from pathlib import Path

FORMATS = ("json", "yaml", "tmx", "xliff", "tbx", "tsv")


def render(
    fmt: str,
    build: Path,
    *,
    level: str = "paragraph",
    target_lang: str | None = None,
    glossary: Path | None = None,
) -> str:
    """The whole document of `fmt`, built in memory before anything is written."""
    from ..errors import InputError

    if fmt in ("tbx", "tsv"):
        from ..glossary import DEFAULT_GLOSSARY, chosen_glossary

        terms = chosen_glossary(glossary)
        if terms is None:
            raise InputError(str(DEFAULT_GLOSSARY), "no glossary here; pass --glossary FILE")
        if fmt == "tsv":
            from .tsv import write_tsv

            return write_tsv(terms)
        from .tbx import write_tbx

        return write_tbx(terms, Path(terms.file).name)
    if fmt in ("json", "yaml"):
        from ..build_folder import read_rules
        from ..emit import dump_json, dump_yaml

        rules = read_rules(build)
        return dump_json(rules) if fmt == "json" else dump_yaml(rules)
    from .pairs import load_pairs, select_target

    pairs = select_target(load_pairs(build, level), target_lang, one_only=fmt == "xliff")
    if fmt == "tmx":
        from .tmx import write_tmx

        return write_tmx(pairs, level)
    from .xliff import write_xliff

    return write_xliff(pairs)
