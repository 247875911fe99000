"""Server benchmark: the whole table server over real sockets (docs/benchmarks.md).

The server runs in its own process (bench/_server_main.py) with its real
SQLite store in a fresh temporary directory; every bot lives in this process,
one trio program holding all bot connections; loopback only.

Phases, in one run:

1. Throughput: T tables (default 50) of 6 bots on zero-wait tables, bots
   answering at once (closed loop), for a fixed time. A bot answers only the
   decision waiting on its own seat, once per (decision, pivot), with the
   shared random policy (pass with probability 1/2 where passing is legal,
   otherwise a uniform pick among the other legal decision commands; no
   deals, no chat); windows close by the table's clock. When a game ends its
   bots create and join a new table, so the load stays constant.
   `frames_per_s` counts the websocket messages the server sends (its
   /metrics counter `oriente_frames_out_total`, read over HTTP before and
   after, on the server's metrics port); `games_per_s` the tables that finished meanwhile (same endpoint).
1b. Retention: a fresh server, the throughput phase's tables played in
   three rounds of half a phase each; at the end of a round every table
   plays its game to the end, every connection closes, and the server
   settles (on SIGHUP bench/_server_main.py runs a full collection and
   malloc_trim) before its VmRSS is read. The first two rounds warm up
   what the process makes once and keeps (caches, allocator arenas,
   SQLite's page cache filling to its bound); `rss_per_finished_table_kib`
   is the last round's RSS growth over the games it finished.
   `rss_growth_per_finished_table_kib` is the older figure: RSS growth
   during the throughput phase over its finished games, which counts the
   allocator's high-water mark and the caches filling, not retention.
2. Baseline: bench/_baseline_server.py, a minimal websockets.trio server in
   its own process that answers every message it receives with one frame of
   the measured mean size to each of the 6 connections of that table; the
   same bot process shape (same tables, connections, one message in flight
   per table, bots decode every frame and the bot whose turn it is answers
   with a message of the mean command size) drives it for the same time.
   `ratio` = frames_per_s / baseline_frames_per_s. Both servers run without
   compression.
3. Latency and memory: a fresh server, 50 tables (`tables`) paced so that the
   server runs at about half of the throughput measured in phase 1 (a table's
   next command waits until its period has passed; the period is corrected
   once after the warm-up from the frames the server actually sends).
   Latency is the time from a bot sending a command to the last seat of its
   table receiving the frame with the resulting events. Memory is the
   server's VmRSS before any table exists and at the paced load, divided by
   tables and by connections, less what the tables that finished meanwhile
   keep (phase 1b's figure).
4. Paced baseline: the bare relay of phase 2, driven by the same 50 tables
   at the frame rate the paced phase achieved (a message per table every
   tables x 6 / frames_per_s seconds, jittered alike); its p99 from a
   message sent to the last connection receiving the relayed frame is
   `baseline_p99_ms`, the floor that this machine, at this hour, puts under
   `p99_ms`.
5. With `--same-load`: the bare relay paced at the same share of its own
   throughput (phase 2) as the paced phase's share of the server's (about
   half). A tail is mostly queueing on one busy thread, and at an equal
   frame rate the relay's thread is far less busy; this compares the two
   at an equal load: `baseline_same_load_p99_ms` and `p99_ratio_same_load`.

The bots speak websocket through bench/_wsclient.py, a lean client that
costs the bot process far less per frame than the servers under test; with
`--client websockets` they use the websockets.trio client instead. Also
reported, to read figures taken on a busy machine: CPU of each process per
phase, server CPU per frame sent for both servers (their quotient is
`cpu_ratio`), and the server's garbage collector pauses.

    python bench/server.py              # about 6 minutes (each round prints its phases' times)
    python bench/server.py --quick      # about 20 seconds
    python bench/server.py --profile    # also cProfile the server in phase 1
    python bench/server.py --latency-only --seconds 10   # phases 1, 3 and 4 only, for work on the latency
    python bench/server.py --latency-only --pace 6000    # the paced phase at 6,000 frames/s: two trees
        # compared at one pace (the measured throughput, which sets it otherwise, moves between runs)
    python bench/server.py --accounts    # every bot signed in with an account of its own, as people at a
        # site are: their tables also keep the index of seats by account (store/seat_index)
    ORIENTE_BENCH_LOOP_TRACE=trace python bench/server.py --latency-only   # and trace.PID: each server's
        # run loop, pass by pass (bench/_server_main.py, LoopTrace)

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import io
import json
import math
import os
import platform
import pstats
import random
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _server_main
import _wsclient
import msgspec
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect
from websockets.typing import Subprotocol

from oriente.games.oriente.rules.commands import DECISION_COMMANDS
from oriente.protocol.messages import SUBPROTOCOL

HERE = os.path.dirname(os.path.abspath(__file__))
HOST = "127.0.0.1"
SEATS = 6
BOT_TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": True, "away_after": 3}
DECISION_TYPES = frozenset(c.__name__ for c in DECISION_COMMANDS)
PASS = "Pass"
PACED_FRACTION = 0.5
TARGET_RATIO = 0.6
# The one-process goals (docs/benchmarks.md): the paced p99 within 1.5x the
# bare relay's at the same frame rate, server CPU per frame, memory per live
# table with its six connections and per finished table, and no GC pause
# longer than this while tables play.
TARGET_P99_RATIO = 1.5
TARGET_US_PER_FRAME = 70.0
TARGET_TABLE_KIB = 200.0
TARGET_FINISHED_KIB = 5.0
TARGET_GC_MS = 5.0
# --accounts: every bot signs in with a bot account of its own before it joins (`seed_accounts`),
# enough of them for this many tables.
SIGNED_IN = False
ACCOUNT_GROUPS = 0
GAME_GUARD_S = 120.0  # a game that has not ended by then is abandoned by its bots
CLOSE_GRACE_S = 10.0
MIN_FINISHED_FOR_RSS = 10  # for the bots' close handshakes at the end of a phase
RETENTION_ROUNDS = 3  # two to warm up, the last measured

_encoder = msgspec.msgpack.Encoder()


# -- what a bot reads of a frame -----------------------------------------------------

class _Event(msgspec.Struct):
    type: str = ""
    seq: int = 0


class _Prompt(msgspec.Struct):
    id: int = 0
    pivot: int | None = None
    legal: list[Any] | None = None


class _Frame(msgspec.Struct):
    t: str
    re: int | str | None = None
    table: str | None = None
    seat: int | None = None
    seq: int = 0
    code: str | None = None
    events: list[_Event] | None = None
    prompt: _Prompt | None = None
    history: bool = False


class _BaselineFrame(msgspec.Struct):
    t: str
    turn: int = -1


_frame_decoder = msgspec.msgpack.Decoder(_Frame)
_baseline_decoder = msgspec.msgpack.Decoder(_BaselineFrame)


# -- child processes --------------------------------------------------------------------

def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """Linux: the child gets SIGTERM if this process dies without cleaning up."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Child:
    """A server process that prints its port on stdout once it listens, and
    after it the port of its /metrics if that is another (the Oriente
    server serves them on an operator's port of their own). Every server
    starts from bytecode, as a deployed one does (`_server_main.compile_once`)."""

    live: ClassVar[list[Child]] = []

    def __init__(self, name: str, argv: list[str], log_path: str, env: dict[str, str] | None = None,
                 start_timeout: float = 30.0) -> None:
        _server_main.compile_once()
        self.name = name
        self.log_path = log_path
        self._log = open(log_path, "wb")  # noqa: SIM115 -- the child writes to it until stop() closes it
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._log, stdin=subprocess.DEVNULL,
                                     env=env, preexec_fn=_die_with_parent, cwd=HERE)
        Child.live.append(self)
        self.pid = self.proc.pid
        self.port, self.metrics_port = self._read_ports(start_timeout)

    def _read_ports(self, timeout: float) -> tuple[int, int]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else b""
        try:
            ports = [int(word) for word in line.split()]
            return ports[0], ports[-1]
        except (ValueError, IndexError):
            self.stop()
            raise RuntimeError(f"{self.name} did not start; its log:\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 30) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (graceful shutdown), then SIGKILL if it does not exit in time."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self in Child.live:
            Child.live.remove(self)
        self._log.close()
        return self.proc.returncode

    @classmethod
    def stop_all(cls) -> None:
        for child in list(cls.live):
            child.stop(timeout=5.0)


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None = None) -> float:
    """User plus system CPU time of a process (all its threads)."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def thread_cpu_seconds(pid: int) -> float:
    """CPU time of a process's threads other than its main thread (for the
    server: the SQLite writer and reader threads, trio's thread cache)."""
    total = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        if int(tid) == pid:
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / _TICK
    return total


async def http_get(port: int, path: str) -> str:
    """A plain HTTP/1.1 GET on the server's own port."""
    with trio.fail_after(10):
        stream = await trio.open_tcp_stream(HOST, port)
        async with stream:
            await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                                  "Connection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = await stream.receive_some(65536)
                if not chunk:
                    break
                data += chunk
                head, sep, body = data.partition(b"\r\n\r\n")
                if sep:
                    m = re.search(rb"(?im)^content-length:\s*(\d+)", head)
                    if m and len(body) >= int(m.group(1)):
                        break
    head, _, body = data.partition(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"GET {path}: {head[:80]!r}")
    return body.decode()


async def metrics(port: int, path: str = "/metrics") -> dict[str, float]:
    out: dict[str, float] = {}
    for line in (await http_get(port, path)).splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


# -- bot connections -----------------------------------------------------------------------

CLOSED = (ConnectionClosed, _wsclient.Closed)


@contextlib.asynccontextmanager
async def open_ws(client: str, port: int, path: str = "/", subprotocols: list[str] | None = None):  # type: ignore[no-untyped-def]
    """A websocket to the server under test: `send`, `recv`, closed on exit.
    "lean" is bench/_wsclient.py; "websockets" is the websockets.trio client."""
    if client == "lean":
        ws = await _wsclient.WebSocket.open(HOST, port, path, subprotocols)
        try:
            yield ws
        finally:
            with trio.CancelScope(shield=True):
                await ws.aclose()
    else:
        offered = None if subprotocols is None else [Subprotocol(p) for p in subprotocols]
        async with connect(f"ws://{HOST}:{port}{path}", subprotocols=offered, compression=None,
                           max_size=2 ** 20, open_timeout=60, ping_interval=None, close_timeout=2) as conn:
            yield conn


# -- bot side bookkeeping ---------------------------------------------------------------

@dataclass
class Tally:
    """Counters of the bot process; sampled at the start and end of a window."""

    frames: int = 0
    bytes_in: int = 0
    commands: int = 0
    command_bytes: int = 0
    games: int = 0
    closed: int = 0  # decision/closed answers: normal, the table moved on
    errors: Counter = field(default_factory=Counter)
    stuck: int = 0  # waited on with no decision command to send
    abandoned: int = 0
    recording: bool = False
    latencies: list[float] = field(default_factory=list)

    def snap(self) -> dict[str, int]:
        return {"frames": self.frames, "bytes_in": self.bytes_in, "commands": self.commands,
                "command_bytes": self.command_bytes, "games": self.games}


class Group:
    """The 6 bots of one table slot; they play game after game together."""

    def __init__(self, index: int, rng: random.Random, tally: Tally, period: float | None) -> None:
        self.index = index
        self.rng = rng
        self.tally = tally
        self.period = period  # seconds between a table's commands, or None: at once
        self.bots: list[Bot] = []
        self.table: str | None = None
        self.finished = 0
        self.game_over = trio.Event()
        self.last_game = False  # set: play the current game to its end, then stop
        self.next_send = 0.0
        # Commands whose resulting frame not every seat has received yet:
        # [sent at, last seq the sender had seen, mask of seats that got it, cid, sender].
        self.pending: list[list[Any]] = []
        self.full_mask = (1 << SEATS) - 1
        # Hooks for bench/crowd.py, which watches one table from outside it.
        self.on_new_table: Any = None  # (table id) -> None
        self.on_send: Any = None  # (sent at, last seq the sender had seen) -> None

    def new_table(self, table: str) -> None:
        self.table = table
        self.finished = 0
        self.game_over = trio.Event()
        self.pending.clear()
        for bot in self.bots:
            bot.reset()
        if self.on_new_table is not None:
            self.on_new_table(table)

    def received(self, index: int, seq: int, now: float) -> None:
        keep = []
        for entry in self.pending:
            if seq > entry[1] and not entry[2] >> index & 1:
                entry[2] |= 1 << index
                if entry[2] == self.full_mask:
                    if self.tally.recording:
                        self.tally.latencies.append(now - entry[0])
                    continue
            keep.append(entry)
        self.pending = keep

    def forget(self, sender: int, cid: Any) -> None:
        self.pending = [e for e in self.pending if not (e[4] == sender and e[3] == cid)]

    async def play(self) -> None:
        """Create a table, seat the 6 bots, play it to the end; again."""
        host = self.bots[0]
        while True:
            reply = await host.request({"t": "create_table", "seats": SEATS, "name": f"bench {self.index}",
                                        "seed": self.rng.getrandbits(63), "timers": BOT_TIMERS})
            if reply.t != "ok" or reply.table is None:
                raise RuntimeError(f"create_table refused: {reply.code}")
            self.new_table(reply.table)
            if self.period is not None and self.next_send == 0.0:
                # Spread the tables' phases over one period.
                self.next_send = time.perf_counter() + self.rng.uniform(0, self.period)
            async with trio.open_nursery() as nursery:
                for bot in self.bots:
                    nursery.start_soon(bot.join, reply.table)
            with trio.move_on_after(GAME_GUARD_S) as guard:
                await self.game_over.wait()
            if guard.cancelled_caught:
                self.tally.abandoned += 1
            if self.last_game:
                return


class Bot:
    def __init__(self, group: Group, index: int, client: str, port: int) -> None:
        self.group = group
        self.index = index
        self.client = client
        self.port = port
        self.scope = trio.CancelScope()
        self.ws: Any = None
        self.seat: int | None = None
        self.seen_seq = 0
        self.answered: set[tuple[int, int | None]] = set()
        self.cid = 0
        self.waiters: dict[Any, list[Any]] = {}
        self.signed_in = False

    def reset(self) -> None:
        self.seat = None
        self.seen_seq = 0
        self.answered.clear()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with open_ws(self.client, self.port, "/", [SUBPROTOCOL]) as ws:
            self.ws = ws
            welcome = _frame_decoder.decode(await ws.recv())
            if welcome.t != "welcome":
                raise RuntimeError(f"expected welcome, got {welcome.t}")
            task_status.started()
            with self.scope, contextlib.suppress(*CLOSED):
                await self.read()

    async def request(self, message: dict[str, Any]) -> _Frame:
        self.cid += 1
        cid = f"r{self.cid}"
        slot: list[Any] = [trio.Event(), None]
        self.waiters[cid] = slot
        await self.ws.send(_encoder.encode({**message, "id": cid}))
        await slot[0].wait()
        return slot[1]

    async def join(self, table: str) -> None:
        if SIGNED_IN and not self.signed_in:
            reply = await self.request({"t": "sign_in", "token": account_token(self.group.index, self.index)})
            if reply.t != "ok":
                raise RuntimeError(f"sign_in refused: {reply.code}")
            self.signed_in = True
        reply = await self.request({"t": "join", "table": table, "name": f"bot{self.index}"})
        if reply.t != "ok":
            raise RuntimeError(f"join refused: {reply.code}")

    async def read(self) -> None:
        group = self.group
        tally = group.tally
        ws = self.ws
        decode = _frame_decoder.decode
        clock = time.perf_counter
        while True:
            raw = await ws.recv()
            now = clock()
            tally.frames += 1
            tally.bytes_in += len(raw)
            f = decode(raw)
            t = f.t
            if t == "events":
                if f.table != group.table or f.history:
                    continue
                events = f.events
                if events:
                    seq = events[-1].seq
                    self.seen_seq = seq
                    if group.pending:
                        group.received(self.index, seq, now)
                    if events[-1].type == "TableFinished":
                        group.finished += 1
                        if group.finished == SEATS:
                            tally.games += 1
                            group.game_over.set()
                        continue
                if f.prompt is not None:
                    await self.maybe_act(f.prompt)
            elif t == "snapshot":
                if f.table == group.table:
                    self.seen_seq = max(self.seen_seq, f.seq)
                    if f.prompt is not None:
                        await self.maybe_act(f.prompt)
            elif t == "ok" or t == "error":
                if t == "ok" and f.seat is not None and f.table == group.table:
                    self.seat = f.seat  # the join: before its snapshot is read
                waiter = self.waiters.pop(f.re, None)
                if waiter is not None:
                    waiter[1] = f
                    waiter[0].set()
                elif t == "error":
                    group.forget(self.index, f.re)
                    if f.code == "decision/closed":
                        tally.closed += 1
                    else:
                        tally.errors[f.code] += 1
            elif t == "goodbye":
                return

    async def maybe_act(self, p: _Prompt) -> None:
        if p.pivot is None or p.pivot != self.seat or not p.legal:
            return
        key = (p.id, p.pivot)
        if key in self.answered:
            return
        self.answered.add(key)
        group = self.group
        rng = group.rng
        passes = []
        others = []
        for c in p.legal:
            kind = c.get("type")
            if kind == PASS:
                passes.append(c)
            elif kind in DECISION_TYPES:
                others.append(c)
        if passes and (not others or rng.random() < 0.5):
            cmd = passes[0]
        elif others:
            cmd = others[rng.randrange(len(others))]
        else:
            group.tally.stuck += 1
            return
        if group.period is not None:
            delay = group.next_send - time.perf_counter()
            if delay > 0:
                await trio.sleep(delay)
            group.next_send = max(group.next_send, time.perf_counter() - group.period) \
                + group.period * rng.uniform(0.5, 1.5)
        table = group.table
        self.cid += 1
        frame = _encoder.encode({"t": "act", "id": self.cid, "table": table, "cmd": cmd})
        sent = time.perf_counter()
        group.pending.append([sent, self.seen_seq, 0, self.cid, self.index])
        if group.on_send is not None:
            group.on_send(sent, self.seen_seq)
        await self.ws.send(frame)
        tally = group.tally
        tally.commands += 1
        tally.command_bytes += len(frame)


async def open_bots(nursery: trio.Nursery, client: str, port: int, tables: int, rng: random.Random,
                    tally: Tally, period: float | None) -> list[Group]:
    groups = [Group(i, random.Random(rng.getrandbits(64)), tally, period) for i in range(tables)]
    limiter = trio.CapacityLimiter(32)

    async def open_one(bot: Bot) -> None:
        async with limiter:
            await nursery.start(bot.run)

    async with trio.open_nursery() as opening:
        for g in groups:
            g.bots = [Bot(g, i, client, port) for i in range(SEATS)]
            for bot in g.bots:
                opening.start_soon(open_one, bot)
    freeze_bots()
    return groups


def freeze_bots() -> None:
    """Once the bots' connections are open: what this process holds for
    good (the connections, trio's and the bots' objects) leaves the cyclic
    collector's reach (gc.freeze), as the server does with its own. Left in
    it, a collection of the oldest generation stopped every bot for 85 ms
    in the middle of a measured phase: every command in flight looked 85 ms
    slower, and the commands held meanwhile then reached the server at
    once. What an earlier phase froze is released first.

    The automatic collector is then off until the next phase's call: the
    bots still made some cyclic garbage as they played, and a collection
    of the middle or oldest generation paused them all for 2-50 ms (ten
    pauses over 2 ms and one of 50 ms in one paced phase and its relay
    phase, 12 s each), which the latency measured counted against the
    server under test. Each phase starts with a full collection."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.disable()


def close_bots(groups: list[Group]) -> None:
    """Stop every bot's reader: each connection then closes itself."""
    for g in groups:
        for bot in g.bots:
            bot.scope.cancel()


# -- phase 1: throughput ----------------------------------------------------------------------

@dataclass
class Window:
    seconds: float
    server: dict[str, float]
    bots: dict[str, int]
    server_cpu: float
    server_threads_cpu: float
    bot_cpu: float


async def measure_window(port: int, pid: int, tally: Tally, seconds: float,
                         metrics_path: str = "/metrics", during: Any = None) -> Window:
    """`port`: where the server serves its metrics."""
    m0 = await metrics(port, metrics_path)
    b0, t0 = tally.snap(), time.perf_counter()
    s0, h0, c0 = cpu_seconds(pid), thread_cpu_seconds(pid), cpu_seconds()
    tally.recording = True
    if during is None:
        await trio.sleep(seconds)
    else:
        await during(seconds)
    tally.recording = False
    m1 = await metrics(port, metrics_path)
    b1, t1 = tally.snap(), time.perf_counter()
    s1, h1, c1 = cpu_seconds(pid), thread_cpu_seconds(pid), cpu_seconds()
    return Window(seconds=t1 - t0, server={k: m1[k] - m0.get(k, 0.0) for k in m1},
                  bots={k: b1[k] - b0[k] for k in b1}, server_cpu=s1 - s0, server_threads_cpu=h1 - h0,
                  bot_cpu=c1 - c0)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    k = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[k]


async def throughput_phase(server: Child, client: str, tables: int, seconds: float, warmup: float,
                           rng: random.Random) -> dict[str, Any]:
    tally = Tally()
    async with trio.open_nursery() as nursery:
        groups = await open_bots(nursery, client, server.port, tables, rng, tally, None)
        async with trio.open_nursery() as play:
            for g in groups:
                play.start_soon(g.play)
            await trio.sleep(warmup)
            rss0 = rss_kib(server.pid)
            w = await measure_window(server.metrics_port, server.pid, tally, seconds)
            rss1 = rss_kib(server.pid)
            play.cancel_scope.cancel()
        close_bots(groups)
        nursery.cancel_scope.deadline = trio.current_time() + CLOSE_GRACE_S
    frames_out = w.server["oriente_frames_out_total"]
    finished = w.server.get('oriente_tables_finished_total', 0.0)
    # At a constant number of live tables, RSS grows with the finished tables
    # the server keeps (too few finished: no estimate).
    kept_kib = (rss1 - rss0) / finished if finished >= MIN_FINISHED_FOR_RSS else None
    lat = sorted(tally.latencies)
    return {
        "tables": tables,
        "seconds": round(w.seconds, 3),
        "frames_per_s": frames_out / w.seconds,
        "games_per_s": finished / w.seconds,
        "commands_per_s": w.bots["commands"] / w.seconds,
        "frames_in_per_s": w.server["oriente_frames_in_total"] / w.seconds,
        "bot_frames_per_s": w.bots["frames"] / w.seconds,
        "mean_frame_bytes": w.bots["bytes_in"] / w.bots["frames"] if w.bots["frames"] else 0.0,
        "mean_command_bytes": w.bots["command_bytes"] / w.bots["commands"] if w.bots["commands"] else 0.0,
        "frames_per_command": frames_out / w.bots["commands"] if w.bots["commands"] else 0.0,
        "server_cpu": w.server_cpu / w.seconds,
        "server_threads_cpu": w.server_threads_cpu / w.seconds,
        "bot_cpu": w.bot_cpu / w.seconds,
        "saturated_p50_ms": percentile(lat, 0.5) * 1000,
        "saturated_p99_ms": percentile(lat, 0.99) * 1000,
        "closed": tally.closed,
        "errors": dict(tally.errors),
        "stuck": tally.stuck,
        "abandoned": tally.abandoned,
        "evictions": w.server.get("oriente_evictions_total", 0.0),
        "rss_growth_kib": rss1 - rss0,
        "rss_growth_per_finished_table_kib": kept_kib,
    }


# -- phase 1b: what a finished table keeps ---------------------------------------------------

def settle(server: Child, timeout: float = 30.0) -> int:
    """The server's VmRSS once it has run a full collection and returned
    free heap to the system (bench/_server_main.py does both on SIGHUP)."""
    marker = server.log_path + ".settled"
    with contextlib.suppress(FileNotFoundError):
        os.remove(marker)
    os.kill(server.pid, signal.SIGHUP)
    end = time.perf_counter() + timeout
    while not os.path.exists(marker):
        if time.perf_counter() > end:
            raise RuntimeError(f"{server.name} did not settle; its log:\n{server.log_tail()}")
        time.sleep(0.05)
    return rss_kib(server.pid)


async def retention_phase(server: Child, client: str, tables: int, seconds: float,
                          rng: random.Random) -> dict[str, Any]:
    """Rounds of equal play: open the tables' bots, play `seconds`, let
    every table finish its game, close every connection, settle (a full
    collection, malloc_trim), read RSS. The first two rounds pay what the
    process makes once and keeps (caches, the allocator's arenas, SQLite's
    page cache filling to its bound as the store grows); the last round's
    RSS minus the one before, over the games it finished, is what a
    finished table leaves behind."""
    rss: list[int] = []
    finished: list[float] = []
    abandoned = 0
    for _ in range(RETENTION_ROUNDS):
        tally = Tally()
        async with trio.open_nursery() as nursery:
            groups = await open_bots(nursery, client, server.port, tables, rng, tally, None)
            async with trio.open_nursery() as play:
                for g in groups:
                    play.start_soon(g.play)
                await trio.sleep(seconds)
                for g in groups:
                    g.last_game = True
            close_bots(groups)
            nursery.cancel_scope.deadline = trio.current_time() + CLOSE_GRACE_S
        abandoned += tally.abandoned
        with trio.move_on_after(CLOSE_GRACE_S):
            while (await metrics(server.metrics_port)).get("oriente_connections_open", 0.0) > 0:
                await trio.sleep(0.1)
        await trio.sleep(1.0)
        m = await metrics(server.metrics_port)
        finished.append(m.get("oriente_tables_finished_total", 0.0))
        rss.append(settle(server))
    games = finished[-1] - finished[-2]
    return {
        "retained_rss_kib": rss,
        "retained_games": games,
        "retained_abandoned": abandoned,
        "rss_per_finished_table_kib": (rss[-1] - rss[-2]) / games if games >= MIN_FINISHED_FOR_RSS else None,
    }


# -- phase 2: baseline ---------------------------------------------------------------------

async def baseline_phase(server: Child, client: str, tables: int, seconds: float, warmup: float,
                         command_bytes: int) -> dict[str, Any]:
    tally = Tally()
    pad = max(0, command_bytes - len(_encoder.encode({"t": "act", "pad": b""})))
    reply = _encoder.encode({"t": "act", "pad": b"x" * pad})

    scopes: list[trio.CancelScope] = []

    async def bot(table: int, seat: int, task_status: trio.TaskStatus[None]) -> None:
        async with open_ws(client, server.port, f"/{table}/{seat}") as ws:
            scope = trio.CancelScope()
            scopes.append(scope)
            task_status.started()
            decode = _baseline_decoder.decode
            with scope, contextlib.suppress(*CLOSED):
                while True:
                    raw = await ws.recv()
                    tally.frames += 1
                    tally.bytes_in += len(raw)
                    if decode(raw).turn == seat:
                        await ws.send(reply)
                        tally.commands += 1
                        tally.command_bytes += len(reply)

    async with trio.open_nursery() as nursery:
        limiter = trio.CapacityLimiter(32)

        async def open_one(table: int, seat: int) -> None:
            async with limiter:
                await nursery.start(bot, table, seat)

        async with trio.open_nursery() as opening:
            for t in range(tables):
                for s in range(SEATS):
                    opening.start_soon(open_one, t, s)
        freeze_bots()
        await trio.sleep(warmup)
        w = await measure_window(server.metrics_port, server.pid, tally, seconds)
        for scope in scopes:
            scope.cancel()
        nursery.cancel_scope.deadline = trio.current_time() + CLOSE_GRACE_S
    frames_out = w.server["baseline_frames_out_total"]
    return {
        "seconds": round(w.seconds, 3),
        "frames_per_s": frames_out / w.seconds,
        "frames_in_per_s": w.server["baseline_frames_in_total"] / w.seconds,
        "bot_frames_per_s": w.bots["frames"] / w.seconds,
        "mean_frame_bytes": w.bots["bytes_in"] / w.bots["frames"] if w.bots["frames"] else 0.0,
        "mean_command_bytes": len(reply),
        "server_cpu": w.server_cpu / w.seconds,
        "bot_cpu": w.bot_cpu / w.seconds,
    }


async def baseline_paced_phase(server: Child, client: str, tables: int, seconds: float, warmup: float,
                               period: float, command_bytes: int, rng: random.Random) -> dict[str, Any]:
    """The bare relay at a paced rate: each table's answering bot waits until
    its table's period has passed (jittered like the paced phase's bots),
    then sends; the latency is from that send to the last of the table's
    connections receiving the relayed frame."""
    tally = Tally()
    pad = max(0, command_bytes - len(_encoder.encode({"t": "act", "pad": b""})))
    reply = _encoder.encode({"t": "act", "pad": b"x" * pad})
    full = (1 << SEATS) - 1
    # Per table: [sent at (0: nothing in flight), mask of seats that got the frame, next send]
    state: list[list[Any]] = [[0.0, 0, time.perf_counter() + rng.uniform(0, period)] for _ in range(tables)]
    jitter = random.Random(rng.getrandbits(64))
    scopes: list[trio.CancelScope] = []

    async def bot(table: int, seat: int, task_status: trio.TaskStatus[None]) -> None:
        async with open_ws(client, server.port, f"/{table}/{seat}") as ws:
            scope = trio.CancelScope()
            scopes.append(scope)
            task_status.started()
            decode = _baseline_decoder.decode
            st = state[table]
            with scope, contextlib.suppress(*CLOSED):
                while True:
                    raw = await ws.recv()
                    now = time.perf_counter()
                    tally.frames += 1
                    tally.bytes_in += len(raw)
                    if st[0]:
                        st[1] |= 1 << seat
                        if st[1] == full:
                            if tally.recording:
                                tally.latencies.append(now - st[0])
                            st[0], st[1] = 0.0, 0
                    if decode(raw).turn == seat:
                        delay = st[2] - time.perf_counter()
                        if delay > 0:
                            await trio.sleep(delay)
                        st[2] = max(st[2], time.perf_counter() - period) + period * jitter.uniform(0.5, 1.5)
                        st[0], st[1] = time.perf_counter(), 0
                        await ws.send(reply)
                        tally.commands += 1
                        tally.command_bytes += len(reply)

    async with trio.open_nursery() as nursery:
        limiter = trio.CapacityLimiter(32)

        async def open_one(table: int, seat: int) -> None:
            async with limiter:
                await nursery.start(bot, table, seat)

        async with trio.open_nursery() as opening:
            for t in range(tables):
                for s in range(SEATS):
                    opening.start_soon(open_one, t, s)
        freeze_bots()
        await trio.sleep(warmup)
        tally.latencies.clear()
        w = await measure_window(server.metrics_port, server.pid, tally, seconds)
        for scope in scopes:
            scope.cancel()
        nursery.cancel_scope.deadline = trio.current_time() + CLOSE_GRACE_S
    lat = sorted(tally.latencies)
    return {
        "seconds": round(w.seconds, 3),
        "frames_per_s": w.server["baseline_frames_out_total"] / w.seconds,
        "server_cpu": w.server_cpu / w.seconds,
        "bot_cpu": w.bot_cpu / w.seconds,
        "latency_samples": len(lat),
        "p50_ms": percentile(lat, 0.5) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000,
    }


# -- phase 3: latency and memory at a paced load -------------------------------------------------

async def paced_phase(server: Child, client: str, tables: int, seconds: float, warmup: float,
                      target_frames_per_s: float, frames_per_command: float, kept_kib: float | None,
                      rng: random.Random) -> dict[str, Any]:
    tally = Tally()
    rss_before = rss_kib(server.pid)
    metrics_before = await metrics(server.metrics_port)
    target_commands_per_s = target_frames_per_s / frames_per_command
    period = tables / target_commands_per_s
    samples: list[tuple[float, float, float]] = []  # (finished tables, open+running tables, rss)

    async def sample(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while True:
            m = await metrics(server.metrics_port)
            samples.append((m.get('oriente_tables_finished_total', 0.0),
                            m.get('oriente_tables{status="running"}', 0.0)
                            + m.get('oriente_tables{status="open"}', 0.0),
                            float(rss_kib(server.pid))))
            left = end - time.perf_counter()
            if left <= 0:
                return
            await trio.sleep(min(0.5, left))

    async with trio.open_nursery() as nursery:
        groups = await open_bots(nursery, client, server.port, tables, rng, tally, period)
        rss_connected = rss_kib(server.pid)
        async with trio.open_nursery() as play:
            for g in groups:
                play.start_soon(g.play)
            # Warm up, then correct the pace once from what the server actually sends.
            await trio.sleep(warmup / 2)
            w = await measure_window(server.metrics_port, server.pid, tally, warmup / 2)
            achieved = w.server["oriente_frames_out_total"] / w.seconds
            if achieved > 0:
                scale = min(2.0, max(0.5, achieved / target_frames_per_s))
                period *= scale
                for g in groups:
                    g.period = period
            tally.latencies.clear()
            w = await measure_window(server.metrics_port, server.pid, tally, seconds, during=sample)
            play.cancel_scope.cancel()
        close_bots(groups)
        nursery.cancel_scope.deadline = trio.current_time() + CLOSE_GRACE_S
    lat = sorted(tally.latencies)
    connections = tables * SEATS
    # RSS grows with live tables and with finished ones (the server keeps
    # every table it has had): take out what the finished ones hold, at the
    # rate measured in the throughput phase.
    finished0 = metrics_before.get('oriente_tables_finished_total', 0.0)
    rss_live = statistics.fmean(s[2] - (kept_kib or 0.0) * (s[0] - finished0) for s in samples)
    live = statistics.fmean(s[1] for s in samples)
    live_increase = rss_live - rss_before
    frames_out = w.server["oriente_frames_out_total"]
    return {
        "tables": tables,
        "seconds": round(w.seconds, 3),
        "period_ms": period * 1000,
        "frames_per_s": frames_out / w.seconds,
        "commands_per_s": w.bots["commands"] / w.seconds,
        "games_per_s": w.server.get('oriente_tables_finished_total', 0.0) / w.seconds,
        "server_cpu": w.server_cpu / w.seconds,
        "bot_cpu": w.bot_cpu / w.seconds,
        "latency_samples": len(lat),
        "p50_ms": percentile(lat, 0.5) * 1000,
        "p90_ms": percentile(lat, 0.9) * 1000,
        "p99_ms": percentile(lat, 0.99) * 1000,
        "max_ms": (lat[-1] if lat else math.nan) * 1000,
        # The store in the window: its commits, the WAL's checkpoints and the
        # ones that caught up holding the writer (SQLite; zero elsewhere).
        "store_batches_per_s": w.server.get("oriente_store_batches_total", 0.0) / w.seconds,
        "checkpoints_per_s": w.server.get("oriente_store_checkpoints_total", 0.0) / w.seconds,
        "catch_ups_per_s": w.server.get("oriente_store_wal_catch_ups_total", 0.0) / w.seconds,
        "rss_before_kib": rss_before,
        "rss_connected_kib": rss_connected,
        "rss_end_kib": samples[-1][2] if samples else math.nan,
        "rss_live_kib": rss_live,
        "live_tables": live,
        "finished_tables": samples[-1][0] - finished0 if samples else 0,
        "rss_per_table_kib": live_increase / tables,
        # What a table holds beyond its six connections, open before it existed.
        "rss_per_table_own_kib": (rss_live - rss_connected) / tables,
        "rss_per_conn_kib": live_increase / connections,
        "rss_per_conn_idle_kib": (rss_connected - rss_before) / connections,
        "closed": tally.closed,
        "errors": dict(tally.errors),
        "stuck": tally.stuck,
        "abandoned": tally.abandoned,
    }


# -- the run -------------------------------------------------------------------------------------------

def account_token(group: int, seat: int) -> str:
    """The API token of the bench's bot account at seat `seat` of group `group` (`--accounts`)."""
    return f"b_bench-{group}-{seat}"


def seed_accounts(path: str, groups: int) -> None:
    """Store, before the server starts on `path`, a person and a bot
    account of theirs with an API token for every bot of `groups` tables
    (`--accounts`): signing up over the protocol would hash a password
    per bot and meet the per-address limit on new accounts."""
    from oriente.server.accounts import token_hash
    from oriente.server.stores import AccountRow, CredentialRow, SQLiteStore

    async def seed() -> None:
        store = SQLiteStore(path)
        async with trio.open_nursery() as nursery:
            await nursery.start(store.run)
            await store.create_account(AccountRow("bench-owner", "bench-owner", "bench-owner", "person", None,
                                                  None, 0.0))
            for g in range(groups):
                for seat in range(SEATS):
                    name = f"bench-{g}-{seat}"
                    await store.create_account(AccountRow(name, name, name, "bot", "bench-owner", None, 0.0))
                    await store.add_credential(CredentialRow(f"c-{name}", name, "api",
                                                             token_hash(account_token(g, seat)), "bench", 0.0))
            await store.aclose()

    trio.run(seed)


def start_server(tmp: str, tag: str, profile_to: str | None = None) -> Child:
    env = dict(os.environ)
    env.pop("ORIENTE_BENCH_PROFILE", None)
    if profile_to:
        env["ORIENTE_BENCH_PROFILE"] = profile_to
    env["ORIENTE_BENCH_GCLOG"] = os.path.join(tmp, f"{tag}.gc.json")
    env["ORIENTE_BENCH_LOG"] = os.path.join(tmp, f"{tag}.log")
    store = os.path.join(tmp, f"{tag}.sqlite")
    if SIGNED_IN:
        seed_accounts(store, ACCOUNT_GROUPS)
    return Child(f"server ({tag})", [sys.executable, os.path.join(HERE, "_server_main.py"), store],
                 os.path.join(tmp, f"{tag}.log"), env=env)


def gc_summary(tmp: str, tag: str) -> dict[str, Any]:
    """The server's GC pauses over its life (bench/_server_main.py writes them on exit)."""
    try:
        with open(os.path.join(tmp, f"{tag}.gc.json")) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    return {f"gen{i}": {k: round(v, 1) if isinstance(v, float) else v for k, v in g.items()}
            for i, g in enumerate(data["generations"])} | {"objects": data.get("objects")}


def gc_line(gcs: dict[str, Any]) -> str:
    if not gcs:
        return "GC pauses: not recorded"
    parts = [f"gen{i} {gcs[f'gen{i}']['count']}x max {fmt(gcs[f'gen{i}']['max_ms'])} ms "
             f"(CPU {fmt(gcs[f'gen{i}'].get('max_cpu_ms'), 2)} ms) "
             f"total {fmt(gcs[f'gen{i}']['total_ms'], 0)} ms" for i in range(3)]
    return f"server GC pauses: {', '.join(parts)}; {gcs.get('objects')} tracked objects at exit"


def stop_checked(child: Child) -> None:
    code = child.stop()
    if code not in (0, -signal.SIGTERM):
        print(f"warning: {child.name} exited with {code}; its log:\n{child.log_tail()}", file=sys.stderr)


def profile_report(path: str, top: int) -> str:
    out = io.StringIO()
    stats = pstats.Stats(path, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def fmt(x: float | None, digits: int = 1) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:,.{digits}f}"


def retention_and_relay(args: argparse.Namespace, tmp: str, tag: str, seconds: float, warmup: float,
                        rng: random.Random, tp: dict[str, Any],
                        took: dict[str, float]) -> tuple[dict[str, Any], float, float]:
    """Phases 1b and 2 of a round: what finished tables keep (into `tp`),
    and the bare relay flat out; returns its figures, `ratio`, `cpu_ratio`."""
    frame_bytes = max(1, round(tp["mean_frame_bytes"]))
    command_bytes = max(1, round(tp["mean_command_bytes"]))
    t0 = time.perf_counter()
    server = start_server(tmp, tag + "retention")
    try:
        rt = trio.run(retention_phase, server, args.client, args.tables, max(warmup, seconds / 2), rng)
    finally:
        stop_checked(server)
    tp.update(rt)
    kept = rt["rss_per_finished_table_kib"]
    print(f"retained:   {fmt(kept)} KiB per finished table (settled RSS after each round "
          f"{' -> '.join(str(k) for k in rt['retained_rss_kib'])} KiB; "
          f"the last round's {rt['retained_games']:g} games; "
          f"{rt['retained_abandoned']} abandoned); RSS growth while playing: "
          f"{fmt(tp['rss_growth_per_finished_table_kib'])} KiB per finished table")

    took["retention"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    base = Child("baseline server", [sys.executable, os.path.join(HERE, "_baseline_server.py"),
                                     str(frame_bytes), str(SEATS)],
                 os.path.join(tmp, tag + "baseline.log"))
    try:
        bl = trio.run(baseline_phase, base, args.client, args.tables, seconds, warmup, command_bytes)
    finally:
        stop_checked(base)
    ratio = tp["frames_per_s"] / bl["frames_per_s"] if bl["frames_per_s"] else math.nan
    bl["us_per_frame"] = bl["server_cpu"] / bl["frames_per_s"] * 1e6 if bl["frames_per_s"] else math.nan
    cpu_ratio = bl["us_per_frame"] / tp["us_per_frame"]
    print(f"baseline:   {args.tables} tables, {fmt(bl['frames_per_s'], 0)} frames/s of "
          f"{fmt(bl['mean_frame_bytes'], 0)} B; CPU server {fmt(bl['server_cpu'] * 100, 0)}%, "
          f"bots {fmt(bl['bot_cpu'] * 100, 0)}%; ratio {fmt(ratio, 3)}")
    print(f"  server CPU per frame sent: {fmt(tp['us_per_frame'])} us (Oriente) vs "
          f"{fmt(bl['us_per_frame'])} us (baseline): CPU ratio {fmt(cpu_ratio, 3)}")

    took["baseline"] = time.perf_counter() - t0
    return bl, ratio, cpu_ratio


def paced_relay(args: argparse.Namespace, tmp: str, tag: str, seconds: float, warmup: float,
                rng: random.Random, frame_bytes: int, command_bytes: int, frames_per_s: float) -> dict[str, Any]:
    """The bare relay on a fresh process, driven by the paced phase's
    tables at `frames_per_s` (a message per table every tables x 6 /
    frames_per_s seconds, jittered alike)."""
    period = args.latency_tables * SEATS / max(frames_per_s, 1.0)
    base = Child("baseline server (paced)", [sys.executable, os.path.join(HERE, "_baseline_server.py"),
                                             str(frame_bytes), str(SEATS)],
                 os.path.join(tmp, tag + ".log"))
    try:
        result: dict[str, Any] = trio.run(baseline_paced_phase, base, args.client, args.latency_tables, seconds,
                                          warmup, period, command_bytes, rng)
    finally:
        stop_checked(base)
    result["period_ms"] = period * 1000
    return result


def one_round(args: argparse.Namespace, tmp: str, n: int, seconds: float, warmup: float,
              rng: random.Random) -> dict[str, Any]:
    """One round of the four phases (throughput, bare relay, paced, paced
    bare relay), each on a fresh server process; prints its figures and
    returns them. Rounds are interleaved so that the baseline of each is
    measured minutes, not quarter hours, from what it is compared with."""
    tag = f"r{n}-"
    profile_to = os.path.join(tmp, "server.prof") if args.profile and n == 1 else None
    took: dict[str, float] = {}
    t0 = time.perf_counter()
    server = start_server(tmp, tag + "throughput", profile_to)
    try:
        tp = trio.run(throughput_phase, server, args.client, args.tables, seconds, warmup, rng)
    finally:
        stop_checked(server)
    tp["gc"] = gc_summary(tmp, tag + "throughput")
    tp["us_per_frame"] = tp["server_cpu"] / tp["frames_per_s"] * 1e6 if tp["frames_per_s"] else math.nan
    print(f"throughput: {args.tables} tables, {fmt(tp['frames_per_s'], 0)} frames/s, "
          f"{fmt(tp['games_per_s'], 2)} games/s, {fmt(tp['commands_per_s'], 0)} commands/s "
          f"({fmt(tp['frames_per_command'], 2)} frames per command, mean frame "
          f"{fmt(tp['mean_frame_bytes'], 0)} B, command {fmt(tp['mean_command_bytes'], 0)} B); "
          f"CPU server {fmt(tp['server_cpu'] * 100, 0)}% "
          f"(other threads {fmt(tp['server_threads_cpu'] * 100, 0)}%), "
          f"bots {fmt(tp['bot_cpu'] * 100, 0)}%; "
          f"saturated latency p50 {fmt(tp['saturated_p50_ms'], 2)} ms, "
          f"p99 {fmt(tp['saturated_p99_ms'], 2)} ms")
    if tp["errors"] or tp["stuck"] or tp["abandoned"] or tp["evictions"]:
        print(f"  anomalies: errors {tp['errors']}, stuck {tp['stuck']}, "
              f"abandoned {tp['abandoned']}, evictions {tp['evictions']:g}")
    print(f"  {gc_line(tp['gc'])}")

    took["throughput"] = time.perf_counter() - t0
    frame_bytes = max(1, round(tp["mean_frame_bytes"]))
    command_bytes = max(1, round(tp["mean_command_bytes"]))
    if args.latency_only:
        tp["rss_per_finished_table_kib"] = None
        bl: dict[str, Any] = {"frames_per_s": math.nan, "us_per_frame": math.nan}
        ratio = cpu_ratio = math.nan
    else:
        bl, ratio, cpu_ratio = retention_and_relay(args, tmp, tag, seconds, warmup, rng, tp, took)
    t0 = time.perf_counter()
    server = start_server(tmp, tag + "paced")
    try:
        pc = trio.run(paced_phase, server, args.client, args.latency_tables, seconds, warmup,
                      args.pace or tp["frames_per_s"] * PACED_FRACTION, tp["frames_per_command"],
                      tp["rss_per_finished_table_kib"], rng)
    finally:
        stop_checked(server)
    pc["gc"] = gc_summary(tmp, tag + "paced")
    print(f"paced:      {args.latency_tables} tables, {fmt(pc['frames_per_s'], 0)} frames/s "
          f"({fmt(pc['frames_per_s'] / tp['frames_per_s'] * 100, 0)}% of throughput, a command "
          f"every {fmt(pc['period_ms'], 1)} ms per table), {fmt(pc['commands_per_s'], 0)} commands/s; "
          f"CPU server {fmt(pc['server_cpu'] * 100, 0)}%, bots {fmt(pc['bot_cpu'] * 100, 0)}%")
    print(f"  latency to the last seat over {pc['latency_samples']} commands: p50 {fmt(pc['p50_ms'], 2)} ms, "
          f"p90 {fmt(pc['p90_ms'], 2)} ms, p99 {fmt(pc['p99_ms'], 2)} ms, max {fmt(pc['max_ms'], 1)} ms")
    print(f"  store: {fmt(pc['store_batches_per_s'], 0)} commits/s, {fmt(pc['checkpoints_per_s'], 2)} "
          f"checkpoints/s of which {fmt(pc['catch_ups_per_s'], 2)}/s caught up holding the writer")
    print(f"  RSS: {pc['rss_before_kib']} KiB before tables, {pc['rss_connected_kib']} KiB with "
          f"{args.latency_tables * SEATS} idle connections, {fmt(pc['rss_live_kib'], 0)} KiB with "
          f"{args.latency_tables} live tables (mean over the window, less what finished tables keep), "
          f"{fmt(pc['rss_end_kib'], 0)} KiB at the end with {pc['finished_tables']:g} finished tables kept")
    print(f"  per table {fmt(pc['rss_per_table_kib'])} KiB with its six connections, "
          f"{fmt(pc['rss_per_table_own_kib'])} KiB without them; "
          f"per connection {fmt(pc['rss_per_conn_kib'])} KiB "
          f"(idle connection {fmt(pc['rss_per_conn_idle_kib'])} KiB)")
    if pc["errors"] or pc["stuck"] or pc["abandoned"]:
        print(f"  anomalies: errors {pc['errors']}, stuck {pc['stuck']}, abandoned {pc['abandoned']}")
    print(f"  {gc_line(pc['gc'])}")

    # The bare relay at the paced phase's frame rate: its p99 is the
    # floor this machine sets on the paced latency right now.
    took["paced"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    bp = paced_relay(args, tmp, tag + "baseline-paced", seconds, warmup, rng, frame_bytes, command_bytes,
                     pc["frames_per_s"])
    print(f"baseline paced: {args.latency_tables} tables, {fmt(bp['frames_per_s'], 0)} frames/s "
          f"(a message every {fmt(bp['period_ms'], 1)} ms per table); latency to the last "
          f"connection over {bp['latency_samples']} messages: p50 {fmt(bp['p50_ms'], 2)} ms, "
          f"p99 {fmt(bp['p99_ms'], 2)} ms; Oriente's p99 is {fmt(pc['p99_ms'] / bp['p99_ms'], 2)}x")
    took["baseline paced"] = time.perf_counter() - t0
    same: dict[str, Any] | None = None
    if args.same_load and not args.latency_only:
        # The relay at the same share of its own throughput as the paced
        # phase's of the server's: queueing at an equal load, not an equal rate.
        t0 = time.perf_counter()
        same = paced_relay(args, tmp, tag + "baseline-same-load", seconds, warmup, rng, frame_bytes,
                           command_bytes, bl["frames_per_s"] * pc["frames_per_s"] / tp["frames_per_s"])
        print(f"baseline at the same load: {fmt(same['frames_per_s'], 0)} frames/s "
              f"({fmt(same['frames_per_s'] / bl['frames_per_s'] * 100, 0)}% of its throughput); "
              f"p50 {fmt(same['p50_ms'], 2)} ms, p99 {fmt(same['p99_ms'], 2)} ms; "
              f"Oriente's p99 is {fmt(pc['p99_ms'] / same['p99_ms'], 2)}x")
        took["baseline same load"] = time.perf_counter() - t0
    print(f"  round {n} took {fmt(sum(took.values()), 0)} s: "
          + ", ".join(f"{name} {fmt(s, 1)} s" for name, s in took.items()))
    return {"tp": tp, "bl": bl, "pc": pc, "bp": bp, "same": same, "ratio": ratio, "cpu_ratio": cpu_ratio,
            "frame_bytes": frame_bytes, "p99_ratio": pc["p99_ms"] / bp["p99_ms"] if bp["p99_ms"] else math.nan,
            "profile_to": profile_to}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark the table server over real sockets.")
    p.add_argument("--quick", action="store_true", help="a few seconds per phase, for smoke runs")
    p.add_argument("--seconds", type=float, default=None, help="measured time per phase (default 20)")
    p.add_argument("--warmup", type=float, default=None, help="unmeasured time before each phase (default 3)")
    p.add_argument("--tables", type=int, default=50, help="tables in the throughput and baseline phases")
    p.add_argument("--latency-tables", type=int, default=50, help="tables in the paced phase")
    p.add_argument("--seed", type=int, default=None, help="master seed for game seeds and the bots")
    p.add_argument("--client", choices=("lean", "websockets"), default="lean",
                   help="the bots' websocket client: bench/_wsclient.py (default) or websockets.trio")
    p.add_argument("--profile", action="store_true",
                   help="cProfile the server during the throughput phase (its figures are inflated)")
    p.add_argument("--top", type=int, default=25, help="profile rows to print")
    p.add_argument("--latency-only", action="store_true",
                   help="skip the retention and flat-out relay phases: throughput (for the pace), paced, "
                        "paced relay; for working on the latency (no `ratio`)")
    p.add_argument("--same-load", action="store_true",
                   help="a fifth phase per round: the bare relay paced at the same share of its own throughput "
                        "as the server's paced phase (`p99_ratio_same_load`); about 25 s more per round")
    p.add_argument("--pace", type=float, default=None, metavar="FRAMES_PER_S",
                   help="pace the paced phase at this many frames/s, not at half the throughput just measured: "
                        "for an A/B of the tail, whose p99 grows with the pace, which that measure moves by "
                        "a quarter between runs")
    p.add_argument("--rounds", type=int, default=None,
                   help="interleaved rounds of the four phases, figures are their medians (default 3; --quick 1)")
    p.add_argument("--accounts", action="store_true",
                   help="every bot signs in with an account of its own before it joins, as people at a site "
                        "do (their tables keep the index of seats by account); the relay phases are unchanged")
    args = p.parse_args(argv)
    global SIGNED_IN, ACCOUNT_GROUPS
    SIGNED_IN, ACCOUNT_GROUPS = args.accounts, max(args.tables, args.latency_tables)

    seconds = args.seconds if args.seconds is not None else (3.0 if args.quick else 15.0)
    args.rounds = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    warmup = args.warmup if args.warmup is not None else (1.5 if args.quick else 3.0)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)

    def on_term(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    print(f"server benchmark: Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs, bots on the {args.client} client, master seed {seed}, "
          f"{seconds:g}s per phase after {warmup:g}s warm-up; load average {os.getloadavg()[0]:.2f}")
    rounds: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="oriente-bench-") as tmp:
        try:
            for n in range(1, args.rounds + 1):
                print(f"-- round {n} of {args.rounds} (load average {os.getloadavg()[0]:.2f})")
                rounds.append(one_round(args, tmp, n, seconds, warmup, rng))
            profile_to = rounds[0]["profile_to"]
            if profile_to and os.path.exists(profile_to):
                print("server profile (round 1's throughput phase, trio thread):")
                print(profile_report(profile_to, args.top))
        finally:
            Child.stop_all()

    def r(x: float | None, digits: int = 2) -> float | None:
        return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, digits)

    def med(get: Callable[[dict[str, Any]], float | None]) -> float | None:
        """The median over the rounds (those that measured it)."""
        values = [v for v in (get(x) for x in rounds) if v is not None and not math.isnan(v)]
        return statistics.median(values) if values else None

    def gc_max(gcs: dict[str, Any], key: str = "max_ms") -> float | None:
        return max((gcs[f"gen{i}"].get(key, 0.0) for i in range(3)), default=None) if gcs else None

    ratio, p99_ratio = med(lambda x: x["ratio"]), med(lambda x: x["p99_ratio"])
    cpu_us = med(lambda x: x["tp"]["us_per_frame"])
    finished_kib = med(lambda x: x["tp"]["rss_per_finished_table_kib"])
    gc_pause = med(lambda x: gc_max(x["pc"]["gc"]))
    print(f"medians over {len(rounds)} rounds: ratio {fmt(ratio, 3)} (goal >= {TARGET_RATIO:g}), "
          f"p99 ratio {fmt(p99_ratio, 2)} (goal <= {TARGET_P99_RATIO:g}), server CPU per frame {fmt(cpu_us)} us "
          f"(goal <= {TARGET_US_PER_FRAME:g}), per live table {fmt(med(lambda x: x['pc']['rss_per_table_kib']))} KiB "
          f"(goal <= {TARGET_TABLE_KIB:g}), per finished table {fmt(finished_kib)} KiB "
          f"(goal <= {TARGET_FINISHED_KIB:g}), longest GC pause while tables play {fmt(gc_pause)} ms "
          f"(goal <= {TARGET_GC_MS:g})")
    last = rounds[-1]
    tp = last["tp"]
    summary = {
        "bench": "server",
        "rounds": len(rounds),
        "frames_per_s": r(med(lambda x: x["tp"]["frames_per_s"]), 1),
        "baseline_frames_per_s": r(med(lambda x: x["bl"]["frames_per_s"]), 1),
        "ratio": r(ratio, 3),
        "ratios": [r(x["ratio"], 3) for x in rounds],
        "p50_ms": r(med(lambda x: x["pc"]["p50_ms"]), 3),
        "p99_ms": r(med(lambda x: x["pc"]["p99_ms"]), 3),
        "baseline_p99_ms": r(med(lambda x: x["bp"]["p99_ms"]), 3),
        "baseline_p50_ms": r(med(lambda x: x["bp"]["p50_ms"]), 3),
        "p99_ratio": r(p99_ratio, 2),
        "p99_ratios": [r(x["p99_ratio"], 2) for x in rounds],
        "baseline_same_load_p99_ms": r(med(lambda x: x["same"]["p99_ms"] if x["same"] else None), 3),
        "p99_ratio_same_load": r(med(lambda x: x["pc"]["p99_ms"] / x["same"]["p99_ms"]
                                     if x["same"] and x["same"]["p99_ms"] else None), 2),
        "cpu_us_per_frame": r(cpu_us, 1),
        "baseline_us_per_frame": r(med(lambda x: x["bl"]["us_per_frame"]), 1),
        "cpu_ratio": r(med(lambda x: x["cpu_ratio"]), 3),
        "rss_per_table_kib": r(med(lambda x: x["pc"]["rss_per_table_kib"]), 1),
        "rss_per_table_own_kib": r(med(lambda x: x["pc"]["rss_per_table_own_kib"]), 1),
        "rss_per_conn_kib": r(med(lambda x: x["pc"]["rss_per_conn_kib"]), 1),
        "rss_per_conn_idle_kib": r(med(lambda x: x["pc"]["rss_per_conn_idle_kib"]), 1),
        "rss_per_finished_table_kib": r(finished_kib, 1),
        "rss_growth_per_finished_table_kib": r(med(lambda x: x["tp"]["rss_growth_per_finished_table_kib"]), 1),
        "gc_max_pause_cpu_ms": r(med(lambda x: gc_max(x["pc"]["gc"], "max_cpu_ms")), 2),
        "gc_max_pause_ms": r(gc_pause, 1),
        "baseline_paced_frames_per_s": r(med(lambda x: x["bp"]["frames_per_s"]), 1),
        "tables": args.latency_tables,
        "games_per_s": r(med(lambda x: x["tp"]["games_per_s"]), 2),
        "commands_per_s": r(med(lambda x: x["tp"]["commands_per_s"]), 1),
        "throughput_tables": args.tables,
        "frame_bytes": last["frame_bytes"],
        "frames_per_command": r(tp["frames_per_command"], 3),
        "saturated_p99_ms": r(med(lambda x: x["tp"]["saturated_p99_ms"]), 3),
        "paced_frames_per_s": r(med(lambda x: x["pc"]["frames_per_s"]), 1),
        "pace": args.pace,  # the paced phase's asked rate (--pace), or null: half the throughput
        "p90_ms": r(med(lambda x: x["pc"]["p90_ms"]), 3),
        "latency_samples": sum(x["pc"]["latency_samples"] for x in rounds),
        "server_us_per_frame": r(cpu_us, 1),
        "store_batches_per_s": r(med(lambda x: x["pc"]["store_batches_per_s"]), 1),
        "checkpoints_per_s": r(med(lambda x: x["pc"]["checkpoints_per_s"]), 2),
        "catch_ups_per_s": r(med(lambda x: x["pc"]["catch_ups_per_s"]), 2),
        "paced_gc_gen2_max_ms": r(med(lambda x: x["pc"]["gc"]["gen2"]["max_ms"] if x["pc"]["gc"] else None), 1),
        "seconds": seconds,
        "client": args.client,
        "accounts": args.accounts,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "seed": seed,
        "python": platform.python_version(),
        "profiled": bool(args.profile),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
