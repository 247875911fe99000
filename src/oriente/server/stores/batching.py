"""What every store on a real database shares: one writer that batches.

A database driver blocks, so it is not called on the trio thread (a slow
commit would freeze every table at once), except for a store whose commits
cannot be slow (below). A thread hop costs about 90 us,
and a commit costs a disk flush or a network round trip; one hop and one
commit per write would cap the server at a few thousand writes a second.
Instead a single writer owns the write connection, takes every write
request queued so far, applies them in one transaction, commits, and then
wakes each caller. Under load the batches grow by themselves; when idle a
lone write is committed at once, so batching adds no latency.

The writer is a thread of its own, fed by a thread-safe queue, not a trio
task that hops to a worker thread per batch: every step of every table
waits for a commit, and with a task in the middle a step paid three passes
of trio's scheduler on top of the two thread switches (the writer task
woken, the writer task woken again when its thread is done, then the
caller), each as long as every other task runnable at that moment. Now a
request wakes the thread itself, and the thread wakes the callers of a
batch with one call through trio's token as soon as it has committed, and
takes the next batch at once: a request that arrived during a commit does
not also wait for trio to schedule the writer.

- The queue needs no bound: every caller waits for its own commit, so the
  queue never holds more requests than there are waiting tasks.
- A request that fails must fail only its own caller (guarantee 4 of
  `contract`). How a store isolates the culprit inside a batch is its own
  business (`_apply_batch`); the writer only hands each request its outcome.
- Reads use their own connection, one at a time, also off the trio thread;
  what must run on the write connection between two batches (a store
  whose reads share it, a backup, a lease) is queued to the writer thread
  as a call (`_on_write_connection`), in order with the writes.
- The life cycle of the contract (guarantee 7) lives here once: requests are
  accepted only while running, and whatever was accepted when the store
  stops (`aclose` or cancellation) is still committed, under a shield.

A store whose commits cost no network round trip and no disk flush (SQLite
in WAL mode with synchronous=NORMAL: a commit is a few writes into the
operating system's cache, some 100 us) may commit on trio's thread instead
(`_commits_on_trio`). Every write submitted while trio runs one pass of its
tasks is committed in one batch by the `_committer` task early in the next
pass. That saves the thread's CPU and, above all, the wait for the GIL: a
writer thread needs the GIL again after each statement, and while trio's
thread is busy it gets it only at trio's next blocking call or after the
switch interval (5 ms). Under load a commit of one write took 3-7 ms at the
99th percentile that way, against 0.5 ms on trio's thread, and a server
frame cost about 12 % less CPU (bench/server.py, docs/benchmarks.md). The connection is then shared by the two
threads under `_connection_lock`: the thread takes it for the calls queued
to it (reads, a backup, a checkpoint catching up). When the committer finds
it taken by such a call, its batch waits on trio's thread, and the thread
wakes the committer when it lets go (`_holding_connection`): on the thread,
every statement of the batch, and of every batch after it, would wait for
the GIL. If the thread has gone on to another call by then, the batch goes
behind the thread's queue, in order, as do all writes while some are
queued there: it waits for one call, never for a stream of them. Trio's
thread never blocks on the connection. An errand (`_errand`) runs on
the thread without the write connection: SQLite's checkpoint of its WAL,
which flushes the disk, runs on a connection of its own, and commits go on
meanwhile.

`SQLiteStore` and `PostgresStore` are subclasses: each says how to take its
lock and open its connections, how to apply one batch, and how to close.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

import outcome
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


class _Call(Generic[C, T]):
    """A function to run on the writer thread between two batches, with the
    write connection (``holds_connection``, under `_connection_lock`) or
    without it (an errand that uses a connection of its own)."""

    __slots__ = ("done", "fn", "holds_connection", "result")

    def __init__(self, fn: Callable[[C], T], *, holds_connection: bool = True) -> None:
        self.fn = fn
        self.holds_connection = holds_connection
        self.done = trio.Event()
        self.result: outcome.Outcome[T] | None = None

    def finish(self, result: outcome.Outcome[T]) -> None:
        self.result = result
        self.done.set()


_STOP: Final = object()  # queued last: the writer thread ends once it is done with what came before


class BatchingStore(Generic[C]):
    """The writer, the reader and the life cycle; see the module docstring.

    Subclasses implement the hooks below `_open` .. `_to_store_error`; the
    hooks marked *thread* run in a worker thread, the others on trio's."""

    def __init__(self, place: str) -> None:
        self._place = place  # names the store in messages: a path, a database
        self._state = _NEW
        # Write and _Call requests, then _STOP; read by the writer thread only.
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._write_conn: C | None = None
        self._read_conn: C | None = None
        # Own limiters, so that the store's threads never queue behind other
        # users of trio's default thread limiter.
        self._write_limiter = trio.CapacityLimiter(1)
        self._read_limiter = trio.CapacityLimiter(1)
        # A store whose reads use the write connection runs them on the writer thread.
        self._reads_on_writer = False
        # A store whose commits are cheap enough commits on trio's thread
        # (the module docstring); the write connection is then shared.
        self._commits_on_trio = False
        self._connection_lock = threading.Lock()  # held by the thread using the write connection
        # The committer found the connection held by a call on the thread and
        # waits for it (`_commit_pending`); the thread wakes it on release.
        self._committer_waits = False
        self._woken = False  # the thread let go of the connection the committer waited for
        self._token: trio.lowlevel.TrioToken | None = None
        # Submitted since the committer last ran, or waiting with it for a call
        # that holds the connection: the committer's next batch.
        self._pending: list[Write[C]] = []
        self._pending_due = trio.Event()  # the committer has writes to commit
        self._on_thread = 0  # writes handed to the writer thread and not yet finished
        self._stopped = trio.Event()
        self._thread_done = trio.Event()
        self._failure: BaseException | None = None  # a bug in the writer: run() raises it
        self._in_flight: list[Write[C]] = []  # the batch the writer thread holds (statistics)
        self._queued = 0  # requests submitted and not yet taken by the writer thread (statistics)
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
            self._stopped.set()
            raise
        if self._state == _STARTING:
            self._state = _RUNNING
        self._token = trio.lowlevel.current_trio_token()
        threading.Thread(target=self._serve, args=(self._token,),
                         name=f"store writer {self._place}", daemon=True).start()
        try:
            async with trio.open_nursery() as nursery:
                if self._commits_on_trio:
                    nursery.start_soon(self._committer)
                task_status.started()
                await self._thread_done.wait()  # aclose, or a bug in the writer
                nursery.cancel_scope.cancel()
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
            self._jobs.put(_STOP)  # before the thread starts, if run() is still opening: it ends at once
        await self._stopped.wait()

    # -- the committer on trio's thread ----------------------------------------

    async def _committer(self) -> None:
        """Commit what was submitted since it last ran, each time there is
        some (a store with `_commits_on_trio`; the module docstring)."""
        while True:
            await self._pending_due.wait()
            self._pending_due = trio.Event()
            self._commit_pending()

    @trio.lowlevel.enable_ki_protection
    def _commit_pending(self, *, last: bool = False) -> None:
        """Commit the pending writes here, on trio's thread, unless a call
        on the writer thread holds the connection: then they wait for that
        call, once, and go behind the thread's queue if another call holds
        it by then (`last`: the thread has ended, at shutdown: commit here
        in any case)."""
        woken, self._woken = self._woken, False
        batch, self._pending = self._pending, []
        if not batch:
            return
        if last:
            self._connection_lock.acquire()
        elif self._on_thread or not self._connection_lock.acquire(blocking=False):
            if self._state != _RUNNING:  # the thread may have taken its _STOP: they wait for the last commit
                self._pending[:0] = batch
                return
            if not self._on_thread and not woken:
                # A call on the thread holds the connection (a checkpoint
                # catching up, a read, a backup). The batch waits here for it
                # rather than behind it on the thread: there every statement
                # of it, and of every batch after it, waited for the GIL (up
                # to 5 ms each while trio's thread is busy), and the tables'
                # commits stayed slow long after the call had ended. The
                # thread wakes the committer when it lets go
                # (`_holding_connection`); if it let go before it could see
                # the flag, this second try takes the connection.
                self._committer_waits = True
                if not self._connection_lock.acquire(blocking=False):
                    self._pending[:0] = batch
                    return
                self._committer_waits = False
            else:
                # Woken, and another call holds the connection already (the
                # thread went on to the next in its queue), or writes are
                # still queued there: behind them, in order. Waiting again
                # could wait for ever behind a stream of reads.
                self._on_thread += len(batch)
                for write in batch:
                    self._jobs.put(write)
                return
        started = time.perf_counter()
        failure: BaseException | None = None
        try:
            self._apply_batch(batch)
        except Exception as exc:  # a bug in the writer itself
            failure = exc
        finally:
            self._connection_lock.release()
        ended = time.perf_counter()
        for write in batch:
            write.started, write.ended = started, ended
        self._finish(batch, failure)

    @contextlib.contextmanager
    def _holding_connection(self) -> Iterator[None]:
        """*thread*: hold the write connection; on release, wake the
        committer if it waits for it (`_commit_pending`)."""
        try:
            with self._connection_lock:
                yield
        finally:
            if self._committer_waits:
                self._committer_waits = False
                assert self._token is not None
                self._token.run_sync_soon(self._wake_committer)

    def _wake_committer(self) -> None:
        self._woken = True
        self._pending_due.set()

    def _after_commit(self) -> None:
        """On trio's thread, after each committed batch: a store's upkeep
        (SQLite queues a checkpoint of its WAL now and then)."""

    def _chore(self, fn: Callable[[C], None]) -> None:
        """Queue `fn` to run on the writer thread with the write connection,
        in order with what is queued there; nobody waits for it, so it
        handles its own errors."""
        self._jobs.put(_Call(fn))

    def _errand(self, fn: Callable[[], None]) -> None:
        """Queue `fn` to run on the writer thread, in order with what is
        queued there, without the write connection: trio's thread goes on
        committing while it runs (SQLite's checkpoint, on a connection of
        its own). Nobody waits for it, so it handles its own errors."""
        self._jobs.put(_Call(lambda _conn: fn(), holds_connection=False))

    def statistics(self) -> StoreStatistics:
        """Counters since start and the queue as it is now."""
        return StoreStatistics(
            batches=self._batches,
            writes=self._writes,
            records=self._records,
            failed_writes=self._failed,
            max_batch=self._max_batch,
            queued=self._queued - len(self._in_flight),
            in_flight=len(self._in_flight),
        )

    def metrics(self) -> list[str]:
        """For /metrics: what the writer has committed (transactions, the
        writes and log records in them, the writes that failed) and the
        queue before it now; a queue that keeps growing says the store is
        the tables' bottleneck."""
        s = self.statistics()
        lines: list[str] = []
        for name, value in (("batches", s.batches), ("writes", s.writes), ("records", s.records),
                            ("failed_writes", s.failed_writes)):
            lines += [f"# TYPE oriente_store_{name}_total counter", f"oriente_store_{name}_total {value}"]
        return [*lines, "# TYPE oriente_store_queued gauge", f"oriente_store_queued {s.queued + s.in_flight}"]

    # -- the writer thread -------------------------------------------------------

    def _serve(self, token: trio.lowlevel.TrioToken) -> None:
        """*thread*: take every write queued so far, commit them in one batch,
        hand the batch back to trio's thread; a call in the queue runs
        between two batches, in order. Ends at _STOP, everything before it
        done."""
        held: Any = None  # a call taken while filling a batch: it runs next
        while True:
            job = held if held is not None else self._jobs.get()
            held = None
            if job is _STOP:
                break
            if isinstance(job, _Call):
                with self._holding_connection() if job.holds_connection else contextlib.nullcontext():
                    result = outcome.capture(job.fn, self._write_conn)
                token.run_sync_soon(job.finish, result)
                continue
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if not isinstance(job, Write):
                    held = job
                    break
                batch.append(job)
            self._in_flight = batch
            started = time.perf_counter()
            try:
                with self._holding_connection():
                    self._apply_batch(batch)
                failure: BaseException | None = None
            except BaseException as exc:  # a bug in the writer itself
                failure = exc
            ended = time.perf_counter()
            for write in batch:
                write.started, write.ended = started, ended
            token.run_sync_soon(self._finish_on_thread, batch, failure)
        token.run_sync_soon(self._thread_done.set)

    def _finish_on_thread(self, batch: list[Write[C]], failure: BaseException | None) -> None:
        """On trio's thread, once the writer thread has committed a batch."""
        self._on_thread -= len(batch)
        self._finish(batch, failure)

    def _finish(self, batch: list[Write[C]], failure: BaseException | None) -> None:
        """On trio's thread, once a batch is committed: wake its callers."""
        if self._in_flight is batch:  # the thread may have taken the next one already
            self._in_flight = []
        self._queued -= len(batch)
        if failure is not None:
            # Fail the batch loudly in every caller rather than leave them
            # waiting forever; run() raises it once the store is shut down.
            for write in batch:
                if write.error is None:
                    write.error = StoreError(f"{write.what}: the store's writer failed: {failure!r}")
            if self._failure is None:
                self._failure = failure
                self._state = _CLOSING
                self._jobs.put(_STOP)
        committed = 0
        for write in batch:
            write.done.set()
            if write.error is None:
                committed += 1
                self._records += write.records
            else:
                self._failed += 1
        if committed:
            self._batches += 1
            self._writes += committed
            self._max_batch = max(self._max_batch, len(batch))
            self._after_commit()

    async def _shut_down(self) -> None:
        """Whatever was queued is committed (the thread ends only at _STOP,
        after it); then the connections close."""
        if self._state != _CLOSING:
            self._state = _CLOSING
            self._jobs.put(_STOP)
        try:
            await self._thread_done.wait()
            self._commit_pending(last=True)  # submitted before the close, not yet committed
        finally:
            await trio.to_thread.run_sync(self._close_read, limiter=self._read_limiter)
            await trio.to_thread.run_sync(self._close_write, limiter=self._write_limiter)
            self._unlock()
            self._state = _CLOSED
            self._stopped.set()
        if self._failure is not None:
            raise self._failure

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
        self._queued += 1
        if self._commits_on_trio:
            self._pending.append(write)
            self._pending_due.set()
        else:
            self._on_thread += 1
            self._jobs.put(write)
        await write.done.wait()
        sink = SINK.get()
        if sink is not None and write.ended:
            sink.note(Timed("write", write.started - queued, write.ended - write.started,
                            time.perf_counter() - write.ended))
        error = write.error
        if error is None:
            return
        raise self._store_error(error, what)

    async def _on_write_connection(self, fn: Callable[[C], T]) -> T:
        """Run ``fn(write connection)`` on the writer thread, between two
        batches, in order with the writes queued before it; its result or
        its exception. Not cancellable once queued (a write may follow it)."""
        if self._state != _RUNNING:
            if self._state in (_NEW, _STARTING):
                raise StoreError("store is not running yet (start its run() first)")
            raise StoreError("store is closed")
        call: _Call[C, T] = _Call(fn)
        self._jobs.put(call)
        with trio.CancelScope(shield=True):
            await call.done.wait()
        assert call.result is not None
        return call.result.unwrap()

    async def _read(self, query: Callable[[C], T]) -> T:
        """Run a query on the read connection in a worker thread (or on the
        writer's thread, for a store whose reads share its connection)."""
        if self._state in (_NEW, _STARTING):
            raise StoreError("store is not running yet (start its run() first)")
        if self._state == _CLOSED:
            raise StoreError("store is closed")
        times = [time.perf_counter(), 0.0, 0.0]

        def timed(conn: C) -> T:
            times[1] = time.perf_counter()
            try:
                return query(conn)
            finally:
                times[2] = time.perf_counter()

        def run() -> T:
            # Checked again in the thread: the store may have closed while
            # this read waited for the limiter.
            conn = self._read_conn
            if conn is None:
                raise StoreError("store is closed")
            return timed(conn)

        try:
            if self._reads_on_writer:
                result = await self._on_write_connection(timed)
            else:
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
