"""The rules packages are pure (ARCHITECTURE.md): no I/O, no clock, no
global randomness, no network or concurrency. Checked two ways: every
module's imports and calls, read from its source, and a fresh interpreter
that imports the package and must not have loaded trio or websockets.

Parametrised by package, so a game's rules package is added with a line.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ["oriente.server.oro", "oriente.server.rules"]
FORBIDDEN_IMPORTS = {"trio", "websockets", "time", "random", "os", "socket", "asyncio", "threading",
                     "subprocess", "secrets", "datetime", "sqlite3", "urllib", "http", "pathlib", "shutil"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "hash", "id"}


def modules(package: str) -> list[Path]:
    pkg = importlib.import_module(package)
    root = Path(pkg.__file__).parent
    return [root / f"{m.name}.py" for m in pkgutil.iter_modules([str(root)])] + [root / "__init__.py"]


@pytest.mark.parametrize("package", PACKAGES)
def test_rules_modules_import_and_call_nothing_impure(package):
    problems = []
    for path in modules(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                names = []
            problems += [f"{path.name}: imports {n}" for n in names if n.split(".")[0] in FORBIDDEN_IMPORTS]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{path.name}:{node.lineno}: calls {node.func.id}()")
    assert not problems, problems


@pytest.mark.parametrize("package", PACKAGES)
def test_rules_package_loads_no_network_or_async_library(package):
    code = (f"import sys, {package}; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('trio', 'websockets', 'asyncio', 'socket')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
