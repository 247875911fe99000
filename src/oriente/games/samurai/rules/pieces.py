"""The game's pieces: figures, tile kinds, terrain, hexes and tiles (S1).

Plain frozen values. Which tiles a seat owns and what the map looks like are
data (S1.6, `data.py`); this module fixes only what the rulebook fixes: the
three kinds of figure, what each kind of tile influences, which parts of the
map each player count uses and how many figures it plays with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final


class Figure(str, Enum):
    """The three kinds of figure (S1.1)."""

    HELMET = "helmet"
    BUDDHA = "buddha"
    RICE = "rice"


FIGURES: Final = (Figure.HELMET, Figure.BUDDHA, Figure.RICE)
FIGURE_INDEX: Final = {f: i for i, f in enumerate(FIGURES)}


class TileKind(str, Enum):
    """What a tile shows (S1.3)."""

    HELMET = "helmet"
    BUDDHA = "buddha"
    RICE = "rice"
    SAMURAI = "samurai"
    RONIN = "ronin"
    SHIP = "ship"
    FIGURE_SWAP = "figure_swap"
    TILE_SWAP = "tile_swap"


# S1.3, S1.4: what each kind of tile influences.
INFLUENCES: Final[dict[TileKind, frozenset[Figure]]] = {
    TileKind.HELMET: frozenset({Figure.HELMET}),
    TileKind.BUDDHA: frozenset({Figure.BUDDHA}),
    TileKind.RICE: frozenset({Figure.RICE}),
    TileKind.SAMURAI: frozenset(FIGURES),
    TileKind.RONIN: frozenset(FIGURES),
    TileKind.SHIP: frozenset(FIGURES),
    TileKind.FIGURE_SWAP: frozenset(),
    TileKind.TILE_SWAP: frozenset(),
}


class Terrain(str, Enum):
    """A hex of the map (S1.5)."""

    SEA = "sea"
    LAND = "land"
    VILLAGE = "village"
    CITY = "city"
    CAPITAL = "capital"


# How many figures a settlement holds (S1.5); land and sea hold none.
CAPACITY: Final = {Terrain.VILLAGE: 1, Terrain.CITY: 2, Terrain.CAPITAL: 3}

# The islands, and which of them each player count uses (S1.5).
PARTS: Final = ("honshu", "kyushu", "shikoku", "hokkaido")
PARTS_IN_PLAY: Final[dict[int, tuple[str, ...]]] = {
    2: ("honshu",),
    3: ("honshu", "kyushu", "shikoku"),
    4: PARTS,
}
# Figures of each kind in play (S1.1).
FIGURES_PER_KIND: Final = {2: 7, 3: 10, 4: 13}
MIN_SEATS: Final = 2
MAX_SEATS: Final = 4

HAND_SIZE: Final = 5  # S2.3, S3.7
SET_ASIDE_LIMIT: Final = 4  # S5.2


@dataclass(frozen=True, slots=True)
class Hex:
    """One hex of the map: `id` names it in commands; (q, r) are axial
    coordinates of a pointy-top grid."""

    id: int
    q: int
    r: int
    part: str
    terrain: Terrain
    name: str | None = None

    @property
    def settlement(self) -> bool:
        return self.terrain in CAPACITY


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile of a seat's set; `index` is its id in commands and views
    (every seat's set is the same, S1.3). The figure swap has no strength."""

    index: int
    kind: TileKind
    strength: int | None
    fast: bool
    influences: frozenset[Figure] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "influences", INFLUENCES[self.kind])

    @property
    def on_sea(self) -> bool:
        """Ships go on sea hexes, every other placed tile on land (S3.3)."""
        return self.kind is TileKind.SHIP
