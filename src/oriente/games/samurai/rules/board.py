"""The map in play for one player count: neighbours, settlements, and the
land hexes whose covering captures a settlement (S1.5, S4.1).

A `Layout` is computed once per (board, player count) and shared by every
game on it; the game state keeps only what changes (figures and tiles).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hexnames import squares as square_names
from .pieces import CAPACITY, FIGURES_PER_KIND, PARTS_IN_PLAY, Hex, Terrain

# Axial neighbour offsets of a pointy-top hex grid.
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True, slots=True)
class Layout:
    """The hexes in play at `seats` players and what the rules ask of them.

    `land_around[s]` lists the plain land hexes next to settlement `s`: the
    ones that must all hold a tile for its figures to be taken (S4.1).
    `around[s]` lists every neighbour, sea included: where influence on `s`
    comes from (S4.2). `land` and `sea` list the hexes tiles go on (S3.3,
    S3.4: settlements are not among them), in id order.
    """

    seats: int
    name: str
    hexes: dict[int, Hex]
    neighbours: dict[int, tuple[int, ...]]
    land: tuple[int, ...]
    sea: tuple[int, ...]
    settlements: tuple[int, ...]
    cities: tuple[int, ...]
    villages: tuple[int, ...]
    capital: int | None
    around: dict[int, tuple[int, ...]]
    land_around: dict[int, tuple[int, ...]]
    figures_per_kind: int
    # each hex's square ('K12', hexnames.py), counted on the hexes in play
    squares: dict[int, str]
    # the hexes as plain data, built once for every view of this layout
    table: tuple[dict[str, Any], ...]

    def capacity(self, hex_id: int) -> int:
        return CAPACITY.get(self.hexes[hex_id].terrain, 0)


def build_layout(name: str, hexes: tuple[Hex, ...], seats: int) -> Layout:
    """The layout of the parts `seats` players use (S1.5). Assumes ids and
    coordinates are unique (the data validator checks that first)."""
    parts = PARTS_IN_PLAY[seats]
    in_play = {h.id: h for h in hexes if h.part in parts}
    at = {(h.q, h.r): h.id for h in in_play.values()}
    neighbours: dict[int, tuple[int, ...]] = {}
    for h in in_play.values():
        found = (at.get((h.q + dq, h.r + dr)) for dq, dr in DIRECTIONS)
        neighbours[h.id] = tuple(sorted(n for n in found if n is not None))
    by_terrain: dict[Terrain, list[int]] = {t: [] for t in Terrain}
    for h in sorted(in_play.values(), key=lambda h: h.id):
        by_terrain[h.terrain].append(h.id)
    settlements = tuple(sorted(by_terrain[Terrain.VILLAGE] + by_terrain[Terrain.CITY]
                               + by_terrain[Terrain.CAPITAL]))
    capitals = by_terrain[Terrain.CAPITAL]
    named = square_names({"id": h.id, "q": h.q, "r": h.r} for h in in_play.values())
    return Layout(
        seats=seats,
        name=name,
        hexes=in_play,
        neighbours=neighbours,
        land=tuple(by_terrain[Terrain.LAND]),
        sea=tuple(by_terrain[Terrain.SEA]),
        settlements=settlements,
        cities=tuple(by_terrain[Terrain.CITY]),
        villages=tuple(by_terrain[Terrain.VILLAGE]),
        capital=capitals[0] if len(capitals) == 1 else None,
        around={s: neighbours[s] for s in settlements},
        land_around={s: tuple(n for n in neighbours[s] if in_play[n].terrain is Terrain.LAND)
                     for s in settlements},
        figures_per_kind=FIGURES_PER_KIND[seats],
        squares=named,
        table=tuple(_plain_hex(h, named[h.id]) for h in sorted(in_play.values(), key=lambda h: h.id)),
    )


def _plain_hex(h: Hex, square: str) -> dict[str, Any]:
    out: dict[str, Any] = {"id": h.id, "q": h.q, "r": h.r, "part": h.part, "terrain": h.terrain.value,
                           "square": square}
    if h.name:
        out["name"] = h.name
    return out
