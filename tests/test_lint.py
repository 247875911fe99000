"""ruff and mypy, pinned in the `dev` extra and configured in
pyproject.toml, are clean on server/, protocol/, clients/ and cli/: run
here so that the one test command covers them.

mypy checks the installed package, `oriente`, whose parts live in
directories with other names (pyproject's package-dir). It cannot map those,
so it reads them through links: build/typecheck/oriente/server -> server/,
and so on. Its cache stays there too, so a second run takes a fraction of a
second."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("server", "protocol", "clients", "cli")
INSTALL = "install the dev extra: .venv/bin/pip install -e '.[test,dev]'"


def _installed(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        pytest.fail(f"{name} is not installed; {INSTALL}")


def test_ruff_finds_nothing() -> None:
    _installed("ruff")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *PARTS], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def _link_tree() -> Path:
    """build/typecheck/oriente/<part> -> <part>/, made once and kept."""
    base = ROOT / "build" / "typecheck"
    package = base / "oriente"
    package.mkdir(parents=True, exist_ok=True)
    for part in PARTS:
        link = package / part
        if not link.is_symlink():
            link.symlink_to(Path("..", "..", "..", part))
    return base


def test_mypy_finds_nothing() -> None:
    _installed("mypy")
    base = _link_tree()
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "-p", "oriente"], cwd=base, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
