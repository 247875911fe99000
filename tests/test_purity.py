"""Every game's rules are pure (ARCHITECTURE.md: "no I/O, no trio/websockets,
no clock, no global randomness"), and so is the shared module they use.

One check for every pure package, parametrised: add a game's rules package
to PURE_PACKAGES. Checked three ways:

- every module's imports, read from its source, are the language's own data
  structures or the package itself, or `..gamekit` (the one sibling a rules
  package may use: no game imports another game's rules); no absolute
  import of the project;
- no call of a function that reaches the world or hides control flow
  (open, print, input, exec, eval, __import__, hash, id);
- a fresh interpreter imports the packages and has loaded no network or
  async library (the standard library may load `random` or `time` for its
  own use, as importlib.resources does; the static check covers the
  packages' own use of them).

The one file a rules package reads is its own packaged board and tile data
(json and importlib.resources): it never changes while the process runs,
so the engine stays deterministic.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "src" / "oriente" / "server"
PURE_PACKAGES = ("gamekit", "rules", "oro", "samurai", "tournament")
SHARED = "gamekit"
# What a pure package may import from the standard library: data structures,
# (for its own data files) json and importlib.resources, and hashing
# (hashlib, hmac: deterministic functions of their input; a tournament's
# seeds are HMACs of its key, server/tournament/seeds.py).
STDLIB = {"__future__", "dataclasses", "enum", "typing", "collections", "collections.abc", "itertools",
          "functools", "math", "operator", "bisect", "heapq", "json", "importlib", "importlib.resources",
          "hashlib", "hmac"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "hash", "id"}


def modules(package: str) -> list[Path]:
    return sorted((SERVER / package).rglob("*.py"))


def problems(path: Path, package: str) -> list[str]:
    """What makes one module of `package` impure."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name not in STDLIB]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module not in STDLIB:
                found.append(f"line {node.lineno}: from {module} import ...")
            elif node.level == 2:
                sibling = module.split(".")[0]
                if sibling not in (SHARED, package):
                    found.append(f"line {node.lineno}: imports server/{sibling}; a rules package uses "
                                 f"server/{SHARED} and nothing else beside it")
            elif node.level > 2:
                found.append(f"line {node.lineno}: imports from outside server/")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append(f"line {node.lineno}: calls {node.func.id}()")
    return found


@pytest.mark.parametrize("path", [p for pkg in PURE_PACKAGES for p in modules(pkg)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_pure_modules_import_and_call_nothing_impure(path: Path) -> None:
    found = problems(path, path.relative_to(SERVER).parts[0])
    assert not found, f"{path.relative_to(SERVER)} is not pure:\n" + "\n".join(found)


def test_one_interpreter_loads_every_pure_package_and_no_network_or_async_library() -> None:
    names = ", ".join(f"oriente.server.{p}" for p in PURE_PACKAGES)
    code = (f"import sys, {names}; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('trio', 'websockets', 'asyncio', 'socket')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """Each kind of impurity is caught: a clock, a sibling that is not the
    shared module, an absolute import of the project, a call to print."""
    sample = tmp_path / "sample.py"
    sample.write_text("import time\nfrom ..rules import plain\nfrom oriente.server import gamekit\n"
                      "from ..gamekit import plain\nfrom .board import Board\nprint(1)\n")
    found = problems(sample, "oro")
    assert [f.split(":")[0] for f in found] == ["line 1", "line 2", "line 3", "line 6"], found
    assert all(modules(p) for p in PURE_PACKAGES)
