"""Oro's seeded randomness (O2.6): one PCG32 stream per kind of random event.

The generator itself is Oriente's (`..rules.rng`: PCG32 seeded through
SplitMix64), imported rather than repeated; only the list of streams is
Oro's. Each kind of random event has its own stream so that two tables with
the same seed stay as alike as their play allows.
"""

from __future__ import annotations

from typing import Final

from ..rules.rng import MASK64, Pcg32, splitmix64

# Append only, never reorder: the order fixes each stream's derivation.
STREAMS: Final = ("deck", "first", "stones", "reshuffle", "pele", "silence")


def derive_streams(seed: int) -> dict[str, Pcg32]:
    """One independent generator per kind of random event (O2.6)."""
    x = seed & MASK64
    streams: dict[str, Pcg32] = {}
    for index, name in enumerate(STREAMS):
        x, s = splitmix64(x)
        streams[name] = Pcg32.seeded(s, index + 1)
    return streams
