"""A table's stored shapes: the settings it is created with and the seats
taken at it (`Seats`), as the store keeps them in the table's meta
(`encode_meta`, `read_meta`), and the tokens that hold the seats (only
their hashes are stored)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ...fairplay import dealing
from ...games.kit.port import GamePort, GameSetup, SettingsError
from ...protocol import messages as M
from ...protocol.codec import decode_any, encode
from ..clock import TableClock, TimerSettings
from ..ids import new_id
from ..names import MAX_NAME, NameRefused, clean_name, looks_alike
from .inbox import Refused
from .statistics import SeatStatistics

NONCE_MIN, NONCE_MAX = 16, 64


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rematch_setup(port: GamePort, settings: TableSettings, seed: int) -> GameSetup:
    """How a table's rematch is set up: the same settings on the game's
    current rules (its options for new tables under the table's own).
    Raises SettingsError if the stored options no longer configure."""
    return port.configure(settings.seats, seed, {**port.new_table_options, **settings.options}, {})


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
    a player chose the seed or the setup (`fairplay/dealing.py`), which
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

    @property
    def dealt_by_nonces(self) -> bool:
        """Is the seed made at the start from a committed salt and the seats'
        nonces (commit and reveal, docs/table.md T7)?"""
        return self.commitment is not None and self.commitment.get("scheme") == dealing.DEAL_SCHEME

    def revealed(self) -> dict[str, Any] | None:
        """The commitment as the record reveals it: with its salt, and for
        commit and reveal the seats, options, nonces and seed it covers (T7.3)."""
        c = self.commitment
        if c is None or not self.dealt_by_nonces:
            return c
        return {**c, "seats": self.seats, "options": self.options}

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


class Seats:
    """The seats of one table: a `Slot` for each one taken, None for a free
    one. A seat is held by its token, whose hash alone is kept and compared
    in constant time."""

    def __init__(self, count: int) -> None:
        self.slots: list[Slot | None] = [None] * count
        # Since when (trio time) no client has held a seat (T6.1); None: one does.
        self.unattended_since: float | None = None

    def __len__(self) -> int:
        return len(self.slots)

    def __getitem__(self, seat: int) -> Slot | None:
        return self.slots[seat]

    def __iter__(self) -> Iterator[Slot | None]:
        return iter(self.slots)

    def of_token(self, token: str) -> int | None:
        """The seat `token` holds, or None."""
        h = token_hash(token)
        for i, s in enumerate(self.slots):
            if s is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def account_holder(self, account: str) -> int:
        """The seat the account holds (T8.8); refused (`auth/bad_token`) if none."""
        seat = next((i for i, s in enumerate(self.slots)
                     if s is not None and s.bot is None and s.account is not None and s.account["id"] == account), None)
        if seat is None:
            raise Refused("auth/bad_token", "your account holds no seat at this table")
        return seat

    def holder(self, token: str) -> int:
        """The seat `token` holds; refused (`auth/bad_token`) if none."""
        seat = self.of_token(token)
        if seat is None:
            raise Refused("auth/bad_token", "that token holds no seat at this table")
        return seat

    def not_started(self, auto_start: bool) -> str:
        """Why a game command comes too early."""
        taken = len(self.slots) - len(self.free())
        how = ("it starts when the last seat is taken" if auto_start
               else "once every seat is taken, a seated player starts it with `start`")
        return f"the game has not started: {taken} of {len(self.slots)} seats are taken, and {how}"

    def free(self) -> list[int]:
        return [i for i, s in enumerate(self.slots) if s is None]

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.slots)

    def attended(self) -> bool:
        """Does a client (not one of the server's bots) hold a seat now?"""
        return any(s is not None and s.bot is None and s.connections > 0 for s in self.slots)

    def idle_since(self, now: float) -> float | None:
        """Since when no client has held a seat (from `now` on, if one did
        until now); None while one does. The server's bots hold no seat."""
        if self.attended():
            self.unattended_since = None
        elif self.unattended_since is None:
            self.unattended_since = now
        return self.unattended_since

    def statistics(self) -> tuple[SeatStatistics | None, ...]:
        return tuple(None if s is None else SeatStatistics(name=s.name, connected=s.connections > 0, bot=s.bot,
                                                           account=s.account) for s in self.slots)

    def choose(self, name: str, account: dict[str, Any] | None, seat: int | None, *, bot: bool,
               table: TableSettings) -> tuple[int, str]:
        """The seat a join takes and the name it takes it under (an account's
        own name for a signed-in join); a Refused with the join's error code
        otherwise. The server's bots pick their names among the free ones.
        A rated table seats accounts only; a turn-based one accounts or the
        server's bots (docs/table.md T8.8)."""
        if table.rated and account is None:
            raise Refused("auth/sign_in_required",
                          "a rated table seats only players signed in to an account (sign_in)")
        if table.timers.turn_based and account is None and not bot:
            raise Refused("auth/sign_in_required",
                          "a turn-based table seats only players signed in to an account (sign_in), so that "
                          "they take their seat again on any device and are told when it awaits them")
        if account is not None and any(s is not None and s.account is not None and s.account["id"] == account["id"]
                                       for s in self.slots):
            raise Refused("auth/already_seated", "this account holds a seat at this table already")
        try:
            name = clean_name(name if account is None else account["name"], max_len=MAX_NAME)
        except NameRefused as exc:
            raise Refused("message/invalid", exc.message) from None
        if not bot:
            alike = next(((i, s.name) for i, s in enumerate(self.slots)
                          if s is not None and looks_alike(name, s.name)), None)
            if alike is not None:
                raise Refused("message/invalid", f"the name {name!r} looks like seat {alike[0]}'s ({alike[1]!r}) "
                              "at this table; choose another")
        if seat is None:
            free = self.free()
            if not free:
                raise Refused("table/full", "every seat is taken")
            return free[0], name
        if not 0 <= seat < len(self.slots):
            raise Refused("seat/unknown", f"seats are 0..{len(self.slots) - 1}")
        if self.slots[seat] is not None:
            raise Refused("seat/taken", f"seat {seat} is taken")
        return seat, name

    def taken_event(self, seat: int) -> dict[str, Any]:
        """The SeatTaken event of a taken seat."""
        slot = self.slots[seat]
        assert slot is not None
        event: dict[str, Any] = {"type": "SeatTaken", "seat": seat, "name": slot.name}
        if slot.bot is not None:
            event["bot"] = slot.bot
        if slot.account is not None:
            event["account"] = slot.account
        return event

    def connect(self, seat: int, delta: int) -> bool | None:
        """One connection more (+1) or fewer (-1) at `seat`: whether the seat
        is connected now, if that changed; None if it did not."""
        slot = self.slots[seat]
        if slot is None:
            return None
        before = slot.connections > 0
        slot.connections = max(0, slot.connections + delta)
        after = slot.connections > 0
        return after if before != after else None

    def public(self, clock: TableClock) -> list[dict[str, Any] | None]:
        """The seats as anyone may see them (the table information)."""
        shown: list[dict[str, Any] | None] = []
        for seat, slot in enumerate(self.slots):
            if slot is None:
                shown.append(None)
                continue
            info = {"seat": seat, "name": slot.name, "connected": slot.connections > 0,
                    "away": clock.seats[seat].away, "proxied": clock.seats[seat].proxied}
            if slot.bot is not None:
                info["bot"] = slot.bot
            if slot.account is not None:
                info["account"] = slot.account
            shown.append(info)
        return shown

    def plain(self) -> list[Any]:
        return [None if s is None else slot_plain(s) for s in self.slots]

    def nonces(self) -> list[str | None] | None:
        """Each seat's nonce, as the meta stores them; None when no seat has one."""
        if not any(s is not None and s.nonce is not None for s in self.slots):
            return None
        return [None if s is None else s.nonce for s in self.slots]

    @classmethod
    def from_plain(cls, plain: list[Any], nonces: list[str | None] | None) -> Seats:
        seats = cls(len(plain))
        seats.slots = [None if s is None else Slot(name=s[0], token_hash=s[1], bot=s[2] if len(s) > 2 else None,
                                                  account=s[3] if len(s) > 3 else None)
                       for s in plain]
        for slot, nonce in zip(seats.slots, nonces or [], strict=False):
            if slot is not None:
                slot.nonce = nonce
        return seats


def encode_meta(settings: TableSettings, rules: str, seats: Seats, rematch: dict[str, Any] | None) -> bytes:
    """The table as the store keeps it: settings, rules, seats (with their
    nonces, if any has one) and the rematch it committed to, if any."""
    meta: dict[str, Any] = {"settings": settings.to_plain(), "rules": rules, "slots": seats.plain()}
    nonces = seats.nonces()
    if nonces is not None:
        meta["nonces"] = nonces
    if rematch is not None:
        meta["rematch"] = rematch
    return encode(meta)


@dataclass(frozen=True, slots=True)
class StoredMeta:
    """A table's meta as the store keeps it, read. `legacy`: the stored
    settings' fields this version does not know (for the game's port);
    `rules` None: stored before tables recorded their rules."""

    settings: TableSettings
    legacy: dict[str, Any]
    rules: str | None
    slots: list[Any]
    nonces: list[str | None] | None
    rematch: dict[str, Any] | None


def read_meta(meta: bytes) -> StoredMeta:
    m = decode_any(meta)
    settings, legacy = TableSettings.from_plain(m["settings"])
    return StoredMeta(settings=settings, legacy=legacy, rules=m.get("rules"), slots=m["slots"],
                      nonces=m.get("nonces"), rematch=m.get("rematch"))


def stored_game(meta: bytes) -> str:
    """The game of a table as stored (to pick the port that restores it)."""
    return read_meta(meta).settings.game


def reveal_seed(settings: TableSettings, seats: Seats) -> tuple[TableSettings, list[str]]:
    """T7.2: the seed of a commit-and-reveal table, from its committed salt
    and its seats' nonces in seat order; returns the settings that keep it
    (saved in the meta at the start, so that recovery sets up the same
    game) and the nonces. A seat whose holder brought no nonce gets the one
    the salt fixes for it (`dealing.supplied_nonce`), and is listed in
    `supplied`; a table created before supplied nonces (no `supplied` in
    its commitment) draws one as it did then."""
    c = settings.commitment
    assert c is not None
    salt = c["salt"]
    derived = "supplied" in c
    supplied = [i for i, s in enumerate(seats) if s is None or s.nonce is None]
    nonces = [s.nonce if s is not None and s.nonce is not None
              else dealing.supplied_nonce(salt, i) if derived else dealing.server_nonce()
              for i, s in enumerate(seats)]
    seed = dealing.derive_seed(salt, nonces)
    revealed = {**c, "nonces": nonces, "seed": seed}
    if derived:
        revealed["supplied"] = supplied
    return replace(settings, seed=seed, commitment=revealed), nonces


def rematch_commitment(port: GamePort, settings: TableSettings, setup: GameSetup) -> dict[str, Any] | None:
    """T7.4: the rematch a table commits to as its game ends: the rematch's
    table id, a fresh salt (secret until that game ends) and its commitment.
    None where the rematch would not be dealt by commit and reveal (a
    configured setup: the rematch is seeded) or would not set up."""
    if setup.configured:
        return None
    try:
        options = rematch_setup(port, settings, 0).options
    except SettingsError:
        return None
    salt = dealing.new_salt()
    return {"table": new_id(), "salt": salt,
            "commitment": dealing.deal_commitment(settings.game, settings.seats, options, salt)}
