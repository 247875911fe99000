"""Seeded randomness owned by the game state (S7.7).

One PCG32 stream per kind of random event, each derived from the table seed
with SplitMix64: the project's generator (`...kit.rng`), imported, not
copied. Separate streams keep two tables with the same seed alike as far as
their play allows: a seat that times out does not change anyone's draws.
"""

from __future__ import annotations

from typing import Final

from ...kit import rng as _rng
from ._shared import Pcg32

# The kinds of random event. The order fixes each stream's seed derivation:
# append only, never reorder.
STREAMS: Final = ("start", "supply", "silence")


def derive_streams(seed: int) -> dict[str, Pcg32]:
    """One independent generator per kind of random event (S7.7)."""
    return _rng.derive_streams(seed, STREAMS)
