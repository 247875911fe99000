"""What a table fixes before the first card is dealt (O1.6, O2.6).

A table names its seat count, seed and variant, and may bring its own board
and tiles files (O9) and a configured setup — the deck's order, the stones'
places, the first seat — for duplicate tournaments, puzzles and bug
reports. Each configured part is optional; what is not given comes from
the seed's streams.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .board import (
    Board,
    Tiles,
    board_from_data,
    default_board,
    default_tiles,
    tiles_from_data,
)
from .errors import ConfigError

MIN_SEATS = 2
MAX_SEATS = 4
# O10.1: the rules revision a game plays. 2: the rulebook's words for the
# face-down discard and the god stones (O3.4, O7.4, O7.9). A game keeps the
# revision it started with, so that its log replays; a config or record
# that names none was made before there were revisions: revision 1 (O10.2).
RULES_REVISION = 2
RULES_REVISIONS = (1, 2)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True, kw_only=True)
class OroConfig:
    """`board`/`tiles` are parsed board and tiles files (None: the defaults);
    `deck` lists the cards (island indices) top first; `stones[i]` is the
    god on island i (the gods variant only); `first_seat` begins;
    `rules_revision` the rules it plays (O10.1), the current ones unless told."""

    seats: int
    seed: int = 0
    gods: bool = False
    board: dict[str, Any] | None = None
    tiles: dict[str, Any] | None = None
    deck: tuple[int, ...] | None = None
    stones: tuple[str, ...] | None = None
    first_seat: int | None = None
    rules_revision: int = RULES_REVISION
    the_board: Board = field(init=False, repr=False, compare=False)
    the_tiles: Tiles = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        board = default_board() if self.board is None else board_from_data(self.board)
        tiles = default_tiles() if self.tiles is None else tiles_from_data(self.tiles)
        object.__setattr__(self, "the_board", board)
        object.__setattr__(self, "the_tiles", tiles)
        validate(self)

    @property
    def cards(self) -> int:
        return self.the_board.islands * self.the_tiles.cards_per_island


def validate(config: OroConfig) -> None:
    """Refuse a configuration the rules cannot play, saying why (O1.6, O2.6)."""
    n = config.seats
    if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
        raise ConfigError(f"Oro is played by {MIN_SEATS} to {MAX_SEATS} seats, not {n!r} (O1.6)")
    if not _is_int(config.seed) or config.seed < 0:
        raise ConfigError("the seed must be a non-negative integer (O2.6)")
    if not isinstance(config.gods, bool):
        raise ConfigError("gods is true or false (O7)")
    if not _is_int(config.rules_revision) or config.rules_revision not in RULES_REVISIONS:
        raise ConfigError(f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))} (O10.1)")
    board, tiles = config.the_board, config.the_tiles
    if config.deck is not None:
        deck = config.deck
        if not all(_is_int(c) for c in deck):
            raise ConfigError("a configured deck lists island indices, which are integers (O2.6)")
        want = Counter({i: tiles.cards_per_island for i in range(board.islands)})
        if Counter(deck) != want:
            raise ConfigError(
                f"a configured deck holds {tiles.cards_per_island} cards of each of the "
                f"{board.islands} islands (indices 0-{board.islands - 1}), {config.cards} in all (O2.6)"
            )
    if config.stones is not None:
        if not config.gods:
            raise ConfigError("configured god stones need the gods variant (O2.5)")
        if Counter(config.stones) != Counter(tiles.stone_list()) or len(config.stones) != board.islands:
            raise ConfigError("configured stones put each stone of the tiles file on one island (O2.5)")
    first = config.first_seat
    if first is not None and (not _is_int(first) or not 0 <= first < n):
        raise ConfigError(f"the first seat is one of 0..{n - 1} (O2.4)")
