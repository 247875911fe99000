"""ruff and mypy, pinned in the `dev` extra and configured in
pyproject.toml, are clean on the package (src/oriente), the tests and the
benchmarks: run here so that the one test command covers them.

mypy checks what pyproject's `files` names: the package `oriente` straight
from src/ (its mypy_path), bench/ and the tests' shared modules (the test
files themselves are left out, pyproject says why). Its cache stays under build/,
so a second run takes a fraction of a second."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PARTS = ("src", "tests", "bench")
INSTALL = "install the dev extra: .venv/bin/pip install -e '.[test,dev]'"


def _installed(name: str) -> None:
    if importlib.util.find_spec(name) is None:
        pytest.fail(f"{name} is not installed; {INSTALL}")


def test_ruff_finds_nothing() -> None:
    _installed("ruff")
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *PARTS], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_finds_nothing() -> None:
    _installed("mypy")
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", str(ROOT / "build" / "mypy-cache")],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
