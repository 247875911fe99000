"""Tournament benchmark: a bot tournament over real sockets (docs/benchmarks.md).

The server runs in its own process (bench/_server_main.py) with its real
SQLite store in a fresh temporary directory; every bot lives in this
process, each an SDK client on its own connection that enters the
tournament and plays every table it is seated at (`tournament_seats`).
Tables of 6 on zero-wait timers; the rounds are seated and started by the
tournament code itself (a Swiss event with `auto_rounds`: each round
starts as soon as the one before has been played), not by the benchmark.
The bots play the shared random policy (pass with probability 1/2 where
passing is legal, otherwise a uniform pick among the legal decision
commands; no deals, no chat).

    python bench/tournament.py              # 10,000 games: 50 tables a round, 200 rounds
    python bench/tournament.py --quick      # a sample: 10 tables a round, 6 rounds
    python bench/tournament.py --tables 30 --games 600

Reported: `games_per_s` over the run (first round started to the last
game ended), `projected_minutes_10k` = 10,000 / games_per_s / 60, and the
CPU each process used (what limits the run: the process near one core, or
the machine). Baseline, in the same run against the same server: the same
bots play the same games at tables the benchmark creates itself, round
after round (`baseline_games_per_s`); `ratio` = games_per_s / baseline,
what the tournament machinery costs. The last line is one line of JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import _server_main
import trio

from oriente.clients.sdk import Client, ServerError

HERE = os.path.dirname(os.path.abspath(__file__))
SEATS = 6
TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0, "zero_wait": True,
          "away_after": 3}
_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | None = None) -> float:
    """User plus system CPU time of a process (all its threads)."""
    if pid is None:
        t = os.times()
        return t.user + t.system
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def start_server(tmp: str) -> tuple[subprocess.Popen[bytes], int]:
    proc, port, _ = _server_main.start(os.path.join(tmp, "s.sqlite"), os.path.join(tmp, "server.log"))
    return proc, port


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """The random policy (docs/benchmarks.md): pass with probability 1/2 where
    passing is legal, else a uniform pick among the other decision commands."""
    options = list(legal)  # the SDK leaves deal commands out of a turn's legal list
    if not options:
        return None
    passes = [c for c in options if c["type"] == "Pass"]
    others = [c for c in options if c["type"] != "Pass"]
    if passes and (not others or rng.random() < 0.5):
        return passes[0]
    return rng.choice(others)


async def bot(url: str, tournament: str, token: str, seed: int, games: list[int]) -> None:
    rng = random.Random(seed)
    async with Client.connect(url) as client:
        async for seat in client.tournament_seats(tournament, token):
            async for turn in seat.turns():
                command = choose(turn.legal, rng)
                if command is not None:
                    await turn.answer(command)
            games[0] += 1


async def run(url: str, tables: int, rounds: int) -> dict[str, Any]:
    async with Client.connect(url) as org:
        tid, token = await org.create_tournament(
            name="Benchmark", game="oriente", format="swiss", rounds=rounds, table_sizes=[SEATS], timers=TIMERS,
            show_up_s=60.0, auto_rounds=True, seed=1)
        tokens = [(await org.register(tid, f"bot{i}", kind="bot"))[1] for i in range(tables * SEATS)]
        seats_played = [0]
        async with trio.open_nursery() as nursery:
            for i, t in enumerate(tokens):
                nursery.start_soon(bot, url, tid, t, i, seats_played)
            await trio.sleep(1.0)  # every bot connected and following
            started = time.perf_counter()
            await org.direct(tid, token, "start_round")
            last = 0
            async for state in org.tournament_states(tid):
                if state["rounds_played"] != last:
                    last = state["rounds_played"]
                    print(f"  round {last} of {rounds} started at {time.perf_counter() - started:.1f} s", flush=True)
                if state["finished"]:
                    break
            elapsed = time.perf_counter() - started
    return {"seconds": elapsed, "games": tables * rounds, "seats_played": seats_played[0]}


async def baseline_bot(url: str, table: str, seed: int) -> None:
    rng = random.Random(seed)
    async with Client.connect(url) as client:
        seat = await client.join(table, f"b{seed}")
        async for turn in seat.turns():
            command = choose(turn.legal, rng)
            if command is not None:
                await turn.answer(command)


async def baseline(url: str, tables: int, rounds: int) -> float:
    """The same bots and games without the tournament: each round, the
    benchmark itself creates the tables and the bots join them (a fresh
    connection per game, as the tournament's bots resume a seat per game);
    the next round starts when every game has ended. Seconds taken."""
    started = time.perf_counter()
    for r in range(rounds):
        async with trio.open_nursery() as nursery:
            for t in range(tables):
                nursery.start_soon(baseline_table, url, (r * tables + t) * SEATS)
    return time.perf_counter() - started


async def baseline_table(url: str, first_seed: int) -> None:
    """One table: created on a connection of its own (T6.2 allows one
    address 20 open tables: a refusal waits for others to start), then its
    six bots join and play it."""
    async with Client.connect(url) as creator:
        while True:
            try:
                table = await creator.create_table(seats=SEATS, timers=TIMERS, name=f"baseline {first_seed}")
                break
            except ServerError as exc:
                if exc.code != "lobby/too_many":
                    raise
                await trio.sleep(0.05)
        async with trio.open_nursery() as nursery:
            for s in range(SEATS):
                nursery.start_soon(baseline_bot, url, table, first_seed + s)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="a sample of a few minutes: 10 tables, 6 rounds")
    p.add_argument("--tables", type=int, default=None, help="tables a round (default 50; quick 10)")
    p.add_argument("--games", type=int, default=None, help="games in all (default 10,000; quick 60)")
    p.add_argument("--baseline-rounds", type=int, default=None,
                   help="rounds of the baseline (default: as many as the tournament; the full run: 10)")
    args = p.parse_args(argv)
    tables = args.tables or (10 if args.quick else 50)
    if args.baseline_rounds is None and not args.quick and args.games is None:
        args.baseline_rounds = 10
    games = args.games or (60 if args.quick else 10_000)
    rounds = max(1, math.ceil(games / tables))
    with tempfile.TemporaryDirectory(prefix="oriente-bench-tournament-") as tmp:
        proc, port = start_server(tmp)
        try:
            server_cpu0, bots_cpu0 = cpu_seconds(proc.pid), cpu_seconds()
            print(f"{tables} tables of {SEATS} bots a round, {rounds} rounds ({tables * rounds} games), "
                  f"server pid {proc.pid} on port {port}", flush=True)
            out = trio.run(run, f"ws://127.0.0.1:{port}", tables, rounds)
            server_cpu, bots_cpu = cpu_seconds(proc.pid) - server_cpu0, cpu_seconds() - bots_cpu0
            base_rounds = rounds if args.baseline_rounds is None else min(rounds, args.baseline_rounds)
            print(f"baseline: the same bots at {tables} tables the benchmark creates itself, "
                  f"{base_rounds} rounds", flush=True)
            base_seconds = trio.run(baseline, f"ws://127.0.0.1:{port}", tables, base_rounds)
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
    seconds = out["seconds"]
    games_per_s = out["games"] / seconds
    projected = 10_000 / games_per_s / 60
    server_share, bots_share = server_cpu / seconds, bots_cpu / seconds
    limit = ("the server process (its one trio thread is near a core)" if server_share >= 0.85 else
             "the bot process (one trio thread drives every bot connection)" if bots_share >= 0.85 else
             "the machine's two cores, shared by both processes and everything else running")
    base_games_per_s = tables * base_rounds / base_seconds
    ratio = games_per_s / base_games_per_s
    print(f"games: {out['games']} in {seconds:.1f} s = {games_per_s:.2f} games/s; "
          f"10,000 games would take {projected:.1f} min")
    print(f"baseline: {tables * base_rounds} games in {base_seconds:.1f} s = {base_games_per_s:.2f} games/s; "
          f"the tournament runs at {ratio:.2f} of it")
    print(f"CPU: server {server_cpu:.0f} s ({server_share:.0%} of a core), bots {bots_cpu:.0f} s "
          f"({bots_share:.0%}); load average {os.getloadavg()[0]:.1f}; limited by {limit}")
    print(json.dumps({"tables": tables, "seats": SEATS, "rounds": rounds, "games": out["games"],
                      "seconds": round(seconds, 1), "games_per_s": round(games_per_s, 3),
                      "baseline_games_per_s": round(base_games_per_s, 3), "ratio": round(ratio, 2),
                      "projected_minutes_10k": round(projected, 1), "server_cpu_share": round(server_share, 2),
                      "bots_cpu_share": round(bots_share, 2), "limit": limit,
                      "load_average": round(os.getloadavg()[0], 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
