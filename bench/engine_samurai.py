"""Samurai engine benchmark: complete random games in one process, and the
heuristic policy's strength against random ones (docs/benchmarks.md, as
bench/engine.py and bench/bots.py measure Oriente).

The random policy is the benchmark's usual one: where ending the turn is
legal (the game's "pass"), end it with probability 1/2; otherwise a uniform
pick among the legal commands; at the tile choice 5 random tiles. Counted
per command: pending(), legal() for the seat that acts, the pick and
apply(). Setting up a game (new_game) counts toward games per second only.

Also reported: the size of a turn's prompt as the table would send it
(msgpack of decision_view, whose `legal` lists every placement), and the
heuristic's win rate — the heuristic seat rotating through the seats against
random ones; a shared first place counts 1/k, a game nobody wins 0.

    python bench/engine_samurai.py            # about 2 minutes
    python bench/engine_samurai.py --quick    # a few seconds
    python bench/engine_samurai.py --revision 1   # the rules and map of revision 1

How the games end is counted by reason (S5): `last_figure` and `set_aside`
are the rulebook's two endings, `no_moves` the guard of S5.4, which the map
of rules revision 2 never reaches (S5.6) and revision 1's often did.

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import msgspec

from oriente import games
from oriente.games.kit.selfplay import play
from oriente.games.samurai.rules import (
    ChooseTiles,
    Command,
    EndTurn,
    GameConfig,
    Topic,
    apply,
    decision_view,
    legal,
    new_game,
    pending,
)
from oriente.games.samurai.rules.config import RULES_REVISION, RULES_REVISIONS

SEAT_COUNTS = (2, 3, 4)


@dataclass
class Tally:
    seats: int
    games: int = 0
    commands: int = 0
    setup_s: float = 0.0
    play_s: float = 0.0
    endings: Counter = field(default_factory=Counter)
    turns: int = 0
    legal_sizes: list[int] = field(default_factory=list)
    prompt_bytes: list[int] = field(default_factory=list)

    def figures(self) -> dict:
        total = self.setup_s + self.play_s
        return {
            "games": self.games,
            "commands": self.commands,
            "seconds": round(total, 3),
            "games_per_s": round(self.games / total, 2) if total else 0.0,
            "us_per_command": round(self.play_s / self.commands * 1e6, 3) if self.commands else 0.0,
            "commands_per_game": round(self.commands / self.games, 2) if self.games else 0.0,
            "turns_per_game": round(self.turns / self.games, 2) if self.games else 0.0,
            "legal_mean": round(statistics.fmean(self.legal_sizes), 1) if self.legal_sizes else 0.0,
            "legal_max": max(self.legal_sizes, default=0),
            "turn_prompt_bytes_p50": int(statistics.median(self.prompt_bytes)) if self.prompt_bytes else 0,
            "turn_prompt_bytes_max": max(self.prompt_bytes, default=0),
            "endings": dict(sorted(self.endings.items())),
        }


def play_game(seats: int, seed: int, rng: random.Random, tally: Tally, sample_prompts: bool,
              revision: int = RULES_REVISION) -> None:
    clock = time.perf_counter
    t0 = clock()
    state, _ = new_game(GameConfig(seats=seats, seed=seed, rules_revision=revision))
    t1 = clock()
    commands = 0
    while True:
        decisions = pending(state)
        if not decisions:
            break
        d = decisions[0]
        seat = d.pivot
        assert seat is not None
        cmd: Command
        if d.topic is Topic.SELECT:
            cmd = ChooseTiles(decision=d.id, tiles=tuple(rng.sample(range(20), 5)))
        else:
            options = legal(state, seat)
            tally.legal_sizes.append(len(options))
            ends = [c for c in options if isinstance(c, EndTurn)]
            cmd = ends[0] if ends and rng.random() < 0.5 else options[rng.randrange(len(options))]
        apply(state, seat, cmd)
        commands += 1
    t2 = clock()
    tally.games += 1
    tally.commands += commands
    tally.setup_s += t1 - t0
    tally.play_s += t2 - t1
    tally.turns += state.turn
    assert state.result is not None
    tally.endings[state.result.reason] += 1
    if sample_prompts:  # outside the timed part: replay one game and size its turn prompts
        state, _ = new_game(GameConfig(seats=seats, seed=seed, rules_revision=revision))
        r = random.Random(seed)
        while pending(state):
            d = pending(state)[0]
            assert d.pivot is not None
            if d.topic is Topic.SELECT:
                apply(state, d.pivot, ChooseTiles(decision=d.id, tiles=tuple(r.sample(range(20), 5))))
                continue
            if d.topic is Topic.TURN:
                tally.prompt_bytes.append(len(msgspec.msgpack.encode(decision_view(state, d.pivot))))
            options = legal(state, d.pivot)
            ends = [c for c in options if isinstance(c, EndTurn)]
            apply(state, d.pivot, ends[0] if ends and r.random() < 0.5 else r.choice(options))


def run(seats: int, seconds: float, games: int | None, rng: random.Random, revision: int) -> Tally:
    warm = Tally(seats)
    for _ in range(3):
        play_game(seats, rng.getrandbits(63), rng, warm, False, revision)
    tally = Tally(seats)
    start = time.perf_counter()
    while (tally.games < games) if games is not None else (time.perf_counter() - start < seconds):
        play_game(seats, rng.getrandbits(63), rng, tally, tally.games < 5, revision)
    return tally


def strength(seats: int, count: int, seed: int, revision: int, endings: Counter) -> float:
    """The heuristic's share of wins against random seats (it rotates),
    through the port by the one self-play loop (games/kit/selfplay.py);
    how those games end is added to `endings`."""
    port = games.load("samurai")
    wins = 0.0
    for g in range(count):
        seat = g % seats
        result = play(port, seats, seed + g, ["heuristic" if s == seat else "random" for s in range(seats)],
                      options={"rules_revision": revision}).result
        assert result is not None
        endings[result["reason"]] += 1
        if result["winners"] and result["ranks"][seat] == 1:
            wins += 1 / len(result["winners"])
    return wins / count


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Benchmark Samurai's rules engine and reference policies.")
    p.add_argument("--quick", action="store_true", help="a few seconds in all, for smoke runs")
    p.add_argument("--seconds", type=float, default=None, help="wall time per seat count (default 20)")
    p.add_argument("--games", type=int, default=None, help="a fixed number of random games per seat count")
    p.add_argument("--strength-games", type=int, default=None, help="heuristic games per seat count (default 200)")
    p.add_argument("--seed", type=int, default=None, help="master seed")
    p.add_argument("--revision", type=int, choices=RULES_REVISIONS, default=RULES_REVISION,
                   help=f"the rules revision and its map (default {RULES_REVISION}, S8)")
    args = p.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (1.0 if args.quick else 20.0)
    strength_games = args.strength_games if args.strength_games is not None else (12 if args.quick else 200)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    print(f"samurai engine benchmark: Python {platform.python_version()} on {platform.machine()}, master seed {seed},"
          f" rules revision {args.revision}")

    results = [run(seats, seconds, args.games, rng, args.revision) for seats in SEAT_COUNTS]
    head = (f"{'seats':>5} {'games':>6} {'games/s':>8} {'us/cmd':>7} {'cmds/game':>9} {'legal':>6} {'legal max':>9}"
            f" {'prompt B p50/max':>17}  endings")
    print(head)
    print("-" * len(head))
    for t in results:
        f = t.figures()
        endings = ", ".join(f"{k} {v}" for k, v in f["endings"].items())
        print(f"{t.seats:>5} {f['games']:>6} {f['games_per_s']:>8.1f} {f['us_per_command']:>7.1f}"
              f" {f['commands_per_game']:>9.1f} {f['legal_mean']:>6.1f} {f['legal_max']:>9}"
              f" {f['turn_prompt_bytes_p50']:>8}/{f['turn_prompt_bytes_max']:<8}  {endings}")

    rates = {}
    heuristic_endings: dict[str, Counter] = {}
    for seats in SEAT_COUNTS:
        t0 = time.perf_counter()
        ended: Counter = Counter()
        rates[str(seats)] = round(strength(seats, strength_games, seed, args.revision, ended), 3)
        heuristic_endings[str(seats)] = ended
        endings = ", ".join(f"{k} {v}" for k, v in sorted(ended.items()))
        print(f"heuristic vs random, {seats} seats: wins {rates[str(seats)]:.3f} of {strength_games} games"
              f" (fair share {1 / seats:.3f}), {time.perf_counter() - t0:.1f}s; endings {endings}")
    by_seats = {str(t.seats): t.figures() for t in results}
    summary = {
        "bench": "engine_samurai",
        "seats": 4,
        "games_per_s": by_seats["4"]["games_per_s"],
        "us_per_command": by_seats["4"]["us_per_command"],
        "commands_per_game": by_seats["4"]["commands_per_game"],
        "heuristic_win_rate": rates,
        "strength_games": strength_games,
        "rules_revision": args.revision,
        "heuristic_endings": {k: dict(sorted(v.items())) for k, v in heuristic_endings.items()},
        "by_seats": by_seats,
        "seed": seed,
        "python": platform.python_version(),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
