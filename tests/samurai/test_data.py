"""S1.6: boards and tile sets are data, refused unless they meet every
constraint of the rulebook; a table may play another valid file."""

from __future__ import annotations

import copy
import random

import pytest

from oriente.server.samurai import (
    ChooseTiles,
    ConfigError,
    DataError,
    EndTurn,
    Game,
    GameConfig,
    Topic,
    default_board_data,
    default_tiles_data,
    read_board,
    read_tiles,
)
from oriente.server.samurai.datafiles import default_board


def board():
    return copy.deepcopy(default_board_data())


def tiles():
    return copy.deepcopy(default_tiles_data())


def problems_of(reader, data):
    with pytest.raises(DataError) as err:
        reader(data)
    assert isinstance(err.value, ConfigError)
    return "\n".join(err.value.problems)


def hexes(data, **match):
    return [h for h in data["hexes"] if all(h.get(k) == v for k, v in match.items())]


def test_s1_6_the_defaults_meet_every_constraint():
    """S1.6: "A table plays the packaged default unless its configuration
    gives another board or tile set"; the defaults pass the validator."""
    b = read_board(default_board_data())
    t = read_tiles(default_tiles_data())
    assert b.name == "Japan (reconstructed, revision 2)" and len(t.tiles) == 20
    assert b.layouts[3].settlements == GameConfig(seats=3).layout.settlements
    assert GameConfig(seats=3).layout is default_board().layouts[3]  # compiled once per process


def test_s1_6_board_format_and_identity():
    """S1.6: a board is `samurai-board/1` with unique ids and coordinates."""
    data = board()
    data["format"] = "something else"
    data["hexes"][1]["id"] = data["hexes"][0]["id"]
    data["hexes"][3]["q"], data["hexes"][3]["r"] = data["hexes"][2]["q"], data["hexes"][2]["r"]
    text = problems_of(read_board, data)
    assert "'format' must be 'samurai-board/1'" in text
    assert f"hex id {data['hexes'][0]['id']} is used twice" in text
    assert "are both at" in text
    data = board()
    data["hexes"][5]["terrain"] = "swamp"
    data["hexes"][6]["part"] = "okinawa"
    data["hexes"][7]["id"] = -1
    text = problems_of(read_board, data)
    assert "'terrain' must be one of" in text and "'part' must be one of" in text and "'id' must be" in text


def test_s1_6_four_parts_and_edo():
    """S1.6: "the four parts exist; exactly one capital, named Edo, on
    Honshu"."""
    data = board()
    data["hexes"] = [h for h in data["hexes"] if h["part"] != "hokkaido"]
    assert "no hex on hokkaido" in problems_of(read_board, data)
    data = board()
    edo = hexes(data, terrain="capital")[0]
    edo["name"] = "Tokyo"
    assert "name it 'Edo'" in problems_of(read_board, data)
    data = board()
    hexes(data, terrain="capital")[0]["terrain"] = "city"
    assert "exactly one capital (Edo), not 0" in problems_of(read_board, data)


def test_s1_6_the_figures_fit_the_settlements_exactly():
    """S1.6: "the settlements of the parts in play hold exactly the figures of
    S1.1 — 3 for Edo + 2 per city + 1 per village = 21 for Honshu, 30 with
    Kyushu and Shikoku, 39 for the whole map"."""
    data = board()
    hexes(data, part="honshu", terrain="village")[0]["terrain"] = "land"
    text = problems_of(read_board, data)
    for seats, room, want in ((2, 20, 21), (3, 29, 30), (4, 38, 39)):
        assert f"at {seats} players" in text and f"hold {room} figures, but {want} are played" in text
    data = board()
    hexes(data, part="hokkaido", terrain="village")[0]["terrain"] = "city"
    text = problems_of(read_board, data)
    assert "at 4 players" in text and "at 2 players" not in text


def test_s1_6_not_too_many_cities():
    """S1.6: "at most 6 / 9 / 12 cities at 2 / 3 / 4 players ... then no
    order of free placements can leave a city slot that only a figure
    already in that city could fill"."""
    data = board()
    villages = hexes(data, part="honshu", terrain="village")
    for h in villages[:3]:
        h["terrain"] = "city"  # +3 figures ...
    for h in villages[3:6]:
        h["terrain"] = "land"  # ... -3: the total still fits, with 7 cities on Honshu
    text = problems_of(read_board, data)
    assert "at 2 players there are 7 cities, more than 6" in text
    assert "hold" not in text


def test_s1_6_every_settlement_can_be_surrounded():
    """S1.6: "every settlement has at least one neighbouring land hex at
    every player count"."""
    data = board()
    village = hexes(data, part="shikoku", terrain="village")[0]
    around = {(village["q"] + dq, village["r"] + dr) for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))}
    for h in data["hexes"]:
        if (h["q"], h["r"]) in around and h["terrain"] == "land":
            h["terrain"] = "sea"
    text = problems_of(read_board, data)
    assert f"village {village['id']} ({village['name']}) has no neighbouring land hex at 3 players" in text


@pytest.mark.parametrize("change,message", [
    (lambda t: t["tiles"].pop(), "a seat has 20 tiles, not 19"),
    (lambda t: t["tiles"][14].update(fast=False), "5 of the tiles are fast, not 4"),
    (lambda t: t["tiles"][0].update(kind="figure_swap", strength=None), "one figure_swap, not 2"),
    (lambda t: t["tiles"][19].update(strength=1), "the tile swap has strength 0"),
    (lambda t: t["tiles"][18].update(strength=2), "the figure swap has no strength"),
    (lambda t: t["tiles"][9].update(strength=0), "a samurai tile has a strength of at least 1"),
    (lambda t: t["tiles"][3].update(kind="dragon"), "'kind' must be one of"),
    (lambda t: t.update(format="x"), "'format' must be 'samurai-tiles/1'"),
])
def test_s1_6_tile_set_constraints(change, message):
    """S1.6: "20 tiles, exactly 5 fast; exactly one figure swap and one tile
    swap; the tile swap has strength 0; every other tile a strength of at
    least 1." """
    data = tiles()
    change(data)
    assert message in problems_of(read_tiles, data)


def test_s1_6_a_table_plays_another_valid_board():
    """S1.6: "An owner of the printed game can transcribe its map and tiles
    into these formats": a table given another board plays on it."""
    data = board()
    for h in data["hexes"]:
        h["id"] += 1000
    honshu = hexes(data, part="honshu")
    village = hexes(data, part="honshu", terrain="village")[0]
    village["terrain"] = "land"  # move a village to a land hex that borders no settlement
    settled = {(h["q"], h["r"]) for h in honshu if h["terrain"] not in ("land", "sea")}
    dirs = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    coords = {(h["q"], h["r"]): h for h in honshu}
    target = next(h for h in honshu if h["terrain"] == "land" and h is not village
                  and all((h["q"] + dq, h["r"] + dr) not in settled for dq, dr in dirs)
                  and sum(coords.get((h["q"] + dq, h["r"] + dr), {}).get("terrain") == "land" for dq, dr in dirs) >= 2)
    target["terrain"] = "village"
    game = Game(GameConfig(seats=2, seed=3, board=data, tiles=tiles()))
    assert target["id"] in game.state.layout.villages and village["id"] not in game.state.layout.villages
    rng = random.Random(3)
    while not game.over:
        d = game.pending()[0]
        if d.topic is Topic.SELECT:
            game.apply(d.pivot, ChooseTiles(decision=d.id, tiles=tuple(rng.sample(range(20), 5))))
            continue
        options = game.legal(d.pivot)
        ends = [c for c in options if isinstance(c, EndTurn)]
        game.apply(d.pivot, ends[0] if ends and rng.random() < 0.5 else rng.choice(options))
    assert game.state.result is not None
    with pytest.raises(DataError):
        GameConfig(seats=2, board={"format": "samurai-board/1", "hexes": []})
