"""A connection's bounded send queue.

A table actor must never wait on a client: one client that stops reading
would otherwise freeze delivery to everyone at the table (measured with both
`broadcast()` and a plain send loop; keepalive pings do not save it). So the
actor only ever calls `put()`, which queues the frame or, when the queue is
full, evicts the client. An evicted client reconnects and resumes from its
last sequence number; everyone else keeps their stream.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

DEFAULT_CAPACITY = 512
# Bytes a connection may have queued: frames alone do not bound memory when
# each reply can be large (a listing, a history chunk, a record).
DEFAULT_MAX_BYTES = 4 * 1024 * 1024


class Outbox:
    __slots__ = ("_evict_event", "_send", "evicted", "frames", "label", "max_bytes", "on_evict", "queued_bytes",
                 "receive", "sending_since")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, label: str = "", *,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self._send, self.receive = trio.open_memory_channel[bytes](capacity)
        self.evicted: str | None = None
        self.label = label
        self._evict_event = trio.Event()
        self.frames = 0
        self.sending_since: float | None = None  # set while the writer is in a send
        self.max_bytes = max_bytes
        self.queued_bytes = 0  # put and not yet taken by the writer (`taken`)
        # Called once, at the eviction: the transport starts the task that closes
        # the connection then, rather than keep one waiting on every connection.
        self.on_evict: Callable[[], object] | None = None

    def put(self, frame: bytes) -> bool:
        """Queue a frame without blocking; evict the client if it is behind."""
        if self.evicted is not None:
            return False
        if self.queued_bytes and self.queued_bytes + len(frame) > self.max_bytes:
            # Over the byte cap; a frame alone in the queue still goes, whatever its size.
            self.evict("client/too_slow")
            return False
        try:
            self._send.send_nowait(frame)
        except trio.WouldBlock:
            self.evict("client/too_slow")
            return False
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            self.evict("client/gone")
            return False
        self.frames += 1
        self.queued_bytes += len(frame)
        return True

    def taken(self, frame: bytes) -> None:
        """The writer took `frame` off the queue to send it."""
        self.queued_bytes -= len(frame)

    def evict(self, reason: str) -> None:
        """Stop delivering; the connection task sees `evicted` and closes."""
        if self.evicted is None:
            self.evicted = reason
            self._send.close()
            self._evict_event.set()
            told, self.on_evict = self.on_evict, None
            if told is not None:
                told()

    async def wait_evicted(self) -> str:
        await self._evict_event.wait()
        assert self.evicted is not None
        return self.evicted

    @property
    def alive(self) -> bool:
        return self.evicted is None
