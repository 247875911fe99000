"""A connection read directly (`BatchConnection.read_directly`): each whole
message is handled in the library's reading task, in order, with the
library's checks (fragments reassembled and counted, text frames UTF-8),
messages that came before the handler was given wait for it, and a handler
that stops or fails ends reading as `recv` would have. Real websockets on
127.0.0.1; the library's own client sends the frames."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.trio.client import connect
from websockets.trio.server import ServerConnection, serve
from websockets.typing import Data

from oriente.server.transport import BatchConnection

pytestmark = pytest.mark.trio


async def _serve(nursery: trio.Nursery, handler: Callable[[BatchConnection], Awaitable[None]]) -> int:
    async def accept(connection: ServerConnection, request: Any) -> None:
        assert isinstance(connection, BatchConnection)
        connection.read_directly()  # as the transport does, before the handshake's answer

    async def handle(ws: ServerConnection) -> None:
        assert isinstance(ws, BatchConnection)
        await handler(ws)

    server = await nursery.start(functools.partial(serve, handle, 0, host="127.0.0.1", compression=None,
                                                   create_connection=BatchConnection, process_request=accept))
    return int(server.listeners[0].socket.getsockname()[1])


async def test_messages_sent_at_once_wait_for_the_handler_and_come_whole_in_order() -> None:
    got: list[tuple[Data, bool]] = []
    given = trio.Event()

    async def handler(ws: BatchConnection) -> None:
        await trio.sleep(0.2)  # the client has sent everything by now (the handler is late)
        reader = trio.lowlevel.current_task()

        async def one(of: str, message: Data) -> bool:
            got.append((message, trio.lowlevel.current_task() is reader))
            return True

        given.set()
        await ws.handle_messages(one, "conn")

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler)
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            await client.send(b"one")
            await client.send([b"tw", b"o"])  # fragmented: whole when handled
            await client.send("three")
            await given.wait()
            await client.send(b"four")
            with trio.fail_after(10):
                while len(got) < 4:
                    await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert [m for m, _ in got] == [b"one", b"two", "three", b"four"]
    assert not any(in_handler_task for _, in_handler_task in got), "handled in the reading task"


async def test_a_text_frame_not_utf8_and_too_many_fragments_fail_the_connection_as_recv_did() -> None:
    for frames, code in [([b"\xff\xfe"], CloseCode.INVALID_DATA), ([b"x"] * 4097 + [b""], CloseCode.MESSAGE_TOO_BIG)]:
        got: list[Data] = []

        async def handler(ws: BatchConnection, got: list[Data] = got) -> None:
            async def one(of: Any, message: Data) -> bool:
                got.append(message)
                return True
            await ws.handle_messages(one, None)

        async with trio.open_nursery() as nursery:
            port = await _serve(nursery, handler)
            async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
                await client.send(b"before")
                if len(frames) == 1:  # a text frame of bytes that are not UTF-8
                    client.protocol.send_text(frames[0])
                    await client.send_data()
                else:
                    with contextlib.suppress(ConnectionClosed):  # the server may close before the last one
                        await client.send(frames)
                with trio.fail_after(10), pytest.raises(ConnectionClosed) as closed:
                    await client.recv()
            nursery.cancel_scope.cancel()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == code
        assert got == [b"before"]


async def test_a_handler_that_stops_drops_what_follows_and_one_that_fails_fails_the_connection() -> None:
    got: list[Data] = []
    ended: list[str] = []

    async def stops(ws: BatchConnection) -> None:
        async def one(of: Any, message: Data) -> bool:
            got.append(message)
            return message != b"last"
        await ws.handle_messages(one, None)  # returns once `one` said stop, as the transport's evictions do
        ended.append("stopped")
        await ws.wait_closed()  # the connection stays open; what comes is dropped

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, stops)
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            for m in (b"a", b"last", b"dropped", b"dropped too"):
                await client.send(m)
            await trio.sleep(0.2)
        with trio.fail_after(10):
            while not ended:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert got == [b"a", b"last"]

    raised: list[BaseException] = []

    async def fails(ws: BatchConnection) -> None:
        async def one(of: Any, message: Data) -> bool:
            raise RuntimeError("a bug")
        try:
            await ws.handle_messages(one, None)
        except RuntimeError as exc:
            raised.append(exc)
            raise  # as the transport's handler does: the library closes with 1011 and logs it

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, fails)
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            await client.send(b"x")
            with trio.fail_after(10), pytest.raises(ConnectionClosed) as closed:
                await client.recv()
        nursery.cancel_scope.cancel()
    assert [str(e) for e in raised] == ["a bug"]
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.INTERNAL_ERROR


async def test_a_connection_read_directly_keeps_no_assembler_and_recv_says_it_closed() -> None:
    """The library's assembler (2.2 KiB a connection) is dropped: every
    connection read directly shares one stand-in, and `recv` on one waits
    for the connection to close and raises ConnectionClosed, as on a
    connection whose messages have ended."""
    seen: list[Any] = []
    raised: list[BaseException] = []

    async def handler(ws: BatchConnection) -> None:
        seen.append(ws.recv_messages)
        try:
            await ws.recv()
        except ConnectionClosed as exc:
            raised.append(exc)

    async with trio.open_nursery() as nursery:
        port = await _serve(nursery, handler)
        for _ in range(2):
            async with connect(f"ws://127.0.0.1:{port}", compression=None):
                pass  # (a message would wait for a handler this test never gives)
            with trio.fail_after(10):
                while len(raised) < len(seen) or not seen:
                    await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert len(seen) == 2 and seen[0] is seen[1], "one stand-in for every connection"
    assert len(raised) == 2
