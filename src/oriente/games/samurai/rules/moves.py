"""What a seat may do on its turn, and what the end of a turn captures.

Validation and enumeration live side by side so they cannot drift apart:
`check_*` raises `Rejected` for a placement the rules refuse (S3.2-S3.6),
`placements` lists every one they allow, in a fixed order (silence draws
from it, S7.1), and `resolve_captures` is S4. Nothing here mutates the
state except `resolve_captures` and the `do_*` functions, which are called
only after their `check_*` passed.
"""

from __future__ import annotations

from ._shared import Rejected
from .commands import PlaceFigure, PlaceTile, SwapFigures, SwapTile
from .events import FigureCaptured, FiguresSwapped, TilePlaced, TileSwapped
from .pieces import FIGURE_INDEX, FIGURES, Figure, Terrain, Tile, TileKind
from .state import GameState

Placement = PlaceTile | SwapFigures | SwapTile


# -- setup: placing figures (S2.5) -------------------------------------------------

def open_settlements(state: GameState) -> list[int]:
    """Where the next figure may go: cities until every city holds two,
    then villages (S2.5). Edo is filled at setup (S2.4)."""
    lay = state.layout
    cities = [c for c in lay.cities if len(state.figures_at.get(c, ())) < 2]
    if cities:
        return cities
    return [v for v in lay.villages if not state.figures_at.get(v)]


def figure_options(state: GameState) -> list[tuple[int, Figure]]:
    """Every legal (settlement, figure) for the figure now placed (S2.5)."""
    out = []
    for hex_id in open_settlements(state):
        there = state.figures_at.get(hex_id, ())
        for fig in FIGURES:
            if state.figure_supply[fig] > 0 and fig not in there:
                out.append((hex_id, fig))
    return out


def check_figure(state: GameState, cmd: PlaceFigure) -> None:
    lay = state.layout
    h = lay.hexes.get(cmd.hex)
    if h is None or not h.settlement:
        raise Rejected("figure/not_a_settlement", f"hex {cmd.hex!r} is not a village or city in play (S2.5)")
    if cmd.figure not in FIGURE_INDEX:
        raise Rejected("command/invalid", "figure must be helmet, buddha or rice")
    there = state.figures_at.get(cmd.hex, ())
    if len(there) >= lay.capacity(cmd.hex):
        raise Rejected("figure/full", f"{h.terrain.value} {cmd.hex} is full (S2.5)")
    if cmd.hex not in open_settlements(state):
        raise Rejected("figure/cities_first", "every city gets its two figures before any village gets one (S2.5)")
    if state.figure_supply[cmd.figure] <= 0:
        raise Rejected("figure/none_left", f"no {cmd.figure.value} is left to place (S2.5)")
    if cmd.figure in there:
        raise Rejected("figure/alike_in_city", "a city never holds two figures of one kind (S2.5)")


# -- turns: placing tiles (S3) ----------------------------------------------------

def _tile_in_hand(state: GameState, seat: int, tile: int) -> Tile:
    if tile not in state.hand[seat]:
        raise Rejected("tile/not_in_hand", f"tile {tile!r} is not in your hand")
    t = state.tileset.tiles[tile]
    if not t.fast and state.plain_used:
        raise Rejected("tile/plain_used", "only one plain tile per turn; fast tiles are still allowed (S3.2)")
    return t


def _check_target(state: GameState, t: Tile, hex_id: int) -> None:
    """S3.3, S3.4: ships on empty sea, every other tile on empty land."""
    h = state.layout.hexes.get(hex_id)
    if h is None:
        raise Rejected("hex/unknown", f"there is no hex {hex_id!r} in play")
    if h.settlement:
        raise Rejected("hex/settlement", "no tile is ever placed on a village, city or Edo (S3.4)")
    if hex_id in state.tiles_at:
        raise Rejected("hex/occupied", f"hex {hex_id} already holds a tile (S3.3)")
    if t.on_sea and h.terrain is not Terrain.SEA:
        raise Rejected("hex/needs_sea", "a ship goes on an empty sea hex (S3.3)")
    if not t.on_sea and h.terrain is not Terrain.LAND:
        raise Rejected("hex/needs_land", f"a {t.kind.value} tile goes on an empty land hex (S3.3)")


def check_place(state: GameState, seat: int, cmd: Placement) -> Tile:
    """Raise Rejected unless `cmd` is a legal placement for `seat` now."""
    t = _tile_in_hand(state, seat, cmd.tile)
    match cmd:
        case PlaceTile():
            if t.kind in (TileKind.FIGURE_SWAP, TileKind.TILE_SWAP):
                command = "SwapFigures" if t.kind is TileKind.FIGURE_SWAP else "SwapTile"
                raise Rejected("tile/use_swap_command", f"the {t.kind.value} is played with {command} (S3.5, S3.6)")
            _check_target(state, t, cmd.hex)
        case SwapFigures():
            if t.kind is not TileKind.FIGURE_SWAP:
                raise Rejected("swap/not_figure_swap", f"tile {cmd.tile} is not the figure swap (S3.5)")
            _check_swap(state, cmd.hex_a, cmd.figure_a, cmd.hex_b, cmd.figure_b)
        case SwapTile():
            if t.kind is not TileKind.TILE_SWAP:
                raise Rejected("exchange/not_tile_swap", f"tile {cmd.tile} is not the tile swap (S3.6)")
            owner = state.tiles_at.get(cmd.hex)
            if owner is None or owner[0] != seat:
                raise Rejected("exchange/not_own_tile", f"hex {cmd.hex!r} holds none of your tiles (S3.6)")
            moved = state.tileset.tiles[owner[1]]
            if moved.fast:
                raise Rejected("exchange/fast_tile", "the tile swap takes up a plain tile only (S3.6)")
            _check_target(state, moved, cmd.to)
    return t


def _check_swap(state: GameState, hex_a: int, fig_a: Figure, hex_b: int, fig_b: Figure) -> None:
    """S3.5: two figures of different kinds, in different settlements; no
    city (nor Edo) ends with two alike."""
    there_a = state.figures_at.get(hex_a)
    there_b = state.figures_at.get(hex_b)
    if not there_a or fig_a not in there_a or not there_b or fig_b not in there_b:
        raise Rejected("swap/no_such_figure", "name two figures standing on the board (S3.5)")
    if hex_a == hex_b:
        raise Rejected("swap/same_settlement", "the two figures must stand in different settlements (S3.5)")
    if fig_a == fig_b:
        raise Rejected("swap/same_kind", "exchanging two figures of one kind changes nothing (S3.5)")
    if fig_b in there_a or fig_a in there_b:
        raise Rejected("swap/alike_in_city", "a city never holds two figures of one kind, after a swap too (S2.5)")


def do_place(state: GameState, seat: int, cmd: Placement, t: Tile, ev: list, by_table: bool) -> None:
    """Carry out a checked placement."""
    state.hand[seat].remove(cmd.tile)
    match cmd:
        case PlaceTile():
            state.tiles_at[cmd.hex] = (seat, cmd.tile)
            ev.append(TilePlaced(seat=seat, tile=cmd.tile, kind=t.kind.value, strength=t.strength, hex=cmd.hex,
                                 by_table=by_table))
        case SwapFigures():
            there_a, there_b = state.figures_at[cmd.hex_a], state.figures_at[cmd.hex_b]
            there_a[there_a.index(cmd.figure_a)] = cmd.figure_b
            there_b[there_b.index(cmd.figure_b)] = cmd.figure_a
            state.boxed[seat].append(cmd.tile)
            ev.append(FiguresSwapped(seat=seat, tile=cmd.tile, hex_a=cmd.hex_a, figure_a=cmd.figure_a,
                                     hex_b=cmd.hex_b, figure_b=cmd.figure_b, by_table=by_table))
        case SwapTile():
            moved = state.tiles_at[cmd.hex][1]
            state.tiles_at[cmd.hex] = (seat, cmd.tile)
            state.tiles_at[cmd.to] = (seat, moved)
            ev.append(TileSwapped(seat=seat, tile=cmd.tile, hex=cmd.hex, moved=moved, to=cmd.to,
                                  by_table=by_table))
    state.placed += 1
    if not t.fast:
        state.plain_used = True


def _empty(state: GameState, on_sea: bool) -> list[int]:
    pool = state.layout.sea if on_sea else state.layout.land
    return [h for h in pool if h not in state.tiles_at]


def _figure_pairs(state: GameState) -> list[tuple[int, Figure, int, Figure]]:
    """Every exchange S3.5 allows, each in both orders (either names it)."""
    figures = [(h, f) for h in sorted(state.figures_at) for f in state.figures_at[h]]
    out = []
    for ha, fa in figures:
        there_a = state.figures_at[ha]
        for hb, fb in figures:
            if ha == hb or fa == fb:
                continue
            if fb in there_a or fa in state.figures_at[hb]:
                continue
            out.append((ha, fa, hb, fb))
    return out


def _own_plain(state: GameState, seat: int) -> list[tuple[int, Tile]]:
    tiles = state.tileset.tiles
    return [(h, tiles[t]) for h, (s, t) in sorted(state.tiles_at.items()) if s == seat and not tiles[t].fast]


def placements(state: GameState, seat: int, decision: int) -> list[Placement]:
    """Every legal placement for `seat` now, in a fixed order: hand order,
    then hex ids (S3.2-S3.6)."""
    out: list[Placement] = []
    empty: dict[bool, list[int]] = {}
    pairs: list[tuple[int, Figure, int, Figure]] | None = None
    for index in sorted(state.hand[seat]):
        t = state.tileset.tiles[index]
        if not t.fast and state.plain_used:
            continue
        if t.kind is TileKind.FIGURE_SWAP:
            if pairs is None:
                pairs = _figure_pairs(state)
            out.extend(SwapFigures(decision=decision, tile=index, hex_a=a, figure_a=fa, hex_b=b, figure_b=fb)
                       for a, fa, b, fb in pairs)
        elif t.kind is TileKind.TILE_SWAP:
            for h, moved in _own_plain(state, seat):
                targets = empty.setdefault(moved.on_sea, _empty(state, moved.on_sea))
                out.extend(SwapTile(decision=decision, tile=index, hex=h, to=to) for to in targets)
        else:
            targets = empty.setdefault(t.on_sea, _empty(state, t.on_sea))
            out.extend(PlaceTile(decision=decision, tile=index, hex=h) for h in targets)
    return out


def can_place(state: GameState, seat: int) -> bool:
    """Whether `seat` has any legal placement (S3.9), without listing them."""
    land = sea = None
    for index in state.hand[seat]:
        t = state.tileset.tiles[index]
        if not t.fast and state.plain_used:
            continue
        if t.kind is TileKind.FIGURE_SWAP:
            if _figure_pairs(state):
                return True
        elif t.kind is TileKind.TILE_SWAP:
            for _, moved in _own_plain(state, seat):
                if _empty(state, moved.on_sea):
                    return True
        elif t.on_sea:
            sea = sea if sea is not None else bool(_empty(state, True))
            if sea:
                return True
        else:
            land = land if land is not None else bool(_empty(state, False))
            if land:
                return True
    return False


# -- the end of a turn: captures (S4) -------------------------------------------------

def influence(state: GameState, settlement: int, figure: Figure) -> list[int]:
    """Each seat's influence on `figure` at `settlement` (S4.2)."""
    out = [0] * state.n
    tiles = state.tileset.tiles
    for h in state.layout.around[settlement]:
        placed = state.tiles_at.get(h)
        if placed is not None:
            t = tiles[placed[1]]
            if figure in t.influences and t.strength:
                out[placed[0]] += t.strength
    return out


def resolve_captures(state: GameState, ev: list) -> None:
    """S4.1-S4.5: every settlement whose land neighbours are all covered
    loses its figures, each to the sole greatest influence or set aside."""
    lay = state.layout
    for s in lay.settlements:
        there = state.figures_at.get(s)
        if not there or any(h not in state.tiles_at for h in lay.land_around[s]):
            continue
        for fig in sorted(there, key=FIGURE_INDEX.__getitem__):
            infl = influence(state, s, fig)
            best = max(infl)
            holders = [seat for seat, v in enumerate(infl) if v == best]
            k = FIGURE_INDEX[fig]
            if best > 0 and len(holders) == 1:  # S4.3
                winner: int | None = holders[0]
                state.captured[holders[0]][k] += 1
            else:  # S4.4
                winner = None
                state.set_aside[k] += 1
            ev.append(FigureCaptured(hex=s, figure=fig, seat=winner, influence=tuple(infl)))
        del state.figures_at[s]


def on_board(state: GameState) -> list[int]:
    """Figures of each kind still on the board."""
    counts = [0, 0, 0]
    for there in state.figures_at.values():
        for fig in there:
            counts[FIGURE_INDEX[fig]] += 1
    return counts
