"""Bot strength benchmark: the heuristic policy against random ones
(BENCHMARKS.md, `bench/bots.py`).

Six-seat games over the in-process engine, no sockets: one heuristic seat
against five random seats (server/policies/), the heuristic seat rotating
through all six seats (game i puts it at seat i mod 6). Every seat is asked
with its own view and open decision only; negotiation windows close with the
table's Timeout (server/policies/selfplay.py). Every command a policy
returns is asserted to be in its prompt's legal commands (deal proposals
aside, which are never listed) and to be accepted by `engine.apply`.

`heuristic_win_rate` = games in which the heuristic seat ranks first (R9.4,
state.result.ranks; a first rank shared by k seats counts 1/k) divided by
games. Fair share is 1/6. Game seeds are a fixed list (seed, seed+1, ...),
so runs compare.

    python bench/bots.py                  # 1200 games, well under a minute
    python bench/bots.py --games 300      # while iterating

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter

from oriente.server.policies import POLICIES
from oriente.server.policies.selfplay import play
from oriente.server.rules import GameConfig

SEATS = 6
TARGET_WIN_RATE = 0.40


def run(games: int, seed: int, *, hero: str = "heuristic", villain: str = "random") -> dict:
    wins = 0.0
    hero_scores, other_scores = [], []
    hero_ranks, other_ranks = [], []
    endings: Counter = Counter()
    ninja_hero = 0
    commands = 0
    by_seat_wins = [0.0] * SEATS
    start = time.perf_counter()
    for i in range(games):
        hero_seat = i % SEATS
        policies = [POLICIES[hero] if s == hero_seat else POLICIES[villain] for s in range(SEATS)]
        game_seed = seed + i
        played = play(GameConfig(seats=SEATS, seed=game_seed), policies, game_seed)
        result = played.result
        assert result is not None, "the game did not end"
        ranks, scores = list(result.ranks), list(result.scores)
        if ranks[hero_seat] == 1:
            share = 1.0 / ranks.count(1)
            wins += share
            by_seat_wins[hero_seat] += share
        hero_scores.append(scores[hero_seat])
        hero_ranks.append(ranks[hero_seat])
        for s in range(SEATS):
            if s != hero_seat:
                other_scores.append(scores[s])
                other_ranks.append(ranks[s])
        endings[result.reason] += 1
        if result.ninja_victor == hero_seat:
            ninja_hero += 1
        commands += played.commands
    elapsed = time.perf_counter() - start

    def avg(xs: list[float]) -> float:
        return round(sum(xs) / len(xs), 3) if xs else 0.0

    per_seat = games // SEATS
    return {
        "bench": "bots",
        "games": games,
        "seats": SEATS,
        "heuristic_win_rate": round(wins / games, 4) if games else 0.0,
        "fair_share": round(1 / SEATS, 4),
        "mean_rank": avg(hero_ranks),
        "random_mean_rank": avg(other_ranks),
        "mean_score": avg(hero_scores),
        "random_mean_score": avg(other_scores),
        "win_rate_by_seat": [round(w / per_seat, 3) if per_seat else 0.0 for w in by_seat_wins],
        "endings": dict(sorted(endings.items())),
        "heuristic_ninja_victories": ninja_hero,
        "policy_commands": commands,
        "seconds": round(elapsed, 2),
        "seed": seed,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Heuristic bot against five random bots, six seats.")
    p.add_argument("--games", type=int, default=1200, help="games to play (default 1200, at least 1000 to report)")
    p.add_argument("--seed", type=int, default=1, help="first game seed; games use seed, seed+1, ...")
    args = p.parse_args(argv)
    fig = run(args.games, args.seed)
    print(f"bots benchmark: Python {platform.python_version()}, {fig['games']} six-seat games, "
          f"one heuristic seat (rotating) against five random seats, seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"heuristic win rate {fig['heuristic_win_rate']:.3f} (fair share {fig['fair_share']:.3f}); "
          f"by seat {fig['win_rate_by_seat']}")
    print(f"mean rank: heuristic {fig['mean_rank']:.2f}, random {fig['random_mean_rank']:.2f}; "
          f"mean score: heuristic {fig['mean_score']:.2f}, random {fig['random_mean_score']:.2f}")
    endings = ", ".join(f"{k} {v}" for k, v in fig["endings"].items())
    print(f"games ended by: {endings}; Ninja victories of the heuristic seat: {fig['heuristic_ninja_victories']}")
    print(f"every one of {fig['policy_commands']} policy commands was legal and accepted; {fig['seconds']} s")
    ok = fig["heuristic_win_rate"] >= TARGET_WIN_RATE
    print(f"target: heuristic_win_rate >= {TARGET_WIN_RATE:g}: {'met' if ok else 'MISSED'}")
    print(json.dumps(fig, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
