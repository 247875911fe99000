"""The web client's first load, measured in Chromium.

A server (`oriente serve`, its own process, a fresh store) and Debian's
Chromium through Playwright. Each run opens a fresh browser context (an
empty cache), loads `/` and waits until the lobby is usable: the table
list has arrived and the create button is enabled.

Figures (medians over the runs):
- `first_load_bytes`: bytes on the wire for every HTTP response of that
  load, compressed as served, headers included (from the DevTools
  protocol's `encodedDataLength`); target at most 300 KB;
- `ws_bytes`: websocket payload received until the lobby is usable;
- `lobby_ms`: from the start of navigation to the usable lobby;
- `baseline_ms`: the same browser loading `/healthz` (one tiny response),
  in the same run: what any page costs here, for comparing machines.

    .venv/bin/python bench/web.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import _installed  # noqa: F401  (first: says how to run it without the project installed)

if TYPE_CHECKING:  # playwright is imported where it runs: the test extra brings it
    from playwright.sync_api import Browser

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def start_server(store: str) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", store,
                             "--quiet"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = int(line.split("ws://127.0.0.1:")[1].split()[0])
    return proc, port


def one_load(browser: Browser, url: str) -> dict[str, float]:
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: list[float] = []
    ws: list[int] = []
    cdp.on("Network.loadingFinished", lambda e: sizes.append(e["encodedDataLength"]))
    cdp.on("Network.webSocketFrameReceived", lambda e: ws.append(len(e["response"]["payloadData"]) * 3 // 4))
    page.goto(url)
    page.wait_for_selector("[data-ready]")
    page.wait_for_selector("form.create button[type=submit]:not([disabled])")
    ready = page.evaluate("performance.now()")  # milliseconds since the navigation started
    context.close()
    return {"bytes": sum(sizes), "ws": sum(ws), "ms": ready, "requests": len(sizes)}


def baseline(browser: Browser, url: str) -> float:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    ms = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    context.close()
    return float(ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(str(Path(tmp) / "bench.sqlite"))
        try:
            url = f"http://127.0.0.1:{port}/"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
                one_load(browser, url)  # warm the server's and the browser's own start-up once
                loads, bases = [], []
                for _ in range(args.runs):
                    loads.append(one_load(browser, url))
                    bases.append(baseline(browser, url + "healthz"))
                    time.sleep(0.05)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    figures = {
        "first_load_bytes": int(statistics.median(x["bytes"] for x in loads)),
        "ws_bytes": int(statistics.median(x["ws"] for x in loads)),
        "requests": int(statistics.median(x["requests"] for x in loads)),
        "lobby_ms": round(statistics.median(x["ms"] for x in loads), 1),
        "lobby_ms_max": round(max(x["ms"] for x in loads), 1),
        "baseline_ms": round(statistics.median(bases), 1),
        "runs": args.runs,
    }
    figures["lobby_over_baseline"] = round(figures["lobby_ms"] / max(figures["baseline_ms"], 0.1), 1)
    print(f"first load: {figures['first_load_bytes'] / 1024:.1f} KiB over {figures['requests']} responses "
          f"(target <= 300 KB), websocket {figures['ws_bytes']} B")
    print(f"lobby usable after {figures['lobby_ms']} ms (median of {args.runs}; max {figures['lobby_ms_max']} ms); "
          f"a bare /healthz load: {figures['baseline_ms']} ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
