"""`oriente demo --watch`: the game is served to a browser and stays up
after it ends, until Ctrl-C; `oriente demo` alone still exits (tests/test_cli.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from ..interrupt import default_sigint


def test_demo_watch_serves_the_game_until_interrupted(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "demo", "--watch", "--seats", "4",
                             "--seed", "3", "--delay", "0", "--quiet", "--record", str(tmp_path / "r.json")],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            stdin=subprocess.DEVNULL, preexec_fn=default_sigint)
    try:
        assert proc.stdout is not None
        lines = []
        for line in proc.stdout:
            lines.append(line)
            if "stays at http://" in line:
                break
        text = "".join(lines)
        url = next(w for w in text.split() if w.startswith("http://") and "/#/t/" in w)
        base, table = url.split("#/t/")
        with urllib.request.urlopen(base, timeout=10) as page:  # the page is served
            assert b'src="/app.js"' in page.read()
        with urllib.request.urlopen(f"{base}data/replay/{table}.json?as=all", timeout=10) as replay:
            assert json.load(replay)["result"] is not None  # the finished game, ready to replay
        assert proc.poll() is None  # still serving after the game ended
        proc.send_signal(signal.SIGINT)
        assert proc.wait(20) == 0
        assert json.loads((tmp_path / "r.json").read_text())["result"] is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
