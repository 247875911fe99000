"""What a connection at a table costs in its instance dict.

CPython shares the keys of an instance's dict among the instances of a
class (a "split" dict: each instance holds only its values) up to 30
distinct keys, counted over every instance the class ever had. The
library's server connection has some 25; the attributes the transport
added for reading directly, batching writes and the keepalive filled the
shared keys, after which a connection that set one more got a whole dict
of its own: 1,584 bytes instead of 296, some 8 KiB a table of six. They
are slots of `BatchConnection` now. Measured on the server's own
connections, while a real game plays."""

from __future__ import annotations

import gc
import sys

import pytest
import trio

from oriente.server.transport import BatchConnection

from .test_game_e2e import create_table
from .wsclient import Client, open_client

pytestmark = pytest.mark.trio

# What the transport keeps on a connection of its own (server/transport.py).
OWN = {"_failure", "_fragments", "_handler_given", "_inbox", "_left", "_on_message", "_on_message_of",
       "_stopped", "_woken", "handler_exc", "next_ping", "reads_directly"}


async def _connections_that_came_before(port: int) -> None:
    """Connections whose lives set what a table's do not: a message sent in
    fragments, a text message, a close at once. What any connection ever
    set counts against the 30 shared keys of every later one."""
    async with open_client(port) as ws:
        await ws.send([b"\x81", b"\xa1t"])  # fragmented: {"t"...} cut short, refused
        await ws.send("text")
        await ws.recv()
    async with open_client(port):
        pass


async def test_the_connections_at_a_table_keep_their_instance_dicts_split(server) -> None:
    await _connections_that_came_before(server.port)
    table = await create_table(server.port, 4, seed=3)
    async with open_client(server.port) as a, open_client(server.port) as b, \
            open_client(server.port) as c, open_client(server.port) as d:
        clients = [Client(ws) for ws in (a, b, c, d)]
        for i, client in enumerate(clients):
            await client.recv()  # welcome
            joined = await client.request({"t": "join", "table": table, "name": f"p{i}"})
            assert joined["t"] == "ok", joined
        for client in clients:  # the game has begun: every seat saw its first prompt
            await client.until(lambda f: f.get("t") == "events" and bool(f.get("prompt")))
        await trio.sleep(0.1)  # the keepalive's first round is long past its start
        # type(), not isinstance(): a dead weak proxy among the objects raises on the latter.
        connections = [o for o in gc.get_objects() if type(o) is BatchConnection]
        assert len(connections) >= 4
        for conn in connections:
            keys = set(vars(conn))
            assert keys.isdisjoint(OWN), f"in the library's dict: {sorted(keys & OWN)}"
            assert len(keys) < 30, sorted(keys)
            assert sys.getsizeof(vars(conn)) < 1000, (sys.getsizeof(vars(conn)), sorted(keys))
    assert set(BatchConnection.__slots__) >= OWN
