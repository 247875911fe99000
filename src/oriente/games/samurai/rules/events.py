"""Events: what happened, recorded once with full detail.

An event may hold tiles some viewers must not see (a hand, a draw). It
never leaves the engine as is: `views.project(event, viewer)` is the one
gate that decides what each viewer gets, and every event has a projection
for every viewer. `by_table` marks what the table's clock did for a silent
seat (S7.1, S7.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import Figure


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted:
    """S2.1, S2.2: the board in play and the start seat."""

    seats: int
    first: int
    board: str
    tile_set: str
    figures_per_kind: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SelectionBegan:
    """S2.3, S7.2: every seat chooses its 5 tiles; asked in this order."""

    decision: int
    asked: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TilesChosen:
    """A seat's choice became final (S7.2). `tiles`: its hand, for it alone."""

    seat: int
    decision: int
    tiles: tuple[int, ...]
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SelectionDone:
    """Every choice is final; each seat's other tiles are its shuffled
    supply (S2.3)."""

    decision: int
    supply_sizes: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CapitalFilled:
    """S2.4: one figure of each kind in Edo."""

    hex: int
    figures: tuple[Figure, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FigurePlaced:
    """S2.5: a figure from the supply into a settlement."""

    seat: int
    decision: int
    hex: int
    figure: Figure
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnBegan:
    """S3: `turn` counts turns from 1 (passed ones included)."""

    seat: int
    decision: int
    turn: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TilePlaced:
    """S3.3, S3.8: a tile on a hex, public with its kind and strength."""

    seat: int
    tile: int
    kind: str
    strength: int | None
    hex: int
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class FiguresSwapped:
    """S3.5: two figures exchanged; the figure swap went back to the box."""

    seat: int
    tile: int
    hex_a: int
    figure_a: Figure
    hex_b: int
    figure_b: Figure
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TileSwapped:
    """S3.6: the tile swap now lies on `hex`; the seat's tile `moved` that
    lay there was placed again on `to`."""

    seat: int
    tile: int
    hex: int
    moved: int
    to: int
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnded:
    """S3.7: the seat ended its turn; captures and the refill follow."""

    seat: int
    decision: int
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnPassed:
    """S3.9: the seat could place no tile."""

    seat: int
    decision: int
    by_table: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class FigureCaptured:
    """S4: a figure left the board. `seat` captured it (None: set aside,
    S4.4); `influence[s]` is seat s's influence on it (S4.2)."""

    hex: int
    figure: Figure
    seat: int | None
    influence: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class TilesDrawn:
    """S3.7: the refill from the seat's own supply; the tiles for it alone."""

    seat: int
    tiles: tuple[int, ...]
    supply_left: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded:
    """S5, S6: the screens are lifted and the game is scored.

    `captured[s]` counts seat s's helmets, Buddhas and rice fields (in that
    order); `majorities[k]` is the seat with the sole majority of kind k
    (None: nobody); `contenders` the seats in contention (S6.1);
    `others[s]` the figures a contender counts besides its majority kind
    (S6.3), None for a seat out of contention; `ranks` competition-style;
    `winners` the seats ranked first (empty when nobody qualifies, S6.5).
    """

    reason: str
    captured: tuple[tuple[int, int, int], ...]
    set_aside: tuple[int, int, int]
    majorities: tuple[int | None, int | None, int | None]
    contenders: tuple[int, ...]
    others: tuple[int | None, ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]


Event = (GameStarted | SelectionBegan | TilesChosen | SelectionDone | CapitalFilled | FigurePlaced | TurnBegan
         | TilePlaced | FiguresSwapped | TileSwapped | TurnEnded | TurnPassed | FigureCaptured | TilesDrawn
         | GameEnded)
