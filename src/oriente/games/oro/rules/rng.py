"""Oro's seeded randomness (O2.6): one PCG32 stream per kind of random event.

The generator is the project's (`...kit.rng`: PCG32 seeded through
SplitMix64), imported rather than repeated; only the list of streams is
Oro's. Each kind of random event has its own stream so that two tables with
the same seed stay as alike as their play allows.
"""

from __future__ import annotations

from typing import Final

from ...kit import rng as _rng
from ...kit.rng import Pcg32

__all__ = ["STREAMS", "Pcg32", "derive_streams"]

# Append only, never reorder: the order fixes each stream's derivation.
STREAMS: Final = ("deck", "first", "stones", "reshuffle", "pele", "silence")


def derive_streams(seed: int) -> dict[str, Pcg32]:
    """One independent generator per kind of random event (O2.6)."""
    return _rng.derive_streams(seed, STREAMS)
