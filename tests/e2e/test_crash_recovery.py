"""The server as a separate process: SIGKILL mid-game and restart on the same
store; SIGTERM for a graceful shutdown; health and metrics over HTTP."""

from __future__ import annotations

import random
import signal
import subprocess
import sys

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from oriente.server.rules import replay

from .wsclient import Client, open_client, pick

pytestmark = pytest.mark.trio


class ServerProcess:
    """`oriente serve` in its own process, on a free port."""

    def __init__(self, store: str) -> None:
        self.store = store
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.metrics_port = 0

    async def start(self, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", self.store, "--quiet", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = await trio.to_thread.run_sync(self.proc.stdout.readline)
        assert line.startswith("serving ws://"), (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.port = int(line.split()[1].rsplit(":", 1)[1])
        metrics = [word for word in line.split() if word.startswith("metrics=")]
        if metrics:
            self.metrics_port = int(metrics[0].rsplit(":", 1)[1].split("/", 1)[0])

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(60)

    def terminate(self) -> int:
        """SIGTERM, and the exit status once it has shut down (a loaded
        machine may take its time: the wait is generous, not a budget)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(120)

    def cleanup(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def store_spec(request, tmp_path) -> str:
    """What `--store` gets: a SQLite file, or (parametrised indirectly with
    "postgres") a fresh schema of the test PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "postgres":
        schemas = request.getfixturevalue("postgres_schemas")
        return schemas.store_url(schemas.fresh())
    return str(tmp_path / "store.sqlite")


@pytest.fixture
def server_process(store_spec):
    procs: list[ServerProcess] = []

    def make() -> ServerProcess:
        p = ServerProcess(store_spec)
        procs.append(p)
        return p

    yield make
    for p in procs:
        p.cleanup()


async def seat_session(port: int, table: str, seat: int, token: str, mem: dict, rnd: random.Random,
                       acts: list) -> bool:
    """Resume a seat and play; returns True when the table finished, False
    when the server went away. `mem` survives reconnects: last seq, answers."""
    try:
        async with open_client(port) as ws:
            c = Client(ws)
            await c.recv()
            r = await c.request({"t": "resume", "table": table, "token": token, "after": mem["seq"]})
            assert r["t"] == "ok", r
            if mem["unacked"] is not None:
                # Sent before the crash, never acknowledged: send it again with
                # the same id; the server applies it at most once.
                await c.send(mem["unacked"])
            while True:
                f = await c.recv(timeout=120)  # a generous bound for a loaded machine, not a budget
                if f["t"] in ("ok", "error") and mem["unacked"] is not None and f.get("re") == mem["unacked"]["id"]:
                    mem["unacked"] = None
                if f["t"] == "events":
                    for e in f["events"]:
                        if e["seq"] > mem["seq"]:
                            mem["seqs"].append(e["seq"])
                            mem["seq"] = e["seq"]
                    if any(e["type"] == "TableFinished" for e in f["events"]):
                        return True
                elif f["t"] == "snapshot":
                    assert f["seq"] == mem["seq"], "history then snapshot: nothing may be missing"
                elif f["t"] == "error":
                    assert f["code"] == "decision/closed", f
                prompt = f.get("prompt") if f["t"] in ("events", "snapshot") else None
                cmd = pick(prompt, seat, rnd)
                if cmd is not None and (prompt["id"], prompt["pivot"]) not in mem["answered"]:
                    mem["answered"].add((prompt["id"], prompt["pivot"]))
                    acts.append(seat)
                    mem["unacked"] = {"t": "act", "id": f"{seat}-{len(mem['answered'])}", "table": table, "cmd": cmd}
                    await c.send(mem["unacked"])
    except (ConnectionClosed, OSError, trio.BrokenResourceError):
        return False


@pytest.mark.parametrize("store_spec", ["sqlite", "postgres"], indirect=True)
async def test_sigkill_mid_game_then_restart_resumes_and_finishes_exactly(server_process):
    srv = server_process()
    await srv.start()
    timers = {"prompt_ms": 60_000, "window_ms": 300, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": False, "away_after": 3}
    tokens: dict[int, str] = {}
    async with open_client(srv.port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 4, "seed": 2024, "timers": timers}))["table"]
        for i in range(4):
            r = await c.request({"t": "join", "table": table, "name": f"p{i}"})
            tokens[r["seat"]] = r["token"]
    mems = {s: {"seq": 0, "seqs": [], "answered": set(), "unacked": None} for s in range(4)}
    rnds = {s: random.Random(100 + s) for s in range(4)}
    acts: list[int] = []
    finished: dict[int, bool] = {}

    async def play_all(port: int) -> None:
        async with trio.open_nursery() as nursery:
            for s in range(4):
                async def one(s=s):
                    finished[s] = await seat_session(port, table, s, tokens[s], mems[s], rnds[s], acts)
                nursery.start_soon(one)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_all, srv.port)
        while len(acts) < 40:
            await trio.sleep(0.01)
        srv.kill()  # no warning, no flush
    assert not any(finished.values()), "the game should not have ended before the kill"
    seq_at_kill = max(m["seq"] for m in mems.values())

    restarted = server_process()
    await restarted.start()
    await play_all(restarted.port)
    assert all(finished.values())
    for m in mems.values():
        # Every seat saw every sequence number exactly once, across the crash.
        assert m["seqs"] == list(range(m["seqs"][0], m["seq"] + 1))
        assert m["seq"] > seq_at_kill
    async with open_client(restarted.port) as ws:
        c = Client(ws)
        await c.recv()
        record = (await c.request({"t": "record", "table": table}))["record"]
    uninterrupted = replay(record).record()
    assert uninterrupted["events"] == record["events"]
    assert uninterrupted["result"] == record["result"]
    assert record["config"]["seed"] == 2024
    assert restarted.terminate() == 0
    if srv.store.startswith("postgresql://"):
        # The game really lived in PostgreSQL, and the restarted server
        # claimed the table it recovered: a second epoch, a new owner. The
        # table stored `finished` before any seat heard TableFinished
        # (tests/server/test_finish_order.py), so no timing decides this.
        assert _postgres_table(srv.store, table) == (2, "finished")


def _postgres_table(store_url: str, table: str) -> tuple[int, str]:
    import psycopg

    from oriente.server.stores.postgres import split_schema

    url, schema = split_schema(store_url)
    with psycopg.connect(url) as conn:
        row = conn.execute(f'SELECT epoch, status FROM "{schema}".tables WHERE id = %s', (table,)).fetchone()
        count = conn.execute(f'SELECT count(*) FROM "{schema}".log WHERE table_id = %s', (table,)).fetchone()
    assert row is not None and count is not None and count[0] > 40
    return row[0], row[1]


async def test_sigterm_closes_clients_with_going_away_and_keeps_the_store(server_process):
    srv = server_process()
    await srv.start()
    async with open_client(srv.port) as ws:
        c = Client(ws)
        await c.recv()
        table = (await c.request({"t": "create_table", "seats": 5, "name": "kept"}))["table"]
        srv.proc.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:
            await c.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    assert await trio.to_thread.run_sync(srv.proc.wait, 15) == 0
    again = server_process()
    await again.start()
    async with open_client(again.port) as ws:
        c = Client(ws)
        await c.recv()
        listing = (await c.request({"t": "list_tables"}))["tables"]
    assert [t["table"] for t in listing] == [table]
    assert listing[0]["settings"]["name"] == "kept"
    again.terminate()


async def http_get(port: int, path: str) -> tuple[int, str]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
        data = b""
        with trio.fail_after(5):
            while chunk := await stream.receive_some(65536):
                data += chunk
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


async def test_health_and_metrics_over_plain_http(server_process):
    """/metrics is the operator's, on its own port (`--metrics-port`, on
    127.0.0.1 by default); the game's port, which faces the internet,
    does not serve it."""
    srv = server_process()
    await srv.start("--metrics-port", "0")
    status, body = await http_get(srv.port, "/healthz")
    assert (status, body) == (200, "ok\n")
    assert srv.metrics_port not in (0, srv.port)
    status, body = await http_get(srv.metrics_port, "/metrics")
    assert status == 200 and "oriente_frames_out_total" in body and 'oriente_tables{status="open"} 0' in body
    # The store's own (SQLite here): the writer's counters and the WAL's checkpoints.
    assert "oriente_store_batches_total" in body and "oriente_store_wal_catch_ups_total" in body
    status, body = await http_get(srv.port, "/metrics")
    assert status == 404 and "oriente_" not in body and "--metrics-port" in body
    assert (await http_get(srv.metrics_port, "/"))[0] == 404
    # `oriente serve` serves the web client on the same port (PROTOCOL.md 13).
    status, body = await http_get(srv.port, "/")
    assert status == 200 and 'src="/app.js"' in body
    status, body = await http_get(srv.port, "/nowhere")
    assert status == 404
    srv.terminate()
