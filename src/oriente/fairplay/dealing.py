"""Where a table's cards come from (its seed, or a configured setup), and how the server binds itself to them.

Whoever knows a table's seed (or its configured setup) knows every hidden
card of its game. So the seed of an ordinary table comes from the
operating system's CSPRNG (`fresh_seed`) and nobody chooses it. A chosen
seed or configured setup is allowed only in two cases (PROTOCOL.md 3,
`create_table`; 12):

1. A player asks for it. The table is then *seeded*: it is never listed
   (`public: false`), never rated, and `settings.seeded: true` tells
   everyone who joins or watches that somebody may know the cards.
   `player_chosen` says whether a request makes a table seeded.
2. The server itself creates the table (a tournament's duplicate setups).
   The server then commits to the setup before the game begins: the
   table's public settings carry `commitment` (a SHA-256 hex digest) from
   the table's first event (`TableOpened`) on, and the record reveals the
   salt, so that anyone holding the record can check that the game was
   dealt as committed (`verify`).

The API, for code that builds on it (tournaments, verifiable dealing):

- `fresh_seed() -> int`: a seed from `secrets` (63 bits).
- `new_salt() -> str`: 32 random bytes, hex.
- `canonical(game, config) -> bytes`: the one encoding of a setup that the
  commitment covers. `game` is the game's name, `config` its record config
  (`GameSetup.record`: seats, seed, configured setup... whatever replays the
  game's randomness), plain data only. JSON, keys sorted, no spaces, ASCII:
  any language can rebuild it from a record.
- `commit(game, config, salt) -> str`: SHA-256 hex of
  `b"oriente.setup.v1\\0" + salt (its ASCII hex) + b"\\0" + canonical(...)`.
- `verify(commitment, game, config, salt) -> bool`: the check a record's
  reader runs (`verify_record` does it on a whole record).
- `Commitment(sha256, salt)`: what a table keeps; `public()` is shown from
  the start, `reveal()` is put in the record once the game has ended.
- `committed(game, config) -> Commitment`: a fresh salt and its commitment.

To extend it into commit–reveal dealing (the seed made from a committed
server secret and per-seat nonces), derive the seed before the table is
configured and commit to the resulting config the same way: `verify`
stays the check. A change to `canonical` or the prefix is a new version
of the prefix (`oriente.setup.v2`), never an edit of v1: stored
commitments must keep verifying.

Pure: no I/O, no clock; randomness only from `secrets` in `fresh_seed`,
`new_salt` and `committed`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

PREFIX = b"oriente.setup.v1\0"
SEED_BITS = 63
SALT_BYTES = 32


def fresh_seed() -> int:
    """A table seed nobody chose: 63 bits from the operating system's CSPRNG."""
    return secrets.randbits(SEED_BITS)


def new_salt() -> str:
    """A commitment's salt, hex: without it a seed could be found by trying
    every seed against the public commitment."""
    return secrets.token_hex(SALT_BYTES)


def player_chosen(seed: int | None, configured: bool) -> bool:
    """Whether a `create_table` chose its cards: a seed, or options that
    configure the setup (`GameSetup.configured`). Such a table is seeded."""
    return seed is not None or configured


def canonical(game: str, config: Mapping[str, Any]) -> bytes:
    """The encoding a commitment covers: JSON of {"game", "config"}, keys
    sorted, no whitespace, ASCII only. Raises TypeError for anything that
    is not plain JSON data (a float that is not finite included)."""
    return json.dumps({"game": game, "config": config}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True, allow_nan=False).encode("ascii")


def commit(game: str, config: Mapping[str, Any], salt: str) -> str:
    """The SHA-256 hex digest that binds the server to a setup before play."""
    return hashlib.sha256(PREFIX + salt.encode("ascii") + b"\0" + canonical(game, config)).hexdigest()


def verify(commitment: str, game: str, config: Mapping[str, Any], salt: str) -> bool:
    """Whether `commitment` was made for this setup and salt."""
    try:
        return hmac.compare_digest(commit(game, config, salt), commitment)
    except (TypeError, ValueError, UnicodeEncodeError):
        return False


@dataclass(frozen=True, slots=True)
class Commitment:
    """A table's commitment to its setup: `sha256` is public from the table's
    first event on; `salt` stays secret until the game has ended."""

    sha256: str
    salt: str

    def public(self) -> str:
        return self.sha256

    def reveal(self) -> dict[str, str]:
        """What a record holds (`record.commitment`) for anyone to verify."""
        return {"sha256": self.sha256, "salt": self.salt}

    @classmethod
    def from_plain(cls, d: Mapping[str, Any] | None) -> Commitment | None:
        if d is None:
            return None
        return cls(sha256=str(d["sha256"]), salt=str(d["salt"]))


def committed(game: str, config: Mapping[str, Any]) -> Commitment:
    """A fresh salt and the commitment to `config` under it."""
    salt = new_salt()
    return Commitment(sha256=commit(game, config, salt), salt=salt)


def verify_record(record: Mapping[str, Any]) -> bool | None:
    """Check a finished game's record against the commitment it reveals:
    None if the table made none, else whether its config is what was
    committed to."""
    revealed = record.get("commitment")
    if revealed is None:
        return None
    if revealed.get("scheme") == DEAL_SCHEME:  # commit and reveal: the salt, then the seed from the nonces
        nonces = revealed.get("nonces") or []
        return (verify_deal(revealed.get("sha256", ""), record.get("game", ""), revealed.get("seats", 0),
                            revealed.get("options") or {}, revealed.get("salt", ""))
                and revealed.get("seed") == derive_seed(revealed.get("salt", ""), list(nonces)))
    return verify(revealed.get("sha256", ""), record.get("game", ""), record.get("config", {}),
                  revealed.get("salt", ""))


# -- commit and reveal: the seed of an ordinary table (docs/table.md T7) ------------------
#
# Before anyone joins, the server draws a secret salt and publishes the
# commitment `deal_commitment(game, seats, options, salt)`. Each seat adds a
# nonce: `seat_nonce` of the secret nonce its holder brought (its `join`'s
# retry nonce, or the `nonce` of a `rematch` or of a `resume` of a seat
# that has none yet), hashed so the record never shows the secret. A seat
# whose holder brought none (a join without a nonce, the server's own
# bots, a reserved seat nobody came to) gets `supplied_nonce(salt, seat)`:
# fixed by the committed salt before anyone joined, so the server has no
# choice left in it. When the game starts, its seed is
# `derive_seed(salt, nonces)` over the seats' nonces in seat order, and the
# record lists the seats whose nonce the server supplied (`supplied`).
# The server, having committed to the salt before it saw any nonce a
# player brought, cannot steer the cards; a player, who never sees the
# salt before the end, cannot either. When no seat brought a nonce of its
# own, the seed is a function of the salt alone, which the server chose:
# the cards were then the server's to choose, and verifiers say so. The
# record reveals the salt, the nonces and the seed; `fairplay/verify.py`
# checks them and replays the game.

DEAL_SCHEME = "reveal.v1"
SETUP_SCHEME = "setup.v1"  # a setup the server chose and committed to (`committed` above)
DEAL_PREFIX = b"oriente.reveal.v1\0"
SEED_PREFIX = b"oriente.seed.v1\0"
NONCE_PREFIX = b"oriente.nonce.v1\0"
SUPPLIED_PREFIX = b"oriente.server-nonce.v1\0"


def deal_commitment(game: str, seats: int, options: Mapping[str, Any], salt: str) -> str:
    """SHA-256 hex of `DEAL_PREFIX + salt + "\\0" + canonical(game, {"seats", "options"})`:
    what a commit-and-reveal table publishes when it opens."""
    body = canonical(game, {"seats": seats, "options": options})
    return hashlib.sha256(DEAL_PREFIX + salt.encode("ascii") + b"\0" + body).hexdigest()


def verify_deal(commitment: str, game: str, seats: int, options: Mapping[str, Any], salt: str) -> bool:
    try:
        return hmac.compare_digest(deal_commitment(game, seats, options, salt), commitment)
    except (TypeError, ValueError, UnicodeEncodeError):
        return False


def seat_nonce(table_id: str, nonce: str) -> str:
    """A seat's public contribution to the seed, from its join's secret nonce."""
    return hashlib.sha256(NONCE_PREFIX + table_id.encode() + b"\0" + nonce.encode()).hexdigest()


def supplied_nonce(salt: str, seat: int) -> str:
    """The contribution of a seat whose holder brought no nonce (a server
    bot, a join without one, a reserved seat): SHA-256 hex of
    `SUPPLIED_PREFIX + salt + "\0" + seat` (decimal). The salt is committed
    before anyone joins, so the server cannot choose it afterwards."""
    return hashlib.sha256(SUPPLIED_PREFIX + salt.encode("ascii") + b"\0" + str(seat).encode()).hexdigest()


def server_nonce() -> str:
    """A nonce the server drew itself: how a table created before
    `supplied_nonce` filled a seat whose holder brought none (such a
    table's record has no `supplied`, and says nothing of who chose it)."""
    return secrets.token_hex(32)


def derive_seed(salt: str, nonces: list[str]) -> int:
    """The table's seed: the first 63 bits of SHA-256 over the salt and the
    seats' nonces in seat order, each after a zero byte."""
    digest = hashlib.sha256(SEED_PREFIX + salt.encode("ascii") + b"".join(b"\0" + n.encode("ascii")
                                                                          for n in nonces)).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def deal_committed(game: str, seats: int, options: Mapping[str, Any], salt: str | None = None) -> dict[str, Any]:
    """A new table's commit-and-reveal state: its scheme, commitment and
    secret salt (a new one unless given: a rematch's, drawn and committed
    to when the table before it ended), and `supplied`, the seats whose
    nonce the server supplies, filled in at the start (a table created
    before supplied nonces has no `supplied`)."""
    salt = new_salt() if salt is None else salt
    return {"scheme": DEAL_SCHEME, "sha256": deal_commitment(game, seats, options, salt), "salt": salt,
            "supplied": []}
