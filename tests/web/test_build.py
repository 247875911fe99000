"""The committed build of the web client (clients/web/dist) is what its
sources build to: rebuilt with the pinned esbuild and compared byte for
byte. Skips without Node.js, except in CI, where it fails."""

from __future__ import annotations

import subprocess
from pathlib import Path

from .nodejs import node_for

WEB = Path(__file__).resolve().parents[2] / "src" / "oriente" / "clients" / "web"


def test_the_committed_build_is_fresh() -> None:
    node = node_for(WEB, ("esbuild",), "that clients/web/dist is fresh")
    run = subprocess.run([node, "build.mjs", "--check"], cwd=WEB, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr + run.stdout


def test_the_page_loads_nothing_from_elsewhere() -> None:
    """No CDN, no fonts from outside: every URL in the built files is local."""
    built = sorted(p for p in (WEB / "dist").rglob("*") if p.suffix in (".html", ".js", ".css"))
    assert {"index.html", "app.js", "app.css"} <= {p.name for p in built}
    for path in built:  # the page, its chunks and each game's screen (games/)
        name, text = path.name, path.read_text(encoding="utf-8")
        for url in ("http://", "https://", "//cdn", "//fonts."):
            hits = [i for i in range(len(text)) if text.startswith(url, i)]
            allowed = [i for i in hits if text[i:i + 40].startswith(("http://www.w3.org", "https://www.w3.org"))]
            assert hits == allowed, f"{name} refers to {text[hits[0]:hits[0] + 60]!r}"
