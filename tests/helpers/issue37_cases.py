"""Cases of the third hardening pass (defects 3 to 11) for the hostile suite
(tests/test_hostile.py runs each in a child under time and memory limits): each input is
a few lines built to break one reader or writer, and the command either does its work or
refuses it on one line (exit 2), never exit 3."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pipeline.files import MAX_TEXT_CHARS
from pipeline.interpret.limits import MAX_CELLS

from .output_cases import Case, Reader, new_terminal

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


# --- defect 2: matchup -o and diff -o write into a stream, never replace it ---------------


def _html_received(reader: Reader):
    def check(root: Path, stdout: str) -> None:
        deadline = time.monotonic() + 10
        while not reader.data.endswith(b"</html>\n") and time.monotonic() < deadline:
            time.sleep(0.02)
        page = reader.data.decode("utf-8")
        assert page.startswith("<!DOCTYPE html>") and "Halberdiers" in page
        assert stat.S_ISFIFO(os.lstat(root / "fifo").st_mode)

    return check


def matchup_into_a_fifo(root: Path, template: Path) -> Case:
    """The page is written into the FIFO its reader holds open; the FIFO stays one."""
    build = _arena(root)
    fifo = root / "fifo"
    os.mkfifo(fifo)
    reader = Reader(fifo)
    args = ["matchup", "Halberdiers", "Brutes", "--build", str(build), "-o", str(fifo)]
    return Case(args, 0, fifo, expect=_html_received(reader))


def diff_into_a_device(root: Path, template: Path) -> Case:
    """`diff -o` into a character device: as root a node made here with /dev/null's
    numbers (a writer replacing it would replace this one, never one of /dev), else a
    terminal, whose other end must receive the changelog."""
    args = ["diff", str(template), str(template), "-o"]
    if os.geteuid() == 0:
        node = root / "null"
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        return Case([*args, str(node)], 0, root / "none")
    main, device = new_terminal()
    reader = Reader(main)

    def received(root: Path, stdout: str) -> None:
        assert reader.text("#").startswith("#")

    return Case([*args, device], 0, root / "none", expect=received)


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


def _checked_pair(root: Path, pair_id: str, source: str, target: str) -> Case:
    """`check --pairs` of one pair, done, over a previous report folder."""
    pairs = root / "pairs.jsonl"
    row = {"id": pair_id, "source": source, "target": target}
    row |= {"source_lang": "en", "target_lang": "ru"}
    pairs.write_text(json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    folder = _reports(root)
    args = ["check", "--pairs", str(pairs), "-o", str(folder), "--fail-on", "never"]
    return Case(args, 0, folder)


def separators_in_pairs(root: Path, template: Path) -> Case:
    return _checked_pair(root, "p", f"Fear{SEPARATORS} -1.", f"Страх{SEPARATORS} -1.")


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


# --- defect 5: work that grew without bound ---------------------------------------------

BATTLESCRIBE = Path(__file__).resolve().parents[1] / "data" / "battlescribe"


_ARENA: list[Path] = []  # the one build of the BattleScribe fixtures, made on first use
_ARENA_LOCK = threading.Lock()  # cases are made two at a time


def _arena(root: Path) -> Path:
    """A copy of a build of the BattleScribe fixtures (made once, by a child as a user
    would, beside the first case that needs it) in root/build."""
    with _ARENA_LOCK:
        if not _ARENA:
            made = Path(tempfile.mkdtemp(prefix="arena-", dir=root.parent))
            drop = made / "c" / "drops" / "army"
            drop.mkdir(parents=True)
            for name in ("combat.gst", "arena.cat"):
                shutil.copy(BATTLESCRIBE / name, drop / name)
            args = ["build", str(made / "c"), "-o", str(made / "build"), "-q"]
            done = subprocess.run(
                [sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, cwd=made
            )
            assert done.returncode == 0, done.stderr
            _ARENA.append(made / "build")
    return shutil.copytree(_ARENA[0], root / "build")


def a_billion_models(root: Path, template: Path) -> Case:
    """Ranks counted, not walked: 10^9 models a side (models / width loops before)."""
    build = _arena(root)
    scenario = root / "big.yaml"
    scenario.write_text(
        "attacker: {unit: Halberdiers, models: 1000000000}\n"
        "defender: {unit: Practice Dummies, models: 1000000000}\n",
        "utf-8",
    )
    case = Case(["attack", str(scenario), "--build", str(build), "--json"], 0, root / "none")

    def fought(root: Path, stdout: str) -> None:
        [r] = json.loads(stdout)["rounds"]
        assert r["p_win"] and r["attacker_casualties"]["mean"]

    case.expect = fought
    return case


def matchup_of_a_thousand_units(root: Path, template: Path) -> Case:
    """A catalogue of 1,000 units against itself: a million combats, priced and refused
    before the first (2.35 GiB after 100 s before)."""
    build = _arena(root)
    path = build / "units.json"
    units = json.loads(path.read_text("utf-8"))
    many = [
        u | {"id": f"{u['id']}-{k}", "name": f"{u['name']} {k}"}
        for k in range(1000 // len(units) + 1)
        for u in units
    ]
    path.write_text(json.dumps(many, ensure_ascii=False), "utf-8")
    book = units[0]["source"]["book"]
    said = r"matchup: 1,00\d attackers against 1,00\d defenders make 1,0\d\d,\d{3} combats"
    return Case(["matchup", book, book, "--build", str(build)], 2, build, said=said)


def _sentences(n: int, lang: str) -> str:
    en = ("Models with Fear suffer -{} Discipline.", "Roll {}D6 and add the highest.")
    ru = ("Модели со Страхом получают -{} к Дисциплине.", "Бросьте {}D6 и добавьте наибольший.")
    pick = en if lang == "en" else ru
    return " ".join(pick[k % 2].format(k % 7 + 1) for k in range(n))


def _tmx_unit(source: str, target: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="en"'
        ' datatype="plaintext" segtype="paragraph" adminlang="en" creationtool="t"'
        ' creationtoolversion="1" o-tmf="t"/>\n<body><tu><tuv xml:lang="en"><seg>'
        f'{source}</seg></tuv><tuv xml:lang="ru"><seg>{target}</seg></tuv></tu></body></tmx>\n'
    )


def long_tmx_unit(root: Path, template: Path) -> Case:
    """One translation unit of 6,000 sentences a side (240,000 characters): the sentence
    grid is searched in a band, the quantities of each sentence found by bisection (the
    whole grid and a scan of every quantity for every sentence before: minutes)."""
    corpus = _corpus(root, {"long.tmx": _tmx_unit(_sentences(6000, "en"), _sentences(6000, "ru"))})
    out = root / "output"
    case = Case(["build", str(corpus), "-o", str(out), "-q"], 0, out)

    def aligned(root: Path, stdout: str) -> None:
        [link] = json.loads((out / "alignments.json").read_text("utf-8"))["links"]
        assert [s["type"] for s in link["sentences"]] == ["1-1"] * 6000

    case.expect = aligned
    return case


def long_pair(root: Path, template: Path) -> Case:
    return _checked_pair(root, "long", _sentences(6000, "en"), _sentences(6000, "ru"))


# --- a text past MAX_TEXT_CHARS, whatever reads it -----------------------------------


def unit_over_the_limit(root: Path, template: Path) -> Case:
    big = _sentences(30_000, "en")  # 1,04x,xxx characters
    corpus = _corpus(root, {"long.tmx": _tmx_unit(big, "Страх.")})
    out = shutil.copytree(template, root / "output")
    said = r"long\.tmx:\d+: a text of 1,0\d\d,\d{3} characters; the limit is 1,000,000"
    return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)


def _long_text_corpus(root: Path, kind: str, big: str) -> Path:
    """A corpus of one XLIFF unit, PO string or BattleScribe rule description holding
    `big`, its translation one short sentence."""
    if kind == "xliff":
        files = {
            "long.xlf": '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" '
            'xmlns="urn:oasis:names:tc:xliff:document:1.2"><file original="a" '
            'source-language="en" target-language="ru" datatype="plaintext"><body>\n'
            f'<trans-unit id="1"><source>{big}</source><target>Страх.</target>'
            "</trans-unit></body></file></xliff>\n"
        }
        return _corpus(root, files)
    if kind == "po":
        return _corpus(root, {"long.po": PO_HEAD + f'msgid "{big}"\nmsgstr "Страх."\n'})
    cat = (BATTLESCRIBE / "arena.cat").read_text("utf-8")
    rule = "Model parts with Fight in Extra Rank make Supporting Attacks from one more rank."
    assert rule in cat
    return _army(root, cat.replace(rule, big).encode("utf-8"), "long.cat")


LONG_NAMES = {"xliff": "long.xlf", "po": "long.po", "battlescribe": "long.cat"}


def _text_over_the_limit(kind: str):
    """One XLIFF unit, PO string or BattleScribe rule description of 1,0xx,xxx characters:
    refused naming the file and line (spaCy's E088, exit 3, before)."""

    def case(root: Path, template: Path) -> Case:
        corpus = _long_text_corpus(root, kind, _sentences(30_000, "en"))
        out = shutil.copytree(template, root / "output")
        name = LONG_NAMES[kind]
        said = rf"{name.replace('.', '[.]')}:\d+: a text of 1,0\d\d,\d{{3}} characters"
        return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)

    return case


def _text_at_the_limit(kind: str):
    """One XLIFF unit, PO string or BattleScribe rule description just under
    MAX_TEXT_CHARS: built whole, in one segment, within the child's time and memory."""

    def case(root: Path, template: Path) -> Case:
        big = _sentences(28_500, "en")
        assert MAX_TEXT_CHARS - 20_000 < len(big) <= MAX_TEXT_CHARS
        corpus = _long_text_corpus(root, kind, big)
        out = root / "output"
        case = Case(["build", str(corpus), "-o", str(out), "-q"], 0, out)

        def whole(root: Path, stdout: str) -> None:
            lines = (out / "segments.jsonl").read_text("utf-8").split("\n")
            assert big in [json.loads(line)["raw"] for line in lines if line]

        case.expect = whole
        return case

    return case


def matchup_at_the_limit(root: Path, template: Path) -> Case:
    """A catalogue of 100 units against itself: MAX_CELLS combats, the largest matchup
    accepted, fought within the child's time and memory."""
    build = _arena(root)
    path = build / "units.json"
    units = json.loads(path.read_text("utf-8"))
    rounds = -(-100 // len(units))
    many = [
        u | {"id": f"{u['id']}-{k}", "name": f"{u['name']} {k}"}
        for k in range(rounds)
        for u in units
    ]
    path.write_text(json.dumps(many[:100], ensure_ascii=False), "utf-8")
    book = units[0]["source"]["book"]
    case = Case(["matchup", book, book, "--build", str(build), "--json"], 0, build)

    def fought(root: Path, stdout: str) -> None:
        doc = json.loads(stdout)
        assert len(doc["attackers"]) * len(doc["defenders"]) == MAX_CELLS

    case.expect = fought
    return case


def extract_text_over_the_limit(root: Path, template: Path) -> Case:
    path = root / "in.jsonl"
    row = {"id": "a", "text": "x" * 1_000_001, "lang": "en"}
    path.write_text(json.dumps(row) + "\n", "utf-8")
    said = r"in\.jsonl:1: a text of 1,000,001 characters"
    return Case(["extract", str(path)], 2, path, said=said)


def pair_over_the_limit(root: Path, template: Path) -> Case:
    pairs = root / "pairs.jsonl"
    row = {"id": "p", "source": "Fear.", "target": "Страх " * 200_000}
    row |= {"source_lang": "en", "target_lang": "ru"}
    pairs.write_text("\n" + json.dumps(row, ensure_ascii=False) + "\n", "utf-8")
    folder = _reports(root)
    args = ["check", "--pairs", str(pairs), "-o", str(folder)]
    return Case(args, 2, folder, said=r"pairs\.jsonl:2: a text of 1,200,000 characters")


def _long_number(command: str):
    def case(root: Path, template: Path) -> Case:
        digits = "7" * 5000
        if command == "extract":
            path = root / "in.jsonl"
            path.write_text(f'{{"id": "a", "text": "t", "lang": "en", "n": {digits}}}\n', "utf-8")
            return Case(["extract", str(path)], 2, path, said=r"in\.jsonl:1: .*5000 digits")
        if command == "check":
            path = root / "pairs.jsonl"
            line = '{"id": "p", "source": "a", "target": "b", "source_lang": "en", '
            path.write_text(line + f'"target_lang": "ru", "n": {digits}}}\n', "utf-8")
            folder = _reports(root)
            args = ["check", "--pairs", str(path), "-o", str(folder)]
            return Case(args, 2, folder, said=r"pairs\.jsonl:1: .*5000 digits")
        build = shutil.copytree(template, root / "build")
        (build / "rules.json").write_text(f'[{{"id": "a", "n": {digits}}}]', "utf-8")
        args = ["export", "--format", "json", "--build", str(build)]
        return Case(args, 2, build, said=r"rules\.json: .*5000 digits")

    return case


# --- defects 7 and 8: a build folder edited to a wrong shape, or holding links -----------


def _edited(root: Path, template: Path, name: str, text: str) -> Path:
    build = shutil.copytree(template, root / "build")
    (build / name).write_text(text, "utf-8")
    return build


def _wrong_shape(name: str, text: str, command: list[str], said: str):
    def case(root: Path, template: Path) -> Case:
        build = _edited(root, template, name, text)
        return Case([*command, "--build", str(build)], 2, build, said=said)

    return case


def units_of_wrong_types_attacked(root: Path, template: Path) -> Case:
    build = _edited(root, template, "units.json", '[{"id": "x", "name": 5}]')
    scenario = root / "s.yaml"
    scenario.write_text("attacker: {unit: x, models: 10}\ndefender: {unit: x, models: 10}\n")
    args = ["attack", str(scenario), "--build", str(build)]
    return Case(args, 2, build, said=r"units\.json:/0.*: not units")


def rule_file_linked_out(command: str):
    """A rule file that is a link out of the build (to a rule file elsewhere) is refused,
    not read: the corpus refuses such links too (`table` printed the outside file's odds)."""

    def case(root: Path, template: Path) -> Case:
        build = shutil.copytree(template, root / "build")
        outside = root / "outside.yaml"
        shutil.copy(build / "rules" / "fear.yaml", outside)
        (build / "rules" / "fear.yaml").unlink()
        (build / "rules" / "fear.yaml").symlink_to(outside)
        args = ["table", "fear"]
        if command == "charge":
            args = ["charge", "--distance", "8", "--advance", "4", "--rules", "fear"]
        return Case(
            [*args, "--build", str(build)], 2, build, said=r"rules/fear\.yaml: is a symbolic link"
        )

    return case


def folder_for_a_rule_file(root: Path, template: Path) -> Case:
    build = shutil.copytree(template, root / "build")
    (build / "rules" / "fear.yaml").unlink()
    (build / "rules" / "fear.yaml").mkdir()
    args = ["charge", "--distance", "8", "--advance", "4", "--rules", "fear", "--build", str(build)]
    return Case(args, 2, build, said=r"rules/fear\.yaml: is a folder, not a regular file")


def segments_linked_out(command: str):
    """segments.jsonl a link out of the build: refused by `check --build`, and by the
    export of the text to translate (`--format pot`, which read it past the build reader)."""

    def case(root: Path, template: Path) -> Case:
        build = shutil.copytree(template, root / "build")
        (build / "segments.jsonl").rename(root / "segments.jsonl")
        (build / "segments.jsonl").symlink_to(root / "segments.jsonl")
        said = r"segments\.jsonl: is a symbolic link"
        if command == "pot":
            out = root / "out.pot"
            out.write_text("previous\n", "utf-8")
            args = ["export", "--format", "pot", "--build", str(build), "-o", str(out)]
            return Case(args, 2, out, said=said)
        folder = _reports(root)
        return Case(["check", "--build", str(build), "-o", str(folder)], 2, folder, said=said)

    return case


def catz_corrupt(root: Path, template: Path) -> Case:
    """A zipped catalogue whose deflate data is corrupt (zlib.error, exit 3 before)."""
    data = bytearray((BATTLESCRIBE / "sonnstahl.catz").read_bytes())
    for k in range(60, 90):  # inside the member's deflate stream, past its local header
        data[k] = 0xFF
    drop = root / "c" / "drops" / "d"
    drop.mkdir(parents=True)
    (drop / "army.catz").write_bytes(bytes(data))
    out = shutil.copytree(template, root / "output")
    said = r"army\.catz: corrupt zip member 'sonnstahl\.cat'"
    return Case(["build", str(root / "c"), "-o", str(out), "-q"], 2, out, said=said)


def _army(root: Path, catalogue: bytes, name: str = "arena.cat") -> Path:
    drop = root / "c" / "drops" / "army"
    drop.mkdir(parents=True)
    shutil.copy(BATTLESCRIBE / "combat.gst", drop / "combat.gst")
    with open(os.fsencode(drop) + b"/" + os.fsencode(name), "wb") as fh:
        fh.write(catalogue)
    return root / "c"


def unit_without_a_name(name: bytes):
    """A unit named "" or spaces (units.json failed its own schema: exit 3 before)."""

    def case(root: Path, template: Path) -> Case:
        cat = (BATTLESCRIBE / "arena.cat").read_bytes()
        assert b'name="Wisps"' in cat
        corpus = _army(root, cat.replace(b'name="Wisps"', b'name="' + name + b'"'))
        out = shutil.copytree(template, root / "output")
        said = r"arena\.cat:\d+: a unit entry has no name"
        return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)

    return case


def catalogue_named_to_escape(root: Path, template: Path) -> Case:
    """A catalogue whose name is not UTF-8 and holds a backslash and a line break: read
    by the path it was found at, not reopened by its escaped name (exit 3 before)."""
    corpus = _army(root, (BATTLESCRIBE / "arena.cat").read_bytes(), "a\\b\nc\udcff.cat")
    out = root / "output"
    case = Case(["build", str(corpus), "-o", str(out), "-q"], 0, out)

    def read(root: Path, stdout: str) -> None:
        units = json.loads((out / "units.json").read_text("utf-8"))
        assert {u["source"]["file"] for u in units} == {"a\\\\b\\nc\\xff.cat"}

    case.expect = read
    return case


DEEP_YAML = "a: " + "[" * 600 + "]" * 600 + "\n"


def deep_yaml(where: str):
    """About 600 levels of YAML nesting (RecursionError, exit 3, before)."""

    def case(root: Path, template: Path) -> Case:
        deep = root / "deep.yaml"
        deep.write_text(DEEP_YAML, "utf-8")
        said = "YAML nested too deeply"
        if where == "scenario":
            return Case(["attack", str(deep), "--build", str(template)], 2, deep, said=said)
        if where == "accepted":
            folder = _reports(root)
            pairs = root / "pairs.jsonl"
            row = {"id": "p", "source": "a", "target": "b", "source_lang": "en"}
            pairs.write_text(json.dumps(row | {"target_lang": "ru"}) + "\n", "utf-8")
            args = ["check", "--pairs", str(pairs), "--accepted", str(deep), "-o", str(folder)]
            return Case(args, 2, folder, said=said)
        if where == "rule":
            build = shutil.copytree(template, root / "build")
            shutil.copy(deep, build / "rules" / "fear.yaml")
            args = ["charge", "--distance", "8", "--advance", "4", "--rules", "fear"]
            return Case([*args, "--build", str(build)], 2, build, said=said)
        files = {"fear.txt": "D6 +1.\n"}
        if where == "drop":
            files["drop.yaml"] = DEEP_YAML
        corpus = _corpus(root, files)
        out = shutil.copytree(template, root / "output")
        args = ["build", str(corpus), "-o", str(out), "-q"]
        if where == "glossary":
            args += ["--glossary", str(deep)]
        return Case(args, 2, out, said=said)

    return case


# --- defects 6 and 11: what a PO string may hold, and what reaches a terminal ------------

ESC = "\x1b]0;pwned\x07\x1b[2J"  # set the window title, clear the screen
PO_HEAD = 'msgid ""\nmsgstr ""\n"Language: ru\\n"\n"X-Source-Language: en\\n"\n\n'


def _po(msgid: str, said: str):
    """A PO entry whose msgid msgfmt refuses (or that holds a control character)."""

    def case(root: Path, template: Path) -> Case:
        corpus = _corpus(root, {"t.po": PO_HEAD + f'msgid "{msgid}"\nmsgstr "x"\n'})
        out = shutil.copytree(template, root / "output")
        return Case(["build", str(corpus), "-o", str(out), "-q"], 2, out, said=said)

    return case


def _no_escape(root: Path, stdout: str) -> None:
    """Nothing of ESC or BEL reached standard output; the escapes are shown instead."""
    assert "\x1b" not in stdout and "\x07" not in stdout and "\\x1b]0;pwned" in stdout


def _named_with_escapes(root: Path, template: Path) -> Path:
    """A build whose rule's name and text hold terminal escapes (a hand-edited build: the
    readers refuse them in input)."""
    build = shutil.copytree(template, root / "build")
    rules = json.loads((build / "rules.json").read_text("utf-8"))
    rules[0]["names"] = {"en": f"Fear{ESC}"}
    (build / "rules.json").write_text(json.dumps(rules), "utf-8")
    return build


def shown_with_escapes(command: str):
    def case(root: Path, template: Path) -> Case:
        build = _named_with_escapes(root, template)
        args = ["show", "fear"] if command == "show" else ["rules"]
        return Case([*args, "--build", str(build)], 0, root / "none", expect=_no_escape)

    return case


def coverage_of_texts_with_escapes(root: Path, template: Path) -> Case:
    """`coverage` prints a rule's sentences: ESC and BEL in them are shown as escapes."""
    build = shutil.copytree(template, root / "build")
    rules = json.loads((build / "rules.json").read_text("utf-8"))
    for body in rules[0]["texts"].values():
        body["text"] += f" Fear{ESC}."
    (build / "rules.json").write_text(json.dumps(rules), "utf-8")
    return Case(["coverage", "--build", str(build)], 0, root / "none", expect=_no_escape)


def po_of_a_build_with_escapes(root: Path, template: Path) -> Case:
    """A build whose segment holds ESC, BEL and NUL (edited: no reader lets them in) is
    refused by the build reader, not copied raw into the exported PO file."""
    build = shutil.copytree(template, root / "build")
    path = build / "segments.jsonl"
    lines = path.read_text("utf-8").split("\n")
    for n, line in enumerate(lines):
        if line:
            seg = json.loads(line)
            seg["raw"] += ESC + "\x00"
            lines[n] = json.dumps(seg, ensure_ascii=False)
    path.write_text("\n".join(lines), "utf-8")
    out = root / "ru.po"
    out.write_text("previous\n", "utf-8")
    args = ["export", "--format", "po", "--target-lang", "ru", "--build", str(build)]
    said = r"segments\.jsonl:1: control character U\+001B in a string"
    return Case([*args, "-o", str(out)], 2, out, said=said)


def _units_with_escapes(root: Path, where: str) -> Path:
    """An arena build whose Halberdiers hold ESC and BEL in their name or a part's name."""
    build = _arena(root)
    path = build / "units.json"
    units = json.loads(path.read_text("utf-8"))
    [unit] = [u for u in units if u["id"] == "halberdiers"]
    if where == "name":
        unit["name"] += ESC
    else:
        unit["parts"][0]["name"] += ESC
    path.write_text(json.dumps(units), "utf-8")
    return build


def attack_prints_escapes_escaped(root: Path, template: Path) -> Case:
    """`attack` prints each part of a side by name (raw before)."""
    build = _units_with_escapes(root, "part")
    scenario = root / "s.yaml"
    scenario.write_text(
        "attacker: {unit: halberdiers, models: 10}\ndefender: {unit: brutes, models: 3}\n"
    )
    args = ["attack", str(scenario), "--build", str(build)]
    return Case(args, 0, root / "none", expect=_no_escape)


def matchup_notes_print_escapes_escaped(root: Path, template: Path) -> Case:
    """The notes under a matchup's table name the unit (raw before; the table escaped it)."""
    build = _units_with_escapes(root, "name")
    args = ["matchup", "halberdiers", "brutes", "--points", "1", "--build", str(build)]
    return Case(args, 0, root / "none", expect=_no_escape)


def diff_prints_escapes_escaped(root: Path, template: Path) -> Case:
    """The changelog names a renamed rule and quotes a changed text (raw before)."""
    build = _named_with_escapes(root, template)
    rules = json.loads((build / "rules.json").read_text("utf-8"))
    for body in rules[0]["texts"].values():
        body["text"] += f" Fear{ESC}."
    (build / "rules.json").write_text(json.dumps(rules), "utf-8")
    return Case(["diff", str(template), str(build)], 0, root / "none", expect=_no_escape)


def pair_id_with_escapes(root: Path, template: Path) -> Case:
    case = _checked_pair(root, f"p{ESC}", "Roll a D6.", "Бросьте D3.")
    case.args += ["--format", "json,text"]
    case.expect = _no_escape
    return case


def error_naming_escapes(root: Path, template: Path) -> Case:
    """A refusal quoting what the user typed prints it escaped, on one line."""
    args = ["show", f"fear{ESC}\nnext", "--build", str(template)]
    return Case(args, 2, root / "none", said=r"fear\\x1b\]0;pwned\\x07\\x1b\[2J\\nnext")


CASES = {
    "37.4-separators-built-then-checked": separators_built_then_checked,
    "37.4-separators-exported": separators_exported,
    "37.4-separators-suggested": separators_suggested,
    "37.4-separators-in-pairs": separators_in_pairs,
    "37.4-separators-in-po": separators_in_po,
    "37.2-matchup-into-a-fifo": matchup_into_a_fifo,
    "37.2-diff-into-a-device": diff_into_a_device,
    "37.5-a-billion-models": a_billion_models,
    "37.5-matchup-of-a-thousand-units": matchup_of_a_thousand_units,
    "37.5-long-tmx-unit": long_tmx_unit,
    "37.5-long-pair": long_pair,
    "37.7-unit-over-the-text-limit": unit_over_the_limit,
    "37.7-xliff-unit-over-the-text-limit": _text_over_the_limit("xliff"),
    "37.7-po-string-over-the-text-limit": _text_over_the_limit("po"),
    "37.7-battlescribe-rule-over-the-text-limit": _text_over_the_limit("battlescribe"),
    "37.5-xliff-unit-at-the-text-limit": _text_at_the_limit("xliff"),
    "37.5-po-string-at-the-text-limit": _text_at_the_limit("po"),
    "37.5-battlescribe-rule-at-the-text-limit": _text_at_the_limit("battlescribe"),
    "37.5-matchup-at-the-limit": matchup_at_the_limit,
    "37.7-extract-text-over-the-limit": extract_text_over_the_limit,
    "37.7-pair-over-the-text-limit": pair_over_the_limit,
    "37.7-long-number-in-extract": _long_number("extract"),
    "37.7-long-number-in-pairs": _long_number("check"),
    "37.7-long-number-in-rules-json": _long_number("export"),
    "37.7-rules-json-of-wrong-types-site": _wrong_shape(
        "rules.json",
        '[{"id": "fear", "kind": 5}]',
        ["export", "--format", "site", "-o", "site"],
        r"rules\.json:/0: not a rule bundle",
    ),
    "37.7-rules-json-of-wrong-types-show": _wrong_shape(
        "rules.json", '[{"id": ["fear"]}]', ["show", "fear"], r"rules\.json:/0: not a rule bundle"
    ),
    "37.7-rules-json-of-wrong-types-rules": _wrong_shape(
        "rules.json", '[{"id": "fear", "kind": 5}]', ["rules"], r"rules\.json:/0: not a rule bundle"
    ),
    "37.7-alignments-of-wrong-types-site": _wrong_shape(
        "alignments.json",
        '{"links": [{"id": 3}], "summary": {}}',
        ["export", "--format", "site", "-o", "site"],
        r"alignments\.json:/links/0.*: not alignments",
    ),
    **{
        f"37.7-units-of-wrong-types-{name}": _wrong_shape(
            "units.json", '[{"id": "x", "name": 5}]', command, r"units\.json:/0.*: not units"
        )
        for name, command in (
            ("site", ["export", "--format", "site", "-o", "site"]),
            ("rules", ["rules"]),
            ("show", ["show", "x"]),
        )
    },
    "37.7-units-of-wrong-types-attack": units_of_wrong_types_attacked,
    "37.7-alignments-of-wrong-types": _wrong_shape(
        "alignments.json",
        '{"links": [{"id": 3}], "summary": {}}',
        ["export", "--format", "tmx"],
        r"alignments\.json:/links/0.*: not alignments",
    ),
    "37.7-units-of-wrong-types": _wrong_shape(
        "units.json",
        '[{"id": "x", "name": 5}]',
        ["matchup", "x", "x"],
        r"units\.json:/0.*: not units",
    ),
    "37.7-catz-corrupt-deflate": catz_corrupt,
    "37.7-unit-without-a-name": unit_without_a_name(b"  "),
    "37.7-unit-with-an-empty-name": unit_without_a_name(b""),
    "37.7-catalogue-named-to-escape": catalogue_named_to_escape,
    "37.7-deep-yaml-scenario": deep_yaml("scenario"),
    "37.7-deep-yaml-drop": deep_yaml("drop"),
    "37.7-deep-yaml-glossary": deep_yaml("glossary"),
    "37.7-deep-yaml-accepted": deep_yaml("accepted"),
    "37.7-deep-yaml-rule-file": deep_yaml("rule"),
    "37.8-rule-file-linked-out": rule_file_linked_out("charge"),
    "37.8-table-of-a-rule-file-linked-out": rule_file_linked_out("table"),
    "37.8-folder-for-a-rule-file": folder_for_a_rule_file,
    "37.8-segments-linked-out": segments_linked_out("check"),
    "37.8-segments-linked-out-of-a-pot-export": segments_linked_out("pot"),
    "37.6-po-escaped-esc": _po("\\033]0;pwned\\007", "control character U\\+001B in a PO string"),
    "37.6-po-escaped-nul": _po("a\\0b", "NUL character in a PO string"),
    "37.6-po-escaped-bell": _po("a\\ab", "control character U\\+0007 in a PO string"),
    "37.6-show-prints-escapes-escaped": shown_with_escapes("show"),
    "37.6-rules-prints-escapes-escaped": shown_with_escapes("rules"),
    "37.6-coverage-prints-escapes-escaped": coverage_of_texts_with_escapes,
    "37.6-attack-prints-escapes-escaped": attack_prints_escapes_escaped,
    "37.6-matchup-notes-print-escapes-escaped": matchup_notes_print_escapes_escaped,
    "37.6-diff-prints-escapes-escaped": diff_prints_escapes_escaped,
    "37.6-exported-po-of-a-build-with-escapes": po_of_a_build_with_escapes,
    "37.6-check-pair-id-with-escapes": pair_id_with_escapes,
    "37.6-error-naming-escapes": error_naming_escapes,
    "37.11-po-string-left-open": _po("abc\\", "end of line within a PO string"),
    "37.11-po-octal-past-a-byte": _po("\\777", r"escape \\777 is past a byte"),
}
