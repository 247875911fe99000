"""Abuse: the attacks the server's limits answer, measured against a real server.

    python bench/abuse.py [--seconds 15] [--tables 2000] [--events 2400] [--quick] [--only replays]

The server runs as `oriente serve` with its default limits, in its own
process; each attack runs in a process of its own too (`--attack NAME`),
so that neither the attackers nor the measuring bots share a CPU thread with
what they measure. Figures:

- tables one client address can create, and whether another
  address still can once it is refused;
- a normal table (four bots on zero-wait timers, tables back to back):
  moves in `--seconds` and the p50/p99 of a move (an `act` sent to its
  `ok` received), unattacked, then under each attack, in the same run;
- the list_tables attack: `--tables` public tables in the lobby,
  five connections walking the whole listing at the rate limit, reading;
- the history attack: a table whose log is `--events` long, five
  connections spectating it from seq 0 at the rate limit, reading;
- a client that asks for listings and never reads: the server's resident
  memory it holds;
- the replay attack: eight clients, each from an address of its own,
  fetching `/data/replay/TABLE.json` in a loop over every finished table
  and viewer (so that a cache alone would not save the server), without
  gzip; the normal table's moves under it, as a ratio to the mean of the
  unattacked ones just before and just after (`replay_moves_ratio`, the
  target at least 0.5), its p99 (`p99_ms_replay_attack`, the target under
  250 ms), and what the clients were answered (200, 429, 503).

The last line is one line of JSON. To add an attack: an `attack_NAME(port,
seconds, arg)` function below, its name in ATTACKS, and a phase in main().
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect

from oriente.protocol.codec import decode_any, encode

SUBPROTOCOL = "oriente.v1"
BOT_TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": True,
              "away_after": 3}
PLAYABLE = ("Announce", "Pass", "Claim", "Support", "Join", "Choose", "Done")
ATTACKERS = 5
RATE = 200.0  # the server's default rate limit, messages a second per connection
CREATE_CAP = 1000  # a server without creation limits would let one address fill its lobby: stop here


# -- plumbing ------------------------------------------------------------------------------


class Conn:
    """One protocol connection: requests matched to replies by id."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0

    async def send(self, message: dict[str, Any]) -> Any:
        self.n += 1
        cid = message.setdefault("id", self.n)
        await self.ws.send(encode(message))
        return cid

    async def recv(self) -> dict[str, Any]:
        frame: dict[str, Any] = decode_any(await self.ws.recv())
        return frame

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        cid = await self.send(message)
        while True:
            frame = await self.recv()
            if frame["t"] in ("ok", "error") and frame.get("re") == cid:
                return frame


def open_conn(port: int, source: str = "127.0.0.1") -> Any:
    return connect(f"ws://127.0.0.1:{port}", subprotocols=[SUBPROTOCOL], compression=None,  # type: ignore[list-item]
                   local_address=source, max_size=2**24)


@asynccontextmanager
async def session(port: int, source: str = "127.0.0.1") -> AsyncIterator[Conn]:
    """One connection, welcomed, closed at the end of the block. Entered with
    `async with`, never by hand: a phase's deadline that cancels a bot while
    it connects would otherwise leave trio's nursery stack corrupted."""
    async with open_conn(port, source) as ws:
        c = Conn(ws)
        await c.recv()  # welcome
        yield c


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_server(store: str) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen([sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--store", store, "--quiet"],
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"serving ws://[^:]+:(\d+)", line)
    if m is None:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, int(m.group(1))


def start_attack(name: str, port: int, seconds: float, arg: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, __file__, "--attack", name, "--port", str(port),
                             "--seconds", str(seconds), "--arg", arg], stdout=subprocess.PIPE, text=True)


def attack_result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate(timeout=120)
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


# -- the normal table ------------------------------------------------------------------------


async def normal_table(port: int, seconds: float, pid: int, finished: list[str] | None = None) -> dict[str, Any]:
    """Four bots play tables back to back for `seconds`; each move's time
    from its `act` to its `ok`, and the server's CPU share meanwhile. The
    tables that finished are added to `finished`."""
    latencies: list[float] = []
    cpu = cpu_seconds(pid)
    end = trio.current_time() + seconds
    rng = random.Random(7)
    with trio.move_on_at(end):
        while True:
            table = await play_one(port, rng, latencies)
            if finished is not None:
                finished.append(table)
    return {"moves": len(latencies), "p50_ms": percentile(latencies, 0.5) * 1000,
            "p99_ms": percentile(latencies, 0.99) * 1000, "server_cpu": (cpu_seconds(pid) - cpu) / seconds}


async def play_one(port: int, rng: random.Random, latencies: list[float]) -> str:
    """One table of four bots, played to its end; its id."""
    async with session(port) as host:
        table = str((await host.request({"t": "create_table", "seats": 4, "timers": BOT_TIMERS,
                                         "public": False}))["table"])
    async with trio.open_nursery() as nursery:
        for seat in range(4):
            nursery.start_soon(_bot, port, table, seat, rng.random(), latencies)
    return table


async def _bot(port: int, table: str, seat: int, seed: float, latencies: list[float]) -> None:
    rng = random.Random(seed)
    async with session(port) as c:
        await c.send({"t": "join", "table": table, "name": f"bot {seat}", "seat": seat})
        sent: dict[Any, float] = {}
        answered: set[Any] = set()
        while True:
            frame = await c.recv()
            t = frame["t"]
            if t == "ok" and frame.get("re") in sent:
                latencies.append(time.perf_counter() - sent.pop(frame["re"]))
            if t == "events" and any(e["type"] == "TableFinished" for e in frame["events"]):
                return
            prompt = frame.get("prompt") if t in ("events", "snapshot") else None
            if not prompt or prompt.get("pivot") != seat:
                continue
            key = (prompt.get("id"), prompt.get("pivot"))
            options = [cmd for cmd in prompt.get("legal", []) if cmd["type"] in PLAYABLE]
            if key in answered or not options:
                continue
            answered.add(key)
            cid = await c.send({"t": "act", "table": table, "cmd": rng.choice(options)})
            sent[cid] = time.perf_counter()


# -- setups -------------------------------------------------------------------------------


async def tables_per_address(port: int) -> tuple[int, bool]:
    """How many tables 127.0.0.2 creates over many connections before the
    server refuses, and whether 127.0.0.3 can create one then."""
    made = 0
    for _ in range(100):  # connection after connection, until even a new one is refused
        async with session(port, "127.0.0.2") as c:
            first = True
            while made < CREATE_CAP:
                reply = await c.request({"t": "create_table", "seats": 4})
                if reply["t"] != "ok":
                    break
                made += 1
                first = False
        if first or made >= CREATE_CAP:
            break
    async with session(port, "127.0.0.3") as c:
        other = (await c.request({"t": "create_table", "seats": 4}))["t"] == "ok"
    return made, other


async def fill_lobby(port: int, tables: int) -> int:
    """`tables` public open tables, from as many loopback addresses as the
    per-address limit asks for (127.0.1.x, 127.0.2.x, ...)."""
    made = 0
    address = 0
    while made < tables:
        address += 1
        source = f"127.0.{1 + address // 250}.{1 + address % 250}"
        while made < tables:
            async with session(port, source) as c:
                before = made
                for _ in range(5):
                    if made >= tables:
                        break
                    reply = await c.request({"t": "create_table", "seats": 4, "name": f"filler {made}"})
                    if reply["t"] != "ok":
                        break
                    made += 1
            if made - before < 5:
                break
    return made


async def patient(c: Conn, message: dict[str, Any]) -> dict[str, Any]:
    """A request sent again, after a while, for as long as the rate limit refuses it."""
    while True:
        reply = await c.request(dict(message))
        if reply["t"] == "ok" or reply["code"] != "rate/limited":
            return reply
        await trio.sleep(0.25)


async def long_log(port: int, events: int) -> str:
    """A public open table whose log is `events` long (seats taken and left)."""
    async with session(port, "127.0.9.1") as c:
        table = (await patient(c, {"t": "create_table", "seats": 4, "name": "long log"}))["table"]
        seq = 1
        while seq < events:
            joined = await patient(c, {"t": "join", "table": table, "name": "pad"})
            seq = (await patient(c, {"t": "leave", "table": table, "token": joined["token"]}))["seq"]
        return str(table)


# -- attacks, each in a process of its own --------------------------------------------------


async def attack_list(port: int, seconds: float, arg: str) -> dict[str, Any]:
    """Five connections walk the whole listing, page after page, at the rate limit."""
    served = [0]

    async def one(i: int) -> None:
        async with session(port, f"127.0.8.{i + 1}") as c:
            cursor = None
            while True:
                reply = await c.request({"t": "list_tables", "cursor": cursor, "limit": 200})
                if reply["t"] == "ok":
                    served[0] += 1
                    cursor = reply.get("next")
                await trio.sleep(1 / RATE)

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for i in range(ATTACKERS):
                nursery.start_soon(one, i)
    return {"requests": served[0]}


async def attack_history(port: int, seconds: float, table: str) -> dict[str, Any]:
    """Five connections spectate `table` from seq 0, over and over, at the rate limit."""
    served, limited = [0], [0]

    async def one(i: int) -> None:
        async with session(port, f"127.0.7.{i + 1}") as c:
            while True:
                reply = await c.request({"t": "spectate", "table": table, "after": 0})
                if reply["t"] == "ok":
                    served[0] += 1
                elif reply["code"] == "rate/limited":
                    limited[0] += 1
                await trio.sleep(1 / RATE)

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for i in range(ATTACKERS):
                nursery.start_soon(one, i)
    return {"requests": served[0], "rate_limited": limited[0]}


REPLAY_CLIENTS = 8
REPLAY_VIEWERS = ("spectator", "all", "0", "1", "2", "3")


async def http_status(port: int, path: str, source: str) -> int:
    """One GET without gzip, read to its end; its status."""
    stream = await trio.open_tcp_stream("127.0.0.1", port, local_address=source)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                              .encode())
        head = b""
        while chunk := await stream.receive_some(1 << 16):
            head = head or chunk[:16]
    return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0


async def attack_replays(port: int, seconds: float, tables: str) -> dict[str, Any]:
    """Eight clients from eight addresses fetch replays in a loop: every
    finished table, every viewer, over and over (a 429 or 503 is not
    waited out: the next request follows at once)."""
    paths = [f"/data/replay/{t}.json?as={v}" for t in tables.split(",") if t for v in REPLAY_VIEWERS]
    statuses: dict[int, int] = {}
    if not paths:
        return {"paths": 0, "statuses": {}}

    async def one(i: int) -> None:
        n = i * len(paths) // REPLAY_CLIENTS
        while True:
            status = await http_status(port, paths[n % len(paths)], f"127.0.6.{i + 1}")
            statuses[status] = statuses.get(status, 0) + 1
            n += 1

    with trio.move_on_after(seconds):
        async with trio.open_nursery() as nursery:
            for i in range(REPLAY_CLIENTS):
                nursery.start_soon(one, i)
    return {"paths": len(paths), "statuses": {str(k): v for k, v in sorted(statuses.items())}}


ATTACKS: dict[str, Callable[[int, float, str], Awaitable[dict[str, Any]]]] = {
    "list": attack_list,
    "history": attack_history,
    "replays": attack_replays,
}


async def nonreader(port: int, pid: int) -> tuple[int, bool]:
    """A client that asks for 390 full pages of the listing and reads
    nothing: the server's resident memory it holds, and whether the server
    let it go (evicted it) within a few seconds."""
    stream = socket.create_connection(("127.0.0.1", port))
    stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = "dGhlIHNhbXBsZSBub25jZQ=="
    stream.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                    f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n").encode())
    got = b""
    while b"\r\n\r\n" not in got:
        got += stream.recv(1)
    before = rss_bytes(pid)
    stream.setblocking(False)
    for i in range(390):
        payload = encode({"t": "list_tables", "id": i, "limit": 200})
        assert len(payload) < 126
        mask = os.urandom(4)
        head = bytes([0x82, 0x80 | len(payload)])
        try:
            stream.sendall(head + mask + bytes(b ^ mask[j % 4] for j, b in enumerate(payload)))
        except BlockingIOError:
            break
    held = 0
    for _ in range(10):
        await trio.sleep(0.3)
        held = max(held, rss_bytes(pid) - before)
    try:
        gone = stream.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        gone = False
    stream.close()
    return max(0, held), gone


# -- the run --------------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="oriente-abuse-")
    proc, port = start_server(os.path.join(tmp, "s.sqlite"))
    try:
        figures: dict[str, Any] = {}
        if args.only != "replays":
            made, other = await tables_per_address(port)
            print(f"creation: one address created {made} tables, then lobby/too_many; another address "
                  f"{'could' if other else 'could not'} create one")
            figures.update(tables_per_address=made, other_address_can_create=other)

        finished: list[str] = []
        base = await normal_table(port, args.seconds, proc.pid, finished)
        while not finished:  # a slow machine may finish no table in a short phase: the attack needs one
            finished.append(await play_one(port, random.Random(len(finished)), []))
        print(f"normal table, unattacked: {base['moves']} moves in {args.seconds:g} s, "
              f"p50 {base['p50_ms']:.1f} ms, p99 {base['p99_ms']:.1f} ms; server CPU {base['server_cpu']:.0%}")
        figures.update(moves_unattacked=base["moves"], p50_ms_unattacked=round(base["p50_ms"], 2),
                       p99_ms_unattacked=round(base["p99_ms"], 2))

        attack = start_attack("replays", port, args.seconds, ",".join(finished))
        under = await normal_table(port, args.seconds, proc.pid)
        result = attack_result(attack)
        # Unattacked again: the ratio is to the mean of before and after, so
        # that a machine whose load drifts meanwhile does not decide it.
        after = await normal_table(port, args.seconds, proc.pid)
        statuses = result.get("statuses", {})
        unattacked = (base["moves"] + after["moves"]) / 2
        ratio = under["moves"] / unattacked if unattacked else float("nan")
        print(f"replays: {REPLAY_CLIENTS} clients fetching {result.get('paths', 0)} replays in a loop "
              f"(answers: {statuses}): {under['moves']} moves ({ratio:.2f} of unattacked, {after['moves']} "
              f"unattacked just after), p50 {under['p50_ms']:.1f} ms, p99 {under['p99_ms']:.1f} ms; "
              f"server CPU {under['server_cpu']:.0%}")
        figures.update(replay_paths=result.get("paths", 0), replay_answers=statuses,
                       moves_replay_attack=under["moves"], moves_unattacked_after_replays=after["moves"],
                       replay_moves_ratio=round(ratio, 3), p50_ms_replay_attack=round(under["p50_ms"], 2),
                       p99_ms_replay_attack=round(under["p99_ms"], 2))

        if args.only == "replays":
            return figures

        listed = await fill_lobby(port, args.tables)
        attack = start_attack("list", port, args.seconds, "")
        under = await normal_table(port, args.seconds, proc.pid)
        result = attack_result(attack)
        print(f"listing: {listed} public tables; {ATTACKERS} connections walking the listing "
              f"({result.get('requests', 0)} pages served): {under['moves']} moves, "
              f"p50 {under['p50_ms']:.1f} ms, p99 {under['p99_ms']:.1f} ms; server CPU {under['server_cpu']:.0%}")
        figures.update(lobby_tables=listed, list_pages_served=result.get("requests", 0),
                       moves_list_attack=under["moves"], p50_ms_list_attack=round(under["p50_ms"], 2),
                       p99_ms_list_attack=round(under["p99_ms"], 2))

        held, gone = await nonreader(port, proc.pid)
        print(f"listing: a client asking for 390 pages and reading none: the server held "
              f"{held / 2**20:.2f} MiB more; {'evicted' if gone else 'still connected'}")
        figures.update(held_bytes_nonreader=held, nonreader_evicted=gone)

        table = await long_log(port, args.events)
        attack = start_attack("history", port, args.seconds, table)
        under = await normal_table(port, args.seconds, proc.pid)
        result = attack_result(attack)
        print(f"history: a {args.events}-event log, {ATTACKERS} connections spectating from seq 0 "
              f"({result.get('requests', 0)} replays served, {result.get('rate_limited', 0)} rate-limited): "
              f"{under['moves']} moves, p50 {under['p50_ms']:.1f} ms, p99 {under['p99_ms']:.1f} ms; "
              f"server CPU {under['server_cpu']:.0%}")
        figures.update(history_replays_served=result.get("requests", 0),
                       moves_history_attack=under["moves"], p50_ms_history_attack=round(under["p50_ms"], 2),
                       p99_ms_history_attack=round(under["p99_ms"], 2))
        return figures
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=15.0, help="each measured phase (default 15)")
    p.add_argument("--tables", type=int, default=2000, help="public tables for the listing attack (default 2000)")
    p.add_argument("--events", type=int, default=2400, help="log length for the history attack (default 2400)")
    p.add_argument("--quick", action="store_true",
                   help="a sample in about a minute: 3 s phases, 200 tables, 600 events")
    p.add_argument("--only", choices=("replays",), default=None,
                   help="only the normal table, unattacked and under the replay attack")
    p.add_argument("--attack", choices=sorted(ATTACKS), help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--arg", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.seconds, args.tables, args.events = 3.0, 200, 600
    if args.attack:
        result = trio.run(ATTACKS[args.attack], args.port, args.seconds, args.arg)
        print(json.dumps(result))
        return 0
    figures = trio.run(run, args)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (ConnectionClosed, KeyboardInterrupt):
        sys.exit(1)
