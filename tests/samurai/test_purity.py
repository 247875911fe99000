"""The rules packages are pure (ARCHITECTURE.md: "no I/O, no trio/websockets,
no clock, no global randomness").

A static check over every module of each pure package: no import of a module
that reaches the clock, the network, processes, the file system or global
randomness; no call of open/print/input; relative imports stay inside the
rules (a rules package never imports the table, the transport, the store,
the policies or the clients). Written once for every game's rules package:
add a package to PURE_PACKAGES.

The one file a rules package reads — its own packaged board and tile data,
through importlib.resources — is allowed; it never changes while the
process runs, so the engine stays deterministic.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"
PURE_PACKAGES = ("rules", "samurai")
FORBIDDEN = {
    "trio", "websockets", "asyncio", "socket", "time", "datetime", "random", "secrets", "os", "sys", "io",
    "pathlib", "shutil", "tempfile", "subprocess", "threading", "multiprocessing", "sqlite3", "logging",
    "urllib", "http", "msgspec", "uuid",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}
# Sibling packages of server/ a rules package may borrow from: only other
# rules packages (Samurai borrows the generator and errors from Oriente's).
ALLOWED_SIBLINGS = set(PURE_PACKAGES)


def modules(package: str) -> list[Path]:
    return sorted((SERVER / package).glob("*.py"))


@pytest.mark.parametrize("path", [p for pkg in PURE_PACKAGES for p in modules(pkg)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_modules_are_pure(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN:
                    problems.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module.split(".")[0] in FORBIDDEN:
                problems.append(f"line {node.lineno}: from {module} import ...")
            if node.level == 0 and module.startswith("oriente"):
                problems.append(f"line {node.lineno}: absolute import of {module}; rules import relatively")
            if node.level >= 2:
                sibling = module.split(".")[0] if node.level == 2 else "<outside server>"
                if sibling not in ALLOWED_SIBLINGS:
                    problems.append(f"line {node.lineno}: imports server/{sibling}, which is not pure rules")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            problems.append(f"line {node.lineno}: calls {node.func.id}()")
    assert not problems, f"{path.parent.name}/{path.name} is not pure:\n" + "\n".join(problems)


def test_the_check_covers_every_package():
    for package in PURE_PACKAGES:
        assert modules(package), f"no modules found for server/{package}"
