"""Accounts, credentials, ratings and results in SQL, once for SQLite and
PostgreSQL (the contract's "accounts" part; docs/accounts.md).

The statements are written with ``%s`` placeholders (psycopg's) and turned
into ``?`` for sqlite3; the few differences of types are in `schema`. A
store mixes `AccountsSQL` in and provides `_sql_write` (one commit through
its batching writer) and `_read` (its read connection in a worker thread).

Writes that answer a question (was it revoked? were these results new?)
read first and then write with the same condition in the statement. That
is exact because one server writes a store (guarantee 6) and the accounts
service makes these writes one at a time.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

from .contract import AccountRow, CredentialRow, EmailRow, RatingRow, ResultRow, SeatRow, ThrottleRow

__all__ = ["INSERT_SEAT", "AccountsSQL", "Statement", "credential_additions", "schema", "seat_params",
           "seat_statements", "seats_schema", "throttles_schema"]

# A statement and its parameters; a list of parameter tuples runs it once for each, in one
# call of the driver (executemany).
Statement = tuple[str, tuple[Any, ...] | list[tuple[Any, ...]]]


def seat_params(rows: Sequence[SeatRow]) -> list[tuple[Any, ...]]:
    """The parameters of `INSERT_SEAT` for each of `rows`."""
    return [(r.account_id, r.table_id, r.seat, int(r.awaits), r.since, r.until, int(r.turn_based), int(r.ended),
             r.updated_at) for r in rows]


def seat_statements(table_id: str, rows: Sequence[SeatRow]) -> list[Statement]:
    """What replaces the table's rows in the index of seats by account
    (`save_seats`, or an append that carries them): a table with signed-in
    seats writes them after nearly every step, so the rows go in as one
    statement run for each, not a statement each."""
    statements: list[Statement] = [("DELETE FROM account_seats WHERE table_id = %s", (table_id,))]
    if rows:
        statements.append((INSERT_SEAT, seat_params(rows)))
    return statements

_ACCOUNT_COLUMNS: Final = "id, name, name_key, kind, owner, password, created_at"
_CREDENTIAL_COLUMNS: Final = ("id, account_id, kind, token_hash, label, created_at, revoked_at, "
                               "address, client, used_at, used_address")
_THROTTLE_COLUMNS: Final = "name, tries, wait_until, updated_at"
_RATING_COLUMNS: Final = "account_id, game, mu, sigma, games, updated_at"
_RESULT_COLUMNS: Final = "table_id, account_id, game, place, mu, sigma, kept, broken, released, at"
_EMAIL_COLUMNS: Final = ("account_id, address, confirm_hash, unsubscribe_token, requested_at, confirmed_at, notify, "
                         "mailed_at")
_SEAT_COLUMNS: Final = "account_id, table_id, seat, awaits, since, until, turn_based, ended, updated_at"
INSERT_SEAT: Final = f"INSERT INTO account_seats ({_SEAT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
# account_seats' order (memory.seat_order says it in Python).
_SEAT_ORDER: Final = ("CASE WHEN awaits <> 0 AND ended = 0 THEN 0 WHEN ended = 0 THEN 1 ELSE 2 END, "
                      "CASE WHEN awaits <> 0 AND ended = 0 THEN COALESCE(until, 1e300) ELSE 0 END, "
                      "updated_at DESC, table_id")


def schema(text: str, real: str, strict: str) -> str:
    """The accounts' tables in one dialect: `text` and `real` are its column
    types, `strict` what follows a CREATE TABLE (SQLite's STRICT)."""
    return f"""
CREATE TABLE IF NOT EXISTS accounts (
    id {text} PRIMARY KEY,
    name {text} NOT NULL,
    name_key {text} NOT NULL UNIQUE,
    kind {text} NOT NULL CHECK (kind IN ('person', 'bot')),
    owner {text} REFERENCES accounts (id),
    password {text},
    created_at {real} NOT NULL
){strict};
CREATE TABLE IF NOT EXISTS credentials (
    id {text} PRIMARY KEY,
    account_id {text} NOT NULL REFERENCES accounts (id),
    kind {text} NOT NULL CHECK (kind IN ('session', 'api')),
    token_hash {text} NOT NULL UNIQUE,
    label {text} NOT NULL,
    created_at {real} NOT NULL,
    revoked_at {real}
){strict};
CREATE INDEX IF NOT EXISTS credentials_by_account ON credentials (account_id);
CREATE TABLE IF NOT EXISTS ratings (
    account_id {text} NOT NULL REFERENCES accounts (id),
    game {text} NOT NULL,
    mu {real} NOT NULL,
    sigma {real} NOT NULL,
    games INTEGER NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (account_id, game)
){strict};
CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings (game);
CREATE TABLE IF NOT EXISTS results (
    table_id {text} NOT NULL,
    account_id {text} NOT NULL REFERENCES accounts (id),
    game {text} NOT NULL,
    place INTEGER NOT NULL,
    mu {real},
    sigma {real},
    kept INTEGER NOT NULL,
    broken INTEGER NOT NULL,
    released INTEGER NOT NULL,
    at {real} NOT NULL,
    PRIMARY KEY (table_id, account_id)
){strict};
CREATE INDEX IF NOT EXISTS results_by_account ON results (account_id, at)
"""


def credential_additions(text: str, real: str) -> list[tuple[str, str]]:
    """The columns credentials gained after `schema` (where a session was
    made and last used), each (name, definition), for ALTER TABLE ... ADD
    COLUMN: rows stored before them read as "" and NULL."""
    return [("address", f"{text} NOT NULL DEFAULT ''"), ("client", f"{text} NOT NULL DEFAULT ''"),
            ("used_at", real), ("used_address", f"{text} NOT NULL DEFAULT ''")]


def throttles_schema(text: str, real: str, strict: str) -> str:
    """The throttles' table: one row per key of a sign-in back-off or a
    budget (server/throttles.py), pruned by `updated_at`."""
    return f"""
CREATE TABLE IF NOT EXISTS throttles (
    name {text} PRIMARY KEY,
    tries INTEGER NOT NULL,
    wait_until {real} NOT NULL,
    updated_at {real} NOT NULL
){strict};
CREATE INDEX IF NOT EXISTS throttles_by_age ON throttles (updated_at)
"""


def seats_schema(text: str, real: str, strict: str) -> str:
    """The e-mail addresses of accounts and the index of seats by account
    (docs/accounts.md, "E-mail"; PROTOCOL.md 3, my_tables). Booleans are
    integers 0/1 in both databases, so that one statement serves both."""
    return f"""
CREATE TABLE IF NOT EXISTS emails (
    account_id {text} PRIMARY KEY REFERENCES accounts (id),
    address {text} NOT NULL,
    confirm_hash {text} NOT NULL,
    unsubscribe_token {text} NOT NULL,
    requested_at {real} NOT NULL,
    confirmed_at {real},
    notify INTEGER NOT NULL,
    mailed_at {real}
){strict};
CREATE INDEX IF NOT EXISTS emails_by_confirm ON emails (confirm_hash);
CREATE INDEX IF NOT EXISTS emails_by_unsubscribe ON emails (unsubscribe_token);
CREATE TABLE IF NOT EXISTS account_seats (
    account_id {text} NOT NULL,
    table_id {text} NOT NULL,
    seat INTEGER NOT NULL,
    awaits INTEGER NOT NULL,
    since {real} NOT NULL,
    until {real},
    turn_based INTEGER NOT NULL,
    ended INTEGER NOT NULL,
    updated_at {real} NOT NULL,
    PRIMARY KEY (account_id, table_id)
){strict};
CREATE INDEX IF NOT EXISTS account_seats_by_table ON account_seats (table_id);
CREATE INDEX IF NOT EXISTS account_seats_awaiting ON account_seats (awaits, turn_based, since)
"""


def _email(row: tuple[Any, ...]) -> EmailRow:
    return EmailRow(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])


def _seat(row: tuple[Any, ...]) -> SeatRow:
    return SeatRow(row[0], row[1], row[2], bool(row[3]), row[4], row[5], bool(row[6]), bool(row[7]), row[8])


class AccountsSQL:
    """The accounts part of the store contract, on any SQL store that
    provides the two hooks below."""

    async def _sql_write(self, statements: list[Statement], what: str) -> None:
        """Run the statements in one commit; a unique key violated raises
        StoreConflict, anything else the database refuses StoreError."""
        raise NotImplementedError

    async def _sql_read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of one query on the read connection."""
        raise NotImplementedError

    async def create_account(self, row: AccountRow) -> None:
        await self._sql_write([(f"INSERT INTO accounts ({_ACCOUNT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                                (row.id, row.name, row.key, row.kind, row.owner, row.password, row.created_at))],
                              f"the name {row.name!r} is taken")

    async def account(self, account_id: str) -> AccountRow | None:
        rows = await self._sql_read(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = %s", (account_id,))
        return AccountRow(*rows[0]) if rows else None

    async def account_by_key(self, key: str) -> AccountRow | None:
        rows = await self._sql_read(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE name_key = %s", (key,))
        return AccountRow(*rows[0]) if rows else None

    async def bots_of(self, owner: str) -> list[AccountRow]:
        rows = await self._sql_read(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE owner = %s "
                                    "ORDER BY created_at, id", (owner,))
        return [AccountRow(*r) for r in rows]

    async def add_credential(self, row: CredentialRow) -> None:
        await self._sql_write([(f"INSERT INTO credentials ({_CREDENTIAL_COLUMNS}) "
                                "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                                (row.id, row.account_id, row.kind, row.token_hash, row.label, row.created_at,
                                 row.revoked_at, row.address, row.client, row.used_at, row.used_address))],
                              "that credential is stored already")

    async def credential(self, token_hash: str) -> CredentialRow | None:
        rows = await self._sql_read(f"SELECT {_CREDENTIAL_COLUMNS} FROM credentials WHERE token_hash = %s",
                                    (token_hash,))
        return CredentialRow(*rows[0]) if rows else None

    async def credentials(self, account_id: str) -> list[CredentialRow]:
        rows = await self._sql_read(f"SELECT {_CREDENTIAL_COLUMNS} FROM credentials WHERE account_id = %s "
                                    "ORDER BY created_at, id", (account_id,))
        return [CredentialRow(*r) for r in rows]

    async def revoke_credential(self, credential_id: str, now: float) -> bool:
        rows = await self._sql_read("SELECT 1 FROM credentials WHERE id = %s AND revoked_at IS NULL",
                                    (credential_id,))
        if not rows:
            return False
        await self._sql_write([("UPDATE credentials SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                                (now, credential_id))], f"revoke credential {credential_id!r}")
        return True

    async def revoke_credentials(self, credential_ids: Collection[str], now: float) -> list[str]:
        wanted = list(dict.fromkeys(credential_ids))
        live = {r[0] for i in range(0, len(wanted), 500) for r in await self._sql_read(
            "SELECT id FROM credentials WHERE revoked_at IS NULL AND id IN ("
            + ", ".join(["%s"] * len(wanted[i:i + 500])) + ")", tuple(wanted[i:i + 500]))}
        revoked = [c for c in wanted if c in live]
        if revoked:
            await self._sql_write([("UPDATE credentials SET revoked_at = %s WHERE id = %s AND revoked_at IS NULL",
                                    (now, c)) for c in revoked], f"revoke {len(revoked)} credentials")
        return revoked

    async def use_credential(self, credential_id: str, at: float, address: str) -> None:
        await self._sql_write([("UPDATE credentials SET used_at = %s, used_address = %s WHERE id = %s",
                                (at, address, credential_id))], f"note the use of credential {credential_id!r}")

    async def save_results(self, table_id: str, results: Sequence[ResultRow],
                           ratings: Sequence[RatingRow]) -> bool:
        if await self._sql_read("SELECT 1 FROM results WHERE table_id = %s LIMIT 1", (table_id,)):
            return False
        fresh = "WHERE NOT EXISTS (SELECT 1 FROM results WHERE table_id = %s)"
        statements: list[Statement] = [
            (f"INSERT INTO ratings ({_RATING_COLUMNS}) SELECT %s, %s, %s, %s, %s, %s {fresh} "
             "ON CONFLICT (account_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
             "games = excluded.games, updated_at = excluded.updated_at",
             (r.account_id, r.game, r.mu, r.sigma, r.games, r.updated_at, table_id))
            for r in ratings]
        statements += [
            (f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
             (r.table_id, r.account_id, r.game, r.rank, r.mu, r.sigma, r.kept, r.broken, r.released, r.at))
            for r in results]
        await self._sql_write(statements, f"save results of {table_id!r}")
        return True

    async def ratings(self, game: str, account_ids: Collection[str]) -> dict[str, RatingRow]:
        wanted = list(account_ids)
        out: dict[str, RatingRow] = {}
        for account_id in wanted:  # a handful per game: a query each keeps the SQL portable
            rows = await self._sql_read(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE account_id = %s AND game = %s",
                                        (account_id, game))
            if rows:
                out[account_id] = RatingRow(*rows[0])
        return out

    async def leaderboard(self, game: str, limit: int) -> list[tuple[AccountRow, RatingRow]]:
        a_columns = ", ".join(f"a.{c.strip()}" for c in _ACCOUNT_COLUMNS.split(","))
        r_columns = ", ".join(f"r.{c.strip()}" for c in _RATING_COLUMNS.split(","))
        rows = await self._sql_read(
            f"SELECT {a_columns}, {r_columns} FROM ratings r JOIN accounts a ON a.id = r.account_id "
            "WHERE r.game = %s ORDER BY r.mu - 3 * r.sigma DESC, r.games, r.account_id LIMIT %s", (game, limit))
        return [(AccountRow(*row[:7]), RatingRow(*row[7:])) for row in rows]

    async def results(self, account_id: str, game: str | None = None, limit: int = 100) -> list[ResultRow]:
        where, params = ("account_id = %s", (account_id,)) if game is None else (
            "account_id = %s AND game = %s", (account_id, game))
        rows = await self._sql_read(f"SELECT {_RESULT_COLUMNS} FROM results WHERE {where} "
                                    "ORDER BY at DESC, table_id DESC LIMIT %s", (*params, limit))
        return [ResultRow(*r) for r in reversed(rows)]

    async def reputation(self, account_ids: Collection[str]) -> dict[str, tuple[int, int, int]]:
        out: dict[str, tuple[int, int, int]] = {}
        for account_id in account_ids:
            rows = await self._sql_read("SELECT count(*), sum(kept), sum(broken), sum(released) FROM results "
                                        "WHERE account_id = %s", (account_id,))
            if rows and rows[0][0]:
                out[account_id] = (int(rows[0][1]), int(rows[0][2]), int(rows[0][3]))
        return out

    # -- throttles ---------------------------------------------------------------------

    async def throttles(self, keys: Collection[str]) -> dict[str, ThrottleRow]:
        wanted = list(dict.fromkeys(keys))
        out: dict[str, ThrottleRow] = {}
        for i in range(0, len(wanted), 500):
            part = wanted[i:i + 500]
            for row in await self._sql_read(f"SELECT {_THROTTLE_COLUMNS} FROM throttles WHERE name IN ("
                                            + ", ".join(["%s"] * len(part)) + ")", tuple(part)):
                out[row[0]] = ThrottleRow(*row)
        return out

    async def save_throttles(self, rows: Sequence[ThrottleRow], drop: Collection[str] = ()) -> None:
        statements: list[Statement] = [("DELETE FROM throttles WHERE name = %s", (key,)) for key in drop]
        statements += [(f"INSERT INTO throttles ({_THROTTLE_COLUMNS}) VALUES (%s, %s, %s, %s) "
                        "ON CONFLICT (name) DO UPDATE SET tries = excluded.tries, wait_until = excluded.wait_until, "
                        "updated_at = excluded.updated_at", (r.key, r.count, r.until, r.updated_at))
                       for r in rows]
        if statements:
            await self._sql_write(statements, "save throttles")

    async def prune_throttles(self, before: float) -> None:
        await self._sql_write([("DELETE FROM throttles WHERE updated_at < %s", (before,))], "prune throttles")

    # -- e-mail addresses ----------------------------------------------------------------

    async def email(self, account_id: str) -> EmailRow | None:
        rows = await self._sql_read(f"SELECT {_EMAIL_COLUMNS} FROM emails WHERE account_id = %s", (account_id,))
        return _email(rows[0]) if rows else None

    async def email_by_token(self, token_hash: str) -> EmailRow | None:
        if not token_hash:
            return None
        rows = await self._sql_read(f"SELECT {_EMAIL_COLUMNS} FROM emails WHERE confirm_hash = %s "
                                    "OR unsubscribe_token = %s", (token_hash, token_hash))
        return _email(rows[0]) if rows else None

    async def save_email(self, row: EmailRow | None, account_id: str) -> None:
        statements: list[Statement] = [("DELETE FROM emails WHERE account_id = %s", (account_id,))]
        if row is not None:
            statements.append((f"INSERT INTO emails ({_EMAIL_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                               (row.account_id, row.address, row.confirm_hash, row.unsubscribe_token,
                                row.requested_at, row.confirmed_at, int(row.notify), row.mailed_at)))
        await self._sql_write(statements, f"save the e-mail address of {account_id!r}")

    async def mailed(self, account_id: str, at: float) -> None:
        await self._sql_write([("UPDATE emails SET mailed_at = %s WHERE account_id = %s", (at, account_id))],
                              f"note a mail to {account_id!r}")

    # -- the seats of accounts -------------------------------------------------------------

    async def save_seats(self, table_id: str, rows: Sequence[SeatRow]) -> None:
        await self._sql_write(seat_statements(table_id, rows), f"index the seats of table {table_id!r}")

    async def account_seats(self, account_id: str, limit: int) -> list[SeatRow]:
        rows = await self._sql_read(f"SELECT {_SEAT_COLUMNS} FROM account_seats WHERE account_id = %s "
                                    f"ORDER BY {_SEAT_ORDER} LIMIT %s", (account_id, limit))
        return [_seat(r) for r in rows]

    async def table_seats(self, table_id: str) -> list[SeatRow]:
        rows = await self._sql_read(f"SELECT {_SEAT_COLUMNS} FROM account_seats WHERE table_id = %s ORDER BY seat",
                                    (table_id,))
        return [_seat(r) for r in rows]

    async def mail_due(self, now: float, every: float, grace: float, limit: int) -> list[str]:
        rows = await self._sql_read(
            "SELECT DISTINCT e.account_id FROM emails e JOIN account_seats s ON s.account_id = e.account_id "
            "WHERE e.confirmed_at IS NOT NULL AND e.notify <> 0 "
            "AND (e.mailed_at IS NULL OR e.mailed_at <= %s) "
            "AND s.awaits <> 0 AND s.turn_based <> 0 AND s.ended = 0 AND s.since <= %s "
            "AND (e.mailed_at IS NULL OR s.since > e.mailed_at) ORDER BY e.account_id LIMIT %s",
            (now - every, now - grace, limit))
        return [r[0] for r in rows]
