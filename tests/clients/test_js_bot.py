"""The JavaScript bot (clients/js) plays real games against `oriente serve`.

The bot is written from protocol/PROTOCOL.md alone; its own test suite
(`node --test`) starts the server as a subprocess, so this test only needs
Node.js and npm on the PATH.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ..web.nodejs import node_for

JS_DIR = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "js"
TIMEOUT = 180


def test_js_bot_plays_full_games() -> None:
    node = node_for(JS_DIR, ("@msgpack/msgpack", "ws"), "the JavaScript bot")
    env = dict(os.environ, ORIENTE_SERVER_CMD=str(Path(sys.executable).parent / "oriente"))
    proc = subprocess.run([node, "--test"], cwd=JS_DIR, env=env, timeout=TIMEOUT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:]
