"""Samurai's port (server/games/samurai.py): its options and the errors a
client gets for them, its refills, its reference data, and its bots' answers."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from oriente.server.game_port import SettingsError
from oriente.server.games import PORTS
from oriente.server.games.samurai import SamuraiPort
from oriente.server.samurai import GameConfig, default_board_data, default_tiles_data, view

PORT = SamuraiPort()
BOARD = default_board_data()
TILES = default_tiles_data()


def test_the_registry_serves_samurai_by_its_name() -> None:
    """S1.2: "2 to 4" seats; the heuristic is the default bot."""
    assert PORTS["samurai"].name == "samurai"
    assert PORTS["samurai"].seats == range(2, 5)
    assert PORTS["samurai"].policies[0] == "heuristic"


def test_defaults_and_a_map_and_tiles_of_the_table_s_own() -> None:
    """S1.6: a table plays the default unless it brings another map or tile set."""
    plain = PORT.configure(3, 9, {}, {})
    assert plain.options == {"board": None, "tiles": None, "first_seat": None}
    assert plain.config == GameConfig(seats=3, seed=9, rules_revision=1)  # stored without a revision (S8.2)
    assert plain.record == {"seats": 3, "seed": 9, "first": None, "board": None, "tiles": None}
    mine = copy.deepcopy(BOARD) | {"name": "my map"}
    tiles = copy.deepcopy(TILES) | {"name": "my tiles"}
    own = PORT.configure(4, 9, {"board": mine, "tiles": tiles, "first_seat": 2}, {})
    assert own.public == {"board": "my map", "tile_set": "my tiles", "custom_board": True, "custom_tiles": True,
                          "first_seat": 2, "rules_revision": 1}
    assert own.record["board"] == mine and own.record["tiles"] == tiles, "the record replays on the table's own map"
    state, events = PORT.start(own.config)
    assert view(state, 0)["board"]["name"] == "my map" and view(state, 0)["tile_set"]["name"] == "my tiles"
    assert events[0]["first"] == 2
    assert PORT.restart(own.record)[1] == events


def test_configuring_again_with_the_kept_options_gives_the_same_setup() -> None:
    """Recovery configures a stored table again from the options it kept."""
    for options in ({}, {"first_seat": 1}, {"board": BOARD, "tiles": TILES}):
        first = PORT.configure(3, 1, options, {})
        assert PORT.configure(3, 1, first.options, {}) == first


def _without_edo() -> dict[str, Any]:
    board = copy.deepcopy(BOARD)
    board["hexes"] = [h | {"terrain": "city"} if h.get("terrain") == "capital" else h for h in board["hexes"]]
    return board


@pytest.mark.parametrize(("options", "code", "words"), [
    ({"colour": "red"}, "table/bad_settings", "no option 'colour'"),
    ({"board": "japan"}, "message/invalid", "S1.6"),
    ({"tiles": [1, 2]}, "message/invalid", "S1.6"),
    ({"first_seat": "0"}, "message/invalid", "S2.2"),
    ({"first_seat": 5}, "table/bad_settings", "S2.2"),
    ({"board": _without_edo()}, "table/bad_board", "exactly one capital"),
    ({"board": {"format": "samurai-board/0", "hexes": []}}, "table/bad_board", "'format'"),
    ({"tiles": {**TILES, "tiles": TILES["tiles"][:19]}}, "table/bad_board", "20 tiles, not 19"),
])
def test_refusals_carry_the_code_the_client_gets_and_name_the_rule(options: dict[str, Any], code: str,
                                                                     words: str) -> None:
    with pytest.raises(SettingsError) as err:
        PORT.configure(3, 1, options, {})
    assert err.value.code == code and words in err.value.message, err.value.message


def test_s7_8_banks_refill_once_when_the_first_turn_begins() -> None:
    """S7.8: "the time banks refill (T1.4) once, when the first turn begins"."""
    assert PORT.refills([{"type": "FigurePlaced"}, {"type": "TurnBegan", "turn": 1}]) == 1
    assert PORT.refills([{"type": "TurnEnded"}, {"type": "TurnBegan", "turn": 2}]) == 0
    assert PORT.refills([{"type": "SelectionDone"}, {"type": "CapitalFilled"}]) == 0


def test_the_reference_holds_the_pieces_the_players_and_the_defaults() -> None:
    """S1.3: samurai, ronin and ship influence all three kinds; S1.1/S1.5 per player count."""
    ref = PORT.reference()
    kinds = {k["kind"]: k for k in ref["kinds"]}
    assert kinds["ship"]["influences"] == ["helmet", "buddha", "rice"] and kinds["ship"]["on_sea"]
    assert kinds["helmet"]["influences"] == ["helmet"] and kinds["tile_swap"]["influences"] == []
    assert ref["players"][0] == {"seats": 2, "parts": ["honshu"], "figures_per_kind": 7}
    assert ref["capacity"] == {"village": 1, "city": 2, "capital": 3}
    squares = [h.pop("square") for h in copy.deepcopy(ref["board"])["hexes"]]
    assert {**ref["board"], "hexes": [{k: v for k, v in h.items() if k != "square"} for h in ref["board"]["hexes"]]} \
        == BOARD and ref["tiles"] == TILES
    assert len(set(squares)) == len(BOARD["hexes"])  # every hex a square of its own (rules/hexnames.py)
    assert all(set(k["name"]) == {"en", "de", "fr"} for k in ref["kinds"])


def test_each_placement_of_a_turn_is_its_own_answer_and_a_bot_plays_a_whole_game() -> None:
    """S7.1: a turn is one decision however many tiles it places, so a bot's
    answers are keyed by what they answer: two placements in one turn differ,
    and the same frame twice gives the same key (the runner sends it once)."""
    setup = PORT.configure(3, 4, {}, {})
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
    assert any(k[1] == j[1] and k != j for k in keys for j in keys), "no turn placed two tiles"


def test_a_bot_hands_in_its_tile_choice_early_once_and_sealed() -> None:
    """S7.2: a seat in `early` may choose now; the choice is sealed, so the
    bot's next frame shows it and the bot sends nothing more."""
    setup = PORT.configure(3, 5, {"first_seat": 0}, {})
    state, _ = PORT.start(setup.config)
    prompt = PORT.prompts(state, [2])[2]
    assert prompt is not None and prompt["pivot"] == 0 and 2 in prompt["early"]
    move = PORT.bot_move("random", 2, PORT.view(state, 2), prompt, random.Random(1), {})
    assert move is not None and move.command["type"] == "ChooseTiles"
    assert PORT.apply(state, 2, move.command) == []  # sealed: nothing public happens
    after = PORT.prompts(state, [2])[2]
    assert after is not None and after["sealed"] == move.command["tiles"]
    assert PORT.bot_move("random", 2, PORT.view(state, 2), after, random.Random(1), {}) is None


def test_the_proxy_plays_the_heuristic_from_the_seat_s_own_view() -> None:
    """T3.2, S7.8: the away seat's proxy is the heuristic, judging from that
    seat's view and prompt only, and it speaks only as the pivot."""
    setup = PORT.configure(4, 8, {}, {})
    state, _ = PORT.start(setup.config)
    while PORT.prompts(state, ["spectator"])["spectator"]["topic"] != "turn":  # type: ignore[index]
        pivot = PORT.waiting(state).pivot  # type: ignore[union-attr]
        command = PORT.proxy_command(state, pivot)
        assert command is not None and PORT.proxy_command(state, (pivot + 1) % 4) is None
        PORT.apply(state, pivot, command)
    pivot = PORT.waiting(state).pivot  # type: ignore[union-attr]
    command = PORT.proxy_command(state, pivot)
    move = PORT.bot_move("heuristic", pivot, PORT.view(state, pivot), PORT.prompts(state, [pivot])[pivot],
                         random.Random(0), {})
    assert move is not None and command == move.command
