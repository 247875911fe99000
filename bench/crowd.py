"""Crowd benchmark: one watched table, many idle connections, tables at play.

The server runs in its own process (bench/_server_main.py, its real SQLite
store); every client lives in this process, on bench/_wsclient.py, connected
from several loopback addresses (127.0.0.2, 127.0.0.3, ...) so that thousands
of connections do not run out of ephemeral ports.

In order, in one run:

1. `idle` connections (default 5,000) open, read their welcome and then only
   answer the server's pings. `rss_per_conn_kib` = the server's VmRSS growth
   over them, per connection.
2. `tables` six-seat tables (default 50) play on zero-wait timers at a paced
   rate (a command per table every `--period` seconds, jittered as in
   bench/server.py), with the same random bots.
3. One more table plays at its own pace (`--watched-period`) while
   `spectators` connections (default 1,000) spectate it; every spectator
   follows it to the next game when one ends.

Measured over the same window: `spectator_p99_ms`, the time from the
watched table's bot sending a command to the last spectator receiving the
frame with its events; `p99_ms`, command to the last seat at the playing
tables (as in bench/server.py); the server's CPU, frames/s and RSS.

    python bench/crowd.py              # about a minute
    python bench/crowd.py --quick      # 500 idle, 200 spectators, 10 tables

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import resource
import sys
import tempfile
import time
from typing import Any, cast

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _wsclient
import server as S  # bench/server.py, beside this script
import trio

from oriente.protocol.messages import SUBPROTOCOL

SOURCES = [f"127.0.0.{i}" for i in range(2, 10)]
CONNECTIONS_PER_SOURCE = 20000


def raise_nofile(wanted: int) -> int:
    """Raise this process's open-file limit (the server child inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Crowd:
    """The spectators of the watched table and the latency to their last one."""

    def __init__(self, size: int, tally: S.Tally) -> None:
        self.size = size
        self.tally = tally
        self.table: str | None = None
        self.subscribed = 0  # spectators holding a snapshot of `table`
        self.ready = False
        # Commands not every spectator has seen yet: [sent at, seq the sender had seen, spectators]
        self.pending: list[list[Any]] = []
        self.spectators: list[Spectator] = []
        self.nursery: trio.Nursery | None = None

    def on_new_table(self, table: str) -> None:
        self.table = table
        self.subscribed = 0
        self.ready = False
        self.pending.clear()
        assert self.nursery is not None
        for s in self.spectators:
            s.last = 0
            self.nursery.start_soon(s.spectate, table)

    def on_send(self, sent: float, seen: int) -> None:
        if self.ready:
            self.pending.append([sent, seen, 0])

    def crossed(self, prev: int, new: int, now: float) -> None:
        """A spectator's frames went from `prev` to `new`: it has seen every
        command whose events come after `prev` and up to `new`."""
        done = False
        for entry in self.pending:
            if prev <= entry[1] < new:
                entry[2] += 1
                if entry[2] == self.size:
                    done = True
                    if self.tally.recording:
                        self.tally.latencies.append(now - entry[0])
        if done:
            self.pending = [e for e in self.pending if e[2] < self.size]


class Spectator:
    def __init__(self, crowd: Crowd, ws: _wsclient.WebSocket) -> None:
        self.crowd = crowd
        self.ws = ws
        self.last = 0

    async def spectate(self, table: str) -> None:
        with contextlib.suppress(_wsclient.Closed):
            await self.ws.send(S._encoder.encode({"t": "spectate", "table": table}))

    async def read(self) -> None:
        crowd = self.crowd
        decode = S._frame_decoder.decode
        clock = time.perf_counter
        while True:
            raw = await self.ws.recv()
            now = clock()
            f = decode(cast(bytes, raw))  # the server sends binary frames only
            if f.table != crowd.table or crowd.table is None:
                continue
            if f.t == "events" and f.events and not f.history:
                new = f.events[-1].seq
                if new > self.last:
                    prev, self.last = self.last, new
                    if crowd.pending:
                        crowd.crossed(prev, new, now)
            elif f.t == "snapshot":
                self.last = max(self.last, f.seq)
                crowd.subscribed += 1
                if crowd.subscribed == crowd.size:
                    crowd.ready = True


async def open_lean(port: int, index: int) -> _wsclient.WebSocket:
    source = SOURCES[(index // CONNECTIONS_PER_SOURCE + index) % len(SOURCES)]
    ws = await _wsclient.WebSocket.open(S.HOST, port, "/", [SUBPROTOCOL], source=source)
    welcome = S._frame_decoder.decode(cast(bytes, await ws.recv()))
    if welcome.t != "welcome":
        raise RuntimeError(f"expected welcome, got {welcome.t}")
    return ws


async def hold(ws: _wsclient.WebSocket, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    """An idle connection: read (and so answer pings) until closed."""
    task_status.started()
    try:
        with contextlib.suppress(_wsclient.Closed):
            while True:
                await ws.recv()
    finally:
        with trio.CancelScope(shield=True):
            await ws.aclose(timeout=1.0)


async def crowd_run(server: S.Child, tables: int, spectators: int, idle: int, seconds: float, warmup: float,
                    period: float, watched_period: float, rng: random.Random) -> dict[str, Any]:
    tally = S.Tally()
    watched_tally = S.Tally()
    crowd = Crowd(spectators, watched_tally)
    rss0 = S.rss_kib(server.pid)
    limiter = trio.CapacityLimiter(64)
    async with trio.open_nursery() as nursery:
        crowd.nursery = nursery
        opened = 0

        async def open_idle(i: int) -> None:
            nonlocal opened
            async with limiter:
                ws = await open_lean(server.port, i)
            opened += 1
            await nursery.start(hold, ws)

        t0 = time.perf_counter()
        async with trio.open_nursery() as opening:
            for i in range(idle):
                opening.start_soon(open_idle, i)
        open_s = time.perf_counter() - t0
        await trio.sleep(0.5)
        rss_idle = S.rss_kib(server.pid)

        async def run_spectator(spectator: Spectator) -> None:
            try:
                with contextlib.suppress(_wsclient.Closed):
                    await spectator.read()
            finally:
                with trio.CancelScope(shield=True):
                    await spectator.ws.aclose(timeout=1.0)

        async def open_spectator(i: int) -> None:
            async with limiter:
                ws = await open_lean(server.port, idle + i)
            spectator = Spectator(crowd, ws)
            crowd.spectators.append(spectator)
            nursery.start_soon(run_spectator, spectator)

        async with trio.open_nursery() as opening:
            for i in range(spectators):
                opening.start_soon(open_spectator, i)
        rss_spectators = S.rss_kib(server.pid)

        groups = await S.open_bots(nursery, "lean", server.port, tables, rng, tally, period)
        [watched] = await S.open_bots(nursery, "lean", server.port, 1, rng, watched_tally, watched_period)
        watched.index = tables
        watched.on_new_table = crowd.on_new_table
        watched.on_send = crowd.on_send
        async with trio.open_nursery() as play:
            for g in [*groups, watched]:
                play.start_soon(g.play)
            await trio.sleep(warmup)
            tally.latencies.clear()
            watched_tally.latencies.clear()
            watched_tally.recording = True
            rss_a = S.rss_kib(server.pid)
            w = await S.measure_window(server.port, server.pid, tally, seconds)
            watched_tally.recording = False
            rss_b = S.rss_kib(server.pid)
            play.cancel_scope.cancel()
        S.close_bots([*groups, watched])
        nursery.cancel_scope.cancel()
    lat = sorted(tally.latencies)
    spec = sorted(watched_tally.latencies)
    return {
        "open_s": open_s,
        "seconds": w.seconds,
        "rss_before_kib": rss0,
        "rss_idle_kib": rss_idle,
        "rss_spectators_kib": rss_spectators,
        "rss_playing_kib": (rss_a + rss_b) / 2,
        "rss_per_conn_kib": (rss_idle - rss0) / idle if idle else math.nan,
        "rss_per_spectator_kib": (rss_spectators - rss_idle) / spectators if spectators else math.nan,
        "frames_per_s": w.server["oriente_frames_out_total"] / w.seconds,
        "commands_per_s": w.bots["commands"] / w.seconds,
        "watched_commands": watched_tally.commands,
        "server_cpu": w.server_cpu / w.seconds,
        "bot_cpu": w.bot_cpu / w.seconds,
        "latency_samples": len(lat),
        "p50_ms": S.percentile(lat, 0.5) * 1000,
        "p99_ms": S.percentile(lat, 0.99) * 1000,
        "spectator_samples": len(spec),
        "spectator_p50_ms": S.percentile(spec, 0.5) * 1000,
        "spectator_p99_ms": S.percentile(spec, 0.99) * 1000,
        "errors": dict(tally.errors) | {f"watched {k}": v for k, v in watched_tally.errors.items()},
        "evictions": w.server.get("oriente_evictions_total", 0.0),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark one process with a crowd: spectators and idle connections.")
    p.add_argument("--quick", action="store_true", help="a smaller crowd and a short window, for smoke runs")
    p.add_argument("--tables", type=int, default=None, help="playing tables (default 50)")
    p.add_argument("--spectators", type=int, default=None, help="spectators of the watched table (default 1000)")
    p.add_argument("--idle", type=int, default=None, help="idle connections (default 5000)")
    p.add_argument("--seconds", type=float, default=None, help="measured time (default 20)")
    p.add_argument("--warmup", type=float, default=None, help="unmeasured play before it (default 3)")
    p.add_argument("--period", type=float, default=0.2, help="seconds between a playing table's commands")
    p.add_argument("--watched-period", type=float, default=0.5,
                   help="seconds between the watched table's commands")
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    tables = args.tables if args.tables is not None else (10 if args.quick else 50)
    spectators = args.spectators if args.spectators is not None else (200 if args.quick else 1000)
    idle = args.idle if args.idle is not None else (500 if args.quick else 5000)
    seconds = args.seconds if args.seconds is not None else (4.0 if args.quick else 20.0)
    warmup = args.warmup if args.warmup is not None else (2.0 if args.quick else 3.0)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    connections = idle + spectators + (tables + 1) * S.SEATS
    nofile = raise_nofile(connections + 1024)
    if nofile < connections + 64:
        print(f"the open-file limit is {nofile}: too few for {connections} connections", file=sys.stderr)
        return 2
    print(f"crowd benchmark: Python {platform.python_version()}, {os.cpu_count()} CPUs, {idle} idle connections, "
          f"{spectators} spectators of one table, {tables} tables playing (a command every {args.period:g} s each; "
          f"the watched table every {args.watched_period:g} s); seed {seed}; load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="oriente-crowd-") as tmp:
        try:
            server = S.start_server(tmp, "crowd")
            try:
                c = trio.run(crowd_run, server, tables, spectators, idle, seconds, warmup, args.period,
                             args.watched_period, rng)
            finally:
                S.stop_checked(server)
        finally:
            S.Child.stop_all()
    fmt = S.fmt
    print(f"connections: {idle} idle opened in {fmt(c['open_s'], 1)} s; server RSS {c['rss_before_kib']} KiB before, "
          f"{c['rss_idle_kib']} KiB with them ({fmt(c['rss_per_conn_kib'])} KiB each), "
          f"{c['rss_spectators_kib']} KiB with the spectators too ({fmt(c['rss_per_spectator_kib'])} KiB each), "
          f"{fmt(c['rss_playing_kib'], 0)} KiB while the tables play")
    print(f"play: {fmt(c['frames_per_s'], 0)} frames/s, {fmt(c['commands_per_s'], 0)} commands/s; "
          f"CPU server {fmt(c['server_cpu'] * 100, 0)}%, clients {fmt(c['bot_cpu'] * 100, 0)}%")
    print(f"  command to the last seat ({c['latency_samples']} commands): p50 {fmt(c['p50_ms'], 2)} ms, "
          f"p99 {fmt(c['p99_ms'], 2)} ms")
    print(f"  watched table, command to the last of {spectators} spectators ({c['spectator_samples']} commands): "
          f"p50 {fmt(c['spectator_p50_ms'], 2)} ms, p99 {fmt(c['spectator_p99_ms'], 2)} ms")
    if c["errors"] or c["evictions"]:
        print(f"  anomalies: errors {c['errors']}, evictions {c['evictions']:g}")

    def r(x: float, digits: int = 2) -> float | None:
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, digits)

    print(json.dumps({
        "bench": "crowd",
        "spectator_p99_ms": r(c["spectator_p99_ms"], 3),
        "rss_per_conn_kib": r(c["rss_per_conn_kib"], 1),
        "p99_ms": r(c["p99_ms"], 3),
        "tables": tables,
        "spectators": spectators,
        "idle": idle,
        "spectator_p50_ms": r(c["spectator_p50_ms"], 3),
        "spectator_samples": c["spectator_samples"],
        "p50_ms": r(c["p50_ms"], 3),
        "latency_samples": c["latency_samples"],
        "rss_per_spectator_kib": r(c["rss_per_spectator_kib"], 1),
        "frames_per_s": r(c["frames_per_s"], 1),
        "server_cpu": r(c["server_cpu"]),
        "client_cpu": r(c["bot_cpu"]),
        "period_s": args.period,
        "watched_period_s": args.watched_period,
        "seconds": seconds,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "seed": seed,
        "python": platform.python_version(),
    }, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
