"""Cluster benchmark: several `oriente serve --cluster` processes on one
PostgreSQL site and one Redis bus (docs/benchmarks.md, bench/cluster.py).

Phases, in one run, each on a fresh site (a schema of its own, dropped at
the end):

1. **Baseline**: one plain `oriente serve --store postgresql://...` (no
   cluster), T tables of 4 bots on zero-wait timers, closed loop (a bot
   answers its own decision at once; a finished table is replaced by a new
   one), for a fixed time. `games_per_s`, and `p99_ms`: the time from a bot
   sending `act` to its `ok` (the step stored and answered), over all acts.
2. **1, 2 and 3 processes** of one site, the same load: the tables are
   created round robin on the processes and each table's seats connect
   round robin to them, so with N processes (N-1)/N of the seats reach
   their table through another process (forwarded over the bus). On 2
   cores the point is what the cluster machinery costs, not a speed-up.
3. **Failover**: three processes, F tables all created on process 0 and
   played by bots spread over the three; process 0 is killed (SIGKILL)
   mid-game. The bots reconnect (to the next live process) or follow
   `moved`, resume from their last seq, and re-send the command they had
   not seen answered. `failover_s`: from the kill until every table has a
   new event; `failover_lost_events`: seqs a client saw that the final
   record lacks, gaps in what each client saw after its first resume, and
   acknowledged commands missing from the record (must be 0).

    python bench/cluster.py            # about 4 minutes
    python bench/cluster.py --quick    # about 2 minutes

Needs PostgreSQL (ORIENTE_BENCH_POSTGRES, default the test database) and
Redis (ORIENTE_BENCH_REDIS, default redis://127.0.0.1:6379/0). The last
line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, cast

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import msgspec
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect
from websockets.typing import Subprotocol

from oriente.games.oriente.rules.commands import DECISION_COMMANDS

DECISION_TYPES = frozenset(c.__name__ for c in DECISION_COMMANDS)

PG = os.environ.get("ORIENTE_BENCH_POSTGRES") or os.environ.get("ORIENTE_TEST_POSTGRES") \
    or "postgresql://postgres@127.0.0.1:5432/test"
BUS = os.environ.get("ORIENTE_BENCH_REDIS") or os.environ.get("ORIENTE_TEST_REDIS") or "redis://127.0.0.1:6379/0"
TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": True, "away_after": 3}
SEATS = 4
LEASE_S = 2.0

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder()


# -- processes --------------------------------------------------------------------------


class Server:
    def __init__(self, store: str, cluster: bool) -> None:
        args = [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", store, "--quiet"]
        if cluster:
            args += ["--cluster", BUS, "--lease", str(LEASE_S)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line.startswith("serving ws://"):
            raise SystemExit(f"bench/cluster.py: the server did not start: {line!r}")
        self.port = int(line.split()[1].rsplit(":", 1)[1])

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.alive:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def log_rows(store: str) -> int:
    """Rows in the site's log (every stored command and event)."""
    import psycopg
    from psycopg import sql

    schema = store.rsplit("schema=", 1)[1]
    with psycopg.connect(PG, autocommit=True) as conn:
        row = conn.execute(sql.SQL("SELECT count(*) FROM {}.log").format(sql.Identifier(schema))).fetchone()
    return int(row[0]) if row else 0


def site_url(schema: str) -> str:
    return f"{PG}{'&' if '?' in PG else '?'}schema={schema}"


def drop_schemas(names: list[str]) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(PG, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name)))


# -- bots ---------------------------------------------------------------------------------


@dataclass
class Seat:
    table: str
    seat: int
    token: str
    home: int
    rnd: random.Random
    seq: int = 0
    first: int | None = None
    seen: list[int] = field(default_factory=list)
    answered: set[Any] = field(default_factory=set)
    unacked: dict[str, Any] | None = None
    sent_at: float = 0.0
    acked: list[Any] = field(default_factory=list)
    done: bool = False


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    games: int = 0
    measuring: bool = False
    killed_at: float = float("inf")
    moved: dict[str, float] = field(default_factory=dict)  # table -> its first event after the kill
    timers: dict[str, Any] = field(default_factory=lambda: TIMERS)
    errors: dict[str, int] = field(default_factory=dict)


def choose(prompt: dict[str, Any] | None, seat: int, rnd: random.Random) -> dict[str, Any] | None:
    """The shared random policy: pass with probability 1/2 where passing is
    legal, else a uniform pick among the other legal commands."""
    if not prompt or prompt.get("pivot") != seat:
        return None
    legal = prompt.get("legal", [])
    passes = [c for c in legal if c.get("type") == "Pass"]
    rest = [c for c in legal if c.get("type") in DECISION_TYPES and c.get("type") != "Pass"]
    if not passes and not rest:
        return None
    if passes and (not rest or rnd.random() < 0.5):
        return passes[0]
    return rnd.choice(rest)


async def request(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(_enc.encode(message))
    while True:
        frame = _dec.decode(await ws.recv())
        if frame.get("t") in ("ok", "error") and frame.get("re") == message["id"]:
            return frame


async def new_table(port: int, rnd: random.Random, timers: dict[str, Any]) -> tuple[str, list[tuple[int, str]]]:
    async with connect(f"ws://127.0.0.1:{port}", subprotocols=[Subprotocol("oriente.v1")], compression=None) as ws:
        await ws.recv()
        r = await request(ws, {"t": "create_table", "id": 1, "seats": SEATS, "seed": rnd.randrange(2**62),
                               "timers": timers})
        table = r["table"]
        seats = []
        for i in range(SEATS):
            j = await request(ws, {"t": "join", "id": 2 + i, "table": table, "name": f"b{i}"})
            seats.append((j["seat"], j["token"]))
    return table, seats


async def one_connection(port: int, s: Seat, tally: Tally) -> bool:
    """Resume and play; True once the game finished, False on a drop."""
    try:
        async with connect(f"ws://127.0.0.1:{port}", subprotocols=[Subprotocol("oriente.v1")], compression=None,
                           open_timeout=5) as ws:
            await ws.recv()
            await ws.send(_enc.encode({"t": "resume", "id": "r", "table": s.table, "token": s.token,
                                       "after": s.seq}))
            if s.unacked is not None:
                await ws.send(_enc.encode(s.unacked))
            async for raw in ws:
                f = _dec.decode(cast(bytes, raw))  # the server sends binary frames only
                t = f.get("t")
                if t == "error":
                    tally.errors[f.get("code", "?")] = tally.errors.get(f.get("code", "?"), 0) + 1
                if t in ("ok", "error") and s.unacked is not None and f.get("re") == s.unacked["id"]:
                    if t == "ok":
                        if tally.measuring and s.sent_at:
                            tally.latencies.append(time.perf_counter() - s.sent_at)
                        s.acked.append(s.unacked["cmd"])
                    s.unacked = None
                    s.sent_at = 0.0
                if t == "events":
                    for e in f["events"]:
                        if e["seq"] > s.seq:
                            if s.first is None:
                                s.first = e["seq"]
                            s.seen.append(e["seq"])
                            s.seq = e["seq"]
                    now = time.perf_counter()
                    if f["events"] and now > tally.killed_at and s.table not in tally.moved:
                        tally.moved[s.table] = now
                    if any(e["type"] == "TableFinished" for e in f["events"]):
                        s.done = True
                        return True
                if t in ("events", "snapshot") and s.unacked is None:
                    prompt = f.get("prompt")
                    cmd = choose(prompt, s.seat, s.rnd)
                    if cmd is not None and (prompt["id"], prompt["pivot"]) not in s.answered:
                        s.answered.add((prompt["id"], prompt["pivot"]))
                        s.unacked = {"t": "act", "id": f"{s.seat}-{len(s.answered)}", "table": s.table, "cmd": cmd}
                        s.sent_at = time.perf_counter()
                        await ws.send(_enc.encode(s.unacked))
    except (ConnectionClosed, OSError, trio.BrokenResourceError, TimeoutError):
        return False
    return False


async def play_seat(servers: list[Server], s: Seat, tally: Tally) -> None:
    while not s.done:
        live = [srv for srv in servers[s.home:] + servers[:s.home] if srv.alive]
        if not live:
            return
        if not await one_connection(live[0].port, s, tally):
            await trio.sleep(0.05)


async def play_table(servers: list[Server], home: int, rnd: random.Random, tally: Tally,
                     seats_out: list[Seat] | None = None) -> None:
    """One table's bots; with `seats_out` the table is played once and its
    seats kept, else tables follow each other until cancelled."""
    spread = itertools.count(home)
    while True:
        table, seated = await new_table(servers[home % len(servers)].port, rnd, tally.timers)
        seats = [Seat(table, seat, token, next(spread) % len(servers), random.Random(rnd.random()))
                 for seat, token in seated]
        if seats_out is not None:
            seats_out.extend(seats)
        async with trio.open_nursery() as nursery:
            for s in seats:
                nursery.start_soon(play_seat, servers, s, tally)
        if tally.measuring:
            tally.games += 1
        if seats_out is not None:
            return


def p99(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000


async def load_phase(servers: list[Server], store: str, tables: int, seconds: float, warmup: float,
                     seed: int) -> dict[str, float]:
    tally = Tally()
    rnd = random.Random(seed)
    async with trio.open_nursery() as nursery:
        for i in range(tables):
            nursery.start_soon(play_table, servers, i, random.Random(rnd.random()), tally)
        await trio.sleep(warmup)
        tally.measuring = True
        cpu0 = sum(cpu_seconds(srv.proc.pid) for srv in servers)
        rows0 = log_rows(store)
        started = time.perf_counter()
        await trio.sleep(seconds)
        elapsed = time.perf_counter() - started
        tally.measuring = False
        cpu = sum(cpu_seconds(srv.proc.pid) for srv in servers) - cpu0
        rows = log_rows(store) - rows0
        nursery.cancel_scope.cancel()
    acts = max(len(tally.latencies), 1)
    return {"games_per_s": tally.games / elapsed, "p99_ms": p99(tally.latencies),
            "acts": len(tally.latencies), "acts_per_s": len(tally.latencies) / elapsed,
            "cpu_ms_per_act": cpu * 1000 / acts, "log_rows_per_act": rows / acts}


async def failover_phase(servers: list[Server], tables: int, seed: int, kill_after: float) -> dict[str, Any]:
    tally = Tally()
    rnd = random.Random(seed)
    seats: list[Seat] = []
    killed_at = 0.0
    async with trio.open_nursery() as nursery:
        for _ in range(tables):
            # Every table on process 0 (its owner), seats spread over all three.
            nursery.start_soon(play_table, servers, 0, random.Random(rnd.random()), tally, seats)
        await trio.sleep(kill_after)
        servers[0].proc.send_signal(signal.SIGKILL)
        servers[0].proc.wait(10)
        killed_at = tally.killed_at = time.perf_counter()
        with trio.move_on_after(240):
            while any(not s.done for s in seats) or len(seats) < tables * SEATS:
                await trio.sleep(0.1)
        unfinished = sum(1 for s in seats if not s.done)
        nursery.cancel_scope.cancel()
    table_ids = sorted({s.table for s in seats})
    # Until every table's game moved again (its first event after the kill).
    failover_s = max((tally.moved.get(t, float("nan")) - killed_at for t in table_ids), default=float("nan"))
    lost = 0
    records = {}
    live = next(srv for srv in servers if srv.alive)
    async with connect(f"ws://127.0.0.1:{live.port}", subprotocols=[Subprotocol("oriente.v1")], compression=None) as ws:
        await ws.recv()
        for n, t in enumerate(table_ids):
            r = await request(ws, {"t": "record", "id": n + 1, "table": t})
            records[t] = r.get("record")
    for s in seats:
        record = records.get(s.table)
        if record is None:  # not finished in time: counted in failover_unfinished_seats
            continue
        total = len(record["events"]) + len(record["table_events"])
        # The seq of the game's end (the table may log presence after it).
        end = next((e["seq"] for e in record["table_events"] if e["type"] == "TableFinished"), total)
        lost += sum(1 for q in s.seen if q > total)
        if s.seen:
            lost += (s.seen[-1] - s.seen[0] + 1) - len(s.seen)  # gaps after the first resume
            lost += max(0, end - s.seen[-1])  # the end it never saw
        mine = iter([cmd for seat, cmd in record["commands"] if seat == s.seat])
        lost += sum(1 for cmd in s.acked if not any(cmd == c for c in mine))
    return {"failover_lost_events": lost, "failover_s": failover_s, "failover_tables": len(table_ids),
            "failover_unfinished_seats": unfinished}


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    seconds = args.seconds or (10.0 if args.quick else 20.0)
    warmup = 2.0 if args.quick else 3.0
    tables = args.tables
    made: list[str] = []

    def fresh() -> str:
        name = f"bench_cluster_{os.getpid()}_{uuid.uuid4().hex[:6]}"
        made.append(name)
        return site_url(name)

    figures: dict[str, Any] = {"tables": tables, "seconds": seconds, "lease_s": LEASE_S}
    try:
        store = fresh()
        plain = [Server(store, cluster=False)]
        try:
            base = await load_phase(plain, store, tables, seconds, warmup, args.seed)
        finally:
            for srv in plain:
                srv.stop()
        figures["baseline_games_per_s"] = base["games_per_s"]
        figures["baseline_acts_per_s"] = base["acts_per_s"]
        figures["baseline_cpu_ms_per_act"] = base["cpu_ms_per_act"]
        figures["log_rows_per_act"] = base["log_rows_per_act"]
        figures["baseline_p99_ms"] = base["p99_ms"]
        print(f"plain server on PostgreSQL: {base['games_per_s']:.2f} games/s, {base['acts_per_s']:.0f} acts/s, "
              f"p99 {base['p99_ms']:.1f} ms, server CPU {base['cpu_ms_per_act']:.2f} ms/act, "
              f"{base['log_rows_per_act']:.2f} log rows/act", flush=True)
        runs = {}
        for n in (1, 2, 3):
            store = fresh()
            servers = [Server(store, cluster=True) for _ in range(n)]
            try:
                run = await load_phase(servers, store, tables, seconds, warmup, args.seed + n)
            finally:
                for srv in servers:
                    srv.stop()
            runs[n] = run
            print(f"{n} process{'es' if n > 1 else ''}: {run['games_per_s']:.2f} games/s, "
                  f"{run['acts_per_s']:.0f} acts/s ({run['acts_per_s'] / max(base['acts_per_s'], 1e-9):.2f} "
                  f"of the plain server), p99 {run['p99_ms']:.1f} ms, server CPU {run['cpu_ms_per_act']:.2f} ms/act",
                  flush=True)
            figures[f"cpu_ms_per_act_{n}"] = run["cpu_ms_per_act"]
            figures[f"games_per_s_{n}"] = run["games_per_s"]
            figures[f"acts_per_s_{n}"] = run["acts_per_s"]
            figures[f"p99_ms_{n}"] = run["p99_ms"]
        store = fresh()
        servers = [Server(store, cluster=True) for _ in range(3)]
        try:
            failover = await failover_phase(servers, args.failover_tables, args.seed + 9, 2.0)
        finally:
            for srv in servers:
                srv.stop()
        figures.update(failover)
        print(f"failover: SIGKILL of the owner of {failover['failover_tables']} running tables; every table "
              f"played on within {failover['failover_s']:.2f} s (lease {LEASE_S} s); "
              f"lost events: {failover['failover_lost_events']}; unfinished seats: "
              f"{failover['failover_unfinished_seats']}", flush=True)
    finally:
        drop_schemas(made)
    figures["processes"] = [1, 2, 3]
    figures["ratio_1"] = figures["acts_per_s_1"] / max(figures["baseline_acts_per_s"], 1e-9)
    return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark several server processes on one site.")
    p.add_argument("--quick", action="store_true", help="shorter phases (about 2 minutes in all)")
    p.add_argument("--seconds", type=float, default=None, help="measured time per phase")
    p.add_argument("--tables", type=int, default=24, help="tables in the load phases (4 bots each)")
    p.add_argument("--failover-tables", type=int, default=6, help="tables in the failover run")
    p.add_argument("--seed", type=int, default=16)
    args = p.parse_args(argv)
    figures = trio.run(main_async, args)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
