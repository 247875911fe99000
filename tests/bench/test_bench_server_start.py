"""The benchmarks' own server process (bench/_server_main.py) starts and is
found the way every benchmark that needs only its port finds it.

Its first line once grew a second port (/metrics on a port of its own) and
two benchmarks that read one number stopped starting at all; they now share
`_server_main.start`, exercised here for real, and no benchmark reads the
line its own way.
"""

from __future__ import annotations

import re
import sys
import urllib.request
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import _server_main  # noqa: E402


def test_the_ports_line_is_read_whole() -> None:
    assert _server_main.read_ports(b"41000 41001\n") == (41000, 41001)
    for line in (b"", b"41000\n", b"Traceback (most recent call last):\n", b"1 2 3\n"):
        with pytest.raises(ValueError):
            _server_main.read_ports(line)


def test_the_bench_server_starts_and_answers(tmp_path: Path) -> None:
    proc, port, metrics_port = _server_main.start(str(tmp_path / "s.sqlite"), str(tmp_path / "server.log"))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=30) as answer:
            assert b"oriente_" in answer.read()
    finally:
        proc.terminate()
        proc.wait(30)


def test_no_benchmark_reads_the_servers_first_line_its_own_way() -> None:
    for path in sorted(BENCH.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name == "_server_main.py" or '"_server_main.py"' not in text:
            continue
        # server.py's Child reads any child's ports (the bare relay's too) with a parser of its own.
        uses_start = "_server_main.start(" in text
        assert uses_start or path.name == "server.py", f"{path.name} starts _server_main.py without _server_main.start"
        assert not re.search(r"int\(\s*\w+\.stdout\.readline\(\)\s*\)", text), path.name


def test_the_loop_trace_tallies_passes_waits_and_steps(tmp_path: Path) -> None:
    """LoopTrace, on a real trio run: a task woken by another waits for its
    pass and is tallied under its coroutine's name, and a pass made long by
    one task's busy step is listed with the task that took it."""
    import json
    import time

    import trio

    trace = _server_main.LoopTrace()

    async def busy() -> None:
        await trio.sleep(0.01)
        end = time.perf_counter() + 2 * trace.LONG_PASS_S
        while time.perf_counter() < end:
            pass

    async def sleeper(event: trio.Event) -> None:
        await event.wait()

    async def main() -> None:
        event = trio.Event()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sleeper, event)
            nursery.start_soon(busy)
            await trio.sleep(0.05)
            event.set()

    trio.run(main, instruments=[trace])
    trace.write(str(tmp_path / "trace"))
    tallies = json.loads((tmp_path / "trace").read_text())
    assert tallies["passes_ms"]["n"] > 0 and tallies["waits_ms"]["n"] > 0
    assert tallies["steps_ms"]["test_the_loop_trace_tallies_passes_waits_and_steps.<locals>.sleeper"]["n"] == 2
    assert any(top[0][0].endswith("busy") and took >= 2 * trace.LONG_PASS_S * 1e3
               for took, _, _, top in tallies["long_passes"])
