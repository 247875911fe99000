"""A turn (S3), one test per rule id, on small boards cut to each rule."""

from __future__ import annotations

import copy

import pytest

from oriente.server.samurai import (
    SPECTATOR,
    EndTurn,
    Pass,
    PlaceTile,
    Rejected,
    SwapFigures,
    SwapTile,
    apply,
    legal,
    project,
)

from .helpers import (
    BUDDHA_2,
    FIGURE_SWAP,
    HELMET_2,
    HELMET_3,
    RICE_2,
    RONIN,
    SAMURAI_1,
    SAMURAI_2,
    SHIP_1,
    SHIP_1B,
    TILE_SWAP,
    B,
    H,
    R,
    decision,
    end_turn,
    of_type,
    place,
    position,
    tiny_board,
)

# Two villages V, W and a city C on a strip of land, sea all around.
STRIP = [
    "~~~~~~~~~",
    "~aVbcWd1~",
    "~~efCgh~~",
    "~~~~~2~~~",
]


LAYOUT, IDS = tiny_board(STRIP, kinds={"C": "city"})
FIGURES_ON_STRIP = {IDS["V"]: [H], IDS["W"]: [B], IDS["C"]: [H, R]}


def strip(**kw):
    figures = kw.pop("figures", FIGURES_ON_STRIP)
    return position(LAYOUT, seats=2, figures=figures, **kw), IDS


def rejected(state, seat, cmd, code):
    before = copy.deepcopy(state)
    with pytest.raises(Rejected) as err:
        apply(state, seat, cmd)
    assert err.value.code == code, err.value
    assert _same(before, state)


def _same(a, b):
    fields = ("hand", "supply", "tiles_at", "figures_at", "placed", "plain_used", "captured", "set_aside", "decision")
    return all(getattr(a, f) == getattr(b, f) for f in fields)


def test_s3_1_at_least_one_tile():
    """S3.1: "It must place at least one" tile."""
    state, _ = strip()
    rejected(state, 0, EndTurn(decision=decision(state)), "turn/nothing_placed")
    assert EndTurn(decision=decision(state)) not in legal(state, 0)


def test_s3_2_one_plain_tile_and_any_fast_tiles():
    """S3.2: "At most one plain tile per turn; any number of fast tiles; both
    in the same turn, in any order (e.g. a samurai and two ships)." """
    state, ids = strip(hands={0: [SHIP_1, HELMET_2, SAMURAI_2, SHIP_1B, RONIN]})
    place(state, 0, SHIP_1, ids["1"])
    place(state, 0, SAMURAI_2, ids["a"])
    rejected(state, 0, PlaceTile(decision=decision(state), tile=HELMET_2, hex=ids["b"]), "tile/plain_used")
    assert all(c.tile != HELMET_2 for c in legal(state, 0) if isinstance(c, PlaceTile))
    place(state, 0, SHIP_1B, ids["2"])
    place(state, 0, RONIN, ids["b"])
    assert state.placed == 4 and state.hand[0] == [HELMET_2]


def test_s3_3_ships_on_sea_others_on_empty_land():
    """S3.3: "A ship goes on an empty sea hex; every other tile on an empty
    land hex." """
    state, ids = strip(hands={0: [SHIP_1, HELMET_2, RONIN, SAMURAI_1, RICE_2]}, board={IDS["a"]: (1, HELMET_3)})
    d = decision(state)
    rejected(state, 0, PlaceTile(decision=d, tile=SHIP_1, hex=ids["b"]), "hex/needs_sea")
    rejected(state, 0, PlaceTile(decision=d, tile=RONIN, hex=ids["1"]), "hex/needs_land")
    rejected(state, 0, PlaceTile(decision=d, tile=RONIN, hex=ids["a"]), "hex/occupied")
    rejected(state, 0, PlaceTile(decision=d, tile=RONIN, hex=999), "hex/unknown")
    rejected(state, 0, PlaceTile(decision=d, tile=BUDDHA_2, hex=ids["b"]), "tile/not_in_hand")
    rejected(state, 0, PlaceTile(decision=d, tile=TILE_SWAP, hex=ids["b"]), "tile/not_in_hand")
    targets = {(c.tile, c.hex) for c in legal(state, 0) if isinstance(c, PlaceTile)}
    layout = state.layout
    assert {h for t, h in targets if t == SHIP_1} == set(layout.sea)
    assert {h for t, h in targets if t == RONIN} == set(layout.land) - {ids["a"]}


def test_s3_4_never_on_a_settlement_even_when_empty():
    """S3.4: "No tile is ever placed on a village, city or Edo, not even after
    its figures are gone." """
    state, ids = strip(figures={IDS["W"]: [B]},
                       hands={0: [RONIN, SAMURAI_1, RICE_2, HELMET_2, SHIP_1]})
    for hex_id in (ids["V"], ids["C"], ids["W"]):
        rejected(state, 0, PlaceTile(decision=decision(state), tile=RONIN, hex=hex_id), "hex/settlement")


def test_s3_5_figure_swap():
    """S3.5: "The seat exchanges any two figures on the board, whatever the
    distance, and puts the tile back in the box. ... no city or Edo may end
    with two figures of one kind. Ruling: the two figures are of different
    kinds and stand in different settlements." """
    state, ids = strip(hands={0: [FIGURE_SWAP, HELMET_2, SAMURAI_2, RICE_2, BUDDHA_2]})
    d = decision(state)
    V, W, C = ids["V"], ids["W"], ids["C"]
    rejected(state, 0, SwapFigures(decision=d, tile=FIGURE_SWAP, hex_a=V, figure_a=H, hex_b=C, figure_b=H),
             "swap/same_kind")
    rejected(state, 0, SwapFigures(decision=d, tile=FIGURE_SWAP, hex_a=C, figure_a=H, hex_b=C, figure_b=R),
             "swap/same_settlement")
    rejected(state, 0, SwapFigures(decision=d, tile=FIGURE_SWAP, hex_a=V, figure_a=H, hex_b=C, figure_b=R),
             "swap/alike_in_city")  # C would hold two helmets
    rejected(state, 0, SwapFigures(decision=d, tile=FIGURE_SWAP, hex_a=V, figure_a=B, hex_b=W, figure_b=H),
             "swap/no_such_figure")
    rejected(state, 0, SwapFigures(decision=d, tile=HELMET_2, hex_a=V, figure_a=H, hex_b=W, figure_b=B),
             "swap/not_figure_swap")
    rejected(state, 0, PlaceTile(decision=d, tile=FIGURE_SWAP, hex=ids["a"]), "tile/use_swap_command")
    swaps = {(c.hex_a, c.figure_a, c.hex_b, c.figure_b) for c in legal(state, 0) if isinstance(c, SwapFigures)}
    once = {(V, H, W, B), (W, B, C, H), (W, B, C, R)}
    assert swaps == once | {(b, fb, a, fa) for a, fa, b, fb in once}  # either order names the exchange
    ev = apply(state, 0, SwapFigures(decision=d, tile=FIGURE_SWAP, hex_a=W, figure_a=B, hex_b=C, figure_b=R))
    assert of_type(ev, "FiguresSwapped")
    assert state.figures_at[W] == [R] and sorted(state.figures_at[C]) == sorted([H, B])
    assert state.boxed[0] == [FIGURE_SWAP] and FIGURE_SWAP not in state.hand[0]
    assert FIGURE_SWAP not in {t for _, t in state.tiles_at.values()}
    place(state, 0, SAMURAI_2, ids["a"])  # the figure swap is fast: the plain tile is still allowed


def test_s3_6_tile_swap():
    """S3.6: "The seat puts the tile swap on a hex holding one of its own
    plain tiles, takes that tile up, and places it again at once on an empty
    hex where S3.3 allows it. The tile swap stays, with strength 0.
    Ruling: the re-placed tile ... does not count again under S3.2." """
    ids, layout = IDS, LAYOUT
    board = {ids["a"]: (0, HELMET_3), ids["b"]: (1, SAMURAI_2), ids["1"]: (0, SHIP_1)}
    state, _ = strip(board=board, hands={0: [TILE_SWAP, RONIN, RICE_2, BUDDHA_2, SAMURAI_1]})
    d = decision(state)
    rejected(state, 0, SwapTile(decision=d, tile=TILE_SWAP, hex=ids["b"], to=ids["c"]), "exchange/not_own_tile")
    rejected(state, 0, SwapTile(decision=d, tile=TILE_SWAP, hex=ids["1"], to=ids["2"]), "exchange/fast_tile")
    rejected(state, 0, SwapTile(decision=d, tile=TILE_SWAP, hex=ids["a"], to=ids["b"]), "hex/occupied")
    rejected(state, 0, SwapTile(decision=d, tile=TILE_SWAP, hex=ids["a"], to=ids["2"]), "hex/needs_land")
    rejected(state, 0, SwapTile(decision=d, tile=RONIN, hex=ids["a"], to=ids["c"]), "exchange/not_tile_swap")
    moves = {(c.hex, c.to) for c in legal(state, 0) if isinstance(c, SwapTile)}
    assert moves == {(ids["a"], h) for h in layout.land if h not in board}
    ev = apply(state, 0, SwapTile(decision=d, tile=TILE_SWAP, hex=ids["a"], to=ids["c"]))
    assert of_type(ev, "TileSwapped")
    assert state.tiles_at[ids["a"]] == (0, TILE_SWAP) and state.tiles_at[ids["c"]] == (0, HELMET_3)
    rejected(state, 0, PlaceTile(decision=d, tile=RICE_2, hex=ids["d"]), "tile/plain_used")  # the swap was plain
    place(state, 0, RONIN, ids["d"])


def test_s3_7_end_of_turn_refills_to_five_and_passes_on():
    """S3.7: "captures are resolved (S4), then the seat draws from its supply,
    at random, until it holds 5 tiles or its supply is empty. Then the next
    seat clockwise takes its turn." """
    state, ids = strip(hands={0: [SHIP_1, SHIP_1B, RONIN, HELMET_2, SAMURAI_1]})
    supply_before = list(state.supply[0])
    place(state, 0, SHIP_1, ids["1"])
    place(state, 0, RONIN, ids["a"])
    place(state, 0, SHIP_1B, ids["2"])
    ev = end_turn(state, 0)
    drawn = of_type(ev, "TilesDrawn")[0]
    assert len(drawn.tiles) == 3 and set(drawn.tiles) == set(supply_before[-3:])
    assert len(state.hand[0]) == 5 and len(state.supply[0]) == len(supply_before) - 3
    assert state.prompt_seat == 1 and of_type(ev, "TurnBegan")[0].seat == 1
    state.supply[0] = [BUDDHA_2]  # a supply about to run out
    state.hand[0] = [HELMET_2]
    place(state, 1, state.hand[1][0], ids["b"])
    end_turn(state, 1)
    place(state, 0, HELMET_2, ids["c"])
    ev = end_turn(state, 0)
    assert state.hand[0] == [BUDDHA_2] and state.supply[0] == []


def test_s3_8_placements_are_public():
    """S3.8: "Placements are public the moment they are made: the tile, its
    owner, kind and strength." """
    state, ids = strip(hands={0: [HELMET_3, SHIP_1, RONIN, RICE_2, BUDDHA_2]})
    ev = place(state, 0, HELMET_3, ids["a"])[0]
    for viewer in (0, 1, SPECTATOR):
        assert project(ev, viewer) == {"type": "TilePlaced", "seat": 0, "tile": HELMET_3, "kind": "helmet",
                                       "strength": 3, "hex": ids["a"], "by_table": False}


def test_s3_9_pass_only_when_nothing_can_be_placed():
    """S3.9: "A seat that cannot place any tile at the start of its turn ...
    passes." """
    owners = [(0, t) for t in range(15)] + [(1, t) for t in range(10, 20)]  # every tile in one place
    full_sea = dict(zip(LAYOUT.sea, owners, strict=True))
    state, ids = strip(board=full_sea, hands={0: [SHIP_1, SHIP_1B]})
    assert legal(state, 0) == [Pass(decision=decision(state))]
    ev = apply(state, 0, Pass(decision=decision(state)))
    assert of_type(ev, "TurnPassed") and state.prompt_seat == 1
    rejected(state, 1, Pass(decision=decision(state)), "turn/must_place")
    place(state, 1, state.hand[1][0], ids["a"])
    rejected(state, 1, Pass(decision=decision(state)), "turn/already_placed")
