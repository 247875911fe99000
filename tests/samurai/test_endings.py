"""S1.6, S5.6, S8: the packaged map's land fits the tiles, so every game on
it ends one of the two ways the rulebook prints (the last figure of a kind
leaves the board, S5.1; the fourth figure is set aside, S5.2), never by the
guard of S5.4; the validator refuses a map that does not fit, naming both
counts; and tables and records of rules revision 1 keep their old map.

The property plays many seeded games with the reference bots, as the
server's bots play them (each answer from its seat's own view and prompt,
`SamuraiPort.bot_move`), at 2, 3 and 4 seats: 200 of each in the slow set,
a few of each by default.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from oriente import games
from oriente.games.kit.port import TABLE_SEAT, SettingsError
from oriente.games.samurai.rules import DataError, GameConfig, default_board_data, default_tiles_data, read_tiles
from oriente.games.samurai.rules.config import RULES_REVISION
from oriente.games.samurai.rules.datafiles import (
    default_board,
    default_tiles,
    fit_problems,
    land_tiles,
    read_board,
)

PRINTED = {"last_figure", "set_aside"}  # S5.1, S5.2
SEATS = (2, 3, 4)
POLICIES = ("random", "heuristic")


def play_out(seats: int, seed: int, policy: str, revision: int = RULES_REVISION) -> dict[str, Any]:
    """One whole game, every seat played by `policy` from its own view and
    prompt (the server's bots' way, one seat asked at a time); the table's
    clock closes what no bot answers. Returns the result."""
    port = games.load("samurai")
    setup = port.configure(seats, seed, {"rules_revision": revision}, {})
    state, _ = port.start(setup.config)
    rngs = [random.Random(f"endings:{seed}:{s}") for s in range(seats)]
    for _ in range(5000):
        waiting = port.waiting(state)
        if waiting is None:
            break
        seat = waiting.pivot
        move = None
        if seat is not None:
            prompt = port.prompts(state, [seat])[seat]
            move = port.bot_move(policy, seat, port.view(state, seat), prompt, rngs[seat], {})
        if move is None:
            port.apply(state, TABLE_SEAT, port.timeout_command(waiting))
        else:
            port.apply(state, seat, move.command)
    result = port.result(state)
    assert result is not None, f"no end: {seats} seats, seed {seed}, {policy}"
    return result


def endings(count: int, revision: int = RULES_REVISION) -> dict[tuple[int, str], Counter[str]]:
    return {(seats, policy): Counter(play_out(seats, 1000 * seats + seed, policy, revision)["reason"]
                                     for seed in range(count))
            for seats in SEATS for policy in POLICIES}


def test_s1_6_the_packaged_map_fits_the_tiles_at_every_player_count() -> None:
    """S1.6 (revision 2): "at every player count the land hexes in play are
    no more than the seats' tiles can cover ... and the sea hexes in play
    take every seat's ships" — 16 land hexes a seat (15 land tiles and the
    tile swap): 32, 48 and 64, exactly."""
    board, tiles = default_board(), default_tiles()
    assert land_tiles(tiles) == 16
    assert [len(board.layouts[n].land) for n in SEATS] == [32, 48, 64]
    assert all(len(board.layouts[n].sea) >= 3 * n for n in SEATS)
    assert fit_problems(board, tiles) == []


def test_s1_6_the_validator_refuses_more_land_than_tiles_naming_both_counts() -> None:
    """S1.6: the revision-1 map (33, 51, 67 land hexes for 32, 48, 64) is
    refused at revision 2, each player count's problem naming both counts;
    revision 1 still plays it (S8.2)."""
    old = copy.deepcopy(default_board_data(1))
    with pytest.raises(DataError) as err:
        GameConfig(seats=2, board=old)
    text = "\n".join(err.value.problems)
    for seats, land, tiles in ((2, 33, 32), (3, 51, 48), (4, 67, 64)):
        assert f"at {seats} players" in text and f"{land} land hexes" in text and f"cover only {tiles}" in text
    assert GameConfig(seats=2, board=old, rules_revision=1).layout.land == default_board(1).layouts[2].land
    port = games.load("samurai")
    with pytest.raises(SettingsError) as refused:
        port.configure(4, 1, {"board": old, "rules_revision": 2}, {})
    assert refused.value.code == "table/bad_board" and "67 land hexes" in str(refused.value)


def test_s1_6_the_validator_refuses_a_sea_too_small_for_the_ships() -> None:
    """S1.6: "... and the sea hexes in play take every seat's ships": Honshu
    cut down to 5 sea hexes cannot take two seats' 3 ships each."""
    data = copy.deepcopy(default_board_data())
    honshu_sea = [h for h in data["hexes"] if h["part"] == "honshu" and h["terrain"] == "sea"]
    data["hexes"] = [h for h in data["hexes"] if h not in honshu_sea[5:]]
    problems = fit_problems(read_board(data), default_tiles())
    assert problems == ["at 2 players (honshu) the map has 5 sea hexes but the seats have 6 ships (2 x 3) to place"
                        " on them (S1.6, S3.3)"]


def test_s1_6_a_tile_swap_that_may_move_a_ship_covers_no_land() -> None:
    """S1.6: the tile swap counts for a land hex only when every plain tile
    goes on land; with a plain ship it might take up that ship instead."""
    data = copy.deepcopy(default_tiles_data())
    assert land_tiles(read_tiles(data)) == 16
    next(t for t in data["tiles"] if t["kind"] == "ship")["fast"] = False
    data["tiles"][0]["fast"] = True  # still 5 fast tiles: the helmet 2 takes the ship's character
    assert land_tiles(read_tiles(data)) == 15


def test_s5_6_every_game_on_the_packaged_map_ends_a_printed_way() -> None:
    """S5.6: "On a map whose land fits the tiles ... the game ends by S5.1
    or S5.2." A few seeded games at each seat count and bot; the slow set
    plays 200 of each."""
    found = endings(4)
    for key, counted in found.items():
        assert set(counted) <= PRINTED, (key, counted)


@pytest.mark.slow
def test_s5_6_two_hundred_games_at_each_seat_count_end_a_printed_way() -> None:
    """S5.6 over 200 seeded games for each of 2, 3 and 4 seats and each of
    the random and the heuristic bot: no game ends by the guard of S5.4."""
    found = endings(200)
    print({f"{seats} {policy}": dict(counted) for (seats, policy), counted in found.items()})
    for key, counted in found.items():
        assert sum(counted.values()) == 200 and set(counted) <= PRINTED, (key, counted)


def test_s8_2_revision_1_keeps_its_map_and_its_stalled_ends() -> None:
    """S8.2: a table of revision 1 plays the old map, whose spare land
    lets some games end by the guard of S5.4 (SR6) — the games it was
    measured with end as they did."""
    assert GameConfig(seats=3, rules_revision=1).layout.name == "Japan (reconstructed)"
    assert GameConfig(seats=3).layout.name == "Japan (reconstructed, revision 2)"
    reasons = Counter(play_out(3, seed, "random", revision=1)["reason"] for seed in range(40))
    assert reasons["no_moves"] > 0, reasons


def test_s8_1_the_port_pins_new_tables_and_says_the_revision() -> None:
    """S8.1, S8.2: a new table plays revision 2 (the server adds the port's
    `new_table_options`); one stored without the option plays revision 1;
    the public settings and the rules version say which."""
    port = games.load("samurai")
    new = port.configure(3, 5, {**port.new_table_options}, {})
    old = port.configure(3, 5, {}, {})
    assert new.public["rules_revision"] == 2 and new.config.rules_revision == 2
    assert old.public["rules_revision"] == 1 and old.config.rules_revision == 1
    assert port.rules_version(new) == "samurai/2" and port.rules_version(old) == "samurai"
    assert {port.rules_version(new), port.rules_version(old)} <= port.replays
    assert "rules_revision" not in old.options and "rules_revision" not in old.record  # stored as before
    assert port.configure(3, 5, new.options, {}) == new  # recovery configures the same setup again
    assert GameConfig.from_plain(old.record).rules_revision == 1
    assert GameConfig.from_plain(new.record).rules_revision == 2
    for bad in (3, 0, True, "2"):
        with pytest.raises(SettingsError):
            port.configure(3, 5, {"rules_revision": bad}, {})
