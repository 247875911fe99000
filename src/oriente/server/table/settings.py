"""A table's stored shapes: the settings it is created with and the seats
taken at it, as the store keeps them in the table's meta, and the tokens
that hold them (only their hashes are stored)."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from typing import Any

from ...games.kit.port import GamePort, GameSetup
from ...protocol import messages as M
from ..clock import TimerSettings

NONCE_MIN, NONCE_MAX = 16, 64


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_setup(port: GamePort, settings: TableSettings, seed: int) -> GameSetup:
    """How a table's rematch is set up: the same settings on the game's
    current rules (its options for new tables under the table's own).
    Raises SettingsError if the stored options no longer configure."""
    return port.configure(settings.seats, seed, {**getattr(port, "new_table_options", {}), **settings.options}, {})


def nonce_token(table_id: str, nonce: str) -> str:
    """The seat token of a join that carried a nonce: derived from the
    table and the nonce, so that a retried join (even after a restart) gets
    the same token back while the table stores only the token's hash, as
    for every seat. Whoever knows the nonce can take the seat, as with the
    token itself: the nonce is a secret (PROTOCOL.md 3, join)."""
    digest = hashlib.sha256(f"oriente.v1 join\0{table_id}\0{nonce}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettings:
    """What a table is created with. `options` are its game's options as the
    game's port configured them (`GameSetup.options`). `seed` and the
    options stay secret until the game ends: they may determine hidden cards;
    only the port's public part of the options is shown before. `seeded`:
    a player chose the seed or the setup (`server/dealing.py`), which
    everyone is shown. `commitment`: the server's commitment to the setup
    of a table it created itself, `{sha256, salt}`; the digest is shown
    from the start, the salt only in the record."""

    game: str
    seats: int
    name: str = ""
    public: bool = True
    seed: int = 0
    timers: TimerSettings = field(default_factory=TimerSettings)
    options: dict[str, Any] = field(default_factory=dict)
    auto_start: bool = True
    proxy_after: int | None = None
    rated: bool = False  # every seat signed in; the result moves ratings (docs/accounts.md)
    seeded: bool = False
    commitment: dict[str, Any] | None = None

    def to_plain(self) -> dict[str, Any]:
        plain = {"game": self.game, "seats": self.seats, "name": self.name, "public": self.public,
                 "seed": self.seed, "timers": self.timers.as_dict(), "options": self.options,
                 "auto_start": self.auto_start, "proxy_after": self.proxy_after, "seeded": self.seeded,
                 "commitment": self.commitment}
        if self.rated:
            plain["rated"] = True
        return plain

    @classmethod
    def from_plain(cls, d: dict[str, Any]) -> tuple[TableSettings, dict[str, Any]]:
        """Settings as stored, and the stored fields this version does not
        know, which the game's port reads as legacy (an earlier version kept
        a game's options among them). Settings stored before tables named
        their game belong to the protocol's default game."""
        known = {f for f in cls.__dataclass_fields__}
        settings = cls(game=d.get("game", M.DEFAULT_GAME), seats=d["seats"], name=d["name"], public=d["public"],
                       seed=d["seed"], timers=TimerSettings(**d["timers"]), options=d.get("options") or {},
                       auto_start=d["auto_start"], proxy_after=d.get("proxy_after"), rated=d.get("rated", False),
                       seeded=bool(d.get("seeded", False)), commitment=d.get("commitment"))
        return settings, {k: v for k, v in d.items() if k not in known}

    def public_plain(self, public_options: dict[str, Any]) -> dict[str, Any]:
        """The settings anyone may see. The game's public options are under
        `options`; oriente.v1 showed them among the table's own settings, so
        they stay there too (PROTOCOL.md 10), where no own setting has the name."""
        own = {"game": self.game, "seats": self.seats, "name": self.name, "public": self.public,
               "timers": self.timers.as_dict(), "auto_start": self.auto_start, "proxy_after": self.proxy_after,
               "seeded": self.seeded, "commitment": self.commitment["sha256"] if self.commitment else None}
        if self.rated:
            own["rated"] = True
        return {**own, **{k: v for k, v in public_options.items() if k not in own}, "options": public_options}


@dataclass(slots=True)
class Slot:
    """A taken seat. `bot`: the policy of the server's own bot that holds
    it (None: a client holds it with its token). `account`: the card of the
    account signed in on the connection that took it (accounts.card), as it
    was then; None for a seat taken signed out."""

    name: str
    token_hash: str
    connections: int = 0
    bot: str | None = None
    account: dict[str, Any] | None = None
    nonce: str | None = None  # the seat's contribution to a commit-and-reveal seed (dealing.seat_nonce)


def slot_plain(s: Slot) -> list[Any]:
    """A seat as the table's meta stores it: [name, token hash], then the
    bot's policy if any, then the account's card if any (a bot-less seat
    with an account stores None for the policy)."""
    plain: list[Any] = [s.name, s.token_hash]
    if s.bot or s.account is not None:
        plain.append(s.bot)
    if s.account is not None:
        plain.append(s.account)
    return plain
