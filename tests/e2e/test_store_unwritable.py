"""A store the server cannot write pauses its tables and never kills the
server (docs/table.md T4.4), on the real SQLite store of a real `oriente
serve` process, so that a SIGBUS would show as a process killed by signal 7.

Measured before: the WAL's index (`STORE-shm`) was a memory-mapped file,
mapped whatever `mmap_size` says; an I/O error on it (the file cut short
under the server, a disk that went away) was a SIGBUS that took the whole
server down. Now SQLite keeps that index in the process's memory
(exclusive locking mode), and nothing of the store is mapped.

The full disk is a real one for the process: a file-size limit
(RLIMIT_FSIZE, which needs no privilege and which the test lifts again
from outside with prlimit), so that every write past it fails as on a full
disk. Python ignores SIGXFSZ, as it does from its start."""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from .test_crash_recovery import http_get
from .wsclient import Client, open_client

pytestmark = pytest.mark.trio

PLAYABLE = ("Announce", "Pass", "Claim", "Support", "Join", "Choose", "Done")
TIMERS = {"prompt_ms": 120_000, "window_ms": 100, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 3}


def serve(store: Path, file_size_limit: int | None = None) -> tuple[subprocess.Popen, int]:
    def limit() -> None:
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, resource.RLIM_INFINITY))

    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", str(store),
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    line = proc.stdout.readline() if proc.stdout else ""
    assert line.startswith("serving ws://"), (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, int(line.split()[1].rsplit(":", 1)[1])


def stop(proc: subprocess.Popen) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait(10)


class Seats:
    """Four seats played at random over their own connections; an `act`
    answered `store/unavailable` is sent again with its id until taken."""

    def __init__(self, port: int, table: str, tokens: dict[int, str]) -> None:
        self.port, self.table, self.tokens = port, table, tokens
        self.acts = 0
        self.unavailable = 0
        self.finished = trio.Event()
        self.stalled_since: float | None = None

    async def play(self, seat: int) -> None:
        """Act whenever the latest prompt asks this seat and no act is in
        flight (the table sends a step's events before the act's answer, so
        the latest prompt is the one after it)."""
        rnd = random.Random(seat)
        async with open_client(self.port) as ws:
            c = Client(ws)
            await c.recv()
            await c.send({"t": "resume", "table": self.table, "token": self.tokens[seat]})
            prompt: dict | None = None
            pending: dict | None = None  # the act sent and not yet answered
            sent = 0
            while not self.finished.is_set():
                f = await c.recv(timeout=120)
                if f["t"] in ("events", "snapshot"):
                    prompt = f.get("prompt")
                    if f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]):
                        self.finished.set()
                        return
                elif pending is not None and f["t"] in ("ok", "error") and f.get("re") == pending["id"]:
                    if f["t"] == "error" and f["code"] == "store/unavailable":
                        self.unavailable += 1
                        await trio.sleep(0.5)  # as PROTOCOL.md says: the same message again, a moment later
                        await c.send(pending)
                        continue
                    self.acts += f["t"] == "ok"
                    pending = None
                else:
                    continue
                options = [x for x in (prompt or {}).get("legal", []) if x["type"] in PLAYABLE]
                if pending is None and prompt and prompt.get("pivot") == seat and options:
                    sent += 1
                    pending = {"t": "act", "id": f"{seat}-{sent}", "table": self.table, "cmd": rnd.choice(options)}
                    await c.send(pending)


async def a_table(port: int) -> tuple[str, dict[int, str]]:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "timers": TIMERS}))["table"]
        tokens = {}
        for seat in range(4):
            tokens[seat] = (await c.request({"t": "join", "table": table, "name": f"p{seat}"}))["token"]
    return table, tokens


async def test_a_full_disk_pauses_the_table_and_it_resumes_once_there_is_room(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    proc, port = serve(store)  # the store's files made at their first size, then the limit just above them
    assert stop(proc) == 0
    room = max(f.stat().st_size for f in tmp_path.iterdir()) + 256 * 1024
    proc, port = serve(store, file_size_limit=room)
    try:
        table, tokens = await a_table(port)
        seats = Seats(port, table, tokens)
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                nursery.start_soon(seats.play, seat)
            async with open_client(port) as ws:  # a spectator asks until the table says it is paused
                probe = Client(ws)
                await probe.recv()
                with trio.fail_after(120):
                    while (await probe.request({"t": "spectate", "table": table})).get("code") != "store/unavailable":
                        assert not seats.finished.is_set(), "the disk filled before the game ended"
                        await trio.sleep(0.2)
                acts_when_full = seats.acts
                await trio.sleep(1)
                assert proc.poll() is None, "the server is alive"
                assert seats.acts == acts_when_full, "nothing was played while nothing could be stored"
                assert (await http_get(port, "/healthz")) == (200, "ok\n")
                refused = await probe.request({"t": "chat", "table": table, "text": "hello?"})
                assert refused["code"] == "store/unavailable" and "resumes by itself" in refused["message"]
            # Room again (as if files were deleted): the table goes on by itself.
            resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            with trio.fail_after(120):
                await seats.finished.wait()
        assert seats.acts > acts_when_full and proc.poll() is None
    finally:
        code = stop(proc)
    assert code == 0, proc.stderr.read() if proc.stderr else ""
    # The log is whole: a restart replays it to the end, and the record is there.
    proc, port = serve(store)
    try:
        async with open_client(port) as ws:
            c = Client(ws)
            await c.recv()
            record = (await c.request({"t": "record", "table": table}))["record"]
            assert record["result"] is not None and len(record["commands"]) >= seats.acts
    finally:
        assert stop(proc) == 0


async def test_the_store_has_no_mapped_file_and_cutting_its_files_short_kills_nothing(tmp_path: Path) -> None:
    """The WAL index lives in the server's memory: there is no `-shm` to
    map while it runs. Cutting short what is there (another program
    truncating the store's files) is an error for the table at worst,
    never a signal for the process."""
    store = tmp_path / "store.sqlite"
    proc, port = serve(store)
    try:
        table, tokens = await a_table(port)
        seats = Seats(port, table, tokens)
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                nursery.start_soon(seats.play, seat)
            with trio.fail_after(120):
                while seats.acts < 10:
                    await trio.sleep(0.05)
            mapped = (tmp_path / "store.sqlite-shm").exists()
            for path in tmp_path.iterdir():
                if path.name.startswith("store.sqlite-"):
                    os.truncate(path, 0)
            await trio.sleep(2)
            assert proc.poll() is None, f"the server died: {proc.returncode} (-7: SIGBUS)"
            assert (await http_get(port, "/healthz")) == (200, "ok\n")
            assert not mapped, "no WAL index file while the server runs"
            nursery.cancel_scope.cancel()
    except* (ConnectionClosed, OSError) as group:
        try:
            code = proc.wait(30)
        except subprocess.TimeoutExpired:
            code = None
        raise AssertionError(f"the server went away: exit status {code} (-7: SIGBUS)") from group
    finally:
        returncode = proc.poll()
        stop(proc)
    assert returncode is None


async def test_while_the_server_runs_no_other_program_opens_its_store(tmp_path: Path) -> None:
    """The exclusive lock's price, said clearly to the other program; after
    a stop the store opens anywhere (docs/deploy.md: backups)."""
    import sqlite3

    store = tmp_path / "store.sqlite"
    proc, port = serve(store)
    try:
        await a_table(port)
        other = sqlite3.connect(store, timeout=0.1)
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("SELECT count(*) FROM tables").fetchone()
        other.close()
    finally:
        assert stop(proc) == 0
    after = sqlite3.connect(store)
    try:
        assert after.execute("SELECT count(*) FROM tables").fetchone()[0] == 1
    finally:
        after.close()




async def test_a_backup_through_the_running_server_opens_anywhere(tmp_path: Path) -> None:
    """`oriente backup PORT` (docs/deploy.md): the server, asked on its admin
    socket, writes a consistent copy while it plays on; another program
    opens the copy."""
    import sqlite3

    store = tmp_path / "store.sqlite"
    proc, port = serve(store)
    try:
        table, tokens = await a_table(port)
        seats = Seats(port, table, tokens)
        async with trio.open_nursery() as nursery:
            for seat in range(4):
                nursery.start_soon(seats.play, seat)
            with trio.fail_after(120):
                while seats.acts < 5:
                    await trio.sleep(0.05)
            run = await trio.to_thread.run_sync(lambda: subprocess.run(
                [sys.executable, "-m", "oriente.cli", "backup", str(port)],
                capture_output=True, text=True, timeout=120, cwd=tmp_path.parent))
            assert run.returncode == 0, run.stderr
            assert f"{store}.backup" in run.stdout
            played = seats.acts
            with trio.fail_after(120):
                while seats.acts < played + 3 and not seats.finished.is_set():  # the tables play on after it
                    await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
        copy = sqlite3.connect(f"{store}.backup")
        try:
            assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert copy.execute("SELECT count(*) FROM tables WHERE id = ?", (table,)).fetchone()[0] == 1
            assert copy.execute("SELECT count(*) FROM log WHERE table_id = ?", (table,)).fetchone()[0] > 5
        finally:
            copy.close()
        assert not list(tmp_path.glob("*.partial"))
    finally:
        assert stop(proc) == 0
