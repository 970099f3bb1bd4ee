"""Schemas: the one place that loads schemas/*.schema.json and checks objects against them,
for the outputs a build writes and for the inputs beside the texts (glossary, drop.yaml,
rule files read back by the interpreter)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the validators load on first use: commands that check nothing start fast
    from jsonschema import Draft202012Validator, ValidationError
    from referencing import Registry

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@cache
def _schemas() -> tuple[tuple[str, Any], ...]:
    found = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text("utf-8"))
        found.append((schema["$id"], schema))
    return tuple(found)


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    return Registry().with_resources(
        (uri, Resource.from_contents(schema)) for uri, schema in _schemas()
    )


class SchemaValidator:
    """A compiled validator (jsonschema_rs) for one schema, with the reference (jsonschema)
    behind it: a valid object, the common case, is passed by the compiled check alone; an
    invalid one is judged and explained by the reference, made on first need (importing
    jsonschema takes a tenth of a second, which a command reading valid files is spared).
    Other attributes are the reference's."""

    def __init__(self, make_reference: Callable[[], Draft202012Validator], fast: Any) -> None:
        self._make_reference = make_reference
        self._fast = fast

    @cached_property
    def reference(self) -> Draft202012Validator:
        return self._make_reference()

    def is_valid(self, instance: Any) -> bool:
        return bool(self._fast.is_valid(instance)) or self.reference.is_valid(instance)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        if self._fast.is_valid(instance):
            return iter(())
        return self.reference.iter_errors(instance)

    def validate(self, instance: Any) -> None:
        if not self._fast.is_valid(instance):
            self.reference.validate(instance)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reference, name)


@cache
def validator(name: str) -> SchemaValidator:
    """The validator for schemas/<name>.schema.json, with references between schemas resolved."""
    path = SCHEMAS / f"{name}.schema.json"
    if not path.is_file():
        raise FileNotFoundError(f"schema not found: {path}")
    schema = json.loads(path.read_text("utf-8"))
    import jsonschema_rs

    def reference() -> Draft202012Validator:
        from jsonschema import Draft202012Validator

        return Draft202012Validator(schema, registry=_registry())

    fast = jsonschema_rs.Draft202012Validator(schema, registry=jsonschema_rs.Registry(_schemas()))
    return SchemaValidator(reference, fast)


class SchemaViolation(Exception):
    """A stage produced an object its schema refuses: a bug, never written to disk."""


def problem(obj: Any, schema: str) -> tuple[str, str] | None:
    """Where `obj` first breaks `schema` (a JSON pointer) and what is wrong, on one short
    line (input data may hold anything), or None when it is valid: for refusing input."""
    check = validator(schema)
    if check.is_valid(obj):
        return None
    error = next(iter(check.iter_errors(obj)))
    message = " ".join(str(error.message).split())
    message = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in message)
    if len(message) > 160:
        message = message[:150] + " ..."
    return "/" + "/".join(map(str, error.absolute_path)), message


def validate(obj: Any, schema: str, what: str) -> None:
    error = next(iter(validator(schema).iter_errors(obj)), None)
    if error is not None:
        path = "/".join(str(p) for p in error.absolute_path)
        raise SchemaViolation(
            f"{what} does not match {schema}.schema.json at /{path}: {error.message}"
        )


@cache
def schema(name: str) -> dict[str, Any]:
    """schemas/<name>.schema.json as loaded (callers must not change it)."""
    for uri, found in _schemas():
        if uri.rsplit("/", 1)[-1] == f"{name}.schema.json":
            return found
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))


@cache
def definition_validator(name: str, definition: str) -> SchemaValidator:
    """A validator for `$defs/<definition>` of one schema, to check a part on its own."""
    part = {"$ref": f"#/$defs/{definition}", "$defs": schema(name)["$defs"]}
    import jsonschema_rs

    def reference() -> Draft202012Validator:
        from jsonschema import Draft202012Validator

        return Draft202012Validator(part)

    return SchemaValidator(reference, jsonschema_rs.Draft202012Validator(part))
