"""Oriente's seeded randomness (R2.8): one PCG32 stream per kind of random
event, derived from the table seed.

The generator is every game's (`...kit.rng`); only the list of streams
is Oriente's. Streams matter for duplicate tournaments: two tables with the
same seed draw the same Trade card even if one of them shuffled for a
revolution earlier.
"""

from __future__ import annotations

from typing import Final

from ...kit import rng as _rng
from ...kit.rng import MASK32, MASK64, Pcg32, splitmix64

__all__ = ["MASK32", "MASK64", "STREAMS", "Pcg32", "derive_streams", "splitmix64"]

# The kinds of random event of R2.8. The order fixes each stream's seed
# derivation: append only, never reorder.
STREAMS: Final = (
    "deck",
    "treasures",
    "stone",
    "trade",
    "loot",
    "redistribution",
    "transformation",
    "silence",
)


def derive_streams(seed: int) -> dict[str, Pcg32]:
    """One independent generator per kind of random event (R2.8)."""
    return _rng.derive_streams(seed, STREAMS)
