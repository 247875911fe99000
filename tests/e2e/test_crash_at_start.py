"""A server killed at the join that fills a table that starts by itself
(docs/table.md T4.3): recovery starts it, and a retried join does too.

Measured before: killed right after that join (6 of 6 tries; 2 of 34
tables in a run of random SIGKILLs), the table came back `open` for ever,
every seat taken and held until abandoned. The kill here is a real SIGKILL
of a real server process, at the exact store write (tests/e2e/
crashing_server.py): after the join is stored and answered and before the
start is stored; or between the two writes of the join itself (the seat in
the table's meta, its SeatTaken not yet in the log). The restart is the
real `oriente serve` on the same SQLite file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from .test_crash_recovery import ServerProcess
from .wsclient import Client, open_client

pytestmark = pytest.mark.trio

HERE = Path(__file__).resolve().parent
TIMERS = {"prompt_ms": 60_000, "window_ms": 60_000, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 3}


def crashing(store: str, when: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(HERE / "crashing_server.py"), store, when],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def port_of(proc: subprocess.Popen) -> int:
    line = await trio.to_thread.run_sync(proc.stdout.readline)
    assert line.startswith("serving ws://"), (line, proc.stderr.read() if proc.poll() is not None else "")
    return int(line.split()[1].rsplit(":", 1)[1])


def nonce(seat: int) -> str:
    return f"a secret nonce of seat {seat}"


async def fill_and_crash(store: str, when: str) -> tuple[str, dict[int, str], dict | None]:
    """Create a 4-seat table and join its seats on a server that dies at
    `when`; the table, the tokens answered, and the last join's answer."""
    proc = crashing(store, when)
    try:
        port = await port_of(proc)
        tokens: dict[int, str] = {}
        last: dict | None = None
        async with open_client(port) as ws:
            c = Client(ws)
            await c.recv()
            table = (await c.request({"t": "create_table", "seats": 4, "timers": TIMERS}))["table"]
            for seat in range(3):
                reply = await c.request({"t": "join", "table": table, "name": f"p{seat}", "nonce": nonce(seat)})
                tokens[seat] = reply["token"]
        try:
            async with open_client(port) as ws:
                c = Client(ws)
                await c.recv()
                last = await c.request({"t": "join", "table": table, "name": "p3", "nonce": nonce(3)}, timeout=30)
                tokens[3] = last["token"]
                await c.recv(timeout=30)  # the server dies right after
        except (ConnectionClosed, OSError, trio.BrokenResourceError):
            pass
        assert await trio.to_thread.run_sync(proc.wait, 60) == -9, "killed at the chosen write"
        return table, tokens, last
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


async def restarted_table(port: int, table: str) -> tuple[dict, list[dict]]:
    """A spectator's snapshot of the table and its whole log, once it has started."""
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        with trio.fail_after(60):
            while True:
                reply = await c.request({"t": "spectate", "table": table, "after": 0})
                assert reply["t"] == "ok", reply
                frames = []
                while not frames or frames[-1]["t"] != "snapshot":
                    frames.append(await c.recv())
                snapshot = frames[-1]
                if snapshot["table_info"]["status"] != "open":
                    break
                await c.request({"t": "unsubscribe", "table": table})
                await trio.sleep(0.2)
        events = [e for f in frames if f["t"] == "events" for e in f["events"]]
        return snapshot, events


@pytest.mark.parametrize("when", ["start", "seat:3"])
async def test_a_table_filled_just_before_a_crash_starts_after_it(tmp_path, when: str) -> None:
    store = str(tmp_path / "store.sqlite")
    table, tokens, last = await fill_and_crash(store, when)
    if when == "start":
        assert last is not None and last["t"] == "ok" and last["seat"] == 3, "the filling join was answered"
    else:
        assert last is None, "the server died before it answered the filling join"
    srv = ServerProcess(store)
    try:
        await srv.start()
        # The player whose join filled the table sends it again, with the same nonce.
        async with open_client(srv.port) as ws:
            c = Client(ws)
            await c.recv()
            again = await c.request({"t": "join", "table": table, "name": "p3", "nonce": nonce(3)})
            assert again["t"] == "ok" and again["seat"] == 3 and again.get("duplicate") is True, again
            if 3 in tokens:
                assert again["token"] == tokens[3]
        snapshot, events = await restarted_table(srv.port, table)
        assert snapshot["table_info"]["status"] == "running", snapshot["table_info"]
        assert [s["name"] for s in snapshot["table_info"]["seats"]] == ["p0", "p1", "p2", "p3"]
        kinds = [(e["type"], e.get("seat")) for e in events if e["type"] in ("SeatTaken", "SeatLeft", "TableStarted")]
        assert kinds == [("SeatTaken", 0), ("SeatTaken", 1), ("SeatTaken", 2), ("SeatTaken", 3),
                         ("TableStarted", None)], "one SeatTaken per seat, in the log, then the start"
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        # The seats resume with their tokens and are asked to play.
        async with open_client(srv.port) as ws:
            c = Client(ws)
            await c.recv()
            reply = await c.request({"t": "resume", "table": table, "token": tokens[0]})
            assert reply["t"] == "ok" and reply["you"] == 0
    finally:
        srv.cleanup()


async def test_recovery_of_a_full_table_that_does_not_start_by_itself_leaves_it_open(tmp_path) -> None:
    """Only a table that starts by itself is started: one that waits for
    `start` (or for its tournament director) still waits."""
    store = str(tmp_path / "store.sqlite")
    srv = ServerProcess(store)
    await srv.start()
    async with open_client(srv.port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "auto_start": False, "timers": TIMERS}))["table"]
        for seat in range(4):
            await c.request({"t": "join", "table": table, "name": f"p{seat}", "nonce": nonce(seat)})
    srv.kill()
    again = ServerProcess(store)
    try:
        await again.start()
        async with open_client(again.port) as ws:
            c = Client(ws)
            await c.recv()
            await c.request({"t": "spectate", "table": table})
            snapshot = await c.until(lambda f: f["t"] == "snapshot")
            assert snapshot["table_info"]["status"] == "open"
    finally:
        again.cleanup()
