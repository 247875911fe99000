"""A client that stops reading is evicted; everyone else keeps their stream.

Over real sockets: a raw client performs the websocket handshake, asks to
spectate many busy tables, then never reads again (with a small receive
buffer, so the kernel's buffers fill quickly). The bots at those tables must
all finish their games, and the server must count the eviction.
"""

from __future__ import annotations

import base64
import os
import random
import socket

import msgpack
import pytest
import trio

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import BOT_TIMERS, Client, open_client, play_bot

pytestmark = pytest.mark.trio


def masked_frame(payload: bytes) -> bytes:
    """One binary client frame (RFC 6455 section 5.2: clients mask)."""
    mask = os.urandom(4)
    head = bytearray([0x82])
    n = len(payload)
    if n < 126:
        head.append(0x80 | n)
    else:
        head.append(0x80 | 126)
        head += n.to_bytes(2, "big")
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes(head) + mask + body


async def stalled_client(port: int, tables: list[str]) -> trio.SocketStream:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    key = base64.b64encode(os.urandom(16)).decode()
    await stream.send_all((
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: oriente.v1\r\n\r\n"
    ).encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += await stream.receive_some(1)  # byte by byte: read nothing past the headers
    assert response.startswith(b"HTTP/1.1 101"), response
    for i, table in enumerate(tables):
        await stream.send_all(masked_frame(msgpack.packb({"t": "spectate", "id": i, "table": table})))
    return stream  # and from now on, never read


async def test_a_client_that_stops_reading_is_evicted_and_the_tables_finish(tmp_path, nursery):
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(outbox=64, send_timeout=2.0,
                                                                tables_per_connection=12, tables_per_address=12))
    await nursery.start(app.run)
    tables = []
    async with open_client(app.port) as ws:
        c = Client(ws)
        await c.recv()
        for seed in range(12):
            tables.append((await c.request({"t": "create_table", "seats": 4, "seed": seed,
                                            "timers": BOT_TIMERS}))["table"])
    stalled = await stalled_client(app.port, tables)
    with trio.fail_after(120):
        async with trio.open_nursery() as bots:
            for t, table in enumerate(tables):
                for i in range(4):
                    bots.start_soon(lambda table=table, i=i, t=t: play_bot(
                        app.port, table, f"b{i}", random.Random(t * 10 + i)))
    for t in tables:  # an ended table left memory; it is brought back from its log
        found = await app.lobby.find(t)
        assert found is not None and found.status == "finished"
    assert app.metrics.evictions >= 1, "the stalled client was never evicted"
    await stalled.aclose()
    await app.aclose()
