"""Table configuration for a game of Samurai: seats, seed, start seat, the
rules revision, and optionally another board or tile set (S1.6, S2.2, S8).

`board` and `tiles` are the JSON data of S1.6 (None: the packaged
defaults of the revision). They are validated when the config is made, so a
table with a broken map is refused before the game starts, with every
problem listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ._shared import ConfigError
from .board import Layout
from .datafiles import (
    Board,
    DataError,
    TileSet,
    default_board,
    default_tiles,
    fit_problems,
    read_board,
    read_tiles,
)
from .pieces import MAX_SEATS, MIN_SEATS

# S8.1: the rules revision a game plays. 2: the packaged map's land fits the
# tiles and every map must (S1.6). A game keeps the revision it started
# with, so that its log replays; a config or record that names none was
# made before there were revisions and plays revision 1 (S8.2).
RULES_REVISION = 2
RULES_REVISIONS = (1, 2)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfig:
    """What a table fixes before the first tile is chosen.

    `first` is the start seat (the rulebook's youngest player, S2.2); None
    draws it from the seed. `board` / `tiles`: S1.6 data, None for the
    defaults. `rules_revision`: S8.1, the current one unless told.
    `layout` and `tileset` are the validated, compiled forms.
    """

    seats: int
    seed: int = 0
    first: int | None = None
    board: Any = None
    tiles: Any = None
    rules_revision: int = RULES_REVISION
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
        if not _is_int(self.rules_revision) or self.rules_revision not in RULES_REVISIONS:
            raise ConfigError(f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))} (S8.1)")
        revision = self.rules_revision
        board: Board = default_board(revision) if self.board is None else read_board(self.board)
        tileset = default_tiles() if self.tiles is None else read_tiles(self.tiles)
        if revision >= 2:  # S1.6: the land fits the tiles, the sea the ships
            problems = fit_problems(board, tileset)
            if problems:
                raise DataError("board", problems)
        object.__setattr__(self, "layout", board.layouts[n])
        object.__setattr__(self, "tileset", tileset)

    def to_plain(self) -> dict[str, Any]:
        """The config as plain data, for game records. Revision 1 is written
        as it always was, without the key (S8.2)."""
        revised = {"rules_revision": self.rules_revision} if self.rules_revision > 1 else {}
        return {"seats": self.seats, "seed": self.seed, "first": self.first,
                "board": self.board, "tiles": self.tiles, **revised}

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> GameConfig:
        """A record's config; one without a revision was written before
        there were revisions and replays as revision 1 (S8.2)."""
        return cls(seats=data["seats"], seed=data.get("seed", 0), first=data.get("first"),
                   board=data.get("board"), tiles=data.get("tiles"),
                   rules_revision=data.get("rules_revision", 1))
