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

from ..web.nodejs import node_for

JS_DIR = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "js"
TIMEOUT = 600  # a guard against a hang, not a budget: a loaded machine (load 20) took over 180 s


# The bot's own suite, in two halves that each take a few seconds: the
# Oriente games and their reconnects (play.test.js), and the rest (the other
# games, deals, `moved`, `my_tables`, the welcome).
SUITES = {"oriente": ["test/play.test.js"],
          "others": sorted(str(p.relative_to(JS_DIR)) for p in (JS_DIR / "test").glob("*.test.js")
                             if p.name != "play.test.js")}


@pytest.mark.parametrize("suite", SUITES)
def test_js_bot_plays_full_games(suite: str) -> None:
    node = node_for(JS_DIR, ("@msgpack/msgpack", "ws"), "the JavaScript bot")
    env = dict(os.environ, ORIENTE_SERVER_CMD=str(Path(sys.executable).parent / "oriente"))
    proc = subprocess.run([node, "--test", *SUITES[suite]], cwd=JS_DIR, env=env, timeout=TIMEOUT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.returncode == 0, proc.stdout[-20000:]
    assert "# fail 0" in proc.stdout and "# pass 0" not in proc.stdout, proc.stdout[-2000:]


def test_every_file_of_the_bots_suite_is_run() -> None:
    """A new test file of the bot's joins one of the halves by itself."""
    files = {str(p.relative_to(JS_DIR)) for p in (JS_DIR / "test").glob("*.test.js")}
    assert files == {f for run in SUITES.values() for f in run} and len(files) >= 7, files


def test_the_bot_before_npm_ci_says_to_run_it(tmp_path: Path) -> None:
    """`node bot.js` without `npm ci` (only the bot's README said it) ended in
    Node's error for an import it could not resolve; it says what to run."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the JavaScript bot")
        pytest.skip("Node.js is not installed")
    copy = tmp_path / "js"
    copy.mkdir()
    shutil.copy(JS_DIR / "bot.js", copy / "bot.js")
    shutil.copy(JS_DIR / "package.json", copy / "package.json")
    shutil.copytree(JS_DIR / "games", copy / "games")
    run = subprocess.run([node, "bot.js", "--server", "ws://127.0.0.1:9", "--create", "4"], cwd=copy,
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"run npm ci in {copy}" in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
