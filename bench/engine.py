"""Engine benchmark: complete random games in one process (docs/benchmarks.md).

Measures the rules alone, so that a slow table can be blamed on the right
layer. The policy is the random one of docs/benchmarks.md (`random_move`,
src/oriente/games/oriente/bots/engine_random.py): pass with probability 1/2 where passing is legal, otherwise a
uniform pick among the other legal game commands; negotiation windows close
by the table's timeout; no deals, no chat.

Counted per command: pending(), legal() for the seat that acts, the pick and
apply(). Setting up a game (new_game) counts toward games per second only.

    python bench/engine.py            # about 1.5 minutes
    python bench/engine.py --quick    # a few seconds
    python bench/engine.py --profile  # cProfile of six-seat games, by tottime

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import _installed  # noqa: F401  (first: says how to run it without the project installed)

from oriente.games.oriente.bots.engine_random import random_move
from oriente.games.oriente.rules import GameConfig, apply, new_game

SEAT_COUNTS = (4, 6, 12)
TARGET_GAMES_PER_S = 100.0  # six seats
TARGET_US_PER_COMMAND = 20.0


@dataclass
class Tally:
    """Running totals for one seat count."""

    seats: int
    games: int = 0
    commands: int = 0
    setup_s: float = 0.0
    play_s: float = 0.0
    endings: Counter = field(default_factory=Counter)
    seasons: int = 0

    def figures(self) -> dict:
        total = self.setup_s + self.play_s
        return {
            "games": self.games,
            "commands": self.commands,
            "seconds": round(total, 3),
            "games_per_s": round(self.games / total, 2) if total else 0.0,
            "us_per_command": round(self.play_s / self.commands * 1e6, 3) if self.commands else 0.0,
            "commands_per_game": round(self.commands / self.games, 2) if self.games else 0.0,
            "seasons_per_game": round(self.seasons / self.games, 2) if self.games else 0.0,
            "endings": dict(sorted(self.endings.items())),
        }


def play_game(seats: int, seed: int, rng: random.Random, tally: Tally) -> None:
    """One complete game; its timings go into `tally`."""
    clock = time.perf_counter
    t0 = clock()
    state, _ = new_game(GameConfig(seats=seats, seed=seed))
    t1 = clock()
    commands = 0
    while True:
        move = random_move(state, rng)
        if move is None:
            break
        apply(state, move[0], move[1])
        commands += 1
    t2 = clock()
    tally.games += 1
    tally.commands += commands
    tally.setup_s += t1 - t0
    tally.play_s += t2 - t1
    tally.endings[state.over_reason or "?"] += 1
    tally.seasons += state.season


def run(seats: int, seconds: float, games: int | None, rng: random.Random) -> Tally:
    """Play until the wall-time budget (or the game count) is spent.

    A few unmeasured games first, so imports and caches do not count."""
    warm = Tally(seats)
    for _ in range(3):
        play_game(seats, rng.getrandbits(63), rng, warm)
    tally = Tally(seats)
    start = time.perf_counter()
    while True:
        if games is not None:
            if tally.games >= games:
                break
        elif time.perf_counter() - start >= seconds:
            break
        play_game(seats, rng.getrandbits(63), rng, tally)
    return tally


def table(results: list[Tally]) -> str:
    head = f"{'seats':>5} {'games':>7} {'games/s':>9} {'us/cmd':>8} {'cmds/game':>10} {'seasons':>8}  endings"
    lines = [head, "-" * len(head)]
    for t in results:
        f = t.figures()
        endings = ", ".join(f"{k} {v}" for k, v in f["endings"].items())
        lines.append(
            f"{t.seats:>5} {f['games']:>7} {f['games_per_s']:>9.1f} {f['us_per_command']:>8.2f}"
            f" {f['commands_per_game']:>10.1f} {f['seasons_per_game']:>8.1f}  {endings}"
        )
    return "\n".join(lines)


def verdict(six: dict) -> str:
    ok_games = six["games_per_s"] >= TARGET_GAMES_PER_S
    ok_us = six["us_per_command"] <= TARGET_US_PER_COMMAND
    return (
        f"targets (6 seats): games/s >= {TARGET_GAMES_PER_S:g}: {'met' if ok_games else 'MISSED'}; "
        f"us/command <= {TARGET_US_PER_COMMAND:g}: {'met' if ok_us else 'MISSED'}"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark the rules engine with random complete games.")
    p.add_argument("--quick", action="store_true", help="a few seconds in all, for smoke runs")
    p.add_argument("--seconds", type=float, default=None, help="wall time per seat count (default 30)")
    p.add_argument("--games", type=int, default=None, help="a fixed number of games per seat count instead")
    p.add_argument("--seats", type=int, nargs="+", default=list(SEAT_COUNTS), help="seat counts to run")
    p.add_argument("--seed", type=int, default=None, help="master seed for game seeds and the policy")
    p.add_argument("--profile", action="store_true", help="profile the run with cProfile (figures are inflated)")
    p.add_argument("--top", type=int, default=30, help="profile rows to print")
    args = p.parse_args(argv)

    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 30.0)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    seat_counts = [6] if args.profile and args.seats == list(SEAT_COUNTS) else args.seats

    print(f"engine benchmark: Python {platform.python_version()} on {platform.machine()}, "
          f"master seed {seed}, {f'{args.games} games' if args.games else f'{seconds:g}s'} per seat count")
    profiler = cProfile.Profile() if args.profile else None
    results = []
    for seats in seat_counts:
        if profiler:
            profiler.enable()
        results.append(run(seats, seconds, args.games, rng))
        if profiler:
            profiler.disable()
    print(table(results))

    by_seats = {str(t.seats): t.figures() for t in results}
    main_fig = by_seats.get("6") or next(iter(by_seats.values()))
    if "6" in by_seats:
        print(verdict(by_seats["6"]))
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(args.top)
        print(out.getvalue())
    summary = {
        "bench": "engine",
        "seats": 6 if "6" in by_seats else results[0].seats,
        "games_per_s": main_fig["games_per_s"],
        "us_per_command": main_fig["us_per_command"],
        "commands_per_game": main_fig["commands_per_game"],
        "by_seats": by_seats,
        "seed": seed,
        "python": platform.python_version(),
        "profiled": bool(profiler),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
