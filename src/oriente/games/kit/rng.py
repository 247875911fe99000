"""Seeded randomness owned by the game state, for every game.

PCG32 (O'Neill, XSH-RR variant) with one independent stream per kind of
random event, each derived from the table seed with SplitMix64. The games
carry this generator instead of `random` because golden replays must not
change between Python versions, and because the generator's whole state has
to live inside the game state (two ints per stream) to be copied, compared
and serialised with it.

Streams matter for duplicate tournaments: two tables with the same seed
draw alike for one kind of event even if one of them drew more of another
kind earlier. Each game names its streams (`derive_streams(seed, names)`);
the order of the names fixes each stream's derivation, so a game appends
to its list and never reorders it.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
MASK32: Final = (1 << 32) - 1
_MULT: Final = 6364136223846793005


def splitmix64(x: int) -> tuple[int, int]:
    """One SplitMix64 step: returns (next state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class Pcg32:
    """A PCG32 stream. `state` and `inc` are plain ints so the game state
    can be copied and serialised without special cases."""

    __slots__ = ("inc", "state")

    def __init__(self, state: int, inc: int) -> None:
        self.state = state
        self.inc = inc

    @classmethod
    def seeded(cls, seed: int, stream: int) -> Pcg32:
        rng = cls(0, ((stream << 1) | 1) & MASK64)
        rng.next_u32()
        rng.state = (rng.state + seed) & MASK64
        rng.next_u32()
        return rng

    def next_u32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & MASK32

    def below(self, bound: int) -> int:
        """Uniform integer in [0, bound) without modulo bias (rejection)."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        threshold = (-bound & MASK32) % bound
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place, from the end."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def sample_indices(self, population: int, k: int) -> list[int]:
        """k distinct indices of range(population), in the order drawn."""
        pool = list(range(population))
        out = []
        for _ in range(k):
            j = self.below(len(pool))
            out.append(pool.pop(j))
        return out

    def snapshot(self) -> tuple[int, int]:
        return (self.state, self.inc)


def derive_streams(seed: int, names: Sequence[str]) -> dict[str, Pcg32]:
    """One independent generator per name, in order: the i-th name's stream
    is seeded by the i-th SplitMix64 output of the seed, on PCG32 stream i+1."""
    x = seed & MASK64
    streams: dict[str, Pcg32] = {}
    for index, name in enumerate(names):
        x, s = splitmix64(x)
        streams[name] = Pcg32.seeded(s, index + 1)
    return streams
