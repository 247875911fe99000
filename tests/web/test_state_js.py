"""The page's state, unit by unit (clients/web/test, Node's own test
runner): a table's state from the frames of its subscription, the page's
reducer and its store. The modules are plain JavaScript, so no browser is
needed; without Node.js the test skips, except in CI, where it fails."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .nodejs import node_for

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web"


def test_the_page_state_unit_tests_pass() -> None:
    node = node_for(WEB, (), "the page's state (clients/web/test)")
    run = subprocess.run([node, "--test", "test/"], cwd=WEB, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr
    assert "# fail 0" in run.stdout and "# pass 0" not in run.stdout, run.stdout[-2000:]
