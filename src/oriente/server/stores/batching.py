"""What every store on a real database shares: one writer that batches.

A database driver blocks, so it is never called on the trio thread (a slow
commit would freeze every table at once). A thread hop costs about 90 us,
and a commit costs a disk flush or a network round trip; one hop and one
commit per write would cap the server at a few thousand writes a second.
Instead a single writer task owns the write connection, takes every write
request queued so far, applies them in one transaction in one hop, commits,
and then wakes each caller. Under load the batches grow by themselves; when
idle a lone write is committed at once, so batching adds no latency.

- The queue needs no bound: every caller waits for its own commit, so the
  queue never holds more requests than there are waiting tasks.
- A request that fails must fail only its own caller (guarantee 4 of
  `contract`). How a store isolates the culprit inside a batch is its own
  business (`_apply_batch`); the writer only hands each request its outcome.
- Reads use their own connection, one at a time, also off the trio thread.
- The life cycle of the contract (guarantee 7) lives here once: requests are
  accepted only while running, and whatever was accepted when the store
  stops (`aclose` or cancellation) is still committed, under a shield.

`SQLiteStore` and `PostgresStore` are subclasses: each says how to take its
lock and open its connections, how to apply one batch, and how to close.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

import trio

from .contract import StoreError
from .timing import SINK, Timed

__all__ = ["MAX_BATCH", "BatchingStore", "StoreStatistics", "Write"]

C = TypeVar("C")  # the driver's connection
T = TypeVar("T")

# Upper bound on requests per transaction, so that one burst cannot hold the
# write lock (and the callers at the head of the queue) for too long.
MAX_BATCH: Final = 4096


@dataclass(frozen=True, slots=True)
class StoreStatistics:
    """A snapshot for introspection, in the manner of trio's ``statistics()``.

    ``batches`` counts transactions committed by the writer, ``writes`` the
    requests they held and ``records`` the log records among them; their
    ratios tell whether batching is doing its job under the current load."""

    batches: int
    writes: int
    records: int
    failed_writes: int
    max_batch: int
    queued: int
    in_flight: int


# Store life cycle: writes are accepted only while running.
_NEW, _STARTING, _RUNNING, _CLOSING, _CLOSED = "new", "starting", "running", "closing", "closed"


class Write(Generic[C]):
    """One queued write: a function that applies it alone on the write
    connection (inside the writer's transaction), what the store may need to
    merge it with others (``payload``), and the slot its caller waits on."""

    __slots__ = ("apply", "done", "ended", "error", "payload", "records", "started", "what")

    def __init__(self, apply: Callable[[C], None], records: int, what: str, payload: object = None) -> None:
        self.apply = apply
        self.records = records
        self.what = what
        self.payload = payload
        self.done = trio.Event()
        self.error: BaseException | None = None
        # When the batch that held it began and ended in the writer's thread
        # (perf_counter), for `timing.SINK`.
        self.started = self.ended = 0.0


class BatchingStore(Generic[C]):
    """The writer, the reader and the life cycle; see the module docstring.

    Subclasses implement the hooks below `_open` .. `_to_store_error`; the
    hooks marked *thread* run in a worker thread, the others on trio's."""

    def __init__(self, place: str) -> None:
        self._place = place  # names the store in messages: a path, a database
        self._state = _NEW
        self._send, self._receive = trio.open_memory_channel[Write[C]](math.inf)
        self._write_conn: C | None = None
        self._read_conn: C | None = None
        # Own limiters, so that the store's threads never queue behind other
        # users of trio's default thread limiter.
        self._write_limiter = trio.CapacityLimiter(1)
        self._read_limiter = trio.CapacityLimiter(1)
        self._stopped = trio.Event()
        self._in_flight: list[Write[C]] = []
        self._batches = 0
        self._writes = 0
        self._records = 0
        self._failed = 0
        self._max_batch = 0

    # -- hooks -----------------------------------------------------------------

    def _lock(self) -> None:
        """Take the store's exclusive lock or raise StoreLocked (a cheap,
        non-blocking step on trio's thread; a lock held by a connection is
        taken in `_open` instead)."""

    def _unlock(self) -> None:
        """Release what `_lock` took; called exactly once, also after a failed start."""

    def _open(self) -> tuple[C, C]:
        """*thread*: open the write and the read connection, bring the schema
        up to date; raise StoreError (or StoreLocked) and leave nothing open
        if that fails."""
        raise NotImplementedError

    def _apply_batch(self, batch: list[Write[C]]) -> None:
        """*thread*: commit the batch in one transaction, setting ``error``
        on each request that must fail; every other request is committed."""
        raise NotImplementedError

    def _close_connection(self, conn: C) -> None:
        """*thread*: close one connection."""
        raise NotImplementedError

    def _to_store_error(self, exc: BaseException, what: str) -> BaseException:
        """The exception a caller sees for ``exc``: a StoreError as it is; a
        driver's error as a StoreError caused by it; anything else (a bug)
        as it is, so that it shows."""
        return exc

    def _store_error(self, exc: BaseException, what: str) -> BaseException:
        if isinstance(exc, StoreError):
            return exc
        mapped = self._to_store_error(exc, what)
        if mapped is not exc and mapped.__cause__ is None:
            mapped.__cause__ = exc
        return mapped

    # -- life cycle --------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Open the store and be the writer until cancelled or closed.

        Whatever was queued when the store stops is still committed (under a
        shield), because each of those callers was promised a commit."""
        if self._state != _NEW:
            raise StoreError(f"store {self._place!r} was already started or closed")
        self._state = _STARTING
        try:
            self._lock()
            self._write_conn, self._read_conn = await trio.to_thread.run_sync(
                self._open, limiter=self._write_limiter
            )
        except BaseException:
            self._unlock()
            self._state = _CLOSED
            self._send.close()
            self._stopped.set()
            raise
        if self._state == _STARTING:
            self._state = _RUNNING
        try:
            task_status.started()
            await self._write_loop()
        finally:
            with trio.CancelScope(shield=True):
                await self._shut_down()

    async def aclose(self) -> None:
        """Refuse new writes, wait until every queued one is committed, close."""
        if self._state == _NEW:
            self._state = _CLOSED
            self._stopped.set()
            return
        if self._state in (_STARTING, _RUNNING):
            self._state = _CLOSING
            self._send.close()
        await self._stopped.wait()

    def statistics(self) -> StoreStatistics:
        """Counters since start and the queue as it is now."""
        return StoreStatistics(
            batches=self._batches,
            writes=self._writes,
            records=self._records,
            failed_writes=self._failed,
            max_batch=self._max_batch,
            queued=self._receive.statistics().current_buffer_used,
            in_flight=len(self._in_flight),
        )

    async def _write_loop(self) -> None:
        while True:
            try:
                first = await self._receive.receive()
            except trio.EndOfChannel:
                return
            batch = [first]
            self._drain_into(batch)
            await self._commit(batch)

    def _drain_into(self, batch: list[Write[C]]) -> None:
        while len(batch) < MAX_BATCH:
            try:
                batch.append(self._receive.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return

    async def _commit(self, batch: list[Write[C]]) -> None:
        self._in_flight = batch
        try:
            # Not abandoned on cancel: the caller's outcome is only known
            # once the thread is done, and the connection must not be left
            # mid-transaction.
            started, ended = await trio.to_thread.run_sync(self._timed_batch, batch, limiter=self._write_limiter)
            for write in batch:
                write.started, write.ended = started, ended
        except BaseException as exc:
            # A bug in the writer itself: fail the batch loudly in every
            # caller rather than leave them waiting forever, then propagate.
            for write in batch:
                if write.error is None:
                    write.error = StoreError(f"{write.what}: the store's writer failed: {exc!r}")
            raise
        finally:
            self._in_flight = []
            for write in batch:
                write.done.set()
        committed = 0
        for write in batch:
            if write.error is None:
                committed += 1
                self._records += write.records
            else:
                self._failed += 1
        if committed:
            self._batches += 1
            self._writes += committed
            self._max_batch = max(self._max_batch, len(batch))

    def _timed_batch(self, batch: list[Write[C]]) -> tuple[float, float]:
        started = time.perf_counter()
        self._apply_batch(batch)
        return started, time.perf_counter()

    async def _shut_down(self) -> None:
        self._state = _CLOSING
        self._send.close()
        error: BaseException | None = None
        try:
            while True:
                batch: list[Write[C]] = []
                self._drain_into(batch)
                if not batch:
                    break
                await self._commit(batch)
        except BaseException as exc:
            error = exc
            self._fail_queued(exc)
        finally:
            await trio.to_thread.run_sync(self._close_read, limiter=self._read_limiter)
            await trio.to_thread.run_sync(self._close_write, limiter=self._write_limiter)
            self._unlock()
            self._state = _CLOSED
            self._stopped.set()
        if error is not None:
            raise error

    def _fail_queued(self, exc: BaseException) -> None:
        while True:
            try:
                write = self._receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                return
            write.error = StoreError(f"{write.what}: the store stopped after an error: {exc!r}")
            write.done.set()

    def _close_read(self) -> None:
        if self._read_conn is not None:
            conn, self._read_conn = self._read_conn, None
            self._close_connection(conn)

    def _close_write(self) -> None:
        # Closed last: SQLite's last connection to close checkpoints the WAL.
        if self._write_conn is not None:
            conn, self._write_conn = self._write_conn, None
            self._close_connection(conn)

    # -- requests ----------------------------------------------------------------

    async def _submit(self, apply: Callable[[C], None], records: int, what: str, payload: object = None) -> None:
        """Queue a write and wait for its commit; raise what made it fail.

        A caller cancelled while waiting does not withdraw its write: it may
        still commit."""
        if self._state != _RUNNING:
            if self._state in (_NEW, _STARTING):
                raise StoreError(f"{what}: store is not running yet (start its run() first)")
            raise StoreError("store is closed")
        write = Write(apply, records, what, payload)
        queued = time.perf_counter()
        self._send.send_nowait(write)
        await write.done.wait()
        sink = SINK.get()
        if sink is not None and write.ended:
            sink.note(Timed("write", write.started - queued, write.ended - write.started,
                              time.perf_counter() - write.ended))
        error = write.error
        if error is None:
            return
        raise self._store_error(error, what)

    async def _read(self, query: Callable[[C], T]) -> T:
        """Run a query on the read connection in a worker thread."""
        if self._state in (_NEW, _STARTING):
            raise StoreError("store is not running yet (start its run() first)")
        if self._state == _CLOSED:
            raise StoreError("store is closed")

        times = [time.perf_counter(), 0.0, 0.0]

        def run() -> T:
            # Checked again in the thread: the store may have closed while
            # this read waited for the limiter.
            times[1] = time.perf_counter()
            conn = self._read_conn
            if conn is None:
                raise StoreError("store is closed")
            try:
                return query(conn)
            finally:
                times[2] = time.perf_counter()

        try:
            result = await trio.to_thread.run_sync(run, limiter=self._read_limiter)
            sink = SINK.get()
            if sink is not None:
                queued, started, ended = times
                sink.note(Timed("read", started - queued, ended - started, time.perf_counter() - ended))
            return result
        except Exception as exc:
            mapped = self._store_error(exc, "read")
            if mapped is exc:
                raise
            raise mapped from exc
