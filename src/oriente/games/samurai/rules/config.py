"""Table configuration for a game of Samurai: seats, seed, start seat, and
optionally another board or tile set (S1.6, S2.2).

`board` and `tiles` are the JSON data of S1.6 (None: the packaged
defaults). They are validated when the config is made, so a table with a
broken map is refused before the game starts, with every problem listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._shared import ConfigError
from .board import Layout
from .datafiles import Board, TileSet, default_board, default_tiles, read_board, read_tiles
from .pieces import MAX_SEATS, MIN_SEATS


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfig:
    """What a table fixes before the first tile is chosen.

    `first` is the start seat (the rulebook's youngest player, S2.2); None
    draws it from the seed. `board` / `tiles`: S1.6 data, None for the
    defaults. `layout` and `tileset` are the validated, compiled forms.
    """

    seats: int
    seed: int = 0
    first: int | None = None
    board: Any = None
    tiles: Any = None
    layout: Layout = field(init=False, repr=False, compare=False)
    tileset: TileSet = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.seats
        if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
            raise ConfigError(f"Samurai is played by 2 to 4 seats, not {n!r} (S1.2)")
        if not _is_int(self.seed) or self.seed < 0:
            raise ConfigError("the seed must be a non-negative integer")
        if self.first is not None and (not _is_int(self.first) or not 0 <= self.first < n):
            raise ConfigError(f"the start seat must be a seat 0..{n - 1} (S2.2)")
        board: Board = default_board() if self.board is None else read_board(self.board)
        tileset = default_tiles() if self.tiles is None else read_tiles(self.tiles)
        object.__setattr__(self, "layout", board.layouts[n])
        object.__setattr__(self, "tileset", tileset)

    def to_plain(self) -> dict[str, Any]:
        """The config as plain data, for game records."""
        return {"seats": self.seats, "seed": self.seed, "first": self.first,
                "board": self.board, "tiles": self.tiles}

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> GameConfig:
        return cls(seats=data["seats"], seed=data.get("seed", 0), first=data.get("first"),
                   board=data.get("board"), tiles=data.get("tiles"))
