"""Export: a build's rules, aligned pairs and the glossary in the formats other tools read.

One writer per format (tmx.py, xliff.py for XLIFF 2.0, xliff12.py for XLIFF 1.2, po.py,
tbx.py for TBX 3, tbx2.py for TBX-Basic 2, tsv.py; JSON and YAML are dumps of the rule
bundle; site/ writes a static site), each a pure function from records to the document's
text; `render` and `render_po` pick the writer and build the whole document in memory (the
command line, pipeline/commands/export.py, writes it atomically).
"""

from __future__ import annotations

from pathlib import Path

FORMATS = ("json", "yaml", "tmx", "xliff", "po", "tbx", "tsv", "site")


def render(
    fmt: str,
    build: Path,
    *,
    level: str = "paragraph",
    target_lang: str | None = None,
    glossary: Path | None = None,
    xliff_version: str = "2.0",
    tbx_version: str = "3",
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
        if tbx_version == "2":
            from .tbx2 import write_tbx2

            return write_tbx2(terms, Path(terms.file).name)
        from .tbx import write_tbx

        return write_tbx(terms, Path(terms.file).name)
    if fmt in ("json", "yaml"):
        from ..build_folder import read_rules
        from ..emit import dump_json, dump_yaml

        rules = read_rules(build)
        return dump_json(rules) if fmt == "json" else dump_yaml(rules)
    from .pairs import load_pairs, select_target

    one_only = fmt == "xliff" and xliff_version == "2.0"
    pairs = select_target(load_pairs(build, level), target_lang, one_only)
    if fmt == "tmx":
        from .tmx import write_tmx

        return write_tmx(pairs, level)
    if xliff_version == "1.2":
        from .xliff12 import write_xliff12

        return write_xliff12(pairs)
    from .xliff import write_xliff

    return write_xliff(pairs)


def render_po(build: Path, level: str, target_lang: str | None) -> dict[str, str]:
    """Target language -> its PO catalogue, all built in memory before anything is written."""
    from ..build_folder import read_rules
    from ..errors import InputError
    from .pairs import load_pairs, select_target, source_places
    from .po import write_po

    pairs = select_target(load_pairs(build, level), target_lang, False)
    if not pairs:
        raise InputError("--target-lang", "no linked pairs to export")
    names = {}
    for rule in read_rules(build):
        found = rule.get("names") if isinstance(rule.get("names"), dict) else {}
        name = found.get("en") or next(iter(found.values()), None)
        if isinstance(name, str):
            names[rule["id"]] = name
    places = source_places(build, level)
    langs = sorted({p.target_lang for p in pairs})
    return {lang: write_po(pairs, lang, names, places) for lang in langs}
