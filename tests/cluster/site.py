"""Three `oriente serve --cluster` processes on the test PostgreSQL and the
local Redis, and players that follow a table wherever it is served.

A player is a raw websocket client (tests/e2e/wsclient.py): it resumes its
seat from its last seq after every drop or `moved`, re-sends the command it
had not seen answered (same id: applied at most once), and records every
seq it saw, so a test can tell that no event was lost or doubled."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from ..e2e.wsclient import Client, open_client, pick

BUS_URL = os.environ.get("ORIENTE_TEST_REDIS") or "redis://127.0.0.1:6379/0"
LEASE_S = 1.5


def bus_unreachable() -> str | None:
    try:
        import redis
    except ImportError as exc:
        return f"redis-py is not installed ({exc}); pip install -e '.[test]'"
    try:
        redis.Redis.from_url(BUS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis at {BUS_URL} is not reachable ({exc}); set ORIENTE_TEST_REDIS"
    return None


@pytest.fixture
def bus_url() -> str:
    reason = bus_unreachable()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI needs Redis: {reason}")
        pytest.skip(reason)
    return BUS_URL


class Node:
    """One `oriente serve --cluster` process on a free port."""

    def __init__(self, store: str, bus: str, lease_s: float = LEASE_S, extra: tuple[str, ...] = ()) -> None:
        self.store, self.bus, self.lease_s, self.extra = store, bus, lease_s, extra
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.metrics_port = 0  # its /metrics (--metrics-port), on 127.0.0.1
        self.stderr = ""

    async def start(self) -> Node:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", self.store, "--quiet",
             "--cluster", self.bus, "--lease", str(self.lease_s), "--metrics-port", "0", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        line = await trio.to_thread.run_sync(self.proc.stdout.readline)
        assert line.startswith("serving ws://"), (line, self.proc.stderr.read() if self.proc.poll() is not None else "")
        self.port = int(line.split()[1].rsplit(":", 1)[1])
        metrics = next(word for word in line.split() if word.startswith("metrics="))
        self.metrics_port = int(metrics.rsplit(":", 1)[1].split("/", 1)[0])
        return self

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def signal(self, signum: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(signum)

    async def wait(self, timeout: float = 30) -> int:
        assert self.proc is not None
        code = await trio.to_thread.run_sync(self.proc.wait, timeout)
        self.stderr = self.proc.stderr.read() if self.proc.stderr else ""
        return code

    def cleanup(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.send_signal(signal.SIGCONT)
                self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def site(postgres_schemas, bus_url):
    """make(n) starts n processes sharing a fresh site."""
    store = postgres_schemas.store_url(postgres_schemas.fresh())
    nodes: list[Node] = []

    async def make(n: int, *extra: str) -> list[Node]:
        for _ in range(n):
            nodes.append(await Node(store, bus_url, extra=extra).start())
        return nodes

    make.store = store  # type: ignore[attr-defined]
    yield make
    for node in nodes:
        node.cleanup()


TIMERS = {"prompt_ms": 60_000, "window_ms": 300, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": False,
          "away_after": 3}


@dataclass
class Player:
    seat: int
    token: str
    home: int  # index of the process it prefers
    rnd: random.Random
    seq: int = 0
    seqs: list[int] = field(default_factory=list)
    answered: set[Any] = field(default_factory=set)
    unacked: dict[str, Any] | None = None
    connections: int = 0
    moved: int = 0
    finished: bool = False


async def one_connection(port: int, table: str, p: Player, acts: list[int]) -> bool:
    """Resume the seat at `port` and play; True once the table finished,
    False when the connection ended (dropped, or closed after `moved`) or
    went silent for 30 s, as a real client gives up a connection that no
    longer answers (a process stopped past its lease keeps its sockets
    open; on a loaded machine the table's new owner may take longer than
    that to be found) and resumes through the next live process."""
    p.connections += 1
    try:
        async with open_client(port) as ws:
            c = Client(ws)
            await c.recv()
            r = await c.request({"t": "resume", "table": table, "token": p.token, "after": p.seq}, timeout=20)
            assert r["t"] == "ok", r
            if p.unacked is not None:
                await c.send(p.unacked)
            while True:
                f = await c.recv(timeout=30)
                if f["t"] == "moved":
                    p.moved += 1
                    continue
                if f["t"] in ("ok", "error") and p.unacked is not None and f.get("re") == p.unacked["id"]:
                    p.unacked = None
                if f["t"] == "events":
                    for e in f["events"]:
                        if e["seq"] > p.seq:
                            p.seqs.append(e["seq"])
                            p.seq = e["seq"]
                    if any(e["type"] == "TableFinished" for e in f["events"]):
                        return True
                elif f["t"] == "error":
                    assert f["code"] == "decision/closed", f
                prompt = f.get("prompt") if f["t"] in ("events", "snapshot") else None
                cmd = pick(prompt, p.seat, p.rnd)
                if cmd is not None and prompt is not None and (prompt["id"], prompt["pivot"]) not in p.answered:
                    p.answered.add((prompt["id"], prompt["pivot"]))
                    acts.append(p.seat)
                    p.unacked = {"t": "act", "id": f"{p.seat}-{len(p.answered)}", "table": table, "cmd": cmd}
                    await c.send(p.unacked)
    except (ConnectionClosed, OSError, trio.BrokenResourceError, trio.TooSlowError):
        return False


async def play(nodes: list[Node], table: str, players: list[Player], acts: list[int]) -> None:
    """Every player plays to the end, each through its home process while it
    lives, else through the next live one."""
    async def one(p: Player) -> None:
        while not p.finished:
            live = [n for n in nodes[p.home:] + nodes[:p.home] if n.alive]
            assert live, "no process left"
            # A guard against a table that never speaks again, not a budget.
            assert p.connections < 40, f"seat {p.seat}: {p.connections} connections and the game has not ended"
            p.finished = await one_connection(live[0].port, table, p, acts)
            if not p.finished:
                await trio.sleep(0.1)

    async with trio.open_nursery() as nursery:
        for p in players:
            nursery.start_soon(one, p)


async def new_table(port: int, seats: int = 4, seed: int = 2024) -> tuple[str, list[tuple[int, str]]]:
    """Create a table at `port` and take every seat; (table, [(seat, token)])."""
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "create_table", "seats": seats, "seed": seed, "timers": TIMERS})
        assert r["t"] == "ok", r
        table = r["table"]
        seated = []
        for i in range(seats):
            j = await c.request({"t": "join", "table": table, "name": f"p{i}"})
            assert j["t"] == "ok", j
            seated.append((j["seat"], j["token"]))
    return table, seated


async def record_of(port: int, table: str) -> dict:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "record", "table": table}, timeout=20)
        assert r["t"] == "ok", r
        return r["record"]


def table_row(store_url: str, table: str) -> tuple[int, str, str]:
    """(epoch, status, owner) of a table, read from PostgreSQL."""
    import psycopg

    from oriente.server.stores.postgres import split_schema

    url, schema = split_schema(store_url)
    with psycopg.connect(url) as conn:
        row = conn.execute(f'SELECT epoch, status, owner FROM "{schema}".tables WHERE id = %s', (table,)).fetchone()
    assert row is not None
    return row[0], row[1], row[2]
