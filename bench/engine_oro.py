"""Oro engine benchmark: complete random games in one process, and the
heuristic policy's strength against random seats (the engine and bots
benchmarks of docs/benchmarks.md, for Oro).

Engine part, per seat count (2, 3 and 4; both variants alternate, game i
plays the gods variant when i is odd): the random policy of
docs/benchmarks.md adapted to Oro — where the turn could end now (a draw, or ending the turn
when nothing is left to draw) it does so with probability 1/2, otherwise it
picks uniformly among the legal commands. The setup round is answered by
its pivot. Counted per command: pending(), legal() for the seat that acts,
the pick and apply(); new_game counts toward games per second only.

Strength part: one heuristic seat against random seats (src/oriente/games/oro/bots.py),
played through the port by the one self-play loop (games/kit/selfplay.py):
each seat asked with its own view and prompt only, the heuristic seat
rotating (game i puts it at seat i mod n), fixed seeds so runs compare.
`heuristic_win_rate[n]` = games the heuristic seat ranks first (a first
rank shared by k seats counts 1/k) / games; fair share is 1/n.

    python bench/engine_oro.py            # about a minute
    python bench/engine_oro.py --quick    # a few seconds

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from dataclasses import dataclass

import _installed  # noqa: F401  (first: says how to run it without the project installed)

from oriente import games
from oriente.games.kit.selfplay import play
from oriente.games.oro.rules import Command, OroConfig, OroState, apply, legal, new_game, pending

SEAT_COUNTS = (2, 3, 4)
ENDINGS = frozenset({"Draw", "EndTurn"})


@dataclass
class Tally:
    seats: int
    games: int = 0
    commands: int = 0
    setup_s: float = 0.0
    play_s: float = 0.0

    def figures(self) -> dict:
        total = self.setup_s + self.play_s
        return {
            "games": self.games,
            "commands": self.commands,
            "games_per_s": round(self.games / total, 2) if total else 0.0,
            "us_per_command": round(self.play_s / self.commands * 1e6, 3) if self.commands else 0.0,
            "commands_per_game": round(self.commands / self.games, 2) if self.games else 0.0,
        }


def random_move(state: OroState, rng: random.Random) -> tuple[int, Command] | None:
    """The benchmark's random policy for the seat waited on."""
    d = pending(state)
    if not d:
        return None
    seat = d[0].pivot
    assert seat is not None
    options = legal(state, seat)
    endings = [c for c in options if type(c).__name__ in ENDINGS]
    if endings and rng.random() < 0.5:
        return seat, rng.choice(endings)
    return seat, rng.choice(options)


def play_random(seats: int, seed: int, rng: random.Random, tally: Tally) -> None:
    clock = time.perf_counter
    t0 = clock()
    state, _ = new_game(OroConfig(seats=seats, seed=seed, gods=seed % 2 == 1))
    t1 = clock()
    commands = 0
    while (move := random_move(state, rng)) is not None:
        apply(state, move[0], move[1])
        commands += 1
    t2 = clock()
    tally.games += 1
    tally.commands += commands
    tally.setup_s += t1 - t0
    tally.play_s += t2 - t1


def strength(seats: int, count: int) -> float:
    port = games.load("oro")
    wins = 0.0
    for g in range(count):
        seat = g % seats
        policies = ["heuristic" if s == seat else "random" for s in range(seats)]
        result = play(port, seats, g, policies, options={"gods": g % 2 == 1}).result
        assert result is not None
        ranks = result["ranks"]
        firsts = [s for s in range(seats) if ranks[s] == 1]
        wins += (seat in firsts) / len(firsts)
    return wins / count


def main() -> None:
    p = argparse.ArgumentParser(description="Benchmark Oro's rules engine and its heuristic policy.")
    p.add_argument("--quick", action="store_true", help="a few seconds in all, for smoke runs")
    p.add_argument("--seconds", type=float, default=None, help="engine seconds per seat count")
    p.add_argument("--games", type=int, default=None, help="strength games per seat count")
    args = p.parse_args()
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 12.0)
    games = args.games if args.games is not None else (30 if args.quick else 300)
    print(f"python {platform.python_version()} on {platform.machine()}; {seconds:.0f} s per seat count, "
          f"{games} strength games per seat count", file=sys.stderr)
    engine = {}
    for n in SEAT_COUNTS:
        tally, rng, seed = Tally(n), random.Random(n), 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            play_random(n, seed, rng, tally)
            seed += 1
        engine[n] = tally.figures()
        print(f"{n} seats: {engine[n]}")
    rates = {}
    for n in SEAT_COUNTS:
        rates[n] = round(strength(n, games), 3)
        print(f"{n} seats: heuristic win rate {rates[n]} against random (fair share {1 / n:.3f})")
    summary = {
        "bench": "engine_oro",
        "games_per_s": engine[4]["games_per_s"],
        "us_per_command": engine[4]["us_per_command"],
        "by_seats": {str(n): engine[n] for n in SEAT_COUNTS},
        "heuristic_win_rate": {str(n): rates[n] for n in SEAT_COUNTS},
        "strength_games": games,
    }
    print(json.dumps(summary, separators=(",", ":")))


if __name__ == "__main__":
    main()
