"""A connection's writer is a task only while something waits to be sent:
frames the kernel takes at once go out from the caller's task, and an idle
connection has no writer asleep; an abuser still gets its last frames
before its 1008. Real websockets on 127.0.0.1."""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import pytest
import trio
import trio.testing
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import connect
from websockets.trio.server import serve

from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.transport import CLOSE_ABUSE, BatchConnection, Limits, Transport

pytestmark = pytest.mark.trio


class _Session:
    """Welcomes every connection; answers `abuse` with a goodbye and the
    abuse eviction, anything else with nothing."""

    cluster = None

    def __init__(self) -> None:
        self.outboxes: list[Outbox] = []

    def connect(self, outbox: Outbox, **kw: Any) -> SimpleNamespace:
        self.outboxes.append(outbox)
        return SimpleNamespace(outbox=outbox)

    def welcome(self) -> dict[str, Any]:
        return {"t": "welcome"}

    async def frame(self, conn: Any, frame: bytes) -> None:
        if frame == b"abuse":
            conn.outbox.put(b"goodbye")
            conn.outbox.evict("abuse/closed")

    async def closed(self, conn: Any) -> None:
        pass


async def _serve(nursery: trio.Nursery, session: _Session) -> tuple[Transport, int]:
    transport = Transport(session, Metrics(), Limits())  # type: ignore[arg-type]
    server = await nursery.start(functools.partial(
        serve, transport.handler, 0, host="127.0.0.1", compression=None, create_connection=BatchConnection))
    return transport, server.listeners[0].socket.getsockname()[1]


def _writers() -> list[trio.lowlevel.Task]:
    found, nurseries = [], list(trio.lowlevel.current_root_task().child_nurseries)
    while nurseries:
        for task in nurseries.pop().child_tasks:
            if task.name.endswith("Transport._writer"):
                found.append(task)
            nurseries.extend(task.child_nurseries)
    return found


async def test_an_idle_connection_has_no_writer_task():
    session = _Session()
    async with trio.open_nursery() as nursery:
        _, port = await _serve(nursery, session)
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            assert await client.recv() == b"\x81\xa1t\xa7welcome"
            await client.send(b"hello")  # answered with nothing
            await trio.testing.wait_all_tasks_blocked()
            assert not _writers(), "a writer task waits on an idle connection"
            assert session.outboxes[0].writing is None
        nursery.cancel_scope.cancel()


async def test_an_abuser_gets_its_last_frames_then_1008():
    session = _Session()
    async with trio.open_nursery() as nursery:
        _, port = await _serve(nursery, session)
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
            await client.recv()
            await client.send(b"abuse")
            with trio.fail_after(10):
                assert await client.recv() == b"goodbye"
                with pytest.raises(ConnectionClosed) as closed:
                    await client.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_ABUSE
        assert not _writers()
        nursery.cancel_scope.cancel()
