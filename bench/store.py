"""Store benchmark: batched appends vs one thread hop per record, on
SQLite and on PostgreSQL.

Many table tasks append to their own logs at once, each awaiting its commit
before the next append, as table actors do. The same workload runs on each
store twice:

- batched: the real store (src/oriente/server/stores/sqlite.py, src/oriente/server/stores/postgres.py),
  whose single writer commits everything queued so far in one transaction
  and one thread hop (for PostgreSQL, one pipelined round trip);
- naive: one ``trio.to_thread.run_sync`` hop and one transaction per append,
  serialised on one connection (what a straightforward store would do).

A third row per store shows the batched store with four records per append
(a command and its events), the usual shape of an actor's append.

PostgreSQL runs on ``--postgres URL`` (default: $ORIENTE_TEST_POSTGRES or
the local test database) in a schema of its own, dropped afterwards; it is
left out, and said so, when the database cannot be reached.

    python bench/store.py            # about 30 seconds
    python bench/store.py --quick    # a few seconds

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _installed  # noqa: F401  (first: says how to run it without the project installed)
import trio

from oriente.server.stores import LogRecord, SQLiteStore
from oriente.server.stores.batching import BatchingStore

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"

BODY = b"\x84" + b"x" * 80  # about the size of an encoded event


@dataclass
class Result:
    name: str
    tasks: int
    records: int
    seconds: float
    batches: int | None = None

    @property
    def records_per_s(self) -> float:
        return self.records / self.seconds if self.seconds else 0.0


class NaiveStore:
    """The baseline: a thread hop and a commit per append, same schema."""

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._limiter = trio.CapacityLimiter(1)

    def _append(self, table_id: str, records: Sequence[LogRecord]) -> None:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            (last,) = conn.execute("SELECT MAX(pos) FROM log WHERE table_id = ?", (table_id,)).fetchone()
            expected = 0 if last is None else last + 1
            if records[0].pos != expected:
                raise ValueError(f"gap or duplicate at {table_id}:{records[0].pos}")
            conn.executemany(
                "INSERT INTO log (table_id, pos, kind, seq, body) VALUES (?, ?, ?, ?, ?)",
                [(table_id, r.pos, r.kind, r.seq, r.body) for r in records],
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    async def append(self, table_id: str, records: Sequence[LogRecord], *, now: float) -> None:
        await trio.to_thread.run_sync(self._append, table_id, records, limiter=self._limiter)

    def close(self) -> None:
        self._conn.close()


async def _workload(
    append: Callable[..., Awaitable[None]], tasks: int, appends: int, per_append: int
) -> float:
    async def table(t: int) -> None:
        table_id = f"table-{t:05d}"
        for i in range(appends):
            first = i * per_append
            records = [LogRecord(first + k, "event", first + k, BODY) for k in range(per_append)]
            await append(table_id, records, now=1.0)

    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for t in range(tasks):
            nursery.start_soon(table, t)
    return time.perf_counter() - start


class NaivePostgres:
    """The baseline on PostgreSQL: a thread hop, a transaction and three
    round trips (the fenced tail check, the insert, the commit) per append."""

    def __init__(self, url: str, schema: str) -> None:
        import psycopg

        self._conn = psycopg.connect(url, autocommit=False)
        self._conn.execute(f'SET search_path TO "{schema}"')
        self._conn.commit()
        self._limiter = trio.CapacityLimiter(1)

    def _append(self, table_id: str, records: Sequence[LogRecord]) -> None:
        with self._conn.transaction():
            row = self._conn.execute("SELECT log_next FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
            if row is None or records[0].pos != row[0]:
                raise ValueError(f"gap or duplicate at {table_id}:{records[0].pos}")
            self._conn.cursor().executemany(
                "INSERT INTO log (table_id, pos, kind, seq, body) VALUES (%s, %s, %s, %s, %b)",
                [(table_id, r.pos, r.kind, r.seq, r.body) for r in records])
            self._conn.execute("UPDATE tables SET log_next = %s WHERE id = %s", (records[-1].pos + 1, table_id))

    async def append(self, table_id: str, records: Sequence[LogRecord], *, now: float) -> None:
        await trio.to_thread.run_sync(self._append, table_id, records, limiter=self._limiter)

    def close(self) -> None:
        self._conn.close()


async def _create_tables(store: Any, tasks: int) -> None:
    for t in range(tasks):
        await store.create_table(f"table-{t:05d}", "running", b"", now=0.0)


async def bench_batched(make: Callable[[], BatchingStore[Any]], tasks: int, appends: int,
                        per_append: int) -> Result:
    store = make()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await _create_tables(store, tasks)
        before = store.statistics()
        seconds = await _workload(store.append, tasks, appends, per_append)  # type: ignore[attr-defined]
        batches = store.statistics().batches - before.batches
        await store.aclose()
    name = f"batched, {per_append} rec/append"
    return Result(name, tasks, tasks * appends * per_append, seconds, batches)


async def bench_naive(make: Callable[[], BatchingStore[Any]], make_naive: Callable[[], Any], tasks: int,
                      appends: int) -> Result:
    store = make()  # only to create the schema and the tables
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await _create_tables(store, tasks)
        await store.aclose()
    naive = make_naive()
    try:
        seconds = await _workload(naive.append, tasks, appends, 1)
    finally:
        naive.close()
    return Result("naive, 1 hop per record", tasks, tasks * appends, seconds, tasks * appends)


def run_sqlite(tasks: int, batched_appends: int, naive_appends: int) -> list[Result]:
    with tempfile.TemporaryDirectory() as tmp:
        def at(name: str) -> str:
            return str(Path(tmp) / name)

        return [
            trio.run(bench_naive, lambda: SQLiteStore(at("naive.sqlite")), lambda: NaiveStore(at("naive.sqlite")),
                     tasks, naive_appends),
            trio.run(bench_batched, lambda: SQLiteStore(at("b1.sqlite")), tasks, batched_appends, 1),
            trio.run(bench_batched, lambda: SQLiteStore(at("b4.sqlite")), tasks, batched_appends // 4, 4),
        ]


def run_postgres(url: str, tasks: int, batched_appends: int, naive_appends: int) -> list[Result] | str:
    """The three rows on PostgreSQL, or why they could not be measured."""
    try:
        import psycopg

        from oriente.server.stores.postgres import PostgresStore
    except ImportError as exc:
        return f"psycopg is not installed ({exc})"
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"PostgreSQL at {url} is not reachable: {' '.join(str(exc).split())}"
    prefix = f"bench_store_{os.getpid()}_{uuid.uuid4().hex[:6]}_"
    schemas: list[str] = []

    def fresh(name: str) -> str:
        schemas.append(prefix + name)
        return prefix + name

    # A commit per append waits for its own WAL flush (a few ms): a tenth of
    # the appends gives the naive rate in seconds rather than minutes.
    naive_appends = max(2, naive_appends // 10)
    try:
        naive_schema = fresh("naive")
        return [
            trio.run(bench_naive, lambda: PostgresStore(url, schema=naive_schema),
                     lambda: NaivePostgres(url, naive_schema), tasks, naive_appends),
            trio.run(bench_batched, lambda: PostgresStore(url, schema=fresh("b1")), tasks, batched_appends, 1),
            trio.run(bench_batched, lambda: PostgresStore(url, schema=fresh("b4")), tasks, batched_appends // 4, 4),
        ]
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            for schema in schemas:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def table(results: list[Result]) -> str:
    lines = [f"{'workload':<26} {'tasks':>6} {'records':>8} {'seconds':>8} {'records/s':>10} {'rec/batch':>9}"]
    for r in results:
        per_batch = f"{r.records / r.batches:.1f}" if r.batches else "-"
        lines.append(
            f"{r.name:<26} {r.tasks:>6} {r.records:>8} {r.seconds:>8.3f} {r.records_per_s:>10.0f} {per_batch:>9}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller workload, a few seconds")
    parser.add_argument("--tasks", type=int, default=100, help="concurrent table tasks")
    parser.add_argument("--postgres", default=os.environ.get("ORIENTE_TEST_POSTGRES") or DEFAULT_POSTGRES,
                        metavar="URL", help="the PostgreSQL database to measure on (a schema of its own)")
    args = parser.parse_args(argv)
    tasks = args.tasks
    batched_appends = 100 if args.quick else 1000
    naive_appends = 20 if args.quick else 200

    sqlite_rows = run_sqlite(tasks, batched_appends, naive_appends)
    print("SQLite")
    print(table(sqlite_rows))
    postgres_rows = run_postgres(args.postgres, tasks, batched_appends, naive_appends)
    if isinstance(postgres_rows, str):
        print(f"PostgreSQL: left out, {postgres_rows}")
    else:
        print("PostgreSQL")
        print(table(postgres_rows))

    naive, batched, batched4 = sqlite_rows
    summary: dict[str, Any] = {
        "bench": "store",
        "records_per_s": round(batched.records_per_s),
        "naive_records_per_s": round(naive.records_per_s),
        "ratio": round(batched.records_per_s / naive.records_per_s, 2),
        "records_per_s_4_per_append": round(batched4.records_per_s),
        "records_per_batch": round(batched.records / batched.batches, 1) if batched.batches else None,
    }
    if isinstance(postgres_rows, str):
        summary["pg_records_per_s"] = None
    else:
        pg_naive, pg_batched, pg_batched4 = postgres_rows
        summary.update({
            "pg_records_per_s": round(pg_batched.records_per_s),
            "pg_naive_records_per_s": round(pg_naive.records_per_s),
            "pg_ratio": round(pg_batched.records_per_s / pg_naive.records_per_s, 2),
            "pg_records_per_s_4_per_append": round(pg_batched4.records_per_s),
            "pg_records_per_batch": (round(pg_batched.records / pg_batched.batches, 1)
                                     if pg_batched.batches else None),
            "pg_vs_sqlite": round(pg_batched.records_per_s / batched.records_per_s, 2),
        })
    summary.update({"tasks": tasks, "sqlite": sqlite3.sqlite_version, "python": platform.python_version()})
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
