"""Ratings (server/ratings.py, docs/accounts.md): openskill's Plackett-Luce
model puts bots of a known order of strength in that order, ties move tied
seats alike, and a new rating is provisional.

The known order: random < noisy heuristic (half its decisions random) <
heuristic < negotiator, at four-seat Oriente tables (one seat each, the 24
seatings in turn, fixed seeds), each kind rated as one account. 24 games
(one turn of the seatings) in the default run; 240 in the slow one."""

from __future__ import annotations

import itertools

import pytest

from oriente.server import ratings
from oriente.server.policies import POLICIES
from oriente.server.policies.selfplay import play
from oriente.server.rules import GameConfig

from .noisy import noisy

ORDER = ("random", "noisy-heuristic", "heuristic", "negotiator")  # weakest first
KINDS = {"random": POLICIES["random"], "noisy-heuristic": noisy(POLICIES["heuristic"], 0.5),
         "heuristic": POLICIES["heuristic"], "negotiator": POLICIES["negotiator"]}
SEATINGS = list(itertools.permutations(range(4)))


def rate_games(games: int) -> dict[str, ratings.Rating]:
    rated = {name: ratings.initial() for name in ORDER}
    for g in range(games):
        seated = [ORDER[i] for i in SEATINGS[g % len(SEATINGS)]]
        played = play(GameConfig(seats=4, seed=1000 + g), [KINDS[n] for n in seated], seed=1000 + g)
        assert played.state.result is not None
        after = ratings.rate([rated[n] for n in seated], list(played.state.result.ranks))
        rated.update(zip(seated, after, strict=True))
    return rated


def test_bots_of_known_strength_come_out_in_order_after_24_games() -> None:
    rated = rate_games(24)
    assert sorted(ORDER, key=lambda n: rated[n].mu) == list(ORDER), rated
    assert all(r.games == 24 for r in rated.values())


@pytest.mark.slow
def test_bots_of_known_strength_come_out_in_order_after_240_games() -> None:
    rated = rate_games(240)
    assert sorted(ORDER, key=lambda n: rated[n].ordinal) == list(ORDER), rated
    assert not any(r.provisional for r in rated.values())


def test_equal_ranks_are_ties() -> None:
    """Seats 1 and 2 share second place: equal ratings before, equal after."""
    after = ratings.rate([ratings.initial()] * 4, [1, 2, 2, 4])
    assert after[1] == after[2]
    assert after[0].mu > after[1].mu > after[3].mu
    all_tied = ratings.rate([ratings.initial()] * 4, [1, 1, 1, 1])
    assert len({r.mu for r in all_tied}) == 1


def test_a_new_rating_is_provisional_for_about_a_dozen_games() -> None:
    """Four newcomers who rate each other, the ranks turning: provisional
    at first, settled after roughly a dozen games."""
    rated = [ratings.initial() for _ in range(4)]
    assert all(r.provisional and r.plain()["provisional"] is True for r in rated)
    games = 0
    while any(r.provisional for r in rated):
        games += 1
        rated = ratings.rate(rated, [1 + (games + i) % 4 for i in range(4)])
    assert 8 <= games <= 20, games
    assert all(r.games == games for r in rated)


def test_a_game_needs_a_rank_per_seat() -> None:
    with pytest.raises(ValueError):
        ratings.rate([ratings.initial()] * 3, [1, 2])
