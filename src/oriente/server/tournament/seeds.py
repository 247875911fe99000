"""Where an event's random choices come from: each round's seed (its
seating and byes, public from the moment it is seated) and each duplicate
board's seed (which fixes every hidden card of the board, secret until
every table has played it). docs/tournaments.md TR2.4 and TR3.2.

Scheme `hmac-sha256.v1` (every event created from now on): both come from
HMAC-SHA256 keyed with the event's secret key, which the server keeps in
its store and never shows. HMAC is a one-way function of the key: no
number of public round seeds tells the key, or any board. A board is
committed to when its round is seated:

    board_commitment = SHA-256("oriente.board.v1" 0 event-id 0 board 0 salt 0 seed)

(0 a zero byte, `seed` in decimal, `salt` 64 hex digits); the salt and the
seed are shown once the board has been played everywhere, so anyone can
check that the board was fixed before its first table began.

An organiser who chooses the event's `seed` chooses its key (the key is
then the SHA-256 of `oriente.event-seed.v1`, a zero byte and the seed in
decimal): whoever knows the seed knows every board, so such an event says
`seeded: true` to everyone.

Scheme `splitmix64.v0` (events created before): a round's seed and a
board's were SplitMix64 steps from the event's seed, which is invertible,
so anyone could compute every board from one round's seed. Such events
go on with it to their end (re-keying one mid-event would change its
rounds' seeds and the seating they prove), and say `seeded: true`.

Pure: no I/O, no clock; the key is given (the director draws it).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from ...games.kit.rng import MASK64, splitmix64

HMAC_SCHEME = "hmac-sha256.v1"
LEGACY_SCHEME = "splitmix64.v0"
SCHEMES = (HMAC_SCHEME, LEGACY_SCHEME)
KEY_BYTES = 32
SEED_BITS = 63


def derive_seed(seed: int, *parts: int) -> int:
    """SplitMix64 steps from a seed (the legacy scheme's derivation; also
    how a round's public seed orders its byes, TR4.3)."""
    x = seed & MASK64
    for p in parts:
        x, out = splitmix64((x ^ (p * 0x9E3779B97F4A7C15)) & MASK64)
        x = out
    return x & (2**63 - 1)


def key_of_seed(seed: int) -> bytes:
    """The key of an event whose organiser chose its seed."""
    return hashlib.sha256(b"oriente.event-seed.v1\0" + str(seed).encode()).digest()


def board_commitment(event: str, board: str, salt: str, seed: int) -> str:
    """What anyone recomputes from a played board's revealed salt and seed."""
    return hashlib.sha256(b"\0".join([b"oriente.board.v1", event.encode(), board.encode(), salt.encode("ascii"),
                                      str(seed).encode()])).hexdigest()


@dataclass(frozen=True, slots=True)
class Board:
    """A duplicate board: its seed, and (hmac scheme) the salt and commitment
    that prove it was fixed when its round was seated."""

    seed: int
    salt: str | None = None
    commitment: str | None = None


@dataclass(frozen=True, slots=True)
class EventSeeds:
    """An event's seeds: `key` for the hmac scheme, `legacy_seed` for the old one."""

    event: str
    scheme: str
    key: bytes = b""
    legacy_seed: int = 0

    def _mac(self, *parts: object) -> bytes:
        return hmac.new(self.key, b"\0".join(str(p).encode() for p in parts), hashlib.sha256).digest()

    def _int(self, *parts: object) -> int:
        return int.from_bytes(self._mac(*parts)[:8], "big") >> (64 - SEED_BITS)

    def round(self, number: int, attempt: int = 0) -> int:
        """Round `number`'s public seed (its `attempt`-th seating, TR5.2)."""
        if self.scheme == LEGACY_SCHEME:
            return derive_seed(self.legacy_seed, number, *([attempt] if attempt else []))
        return self._int("oriente.round.v1", number, attempt)

    def board(self, number: int, size: int) -> Board:
        """The board the tables of `size` play in round `number` (TR3.2)."""
        if self.scheme == LEGACY_SCHEME:
            return Board(seed=derive_seed(self.legacy_seed, number, size, 1))
        seed = self._int("oriente.board.v1", number, size)
        salt = self._mac("oriente.board-salt.v1", number, size).hex()
        name = board_name(number, size)
        return Board(seed=seed, salt=salt, commitment=board_commitment(self.event, name, salt, seed))


def board_name(number: int, size: int) -> str:
    return f"r{number}s{size}"
