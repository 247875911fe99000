"""Node.js for the tests that run the page's or the bot's JavaScript:
found on the PATH with the package's own dependencies installed (`npm ci`
from its lockfile where one is missing), else the test skips with the
reason, except in CI (`CI` set), where it fails."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import tempfile
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
    # The suite's workers may need one package at once, and `npm ci` starts
    # by deleting node_modules: one install at a time per package, each
    # worker looking again once it holds the lock.
    key = hashlib.sha256(str(package.resolve()).encode()).hexdigest()[:16]
    with open(Path(tempfile.gettempdir()) / f"oriente-npm-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not all((package / "node_modules" / name).is_dir() for name in needs):
                subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=package, check=True, timeout=300,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return node
