"""Store benchmark: batched appends vs one thread hop per record.

Many table tasks append to their own logs at once, each awaiting its commit
before the next append, as table actors do. The same workload runs twice:

- batched: the real SQLiteStore (server/stores/sqlite.py), whose single writer commits
  everything queued so far in one transaction and one thread hop;
- naive: one ``trio.to_thread.run_sync`` hop and one transaction per append,
  serialised on one connection (what a straightforward store would do).

A third row shows the batched store with four records per append (a command
and its events), the usual shape of an actor's append.

    python bench/store.py            # about 15 seconds
    python bench/store.py --quick    # a few seconds

The last line printed is one line of JSON with the figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from oriente.server.stores import LogRecord, SQLiteStore

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


async def _create_tables(store: SQLiteStore, tasks: int) -> None:
    for t in range(tasks):
        await store.create_table(f"table-{t:05d}", "running", b"", now=0.0)


async def bench_batched(path: str, tasks: int, appends: int, per_append: int) -> Result:
    store = SQLiteStore(path)
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await _create_tables(store, tasks)
        before = store.statistics()
        seconds = await _workload(store.append, tasks, appends, per_append)
        batches = store.statistics().batches - before.batches
        await store.aclose()
    name = f"batched, {per_append} rec/append"
    return Result(name, tasks, tasks * appends * per_append, seconds, batches)


async def bench_naive(path: str, tasks: int, appends: int) -> Result:
    store = SQLiteStore(path)  # only to create the schema and the tables
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await _create_tables(store, tasks)
        await store.aclose()
    naive = NaiveStore(path)
    try:
        seconds = await _workload(naive.append, tasks, appends, 1)
    finally:
        naive.close()
    return Result("naive, 1 hop per record", tasks, tasks * appends, seconds, tasks * appends)


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
    args = parser.parse_args(argv)
    tasks = args.tasks
    batched_appends = 100 if args.quick else 1000
    naive_appends = 20 if args.quick else 200

    results: list[Result] = []
    with tempfile.TemporaryDirectory() as tmp:
        results.append(trio.run(bench_naive, str(Path(tmp) / "naive.sqlite"), tasks, naive_appends))
        results.append(trio.run(bench_batched, str(Path(tmp) / "b1.sqlite"), tasks, batched_appends, 1))
        results.append(trio.run(bench_batched, str(Path(tmp) / "b4.sqlite"), tasks, batched_appends // 4, 4))
    print(table(results))

    naive, batched, batched4 = results
    summary = {
        "bench": "store",
        "records_per_s": round(batched.records_per_s),
        "naive_records_per_s": round(naive.records_per_s),
        "ratio": round(batched.records_per_s / naive.records_per_s, 2),
        "records_per_s_4_per_append": round(batched4.records_per_s),
        "records_per_batch": round(batched.records / batched.batches, 1) if batched.batches else None,
        "tasks": tasks,
        "sqlite": sqlite3.sqlite_version,
        "python": platform.python_version(),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
