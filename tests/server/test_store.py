"""The durable store on a real SQLite file: batching, isolation of bad
writes, atomicity, shutdown and crash durability."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import pytest
import trio
import trio.testing

from oriente.server.store import LogRecord, Store, StoreError

pytestmark = pytest.mark.trio

STATUSES = ("open", "running", "finished", "abandoned")


def rec(pos: int, kind: str = "event", seq: int | None = None) -> LogRecord:
    return LogRecord(pos=pos, kind=kind, seq=pos if seq is None and kind == "event" else seq, body=b"body-%d" % pos)


@asynccontextmanager
async def running(store: Store) -> AsyncIterator[Store]:
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        try:
            yield store
        finally:
            await store.aclose()


class GatedStore(Store):
    """A store whose writer thread waits at a gate before each batch, so that
    a test can line requests up behind a batch that is in flight."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.gate = threading.Event()
        self.gate.set()

    def _apply_batch(self, batch: list) -> None:  # type: ignore[override]
        assert self.gate.wait(timeout=20), "test left the gate closed"
        super()._apply_batch(batch)


@asynccontextmanager
async def plugged(store: GatedStore, nursery: trio.Nursery, table_id: str, pos: int) -> AsyncIterator[None]:
    """Hold the writer inside a batch (one append to ``table_id``) until the
    block ends, so that everything submitted meanwhile waits in the queue."""
    store.gate.clear()
    try:
        nursery.start_soon(partial(store.append, table_id, [rec(pos)], now=1.0))
        await trio.testing.wait_all_tasks_blocked()
        assert store.statistics().in_flight == 1
        yield
    finally:
        store.gate.set()


async def test_schema_is_created_in_wal_mode(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(Store(path)):
        pass
    conn = sqlite3.connect(path)
    try:
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"tables", "log", "clocks", "records", "heartbeat"} <= names
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        log_columns = [row[1] for row in conn.execute("PRAGMA table_info(log)")]
        assert log_columns == ["table_id", "pos", "kind", "seq", "body"]
    finally:
        conn.close()


async def test_opening_twice_keeps_data_and_schema(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(Store(path)) as store:
        await store.create_table("t", "open", b"meta", now=1.0)
    async with running(Store(path)) as store:
        assert await store.table("t") is not None


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    store = Store(path)
    with pytest.raises(StoreError, match="newer"):
        await store.run()
    with pytest.raises(StoreError, match="closed"):
        await store.heartbeat(1.0)


async def test_append_and_read_back(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t1", "open", b"\x81\xa1a\x01", now=10.0)
        records = [rec(0, "cmd", None), rec(1), rec(2), rec(3, "cmd", None)]
        await store.append("t1", records[:2], now=11.0)
        await store.append("t1", records[2:], now=12.0)
        assert await store.log("t1") == records
        assert await store.log("t1", after_pos=1) == records[2:]
        assert await store.log("t1", after_pos=3) == []
        assert await store.log("nope") == []

        row = await store.table("t1")
        assert row is not None
        assert (row.id, row.created_at, row.status, row.meta, row.updated_at) == (
            "t1",
            10.0,
            "open",
            b"\x81\xa1a\x01",
            10.0,
        )
        assert await store.table("nope") is None


async def test_update_table_and_status_filter(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        for index, status in enumerate(STATUSES):
            await store.create_table(f"t{index}", status, b"m%d" % index, now=float(index))
        assert [t.id for t in await store.tables()] == ["t0", "t1", "t2", "t3"]
        assert [t.id for t in await store.tables({"open", "running"})] == ["t0", "t1"]
        assert await store.tables([]) == []

        await store.update_table("t0", status="running", now=50.0)
        await store.update_table("t1", meta=b"new", now=51.0)
        t0, t1 = await store.table("t0"), await store.table("t1")
        assert t0 is not None and (t0.status, t0.meta, t0.updated_at) == ("running", b"m0", 50.0)
        assert t1 is not None and (t1.status, t1.meta, t1.updated_at) == ("running", b"new", 51.0)
        assert t0.created_at == 0.0

        with pytest.raises(StoreError, match="unknown table"):
            await store.update_table("nope", status="finished", now=1.0)
        with pytest.raises(ValueError, match="status"):
            await store.update_table("t0", status="paused", now=1.0)
        with pytest.raises(ValueError, match="status"):
            await store.create_table("t9", "paused", b"", now=1.0)
        with pytest.raises(StoreError, match="already exists"):
            await store.create_table("t0", "open", b"", now=1.0)
        with pytest.raises(TypeError, match="bytes"):
            await store.create_table("t9", "open", "not bytes", now=1.0)  # type: ignore[arg-type]


async def test_gap_and_duplicate_fail_alone_in_their_batch(tmp_path: Path) -> None:
    """Bad writes raise in their own callers; the good writes submitted in
    the same batch still commit."""
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
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


async def test_records_that_skip_among_themselves_are_refused_before_queueing(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "running", b"", now=0.0)
        with pytest.raises(StoreError, match="consecutive"):
            await store.append("t", [rec(0), rec(2)], now=0.0)
        with pytest.raises(TypeError, match="bytes"):
            await store.append("t", [LogRecord(0, "cmd", None, "text")], now=0.0)  # type: ignore[arg-type]
        assert store.statistics().failed_writes == 0
        assert await store.log("t") == []


async def test_one_batch_applies_requests_in_submission_order(tmp_path: Path) -> None:
    """Two appends to one log in one batch behave as if committed one after
    the other, also when a failing request between them forces the batch to
    be replayed request by request."""
    store = GatedStore(str(tmp_path / "s.sqlite"))
    async with running(store):
        await store.create_table("plug", "running", b"", now=0.0)
        await store.create_table("t", "running", b"", now=0.0)
        errors: list[StoreError] = []

        async def append(records: list[LogRecord]) -> None:
            try:
                await store.append("t", records, now=1.0)
            except StoreError as exc:
                errors.append(exc)

        async with trio.open_nursery() as nursery:
            async with plugged(store, nursery, "plug", 0):
                for records in ([rec(0), rec(1)], [rec(7)], [rec(2), rec(3)]):
                    nursery.start_soon(append, records)
                    await trio.testing.wait_all_tasks_blocked()
                assert store.statistics().queued == 3
        assert [r.pos for r in await store.log("t")] == [0, 1, 2, 3]
        assert len(errors) == 1 and "gap" in str(errors[0])
        assert store.statistics().max_batch == 3


async def test_many_concurrent_writers_are_batched(tmp_path: Path) -> None:
    tasks, per_task = 50, 200
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
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


async def test_clock_upsert_is_atomic_with_append(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "running", b"", now=0.0)
        assert await store.clock("t") is None
        await store.append("t", [rec(0)], clock=b"c0", now=1.0)
        assert await store.clock("t") == (1.0, b"c0")
        await store.append("t", [rec(1)], clock=b"c1", now=2.0)
        assert await store.clock("t") == (2.0, b"c1")
        await store.append("t", [rec(2)], now=3.0)
        assert await store.clock("t") == (2.0, b"c1")

        # A refused append leaves the clock as it was.
        with pytest.raises(StoreError, match="gap"):
            await store.append("t", [rec(9)], clock=b"bad", now=4.0)
        assert await store.clock("t") == (2.0, b"c1")

        # A clock alone (a pause, say) needs no records.
        await store.append("t", [], clock=b"c2", now=5.0)
        assert await store.clock("t") == (5.0, b"c2")
        assert [r.pos for r in await store.log("t")] == [0, 1, 2]

        with pytest.raises(StoreError, match="unknown table"):
            await store.append("nope", [], clock=b"c", now=5.0)
        assert await store.clock("nope") is None


async def test_durable_across_close_and_reopen(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    async with running(Store(path)) as store:
        await store.create_table("t", "running", b"meta", now=1.0)
        await store.append("t", [rec(0, "cmd", None), rec(1)], clock=b"clock", now=2.0)
        await store.update_table("t", status="finished", now=3.0)
        await store.save_record("t", b"record")
        await store.heartbeat(4.0)

    async with running(Store(path)) as store:
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
        await store.create_table("plug", "running", b"", now=0.0)
        async with plugged(store, nursery, "plug", 0):
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

    async with running(Store(path)) as reopened:
        for t in range(20):
            assert await reopened.log(f"t{t}") == [rec(0)]
        assert await reopened.log("plug") == [rec(0)]


async def test_cancelling_run_still_flushes_queued_writes(tmp_path: Path) -> None:
    path = str(tmp_path / "s.sqlite")
    store = GatedStore(path)
    async with trio.open_nursery() as outer:
        async with trio.open_nursery() as inner:
            await inner.start(store.run)
            for t in range(5):
                await store.create_table(f"t{t}", "running", b"", now=0.0)
            async with plugged(store, outer, "t0", 0):
                for t in range(1, 5):
                    outer.start_soon(partial(store.append, f"t{t}", [rec(0)], now=1.0))
                await trio.testing.wait_all_tasks_blocked()
                assert store.statistics().queued == 4
                inner.cancel_scope.cancel()
    assert store.statistics().writes == 5 + 5
    with pytest.raises(StoreError, match="store is closed"):
        await store.append("t0", [rec(1)], now=2.0)

    async with running(Store(path)) as reopened:
        for t in range(5):
            assert await reopened.log(f"t{t}") == [rec(0)]


async def test_writes_before_run_and_after_close_fail(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "s.sqlite"))
    with pytest.raises(StoreError, match="not running"):
        await store.create_table("t", "open", b"", now=0.0)
    with pytest.raises(StoreError, match="not running"):
        await store.log("t")

    async with running(store):
        await store.create_table("t", "open", b"", now=0.0)

    with pytest.raises(StoreError, match="store is closed"):
        await store.append("t", [rec(0)], now=1.0)
    with pytest.raises(StoreError, match="store is closed"):
        await store.heartbeat(1.0)
    with pytest.raises(StoreError, match="store is closed"):
        await store.table("t")
    await store.aclose()  # closing twice is harmless
    with pytest.raises(StoreError, match="already started or closed"):
        await store.run()


async def test_events_after_returns_later_events_only(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "running", b"", now=0.0)
        log = [
            LogRecord(0, "cmd", None, b"c0"),
            LogRecord(1, "event", 1, b"e1"),
            LogRecord(2, "event", 2, b"e2"),
            LogRecord(3, "cmd", None, b"c1"),
            LogRecord(4, "note", 3, b"n"),
            LogRecord(5, "event", 3, b"e3"),
        ]
        await store.append("t", log, now=1.0)
        assert await store.events_after("t", 0) == [log[1], log[2], log[5]]
        assert await store.events_after("t", 1) == [log[2], log[5]]
        assert await store.events_after("t", 3) == []
        assert await store.events_after("other", 0) == []


async def test_heartbeat_keeps_only_the_latest(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        assert await store.last_heartbeat() is None
        await store.heartbeat(100.5)
        await store.heartbeat(101.5)
        assert await store.last_heartbeat() == 101.5


async def test_save_record(tmp_path: Path) -> None:
    async with running(Store(str(tmp_path / "s.sqlite"))) as store:
        await store.create_table("t", "finished", b"", now=0.0)
        assert await store.record("t") is None
        await store.save_record("t", b"r1")
        await store.save_record("t", b"r2")
        assert await store.record("t") == b"r2"
        with pytest.raises(StoreError, match="unknown table"):
            await store.save_record("nope", b"r")


CRASH_SCRIPT = """
import sys, trio
from oriente.server.store import LogRecord, Store

async def main(path):
    store = Store(path)
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
        # Lines still in the pipe were printed after their commits too.
        lines.extend(proc.stdout.read().splitlines())
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
    async with running(Store(path)) as store:
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
