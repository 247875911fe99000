"""The SQLite store on a real file: what only a store on disk can show —
its schema and migrations, batching, shutdown, durability across processes
and crashes, and the lock that keeps a second server out. The guarantees
every store keeps are tested once for all in test_store_contract.py."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing

from oriente.server.stores import LogRecord, SeatRow, SQLiteStore, StoreError, StoreLocked
from oriente.server.stores import sqlite as sqlite_store
from oriente.server.stores.sqlite import SCHEMA_VERSION

pytestmark = pytest.mark.trio

def rec(pos: int, kind: str = "event", seq: int | None = None) -> LogRecord:
    return LogRecord(pos=pos, kind=kind, seq=pos if seq is None and kind == "event" else seq, body=b"body-%d" % pos)


@asynccontextmanager
async def running(store: SQLiteStore) -> AsyncIterator[SQLiteStore]:
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        try:
            yield store
        finally:
            await store.aclose()


class GatedStore(SQLiteStore):
    """A store whose writer thread can be held at a gate with the connection
    (as a long read or a backup holds it), so that a test can line
    requests up behind it: writes then go to the thread and wait there."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()
        self.entered = threading.Event()  # the writer thread reached the gate

    def hold(self, conn: object) -> None:
        self.entered.set()
        assert self.gate.wait(timeout=20), "test left the gate closed"


@asynccontextmanager
async def plugged(store: GatedStore) -> AsyncIterator[None]:
    """Hold the writer thread, with the connection, until the block ends, so
    that everything submitted meanwhile waits in its queue."""
    store.gate.clear()
    try:
        store.entered.clear()
        store._chore(store.hold)
        # The writer is a thread: wait for it to take the call, not for trio's tasks.
        assert await trio.to_thread.run_sync(store.entered.wait, 20), "the writer never took the call"
        yield
    finally:
        store.gate.set()


async def test_schema_is_created_in_wal_mode(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(SQLiteStore(path)):
        pass
    conn = sqlite3.connect(path)
    try:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"tables", "log", "clocks", "records", "heartbeat"} <= names
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        log_columns = [row[1] for row in conn.execute("PRAGMA table_info(log)")]
        assert log_columns == ["table_id", "pos", "kind", "seq", "body"]
    finally:
        conn.close()


async def test_opening_twice_keeps_data_and_schema(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(SQLiteStore(path)) as store:
        await store.create_table("t", "open", b"meta", now=1.0)
    async with running(SQLiteStore(path)) as store:
        assert await store.table("t") is not None


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    store = SQLiteStore(path)
    with pytest.raises(StoreError, match="newer"):
        await store.run()
    with pytest.raises(StoreError, match="closed"):
        await store.heartbeat(1.0)


async def test_a_second_store_on_the_same_file_refuses_to_run(tmp_path: Path) -> None:
    """Guarantee 6 in one process: two opens of one file, the second refused
    with a message that says what to do; once the first closes, it opens."""
    path = str(tmp_path / "s.sqlite")
    async with running(SQLiteStore(path)) as first:
        await first.create_table("t", "open", b"", now=0.0)
        second = SQLiteStore(path)
        with pytest.raises(StoreLocked, match="in use by another server"):
            await second.run()
        with pytest.raises(StoreError, match="closed"):
            await second.table("t")
        assert await first.table("t") is not None, "the refused store must not disturb the running one"
    async with running(SQLiteStore(path)) as third:
        assert await third.table("t") is not None


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


async def test_a_schema_1_file_is_migrated_and_keeps_its_tables(tmp_path: Path) -> None:
    """tests/fixtures/store_v1.sqlite was written by the server before tables
    could fail (schema 1: a CHECK constraint without 'failed'). It opens,
    every row and log survives, and a table can then be marked failed."""
    path = tmp_path / "old.sqlite"
    path.write_bytes((FIXTURES / "store_v1.sqlite").read_bytes())
    before = sqlite3.connect(path)
    try:
        assert before.execute("PRAGMA user_version").fetchone()[0] == 1
        rows = before.execute("SELECT id, created_at, status, meta, updated_at FROM tables ORDER BY id").fetchall()
        logs = before.execute("SELECT table_id, count(*) FROM log GROUP BY table_id ORDER BY table_id").fetchall()
    finally:
        before.close()
    async with running(SQLiteStore(str(path))) as store:
        assert [(t.id, t.created_at, t.status, t.meta, t.updated_at) for t in await store.tables()] == sorted(
            rows, key=lambda r: (r[1], r[0]))
        assert [(t, len(await store.log(t))) for t, _ in logs] == logs
        await store.update_table(rows[0][0], status="failed", now=1.0)
        # The tables made where missing since: the index of seats by account.
        await store.save_seats(rows[0][0], [SeatRow("a1", rows[0][0], 0, True, 2.0, None, True, False, 2.0)])
        assert [r.seat for r in await store.account_seats("a1", 5)] == [0]
    after = sqlite3.connect(path)
    try:
        assert after.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert after.execute("PRAGMA foreign_key_check").fetchall() == []
        assert after.execute("SELECT count(*) FROM tables WHERE status = 'failed'").fetchone()[0] == 1
        assert {r[0] for r in after.execute("SELECT name FROM sqlite_master WHERE type = 'index'")} >= {
            "tables_by_status"}
    finally:
        after.close()


async def test_gap_and_duplicate_fail_alone_in_their_batch(tmp_path: Path) -> None:
    """Bad writes raise in their own callers; the good writes submitted in
    the same batch still commit."""
    async with running(SQLiteStore(str(tmp_path / "s.sqlite"))) as store:
        for t in range(12):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
            await store.append(f"t{t}", [rec(0), rec(1)], now=0.0)
        before = store.statistics()
        outcomes: dict[str, BaseException | None] = {}

        async def submit(name: str, table_id: str, records: list[LogRecord]) -> None:
            try:
                await store.append(table_id, records, clock=b"clock", now=5.0)
            except StoreError as exc:
                outcomes[name] = exc
            else:
                outcomes[name] = None

        # start_soon'd tasks all run in the scheduler's next batch, so every
        # request is queued before the writer wakes: one transaction holds all.
        async with trio.open_nursery() as nursery:
            for t in range(10):
                nursery.start_soon(submit, f"good{t}", f"t{t}", [rec(2), rec(3)])
            nursery.start_soon(submit, "gap", "t10", [rec(3)])
            nursery.start_soon(submit, "duplicate", "t11", [rec(1), rec(2)])
            nursery.start_soon(submit, "unknown", "nope", [rec(0)])
        after = store.statistics()
        assert after.batches == before.batches + 1
        assert after.failed_writes == before.failed_writes + 3

        assert "gap" in str(outcomes.pop("gap"))
        assert "duplicate" in str(outcomes.pop("duplicate"))
        assert "unknown table" in str(outcomes.pop("unknown"))
        assert outcomes == {f"good{t}": None for t in range(10)}
        for t in range(10):
            assert [r.pos for r in await store.log(f"t{t}")] == [0, 1, 2, 3]
            assert await store.clock(f"t{t}") == (5.0, b"clock")
        for t in (10, 11):
            assert [r.pos for r in await store.log(f"t{t}")] == [0, 1]
            assert await store.clock(f"t{t}") is None

        # The store is still healthy, and the log continues where it should.
        await store.append("t10", [rec(2)], now=6.0)
        assert [r.pos for r in await store.log("t10")] == [0, 1, 2]


async def test_one_batch_applies_requests_in_submission_order(tmp_path: Path) -> None:
    """Two appends to one log in one batch behave as if committed one after
    the other, also when a failing request between them forces the batch to
    be replayed request by request."""
    store = GatedStore(str(tmp_path / "s.sqlite"))
    async with running(store):
        await store.create_table("t", "running", b"", now=0.0)
        errors: list[StoreError] = []

        async def append(records: list[LogRecord]) -> None:
            try:
                await store.append("t", records, now=1.0)
            except StoreError as exc:
                errors.append(exc)

        async with trio.open_nursery() as nursery, plugged(store):
            for records in ([rec(0), rec(1)], [rec(7)], [rec(2), rec(3)]):
                nursery.start_soon(append, records)
                await trio.testing.wait_all_tasks_blocked()
            assert store.statistics().queued == 3
        assert [r.pos for r in await store.log("t")] == [0, 1, 2, 3]
        assert len(errors) == 1 and "gap" in str(errors[0])
        assert store.statistics().max_batch == 3


class ThreadsSeen(SQLiteStore):
    """A store that notes which thread commits each batch and which runs
    each checkpoint."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.batch_threads: list[threading.Thread] = []
        self.checkpoint_threads: list[threading.Thread] = []

    def _apply_batch(self, batch: list) -> None:  # type: ignore[override]
        self.batch_threads.append(threading.current_thread())
        super()._apply_batch(batch)

    def _checkpoint(self) -> None:
        self.checkpoint_threads.append(threading.current_thread())
        super()._checkpoint()


async def test_the_writes_of_one_pass_commit_on_trios_thread_in_one_batch(tmp_path: Path) -> None:
    """Every write submitted while trio runs one pass of its tasks is
    committed in one transaction, on trio's own thread (no thread hand-over,
    no wait for the GIL): a store on a thread commits elsewhere."""
    async with running(ThreadsSeen(str(tmp_path / "s.sqlite"))) as store:
        for t in range(20):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        before = store.statistics()
        async with trio.open_nursery() as nursery:
            for t in range(20):
                nursery.start_soon(partial(store.append, f"t{t}", [rec(0), rec(1)], now=1.0))
        after = store.statistics()
        assert (after.batches - before.batches, after.writes - before.writes, after.max_batch) == (1, 20, 20)
        assert set(store.batch_threads) == {threading.current_thread()}
        for t in range(20):
            assert [r.pos for r in await store.log(f"t{t}")] == [0, 1]


async def test_the_wal_is_checkpointed_on_the_stores_thread_never_inside_a_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's automatic checkpoint, which would flush the disk inside a
    COMMIT on trio's thread, is off; the store queues a checkpoint to its
    own thread after every CHECKPOINT_COMMITS commits, and that checkpoint,
    on a connection of its own, copies what the writer committed."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_COMMITS", 5)
    async with running(ThreadsSeen(str(tmp_path / "s.sqlite"))) as store:
        assert await store._on_write_connection(
            lambda conn: conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]) == 0
        await store.create_table("t", "running", b"", now=0.0)
        for pos in range(14):
            await store.append("t", [rec(pos)], now=1.0)
            if pos in (3, 8):  # the 5th and 10th commits
                await store._on_write_connection(lambda conn: None)  # after the checkpoint just queued
                assert store.checkpoints == (1 if pos == 3 else 2)
        assert store.wal_frames_copied == store.wal_frames > 0  # nothing committed meanwhile: all of it
        assert store.catch_ups == 0
        assert store.checkpoint_threads and threading.current_thread() not in store.checkpoint_threads
        assert [r.pos for r in await store.log("t")] == list(range(14))


class GatedThreadsSeen(GatedStore, ThreadsSeen):
    """A gated store that notes which thread commits each batch."""


async def test_writes_wait_on_trios_thread_for_a_call_holding_the_connection(tmp_path: Path) -> None:
    """While a call on the store's thread holds the connection (a checkpoint
    catching up, a backup), the writes submitted meanwhile wait for it on
    trio's thread and are committed there in one batch once it lets go. They
    used to queue behind it on the thread, where each statement waited for
    the GIL (up to 5 ms while trio's thread is busy) and the tables' commits
    stayed slow long after the call had ended."""
    store = GatedThreadsSeen(str(tmp_path / "s.sqlite"))
    async with running(store):
        for t in range(5):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        store.batch_threads.clear()
        before = store.statistics()
        with trio.fail_after(20):  # a guard against a lost wake-up, not a time limit
            async with trio.open_nursery() as nursery, plugged(store):
                for t in range(5):
                    nursery.start_soon(partial(store.append, f"t{t}", [rec(0)], now=1.0))
                    await trio.testing.wait_all_tasks_blocked()
                assert store.statistics().writes == before.writes  # none committed while it holds
            # The gate opened at the block's end: the thread let go and woke the
            # committer, with nothing else submitted, and the writes committed.
        after = store.statistics()
        assert (after.batches - before.batches, after.writes - before.writes) == (1, 5)
        assert store.batch_threads == [threading.current_thread()]
        for t in range(5):
            assert await store.log(f"t{t}") == [rec(0)]


async def test_writes_that_waited_for_one_call_go_behind_the_next_in_order(tmp_path: Path) -> None:
    """Writes wait on trio's thread for one call, not for a stream of
    them: if the thread has gone on to another call when it lets go of the
    first, the writes go behind its queue, so a call submitted after that
    sees them committed. Waiting again and again, they could have waited for
    ever behind a stream of reads."""
    store = GatedThreadsSeen(str(tmp_path / "s.sqlite"))
    gates = {name: (threading.Event(), threading.Event()) for name in ("first", "next")}

    def hold(name: str) -> Callable[[object], None]:
        entered, gate = gates[name]

        def held(conn: object) -> None:
            entered.set()
            assert gate.wait(20), "test left the gate closed"
        return held

    async with running(store):
        await store.create_table("t", "running", b"", now=0.0)
        with trio.fail_after(20):  # a guard against a lost wake-up, not a time limit
            async with trio.open_nursery() as nursery:
                store._chore(hold("first"))
                assert await trio.to_thread.run_sync(gates["first"][0].wait, 20)
                nursery.start_soon(partial(store.append, "t", [rec(0)], now=1.0))
                await trio.testing.wait_all_tasks_blocked()  # the write waits for the first call
                store._chore(hold("next"))
                gates["first"][1].set()
                assert await trio.to_thread.run_sync(gates["next"][0].wait, 20)
                await trio.testing.wait_all_tasks_blocked()  # woken: the connection is the next call's
                seen: list[int] = []

                async def count() -> None:
                    seen.append(await store._on_write_connection(
                        lambda conn: conn.execute("SELECT count(*) FROM log WHERE table_id = 't'").fetchone()[0]))

                nursery.start_soon(count)
                await trio.testing.wait_all_tasks_blocked()
                gates["next"][1].set()
        assert seen == [1], "a call submitted after the write ran before it"
        assert [r.pos for r in await store.log("t")] == [0]


class LockSeen(SQLiteStore):
    """A store that notes, for each passive checkpoint, whether it held the
    writer's connection."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.held: list[bool] = []

    def _passive(self) -> tuple[int, int]:
        self.held.append(self._connection_lock.locked())
        return super()._passive()


async def test_a_long_wal_is_caught_up_holding_the_writer_so_that_it_starts_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checkpoints beside the commits rarely copy the frames committed
    meanwhile, and the WAL starts over only once all of it is copied: left
    alone it grew without end. Once it is WAL_RESTART_FRAMES long, the
    checkpoint copies the rest holding the writer's connection, and the
    next commit starts the WAL from its beginning again."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_COMMITS", 10)
    monkeypatch.setattr(sqlite_store, "WAL_RESTART_FRAMES", 1)
    async with running(LockSeen(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "running", b"", now=0.0)
        for pos in range(9):
            await store.append("t", [rec(pos)], now=1.0)
        await store._on_write_connection(lambda conn: None)  # after the checkpoint just queued
        assert (store.checkpoints, store.catch_ups, store.held) == (1, 1, [False, True])
        first = store.wal_frames
        assert store.wal_frames_copied == first > 0
        for pos in range(9, 12):
            await store.append("t", [rec(pos)], now=1.0)
        # Three commits on an empty WAL make it shorter than ten did.
        await trio.to_thread.run_sync(store._checkpoint)
        assert 0 < store.wal_frames < first, "the WAL did not start over"
        assert [r.pos for r in await store.log("t")] == list(range(12))
        # An operator sees the same on /metrics.
        seen = dict(line.split() for line in store.metrics() if not line.startswith("#"))
        assert seen["oriente_store_checkpoints_total"] == "2" and seen["oriente_store_wal_catch_ups_total"] == "2"
        assert seen["oriente_store_wal_frames"] == str(store.wal_frames)
        assert seen["oriente_store_records_total"] == "12" and seen["oriente_store_failed_writes_total"] == "0"


class SlowCheckpoint(GatedStore):
    """A store whose checkpoint waits at the gate, as one flushing a slow
    disk does (it holds no connection of the writer's meanwhile)."""

    def _checkpoint(self) -> None:
        self.hold(None)
        super()._checkpoint()


async def test_commits_go_on_while_the_wal_is_checkpointed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint flushes the disk (4-8 ms under load, far more on a slow
    disk). It runs on a connection of its own, so a step's commit never
    waits for it: it used to hold the writer's connection, and the writes
    of every step meanwhile queued behind it."""
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_COMMITS", 2)
    async with running(SlowCheckpoint(str(tmp_path / "s.sqlite"))) as store:
        store.gate.clear()
        try:
            await store.create_table("t", "running", b"", now=0.0)
            await store.append("t", [rec(0)], now=1.0)  # the second commit queues a checkpoint
            assert await trio.to_thread.run_sync(store.entered.wait, 20), "no checkpoint began"
            committed: list[int] = []

            async def writer(pos: int) -> None:
                await store.append("t", [rec(pos)], now=1.0)
                committed.append(pos)

            async with trio.open_nursery() as nursery:
                for pos in (1, 2, 3):
                    nursery.start_soon(writer, pos)  # one at a time, in order: positions must follow
                    await trio.testing.wait_all_tasks_blocked()
                    assert committed == list(range(1, pos + 1)), "a commit waited for the checkpoint"
            assert store.checkpoints == 0  # still at its gate
        finally:
            store.gate.set()
        assert [r.pos for r in await store.log("t")] == [0, 1, 2, 3]


class Uncommitted(SQLiteStore):
    """A store whose committer never runs: what is submitted stays pending."""

    async def _committer(self) -> None:
        await trio.sleep_forever()


async def test_writes_pending_on_trios_thread_are_committed_when_the_store_stops(tmp_path: Path) -> None:
    """A write submitted and not yet committed when the store is cancelled
    (or closed) is still committed: its caller was promised a commit."""
    path = str(tmp_path / "s.sqlite")
    store = Uncommitted(path)
    done: list[int] = []

    async def writer(t: int) -> None:
        await store.append(f"t{t}", [rec(0)], now=1.0)
        done.append(t)

    async with trio.open_nursery() as outer, trio.open_nursery() as inner:
        await inner.start(store.run)
        async with trio.open_nursery() as setup:
            for t in range(5):
                setup.start_soon(partial(store.create_table, f"t{t}", "running", b"", now=0.0))
                await trio.testing.wait_all_tasks_blocked()
                store._commit_pending()  # the committer's work, for the set-up only
        for t in range(5):
            outer.start_soon(writer, t)
        await trio.testing.wait_all_tasks_blocked()
        assert store.statistics().queued == 5 and not done
        inner.cancel_scope.cancel()
    assert sorted(done) == list(range(5))
    async with running(SQLiteStore(path)) as reopened:
        for t in range(5):
            assert await reopened.log(f"t{t}") == [rec(0)]


async def test_many_concurrent_writers_are_batched(tmp_path: Path) -> None:
    tasks, per_task = 50, 200
    async with running(SQLiteStore(str(tmp_path / "s.sqlite"))) as store:
        for t in range(tasks):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        before = store.statistics()

        async def writer(t: int) -> None:
            for pos in range(per_task):
                await store.append(f"t{t}", [LogRecord(pos, "event", pos, b"%d:%d" % (t, pos))], now=1.0)

        async with trio.open_nursery() as nursery:
            for t in range(tasks):
                nursery.start_soon(writer, t)

        stats = store.statistics()
        total = tasks * per_task
        assert stats.records - before.records == total
        batches = stats.batches - before.batches
        assert batches <= total // 10, stats
        assert stats.max_batch > 10
        assert stats.queued == 0 and stats.in_flight == 0
        for t in range(tasks):
            log = await store.log(f"t{t}")
            assert log == [LogRecord(pos, "event", pos, b"%d:%d" % (t, pos)) for pos in range(per_task)]


async def test_batches_of_any_size_go_in_by_inserts_of_a_few_sizes(tmp_path: Path) -> None:
    """SQLite keeps every statement it compiled (the connection's statement
    cache, about 0.6 KiB a row for the log's multi-row INSERT): one of each
    batch size that ever came up held megabytes. Batches of 1 to 1,200 rows
    are written by INSERTs of a few sizes, and every row lands, in order."""
    counts = list(range(1, 1200, 7))
    statements: set[int] = set()

    def traced(sql: str) -> None:
        if sql.startswith("INSERT INTO log "):
            statements.add(sql.count("),(") + 1)

    async with running(SQLiteStore(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "running", b"", now=0.0)
        conn = store._write_conn
        assert conn is not None
        conn.set_trace_callback(traced)
        pos = 0
        for count in counts:
            await store.append("t", [rec(p) for p in range(pos, pos + count)], now=1.0)
            pos += count
        conn.set_trace_callback(None)
        assert await store.log("t") == [rec(p) for p in range(pos)]
    assert statements <= {*range(1, 16), 16, 32, 64, 128, 256, 512}, sorted(statements)
    assert len(statements) > 6  # the trace saw the batches


async def test_durable_across_close_and_reopen(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(SQLiteStore(path)) as store:
        await store.create_table("t", "running", b"meta", now=1.0)
        await store.append("t", [rec(0, "cmd", None), rec(1)], clock=b"clock", now=2.0)
        await store.update_table("t", status="finished", now=3.0)
        await store.save_record("t", b"record")
        await store.heartbeat(4.0)

    async with running(SQLiteStore(path)) as store:
        assert await store.log("t") == [rec(0, "cmd", None), rec(1)]
        assert await store.clock("t") == (2.0, b"clock")
        row = await store.table("t")
        assert row is not None and (row.status, row.meta, row.updated_at) == ("finished", b"meta", 3.0)
        assert await store.record("t") == b"record"
        assert await store.last_heartbeat() == 4.0
        await store.append("t", [rec(2)], now=5.0)
        assert len(await store.log("t")) == 3


async def test_aclose_flushes_queued_writes(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    store = GatedStore(path)
    committed: list[int] = []

    async def writer(t: int) -> None:
        await store.append(f"t{t}", [rec(0)], now=1.0)
        committed.append(t)

    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        for t in range(20):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        async with plugged(store):
            for t in range(20):
                nursery.start_soon(writer, t)
            await trio.testing.wait_all_tasks_blocked()
            assert store.statistics().queued == 20
            nursery.start_soon(store.aclose)
            await trio.testing.wait_all_tasks_blocked()
            with pytest.raises(StoreError, match="store is closed"):
                await store.heartbeat(2.0)
        # Leaving the nursery waits for aclose, which waits for the flush.
    assert sorted(committed) == list(range(20))

    async with running(SQLiteStore(path)) as reopened:
        for t in range(20):
            assert await reopened.log(f"t{t}") == [rec(0)]


async def test_cancelling_run_still_flushes_queued_writes(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    store = GatedStore(path)
    async with trio.open_nursery() as outer, trio.open_nursery() as inner:
        await inner.start(store.run)
        for t in range(5):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        async with plugged(store):
            for t in range(5):
                outer.start_soon(partial(store.append, f"t{t}", [rec(0)], now=1.0))
            await trio.testing.wait_all_tasks_blocked()
            assert store.statistics().queued == 5
            inner.cancel_scope.cancel()
    assert store.statistics().writes == 5 + 5
    with pytest.raises(StoreError, match="store is closed"):
        await store.append("t0", [rec(1)], now=2.0)

    async with running(SQLiteStore(path)) as reopened:
        for t in range(5):
            assert await reopened.log(f"t{t}") == [rec(0)]


CRASH_SCRIPT = """
import sys, trio
from oriente.server.stores import LogRecord, SQLiteStore

async def main(path):
    store = SQLiteStore(path)
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        for t in range(8):
            await store.create_table(f"t{t}", "running", b"", now=0.0)
        print("ready", flush=True)

        async def writer(t):
            pos = 0
            while True:
                body = b"%d" % pos
                await store.append(f"t{t}", [LogRecord(pos, "event", pos, body)], clock=body, now=float(pos))
                print(t, pos, flush=True)
                pos += 1

        for t in range(8):
            nursery.start_soon(writer, t)

trio.run(main, sys.argv[1])
"""


SERVE = [sys.executable, "-m", "oriente.cli", "serve", "--port", "0", "--quiet"]


async def test_a_second_server_on_the_same_store_refuses_to_start(tmp_path: Path) -> None:
    """Guarantee 6 across processes: `oriente serve` on a store another
    server holds exits at once with status 1 and one clear line, no
    traceback; the first server is undisturbed."""
    with trio.fail_after(90):
        await trio.to_thread.run_sync(_two_servers, str(tmp_path / "s.sqlite"))


def _two_servers(store: str) -> None:
    first = subprocess.Popen([*SERVE, "--store", store], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first.stdout is not None
        line = first.stdout.readline()
        assert line.startswith("serving ws://"), line
        second = subprocess.run([*SERVE, "--store", store], capture_output=True, text=True, timeout=60)
        assert second.returncode == 1
        assert "in use by another server" in second.stderr and "Traceback" not in second.stderr
        assert second.stdout == ""
        assert first.poll() is None
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(30) == 0
        for stream in (first.stdout, first.stderr):
            if stream is not None:
                stream.close()


def run_and_kill(path: str, wanted: int) -> dict[int, int]:
    """Run a writer process, SIGKILL it once it has reported ``wanted``
    commits, and return the highest pos it reported committed per table."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_SCRIPT, path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.strip() == "ready", first + (proc.stderr.read() if proc.stderr else "")
        while len(lines) < wanted:
            line = proc.stdout.readline()
            assert line, "writer process died early"
            lines.append(line)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        # Lines still in the pipe were printed after their commits too; the
        # last may be cut short by the kill (no newline): it claims nothing.
        lines.extend(proc.stdout.read().split("\n")[:-1])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == -signal.SIGKILL
    highest: dict[int, int] = {}
    for line in lines:
        if line.strip():
            t, pos = map(int, line.split())
            highest[t] = max(highest.get(t, -1), pos)
    return highest


async def test_every_reported_commit_survives_sigkill(tmp_path: Path) -> None:
    path = str(tmp_path / "crash.sqlite")
    with trio.fail_after(120):
        highest = await trio.to_thread.run_sync(run_and_kill, path, 2000)
    async with running(SQLiteStore(path)) as store:
        totals = 0
        for t in range(8):
            log = await store.log(f"t{t}")
            totals += len(log)
            assert [r.pos for r in log] == list(range(len(log)))
            assert [r.body for r in log] == [b"%d" % pos for pos in range(len(log))]
            assert len(log) > highest.get(t, -1), (t, highest.get(t), len(log))
            clock = await store.clock(f"t{t}")
            if log:
                assert clock == (float(len(log) - 1), b"%d" % (len(log) - 1))
        assert totals >= 2000


async def test_a_backup_taken_while_tables_write_is_a_consistent_copy(tmp_path: Path) -> None:
    """Between two batches: every table's log in the copy is whole up to
    some position (no gap, no half batch), and the copy opens by itself."""
    path = str(tmp_path / "s.sqlite")
    async with running(SQLiteStore(path)) as store:
        for t in range(8):
            await store.create_table(f"t{t}", "running", b"", now=0.0)

        async def writer(t: int) -> None:
            for pos in range(200):
                await store.append(f"t{t}", [rec(pos)], now=float(pos))

        async with trio.open_nursery() as nursery:
            for t in range(8):
                nursery.start_soon(writer, t)
            await trio.sleep(0.01)
            size = await store.backup(f"{path}.backup")
        assert size > 0 and not Path(f"{path}.backup.partial").exists()
        assert len(await store.log("t0")) == 200, "the store itself went on"
    copy = sqlite3.connect(f"{path}.backup")
    try:
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        for t in range(8):
            positions = [r[0] for r in copy.execute("SELECT pos FROM log WHERE table_id = ? ORDER BY pos", (f"t{t}",))]
            assert positions == list(range(len(positions)))
    finally:
        copy.close()
