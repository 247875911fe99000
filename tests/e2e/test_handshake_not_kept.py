"""An open connection keeps nothing of its handshake: the request's
headers are read when the connection starts (the client's address behind
a proxy, its User-Agent) and then dropped with the response, rather than
held for the connection's life (some KiB each, bench/memory.py)."""

from __future__ import annotations

import gc

import pytest
from websockets.datastructures import Headers

from oriente.server.app import App
from oriente.server.session import Conn
from oriente.server.transport import BatchConnection

from .wsclient import Client, open_client, unpack

pytestmark = pytest.mark.trio

PADDING = "p" * 2000


async def test_an_open_connection_holds_no_handshake_headers(tmp_path, nursery) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0)
    await nursery.start(app.run)
    try:
        async with open_client(app.port, additional_headers={"X-Padding": PADDING},
                               user_agent_header="probe/1") as ws:
            assert unpack(await ws.recv())["t"] == "welcome"
            gc.collect()
            servers = [o for o in gc.get_objects() if type(o) is BatchConnection]
            assert len(servers) == 1
            assert servers[0].request is None and servers[0].response is None
            kept = [o for o in gc.get_objects() if isinstance(o, Headers) and o.get("X-Padding") == PADDING]
            # The client's own copy of what it sent is the only one left.
            assert len(kept) <= 1, "the server still holds the handshake's headers"
            # What the connection needed of them was read first.
            assert [c.client for c in gc.get_objects() if isinstance(c, Conn)] == ["probe/1"]
            reply = await Client(ws).request({"t": "list_tables"})
            assert reply["t"] == "ok"
    finally:
        await app.aclose()
