"""A connection's bounded send queue.

A table actor must never wait on a client: one client that stops reading
would otherwise freeze delivery to everyone at the table (measured with both
`broadcast()` and a plain send loop; keepalive pings do not save it). So the
actor only ever calls `put()`, which queues the frame or, when the queue is
full, evicts the client. An evicted client reconnects and resumes from its
last sequence number; everyone else keeps their stream.

The queue is a list with one waiting reader (`Frames`) rather than a
trio memory channel: every frame of every step passes through it, and the
channel's hand-off, its checkpoint per frame and the `WouldBlock` raised
to find the end of a batch were the larger part of a frame's cost on the
table's side.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

# Sends a batch of frames now, without waiting: True if the connection took
# all of it; False if what it could not write waits for its writer (woken).
Direct = Callable[[list[bytes]], bool]

DEFAULT_CAPACITY = 512
# Bytes a connection may have queued: frames alone do not bound memory when
# each reply can be large (a listing, a history chunk, a record).
DEFAULT_MAX_BYTES = 4 * 1024 * 1024


class Frames:
    """The receiving end of an outbox, for one reader at a time: what a
    trio memory channel's receiving end offers (`receive`, `receive_nowait`,
    `async for`; a server's bot reads its outbox so), and the writer's
    `take_all` and `take_nowait`, which return frames in batches."""

    __slots__ = ("_closed", "_queue", "_waiter")

    def __init__(self) -> None:
        # A list, not a deque: it is nearly always empty or a step's few
        # frames, and an empty deque costs 760 bytes on every connection.
        self._queue: list[bytes] = []
        self._closed = False
        self._waiter: trio.lowlevel.Task | None = None

    def __len__(self) -> int:
        return len(self._queue)

    def push(self, frame: bytes, *, wake: bool = True) -> None:
        self._queue.append(frame)
        if wake:
            self.wake()

    def wake(self) -> None:
        """Wake the waiting reader, if any."""
        if self._waiter is not None:
            task, self._waiter = self._waiter, None
            trio.lowlevel.reschedule(task)

    def take_all(self) -> list[bytes]:
        """Every queued frame, at once, without waiting."""
        batch, self._queue = self._queue, []
        return batch

    def end(self) -> None:
        self._closed = True
        if self._waiter is not None:
            task, self._waiter = self._waiter, None
            trio.lowlevel.reschedule(task)

    def receive_nowait(self) -> bytes:
        """The next frame; trio.WouldBlock if none is queued, trio.EndOfChannel
        once the outbox is evicted and emptied."""
        if self._queue:
            return self._queue.pop(0)
        if self._closed:
            raise trio.EndOfChannel
        raise trio.WouldBlock

    async def _wait(self) -> None:
        """Until a frame is queued or the outbox is evicted (a checkpoint)."""
        if self._queue or self._closed:
            await trio.lowlevel.checkpoint()
            return
        await trio.lowlevel.checkpoint_if_cancelled()
        if self._waiter is not None:
            raise trio.BusyResourceError("another task is already waiting on this outbox")
        self._waiter = trio.lowlevel.current_task()

        def abort(_: object) -> trio.lowlevel.Abort:
            self._waiter = None
            return trio.lowlevel.Abort.SUCCEEDED

        await trio.lowlevel.wait_task_rescheduled(abort)

    async def receive(self) -> bytes:
        """The next frame, waiting for one; trio.EndOfChannel at the end."""
        await self._wait()
        return self.receive_nowait()

    def take_nowait(self, max_bytes: int) -> list[bytes]:
        """The next frame and those queued behind it, up to `max_bytes` in all
        (the first goes whatever its size), without waiting: [] if nothing
        is queued."""
        queue = self._queue
        size = n = 0
        while n < len(queue) and (n == 0 or size < max_bytes):
            size += len(queue[n])
            n += 1
        if n == len(queue):
            batch, self._queue = queue, []
            return batch
        batch = queue[:n]
        del queue[:n]
        return batch

    def __aiter__(self) -> Frames:
        return self

    async def __anext__(self) -> bytes:
        try:
            return await self.receive()
        except trio.EndOfChannel:
            raise StopAsyncIteration from None


class Outbox:
    __slots__ = ("_evict_event", "capacity", "direct", "evicted", "frames", "label", "max_bytes", "on_evict",
                 "queued_bytes", "receive", "sending_since", "start_writer", "writing")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, label: str = "", *,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.receive = Frames()
        self.capacity = capacity
        self.evicted: str | None = None
        self.label = label
        # Made only when the evictor waits for the eviction (most connections end without one).
        self._evict_event: trio.Event | None = None
        self.frames = 0
        self.sending_since: float | None = None  # set while the writer is in a send
        self.max_bytes = max_bytes
        self.queued_bytes = 0  # put and not yet taken by the writer (`take`)
        # Called once, at the eviction: the transport starts the task that closes
        # the connection then, rather than keep one waiting on every connection.
        self.on_evict: Callable[[], object] | None = None
        # Set by the transport: sends frames at once, from the caller's task,
        # when the connection's writer is idle (`flush`).
        self.direct: Direct | None = None
        # Set by the transport: starts the connection's writer, a task only
        # while something waits to be sent; it ends once all is sent. A
        # writer asleep on every idle connection cost its memory for
        # nothing. None: a reader waits on `receive` (a bot, a test).
        self.start_writer: Callable[[], object] | None = None
        # While a writer runs: set when it ends (an evictor waits on it to
        # close only once the writer's frames went out).
        self.writing: trio.Event | None = None

    def put(self, frame: bytes, *, hold: bool = False) -> bool:
        """Queue a frame without blocking; evict the client if it is behind.
        `hold`: leave the writer asleep; the caller `flush`es once it has put
        everything it has for this connection now."""
        if self.evicted is not None:
            return False
        if self.queued_bytes and self.queued_bytes + len(frame) > self.max_bytes:
            # Over the byte cap; a frame alone in the queue still goes, whatever its size.
            self.evict("client/too_slow")
            return False
        if len(self.receive) >= self.capacity:
            self.evict("client/too_slow")
            return False
        self.frames += 1
        self.queued_bytes += len(frame)
        self.receive.push(frame, wake=False)
        if not hold:
            self.flush()
        return True

    def flush(self) -> None:
        """Send what is queued: at once, from this task, when no writer is
        sending and the connection takes it (`direct`), otherwise by the
        writer (started, or woken). A table puts one step's frames for a viewer with `hold` and
        flushes them together: one write, and no task woken per frame."""
        frames = self.receive
        if not len(frames):
            return
        start = self.start_writer
        if start is None:  # a reader of its own waits on `receive`
            frames.wake()
            return
        if self.writing is not None:  # the writer takes these after its send
            return
        if self.direct is not None and self.evicted is None:
            batch = frames.take_all()
            self.queued_bytes -= sum(map(len, batch))
            if self.direct(batch):
                return
        self.writing = trio.Event()
        start()

    def take_nowait(self, max_bytes: int) -> list[bytes]:
        """The writer's next batch without waiting (`Frames.take_nowait`)."""
        batch = self.receive.take_nowait(max_bytes)
        self.queued_bytes -= sum(map(len, batch))
        return batch

    def evict(self, reason: str) -> None:
        """Stop delivering; the connection task sees `evicted` and closes."""
        if self.evicted is None:
            self.evicted = reason
            self.receive.end()
            if self._evict_event is not None:
                self._evict_event.set()
            told, self.on_evict = self.on_evict, None
            if told is not None:
                told()

    async def wait_evicted(self) -> str:
        if self.evicted is not None:
            await trio.lowlevel.checkpoint()
            return self.evicted
        if self._evict_event is None:
            self._evict_event = trio.Event()
        await self._evict_event.wait()
        assert self.evicted is not None
        return self.evicted

    @property
    def alive(self) -> bool:
        return self.evicted is None
