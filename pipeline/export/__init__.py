"""Export: a build's rules, aligned pairs and the glossary in the formats other tools read.

One writer per format (tmx.py, xliff.py for XLIFF 2.0, xliff12.py for XLIFF 1.2, po.py,
tbx.py for TBX 3, tbx2.py for TBX-Basic 2, tsv.py; JSON and YAML are dumps of the rule
bundle; site/ writes a static site), each a pure function from records to the document's
text; `render` and `render_catalogues` pick the writer and build the whole document in
memory (the command line, pipeline/commands/export.py, writes it atomically). XLIFF and PO
hold one target language a document. A build with no translation yet exports every rule's
source text with empty targets (to_translate.py), the first step of a translation cycle.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

FORMATS = ("json", "yaml", "tmx", "xliff", "po", "pot", "tbx", "tsv", "site")
# Formats written one document per target language (-o FOLDER: FOLDER/LANG.EXT each).
CATALOGUES = {"xliff": ".xlf", "po": ".po", "pot": ".pot"}
_LANG = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")


def target_languages(given: str | None) -> list[str] | None:
    """`--target-lang ru` or `ru,it` as a list (None when not given); a value that is not a
    language code is refused."""
    from ..errors import InputError

    if given is None:
        return None
    langs = [x.strip() for x in given.split(",") if x.strip()]
    bad = [x for x in langs if not _LANG.fullmatch(x)]
    if bad or not langs:
        raise InputError(
            "--target-lang",
            f"{(bad or [given])[0]!r} is not a language code (ru, it, pt-BR; several as ru,it)",
        )
    return list(dict.fromkeys(langs))


def render(
    fmt: str,
    build: Path,
    *,
    level: str | None = None,
    target_lang: str | None = None,
    glossary: Path | None = None,
    tbx_version: str = "3",
) -> str:
    """The whole document of `fmt` (not a catalogue format: `render_catalogues`), built in
    memory before anything is written."""
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
    from .tmx import write_tmx

    langs = target_languages(target_lang)
    pairs = select_target(load_pairs(build, _level(level)), langs)
    if not pairs:
        asked = f" into {', '.join(langs)}" if langs else ""
        raise InputError(
            "--format tmx",
            f"the build has no linked translation pairs{asked} (alignments.json links none),"
            " and a translation memory holds pairs; to send the text out for translation,"
            " export --format xliff or po with --target-lang",
        )
    return write_tmx(pairs, _level(level))


def _level(level: str | None, default: str = "paragraph") -> Any:
    return level or default


def one_catalogue(docs: dict[str, str], fmt: str, xliff_version: str = "2.0") -> str:
    """The one document of `docs`, or an InputError when there are several languages."""
    from ..errors import InputError

    if len(docs) == 1:
        return next(iter(docs.values()))
    what = {"po": "a PO file", "xliff": f"an XLIFF {xliff_version} document"}[fmt]
    raise InputError(
        "--target-lang",
        f"the pairs have {len(docs)} target languages ({', '.join(docs)}) and {what} holds"
        f" one; choose one with --target-lang, or give -o FOLDER for one"
        f" FOLDER/LANG{CATALOGUES[fmt]} each",
    )


def render_catalogues(
    fmt: str,
    build: Path,
    *,
    level: str | None = None,
    target_lang: str | None = None,
    xliff_version: str = "2.0",
    to_translate: bool = False,
) -> dict[str, str]:
    """Target language -> its document (XLIFF or PO; a POT template under ""), all built
    in memory before anything is written. The build's linked pairs in the languages asked;
    or, when it has none there (or `to_translate`), every rule's source text with empty
    targets (export/to_translate.py), which needs the languages named."""
    from ..errors import InputError
    from .pairs import load_pairs, select_target

    langs = target_languages(target_lang)
    if fmt == "pot":
        if langs is not None:
            raise InputError("--target-lang", "a template (POT) has no target language")
        return {"": _untranslated_docs(fmt, build, [None], level, xliff_version)[""]}
    pairs = [] if to_translate else select_target(load_pairs(build, _level(level)), langs)
    if not pairs:
        if langs is None:
            why = (
                "--to-translate exports"
                if to_translate
                else "the build has no translation yet, so the export is"
            )
            raise InputError(
                "--target-lang",
                f"{why} its rules' text to translate, with empty targets: name the"
                " language(s) to translate into, e.g. --target-lang ru (or --format pot for"
                " a template)",
            )
        return _untranslated_docs(fmt, build, langs, level, xliff_version)
    from ..build_folder import read_rules

    by_lang: dict[str, list] = {}
    for pair in pairs:
        by_lang.setdefault(str(pair.target_lang), []).append(pair)
    if fmt == "xliff":
        return {lang: _xliff(by_lang[lang], xliff_version) for lang in sorted(by_lang)}
    from .pairs import source_places
    from .po import write_po

    names = {}
    for rule in read_rules(build):
        found = rule.get("names") if isinstance(rule.get("names"), dict) else {}
        name = found.get("en") or next(iter(found.values()), None)
        if isinstance(name, str):
            names[rule["id"]] = name
    places = source_places(build, _level(level))
    return {lang: write_po(pairs, lang, names, places) for lang in sorted(by_lang)}


def _xliff(pairs: list, version: str) -> str:
    if version == "1.2":
        from .xliff12 import write_xliff12

        return write_xliff12(pairs)
    from .xliff import write_xliff

    return write_xliff(pairs)


def _untranslated_docs(
    fmt: str, build: Path, langs: list, level: str | None, xliff_version: str
) -> dict[str, str]:
    from .po import write_po
    from .to_translate import rule_units

    found = rule_units(build, langs, _level(level, "sentence"))
    units = list(found.units)
    if fmt == "xliff":
        return {
            lang: _xliff([u for u in units if u.target_lang == lang], xliff_version)
            for lang in langs
        }
    return {
        (lang or ""): write_po(units, lang, found.names, found.places, context_is_id=True)
        for lang in langs
    }
