"""The JavaScript bot (clients/js) plays real games against `oriente serve`.

The bot is written from protocol/PROTOCOL.md alone; its own test suite
(`node --test`) starts the server as a subprocess, so this test only needs
Node.js and npm on the PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

JS_DIR = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "js"
TIMEOUT = 180


def test_js_bot_plays_full_games() -> None:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed; the JavaScript bot tests need it")
    if not (JS_DIR / "node_modules").is_dir():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=JS_DIR, check=True, timeout=TIMEOUT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    env = dict(os.environ, ORIENTE_SERVER_CMD=str(Path(sys.executable).parent / "oriente"))
    proc = subprocess.run([node, "--test"], cwd=JS_DIR, env=env, timeout=TIMEOUT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:]
