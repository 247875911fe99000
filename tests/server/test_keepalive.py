"""The transport's one keepalive task pings every open connection, as the
library's keepalive did with a task asleep on each: a client that answers
stays open, one that does not is closed with 1011 once `ping_timeout` has
passed, and between pings a connection has no keepalive task. Real
websockets on 127.0.0.1, under trio's MockClock: the keepalive is timer
logic."""

from __future__ import annotations

import functools
from types import SimpleNamespace
from typing import Any

import pytest
import trio
import trio.testing
from websockets.client import ClientProtocol
from websockets.frames import Close, Opcode
from websockets.trio.client import connect
from websockets.trio.server import serve
from websockets.uri import parse_uri

from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.transport import KEEPALIVE_TICK, BatchConnection, Limits, Transport

pytestmark = pytest.mark.trio

INTERVAL = 20.0
TIMEOUT = 20.0


class _Quiet:
    """A session that welcomes every connection and answers nothing."""

    cluster = None

    def connect(self, outbox: Outbox, **kw: Any) -> SimpleNamespace:
        return SimpleNamespace(outbox=outbox)

    def welcome(self) -> dict[str, Any]:
        return {"t": "welcome"}

    async def frame(self, conn: Any, frame: bytes) -> None:
        pass

    async def closed(self, conn: Any) -> None:
        pass


async def _serve(nursery: trio.Nursery) -> tuple[Transport, int]:
    transport = Transport(_Quiet(), Metrics(), Limits())  # type: ignore[arg-type]
    server = await nursery.start(functools.partial(
        serve, transport.handler, 0, host="127.0.0.1", compression=None, ping_interval=INTERVAL,
        ping_timeout=TIMEOUT, create_connection=BatchConnection))
    nursery.start_soon(transport.keepalive)
    return transport, server.listeners[0].socket.getsockname()[1]


async def test_an_answering_client_stays_open_with_no_keepalive_task_between_pings(autojump_clock):
    async with trio.open_nursery() as nursery:
        transport, port = await _serve(nursery)
        async with connect(f"ws://127.0.0.1:{port}", compression=None, ping_interval=None) as client:
            await client.recv()  # the welcome
            (ws,) = transport._pinged
            first = ws.next_ping
            assert first <= trio.current_time() + INTERVAL
            await trio.sleep(5 * (INTERVAL + TIMEOUT))
            assert ws.next_ping > first + 3 * INTERVAL, "pinged, answered, and due again, round after round"
            await client.send(b"still here")
            await trio.testing.wait_all_tasks_blocked()
            # The connection's own tasks between pings: its reader (the
            # library's), the transport's reader and writer; none asleep for a ping.
            names = [t.name for t in ws.nursery.child_tasks]
            assert not [n for n in names if "keepalive" in n or "ping" in n], names
        await trio.testing.wait_all_tasks_blocked()
        assert not transport._pinged, "a closed connection is pinged no more"
        nursery.cancel_scope.cancel()


async def test_a_client_that_never_answers_a_ping_is_closed_with_1011_after_the_timeout(autojump_clock):
    async with trio.open_nursery() as nursery:
        transport, port = await _serve(nursery)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"))
        protocol.send_request(protocol.connect())
        await stream.send_all(b"".join(protocol.data_to_send()))
        opened = trio.current_time()
        closes: list[Close] = []
        pings = 0
        # Read what the server sends, but never write again: no pong goes back.
        while True:
            data = await stream.receive_some()
            if not data:
                break
            protocol.receive_data(data)
            for event in protocol.events_received():
                if getattr(event, "opcode", None) is Opcode.PING:
                    pings += 1
                elif getattr(event, "opcode", None) is Opcode.CLOSE:
                    closes.append(Close.parse(event.data))
            protocol.data_to_send()  # the automatic pong, dropped
        closed = trio.current_time() - opened
        assert pings == 1
        assert [c.code for c in closes] == [1011], closes
        assert closes[0].reason == "keepalive ping timeout"
        assert INTERVAL + TIMEOUT <= closed <= INTERVAL + TIMEOUT + KEEPALIVE_TICK + 1
        await stream.aclose()
        await trio.sleep(1)
        assert not transport._pinged, "a closed connection is pinged no more"
        nursery.cancel_scope.cancel()
