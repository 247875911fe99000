"""The 53 cards of Oriente (R1.1, R1.2) and the facts each one carries.

Every card is one object with a fixed id (R1.5): inhabitants are 0..40 in
the order R1.1 lists them, treasures are 41..52. Ids are stable across
versions because game records and golden replays name cards by id.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple


class Kind(IntEnum):
    """What a card is. The integer is the inhabitant's rank (R1.1)."""

    NINJA = 0
    NOFU = 1
    AKINDO = 2
    SAMURAI = 3
    DAIMYO = 4
    MAHO_TSUKAI = 5
    SORYO = 6
    SHOGUN = 7
    GEISHA = 8  # no value, no rank; never an inhabitant that plays
    TREASURE = 9


_INHABITANT_COUNTS: Final = (
    (Kind.SHOGUN, 1),
    (Kind.SORYO, 2),
    (Kind.MAHO_TSUKAI, 4),
    (Kind.DAIMYO, 5),
    (Kind.SAMURAI, 6),
    (Kind.AKINDO, 7),
    (Kind.NOFU, 12),
    (Kind.NINJA, 3),
    (Kind.GEISHA, 1),
)
_TREASURE_VALUES: Final = (2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4)

KIND: Final[tuple[Kind, ...]] = tuple(
    [k for k, count in _INHABITANT_COUNTS for _ in range(count)]
    + [Kind.TREASURE] * len(_TREASURE_VALUES)
)

INHABITANTS: Final = range(0, 41)
TREASURES: Final = range(41, 53)
ALL_CARDS: Final = range(0, 53)
CARD_COUNT: Final = 53

SHOGUN: Final = 0
GEISHA: Final = 40
NINJAS: Final = (37, 38, 39)
NOFUS: Final = tuple(c for c in INHABITANTS if KIND[c] is Kind.NOFU)

# Score value (R9.3): an inhabitant's number, a treasure's printed value,
# 0 for the Geisha (which is never scored anyway).
VALUE: Final[tuple[int, ...]] = tuple(
    _TREASURE_VALUES[c - 41] if KIND[c] is Kind.TREASURE
    else (0 if KIND[c] is Kind.GEISHA else int(KIND[c]))
    for c in ALL_CARDS
)

# Rank for privilege (R4.3c) and fighting strength (R6.5); -1 where a card
# has none, so that it never outranks anything.
RANK: Final[tuple[int, ...]] = tuple(
    int(KIND[c]) if KIND[c] <= Kind.SHOGUN else -1 for c in ALL_CARDS
)

NAMES: Final = {
    Kind.NINJA: "Ninja",
    Kind.NOFU: "Nofu",
    Kind.AKINDO: "Akindo",
    Kind.SAMURAI: "Samurai",
    Kind.DAIMYO: "Daimyo",
    Kind.MAHO_TSUKAI: "Maho-Tsukai",
    Kind.SORYO: "Soryo",
    Kind.SHOGUN: "Shogun",
    Kind.GEISHA: "Geisha",
    Kind.TREASURE: "Treasure",
}


def card_name(card: int) -> str:
    """A person-readable name: 'Samurai', 'Treasure 3'."""
    kind = KIND[card]
    if kind is Kind.TREASURE:
        return f"Treasure {VALUE[card]}"
    return NAMES[kind]


def is_inhabitant(card: int) -> bool:
    return 0 <= card <= 40


def is_treasure(card: int) -> bool:
    return 41 <= card <= 52


class Card(NamedTuple):
    """One card of the table below: what a client needs to show or reason
    about it. `rank` is None for cards that have none (the Geisha, treasures)."""

    id: int
    kind: Kind
    name: str
    rank: int | None
    value: int


# The 53 cards by id (R1.1, R1.2, R1.5): CARDS[c] describes card c.
CARDS: Final[tuple[Card, ...]] = tuple(
    Card(id=c, kind=KIND[c], name=card_name(c), rank=RANK[c] if RANK[c] >= 0 else None, value=VALUE[c])
    for c in ALL_CARDS
)
