"""An in-memory store with the real Store's interface, for actor-level tests
under trio's MockClock (real I/O in flight would make autojump misfire).
Storage itself is tested against real SQLite in test_store.py."""

from __future__ import annotations

from typing import Collection, Sequence

import trio

from oriente.server.store import LogRecord, StoreError, TableRow


class MemoryStore:
    def __init__(self) -> None:
        self.rows: dict[str, TableRow] = {}
        self.logs: dict[str, list[LogRecord]] = {}
        self.clocks: dict[str, tuple[float, bytes]] = {}
        self.records: dict[str, bytes] = {}
        self.alive: float | None = None
        self.appends = 0

    async def create_table(self, table_id: str, status: str, meta: bytes, now: float) -> None:
        await trio.lowlevel.checkpoint()
        if table_id in self.rows:
            raise StoreError(f"table {table_id!r} already exists")
        self.rows[table_id] = TableRow(table_id, now, status, meta, now)
        self.logs[table_id] = []

    async def update_table(self, table_id: str, *, status: str | None = None,
                           meta: bytes | None = None, now: float) -> None:
        await trio.lowlevel.checkpoint()
        row = self.rows[table_id]
        self.rows[table_id] = TableRow(table_id, row.created_at, status or row.status,
                                       meta if meta is not None else row.meta, now)

    async def append(self, table_id: str, records: Sequence[LogRecord], *,
                     clock: bytes | None = None, now: float) -> None:
        await trio.lowlevel.checkpoint()
        log = self.logs[table_id]
        for r in records:
            if r.pos != len(log):
                raise StoreError(f"gap or duplicate at pos {r.pos}")
            log.append(r)
        if clock is not None:
            self.clocks[table_id] = (now, clock)
        self.appends += 1

    async def save_record(self, table_id: str, body: bytes) -> None:
        await trio.lowlevel.checkpoint()
        self.records[table_id] = body

    async def heartbeat(self, now: float) -> None:
        self.alive = now

    async def tables(self, statuses: Collection[str] | None = None) -> list[TableRow]:
        return [r for r in self.rows.values() if statuses is None or r.status in statuses]

    async def log(self, table_id: str, *, after_pos: int = -1) -> list[LogRecord]:
        return [r for r in self.logs[table_id] if r.pos > after_pos]

    async def clock(self, table_id: str) -> tuple[float, bytes] | None:
        return self.clocks.get(table_id)

    async def record(self, table_id: str) -> bytes | None:
        return self.records.get(table_id)

    async def last_heartbeat(self) -> float | None:
        return self.alive
