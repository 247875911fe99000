"""A connection's writer is a task only while something waits to be sent:
frames the kernel takes at once go out from the caller's task, and an idle
connection has no writer asleep; an abuser still gets its last frames
before its 1008. Real websockets on 127.0.0.1."""

from __future__ import annotations

import functools
import gc
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


class _ForgetfulSession(_Session):
    """Keeps no outbox of its own: what holds one is the transport's."""

    def connect(self, outbox: Outbox, **kw: Any) -> SimpleNamespace:
        return SimpleNamespace(outbox=outbox)


async def test_a_closed_connection_leaves_no_cycle_through_its_outbox() -> None:
    """A connection's outbox holds its hooks (`Outbox.direct`, the writer's
    and the evictor's starters), and they hold the outbox: once the
    connection is gone that cycle must be broken, or every closed connection
    would wait for the cyclic collector, which the server runs only now and
    then (server/collector.py)."""
    session = _ForgetfulSession()
    leaked: list[object] = []
    async with trio.open_nursery() as nursery:
        transport, port = await _serve(nursery, session)
        gc.collect()
        gc.disable()
        try:
            async with connect(f"ws://127.0.0.1:{port}") as ws:
                await ws.recv()  # the welcome
            with trio.fail_after(20):  # a guard, not a time limit: the server's side ends soon after
                while transport.metrics.connections_open:
                    await trio.sleep(0.01)
            await trio.testing.wait_all_tasks_blocked()  # the handler has returned
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            leaked = [o for o in gc.garbage if type(o) is Outbox]  # isinstance would ask dead weak proxies
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        nursery.cancel_scope.cancel()
    assert leaked == [], "a closed connection's outbox was left to the cyclic collector"
