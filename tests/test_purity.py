"""Every game's rules are pure (docs/architecture.md: "no I/O, no clock, no
global randomness"; no trio or websockets either), and so is the shared kit
they use.

One check for every pure package, parametrised: the shared kit, the
tournament logic and the rules package (`rules`, in its home) of every game
the registry has (oriente.games), so a game registered is a game checked.
Checked three ways:

- every module's imports, read from its source, are the language's own data
  structures or the package itself, or the shared kit (`oriente.games.kit`,
  the one other package a rules package may use: no game imports another
  game's rules, nor its own port or bots) and `oriente.refusal`, by
  relative imports; no absolute import of the project;
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
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from oriente import games

PURE_PACKAGES = ("oriente.games.kit", *(f"{games.home(name)}.rules" for name in games.registered()),
                 "oriente.server.tournament")
# What every pure package may use besides itself: the kit, and the one
# refusal type every layer raises (it imports nothing).
SHARED = ("oriente.games.kit", "oriente.refusal")
# The kit's modules a game's port uses and its rules never import: the seam
# with the table server (not pure: its types name the table's generator),
# and what drives a game through its port (a replay, self-play).
PORT_SIDE = ("oriente.games.kit.port", "oriente.games.kit.waiting", "oriente.games.kit.replay",
             "oriente.games.kit.selfplay")
# What a pure package may import from the standard library: data structures,
# (for its own data files) json and importlib.resources, and hashing
# (hashlib, hmac: deterministic functions of their input; a tournament's
# seeds are HMACs of its key, server/tournament/seeds.py).
STDLIB = {"__future__", "dataclasses", "enum", "typing", "collections", "collections.abc", "itertools",
          "functools", "math", "operator", "bisect", "heapq", "json", "importlib", "importlib.resources",
          "hashlib", "hmac"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "hash", "id"}


def _within(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def modules(package: str) -> list[tuple[Path, str]]:
    """Every module of `package` (a package, or a single module), with its name."""
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None, f"{package} is missing"
    if spec.submodule_search_locations is None:
        return [(Path(spec.origin), package)]
    folder = Path(spec.submodule_search_locations[0])
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
        name = ".".join([package, *parts])
        if not _within(name, *PORT_SIDE):
            found.append((path, name))
    return found


def problems(path: Path, module: str, package: str) -> list[str]:
    """What makes `module` (at `path`, in the pure package `package`) impure."""
    found = []
    here = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name not in STDLIB]
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level == 0:
                if name not in STDLIB:
                    found.append(f"line {node.lineno}: from {name} import ...")
                continue
            base = ".".join(here[: len(here) - node.level + 1] + ([name] if name else []))
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
            if not _within(base, package, *SHARED) or any(_within(n, *PORT_SIDE) for n in names):
                found.append(f"line {node.lineno}: imports {base}; a pure package uses itself and "
                             f"{' and '.join(SHARED)} (not the kit's port side) and nothing else")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            found.append(f"line {node.lineno}: calls {node.func.id}()")
    return found


@pytest.mark.parametrize(("path", "module", "package"),
                         [(path, name, pkg) for pkg in PURE_PACKAGES for path, name in modules(pkg)],
                         ids=[name for pkg in PURE_PACKAGES for _, name in modules(pkg)])
def test_pure_modules_import_and_call_nothing_impure(path: Path, module: str, package: str) -> None:
    found = problems(path, module, package)
    assert not found, f"{module} is not pure:\n" + "\n".join(found)


def test_one_interpreter_loads_every_pure_package_and_no_network_or_async_library() -> None:
    names = ", ".join(PURE_PACKAGES)
    code = (f"import sys, {names}; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('trio', 'websockets', 'asyncio', 'socket')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """Each kind of impurity is caught: a clock, a sibling that is not the
    shared module, an absolute import of the project, a call to print."""
    sample = tmp_path / "sample.py"
    sample.write_text("import time\nfrom ...oriente.rules import plain\nfrom oriente.server import tournament\n"
                      "from ...kit import plain\nfrom .board import Board\nprint(1)\nfrom ..bots import x\n"
                      "from ...kit import port\nfrom ...kit.waiting import first_waiting\n")
    found = problems(sample, "oriente.games.oro.rules.sample", "oriente.games.oro.rules")
    assert sorted(int(f.split(":")[0].removeprefix("line ")) for f in found) == [1, 2, 3, 6, 7, 8, 9], found
    assert all(modules(p) for p in PURE_PACKAGES)
