"""Sleeping turn-based tables (docs/table.md T8.5): memory, wake-ups, deadlines.

The server runs in its own process (`oriente serve`) on a real SQLite store
in a fresh temporary directory; the bench's clients live in this process, on
loopback. The bench's own clients take many tables each, so it raises the
per-connection and per-address table limits (T6.2) by flags, and says so.

The load is a turn-based site's, on a faster clock (`--scale`, default
30: a real hour is two minutes here). Each table's decision time is drawn
log-uniformly from 1 to 24 hours; the person whose turn it is comes back
after a wait drawn log-uniformly from 5 minutes to 1.5 decision times
(about one in ten comes back after the deadline, which answered for them).
On that clock 10,000 tables make about 60 looks and 3 deadlines a second,
not the 230 and 160 that decisions of 20 to 90 s made before: `wake_p99_ms` then measures a wake, not a
queue in a saturated server. The run prints its scale and the rates it made.

1. Setup: a few accounts sign up; one creates N turn-based tables (4 seats,
   each its decision time, scaled), each account takes a seat at
   every table. The tables start. After every SETUP_CHUNK tables the bench
   closes every connection at once (rather than one `unsubscribe` per
   seat: 4 requests a table fewer) and signs in again: nobody follows the
   tables, so they fall asleep (`--sleep-horizon`).
2. Play: for each table a driver comes back now and then, after a
   person's wait (above): now and then after the deadline (its silence
   applied: the server woke the table for it), mostly before, when the
   pivot resumes its seat, answers, and stops following.
   `wake_p99_ms` is the 99th percentile from a `resume` sent to a table
   idle for longer than the horizon plus the sleeper's round (asleep) to
   its answer; `deadline_late_p99_ms` the server's own figure (its
   /metrics): how long after its wall-clock time each deadline applied.
   In the middle the server is SIGKILLed and started again on its store;
   `lost_events` counts events a client saw that the store no longer has
   (each table is read again from seq 0 at the end).
3. Memory: once every table is asleep again (none open or running in
   memory: the bench waits for it), the server is stopped and started again
   on the store, and once the tables its start found due are asleep again
   too, `rss_per_sleeping_table_kib` is its RSS minus the RSS of the same
   server started on an empty store, over N: the cost of N sleeping tables
   to a server that holds none of them awake (`awake_at_rss` says how many
   were in memory when it was read).

    python bench/sleep.py --quick    # 10,000 tables
    python bench/sleep.py            # 100,000 tables
    python bench/sleep.py --tables 2000 --play 120 --scale 60

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import msgspec
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect
from websockets.typing import Subprotocol

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from server import metrics, rss_kib  # noqa: E402  the server bench's /metrics reader and RSS

ACCOUNTS = 4  # one seat each at every table
CONNS_PER_ACCOUNT = 6  # an account's connections (each has its own message budget, PROTOCOL.md 12)
IN_FLIGHT = 64  # requests in flight per connection during the setup
CHECK_IN_FLIGHT = 16  # tables read again at once at the end
# Tables set up between two closings of every connection: enough to keep the
# server busy, few enough that the events of the tables followed meanwhile
# do not swamp the bench's own clients.
SETUP_CHUNK = 500
# The latest a person comes back, in decision times: past 1, the deadline answered.
LATE = 1.5
RATE, BURST = 150.0, 100.0  # what a connection sends, below the server's per-connection budget (PROTOCOL.md 12)
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode


def wake_steps(m: dict[str, float]) -> dict[str, list[float]]:
    """The server's own breakdown of its wakes by a message (/metrics), in
    ms: each step's [p50, p99, max, mean over the slowest hundredth]."""
    out: dict[str, list[float]] = {}
    for step in ("read_wait", "read", "read_back", "claim_wait", "claim", "claim_back", "rebuild", "total"):
        out[step] = [round(m.get(f'oriente_wake_step_seconds{{step="{step}",quantile="{q}"}}', 0.0) * 1000, 2)
                     for q in ("0.5", "0.99", "1")]
        out[step].append(round(m.get(f'oriente_wake_step_tail_seconds{{step="{step}"}}', 0.0) * 1000, 2))
    return out


def loop_lag(m: dict[str, float]) -> list[float]:
    """The server's run loop's lag (/metrics), ms: p50, p99, max; and its longest full collection."""
    return [round(m.get(f'oriente_loop_lag_seconds{{quantile="{q}"}}', 0.0) * 1000, 1) for q in ("0.5", "0.99", "1")
            ] + [round(m.get("oriente_gc_full_max_seconds", 0.0) * 1000, 1)]


class Lag:
    """The bench's own run loop's lag: a look's time is measured here, so a
    bench that falls behind (its clients' frames, its own collections)
    adds to it."""

    def __init__(self) -> None:
        self.lag: list[float] = []
        self.on = False  # while the clients play (not while the bench itself restarts the server)

    async def run(self) -> None:
        while True:
            asleep = time.perf_counter()
            await trio.sleep(0.01)
            if self.on:
                self.lag.append((time.perf_counter() - asleep - 0.01) * 1000)

    def figures(self) -> list[float]:
        return [round(percentile(self.lag, q) or 0.0, 1) for q in (0.5, 0.99, 1.0)]


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Server:
    """`oriente serve` in its own process; its ports from the line it prints."""

    def __init__(self, store: str, flags: list[str], log_path: str) -> None:
        self.log = open(log_path, "ab")  # noqa: SIM115 - the child writes to it until stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--store", store, "--port", "0",
                                      "--metrics-port", "0", "--quiet", *flags],
                                     stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL)
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], 300)
        line = self.proc.stdout.readline().decode() if ready else ""
        found = re.search(r"serving ws://[^:]+:(\d+) .*metrics=http://[^:]+:(\d+)/metrics", line)
        if found is None:
            self.proc.kill()
            raise RuntimeError(f"the server did not start: {line!r}; see {log_path}")
        self.port, self.metrics_port = int(found.group(1)), int(found.group(2))
        self.pid = self.proc.pid

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Conn:
    """One signed-in connection: requests by id, events by table."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0
        self.waiting: dict[int, tuple[trio.Event, list[dict[str, Any]]]] = {}
        self.frames: dict[str, list[dict[str, Any]]] = {}  # table -> frames since the last resume
        self.seen: dict[str, dict[int, str]] = {}  # table -> seq -> event type, everything this client saw
        self.closed = False
        self.next_at = 0.0

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                frame = _decode(raw)
                re_ = frame.get("re")
                if frame.get("t") in ("ok", "error") and re_ in self.waiting:
                    event, box = self.waiting.pop(re_)
                    box.append(frame)
                    event.set()
                table = frame.get("table")
                if isinstance(table, str):
                    self.frames.setdefault(table, []).append(frame)
                    seen = self.seen.setdefault(table, {})
                    for e in frame.get("events", ()):
                        if "seq" in e:
                            seen[e["seq"]] = e["type"]
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            for event, _ in self.waiting.values():
                event.set()

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        now = trio.current_time()
        self.next_at = max(self.next_at, now) + 1 / RATE
        if self.next_at - now > BURST / RATE:
            await trio.sleep(self.next_at - now - BURST / RATE)
        self.n += 1
        event, box = trio.Event(), []  # type: ignore[var-annotated]
        self.waiting[self.n] = (event, box)
        await self.ws.send(_encode({**message, "id": self.n}))
        await event.wait()
        if not box:
            raise RuntimeError(f"the server closed the connection: {self.ws.close_code} {self.ws.close_reason}")
        return box[0]


async def open_conn(nursery: trio.Nursery, port: int) -> Conn:
    async def hold(task_status: trio.TaskStatus[Conn] = trio.TASK_STATUS_IGNORED) -> None:
        # No keepalive pings from the bench: a server busy waking thousands of
        # tables answers late, and the figures, not a closed connection, say so.
        async with connect(f"ws://127.0.0.1:{port}", subprotocols=[Subprotocol("oriente.v1")], compression=None,
                           max_size=2**22, open_timeout=60, ping_interval=None) as ws:
            conn = Conn(ws)
            task_status.started(conn)
            await conn.read()

    conn: Conn = await nursery.start(hold)
    return conn


class Site:
    """The bench's clients: ACCOUNTS accounts, each on CONNS_PER_ACCOUNT connections."""

    def __init__(self) -> None:
        self.sessions: list[str] = []
        self.conns: list[list[Conn]] = []
        self.nursery: trio.Nursery | None = None

    async def connect(self, nursery: trio.Nursery, port: int, first: bool) -> None:
        self.nursery = nursery
        self.conns = []
        for a in range(ACCOUNTS):
            row = []
            for c in range(CONNS_PER_ACCOUNT):
                conn = await open_conn(nursery, port)
                if first and c == 0:
                    ok = await conn.request({"t": "sign_up", "name": f"sleeper{a}{random.randrange(10**6)}",
                                             "password": "a long bench password"})
                    assert ok["t"] == "ok", ok
                    self.sessions.append(ok["token"])
                else:
                    ok = await conn.request({"t": "sign_in", "token": self.sessions[a]})
                    assert ok["t"] == "ok", ok
                row.append(conn)
            self.conns.append(row)

    async def close(self) -> None:
        """Close every connection: the server drops them from the tables they followed."""
        for row in self.conns:
            for conn in row:
                with contextlib.suppress(Exception):
                    await conn.ws.aclose()

    def conn(self, account: int, table_index: int) -> Conn:
        return self.conns[account][table_index % CONNS_PER_ACCOUNT]


class Tally:
    def __init__(self) -> None:
        self.wake_ms: list[float] = []
        self.answers = 0
        self.looks = 0
        self.errors: dict[str, int] = {}


HOUR_S = 3600.0


def log_uniform(rng: random.Random, low: float, high: float) -> float:
    return math.exp(rng.uniform(math.log(low), math.log(high)))


class Load:
    """A turn-based site's times, in real seconds, and how much faster the bench's clock runs."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.scale = args.scale
        self.decision = (args.decision_min_h * HOUR_S, args.decision_max_h * HOUR_S)
        self.answer_min = args.answer_min_min * 60.0
        self.late = LATE

    def decision_s(self, rng: random.Random) -> float:
        """A table's decision time on the bench's clock."""
        return log_uniform(rng, *self.decision) / self.scale

    def wait_s(self, rng: random.Random, decision_s: float) -> float:
        """How long the person whose turn it is stays away, on the bench's clock."""
        return log_uniform(rng, self.answer_min / self.scale, self.late * decision_s)

    def first_wait_s(self, rng: random.Random, decision_s: float) -> float:
        """The wait until a person first comes back, as on a site that has
        run for a while (not every table's person leaving at once): a
        random point of a wait drawn in proportion to its length, which for
        a log-uniform wait is a uniform one."""
        return rng.random() * rng.uniform(self.answer_min / self.scale, self.late * decision_s)

    def describe(self) -> str:
        lo, hi = self.decision
        return (f"time runs {self.scale:g} times faster (a real hour is {HOUR_S / self.scale:g} s here): decisions "
                f"of {lo / HOUR_S:g} to {hi / HOUR_S:g} h ({lo / self.scale:g} to {hi / self.scale:g} s here), "
                f"log-uniform; the person comes back after {self.answer_min / 60:g} min to {self.late:g} decision "
                f"times, log-uniform")


async def setup(site: Site, n: int, rng: random.Random, load: Load,
                nursery: trio.Nursery, port: int) -> list[dict[str, Any]]:
    """Create n tables, seat every account at each, follow none: SETUP_CHUNK
    tables at a time, then every connection is closed and opened again."""
    tables: list[dict[str, Any]] = [{} for _ in range(n)]
    limiter = trio.CapacityLimiter(IN_FLIGHT * CONNS_PER_ACCOUNT)

    async def one(i: int) -> None:
        async with limiter:
            prompt_ms = int(load.decision_s(rng) * 1000)
            timers = {"prompt_ms": prompt_ms, "window_ms": prompt_ms, "bank_ms": 0, "bank_refill_ms": 0,
                      "zero_wait": False, "away_after": 100, "turn_based": True}
            made = await site.conn(0, i).request({"t": "create_table", "seats": 4, "timers": timers,
                                                  "public": False})
            assert made["t"] == "ok", made
            table = tables[i] = {"id": made["table"], "tokens": {}, "prompt_s": prompt_ms / 1000, "last": 0.0,
                                 "pivot": 0}
            for a in range(ACCOUNTS):
                conn = site.conn(a, i)
                joined = await conn.request({"t": "join", "table": table["id"], "name": f"p{a}"})
                assert joined["t"] == "ok", joined
                table["tokens"][a] = (joined["seat"], joined["token"])
            table["last"] = time.monotonic()

    for first in range(0, n, SETUP_CHUNK):
        async with trio.open_nursery() as chunk:
            for i in range(first, min(n, first + SETUP_CHUNK)):
                chunk.start_soon(one, i)
        await site.close()
        await site.connect(nursery, port, first=False)
    return tables


def pick(prompt: dict[str, Any] | None, seat: int, rng: random.Random) -> dict[str, Any] | None:
    if not prompt or prompt.get("pivot") != seat:
        return None
    options = [c for c in prompt.get("legal", []) if c["type"] in ("Announce", "Pass", "Claim", "Support", "Join",
                                                                   "Choose")]
    return rng.choice(options) if options else None


async def look(site: Site, i: int, table: dict[str, Any], tally: Tally, rng: random.Random,
               asleep_after: float) -> None:
    """The pivot's account comes back: resume, answer if asked, stop following."""
    account = table["pivot"]
    seat, token = table["tokens"][account]
    conn = site.conn(account, i)
    idle = time.monotonic() - table["last"]
    conn.frames.pop(table["id"], None)
    sent = time.perf_counter()
    resumed = await conn.request({"t": "resume", "table": table["id"], "token": token, "views": True})
    took = (time.perf_counter() - sent) * 1000
    tally.looks += 1
    if resumed["t"] != "ok":
        tally.errors[resumed.get("code", "?")] = tally.errors.get(resumed.get("code", "?"), 0) + 1
        return
    if idle > asleep_after:
        tally.wake_ms.append(took)
    with trio.move_on_after(5):
        while not any(f.get("t") == "snapshot" for f in conn.frames.get(table["id"], [])):
            await trio.sleep(0.01)
    snap = next((f for f in conn.frames.get(table["id"], []) if f.get("t") == "snapshot"), None)
    prompt = snap.get("prompt") if snap else None
    if prompt and prompt.get("pivot") is not None:
        pivot_seat = prompt["pivot"]
        table["pivot"] = next((a for a, (s, _) in table["tokens"].items() if s == pivot_seat), account)
    cmd = pick(prompt, seat, rng)
    if cmd is not None:
        answer = await conn.request({"t": "act", "table": table["id"], "cmd": cmd})
        if answer["t"] == "ok":
            tally.answers += 1
    await conn.request({"t": "unsubscribe", "table": table["id"]})
    table["last"] = time.monotonic()


async def play(site: Site, tables: list[dict[str, Any]], seconds: float, tally: Tally, rng: random.Random,
               asleep_after: float, stop: trio.Event, load: Load) -> None:
    async def driver(i: int, table: dict[str, Any]) -> None:
        # The play begins (and begins again after the restart) on a site that has run for a while.
        wait = load.first_wait_s(rng, table["prompt_s"])
        while not stop.is_set():
            with trio.move_on_after(wait):
                await stop.wait()
            if stop.is_set():
                return
            with contextlib.suppress(ConnectionClosed, RuntimeError, trio.BrokenResourceError,
                                     trio.ClosedResourceError):  # the server killed mid-request
                await look(site, i, table, tally, rng, asleep_after)
            wait = load.wait_s(rng, table["prompt_s"])

    async with trio.open_nursery() as nursery:
        for i, table in enumerate(tables):
            nursery.start_soon(driver, i, table)
        with trio.move_on_after(seconds):
            await stop.wait()
        stop.set()


async def lost_events(site: Site, tables: list[dict[str, Any]]) -> tuple[int, int, int]:
    """Events the clients saw that the restarted server's log lacks: each
    table is read again from the start and compared (seq, type)."""
    lost = checked = unchecked = 0
    # Each look wakes a table: few at once, over every connection, so that no
    # connection's reader on the server waits long enough behind them to miss
    # its keepalive pongs.
    limiter = trio.CapacityLimiter(CHECK_IN_FLIGHT)
    seen_all: dict[str, dict[int, str]] = {}
    for row in site.conns:
        for conn in row:
            for table_id, seen in conn.seen.items():
                seen_all.setdefault(table_id, {}).update(seen)

    async def one(i: int, table: dict[str, Any]) -> None:
        nonlocal lost, checked, unchecked
        async with limiter:
            # A connection the server closed (its keepalive, under this load)
            # is passed over; a table whose look is cut off counts unchecked.
            conns = [c for row in site.conns for c in row if not c.closed]
            if not conns:
                unchecked += 1
                return
            conn = conns[i % len(conns)]
            conn.frames.pop(table["id"], None)
            try:
                await conn.request({"t": "spectate", "table": table["id"], "after": 0})
            except (ConnectionClosed, RuntimeError, trio.BrokenResourceError, trio.ClosedResourceError):
                unchecked += 1
                return
            with trio.move_on_after(30):
                while not any(f.get("t") == "snapshot" for f in conn.frames.get(table["id"], [])):
                    await trio.sleep(0.01)
            now: dict[int, str] = {}
            for f in conn.frames.get(table["id"], []):
                for e in f.get("events", ()):
                    if "seq" in e:
                        now[e["seq"]] = e["type"]
            with contextlib.suppress(ConnectionClosed, RuntimeError, trio.BrokenResourceError,
                                     trio.ClosedResourceError):
                await conn.request({"t": "unsubscribe", "table": table["id"]})
            if not any(f.get("t") == "snapshot" for f in conn.frames.get(table["id"], [])):
                unchecked += 1
                return
            for seq, kind in seen_all.get(table["id"], {}).items():
                checked += 1
                if now.get(seq) != kind:
                    lost += 1

    async with trio.open_nursery() as nursery:
        for i, table in enumerate(tables):
            nursery.start_soon(one, i, table)
    return lost, checked, unchecked


async def awake(metrics_port: int) -> int:
    """Open or running tables in the server's memory."""
    m = await metrics(metrics_port)
    return int(m.get('oriente_tables{status="open"}', 0) + m.get('oriente_tables{status="running"}', 0))


async def until_asleep(metrics_port: int, n: int, timeout: float = 180.0) -> int:
    """Wait until (almost) no unfinished table is in memory: those due
    within the horizon stay awake. How many were awake at the end."""
    with trio.move_on_after(timeout):
        while await awake(metrics_port) > n // 1000:
            await trio.sleep(1)
    return await awake(metrics_port)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    n = args.tables
    tmp = tempfile.mkdtemp(prefix="oriente-sleep-")
    store = os.path.join(tmp, "store.sqlite")
    log_path = os.path.join(tmp, "server.log")
    flags = ["--tables-per-connection", str(n), "--tables-per-address", str(n), "--max-tables", str(n + 1000),
             "--max-turn-tables", str(n + 1000), "--sleep-horizon", str(args.horizon)]
    print(f"the bench's own clients take {n} tables each: per-connection and per-address table limits raised "
          f"by flags ({' '.join(flags[:4])}); {' '.join(flags[4:])}", flush=True)
    load = Load(args)
    print(load.describe(), flush=True)
    figures: dict[str, Any] = {"tables": n, "horizon_s": args.horizon, "scale": args.scale,
                               "decision_h": [args.decision_min_h, args.decision_max_h],
                               "answer_after": [f"{args.answer_min_min:g} min", f"{LATE:g} decisions"]}
    load0 = os.getloadavg()
    try:
        empty = Server(os.path.join(tmp, "empty.sqlite"), flags, log_path)
        await trio.sleep(3)
        rss_empty = rss_kib(empty.pid)
        empty.stop()
        server = Server(store, flags, log_path)
        site = Site()
        tally = Tally()
        asleep_after = args.horizon + min(30.0, args.horizon) + 2.0
        async with trio.open_nursery() as nursery:
            await site.connect(nursery, server.port, first=True)
            started = time.monotonic()
            tables = await setup(site, n, rng, load, nursery, server.port)
            figures["setup_s"] = round(time.monotonic() - started, 1)
            lag = Lag()
            nursery.start_soon(lag.run)
            lag.on = True
            print(f"setup: {n} tables in {figures['setup_s']} s", flush=True)
            # Play, with a SIGKILL and a restart in the middle.
            stop = trio.Event()
            nursery.start_soon(play, site, tables, args.play / 2, tally, rng, asleep_after, stop, load)
            with trio.move_on_after(args.play / 2 + 5):
                await stop.wait()
            m = await metrics(server.metrics_port)
            half = len(tally.wake_ms)
            lag.on = False
            figures["wake_steps_ms_before_kill"] = wake_steps(m)
            figures["server_lag_ms_before_kill"] = loop_lag(m)
            server.stop(signal.SIGKILL)
            await site.close()
            late_before = m
            server = Server(store, flags, log_path)
            await site.connect(nursery, server.port, first=False)
            stop2 = trio.Event()
            lag.on = True
            nursery.start_soon(play, site, tables, args.play / 2, tally, rng, asleep_after, stop2, load)
            with trio.move_on_after(args.play / 2 + 5):
                await stop2.wait()
            m2 = await metrics(server.metrics_port)
            figures["wake_steps_ms_after_restart"] = wake_steps(m2)
            figures["server_lag_ms_after_restart"] = loop_lag(m2)
            figures["bench_lag_ms"] = lag.figures()
            lag.on = False
            lost, checked, unchecked = await lost_events(site, tables)
            figures["lost_events"] = lost
            figures["events_checked"] = checked
            figures["tables_unchecked"] = unchecked
            nursery.cancel_scope.cancel()
        late = [v for v in (late_before.get('oriente_turn_deadline_late_seconds{quantile="0.99"}'),
                            m2.get('oriente_turn_deadline_late_seconds{quantile="0.99"}')) if v is not None]
        figures["deadline_late_p99_ms"] = round(max(late) * 1000, 1) if late else None
        figures["deadlines_applied"] = int(late_before.get("oriente_turn_deadline_late_seconds_count", 0)
                                           + m2.get("oriente_turn_deadline_late_seconds_count", 0))
        figures["wakes_due"] = int(late_before.get("oriente_turn_wakes_total", 0)
                                   + m2.get("oriente_turn_wakes_total", 0))
        p99 = percentile(tally.wake_ms, 0.99)
        figures["wake_p99_ms"] = round(p99, 1) if p99 is not None else None
        figures["wake_p50_ms"] = round(percentile(tally.wake_ms, 0.5) or 0, 1)
        figures["wakes_measured"] = len(tally.wake_ms)
        figures["wake_p99_ms_halves"] = [round(percentile(part, 0.99) or 0.0, 1)
                                         for part in (tally.wake_ms[:half], tally.wake_ms[half:])]
        figures["looks"], figures["answers"], figures["refused"] = tally.looks, tally.answers, tally.errors
        figures["looks_per_s"] = round(tally.looks / args.play, 1)
        figures["deadlines_per_s"] = round(figures["deadlines_applied"] / args.play, 2)
        # Memory: every table asleep again (the check above woke them all),
        # then a server started on the store, once the tables it found due
        # are asleep again too.
        figures["awake_at_stop"] = await until_asleep(server.metrics_port, n)
        figures["sleeping_at_stop"] = int((await metrics(server.metrics_port)).get("oriente_tables_sleeping", 0))
        server.stop()
        full = Server(store, flags, log_path)
        await trio.sleep(3)
        figures["awake_at_rss"] = await until_asleep(full.metrics_port, n)
        rss_full = rss_kib(full.pid)
        full.stop()
        figures["rss_measured"] = "a server started on the store, every table asleep again"
        figures["rss_empty_kib"], figures["rss_full_kib"] = rss_empty, rss_full
        figures["rss_per_sleeping_table_kib"] = round((rss_full - rss_empty) / n, 3)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    if args.keep:
        figures["kept"] = tmp
    figures["load_before"], figures["load_after"] = [round(x, 2) for x in load0], [round(x, 2) for x in os.getloadavg()]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10,000 tables, about 4 minutes of play")
    parser.add_argument("--tables", type=int, default=None, help="tables (default 100,000; --quick 10,000)")
    parser.add_argument("--play", type=float, default=None, help="seconds of play (default 600; --quick 240)")
    parser.add_argument("--horizon", type=float, default=3.0, help="the server's --sleep-horizon (default 3 s)")
    parser.add_argument("--scale", type=float, default=30.0,
                        help="how many times faster than a real site's the bench's clock runs (default 30)")
    parser.add_argument("--decision-min-h", type=float, default=1.0, help="a decision's shortest time, real hours")
    parser.add_argument("--decision-max-h", type=float, default=24.0, help="a decision's longest time, real hours")
    parser.add_argument("--answer-min-min", type=float, default=5.0,
                        help="the soonest a person comes back, real minutes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temporary store and the server's log")
    args = parser.parse_args()
    args.tables = args.tables or (10_000 if args.quick else 100_000)
    args.play = args.play or (240.0 if args.quick else 600.0)
    figures = trio.run(run, args)
    if args.keep:
        print(f"kept: {figures.pop('kept')}")
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
