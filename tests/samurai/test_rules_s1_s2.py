"""Components and setup (S1, S2), one test per rule id."""

from __future__ import annotations

import pytest

from oriente.server.samurai import (
    TABLE,
    ChooseTiles,
    ConfigError,
    Game,
    GameConfig,
    PlaceFigure,
    Rejected,
    Timeout,
    Topic,
    apply,
    pending,
)
from oriente.server.samurai.datafiles import default_board, default_tiles
from oriente.server.samurai.moves import influence
from oriente.server.samurai.pieces import FIGURES, PARTS_IN_PLAY, TileKind

from .helpers import BUDDHA_3, RONIN, SHIP_2, B, H, R, play_setup, position, tiny_board


@pytest.mark.parametrize("seats,per_kind", [(2, 7), (3, 10), (4, 13)])
def test_s1_1_figures_per_player_count(seats, per_kind):
    """S1.1: "With 2 players 7 of each are used, with 3 players 10, with 4
    players all 13." """
    game = Game(GameConfig(seats=seats, seed=1))
    play_setup(game)
    counts = {f: 0 for f in FIGURES}
    for there in game.state.figures_at.values():
        for f in there:
            counts[f] += 1
    assert counts == {f: per_kind for f in FIGURES}
    assert all(v == 0 for v in game.state.figure_supply.values())


@pytest.mark.parametrize("seats", [0, 1, 5, True, "2"])
def test_s1_2_two_to_four_seats(seats):
    """S1.2: "Players: 2 to 4." """
    with pytest.raises(ConfigError):
        GameConfig(seats=seats)


def test_s1_2_clockwise_is_increasing_seat_number():
    """S1.2: "clockwise means increasing seat number, wrapping around." """
    game = Game(GameConfig(seats=3, seed=5, first=2))
    assert pending(game.state)[0].asked == (2, 0, 1)


def test_s1_3_default_tile_set():
    """S1.3: "Every seat has the same set of 20 tiles ... Exactly 5 of the 20
    are fast." — and one figure swap and one tile swap, of strength 0."""
    tiles = default_tiles().tiles
    assert len(tiles) == 20
    assert sum(t.fast for t in tiles) == 5
    kinds = [t.kind for t in tiles]
    assert kinds.count(TileKind.FIGURE_SWAP) == 1 and kinds.count(TileKind.TILE_SWAP) == 1
    swap = next(t for t in tiles if t.kind is TileKind.TILE_SWAP)
    assert swap.strength == 0 and not swap.influences
    assert {t.kind for t in tiles if t.fast} == {TileKind.RONIN, TileKind.SHIP, TileKind.FIGURE_SWAP}


def test_s1_4_influence_examples_of_the_rulebook():
    """S1.4: "A tile on a hex influences every figure on a neighbouring
    settlement that its kind may influence, with its strength." The
    rulebook's pictures: a Buddha tile influences the two Buddhas beside it,
    not the rice field; the ronin influences all three figures; the ship
    influences both figures of the city beside it."""
    layout, ids = tiny_board([
        "~~~~~~~",
        "~PxQ~~~",
        "~~S...~",
        "~~~.C1~",
        "~~~~~~~",
    ], kinds={"C": "city"})
    figures = {ids["P"]: [B], ids["Q"]: [B], ids["S"]: [R], ids["C"]: [H, R]}
    state = position(layout, seats=2, figures=figures, board={ids["x"]: (0, BUDDHA_3), ids["1"]: (1, SHIP_2)})
    assert influence(state, ids["P"], B) == [3, 0]
    assert influence(state, ids["Q"], B) == [3, 0]
    assert influence(state, ids["S"], R) == [0, 0]
    assert influence(state, ids["C"], H) == [0, 2] and influence(state, ids["C"], R) == [0, 2]
    state.tiles_at[ids["x"]] = (0, RONIN)
    assert [influence(state, ids[s], f) for s, f in (("P", B), ("Q", B), ("S", R))] == [[1, 0]] * 3


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_s1_5_parts_by_player_count(seats):
    """S1.5: "2 players Honshu; 3 players Honshu, Kyushu and Shikoku; 4
    players all four. Two hexes are neighbours if they share an edge and both
    are in play." """
    board = default_board()
    layout = board.layouts[seats]
    assert {h.part for h in layout.hexes.values()} == set(PARTS_IN_PLAY[seats])
    assert len(layout.hexes) == sum(1 for h in board.hexes if h.part in PARTS_IN_PLAY[seats])
    for h, around in layout.neighbours.items():
        assert len(around) <= 6 and all(n in layout.hexes for n in around)
        for n in around:
            a, b = layout.hexes[h], layout.hexes[n]
            assert (b.q - a.q, b.r - a.r) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


def test_s1_5_settlement_capacity():
    """S1.5: "a village holds one figure, a city two figures of different
    kinds, the capital Edo one figure of each kind." """
    game = Game(GameConfig(seats=4, seed=3))
    play_setup(game)
    layout = game.state.layout
    for s in layout.settlements:
        there = game.state.figures_at[s]
        assert len(there) == layout.capacity(s) and len(set(there)) == len(there)
    assert sorted(game.state.figures_at[layout.capital]) == sorted(FIGURES)


def test_s2_2_start_seat_from_config_or_seed():
    """S2.2: "the table's configuration names the start seat, or it is drawn
    from the seed." """
    assert Game(GameConfig(seats=4, seed=9, first=3)).state.first == 3
    drawn = {Game(GameConfig(seats=4, seed=seed)).state.first for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert Game(GameConfig(seats=4, seed=11)).state.first == Game(GameConfig(seats=4, seed=11)).state.first
    with pytest.raises(ConfigError):
        GameConfig(seats=2, first=2)


def test_s2_3_choose_five_then_the_rest_is_the_supply():
    """S2.3: "Every seat chooses 5 of its 20 tiles, secretly and all at the
    same time ... each seat's other 15 tiles are shuffled face down as its
    supply." """
    game = Game(GameConfig(seats=2, seed=4, first=0))
    d = game.pending()[0]
    for bad, code in (((1, 2, 3, 4), "select/count"), ((1, 1, 2, 3, 4), "select/duplicate"),
                      ((1, 2, 3, 4, 20), "select/unknown_tile")):
        with pytest.raises(Rejected) as err:
            game.apply(0, ChooseTiles(decision=d.id, tiles=bad))
        assert err.value.code == code
    game.apply(1, ChooseTiles(decision=d.id, tiles=(19, 18, 17, 16, 15)))
    game.apply(0, ChooseTiles(decision=d.id, tiles=(4, 3, 2, 1, 0)))
    state = game.state
    assert state.hand == [[0, 1, 2, 3, 4], [15, 16, 17, 18, 19]]
    assert sorted(state.supply[0]) == list(range(5, 20)) and sorted(state.supply[1]) == list(range(15))
    assert state.supply[0] != sorted(state.supply[0])  # shuffled (this seed)


def test_s2_3_silence_draws_five_at_random():
    """S2.3: "a seat whose time runs out gets 5 tiles drawn at random." """
    hands = set()
    for seed in range(8):
        game = Game(GameConfig(seats=2, seed=seed, first=0))
        d = game.pending()[0]
        game.apply(TABLE, Timeout(decision=d.id, pivot=0))
        assert len(game.state.hand[0]) == 5 and len(set(game.state.hand[0])) == 5
        hands.add(tuple(game.state.hand[0]))
    assert len(hands) > 1


def test_s2_4_edo_gets_one_of_each():
    """S2.4: "One figure of each kind goes to Edo." """
    game = Game(GameConfig(seats=2, seed=2))
    d = game.pending()[0]
    for s in range(2):
        game.apply(s, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    capital = game.state.layout.capital
    assert game.state.figures_at == {capital: [H, B, R]}
    assert game.state.figure_supply == {H: 6, B: 6, R: 6}


def test_s2_5_cities_first_no_two_alike_rotation_runs_on():
    """S2.5: "each seat in turn takes any figure ... first cities, until every
    city holds two; then villages, one each. The rotation runs on from
    cities to villages without restarting. A city never holds two figures of
    the same kind." """
    game = Game(GameConfig(seats=3, seed=2, first=1))
    d = game.pending()[0]
    for s in range(3):
        game.apply(s, ChooseTiles(decision=d.id, tiles=(0, 1, 2, 3, 4)))
    layout, state = game.state.layout, game.state
    city, village = layout.cities[0], layout.villages[0]
    d = game.pending()[0]
    assert d.topic is Topic.FIGURE and d.pivot == 1
    for cmd, code in ((PlaceFigure(decision=d.id, hex=village, figure=H), "figure/cities_first"),
                      (PlaceFigure(decision=d.id, hex=layout.capital, figure=H), "figure/full"),
                      (PlaceFigure(decision=d.id, hex=next(iter(layout.land)), figure=H), "figure/not_a_settlement")):
        with pytest.raises(Rejected) as err:
            game.apply(1, cmd)
        assert err.value.code == code
    with pytest.raises(Rejected) as err:
        game.apply(2, PlaceFigure(decision=d.id, hex=city, figure=H))
    assert err.value.code == "decision/not_yours"
    game.apply(1, PlaceFigure(decision=d.id, hex=city, figure=H))
    d = game.pending()[0]
    with pytest.raises(Rejected) as err:
        game.apply(2, PlaceFigure(decision=d.id, hex=city, figure=H))
    assert err.value.code == "figure/alike_in_city"
    seats_in_order = [1]
    while game.pending()[0].topic is Topic.FIGURE:
        d = game.pending()[0]
        seats_in_order.append(d.pivot)
        open_cities = [c for c in layout.cities if len(state.figures_at.get(c, ())) < 2]
        target = open_cities[0] if open_cities else next(v for v in layout.villages if not state.figures_at.get(v))
        fig = next(f for f in FIGURES if state.figure_supply[f] and f not in state.figures_at.get(target, ()))
        game.apply(d.pivot, PlaceFigure(decision=d.id, hex=target, figure=fig))
    assert seats_in_order == [(1 + i) % 3 for i in range(len(seats_in_order))]
    assert len(seats_in_order) == 3 * 10 - 3


def test_s2_6_start_seat_takes_the_first_turn():
    """S2.6: "When every figure is on the board, the start player takes the
    first turn." """
    game = Game(GameConfig(seats=4, seed=8, first=2))
    play_setup(game)
    d = game.pending()[0]
    assert d.topic is Topic.TURN and d.pivot == 2 and game.state.turn == 1
    with pytest.raises(Rejected):
        apply(game.state, 3, PlaceFigure(decision=d.id, hex=0, figure=H))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_s2_1_board_and_figure_supply(seats):
    """S2.1: "The board is laid out with the parts of S1.5 and the figures of
    S1.1 are put beside it (the figure supply)." """
    state = Game(GameConfig(seats=seats, seed=0)).state
    assert state.figure_supply == {f: {2: 7, 3: 10, 4: 13}[seats] for f in FIGURES}
    assert state.figures_at == {} and state.tiles_at == {}
    assert {h.part for h in state.layout.hexes.values()} == set(PARTS_IN_PLAY[seats])
