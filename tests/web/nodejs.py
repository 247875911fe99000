"""Node.js for the tests that run the page's or the bot's JavaScript:
found on the PATH with the package's own dependencies installed (`npm ci`
from its lockfile where one is missing), else the test skips with the
reason, except in CI (`CI` set), where it fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def node_for(package: Path, needs: tuple[str, ...], what: str) -> str:
    """The `node` executable, with `needs` installed in `package`'s node_modules.
    `what` says what the test checks, for the skip or failure message."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        if os.environ.get("CI"):
            pytest.fail(f"Node.js (node and npm) is missing: CI must check {what}")
        pytest.skip(f"Node.js (node and npm) is not installed; it is needed to check {what}")
    if not all((package / "node_modules" / name).is_dir() for name in needs):
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=package, check=True, timeout=300,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return node
