"""A client whose socket is gone by the time the server handles its
connection (it connected and left at once) is no error of the server.

bench/abuse.py found it: a bot cancelled while it connected left the
server logging "connection handler failed" with a traceback, because the
handler asked the socket for its peer's address to label its outbox, and a
socket whose peer has gone answers that with ENOTCONN. The address the
limits count under already allowed for that (transport._peer)."""

from __future__ import annotations

import errno
import logging

import pytest
from websockets.trio.server import ServerConnection

from oriente.server.app import App

from .wsclient import open_client, unpack

pytestmark = pytest.mark.trio


async def test_a_peer_gone_before_the_handler_asks_its_address_is_no_error(tmp_path, nursery, monkeypatch,
                                                                           caplog) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0)
    await nursery.start(app.run)
    try:
        def gone(self: ServerConnection) -> None:
            raise OSError(errno.ENOTCONN, "Transport endpoint is not connected")

        # The server's side of every connection from now on finds its peer gone.
        monkeypatch.setattr(ServerConnection, "remote_address", property(gone))
        with caplog.at_level(logging.ERROR, logger="websockets"):
            async with open_client(app.port) as ws:
                assert unpack(await ws.recv())["t"] == "welcome"
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    finally:
        await app.aclose()
