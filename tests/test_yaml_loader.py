"""User YAML (glossaries, rule files, scenarios, drop.yaml) is read by libyaml's loader where
installed: the values must be those PyYAML's own safe loader gives."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.files import parse_yaml

from .conftest import ROOT

FILES = sorted(
    p
    for folder in ("corpus", "output", "pipeline", "tests/data")
    for p in (ROOT / folder).rglob("*.y*ml")
)


def test_every_yaml_file_of_the_repository_reads_the_same() -> None:
    assert len(FILES) > 100
    for path in FILES:
        data = path.read_bytes()
        assert parse_yaml(str(path), data) == yaml.safe_load(data.decode("utf-8-sig")), path


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(),
    st.sampled_from(["yes", "no", "on", "off", "~", "null", "1e3", "0o17", "0x1F", "1:20", "-"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from([None, True, False]), st.booleans(), st.integers(20, 120))
def test_any_dumped_value_reads_back_the_same(value, flow, unicode, width) -> None:
    text = yaml.safe_dump(value, default_flow_style=flow, allow_unicode=unicode, width=width)
    assert parse_yaml("x.yaml", text.encode("utf-8")) == yaml.safe_load(text)


def test_bad_yaml_is_still_an_input_error_with_its_place() -> None:
    with pytest.raises(InputError, match=r":2:6: not valid YAML"):
        parse_yaml("bad.yaml", b"languages: [en\nterms: x\n")
    deep = b"[" * 5000 + b"]" * 5000  # PyYAML's own loader recursed past Python's limit
    with pytest.raises(InputError, match="not valid YAML"):
        parse_yaml("deep.yaml", deep)
