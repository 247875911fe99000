"""A connection's queued frames go out together: the writer takes every
frame queued by the time it takes one (up to BATCH_BYTES) and the
connection writes them to the socket at once, each still its own websocket
message, byte for byte what one `send` per frame would have written."""

from __future__ import annotations

import contextlib
import functools
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import pytest
import trio
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.trio.client import connect
from websockets.trio.server import ServerConnection, serve

from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.transport import BATCH_BYTES, BatchConnection, Limits, Transport, binary_header

pytestmark = pytest.mark.trio


@contextlib.asynccontextmanager
async def served(nursery: trio.Nursery, handler: Callable[[ServerConnection], Awaitable[None]],
                 connection: type[ServerConnection], **client: Any) -> AsyncIterator[Any]:
    """A client connected to a server of `handler` on 127.0.0.1 whose
    connections are `connection`s; no compression on either side, so that
    what goes on the wire is the plain frames the tests check."""
    server = await nursery.start(functools.partial(serve, handler, 0, host="127.0.0.1", compression=None,
                                                   create_connection=connection))
    port = server.listeners[0].socket.getsockname()[1]
    async with connect(f"ws://127.0.0.1:{port}", compression=None, **client) as ws:
        yield ws


class _Recorder(BatchConnection):
    """A connection that only records what the writer asks it to send."""

    def __init__(self) -> None:  # no socket: the writer's calls are what is checked
        self.calls: list[list[bytes]] = []

    async def send(self, message, *, text=None) -> None:  # type: ignore[no-untyped-def, override]
        self.calls.append([message])

    async def send_many(self, messages: Sequence[bytes]) -> None:
        self.calls.append(list(messages))


async def test_the_writer_sends_every_queued_frame_in_one_call():
    metrics = Metrics()
    transport = Transport(None, metrics, Limits())  # type: ignore[arg-type]
    outbox = Outbox(label="batch")
    frames = [b"a" * 100, b"b" * 200, b"c" * 300]
    for frame in frames:
        outbox.put(frame)
    big = [bytes([65 + i]) * (BATCH_BYTES // 2) for i in range(3)]
    ws = _Recorder()
    async with trio.open_nursery() as nursery:
        await transport._writer(ws, outbox)
        assert ws.calls == [frames], "three frames queued at once went out in one write"
        for frame in big:
            outbox.put(frame)
        await transport._writer(ws, outbox)
        # A batch stops once it holds BATCH_BYTES: the first two, then the third.
        assert ws.calls[1:] == [big[:2], big[2:]]
        outbox.start_writer = functools.partial(nursery.start_soon, transport._writer, ws, outbox)
        outbox.put(b"alone")
        assert outbox.writing is not None, "a frame put with no direct path starts the writer"
        await trio.testing.wait_all_tasks_blocked()
        assert ws.calls[-1] == [b"alone"]
        assert outbox.writing is None, "the writer ended once everything was sent"
    assert metrics.frames_out == 7
    assert outbox.queued_bytes == 0


class _Counted(BatchConnection):
    """A batching connection that notes the size of each of its writes."""

    writes: list[int] | None = None  # set by the handler once the handshake is written

    async def write(self, data: bytes) -> None:
        if self.writes is not None:
            self.writes.append(len(data))
        await super().write(data)


async def test_send_many_writes_once_and_the_client_reads_each_message():
    """Over a real websocket: one write for three messages, which the
    client reads as three messages, in order, unchanged; `send` and the
    close still work afterwards."""
    messages = [b"\x81\x00" * 3, b"x" * 1000, bytes(range(256)) * 300]  # short, 2-byte length, 8-byte length
    writes: list[int] = []
    done = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _Counted)
        ws.writes = writes
        await ws.send_many(messages)
        batched = list(writes)
        await ws.send(b"after")
        await ws.wait_closed()
        assert len(batched) == 1, f"three messages took {len(batched)} writes"
        done.set()

    async with trio.open_nursery() as nursery:
        async with served(nursery, handler, _Counted, max_size=2 ** 20) as client:
            got = [await client.recv() for _ in range(4)]
        assert got == [*messages, b"after"]
        with trio.fail_after(10):
            await done.wait()
        # Each message framed as the library frames one: 2, 4 and 10 header bytes.
        assert writes[0] == sum(len(m) for m in messages) + 2 + 4 + 10
        nursery.cancel_scope.cancel()


async def test_a_write_the_kernel_takes_in_part_goes_out_whole_and_in_order():
    """The direct write to the socket may take only part of a batch (the
    kernel's buffer fills): the rest must follow, once, before anything
    else. A client that reads nothing until the server has queued far more
    than the socket buffers hold, then reads everything: every message
    arrives whole, in order, none twice."""
    messages = [bytes([i % 251]) * (8_000 + 997 * i) for i in range(12)]  # ~160 KB: many times the buffers
    sent = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        ws.stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
        for i in range(0, len(messages), 3):
            await ws.send_many(messages[i:i + 3])
        sent.set()
        await ws.wait_closed()

    async with trio.open_nursery() as nursery:
        async with served(nursery, handler, BatchConnection, max_size=2 ** 20, max_queue=1) as client:
            client.stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            await trio.testing.wait_all_tasks_blocked()
            assert not sent.is_set(), "the buffers took everything: nothing was written in part"
            got = [await client.recv() for _ in messages]
            with trio.fail_after(10):
                await sent.wait()
        assert [len(m) for m in got] == [len(m) for m in messages]
        assert got == messages
        nursery.cancel_scope.cancel()


class _Broken(BatchConnection):
    """A connection whose socket fails its next write once `broken` is set."""

    broken = False

    async def write(self, data: bytes) -> None:
        if self.broken:
            raise trio.BrokenResourceError("the peer reset the connection")
        await super().write(data)


async def test_a_failed_write_ends_the_connection_and_the_writer_hears_connection_closed():
    """As the library's `send` does: an error from the socket fails the
    connection and reaches the caller as ConnectionClosed (the writer's one
    signal that the client is gone), with the socket's error as its cause."""
    seen: list[BaseException] = []
    done = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, _Broken)
        ws.broken = True
        try:
            await ws.send_many([b"one", b"two"])
        except BaseException as exc:  # what it raises is the point
            seen.append(exc)
        done.set()

    async with trio.open_nursery() as nursery:
        async with served(nursery, handler, _Broken) as client:
            with trio.fail_after(10):
                await done.wait()
            with pytest.raises(ConnectionClosed):
                await client.recv()
        assert len(seen) == 1 and isinstance(seen[0], ConnectionClosed), seen
        assert isinstance(seen[0].__cause__, trio.BrokenResourceError)
        nursery.cancel_scope.cancel()


async def test_frames_flushed_from_the_table_s_task_go_out_whole_and_in_order():
    """`Outbox.flush` writes a step's frames from the caller's task while the
    connection's writer is idle (`BatchConnection.send_now`); once the
    kernel's buffer takes only part, the writer sends the rest, and every
    frame after it waits behind it. A client that reads nothing until the
    server has queued far more than the socket buffers hold gets every
    message whole, in order, none twice; and while the socket took
    everything, no task but the caller's was needed."""
    messages = [bytes([i % 251]) * (3_000 + 997 * i) for i in range(24)]  # ~350 KB
    results: list[bool] = []
    metrics = Metrics()
    transport = Transport(None, metrics, Limits())  # type: ignore[arg-type]
    sent = trio.Event()

    async def handler(ws: ServerConnection) -> None:
        assert isinstance(ws, BatchConnection)
        outbox = Outbox(label="direct")

        def direct(batch: list[bytes]) -> bool:
            results.append(ws.send_now(batch))
            return results[-1]

        outbox.direct = direct
        async with trio.open_nursery() as inner:
            outbox.start_writer = functools.partial(inner.start_soon, transport._writer, ws, outbox)
            ws.stream.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
            for i in range(0, len(messages), 2):
                outbox.put(messages[i], hold=True)
                outbox.put(messages[i + 1], hold=True)
                outbox.flush()
                await trio.testing.wait_all_tasks_blocked(cushion=0.001)
            sent.set()
            await ws.wait_closed()
            inner.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        async with served(nursery, handler, BatchConnection, max_size=2 ** 20, max_queue=1) as client:
            client.stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            with trio.fail_after(10):
                await sent.wait()
            got = [await client.recv() for _ in messages]
        assert results[0] is True, "an idle connection took the first frames at once, from the caller's task"
        assert False in results, "the buffers took everything: nothing was left to the writer"
        assert [len(m) for m in got] == [len(m) for m in messages]
        assert got == messages
        nursery.cancel_scope.cancel()


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70000])
async def test_the_table_s_fast_path_frames_a_message_as_the_library_does(length: int) -> None:
    """`send_now` frames messages itself: byte for byte what the library
    writes for a server's binary message, at each boundary of the length's
    encoding (7 bits, 16, 64)."""
    message = bytes(range(256)) * (length // 256) + bytes(length % 256)
    assert binary_header(length) + message == Frame(Opcode.BINARY, message).serialize(mask=False)
