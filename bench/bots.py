"""Bot strength benchmark: the reference policies against each other
(docs/benchmarks.md, `bench/bots.py`).

Six-seat games over the in-process engine, no sockets
(src/oriente/games/oriente/bots/selfplay.py): every seat is asked with its own view and
open decision only; deals and talk are on; windows are zero-wait, so a bot
that bargains does it before the decision it concerns is answered (R10.3).
Every command a policy returns must be one of its prompt's legal commands
(deal proposals aside, which are never listed) and accepted by
`engine.apply`; a refusal is counted (there are no races in one process, so
every refusal would be a bug, and the target is none).

Three tables, game seeds a fixed list (seed, seed+1, ...) so runs compare:

1. **heuristic vs random** (as before): one heuristic seat against five
   random seats, the heuristic seat rotating through all six seats.
   `heuristic_win_rate` = games it ranks first (R9.4; a first rank shared
   by k seats counts 1/k) / games; fair share 1/6.
2. **negotiator alone**: one negotiator against five heuristic seats, its
   seat rotating. `negotiator_alone_win_rate`; target >= 1.2 x 1/6.
3. **mixed**: three negotiators and three heuristic seats, rotated through
   all 20 arrangements of three seats among six (so that backing each other
   is not the whole story). `negotiator_vs_heuristic` = the negotiators'
   win rate per seat divided by the heuristic seats'; target >= 1.3.

Tables 2 and 3 are played for every negotiating character
(server/policies/characters.py): the `negotiator_*` figures are the
default character's (`shrewd`), and `by_character` gives each character's
own, `win_rate_vs_heuristic` (table 3's quotient; target >= 1.3 for every
character) among them, with `paid_promises_kept_rate`: of the promises its
seats were paid for (a deal moved a card to the promiser), those the ledger
settled kept ÷ kept or broken, settled before the game's last season
(released ones left out). The other characters' tables are smaller
(`--character-games`, default half of `--games`).

Deal figures count the negotiator seats of tables 2 and 3: deals proposed,
deals executed that they were party to ("accepted"), promises kept and
broken, per game; `deals_accepted_per_game` counts every deal that executed
at those tables. `bought_support_share` is the share of fights whose winner
would have lost without the supporters it paid for (and their
reinforcements). `decision_median_ms` is the negotiator's `choose` as the
pivot (the seat proxy's path), measured inside the game loop, view building
excluded; target < 2 ms.

    python bench/bots.py                  # 1200 games of each table (600 for the other characters),
                                          # about 7 minutes on 2 cores
    python bench/bots.py --quick          # 120 of each (60), a minute
    python bench/bots.py --jobs 1         # one process (the default uses two)

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import _installed  # noqa: F401  (first: says how to run it without the project installed)

from oriente.games.oriente.bots import CHARACTERS, POLICIES
from oriente.games.oriente.bots.characters import DEFAULT
from oriente.games.oriente.bots.selfplay import play
from oriente.games.oriente.rules import GameConfig

SEATS = 6
ARRANGEMENTS = list(itertools.combinations(range(SEATS), 3))  # the 20 mixed tables
TARGET_HEURISTIC = 0.40
TARGET_ALONE = 1.2 / SEATS
TARGET_MIXED = 1.3
TARGET_DECISION_MS = 2.0


@dataclass
class Figures:
    """Sums over games of one table kind."""

    games: int = 0
    hero_seats: int = 0  # seat-games played by the policy under test
    other_seats: int = 0
    hero_wins: float = 0.0
    other_wins: float = 0.0
    hero_ranks: int = 0
    other_ranks: int = 0
    ninja_wins: int = 0  # games the policy under test won by three Ninjas (R9.1)
    proposed: int = 0
    accepted: int = 0
    kept: int = 0
    broken: int = 0
    paid_kept: int = 0  # promises the policy under test was paid for, settled before the last season
    paid_broken: int = 0
    executed: int = 0
    fights: int = 0
    bought: int = 0
    commands: int = 0
    refused: Counter = field(default_factory=Counter)
    decide_ns: list[int] = field(default_factory=list)
    talk_ns: list[int] = field(default_factory=list)

    def add(self, other: Figures) -> None:
        for name in ("games", "hero_seats", "other_seats", "hero_wins", "other_wins", "hero_ranks", "other_ranks",
                     "ninja_wins", "proposed", "accepted", "kept", "broken", "paid_kept", "paid_broken",
                     "executed", "fights", "bought", "commands"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.refused.update(other.refused)
        self.decide_ns.extend(other.decide_ns)
        self.talk_ns.extend(other.talk_ns)


def one_game(kind: str, i: int, seed: int, character: str = DEFAULT.name) -> Figures:
    """Play game i of a table kind ('heuristic', 'alone', 'mixed'); the
    negotiating seats play `character`."""
    if kind == "heuristic":
        hero, villain, heroes = "heuristic", "random", {i % SEATS}
    elif kind == "alone":
        hero, villain, heroes = character, "heuristic", {i % SEATS}
    else:
        hero, villain, heroes = character, "heuristic", set(ARRANGEMENTS[i % len(ARRANGEMENTS)])
    policies = [POLICIES[hero] if s in heroes else POLICIES[villain] for s in range(SEATS)]
    game_seed = seed + i
    played = play(GameConfig(seats=SEATS, seed=game_seed), policies, game_seed, strict=False,
                  timing=hero != "heuristic")
    result = played.result
    assert result is not None, "the game did not end"
    ranks = list(result.ranks)
    firsts = ranks.count(1)
    f = Figures(games=1, hero_seats=len(heroes), other_seats=SEATS - len(heroes), commands=played.commands)
    for s in range(SEATS):
        share = 1.0 / firsts if ranks[s] == 1 else 0.0
        if s in heroes:
            f.hero_wins += share
            f.hero_ranks += ranks[s]
        else:
            f.other_wins += share
            f.other_ranks += ranks[s]
    if result.ninja_victor in heroes:
        f.ninja_wins += 1
    t = played.tally
    f.proposed = sum(t.proposed[s] for s in heroes)
    f.accepted = sum(t.executed[s] for s in heroes)
    f.kept = sum(t.kept[s] for s in heroes)
    f.broken = sum(t.broken[s] for s in heroes)
    f.paid_kept, f.paid_broken = t.paid_kept(heroes, played.state.season)
    f.executed, f.fights, f.bought = t.deals_executed, t.fights, t.bought_fights
    f.refused = played.refused
    for s in heroes:
        f.decide_ns.extend(played.decide_ns[s])
        f.talk_ns.extend(played.talk_ns[s])
    return f


def _batch(args: tuple[str, int, int, int, str]) -> Figures:
    kind, start, stop, seed, character = args
    total = Figures()
    for i in range(start, stop):
        total.add(one_game(kind, i, seed, character))
    return total


def run_table(kind: str, games: int, seed: int, pool: ProcessPoolExecutor | None,
              character: str = DEFAULT.name) -> Figures:
    chunk = 60
    batches = [(kind, a, min(games, a + chunk), seed, character) for a in range(0, games, chunk)]
    total = Figures()
    for part in (pool.map(_batch, batches) if pool is not None else map(_batch, batches)):
        total.add(part)
    return total


def _rate(x: float, n: int) -> float:
    return round(x / n, 4) if n else 0.0


def _ms(ns: list[int], q: float) -> float:
    if not ns:
        return 0.0
    if q == 0.5:
        return round(statistics.median(ns) / 1e6, 3)
    return round(sorted(ns)[min(len(ns) - 1, int(q * len(ns)))] / 1e6, 3)


def character_figures(alone: Figures, mixed: Figures) -> dict:
    """One character's figures from its tables 2 and 3."""
    neg = mixed.hero_wins / mixed.hero_seats if mixed.hero_seats else 0.0
    heu = mixed.other_wins / mixed.other_seats if mixed.other_seats else 0.0
    both = Figures()
    both.add(alone)
    both.add(mixed)
    n = both.games
    return {
        "games": n,
        "win_rate_vs_heuristic": round(neg / heu, 3) if heu else 0.0,
        "mixed_win_rate": round(neg, 4),
        "heuristic_mixed_win_rate": round(heu, 4),
        "alone_win_rate": _rate(alone.hero_wins, alone.games),
        "alone_mean_rank": _rate(alone.hero_ranks, alone.hero_seats),
        "mixed_mean_rank": _rate(mixed.hero_ranks, mixed.hero_seats),
        "paid_promises_kept_rate": _rate(both.paid_kept, both.paid_kept + both.paid_broken),
        "paid_promises_settled": both.paid_kept + both.paid_broken,
        "deals_proposed_per_game": _rate(both.proposed, n),
        "deals_executed_per_game": _rate(both.accepted, n),
        "promises_kept_per_game": _rate(both.kept, n),
        "promises_broken_per_game": _rate(both.broken, n),
        "ninja_win_share": _rate(alone.ninja_wins + mixed.ninja_wins, max(1, round(alone.hero_wins + mixed.hero_wins))),
    }


def summarise(h: Figures, alone: Figures, mixed: Figures, seconds: float, seed: int,
              others: dict[str, tuple[Figures, Figures]] | None = None) -> dict:
    negotiated = Figures()
    negotiated.add(alone)
    negotiated.add(mixed)
    n_games = alone.games + mixed.games
    neg_mixed = mixed.hero_wins / mixed.hero_seats if mixed.hero_seats else 0.0
    heu_mixed = mixed.other_wins / mixed.other_seats if mixed.other_seats else 0.0
    refused = h.refused + alone.refused + mixed.refused
    for a, m in (others or {}).values():
        refused += a.refused + m.refused
    return {
        "bench": "bots",
        "games": h.games + alone.games + mixed.games,
        "seats": SEATS,
        "fair_share": round(1 / SEATS, 4),
        "heuristic_win_rate": _rate(h.hero_wins, h.games),
        "heuristic_mean_rank": _rate(h.hero_ranks, h.hero_seats),
        "random_mean_rank": _rate(h.other_ranks, h.other_seats),
        "negotiator_alone_win_rate": _rate(alone.hero_wins, alone.games),
        "negotiator_alone_mean_rank": _rate(alone.hero_ranks, alone.hero_seats),
        "heuristic_alone_table_win_rate": _rate(alone.other_wins, alone.other_seats),
        "negotiator_mixed_win_rate": round(neg_mixed, 4),
        "heuristic_mixed_win_rate": round(heu_mixed, 4),
        "negotiator_vs_heuristic": round(neg_mixed / heu_mixed, 3) if heu_mixed else 0.0,
        "negotiator_mixed_mean_rank": _rate(mixed.hero_ranks, mixed.hero_seats),
        "heuristic_mixed_mean_rank": _rate(mixed.other_ranks, mixed.other_seats),
        "negotiator_ninja_win_share": _rate(alone.ninja_wins + mixed.ninja_wins,
                                            max(1, round(alone.hero_wins + mixed.hero_wins))),
        "deals_proposed_per_game": _rate(negotiated.proposed, n_games),
        "deals_accepted_per_game": _rate(negotiated.executed, n_games),
        "negotiator_deals_executed_per_game": _rate(negotiated.accepted, n_games),
        "promises_kept_per_game": _rate(negotiated.kept, n_games),
        "promises_broken_per_game": _rate(negotiated.broken, n_games),
        "fights_per_game": _rate(negotiated.fights, n_games),
        "bought_support_share": _rate(negotiated.bought, negotiated.fights),
        "refused_commands": sum(refused.values()),
        "refused_codes": dict(refused),
        "decision_median_ms": _ms(negotiated.decide_ns, 0.5),
        "decision_p90_ms": _ms(negotiated.decide_ns, 0.9),
        "decision_p99_ms": _ms(negotiated.decide_ns, 0.99),
        "talk_median_ms": _ms(negotiated.talk_ns, 0.5),
        "policy_commands": h.commands + alone.commands + mixed.commands,
        "default_character": DEFAULT.name,
        "negotiator_paid_promises_kept_rate": _rate(negotiated.paid_kept,
                                                    negotiated.paid_kept + negotiated.paid_broken),
        "by_character": {DEFAULT.name: character_figures(alone, mixed),
                         **{c: character_figures(a, m) for c, (a, m) in (others or {}).items()}},
        "seconds": round(seconds, 1),
        "seed": seed,
        "python": platform.python_version(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="The reference bots against each other, six seats.")
    p.add_argument("--games", type=int, default=1200, help="games of each of the three tables (default 1200)")
    p.add_argument("--character-games", type=int, default=None,
                   help="games of tables 2 and 3 for each other character (default half of --games)")
    p.add_argument("--quick", action="store_true", help="120 games of each table (60 for the other characters)")
    p.add_argument("--seed", type=int, default=1, help="first game seed; games use seed, seed+1, ...")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = p.parse_args(argv)
    games = 120 if args.quick else args.games
    others_games = args.character_games if args.character_games is not None else games // 2
    start = time.perf_counter()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    others: dict[str, tuple[Figures, Figures]] = {}
    try:
        h = run_table("heuristic", games, args.seed, pool)
        alone = run_table("alone", games, args.seed, pool)
        mixed = run_table("mixed", games, args.seed, pool)
        for c in CHARACTERS:
            if c != DEFAULT.name and others_games > 0:
                others[c] = (run_table("alone", others_games, args.seed, pool, c),
                             run_table("mixed", others_games, args.seed, pool, c))
    finally:
        if pool is not None:
            pool.shutdown()
    fig = summarise(h, alone, mixed, time.perf_counter() - start, args.seed, others)
    print(f"bots benchmark: Python {fig['python']}, {games} six-seat games of each table, "
          f"seeds {args.seed}..{args.seed + games - 1}, {args.jobs} process(es)")
    print(f"1. heuristic vs five random: win rate {fig['heuristic_win_rate']:.3f} (fair share "
          f"{fig['fair_share']:.3f}), mean rank {fig['heuristic_mean_rank']:.2f} "
          f"(random {fig['random_mean_rank']:.2f})")
    print(f"2. negotiator vs five heuristic: win rate {fig['negotiator_alone_win_rate']:.3f}, mean rank "
          f"{fig['negotiator_alone_mean_rank']:.2f}; the heuristic seats {fig['heuristic_alone_table_win_rate']:.3f}")
    print(f"3. three negotiators, three heuristic, 20 arrangements: win rate per seat "
          f"{fig['negotiator_mixed_win_rate']:.3f} vs {fig['heuristic_mixed_win_rate']:.3f} "
          f"(x{fig['negotiator_vs_heuristic']:.2f}); mean rank {fig['negotiator_mixed_mean_rank']:.2f} vs "
          f"{fig['heuristic_mixed_mean_rank']:.2f}")
    print(f"   negotiator wins by three Ninjas (R9.1): {fig['negotiator_ninja_win_share']:.0%}")
    print(f"deals per game (tables 2 and 3, negotiator seats): proposed {fig['deals_proposed_per_game']:.2f}, "
          f"executed {fig['negotiator_deals_executed_per_game']:.2f}, promises kept {fig['promises_kept_per_game']:.2f}"
          f", broken {fig['promises_broken_per_game']:.2f}; every deal executed: {fig['deals_accepted_per_game']:.2f}")
    print(f"fights decided by bought support: {fig['bought_support_share']:.1%} of {fig['fights_per_game']:.1f} a game")
    print(f"negotiator decision (pivot): median {fig['decision_median_ms']:.3f} ms, p90 {fig['decision_p90_ms']:.3f}"
          f", p99 {fig['decision_p99_ms']:.3f}; other calls median {fig['talk_median_ms']:.3f} ms")
    for c, cf in fig["by_character"].items():
        print(f"character {c}: x{cf['win_rate_vs_heuristic']:.2f} the heuristic's win rate at mixed tables "
              f"({cf['mixed_win_rate']:.3f} vs {cf['heuristic_mixed_win_rate']:.3f}), alone {cf['alone_win_rate']:.3f};"
              f" paid promises kept {cf['paid_promises_kept_rate']} of {cf['paid_promises_settled']} settled before "
              f"the last season; deals proposed {cf['deals_proposed_per_game']:.2f}, executed "
              f"{cf['deals_executed_per_game']:.2f} a game ({cf['games']} games)")
    print(f"refused commands: {fig['refused_commands']} {fig['refused_codes'] or ''}; "
          f"{fig['policy_commands']} policy commands in {fig['seconds']} s")
    checks = [
        ("heuristic_win_rate", fig["heuristic_win_rate"] >= TARGET_HEURISTIC, f">= {TARGET_HEURISTIC:g}"),
        ("negotiator_alone_win_rate", fig["negotiator_alone_win_rate"] >= TARGET_ALONE, f">= {TARGET_ALONE:.3f}"),
        ("negotiator_vs_heuristic", fig["negotiator_vs_heuristic"] >= TARGET_MIXED, f">= {TARGET_MIXED:g}"),
        ("decision_median_ms", fig["decision_median_ms"] < TARGET_DECISION_MS, f"< {TARGET_DECISION_MS:g}"),
        ("refused_commands", fig["refused_commands"] == 0, "== 0"),
        *[(f"by_character.{c}.win_rate_vs_heuristic", cf["win_rate_vs_heuristic"] >= TARGET_MIXED,
           f">= {TARGET_MIXED:g}") for c, cf in fig["by_character"].items()],
    ]
    print("targets: " + "; ".join(f"{name} {rule}: {'met' if ok else 'MISSED'}" for name, ok, rule in checks))
    print(json.dumps(fig, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
