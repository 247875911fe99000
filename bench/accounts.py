"""Accounts under attack: password guessing and sign-up floods, measured
against a real server (docs/accounts.md, "Failed sign-ins").

    python bench/accounts.py [--seconds 60] [--addresses 60] [--quick]

The server runs as `oriente serve` with its default limits and argon2's
default parameters, in its own process; the attackers run in a process of
their own (`--attack NAME`), each of their connections bound to its own
127.0.0.x address (every 127.0.0.x is this machine, and each is a client
address to the server). The measuring process signs in honestly as
another account, from its own address, one sign-in after another with a
quarter of a second between them, and times each from the request to its
reply. Figures:

- unattacked: the honest sign-in's median and p90 (the baseline);
- one-account flood: `--addresses` addresses guess one account's password
  as fast as the answers come back (reconnecting when the server closes
  them for strikes): the tries they made, how many reached the hasher
  (answered auth/bad_credentials; every other one was refused before it)
  and that as failed sign-ins a minute, and the honest sign-in's median,
  p90 and its ratio to the baseline;
- stuffing: the same addresses try one password under ever new names
  (the attack the per-address budget and the hashing queue are for): the
  tries hashed, and the honest median;
- sign-ups: one address asks for 150 accounts in a row; how many it got.

The last line is one line of JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect

from oriente.protocol.codec import decode_any, encode

SUBPROTOCOL = "oriente.v1"
HONEST = "127.0.0.250"
PASSWORD = "correct horse battery"


class Conn:
    """One protocol connection: requests matched to replies by id."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.n = 0

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.n += 1
        message = {**message, "id": self.n}
        await self.ws.send(encode(message))
        while True:
            frame: dict[str, Any] = decode_any(await self.ws.recv())
            if frame["t"] in ("ok", "error") and frame.get("re") == self.n:
                return frame


def open_conn(port: int, source: str) -> Any:
    return connect(f"ws://127.0.0.1:{port}", subprotocols=[SUBPROTOCOL], compression=None,  # type: ignore[list-item]
                   local_address=source)


async def session(port: int, source: str) -> tuple[Any, Conn]:
    cm = open_conn(port, source)
    ws = await cm.__aenter__()
    await ws.recv()  # welcome
    return cm, Conn(ws)


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (its threads' included)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def argon2_ms() -> float:
    """One argon2 verification with the server's parameters (argon2's
    defaults), here and now: what a hashed try costs on this machine."""
    from argon2 import PasswordHasher
    from argon2.exceptions import VerificationError

    hasher = PasswordHasher()
    stored = hasher.hash(PASSWORD)
    start = time.perf_counter()
    for _ in range(3):
        with contextlib.suppress(VerificationError):
            hasher.verify(stored, "wrong")
    return (time.perf_counter() - start) / 3 * 1000


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


# -- the honest user --------------------------------------------------------------------------


async def honest_sign_ins(port: int, seconds: float) -> list[float]:
    """Sign in as bob from his own address, again and again, for `seconds`:
    each sign-in's time from request to reply, in seconds."""
    times: list[float] = []
    cm, c = await session(port, HONEST)
    try:
        deadline = trio.current_time() + seconds
        while trio.current_time() < deadline:
            start = time.perf_counter()
            reply = await c.request({"t": "sign_in", "name": "bob", "password": PASSWORD})
            if reply["t"] != "ok":
                raise RuntimeError(f"bob's sign-in was refused: {reply}")
            times.append(time.perf_counter() - start)
            await trio.sleep(0.25)
    finally:
        await cm.__aexit__(None, None, None)
    return times


# -- the attacks (each in a process of its own) --------------------------------------------------


async def _attack(port: int, seconds: float, addresses: int, name_of: Any) -> dict[str, Any]:
    counts: dict[str, int] = {"tries": 0, "reconnects": 0}

    async def one(i: int) -> None:
        source = f"127.0.0.{2 + i}"
        n = 0
        while trio.current_time() < deadline:
            try:
                async with open_conn(port, source) as ws:
                    await ws.recv()  # welcome
                    c = Conn(ws)
                    while trio.current_time() < deadline:
                        n += 1
                        reply = await c.request({"t": "sign_in", "name": name_of(i, n), "password": f"guess-{i}-{n}"})
                        counts["tries"] += 1
                        code = reply.get("code", "ok")
                        counts[code] = counts.get(code, 0) + 1
            except (ConnectionClosed, OSError):
                counts["reconnects"] += 1  # closed for strikes: come back, as an attacker would

    deadline = trio.current_time() + seconds
    cpu = time.process_time()
    with trio.move_on_after(seconds + 30):  # a reply still owed at the deadline is waited for, not for ever
        async with trio.open_nursery() as nursery:
            for i in range(addresses):
                nursery.start_soon(one, i)
    counts["cpu_share"] = round((time.process_time() - cpu) / seconds, 2)  # type: ignore[assignment]
    return counts


async def attack_one_account(port: int, seconds: float, addresses: int) -> dict[str, Any]:
    return await _attack(port, seconds, addresses, lambda i, n: "ana")


async def attack_stuffing(port: int, seconds: float, addresses: int) -> dict[str, Any]:
    return await _attack(port, seconds, addresses, lambda i, n: f"user{i}x{n}")


ATTACKS = {"one_account": attack_one_account, "stuffing": attack_stuffing}


def start_attack(name: str, port: int, seconds: float, addresses: int) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, __file__, "--attack", name, "--port", str(port),
                             "--seconds", str(seconds), "--addresses", str(addresses)],
                            stdout=subprocess.PIPE, text=True)


def attack_result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate(timeout=300)
    lines = [ln for ln in out.splitlines() if ln.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


# -- the run --------------------------------------------------------------------------------


async def sign_ups(port: int) -> dict[str, int]:
    """One address asks for 150 accounts in a row."""
    cm, c = await session(port, "127.0.0.249")
    outcomes: dict[str, int] = {}
    try:
        for i in range(150):
            reply = await c.request({"t": "sign_up", "name": f"spam{i}", "password": PASSWORD})
            code = reply.get("code", "ok")
            outcomes[code] = outcomes.get(code, 0) + 1
    except ConnectionClosed:
        outcomes["closed"] = 1
    finally:
        await cm.__aexit__(None, None, None)
    return outcomes


async def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="oriente-accounts-")
    proc, port = start_server(os.path.join(tmp, "s.sqlite"))
    try:
        for name, source in (("ana", "127.0.0.1"), ("bob", HONEST)):
            cm, c = await session(port, source)
            assert (await c.request({"t": "sign_up", "name": name, "password": PASSWORD}))["t"] == "ok"
            await cm.__aexit__(None, None, None)
        figures: dict[str, Any] = {"addresses": args.addresses, "seconds": args.seconds}

        figures["argon2_ms"] = round(argon2_ms(), 1)
        print(f"one argon2 verification here, now: {figures['argon2_ms']:.0f} ms")
        cpu, wall = cpu_seconds(proc.pid), time.monotonic()
        base = await honest_sign_ins(port, min(args.seconds, 15.0))
        load = (cpu_seconds(proc.pid) - cpu) / (time.monotonic() - wall)
        p50 = percentile(base, 0.5) * 1000
        print(f"unattacked: bob signs in in {p50:.0f} ms (median of {len(base)}), "
              f"p90 {percentile(base, 0.9) * 1000:.0f} ms; server CPU {load:.0%}")
        figures.update(other_sign_in_p50_ms_unattacked=round(p50, 1),
                       other_sign_in_p90_ms_unattacked=round(percentile(base, 0.9) * 1000, 1))

        attack = start_attack("one_account", port, args.seconds, args.addresses)
        await trio.sleep(1.0)  # the attackers connect and start first
        cpu, wall = cpu_seconds(proc.pid), time.monotonic()
        under = await honest_sign_ins(port, args.seconds - 2.0)
        load = (cpu_seconds(proc.pid) - cpu) / (time.monotonic() - wall)
        result = attack_result(attack)
        hashed = result.get("auth/bad_credentials", 0)
        per_min = hashed * 60.0 / args.seconds
        u50 = percentile(under, 0.5) * 1000
        print(f"one-account flood: {args.addresses} addresses made {result.get('tries', 0)} tries in "
              f"{args.seconds:g} s ({result.get('reconnects', 0)} reconnects after strikes); {hashed} reached the "
              f"hasher ({per_min:.1f} a minute), the rest were refused before it: "
              f"{ {k: v for k, v in result.items() if '/' in k} }")
        print(f"  meanwhile bob signs in in {u50:.0f} ms (median of {len(under)}), "
              f"p90 {percentile(under, 0.9) * 1000:.0f} ms: {u50 / p50:.2f} x unattacked; server CPU {load:.0%}, "
              f"the attackers' own {result.get('cpu_share', 0):.0%}")
        figures.update(attack_tries=result.get("tries", 0), failed_sign_ins_one_account=hashed,
                       failed_per_min_one_account=round(per_min, 1),
                       refused_before_hashing=result.get("tries", 0) - hashed,
                       other_sign_in_p50_ms=round(u50, 1), other_sign_in_p90_ms=round(percentile(under, 0.9) * 1000, 1),
                       other_sign_in_ratio=round(u50 / p50, 2))

        attack = start_attack("stuffing", port, args.seconds, args.addresses)
        await trio.sleep(1.0)
        cpu, wall = cpu_seconds(proc.pid), time.monotonic()
        stuffed = await honest_sign_ins(port, args.seconds - 2.0)
        load = (cpu_seconds(proc.pid) - cpu) / (time.monotonic() - wall)
        result = attack_result(attack)
        s50 = percentile(stuffed, 0.5) * 1000
        print(f"stuffing: {args.addresses} addresses tried {result.get('tries', 0)} names, "
              f"{result.get('auth/bad_credentials', 0)} hashed: "
              f"{ {k: v for k, v in result.items() if '/' in k} }")
        print(f"  meanwhile bob signs in in {s50:.0f} ms (median of {len(stuffed)}), "
              f"p90 {percentile(stuffed, 0.9) * 1000:.0f} ms: {s50 / p50:.2f} x unattacked; server CPU {load:.0%}, "
              f"the attackers' own {result.get('cpu_share', 0):.0%}")
        figures.update(stuffing_tries=result.get("tries", 0), stuffing_hashed=result.get("auth/bad_credentials", 0),
                       other_sign_in_p50_ms_stuffing=round(s50, 1),
                       other_sign_in_p90_ms_stuffing=round(percentile(stuffed, 0.9) * 1000, 1))

        made = await sign_ups(port)
        print(f"sign-ups: one address asked for 150 accounts and got {made.get('ok', 0)} ({made})")
        figures.update(sign_ups_one_address=made.get("ok", 0))
        return figures
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--seconds", type=float, default=60.0, help="each attack phase (default 60)")
    p.add_argument("--addresses", type=int, default=60, help="attacking addresses, 127.0.0.2 and up (default 60)")
    p.add_argument("--quick", action="store_true", help="a sample in about a minute: 20 s phases")
    p.add_argument("--attack", choices=sorted(ATTACKS), help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.quick:
        args.seconds = 20.0
    if not 0 < args.addresses <= 240:
        p.error("--addresses is 1 to 240 (127.0.0.2 to 127.0.0.241)")
    if args.attack:
        result = trio.run(ATTACKS[args.attack], args.port, args.seconds, args.addresses)
        print(json.dumps(result))
        return 0
    figures = trio.run(run, args)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
