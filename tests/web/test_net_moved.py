"""The page's connection (clients/web/src/net.js) follows `moved` only to
one of the site's own origins that `welcome.origins` announced, on its own
host (its CSP allows no other): a forged `moved` cannot take a player's
seat tokens to another listener, not even one on the same host's other port.

Node runs net.js's frame handling as the page does (no browser needed: the
handling is plain JavaScript; the socket is never opened, so the msgpack
import is left out of the copy it runs)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web"

SCRIPT = """
import { Net, originOf } from "%(net)s";
const out = [];
for (const [start, origins, url] of JSON.parse(process.argv[2])) {
  const net = new Net(start);
  net.dispatch({ t: "welcome", protocol: "oriente.v1", version: 1, server: "s", limits: {},
                 ...(origins === null ? {} : { origins }) });
  net.dispatch({ t: "moved", table: "T", message: "go", url });
  out.push(net.url);
}
process.stdout.write(JSON.stringify({ followed: out, origin: originOf("WSS://Play.Example.org:443/x") }));
"""

CASES = [
    # (where the page connected, welcome.origins, moved.url) -> followed?
    ("ws://127.0.0.1:8765/", ["ws://127.0.0.1:8765"], "ws://127.0.0.1:8765/p2", True),
    ("ws://127.0.0.1:8765/", ["ws://127.0.0.1:8765"], "ws://127.0.0.1:9999/", False),  # same host, other port
    ("ws://127.0.0.1:8765/", ["ws://127.0.0.1:8765", "ws://127.0.0.1:8766"], "ws://127.0.0.1:8766/", False),  # CSP
    ("wss://play.example.org/", ["wss://play.example.org"], "wss://play.example.org:443/b", True),
    ("wss://play.example.org/", ["wss://play.example.org"], "wss://evil.example.net/", False),
    ("ws://127.0.0.1:8765/", None, "ws://127.0.0.1:8765/p2", False),  # no list announced: follow nothing
    ("ws://127.0.0.1:8765/", ["ws://127.0.0.1:8765"], "not a url", False),
]


def test_the_page_follows_moved_only_to_an_announced_origin_of_its_host(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node.js is missing: CI must check the page's net.js")
        pytest.skip("Node.js is not installed; it runs the page's net.js here")
    source = (WEB / "src" / "net.js").read_text()
    msgpack = 'import { decode, encode } from "@msgpack/msgpack";'
    assert msgpack in source
    (tmp_path / "net.mjs").write_text(source.replace(msgpack, "const decode = null, encode = null;"))
    script = tmp_path / "run.mjs"
    script.write_text(SCRIPT % {"net": "./net.mjs"})
    run = subprocess.run([node, str(script), json.dumps([c[:3] for c in CASES])], capture_output=True,
                         text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["origin"] == "wss://play.example.org"
    for (start, _, url, followed), now in zip(CASES, out["followed"], strict=True):
        assert now == (url if followed else start), (start, url, now)
