"""A store in memory, with the guarantees of `contract.Store` save
durability across processes: for the actor's tests under trio's MockClock
(real I/O in flight makes its autojump misfire) and the protocol's vector
generator. It passes the same store suite as the SQLite store.

Every call yields to the scheduler once, as a real store's would, so code
that forgets to await a write shows up under it too.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

import trio

from .contract import (
    AccountRow,
    CredentialRow,
    EmailRow,
    LogRecord,
    RatingRow,
    ResultRow,
    SeatRow,
    StoreConflict,
    StoreError,
    TableRow,
    ThrottleRow,
    check_bytes,
    check_status,
)

__all__ = ["MemoryStore"]


class MemoryStore:
    def __init__(self) -> None:
        self.rows: dict[str, TableRow] = {}
        self.logs: dict[str, list[LogRecord]] = {}
        self.clocks: dict[str, tuple[float, bytes]] = {}
        self.records: dict[str, bytes] = {}
        self.tournament_rows: dict[str, tuple[float, bytes, dict[int, bytes]]] = {}
        self.tournament_tables: dict[str, bool] = {}  # table -> withheld
        self.asleep: dict[str, float] = {}  # table -> when it wakes (docs/table.md T8.5)
        self.alive: float | None = None
        self.appends = 0
        self.accounts: dict[str, AccountRow] = {}
        self.creds: dict[str, CredentialRow] = {}  # by id
        self.rating_rows: dict[tuple[str, str], RatingRow] = {}
        self.result_rows: list[ResultRow] = []
        self.throttle_rows: dict[str, ThrottleRow] = {}
        self.email_rows: dict[str, EmailRow] = {}
        self.seat_rows: dict[str, list[SeatRow]] = {}  # by table
        self._state = "new"
        self._closed = trio.Event()

    # -- life cycle ------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        if self._state != "new":
            raise StoreError("this memory store was already started or closed")
        self._state = "running"
        task_status.started()
        try:
            await self._closed.wait()
        finally:
            self._state = "closed"

    async def aclose(self) -> None:
        self._state = "closed"
        self._closed.set()
        await trio.lowlevel.checkpoint()

    async def _enter(self) -> None:
        await trio.lowlevel.checkpoint()
        if self._state != "running":
            raise StoreError("store is not running yet" if self._state == "new" else "store is closed")

    # -- writes --------------------------------------------------------------------

    async def create_table(self, table_id: str, status: str, meta: bytes, now: float) -> None:
        check_status(status)
        check_bytes("meta", meta)
        await self._enter()
        if table_id in self.rows:
            raise StoreError(f"table {table_id!r} already exists")
        self.rows[table_id] = TableRow(table_id, now, status, meta, now)
        self.logs[table_id] = []

    async def update_table(self, table_id: str, *, status: str | None = None, meta: bytes | None = None,
                           now: float) -> None:
        if status is not None:
            check_status(status)
        if meta is not None:
            check_bytes("meta", meta)
        await self._enter()
        row = self.rows.get(table_id)
        if row is None:
            raise StoreError(f"update of unknown table {table_id!r}")
        self.rows[table_id] = TableRow(table_id, row.created_at, status or row.status,
                                       meta if meta is not None else row.meta, now)

    async def append(self, table_id: str, records: Sequence[LogRecord], *, clock: bytes | None = None,
                     now: float, seats: Sequence[SeatRow] | None = None) -> None:
        records = tuple(records)
        for index, record in enumerate(records):
            if not isinstance(record, LogRecord):
                raise TypeError(f"records[{index}] is {type(record).__name__}, not LogRecord")
            check_bytes(f"records[{index}].body", record.body)
            if index and record.pos != records[index - 1].pos + 1:
                raise StoreError(f"append to {table_id!r}: positions must be consecutive, "
                                 f"got {records[index - 1].pos} then {record.pos}")
        if clock is not None:
            check_bytes("clock", clock)
        await self._enter()
        log = self.logs.get(table_id)
        if log is None:
            raise StoreError(f"append to unknown table {table_id!r}")
        if records and records[0].pos != len(log):
            problem = "duplicate" if records[0].pos < len(log) else "gap"
            raise StoreError(f"append to {table_id!r}: {problem} in the log, "
                             f"next pos is {len(log)} but got {records[0].pos}")
        log.extend(records)
        if clock is not None:
            self.clocks[table_id] = (now, clock)
        if seats is not None:
            self._replace_seats(table_id, seats)
        self.appends += 1

    async def save_record(self, table_id: str, body: bytes) -> None:
        check_bytes("body", body)
        await self._enter()
        if table_id not in self.rows:
            raise StoreError(f"record for unknown table {table_id!r}")
        self.records[table_id] = body

    async def heartbeat(self, now: float) -> None:
        await self._enter()
        self.alive = now

    async def save_tournament(self, tournament_id: str, body: bytes | None, *, now: float,
                              rounds: Mapping[int, bytes] | None = None,
                              tables: Mapping[str, bool] | None = None) -> None:
        if body is not None:
            check_bytes("body", body)
        for number, blob in (rounds or {}).items():
            check_bytes(f"rounds[{number}]", blob)
        await self._enter()
        row = self.tournament_rows.get(tournament_id)
        if row is None and body is None:
            raise StoreError(f"tournament {tournament_id!r} is saved first with its head")
        created, head, stored = row if row is not None else (now, b"", {})
        self.tournament_rows[tournament_id] = (created, body if body is not None else head,
                                               {**stored, **(rounds or {})})
        self.tournament_tables.update({t: bool(held) for t, held in (tables or {}).items()})

    # -- reads -----------------------------------------------------------------------

    async def tables(self, statuses: Collection[str] | None = None, *, asleep: bool | None = None) -> list[TableRow]:
        if statuses is not None:
            for status in statuses:
                check_status(status)
        await self._enter()
        rows = sorted(self.rows.values(), key=lambda r: (r.created_at, r.id))
        return [r for r in rows if (statuses is None or r.status in statuses)
                and (asleep is None or (r.id in self.asleep) == asleep)]

    async def sleep(self, table_id: str, wake_at: float) -> None:
        await self._enter()
        if table_id not in self.rows:
            raise StoreError(f"sleep of unknown table {table_id!r}")
        self.asleep[table_id] = wake_at

    async def wake(self, table_id: str) -> bool:
        await self._enter()
        return self.asleep.pop(table_id, None) is not None

    async def due(self, now: float, limit: int) -> list[str]:
        await self._enter()
        return [t for w, t in sorted((w, t) for t, w in self.asleep.items() if w <= now)][:limit]

    async def next_wake(self) -> float | None:
        await self._enter()
        return min(self.asleep.values(), default=None)

    async def sleeping(self) -> int:
        await self._enter()
        return len(self.asleep)

    async def table(self, table_id: str) -> TableRow | None:
        await self._enter()
        return self.rows.get(table_id)

    async def log(self, table_id: str, *, after_pos: int = -1) -> list[LogRecord]:
        await self._enter()
        return [r for r in self.logs.get(table_id, []) if r.pos > after_pos]

    async def clock(self, table_id: str) -> tuple[float, bytes] | None:
        await self._enter()
        return self.clocks.get(table_id)

    async def log_and_clock(self, table_id: str) -> tuple[list[LogRecord], tuple[float, bytes] | None]:
        await self._enter()
        return list(self.logs.get(table_id, [])), self.clocks.get(table_id)

    async def table_log_and_clock(self, table_id: str) -> tuple[TableRow | None, list[LogRecord],
                                                                  tuple[float, bytes] | None]:
        await self._enter()
        return self.rows.get(table_id), list(self.logs.get(table_id, [])), self.clocks.get(table_id)

    async def record(self, table_id: str) -> bytes | None:
        await self._enter()
        return self.records.get(table_id)

    async def last_heartbeat(self) -> float | None:
        await self._enter()
        return self.alive

    async def tournament(self, tournament_id: str) -> tuple[bytes, list[bytes]] | None:
        await self._enter()
        row = self.tournament_rows.get(tournament_id)
        return None if row is None else (row[1], [row[2][n] for n in sorted(row[2])])

    async def tournaments(self) -> list[tuple[str, bytes, list[bytes]]]:
        await self._enter()
        rows = sorted(self.tournament_rows.items(), key=lambda x: (x[1][0], x[0]))
        return [(i, head, [rounds[n] for n in sorted(rounds)]) for i, (_, head, rounds) in rows]

    async def withheld(self, table_id: str) -> bool:
        await self._enter()
        return self.tournament_tables.get(table_id, False)

    # -- accounts --------------------------------------------------------------------

    async def create_account(self, row: AccountRow) -> None:
        await self._enter()
        if row.id in self.accounts or any(a.key == row.key for a in self.accounts.values()):
            raise StoreConflict(f"the name {row.name!r} is taken")
        self.accounts[row.id] = row

    async def account(self, account_id: str) -> AccountRow | None:
        await self._enter()
        return self.accounts.get(account_id)

    async def account_by_key(self, key: str) -> AccountRow | None:
        await self._enter()
        return next((a for a in self.accounts.values() if a.key == key), None)

    async def bots_of(self, owner: str) -> list[AccountRow]:
        await self._enter()
        return sorted((a for a in self.accounts.values() if a.owner == owner), key=lambda a: (a.created_at, a.id))

    async def add_credential(self, row: CredentialRow) -> None:
        await self._enter()
        if row.id in self.creds or any(c.token_hash == row.token_hash for c in self.creds.values()):
            raise StoreConflict("that credential is stored already")
        if row.account_id not in self.accounts:
            raise StoreError(f"credential for unknown account {row.account_id!r}")
        self.creds[row.id] = row

    async def credential(self, token_hash: str) -> CredentialRow | None:
        await self._enter()
        return next((c for c in self.creds.values() if c.token_hash == token_hash), None)

    async def credentials(self, account_id: str) -> list[CredentialRow]:
        await self._enter()
        return sorted((c for c in self.creds.values() if c.account_id == account_id),
                      key=lambda c: (c.created_at, c.id))

    async def revoke_credential(self, credential_id: str, now: float) -> bool:
        await self._enter()
        row = self.creds.get(credential_id)
        if row is None or row.revoked_at is not None:
            return False
        self.creds[credential_id] = replace(row, revoked_at=now)
        return True

    async def revoke_credentials(self, credential_ids: Collection[str], now: float) -> list[str]:
        await self._enter()
        revoked = [c for c in dict.fromkeys(credential_ids)
                   if c in self.creds and self.creds[c].revoked_at is None]
        for c in revoked:
            self.creds[c] = replace(self.creds[c], revoked_at=now)
        return revoked

    async def use_credential(self, credential_id: str, at: float, address: str) -> None:
        await self._enter()
        row = self.creds.get(credential_id)
        if row is not None:
            self.creds[credential_id] = replace(row, used_at=at, used_address=address)

    async def save_results(self, table_id: str, results: Sequence[ResultRow],
                           ratings: Sequence[RatingRow]) -> bool:
        await self._enter()
        if any(r.table_id == table_id for r in self.result_rows):
            return False
        for r in results:
            if r.account_id not in self.accounts:
                raise StoreError(f"result for unknown account {r.account_id!r}")
        self.result_rows.extend(results)
        for rating in ratings:
            self.rating_rows[(rating.account_id, rating.game)] = rating
        return True

    async def ratings(self, game: str, account_ids: Collection[str]) -> dict[str, RatingRow]:
        await self._enter()
        return {a: self.rating_rows[(a, game)] for a in account_ids if (a, game) in self.rating_rows}

    async def leaderboard(self, game: str, limit: int) -> list[tuple[AccountRow, RatingRow]]:
        await self._enter()
        rows = sorted((r for r in self.rating_rows.values() if r.game == game),
                      key=lambda r: (-(r.mu - 3 * r.sigma), r.games, r.account_id))
        return [(self.accounts[r.account_id], r) for r in rows[:limit]]

    async def results(self, account_id: str, game: str | None = None, limit: int = 100) -> list[ResultRow]:
        await self._enter()
        mine = [r for r in self.result_rows if r.account_id == account_id and (game is None or r.game == game)]
        return sorted(mine, key=lambda r: (r.at, r.table_id))[-limit:] if limit > 0 else []

    async def reputation(self, account_ids: Collection[str]) -> dict[str, tuple[int, int, int]]:
        await self._enter()
        wanted = set(account_ids)
        out: dict[str, tuple[int, int, int]] = {}
        for r in self.result_rows:
            if r.account_id in wanted:
                k, b, x = out.get(r.account_id, (0, 0, 0))
                out[r.account_id] = (k + r.kept, b + r.broken, x + r.released)
        return out

    # -- throttles -------------------------------------------------------------------

    async def throttles(self, keys: Collection[str]) -> dict[str, ThrottleRow]:
        await self._enter()
        return {k: self.throttle_rows[k] for k in keys if k in self.throttle_rows}

    async def save_throttles(self, rows: Sequence[ThrottleRow], drop: Collection[str] = ()) -> None:
        await self._enter()
        for key in drop:
            self.throttle_rows.pop(key, None)
        for row in rows:
            self.throttle_rows[row.key] = row

    async def prune_throttles(self, before: float) -> None:
        await self._enter()
        for key in [k for k, r in self.throttle_rows.items() if r.updated_at < before]:
            del self.throttle_rows[key]

    # -- e-mail addresses ------------------------------------------------------------

    async def email(self, account_id: str) -> EmailRow | None:
        await self._enter()
        return self.email_rows.get(account_id)

    async def email_by_token(self, token_hash: str) -> EmailRow | None:
        await self._enter()
        return next((e for e in self.email_rows.values()
                     if token_hash and token_hash in (e.confirm_hash, e.unsubscribe_token)), None)

    async def save_email(self, row: EmailRow | None, account_id: str) -> None:
        await self._enter()
        if account_id not in self.accounts:
            raise StoreError(f"e-mail address for unknown account {account_id!r}")
        if row is None:
            self.email_rows.pop(account_id, None)
        else:
            self.email_rows[account_id] = row

    # -- the seats of accounts ---------------------------------------------------------

    async def save_seats(self, table_id: str, rows: Sequence[SeatRow]) -> None:
        await self._enter()
        self._replace_seats(table_id, rows)

    def _replace_seats(self, table_id: str, rows: Sequence[SeatRow]) -> None:
        if rows:
            self.seat_rows[table_id] = list(rows)
        else:
            self.seat_rows.pop(table_id, None)

    async def account_seats(self, account_id: str, limit: int) -> list[SeatRow]:
        await self._enter()
        mine = [r for rows in self.seat_rows.values() for r in rows if r.account_id == account_id]
        mine.sort(key=seat_order)
        return mine[:limit]

    async def table_seats(self, table_id: str) -> list[SeatRow]:
        await self._enter()
        return sorted(self.seat_rows.get(table_id, []), key=lambda r: r.seat)

    async def mail_due(self, now: float, every: float, grace: float, limit: int) -> list[str]:
        await self._enter()
        due: list[str] = []
        for account_id, e in sorted(self.email_rows.items()):
            if e.confirmed_at is None or not e.notify:
                continue
            if e.mailed_at is not None and e.mailed_at > now - every:
                continue
            if any(r.account_id == account_id and r.awaits and r.turn_based and not r.ended
                   and r.since <= now - grace and (e.mailed_at is None or r.since > e.mailed_at)
                   for rows in self.seat_rows.values() for r in rows):
                due.append(account_id)
        return due[:limit]

    async def mailed(self, account_id: str, at: float) -> None:
        await self._enter()
        row = self.email_rows.get(account_id)
        if row is not None:
            self.email_rows[account_id] = replace(row, mailed_at=at)


def seat_order(r: SeatRow) -> tuple[int, float, float, str]:
    """The order of `account_seats`: awaiting (nearest deadline first),
    then playing, then ended; each part the latest changed first."""
    part = 0 if r.awaits and not r.ended else 2 if r.ended else 1
    return (part, r.until if part == 0 and r.until is not None else math.inf, -r.updated_at, r.table_id)
