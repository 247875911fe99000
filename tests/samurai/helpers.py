"""Scenario helpers: small boards drawn in ASCII, positions set up directly,
and the whole setup played through real commands.

A scenario board is cut to one example: it is not a legal map (S1.6 asks for
the whole of Japan), so it is installed on a game's state directly, next to
the hands, tiles and figures the example needs. Everything else — turns,
captures, the end — then runs through `apply()` as in play.

Map syntax (odd rows shifted right by half a hex, as in docs): `~` or a digit
is sea, `.` or a lowercase letter is land, and an uppercase letter is a
settlement whose kind `kinds` gives (default: village). Letters and digits
name their hex: `ids["a"]` is its hex id.
"""

from __future__ import annotations

from oriente.games.samurai.rules import (
    TABLE,
    ChooseTiles,
    EndTurn,
    Figure,
    Game,
    GameConfig,
    PlaceFigure,
    PlaceTile,
    Timeout,
    Topic,
)
from oriente.games.samurai.rules.board import Layout, build_layout
from oriente.games.samurai.rules.datafiles import TILES_PER_SEAT
from oriente.games.samurai.rules.pieces import FIGURES, Hex, Terrain
from oriente.games.samurai.rules.state import GameState, Phase

H, B, R = Figure.HELMET, Figure.BUDDHA, Figure.RICE

# Tile indices of the default set (server/samurai/data/tiles.json).
HELMET_2, HELMET_3, HELMET_4 = 0, 1, 2
BUDDHA_2, BUDDHA_3, BUDDHA_4 = 3, 4, 5
RICE_2, RICE_3, RICE_4 = 6, 7, 8
SAMURAI_1, SAMURAI_1B, SAMURAI_2, SAMURAI_2B, SAMURAI_3 = 9, 10, 11, 12, 13
RONIN = 14
SHIP_1, SHIP_1B, SHIP_2 = 15, 16, 17
FIGURE_SWAP = 18
TILE_SWAP = 19


def tiny_board(rows: list[str], kinds: dict[str, str] | None = None, seats: int = 2) -> tuple[Layout, dict[str, int]]:
    """A Layout from an ASCII map, and the hex id of every labelled hex."""
    kinds = kinds or {}
    hexes: list[Hex] = []
    ids: dict[str, int] = {}
    for r, row in enumerate(rows):
        for col, ch in enumerate(row):
            if ch == " ":
                continue
            if ch == "~" or ch.isdigit():
                terrain = Terrain.SEA
            elif ch == "." or ch.islower():
                terrain = Terrain.LAND
            else:
                terrain = Terrain(kinds.get(ch, "village"))
            q = col - (r - (r & 1)) // 2
            hid = len(hexes)
            hexes.append(Hex(id=hid, q=q, r=r, part="honshu", terrain=terrain, name=ch if ch not in "~." else None))
            if ch not in "~.":
                assert ch not in ids, f"label {ch!r} used twice"
                ids[ch] = hid
    return build_layout("scenario", tuple(hexes), seats), ids


def position(
    layout: Layout,
    *,
    seats: int,
    turn: int = 0,
    figures: dict[int, list[Figure]],
    hands: dict[int, list[int]] | None = None,
    board: dict[int, tuple[int, int]] | None = None,
    captured: dict[int, list[int]] | None = None,
    seed: int = 0,
) -> GameState:
    """A game on `layout` at the start of `turn`'s turn: the given figures on
    the board, tiles on hexes (hex -> (seat, tile)), hands (default: tiles 0-4
    not on the board); every other tile in its seat's supply."""
    game = Game(GameConfig(seats=seats, seed=seed, first=turn))
    state = game.state
    state.layout = layout
    state.selection = None
    state.figures_at = {h: list(f) for h, f in figures.items() if f}
    state.figure_supply = {f: 0 for f in FIGURES}
    state.tiles_at = dict(board or {})
    hands = hands or {}
    for s in range(seats):
        on_board = {t for (owner, t) in state.tiles_at.values() if owner == s}
        hand = hands.get(s, [t for t in range(TILES_PER_SEAT) if t not in on_board][:5])
        state.hand[s] = sorted(hand)
        state.supply[s] = [t for t in range(TILES_PER_SEAT) if t not in on_board and t not in hand]
    for s in range(seats):  # every tile in exactly one place
        places = state.hand[s] + state.supply[s] + [t for (o, t) in state.tiles_at.values() if o == s]
        assert sorted(places) == list(range(TILES_PER_SEAT)), f"seat {s}'s tiles are not each in one place"
    for s, counts in (captured or {}).items():
        state.captured[s] = list(counts)
    state.phase = Phase.TURNS
    state.prompt_seat = turn
    state.turn = 1
    state.decision = state.next_decision
    state.next_decision += 1
    return state


def decision(state: GameState) -> int:
    assert state.decision is not None
    return state.decision


def place(state: GameState, seat: int, tile: int, hex_id: int) -> list:
    from oriente.games.samurai.rules import apply
    return apply(state, seat, PlaceTile(decision=decision(state), tile=tile, hex=hex_id))


def end_turn(state: GameState, seat: int) -> list:
    from oriente.games.samurai.rules import apply
    return apply(state, seat, EndTurn(decision=decision(state)))


def of_type(events: list, name: str) -> list:
    return [e for e in events if type(e).__name__ == name]


def play_setup(game: Game, hands: dict[int, tuple[int, ...]] | None = None) -> None:
    """Play the tile choice and figure placement through real commands: the
    given hands (default: tiles 0-4), figures placed by the table's silence."""
    hands = hands or {}
    d = game.pending()[0]
    assert d.topic is Topic.SELECT
    for s in range(game.config.seats):
        game.apply(s, ChooseTiles(decision=d.id, tiles=hands.get(s, (0, 1, 2, 3, 4))))
    while game.pending() and game.pending()[0].topic is Topic.FIGURE:
        d = game.pending()[0]
        game.apply(TABLE, Timeout(decision=d.id, pivot=d.pivot))


def place_figures(game: Game, plan: list[tuple[int, Figure]]) -> None:
    """Place figures in the order given (each by the seat whose prompt it is)."""
    for hex_id, fig in plan:
        d = game.pending()[0]
        assert d.topic is Topic.FIGURE
        game.apply(d.pivot, PlaceFigure(decision=d.id, hex=hex_id, figure=fig))  # type: ignore[arg-type]
