"""Oro's port (server/games/oro.py): its options and the errors a client
gets for them, its refills, its reference data, and its bots' answers."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from oriente.server.game_port import SettingsError
from oriente.server.games import PORTS
from oriente.server.games.oro import OroPort
from oriente.server.oro import OroConfig, default_board, default_tiles, view

PORT = OroPort()
BOARD = default_board().data
TILES = default_tiles().data


def test_the_registry_serves_oro_by_its_name() -> None:
    """O1.6: "2 to 4" seats; the heuristic is the default bot."""
    assert PORTS["oro"].name == "oro"
    assert PORTS["oro"].seats == range(2, 5)
    assert PORTS["oro"].policies[0] == "heuristic"


def test_defaults_a_variant_and_a_board_of_the_table_s_own() -> None:
    plain = PORT.configure(3, 9, {}, {})
    assert plain.options == {"gods": False, "board": None, "tiles": None, "setup": None}
    assert plain.config == OroConfig(seats=3, seed=9, rules_revision=1)  # stored without a revision (O10.2)
    assert plain.record == {"seats": 3, "seed": 9, "gods": False, "board": None, "tiles": None, "deck": None,
                            "stones": None, "first_seat": None}
    mine = copy.deepcopy(BOARD) | {"name": "my map"}
    own = PORT.configure(4, 9, {"gods": True, "board": mine, "tiles": TILES}, {})
    assert own.public == {"gods": True, "board": "my map", "custom_board": True, "custom_tiles": True,
                          "configured_setup": False, "rules_revision": 1}
    assert own.record["board"] == mine, "the record replays on the table's own map"
    state, _ = PORT.start(own.config)
    assert view(state, 0)["board"]["name"] == "my map"


def test_a_configured_setup_is_kept_secret_and_replays() -> None:
    """O2.6: a table may fix the deck, the stones and the first seat; only
    that it did is public (T5.2)."""
    deck = [i for i in range(16) for _ in range(3)][::-1]
    stones = ["kane"] * 4 + ["kanaloa"] * 3 + ["ku"] * 3 + ["pele"] * 3 + ["lono"] * 3
    setup = PORT.configure(2, 1, {"gods": True, "setup": {"deck": deck, "stones": stones, "first_seat": 1}}, {})
    assert setup.public["configured_setup"] is True and "deck" not in str(setup.public)
    _state, events = PORT.start(setup.config)
    assert events[0]["hands"] == [[15, 15, 15, 14], [14, 14, 13, 13]] and events[0]["first_seat"] == 1
    assert PORT.restart(setup.record)[1] == events


def test_configuring_again_with_the_kept_options_gives_the_same_setup() -> None:
    """Recovery configures a stored table again from the options it kept."""
    for options in ({}, {"gods": True}, {"board": BOARD, "tiles": TILES}, {"setup": {"first_seat": 0}}):
        first = PORT.configure(3, 1, options, {})
        assert PORT.configure(3, 1, first.options, {}) == first


def _broken_board() -> dict[str, Any]:
    board = copy.deepcopy(BOARD)
    board["connections"] = board["connections"][:-1]
    return board


@pytest.mark.parametrize(("options", "code", "words"), [
    ({"colour": "red"}, "table/bad_settings", "no option 'colour'"),
    ({"gods": "yes"}, "message/invalid", "O7"),
    ({"board": "archipelago"}, "message/invalid", "O9"),
    ({"board": _broken_board()}, "table/bad_board", "O1.1"),
    ({"board": {"format": "oro.board.v0"}}, "table/bad_board", "O9.1"),
    ({"tiles": {**TILES, "cards_per_island": 4}}, "table/bad_board", "O1.3"),
    ({"setup": {"deck": [0, 1]}}, "table/bad_setup", "O2.6"),
    ({"setup": {"first_seat": 7}}, "table/bad_setup", ""),
    ({"setup": {"deck": "abc"}}, "message/invalid", "deck"),
    ({"setup": {"colour": 1}}, "message/invalid", "colour"),
])
def test_refusals_carry_the_code_the_client_gets_and_name_the_rule(options: dict[str, Any], code: str,
                                                                     words: str) -> None:
    with pytest.raises(SettingsError) as err:
        PORT.configure(3, 1, options, {})
    assert err.value.code == code and words in err.value.message, err.value.message


def test_o8_9_banks_refill_when_the_second_half_and_the_final_round_begin() -> None:
    """O8.9: "the time banks refill (T1.4) when the second half begins (O5.3,
    the `Reshuffled` event) and when the final round begins (O5.4,
    `FinalRoundBegan`)"."""
    assert PORT.refills([{"type": "Scored"}, {"type": "Reshuffled"}, {"type": "TurnBegan"}]) == 1
    assert PORT.refills([{"type": "Reshuffled"}, {"type": "FinalRoundBegan"}]) == 2
    assert PORT.refills([{"type": "TurnBegan"}, {"type": "Drew"}]) == 0


def test_the_reference_holds_the_sizes_scoring_gods_and_default_board() -> None:
    """O5.2's table: with 4 bridges on ORO its controller scores 3 (4 at the end)."""
    ref = PORT.reference()
    main = next(s for s in ref["sizes"] if s["size"] == "main")
    assert {"bridges": 4, "first": 3, "final": 4} in main["scoring"] and main["places"] == 7
    assert [g["god"] for g in ref["gods"]] == ["kane", "kanaloa", "ku", "pele", "lono"]
    assert all(set(g["text"]) == {"en", "de", "fr"} for g in ref["gods"])
    assert ref["board"] == default_board().plain()


def test_each_play_of_a_turn_is_its_own_answer_and_a_bot_plays_a_whole_game() -> None:
    """O8.3: a turn is one decision while the seat plays on, so a bot's
    answers are keyed by what they answer: two plays in one turn differ,
    and the same frame twice gives the same key (the runner sends it once)."""
    setup = PORT.configure(3, 4, {"gods": True}, {})
    state, _ = PORT.start(setup.config)
    keys: dict[tuple[Any, ...], int] = {}
    rng = random.Random(2)
    for _ in range(2_000):
        if PORT.result(state) is not None:
            break
        waiting = PORT.waiting(state)
        assert waiting is not None and waiting.pivot is not None
        seat = waiting.pivot
        prompt = PORT.prompts(state, [seat])[seat]
        move = PORT.bot_move("heuristic", seat, PORT.view(state, seat), prompt, rng, {})
        assert move is not None
        again = PORT.bot_move("heuristic", seat, PORT.view(state, seat), prompt, rng, {})
        assert again is not None and again.key == move.key
        assert move.key not in keys, "a new position got an old answer's key"
        keys[move.key] = seat
        PORT.apply(state, seat, move.command)
    assert PORT.result(state) is not None
    assert any(k[1] == j[1] and k != j for k in keys for j in keys), "no turn had two plays"


def test_the_proxy_plays_the_heuristic_from_the_seat_s_own_view() -> None:
    """T3.2, O8.9: the away seat's proxy is the heuristic, judging from that
    seat's view and prompt only, and it speaks only as the pivot."""
    setup = PORT.configure(4, 8, {}, {})
    state, _ = PORT.start(setup.config)
    pivot = PORT.waiting(state).pivot
    assert PORT.proxy_command(state, (pivot + 1) % 4) is None
    command = PORT.proxy_command(state, pivot)
    move = PORT.bot_move("heuristic", pivot, PORT.view(state, pivot), PORT.prompts(state, [pivot])[pivot],
                         random.Random(0), {})
    assert move is not None and command == move.command
