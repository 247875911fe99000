"""Table configuration for a game: seat count, seed, optional configured deal.

A configured deal (R2.8) fixes the deck order, the treasures and the stone
holder, for duplicate tournaments, puzzles and bug reports. Everything else
random still comes from the seed's streams.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeGuard

from .cards import GEISHA, INHABITANTS, TREASURES
from .errors import ConfigError

MIN_SEATS = 4
MAX_SEATS = 12
# The revision of the online rules (R10) a game plays. 2: a negotiation
# window has a decision id of its own (R10.2b2). 1: the window and its
# support round share one id, as games recorded before R10.2b2 did; a game
# keeps the revision it started with, so that its log replays exactly.
# 3: a seat's proposals per season and a proposal's text are bounded (R8.7).
RULES_REVISION = 3
RULES_REVISIONS = (1, 2, 3)


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfig:
    """What a table fixes before the first card is dealt.

    `deck` lists the 41 inhabitants top first; `treasures[s]` is seat s's
    treasure; `stone_holder` the seat that starts with the destiny stone.
    Either all three are given, or none (then the seed decides).
    """

    seats: int
    seed: int = 0
    deck: tuple[int, ...] | None = None
    treasures: tuple[int, ...] | None = None
    stone_holder: int | None = None
    max_open_proposals: int = 3
    rules_revision: int = RULES_REVISION

    def __post_init__(self) -> None:
        validate(self)

    @property
    def configured(self) -> bool:
        return self.deck is not None


def _is_int(value: object) -> TypeGuard[int]:
    """A card or seat id: an int, and not a bool (True would pass for card 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def validate(config: GameConfig) -> None:
    """Refuse a configuration the rules cannot play, saying why (R1.4, R2.8)."""
    n = config.seats
    if not _is_int(n) or not MIN_SEATS <= n <= MAX_SEATS:
        raise ConfigError(f"a table has 4 to 12 seats, not {n!r} (R1.4)")
    if not _is_int(config.seed) or config.seed < 0:
        raise ConfigError("the seed must be a non-negative integer")
    if config.max_open_proposals < 1:
        raise ConfigError("max_open_proposals must be at least 1")
    if config.rules_revision not in RULES_REVISIONS:
        raise ConfigError(f"rules_revision is one of {', '.join(map(str, RULES_REVISIONS))}")
    parts = (config.deck, config.treasures, config.stone_holder)
    if all(p is None for p in parts):
        return
    if any(p is None for p in parts):
        raise ConfigError(
            "a configured deal gives deck, treasures and stone_holder together (R2.8)"
        )
    deck = tuple(config.deck or ())
    if not all(_is_int(c) for c in deck):
        raise ConfigError("a configured deck lists card ids, which are integers (R2.8)")
    if sorted(deck) != list(INHABITANTS):
        raise ConfigError("a configured deck must list all 41 inhabitants (ids 0-40) exactly once (R2.8)")
    if GEISHA in deck[: n + 1]:
        raise ConfigError(
            f"the Geisha may not be among the first {n + 1} cards of a configured deck (R2.8)"
        )
    treasures = tuple(config.treasures or ())
    if not all(_is_int(t) for t in treasures):
        raise ConfigError("configured treasures are card ids, which are integers (R2.8)")
    if len(treasures) != n or len(set(treasures)) != n or any(t not in TREASURES for t in treasures):
        raise ConfigError(f"a configured deal gives {n} distinct treasures (ids 41-52) (R2.8)")
    stone = config.stone_holder
    if not _is_int(stone) or not 0 <= stone < n:
        raise ConfigError(f"the stone holder must be a seat 0..{n - 1} (R2.8)")
