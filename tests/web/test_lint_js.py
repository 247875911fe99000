"""ESLint, pinned in each JavaScript package's lockfile and configured in
its eslint.config.js, finds nothing in the page (clients/web: its sources,
build script and unit tests) nor in the bot (clients/js): run here so that
the one test command covers the JavaScript too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .nodejs import node_for

CLIENTS = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients"


@pytest.mark.parametrize("package", ["web", "js"])
def test_eslint_finds_nothing(package: str) -> None:
    where = CLIENTS / package
    node = node_for(where, ("eslint", "@eslint/js", "globals"), f"clients/{package} with ESLint")
    eslint = where / "node_modules" / "eslint" / "bin" / "eslint.js"
    run = subprocess.run([node, str(eslint), "--max-warnings", "0", "."], cwd=where,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
