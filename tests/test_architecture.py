"""Imports point down the flow: the layer table of ARCHITECTURE.md, enforced."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pipeline"


def layers() -> dict[str, int]:
    """Top-level module or package name -> layer number, read from ARCHITECTURE.md."""
    out: dict[str, int] = {}
    for line in (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines():
        row = re.match(r"\|\s*(\d+)\s*\|([^|]*)\|", line)
        if row:
            for name in re.findall(r"`([\w.]+)`", row.group(2)):
                out[name] = int(row.group(1))
    return out


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every pipeline module `path` imports, at the top or inside a function."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if node.module is None:
                found |= {f"{target}.{a.name}" for a in node.names}
            else:
                found.add(target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {t for t in found if t.split(".")[0] == "pipeline"}


def top(module: str) -> str:
    """`pipeline.quantities` -> `extract`; the package root itself -> `pipeline`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "pipeline"


def test_every_module_has_a_layer() -> None:
    known = layers() | {"pipeline": 0, "__version__": 0}
    missing = sorted(
        {top(module_name(p)) for p in PACKAGE.rglob("*.py")} - set(known),
    )
    assert not missing, f"add these to the layer table of ARCHITECTURE.md: {missing}"


def test_no_import_points_up_the_flow() -> None:
    known = layers() | {"pipeline": 0, "__version__": 0}
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = top(module_name(path))
        for target in sorted(imports(path)):
            t = top(target)
            if t in known and known[t] > known.get(source, 99):
                upward.append(f"{module_name(path)} -> {target} ({known[source]} -> {known[t]})")
    assert not upward, "imports that point up:\n" + "\n".join(upward)


def test_the_table_parses_and_is_ordered_like_the_flow() -> None:
    table = layers()
    flow = ["ingest", "dedup", "extract", "align", "assemble", "emit", "build"]
    assert [table[s] for s in flow] == sorted(table[s] for s in flow)
    assert table["errors"] == 0 and table["commands"] == max(table.values())


def test_every_import_inside_the_package_resolves() -> None:
    """Imports inside functions run only when a command needs them: a module moved or a
    name removed must not wait for that command to fail."""
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "pipeline":
                continue
            module = importlib.import_module(target)
            for alias in node.names:
                if not hasattr(module, alias.name) and not importlib.util.find_spec(
                    f"{target}.{alias.name}"
                ):
                    missing.append(f"{name}: from {target} import {alias.name}")
    assert not missing, "\n".join(missing)


def _circles(modules: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that import each other, directly or through others (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in modules[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = [stack.pop()]
            while group[-1] != v:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for v in modules:
        if v not in index:
            visit(v)
    return found


def test_the_checks_import_no_circle() -> None:
    """A module of pipeline/check never imports, even inside a function, a module that
    imports it back: the catalogue sits above the records, the reports above both."""
    paths = {module_name(p): p for p in (PACKAGE / "check").glob("*.py")}
    modules = {m: {t for t in imports(p) if t in paths and t != m} for m, p in paths.items()}
    assert _circles(modules) == []
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
