"""What the table server needs from durable storage, written down once.

A table's log is the truth (docs/architecture.md): resume, spectating, records
and crash recovery are all reads of it. The actor and the lobby talk to a
store only through `Store` below, so any implementation that keeps these
guarantees can carry the server; tests/server/test_store_contract.py runs
one suite against every implementation.

The guarantees:

1. **Gapless logs.** A table's log positions are 0, 1, 2, ... without gaps.
   `append` refuses (`StoreError`) records whose positions are not
   consecutive or do not continue the log exactly; a refused append
   changes nothing. A gap or a repeat means the caller's idea of the log
   differs from the truth, which is a bug worth stopping for.
2. **One step, one commit.** The records of one `append` and the clock
   given with it are committed together or not at all, so a restart never
   finds timers older or newer than the log they belong to.
3. **Durable on return.** Once a write returns, a crash of the server
   process does not take it back, and every later read sees it. The actor
   relies on this to send nothing before it is stored.
4. **Isolated failures.** A refused write raises in its own caller only;
   writes of other tables made at the same time are unaffected.
5. **Opaque bytes.** `meta`, record bodies, clocks and game records are
   stored and returned exactly as given; the store never interprets them.
6. **One server per store.** `run` refuses (`StoreLocked`) while another
   running store holds the same place, so two servers can never append to
   the same logs. The place is a file for SQLite and a *site* (a schema of
   one database) for PostgreSQL; see "Owners and epochs" below.
7. **A life cycle.** Reads and writes succeed only between `run` having
   started (its `task_status.started()`) and `aclose`; outside it they raise
   `StoreError`. Writes already accepted when `aclose` is called are
   committed before it returns.

Owners and epochs (a store on a shared database)
------------------------------------------------

A lock held by a running process is enough while one process serves a
site. Once several processes share one database (one owner per table, a
table moving to another process when its owner dies or drains), a lock is
not: an owner that was paused or cut off past its lease still believes it
owns its tables and may write when it wakes up. So the PostgreSQL store
already *fences* every write, and the database itself does the refusing:

- every table carries an **epoch** (a number) and the name of its
  **owner** (the store that holds it, for operators to read);
- a store **claims** a table by raising its epoch by one and naming itself
  owner: when it creates the table (epoch 1), and, today, on its first
  write to a table it did not create (a table recovered after a restart),
  which is safe because the store holds the site's lock;
- every write of a store carries the epoch it claimed the table with, and
  the database refuses the write if the table's epoch has moved on since:
  `StoreFenced`, in that caller only (guarantee 4); the store never claims
  that table again by itself;
- appends also carry the position they continue from, checked by the
  database in the same statement, so a log can never fork even between
  two owners.

What a many-process site adds on top (`PostgresStore(cluster=True)`, used
by `server.cluster`): a claim succeeds only when the previous owner's
*lease* has ended (a time each process keeps renewing, in the database's
clock) or the owner released the table; the site's lock is shared by the
processes of the site, so a lone server and a cluster never meet on it;
and no write ever claims a table by itself. Stores that are alone with
their data (SQLite, memory) have nothing to fence and never raise
`StoreFenced`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

import trio

__all__ = ["ACCOUNT_KINDS", "STATUSES", "AccountRow", "CredentialRow", "EmailRow", "LogRecord", "RatingRow",
           "ResultRow", "SeatRow", "Store", "StoreConflict", "StoreError", "StoreFenced", "StoreLocked", "TableRow",
           "ThrottleRow", "check_bytes", "check_status"]

# A table's life: open (taking seats), running, then finished (the game
# ended), failed (a bug ended it, see Table._fail) or abandoned (its log
# could not be recovered). Recovery rebuilds open and running tables only.
STATUSES: Final = frozenset({"open", "running", "finished", "failed", "abandoned"})


class StoreError(Exception):
    """A write or read the store refused: the data broke an invariant of the
    log (a gap, a duplicate, an unknown table) or the store is not running.

    Raised in the task that made the request, never elsewhere, so one
    table's bad write cannot hurt another table."""


class StoreConflict(StoreError):
    """A write refused because it would make a second row where one must be
    unique: an account name taken (names compare case-insensitively), a
    credential id or token hash already stored."""


class StoreLocked(StoreError):
    """Another running server holds this store: refuse to start."""


class StoreFenced(StoreError):
    """A write refused because another store claimed the table since this
    one did (its epoch moved on): this store no longer owns the table and
    must stop serving it. See "Owners and epochs" in the module docstring."""


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One entry of a table's log; ``pos`` numbers entries 0, 1, 2, ...
    without gaps, ``seq`` is the client-visible event number (or None)."""

    pos: int
    kind: str  # "cmd" or "event"
    seq: int | None
    body: bytes


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as the lobby and the recovery at start-up see it."""

    id: str
    created_at: float
    status: str
    meta: bytes
    updated_at: float


# People sign in with a password; bots with API tokens their owner made.
ACCOUNT_KINDS: Final = frozenset({"person", "bot"})


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account (docs/accounts.md). `key` is the name case-folded, unique
    per store; `owner` is the person who made a bot (None for people and
    for the server's own bots); `password` is an argon2 hash, None for bots."""

    id: str
    name: str
    key: str
    kind: str
    owner: str | None
    password: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class CredentialRow:
    """A session token ("session") or a bot's API token ("api"), stored as
    the SHA-256 of the token only. `id` is public: the owner names a token
    by it to revoke it. `address` and `client` say where it was made (the
    client's address key and what the client called itself); `used_at` and
    `used_address` when and from where it last signed a connection in (None
    and "" until then, and for rows stored before they were kept)."""

    id: str
    account_id: str
    kind: str
    token_hash: str
    label: str
    created_at: float
    revoked_at: float | None = None
    address: str = ""
    client: str = ""
    used_at: float | None = None
    used_address: str = ""


@dataclass(frozen=True, slots=True)
class RatingRow:
    """An account's current rating in one game (openskill's mu and sigma)
    and how many rated games made it."""

    account_id: str
    game: str
    mu: float
    sigma: float
    games: int
    updated_at: float


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One account's part in one finished game: its rank (1 is first), its
    rating after the game (None on an unrated table) and the promises of
    its own it kept, broke and was released from. The history of ratings
    and the reputation are reads of these rows."""

    table_id: str
    account_id: str
    game: str
    rank: int
    mu: float | None
    sigma: float | None
    kept: int
    broken: int
    released: int
    at: float


@dataclass(frozen=True, slots=True)
class ThrottleRow:
    """How often something keyed by `key` was tried lately (docs/accounts.md,
    "Failed sign-ins"): a count and a time before which the next try waits
    (for a budget, its theoretical arrival time), as of `updated_at`. The
    store keeps the numbers as given and never interprets them."""

    key: str
    count: int
    until: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class EmailRow:
    """A person's e-mail address (docs/accounts.md, "E-mail"): the SHA-256
    of the confirmation link's token ("" once it was used), the unsubscribe
    link's token itself (every mail carries it; it can only turn the mail
    off), when a confirmation was last sent, when the address
    was confirmed (None: not yet), whether it is to be mailed when a table
    awaits the account (`notify`), and when it last was (`mailed_at`)."""

    account_id: str
    address: str
    confirm_hash: str
    unsubscribe_token: str
    requested_at: float
    confirmed_at: float | None = None
    notify: bool = True
    mailed_at: float | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat an account holds at one table, as the index of seats by
    account keeps it (PROTOCOL.md 3, my_tables): whether the table awaits
    the account now (`awaits`), since when, and until when at the latest
    (wall clock; None: no deadline), whether the table is turn-based, and
    whether the table has ended. The table writes its rows whenever one of
    them changes; the rows outlive the table's memory (a sleeping table's
    seats are listed, and mailed, from here)."""

    account_id: str
    table_id: str
    seat: int
    awaits: bool
    since: float
    until: float | None
    turn_based: bool
    ended: bool
    updated_at: float


def check_status(status: str) -> None:
    """Refuse a status outside STATUSES (a programming error: ValueError)."""
    if status not in STATUSES:
        raise ValueError(f"table status must be one of {sorted(STATUSES)}, not {status!r}")


def check_bytes(name: str, value: object) -> None:
    """Refuse a blob that is not bytes (a programming error: TypeError)."""
    if not isinstance(value, bytes):
        raise TypeError(f"{name} must be bytes (an encoded blob), not {type(value).__name__}")


class Store(Protocol):
    """The durable store of one server; see the module docstring for what
    every implementation guarantees. Run it with ``await
    nursery.start(store.run)``; stop it with ``await store.aclose()``."""

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Open the store (taking its lock), report started, and serve until
        `aclose` or cancellation; raises StoreLocked if another server holds it."""
        ...

    async def aclose(self) -> None:
        """Refuse new writes, commit the ones already accepted, close."""
        ...

    # -- writes: each returns once durable ---------------------------------

    async def create_table(self, table_id: str, status: str, meta: bytes, now: float) -> None:
        """Record a new table with an empty log; an existing id is refused
        (StoreError), since two tables sharing one log would corrupt both."""
        ...

    async def update_table(self, table_id: str, *, status: str | None = None, meta: bytes | None = None,
                           now: float) -> None:
        """Change a table's status and/or meta and set its ``updated_at``;
        an unknown table is refused (StoreError)."""
        ...

    async def append(self, table_id: str, records: Sequence[LogRecord], *, clock: bytes | None = None,
                     now: float, seats: Sequence[SeatRow] | None = None) -> None:
        """Append to the log and, if given, replace the table's clock (saved
        at ``now``), in one commit (guarantees 1 and 2); `seats`, if given,
        replace the table's rows in the index of seats by account (as
        `save_seats`) in that same commit: a table with signed-in seats
        changes them at nearly every step, and a second write would be a
        second commit to wait for."""
        ...

    async def save_record(self, table_id: str, body: bytes) -> None:
        """Store an ended game's record; saving again replaces it. An
        unknown table is refused (StoreError)."""
        ...

    async def heartbeat(self, now: float) -> None:
        """Note that the server is alive at wall time ``now``, so that after
        a crash the recovery knows how long the tables were down."""
        ...

    async def save_tournament(self, tournament_id: str, body: bytes | None, *, now: float,
                              rounds: Mapping[int, bytes] | None = None,
                              tables: Mapping[str, bool] | None = None) -> None:
        """Store a tournament's state (opaque bytes, guarantee 5) in one
        commit: its head `body` (None: unchanged), replacing the last one,
        and each of `rounds` (number -> body), replacing that round's. The
        first save creates the tournament (its ``created_at`` is that
        ``now``) and must give a head. Rounds are kept apart so that a
        table's news costs a write of its round only, however long the
        event has run. `tables`: the tournament's tables (table id ->
        withheld), each kept with the table: whether its record, spectating
        and replay wait (docs/tournaments.md TR3.2), which `withheld` tells
        any process of the site."""
        ...

    # -- reads -------------------------------------------------------------

    async def tables(self, statuses: Collection[str] | None = None, *, asleep: bool | None = None) -> list[TableRow]:
        """Tables, oldest first (by ``created_at``, then id), optionally only
        those in the given statuses, and only sleeping (`asleep` True) or
        only awake (False) ones."""
        ...

    # -- sleeping tables (docs/table.md T8.5): the index of next wake-ups ----

    async def sleep(self, table_id: str, wake_at: float) -> None:
        """The table left its process's memory and wakes at wall time
        `wake_at` at the latest (or on a message for it); durable on
        return. A store on a many-process site releases the table too
        (it belongs to no process while it sleeps, T8.7). An unknown table
        is refused (StoreError)."""
        ...

    async def wake(self, table_id: str) -> bool:
        """Take the table out of the index; whether it was asleep. A store
        of a many-process site wakes a table by claiming it (`claim`)."""
        ...

    async def due(self, now: float, limit: int) -> list[str]:
        """Up to `limit` sleeping tables whose wake-up time is `now` or
        earlier, earliest first."""
        ...

    async def next_wake(self) -> float | None:
        """The earliest wake-up time of a sleeping table, or None."""
        ...

    async def sleeping(self) -> int:
        """How many tables sleep."""
        ...

    async def table(self, table_id: str) -> TableRow | None:
        """One table's row, or None if no such table was ever created."""
        ...

    async def log(self, table_id: str, *, after_pos: int = -1) -> list[LogRecord]:
        """The table's log in order from ``after_pos + 1`` (empty for an
        unknown table): the replay input."""
        ...

    async def clock(self, table_id: str) -> tuple[float, bytes] | None:
        """The latest saved clock and the wall time it was saved at, or None."""
        ...

    async def log_and_clock(self, table_id: str) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
        """`log` and `clock` together, in one read: what a table is rebuilt
        from (a wake-up, docs/table.md T8.5, reads both; each read costs a
        hop to the store's thread and a wait behind the other reads)."""
        ...

    async def table_log_and_clock(self, table_id: str) -> tuple[TableRow | None, list[LogRecord],
                                                                  tuple[float, bytes] | None]:
        """`table`, `log` and `clock` in one read: what a table out of
        memory is brought back from, read before knowing whether it sleeps
        or ended (a wake-up then waits for one read, not two in series)."""
        ...

    async def record(self, table_id: str) -> bytes | None:
        """The ended game's record, or None while there is none."""
        ...

    async def last_heartbeat(self) -> float | None:
        """The latest ``heartbeat`` time, or None if there was none."""
        ...

    async def tournament(self, tournament_id: str) -> tuple[bytes, list[bytes]] | None:
        """A tournament's latest head and its rounds in order of number, or None."""
        ...

    async def tournaments(self) -> list[tuple[str, bytes, list[bytes]]]:
        """Every tournament (id, head, rounds in order), oldest first (by the
        time of its first save, then id): what a restarted server reloads."""
        ...

    async def withheld(self, table_id: str) -> bool:
        """Whether a tournament withholds this table's record, spectating
        and replay now (the last `save_tournament` that named it said so);
        False for any other table."""
        ...

    # -- accounts (docs/accounts.md); every write durable on return --------

    async def create_account(self, row: AccountRow) -> None:
        """Store a new account; a taken `key` or id is refused (StoreConflict)."""
        ...

    async def account(self, account_id: str) -> AccountRow | None:
        ...

    async def account_by_key(self, key: str) -> AccountRow | None:
        """The account whose case-folded name is `key`, or None."""
        ...

    async def bots_of(self, owner: str) -> list[AccountRow]:
        """The bot accounts a person made, oldest first."""
        ...

    async def add_credential(self, row: CredentialRow) -> None:
        """Store a token's hash; a taken id or hash is refused (StoreConflict)."""
        ...

    async def credential(self, token_hash: str) -> CredentialRow | None:
        """The credential with this token hash, revoked or not, or None."""
        ...

    async def credentials(self, account_id: str) -> list[CredentialRow]:
        """An account's credentials, revoked ones included, oldest first."""
        ...

    async def revoke_credential(self, credential_id: str, now: float) -> bool:
        """Mark a credential revoked at `now`; False if there is no such
        credential or it was revoked already."""
        ...

    async def revoke_credentials(self, credential_ids: Collection[str], now: float) -> list[str]:
        """Mark every one of these credentials that is not revoked yet
        revoked at `now`, in one commit; the ids it revoked (unknown and
        already revoked ones are left out), in the order given."""
        ...

    async def use_credential(self, credential_id: str, at: float, address: str) -> None:
        """Note that the credential signed a connection in at `at` from
        `address` (its `used_at` and `used_address`); an unknown id changes
        nothing."""
        ...

    async def save_results(self, table_id: str, results: Sequence[ResultRow],
                           ratings: Sequence[RatingRow]) -> bool:
        """Store a finished game's results and the ratings they moved, in one
        commit. A table's results are stored once: if any are stored for
        `table_id` already, nothing changes and False comes back (a table
        brought back after a restart may end twice)."""
        ...

    async def ratings(self, game: str, account_ids: Collection[str]) -> dict[str, RatingRow]:
        """The current ratings in `game` of those accounts that have one."""
        ...

    async def leaderboard(self, game: str, limit: int) -> list[tuple[AccountRow, RatingRow]]:
        """Up to `limit` rated accounts of `game`, by mu - 3 sigma, best first
        (ties: fewer games, then the account id)."""
        ...

    async def results(self, account_id: str, game: str | None = None, limit: int = 100) -> list[ResultRow]:
        """An account's latest results (all games, or one), oldest first."""
        ...

    async def reputation(self, account_ids: Collection[str]) -> dict[str, tuple[int, int, int]]:
        """Promises (kept, broken, released) per account over every stored
        result; accounts without results are absent."""
        ...

    # -- throttles: how often sign-ins and sign-ups were tried (docs/accounts.md) --

    async def throttles(self, keys: Collection[str]) -> dict[str, ThrottleRow]:
        """The stored rows of those keys that have one."""
        ...

    async def save_throttles(self, rows: Sequence[ThrottleRow], drop: Collection[str] = ()) -> None:
        """Replace (or add) these rows and delete the rows of `drop`, in one
        commit; the last writer of a key wins."""
        ...

    async def prune_throttles(self, before: float) -> None:
        """Delete every row last updated before `before` (an old row says
        nothing any more: every window it could hold has passed)."""
        ...

    # -- e-mail addresses (docs/accounts.md, "E-mail") ------------------------------

    async def email(self, account_id: str) -> EmailRow | None:
        """The account's address, if it gave one."""
        ...

    async def email_by_token(self, token_hash: str) -> EmailRow | None:
        """The address whose confirmation or unsubscribe token hashes to this."""
        ...

    async def save_email(self, row: EmailRow | None, account_id: str) -> None:
        """Replace the account's address with `row` (None: remove it)."""
        ...

    # -- the seats of accounts (PROTOCOL.md 3, my_tables) ------------------------------

    async def save_seats(self, table_id: str, rows: Sequence[SeatRow]) -> None:
        """Replace the table's rows in the index of seats by account with
        `rows`, in one commit."""
        ...

    async def account_seats(self, account_id: str, limit: int) -> list[SeatRow]:
        """The account's seats: the tables awaiting it first (the nearest
        deadline first), then the others still playing, then ended ones,
        each part the latest changed first; at most `limit`."""
        ...

    async def table_seats(self, table_id: str) -> list[SeatRow]:
        """The table's rows in the index as last saved, by seat: a table
        rebuilt from its log takes from them since when each seat has been
        awaited."""
        ...

    async def mail_due(self, now: float, every: float, grace: float, limit: int) -> list[str]:
        """Accounts to mail now: a confirmed address that takes mail, a seat
        at a turn-based table awaiting the account since `grace` seconds or
        more and since after the last mail, and that mail `every` seconds or
        more ago (or none yet); at most `limit`."""
        ...

    async def mailed(self, account_id: str, at: float) -> None:
        """Note that the account was mailed at `at`."""
        ...
