"""Properties over generated inputs: dice expressions against an independent model,
the normaliser's form, segmentation that loses nothing, and schema-valid builds whose
rule files read back the same from YAML and JSON."""

from __future__ import annotations

import io
import itertools
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.build import build
from pipeline.emit import dump_json, dump_jsonl_line, dump_yaml, write_json_stream
from pipeline.errors import InputError
from pipeline.extract.facts import extract_text
from pipeline.files import decode
from pipeline.ingest import ingest_file
from pipeline.ingest import text as text_reader
from pipeline.interpret.dice import distribution, parse
from pipeline.normalise import COMPOSES_AFTER, QUOTE_FOLD, normalise, normalise_with_map
from pipeline.schemas import validator
from pipeline.slug import MAX_SLUG, RESERVED, slugify

from .conftest import ROOT

Dist = dict[int, Fraction]

# --- dice: every expression equals an independent model of it --------------------------


def uniform(sides: int) -> Dist:
    return {v: Fraction(1, sides) for v in range(1, sides + 1)}


def combine(a: Dist, b: Dist, op: Callable[[int, int], int]) -> Dist:
    out: Counter[int] = Counter()
    for (x, px), (y, py) in itertools.product(a.items(), b.items()):
        out[op(x, y)] += px * py
    return {v: p for v, p in sorted(out.items()) if p}


def pool_sum(n: int, sides: int, dropped_low: int = 0) -> Dist:
    """n dice of `sides` faces by enumeration, the lowest `dropped_low` left out."""
    out: Counter[int] = Counter()
    for faces in itertools.product(range(1, sides + 1), repeat=n):
        out[sum(sorted(faces)[dropped_low:])] += 1
    total = sides**n
    return {v: Fraction(c, total) for v, c in sorted(out.items())}


def rerolled(sides: int, again: set[int]) -> Dist:
    out: Counter[int] = Counter()
    for first, second in itertools.product(range(1, sides + 1), repeat=2):
        out[second if first in again else first] += 1
    return {v: Fraction(c, sides * sides) for v, c in sorted(out.items())}


Expr = tuple[str, Dist]

atoms: st.SearchStrategy[Expr] = st.one_of(
    st.integers(0, 6).map(lambda c: (str(c), {c: Fraction(1)})),
    st.tuples(st.integers(1, 3), st.sampled_from([3, 4, 6, 8])).map(
        lambda ns: (f"{ns[0]}D{ns[1]}", pool_sum(*ns))
    ),
    st.sampled_from([3, 6]).map(lambda s: (f"D{s}", uniform(s))),
    st.integers(2, 4).map(lambda n: (f"{n}D6 drop lowest", pool_sum(n, 6, 1))),
    st.integers(1, 5).map(lambda r: (f"D6 reroll {r}", rerolled(6, {r}))),
)


def _join(pair: tuple[Expr, Expr], sign: str) -> Expr:
    (a, da), (b, db) = pair
    op = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[sign]
    return f"({a}) {sign} ({b})", combine(da, db, op)


expressions: st.SearchStrategy[Expr] = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda p: _join(p, "+")),
        st.tuples(inner, inner).map(lambda p: _join(p, "-")),
        st.tuples(atoms.filter(lambda e: e[0].isdigit()), inner).map(lambda p: _join(p, "*")),
    ),
    max_leaves=4,
)


@settings(max_examples=150, deadline=None)
@given(expressions)
def test_any_dice_expression_equals_its_model_and_sums_to_one(expr: Expr) -> None:
    text, model = expr
    got = dict(distribution(parse(text)))
    assert sum(got.values()) == 1
    assert got == model


@settings(max_examples=80, deadline=None)
@given(expressions, expressions)
def test_roll_of_a_sum_is_the_convolution_of_its_parts(a: Expr, b: Expr) -> None:
    parts = combine(dict(distribution(parse(a[0]))), dict(distribution(parse(b[0]))), int.__add__)
    assert dict(distribution(parse(f"({a[0]})+({b[0]})"))) == parts


@settings(max_examples=60, deadline=None)
@given(expressions, st.sampled_from(["Д", "д", "К", "к"]), st.integers(0, 3))
def test_cyrillic_die_letters_and_spacing_read_as_latin(expr: Expr, letter: str, pad: int) -> None:
    text, model = expr
    spaced = text.replace("D", letter).replace(" ", " " * (pad + 1))
    assert dict(distribution(parse(spaced))) == model


# --- the normaliser: idempotent, NFC, single spaces, no unfolded glyph --------------------

GLYPHS = " \t\n\u00a0\u2028\u3000e\u0301\u0308Ä1″”“«»'′"
ANY_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)),
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        ANY_TEXT, st.text(alphabet=" \t\n\u00a0\u2028\u3000e\u0301\u0308Ä1″”“«»'′", max_size=60)
    )
)
def test_normalised_text_is_a_fixed_point_in_nfc_with_single_spaces(raw: str) -> None:
    out = normalise(raw)
    assert normalise(out) == out
    assert unicodedata.is_normalized("NFC", out)
    assert out == out.strip()
    assert "  " not in out
    assert not any(c.isspace() and c != " " for c in out)
    assert not set(out) & set(QUOTE_FOLD)


# Every category, lone surrogates and unassigned code points included; and the scripts whose
# NFC joins characters that are not combining marks (Hangul jamo, Oriya and Tibetan signs).
ALL_CATEGORIES = st.characters(exclude_categories=())  # Cs too: st.characters leaves it out
COMPOSING = st.one_of(
    st.characters(min_codepoint=0x1100, max_codepoint=0x11FF),  # Hangul jamo
    st.characters(min_codepoint=0x0B00, max_codepoint=0x0B7F),  # Oriya
    st.characters(min_codepoint=0x0F70, max_codepoint=0x0FBC),  # Tibetan vowel signs
    st.sampled_from(list(" 1\"″′'[]b\u0301\u0334\u05b0\u0f73ḍ")),
)
SPANS = st.lists(st.tuples(st.integers(0, 80), st.integers(0, 80)), max_size=3)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(st.text(ALL_CATEGORIES, max_size=80), st.text(COMPOSING, max_size=40)), SPANS)
def test_the_mapped_normaliser_gives_the_text_of_the_fast_one(raw: str, spans) -> None:
    spans = [(min(a, b, len(raw)), min(max(a, b), len(raw))) for a, b in spans]
    spans = [s for s in spans if s[0] < s[1]]
    text, offsets = normalise_with_map(raw, spans)
    assert text == normalise(raw, spans)
    assert len(offsets) == len(text) + 1 and offsets == sorted(offsets)


def test_hangul_jamo_and_oriya_vowel_signs_compose_alike_on_both_paths() -> None:
    for raw, want in (
        ("\u1100\u1161\u11a8 x", "\uac01 x"),  # ᄀ ᅡ ᆨ -> 각
        ("କ\u0b47\u0b3e", "କ\u0b4b"),  # Oriya E + AA -> O
        ("e[b]\u0301", "e[b]\u0301"),  # a tag between letter and mark stays text here
    ):
        assert normalise(raw) == normalise_with_map(raw)[0] == want
    assert normalise_with_map("e[b]\u0301", [(1, 4)]) == ("\u00e9", [0, 5])


def test_the_characters_that_compose_after_another_are_those_of_unicodedata() -> None:
    seconds = {chr(c) for c in range(0x1161, 0x1176)} | {chr(c) for c in range(0x11A8, 0x11C3)}
    for cp in range(0x300, 0x110000):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<") and len(d.split()) == 2:
            second = chr(int(d.split()[1], 16))
            if not unicodedata.combining(second):
                seconds.add(second)
    assert seconds == COMPOSES_AFTER


# --- extract: every span it prints indexes the text it was given -------------------------

EXTRACT_PIECES = st.sampled_from(
    [
        "[b]Fear[/b]",
        "  ",
        " ",
        "\n",
        "causes panic,",
        "+1 to hit.",
        "-2 Strength",
        "within 12″",
        "6'' away",
        "3′′",
        "D3 hits",
        "X+D6",
        "Х+D6",
        "(1×5)",
        "[6]",
        "[i]Models with Ricochet[/i]",
        "Модели с правилом Страх получают -1 к Дисциплине",
        "«Рикошет»",
        "e\u0301",
        "\u1100\u1161\u11a8",
        "କ\u0b47\u0b3e",
        "[url=x]",
        "(тут, я чуть не упал под стол, - Oleon)",
    ]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(EXTRACT_PIECES, st.text(max_size=8)), min_size=1, max_size=12),
    st.sampled_from(["en", "ru"]),
)
def test_every_span_extract_prints_indexes_its_input(pieces: list[str], lang: str) -> None:
    text = "".join(pieces)
    row = extract_text("p", text, lang)
    for q in row["quantities"]:
        start, end = q["span"]
        assert 0 <= start < end <= len(text)
        assert text[start:end] == q["surface"]
        assert normalise(q["surface"]).strip()  # not a slice of tags or spaces alone
    for effect in row["effects"]:
        if "span" in effect:
            start, end = effect["span"]
            assert 0 <= start <= end <= len(text)


def test_extract_gives_offsets_into_the_input_not_the_normalised_text() -> None:
    text = "[b]Fear[/b]  causes panic, +1 to hit."
    [q] = extract_text("p", text, "en")["quantities"]
    assert (q["span"], q["surface"]) == ([27, 29], "+1")
    [q] = extract_text("p", "Move 6″e\u0301 and D3.", "en")["quantities"][:1]
    assert q["surface"] == "6″"


# --- rule ids: whatever the name, a safe file name ----------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.one_of(ANY_TEXT, st.sampled_from(["..", ".", "", "CON", "con.txt", "../../etc", "/"])))
def test_any_name_slugs_to_a_safe_file_name(name: str) -> None:
    slug = slugify(name)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug), slug
    assert len(slug) <= MAX_SLUG
    assert slug.split(".")[0] not in RESERVED
    assert slugify(slug) == slug  # an id stays itself


# --- segmentation: the blocks of a file keep every non-space character, in order ----------

LINE_PIECES = st.sampled_from(
    [
        "Models with Fear.",
        "Модели с правилом Страх",
        "| 1 | Falls. |",
        "|---|---|",
        "| 2-5 |",
        "# HEADING",
        "УБЕЖАВШИЕ ЛОШАДИ (Loose Mounts)",
        "- a bullet",
        "1. first",
        "[b]bold",
        "[/b] end.",
        "(тут, - Oleon)",
        "",
        "   ",
        "\t",
        "48″, Str 3 [6]",
    ]
)
FILE_TEXT = st.lists(
    st.one_of(LINE_PIECES, st.text(max_size=40).filter(lambda s: "\x00" not in s)), max_size=25
)


def non_space(text: str) -> str:
    return "".join(text.split())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FILE_TEXT, st.sampled_from(["\n", "\r\n"]), st.booleans(), st.sampled_from([25, 60, 20_000]))
def test_segments_raw_text_keeps_every_non_space_character_in_order(
    lines: list[str], newline: str, markdown: bool, limit: int
) -> None:
    text = newline.join(lines)
    saved = text_reader.MAX_BLOCK_CHARS
    text_reader.MAX_BLOCK_CHARS = limit  # small limits exercise the cutting of long runs
    try:
        blocks = text_reader.read_text(text, markdown=markdown)
    finally:
        text_reader.MAX_BLOCK_CHARS = saved
    assert non_space("".join(b.raw for b in blocks)) == non_space(text)
    assert all(len(b.raw) <= limit for b in blocks)
    for b in blocks:
        first, last = b.lines
        assert 1 <= first <= last
        assert non_space(b.raw) in non_space("".join(text.splitlines()[first - 1 : last]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(FILE_TEXT, st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-be"]))
def test_files_in_any_accepted_encoding_lose_nothing_through_ingest(
    lines: list[str], encoding: str
) -> None:
    text = "\n".join(lines) + "\n"  # a line break: unmarked UTF-16 is known by its NULs
    text = "".join(c for c in text if not (unicodedata.category(c) == "Cc" and c not in "\t\n\r"))
    data = text.encode(encoding)
    try:
        decoded = decode("f.md", data)
    except InputError:
        # only UTF-16 without a BOM may be refused: when some code unit's low byte is NUL
        # too (U+0100, U+4E00, a surrogate half such as the D800 of U+10001 ...), the
        # bytes look binary; big-endian puts each code unit's low byte second
        assert encoding == "utf-16-be"
        assert any(data[i] == 0 for i in range(1, len(data), 2))
        return
    assert decoded == text
    segments = ingest_file("d", "f.md", "f.md", data)
    assert non_space("".join(s.raw for s in segments)) == non_space(text)


# --- schemas: what a build emits validates; YAML and JSON say the same --------------------

PARAGRAPHS = st.lists(
    st.sampled_from(
        [
            "Models with Fear suffer -1 Discipline.",
            "[b]Ricochet[/b]: the model gains +1 Strength and D3 hits within 6″.",
            "Модели с правилом Страх получают -1 к Дисциплине.",
            "Attacks made with a Great Weapon gain +2 Strength.",
            "| 1 | Падает. |\n| 2-5 | Ничего. |\n| 6 | Прыгает. |",
            "# ../../etc",
            "CON",
            "Range 48″, Shots 1, Str 3 [6], AP 10, Area Attack (1×5), [Multiple Wounds (D3)]",
            "Charge Range is 2D6 + Advance Rate; X+D6 hits (Х+D6).",
            "armatura +3",
        ]
    ),
    min_size=1,
    max_size=8,
)


def check_build(out: Path) -> None:
    for line in (out / "segments.jsonl").read_text("utf-8").splitlines():
        assert validator("segment").reference.is_valid(json.loads(line))
    assert validator("clusters").reference.is_valid(
        json.loads((out / "clusters.json").read_text("utf-8"))
    )
    assert validator("manifest").reference.is_valid(
        json.loads((out / "manifest.json").read_text("utf-8"))
    )
    bundle = json.loads((out / "rules.json").read_text("utf-8"))
    assert sorted(f"{r['id']}.yaml" for r in bundle) == sorted(
        p.name for p in (out / "rules").iterdir()
    )
    for rule in bundle:
        assert validator("rule").reference.is_valid(rule)
        text = (out / "rules" / f"{rule['id']}.yaml").read_text("utf-8")
        from_yaml = yaml.safe_load(text)
        assert from_yaml == rule  # the YAML file and the JSON bundle say the same
        assert dump_yaml(from_yaml) == text  # and both round trips are exact
        assert json.loads(dump_json(from_yaml)) == rule


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(PARAGRAPHS, PARAGRAPHS)
def test_every_object_a_build_emits_validates_and_round_trips(
    tmp_path_factory: pytest.TempPathFactory, english: list[str], other: list[str]
) -> None:
    root = tmp_path_factory.mktemp("prop")
    drop = root / "corpus" / "drops" / "d"
    drop.mkdir(parents=True)
    (drop / "a.md").write_text("\n\n".join(english) + "\n", encoding="utf-8")
    (drop / "b.txt").write_text("\n".join(other) + "\n", encoding="utf-8")
    result = build(root / "corpus", root / "out")
    assert result.manifest["accounting"]["balanced"] is True
    check_build(root / "out")


def test_the_committed_output_validates_and_round_trips() -> None:
    check_build(ROOT / "output")


# Floats as a build's makers give them (rounded to at most four places): orjson writes
# them as json.dumps does. Keys that are not strings and integers past 64 bits are
# json.dumps's to write.
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(-1e15, 1e15).map(lambda x: round(x, 4))
    | st.text()
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers() | st.booleans() | st.none(), inner, max_size=2)
    ),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_dump_json_writes_what_json_dumps_writes(value: object) -> None:
    """Whole, streamed after text already in a file (rules.json, a list an item at a time)
    and as a JSON Lines line."""
    expected = json.dumps(value, ensure_ascii=False, indent=2) + "\n"
    assert dump_json(value) == expected
    fh = io.BytesIO()
    fh.write(b"before")
    write_json_stream(value, fh)
    assert fh.getvalue().decode("utf-8") == "before" + expected
    line = json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert dump_jsonl_line(value) == line.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**80), 2**80))
def test_any_number_reads_back_as_written(number: float) -> None:
    """A float a build never makes (1e-05, 1e+16) may be written in orjson's form (1e-5,
    1e16): the same number. (NaN and the infinities, which no JSON holds, would be null.)"""
    assert json.loads(dump_json([number])) == [number]
    assert json.loads(dump_jsonl_line({"n": number})) == {"n": number}


def test_a_builds_json_is_json_dumps_text() -> None:
    """The committed build's JSON files are the text json.dumps gives their values."""
    build = ROOT / "output"
    for name in ("rules.json", "alignments.json", "clusters.json", "manifest.json"):
        text = (build / name).read_text("utf-8")
        assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"
    for line in (build / "segments.jsonl").read_text("utf-8").splitlines():
        assert dump_jsonl_line(json.loads(line)).decode("utf-8") == line + "\n"


class _PlainDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """PyYAML's safe dumper with its own representer, every object written out in full."""

    def ignore_aliases(self, data: object) -> bool:
        return True


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES)
def test_dump_yaml_writes_what_pyyaml_writes(value: object) -> None:
    """The text is PyYAML's, shared objects, tuples and floats included."""
    shared = [value, value]
    for obj in (value, shared, {"a": shared, "b": (value,)}):
        expected = yaml.dump(
            obj, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=100
        )
        assert dump_yaml(obj) == expected


# Rule-like text: words of letters, digits and the marks rule texts hold, one space or more
# apart, long enough to be folded at any depth, with what makes libyaml quote a scalar
_WORD = st.text(
    st.sampled_from([*"abcXYZйЖ019-'\":#,.?!()[]{}&*|>%@`~+=_/", "\u00a0", "\u2019"]),
    min_size=0,
    max_size=12,
)
_PROSE = st.lists(_WORD, max_size=60).map(" ".join) | st.sampled_from(
    ["", "-1", "+1 Attack Value", "- x", "? x", ":x", "yes", "null", "~", "3.5", "1e5", "---"]
)
_RULE_SCALARS = _PROSE | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
_RULE_VALUES = st.recursive(
    _RULE_SCALARS | st.booleans() | st.none(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            _PROSE.filter(lambda k: len(k) < 40) | st.just("a" * 130), inner, max_size=4
        )
    ),
    max_leaves=30,
)


@settings(max_examples=600, deadline=None)
@given(st.dictionaries(st.sampled_from(["id", "text", "sources"]), _RULE_VALUES, min_size=1))
def test_rule_yaml_is_written_as_libyaml_writes_it(rule: dict) -> None:
    """The direct writer on mappings of long, folded, quoted and nested text: its text
    is PyYAML's with libyaml, or it leaves the value to PyYAML."""
    from pipeline.yamltext import block_yaml

    expected = yaml.dump(rule, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=100)
    written = block_yaml(rule)
    assert written is None or written == expected
    assert dump_yaml(rule) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.text("abcXYZйЖ", min_size=1), max_size=40).map(" ".join), max_size=5))
def test_rule_yaml_of_words_is_written_directly(texts: list[str]) -> None:
    """Text of letters and spaces never needs PyYAML."""
    from pipeline.yamltext import block_yaml

    rule = {"texts": [{"en": {"text": t, "sources": [{"segment": t}]}} for t in texts], "n": texts}
    written = block_yaml(rule)
    assert written is not None
    assert written == yaml.dump(
        rule, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=100
    )


@pytest.mark.parametrize(
    "rule",
    [
        {"k" * 110: " starts with a space and goes on past the width"},  # no fold at the start
        {"k" * 110: "ends with a space and goes on past the width, the width "},
        {"a": [[["deep " * 30, "x"], []], {}], "b": [{"c": [{"d": "e " * 60}]}]},
        {"quote": "it's " * 30, "colon": "a: b " * 30, "hash": "a #b " * 30},
        {"empty": "", "spaces": "a  b   c " * 20 + "z", "dash": "- item", "num": "12"},
    ],
)
def test_rule_yaml_edge_cases_are_libyamls(rule: dict) -> None:
    from pipeline.yamltext import block_yaml

    expected = yaml.dump(rule, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False, width=100)
    assert block_yaml(rule) == expected


def test_streamed_json_of_a_value_json_cannot_hold_fails_and_leaves_nothing() -> None:
    fh = io.BytesIO()
    fh.write(b"kept")
    with pytest.raises(TypeError):
        write_json_stream({"a": [1, 2], "b": {3}}, fh)
    assert fh.getvalue() == b"kept"


# Strings with lone surrogates, pairs of them and backslashes that look like escapes; values
# nested from a few levels to past the limit.
_JSON_TEXT = st.text(st.sampled_from(["a", "й", "\\", "u", "d", "8", "\ud800", "\udfff", "😀"]))
_SHALLOW = st.recursive(
    st.none() | st.integers() | _JSON_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_JSON_TEXT, inner, max_size=3),
    max_leaves=80,
)


def _nest(depth: int, leaf: object) -> object:
    for k in range(depth):
        leaf = [leaf] if k % 2 else {"k": leaf}
    return leaf


_JSON_LINES = st.one_of(_SHALLOW, st.builds(_nest, st.integers(55, 70), _SHALLOW))


@settings(max_examples=300, deadline=None)
@given(_JSON_LINES)
def test_dump_json_of_lone_surrogates_and_deep_nesting_is_json_dumps_text(value: object) -> None:
    assert dump_json(value) == json.dumps(value, ensure_ascii=False, indent=2) + "\n"


def _refused(value: object, depth: int = 1) -> bool:
    """Whether a value holds a lone surrogate in a string or nesting past 64 levels."""
    if isinstance(value, str):
        return re.search("[\ud800-\udfff]", value) is not None
    if depth > 64:
        return True
    if isinstance(value, dict):
        return any(_refused(k, depth) or _refused(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_refused(v, depth + 1) for v in value)
    return False


@settings(max_examples=300, deadline=None)
@given(_JSON_LINES, st.booleans())
@example(value=[{"\ud800\udfff": None}], ascii_only=True)  # a pair, once escaped
def test_a_json_lines_file_is_refused_exactly_when_it_holds_a_lone_surrogate_or_deep_nesting(
    tmp_path_factory: pytest.TempPathFactory, value: object, ascii_only: bool
) -> None:
    from pipeline.jsonl import read_jsonl

    line = json.dumps({"v": value}, ensure_ascii=ascii_only)
    try:
        data = line.encode("utf-8")
    except UnicodeEncodeError:  # a raw lone surrogate: no UTF-8 file holds it
        return
    path = tmp_path_factory.mktemp("jsonl") / "in.jsonl"
    path.write_bytes(data + b"\n")
    try:
        list(read_jsonl(path, {}))
        read = True
    except InputError:
        read = False
    # what the file says: escaped, a high surrogate and a low one after it are one character
    # ("\\ud800\\udfff" reads as U+103FF), so the oracle judges the line as JSON reads it
    assert read != _refused(json.loads(line))


_OLD_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")  # C0 controls but white space, and DEL


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=1, max_codepoint=0x450) | st.sampled_from("\x7f\x1b\t")))
def test_utf8_is_refused_for_a_control_character_wherever_it_lies(text: str) -> None:
    """A file is refused exactly when its text holds a control character, with the line
    and byte of the first."""
    data = text.encode("utf-8")
    found = _OLD_CONTROL.search(text)
    if found is None:
        assert decode("f.txt", data) == text
    else:
        with pytest.raises(InputError) as exc:
            decode("f.txt", data)
        byte = len(text[: found.start()].encode("utf-8"))
        assert f"(byte {byte})" in str(exc.value)
