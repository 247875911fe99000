"""The import graph of src/oriente has no cycle, and the server, the
protocol and the games import inside a function only what is optional.

Every import that runs is an arrow, at a module's top or inside a function
(an import hidden in a function is how a cycle usually gets in); only the
imports under `if TYPE_CHECKING:` are left out, since they never run. An
arrow goes to the module imported (`from pkg import mod` to `pkg.mod`, a
name `from pkg import name` to `pkg` itself). The cycles are found by the
standard library's `graphlib`, which names one when there is one.

A function-local import is for a dependency the server runs without:
PostgreSQL's driver (the store and the site of many processes), Redis's
client (the site's bus), a POSIX terminal's modules (the terminal client's
raw mode), or a module a pure game must not pull in (the registry's entry
points load `importlib.metadata`, which imports the email package and
sockets: tests/test_purity.py). Anything else is imported at the top, where
a reader sees it. The command line loads each subcommand's module by name
(`cli/main.py`'s `command`), so that one command does not import what
another needs: that is a choice made in one place, not an import hidden in
a function."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "oriente"

# Where a function-local import is checked, and the ones allowed there,
# (module, what it imports) -> why.
CHECKED = ("oriente.server", "oriente.protocol", "oriente.games", "oriente.refusal", "oriente.legacy",
           "oriente.fairplay", "oriente.clients", "oriente.cli")
OPTIONAL = {
    ("oriente.server.stores", "oriente.server.stores.postgres"): "psycopg: a PostgreSQL store only",
    ("oriente.server.app", "oriente.server.cluster.node"): "psycopg and redis: a site of many processes only",
    ("oriente.server.cluster.bus", "redis"): "redis: the site's bus only",
    ("oriente.games", "importlib.metadata"): "entry points: not for a pure game's import (test_purity)",
    ("oriente.clients.terminal.screen", "termios"): "a POSIX terminal only (the screen runs without one in tests)",
    ("oriente.clients.terminal.screen", "tty"): "a POSIX terminal only",
}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    return ".".join(p for p in rel.parts if p != "__init__")


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(name: str, path: Path) -> list[tuple[str, bool]]:
    """(module imported, whether inside a function) for every import of the
    module `name` that runs; relative imports resolved, a name imported
    from a package resolved to the package."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit(other, local)
                continue
            inner = local or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                found.extend((alias.name, local) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    base = ".".join(package[: len(package) - child.level + 1] + ([base] if base else []))
                for alias in child.names:
                    found.append((f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base, local))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def _ours(imported: str) -> str | None:
    """The module of src/oriente an import reaches (a name in it: the module), or None."""
    while imported and imported not in MODULES:
        imported = imported.rpartition(".")[0]
    return imported or None


def graph() -> dict[str, set[str]]:
    arrows: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        arrows[name] = {m for imported, _ in imports(name, path) if (m := _ours(imported)) is not None and m != name}
    return arrows


def test_no_module_of_the_package_imports_itself_back() -> None:
    try:
        order = list(graphlib.TopologicalSorter(graph()).static_order())
    except graphlib.CycleError as exc:
        pytest.fail(f"an import cycle: {' -> '.join(exc.args[1])}")
    assert set(order) == set(MODULES)


def test_functions_import_only_what_is_optional() -> None:
    local = sorted({(name, _ours(imported) or imported) for name, path in MODULES.items()
                    if name.startswith(CHECKED) for imported, inside in imports(name, path) if inside})
    unexplained = [pair for pair in local if pair not in OPTIONAL]
    assert not unexplained, f"imported inside a function, not an optional dependency: {unexplained}"


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """A cycle through a function's import is one; a type-only import is not."""
    sample = tmp_path / "oriente"
    (sample / "p").mkdir(parents=True)
    (sample / "p" / "__init__.py").write_text("")
    (sample / "p" / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n"
                                       "def f():\n    from .b import g\n")
    (sample / "p" / "b.py").write_text("from .a import f\n")
    global SRC, MODULES
    saved = SRC, MODULES
    try:
        SRC = tmp_path
        MODULES = {module_name(p): p for p in sample.rglob("*.py")}
        assert [x for x in imports("oriente.p.a", sample / "p" / "a.py") if x[0].startswith("oriente")] == [
            ("oriente.p.b", True)]
        with pytest.raises(graphlib.CycleError):
            graphlib.TopologicalSorter(graph()).prepare()
    finally:
        SRC, MODULES = saved
