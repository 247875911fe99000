"""Samurai's reference policies (server/policies/samurai.py).

Checked here: both finish whole games at every seat count with every answer
accepted; they read only the view and the prompt and leave them untouched;
the same rng seed gives the same choices; the heuristic beats random players
clearly; and in a plain scenario it closes the ring it wins, not the one it
would hand to another seat.
"""

from __future__ import annotations

import copy
import random

import pytest

from oriente.games import load
from oriente.games.kit.selfplay import play
from oriente.server.policies.samurai import POLICIES
from oriente.server.samurai import decision_view, view

from .helpers import (
    BUDDHA_2,
    BUDDHA_3,
    HELMET_3,
    HELMET_4,
    RICE_2,
    RICE_3,
    SAMURAI_1,
    SAMURAI_2,
    B,
    H,
    R,
    position,
    tiny_board,
)

HEURISTIC, RANDOM = POLICIES["heuristic"], POLICIES["random"]
PORT = load("samurai")


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_policies_finish_games_with_legal_answers(seats, name):
    game = play(PORT, seats, seats, name)
    assert game.result is not None and game.result["reason"] in ("last_figure", "set_aside", "no_moves")
    assert not any(e.get("by_table") for e in game.events)  # every decision answered by the policy
    assert not game.refused and all(seat != -1 for seat, _ in game.commands)


def test_policies_read_only_their_inputs_and_are_deterministic():
    game = play(PORT, 3, 5, "random")
    game2 = play(PORT, 3, 5, "random")
    assert game.commands == game2.commands
    state = position(_ring()[0], seats=2, figures=_figures(), hands={0: [SAMURAI_2, HELMET_3, RICE_2, BUDDHA_2]})
    for policy in (RANDOM, HEURISTIC):
        v, p = view(state, 0), decision_view(state, 0)
        v0, p0 = copy.deepcopy(v), copy.deepcopy(p)
        first = policy(v, p, random.Random(3))
        assert (v, p) == (v0, p0)
        assert first == policy(v, p, random.Random(3)) and first in p["legal"]
        assert policy(view(state, 1), decision_view(state, 1), random.Random(3)) is None  # not its turn


def test_policies_choose_five_tiles_once():
    game = play(PORT, 2, 1, ["random", "heuristic"])
    first_events = [e for e in game.events if e["type"] == "TilesChosen"]
    assert [len(e["tiles"]) for e in first_events] == [5, 5]
    state = game.played.state
    assert HEURISTIC(view(state, 0), None, random.Random(0)) is None


def test_heuristic_beats_random_clearly():
    """The heuristic seat, rotating through the seats, against random ones:
    its share of wins is well above a fair share (bench/engine_samurai.py
    measures it over many more games)."""
    for seats, games, least in ((2, 8, 6), (3, 6, 4)):
        wins = 0.0
        for g in range(games):
            seat = g % seats
            result = play(PORT, seats, 100 + g, ["heuristic" if s == seat else "random" for s in range(seats)]).result
            assert result is not None
            if result["ranks"][seat] == 1 and result["winners"]:
                wins += 1 / len(result["winners"])
        assert wins >= least, f"{wins} wins in {games} games at {seats} seats"


def _ring():
    return tiny_board([
        "~~~~~~~~~",
        "~~aLbc~~~",
        "~~dxCyg~~",
        "~~~fhRi~~",
        "~~~~jk~oZ",
        "~~~~~~~~~",
    ], kinds={"C": "city"})


def _figures():
    _, ids = _ring()
    return {ids["L"]: [H], ids["C"]: [B, R], ids["R"]: [B], ids["Z"]: [H]}


def test_heuristic_closes_the_ring_it_wins():
    layout, ids = _ring()
    # L (helmet) is one tile from closing: seat 0 leads there. R (Buddha) is
    # one tile from closing too, but seat 1 leads there.
    board = {ids["a"]: (0, HELMET_4), ids["b"]: (1, RICE_2),
             ids["g"]: (1, BUDDHA_2), ids["h"]: (1, SAMURAI_2), ids["i"]: (0, RICE_2), ids["k"]: (1, HELMET_3)}
    figures = {h: f for h, f in _figures().items() if h != ids["Z"]}
    state = position(layout, seats=2, figures=figures, board=board, hands={0: [SAMURAI_1, HELMET_3, BUDDHA_3, RICE_3]})
    answer = HEURISTIC(view(state, 0), decision_view(state, 0), random.Random(0))
    assert answer["type"] == "PlaceTile" and answer["hex"] == ids["x"]
