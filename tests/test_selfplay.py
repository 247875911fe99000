"""The one self-play loop (games/kit/selfplay.py): every registered game,
and the toy game, played to its end by each of its reference bots through
the port alone; the same seed plays the same game; the game's record
replays to the same events (games/kit/replay.py) and verifies as far as a
record without a commitment can; a bot that sends what the rules refuse,
or a game that would not end, is an error that says so."""

from __future__ import annotations

import random
from typing import Any

import pytest

from oriente import games
from oriente.fairplay.verify import verify_record
from oriente.games.kit.port import BotMove, GamePort
from oriente.games.kit.replay import replay
from oriente.games.kit.selfplay import SelfPlayError, play
from oriente.protocol.codec import decode_any, encode
from tests.toy_game import ToyPort

PORTS: dict[str, GamePort] = {**games.all_ports(), "highcard": ToyPort()}
BOTS = [(name, bot) for name, port in PORTS.items() for bot in port.policies]


@pytest.mark.parametrize(("name", "bot"), BOTS, ids=[f"{n}-{b}" for n, b in BOTS])
def test_every_reference_bot_plays_its_game_to_the_end(name: str, bot: str) -> None:
    port = PORTS[name]
    seats = port.describe().default_seats
    game = play(port, seats, 11, bot)
    assert game.result is not None and len(game.result["ranks"]) == seats
    record = decode_any(encode(game.record()))
    again = replay(port, record)
    assert decode_any(encode(again.events)) == record["events"] and again.result == record["result"]
    assert play(port, seats, 11, bot).commands == game.commands  # the same seed, the same game
    if name in games.registered():
        verdict = verify_record(record, games.all_ports())
        assert verdict.ok is None and any("replays" in line for line in verdict.checked), verdict.plain()


def test_seats_of_different_bots_and_options() -> None:
    port = games.load("oro")
    game = play(port, 3, 4, ["heuristic", "random", "random"], options={"gods": True})
    assert game.result is not None and game.setup.options["gods"] is True


def test_a_bot_of_another_game_or_a_wrong_count_is_refused() -> None:
    with pytest.raises(ValueError, match="one bot of"):
        play(games.load("samurai"), 3, 1, "shrewd")
    with pytest.raises(ValueError, match="one bot of"):
        play(games.load("samurai"), 3, 1, ["random", "random"])


class _Stubborn(ToyPort):
    """A toy game whose bot answers a decision that is not open."""

    def bot_move(self, policy: str, seat: int, view: dict[str, Any], prompt: dict[str, Any] | None,
                 rng: random.Random, memo: dict[str, Any]) -> BotMove | None:
        move = super().bot_move(policy, seat, view, prompt, rng, memo)
        return move if move is None else BotMove(key=move.key, command={**move.command, "decision": 99})


def test_a_bot_the_rules_refuse_and_a_game_without_end_are_errors() -> None:
    with pytest.raises(SelfPlayError, match="the rules refuse"):
        play(_Stubborn(), 2, 1, "bold")
    with pytest.raises(SelfPlayError, match="no end after 3 commands"):
        play(ToyPort(), 2, 1, "bold", options={"rounds": 9}, max_commands=3)
