"""Deployed as docs/deploy.md shows: a reverse proxy on the same machine,
`oriente serve` with no extra option (docs/table.md T6.2).

Measured before: every player behind the proxy counted as the proxy's
address, so one player's 20 open tables locked every other player out of
`create_table`. The proxy here does what the nginx configuration of
docs/deploy.md does with a request: it appends the address it got the
request from to `X-Forwarded-For` (`$proxy_add_x_forwarded_for`) and
connects to the server from 127.0.0.1. Its players connect from loopback
addresses of their own, which the proxy reports as the internet addresses
they stand for (127.0.3.N as 203.0.113.N), since a test has no internet."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from typing import Any

import pytest
import trio

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import Client, open_client

pytestmark = pytest.mark.trio


class Proxy:
    """A reverse proxy for websockets, as the nginx block of docs/deploy.md."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = 0

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._one, listeners)

    async def _one(self, client: trio.SocketStream) -> None:
        peer = client.socket.getpeername()[0]
        seen = peer.replace("127.0.3.", "203.0.113.")  # the player's address on the internet
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = await client.receive_some(4096)
            if not chunk:
                return
            head += chunk
        head, _, rest = head.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        forwarded = [ln.split(":", 1)[1].strip() for ln in lines if ln.lower().startswith("x-forwarded-for:")]
        lines = [ln for ln in lines if not ln.lower().startswith("x-forwarded-for:")]
        lines.append("X-Forwarded-For: " + ", ".join([*forwarded, seen]))
        server = await trio.open_tcp_stream("127.0.0.1", self.upstream)
        await server.send_all(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + rest)
        async with client, server, trio.open_nursery() as nursery:
            async def pipe(a: trio.SocketStream, b: trio.SocketStream) -> None:
                try:
                    while chunk := await a.receive_some(65536):
                        await b.send_all(chunk)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                nursery.cancel_scope.cancel()
            nursery.start_soon(pipe, client, server)
            nursery.start_soon(pipe, server, client)


async def player(stack: AsyncExitStack, port: int, source: str, **kw: Any) -> Client:
    ws = await stack.enter_async_context(open_client(port, local_address=source, **kw))
    c = Client(ws)
    assert (await c.recv())["t"] == "welcome"
    return c


async def create(c: Client) -> str:
    reply = await c.request({"t": "create_table", "seats": 4})
    return reply["t"] if reply["t"] == "ok" else reply["code"]


async def test_behind_a_proxy_on_this_machine_each_player_is_limited_by_their_own_address(tmp_path, nursery) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(tables_per_connection=10, tables_per_address=2))
    await nursery.start(app.run)
    proxy = Proxy(app.port)
    await nursery.start(proxy.run)
    try:
        async with AsyncExitStack() as stack:
            ana = await player(stack, proxy.port, "127.0.3.1")
            assert [await create(ana) for _ in range(3)] == ["ok", "ok", "lobby/too_many"]
            bea = await player(stack, proxy.port, "127.0.3.2")
            assert await create(bea) == "ok", "another player behind the same proxy is not locked out"
            # A hop the player writes itself comes before the proxy's: it changes nothing.
            for forged in ("198.51.100.99", "127.0.0.1", "198.51.100.98, 127.0.0.1"):
                again = await player(stack, proxy.port, "127.0.3.1", additional_headers={"X-Forwarded-For": forged})
                assert await create(again) == "lobby/too_many", forged
    finally:
        await app.aclose()


async def test_a_forwarded_header_from_an_untrusted_peer_is_ignored_and_logged(tmp_path, nursery, caplog) -> None:
    """With `--trusted-proxy` naming the real proxy, loopback is no longer
    trusted: a header from it counts for nothing, and the log says so."""
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(tables_per_connection=10, tables_per_address=1),
              trusted_proxies=["10.20.30.40"])
    await nursery.start(app.run)
    try:
        with caplog.at_level(logging.WARNING, logger="oriente.transport"):
            async with AsyncExitStack() as stack:
                one = await player(stack, app.port, "127.0.0.7", additional_headers={"X-Forwarded-For": "203.0.113.1"})
                two = await player(stack, app.port, "127.0.0.7", additional_headers={"X-Forwarded-For": "203.0.113.2"})
                assert await create(one) == "ok"
                assert await create(two) == "lobby/too_many", "both count as 127.0.0.7"
        warned = [r.getMessage() for r in caplog.records if "X-Forwarded-For" in r.getMessage()]
        assert warned and "127.0.0.7" in warned[0] and "--trusted-proxy" in warned[0]
        assert len(warned) == 1, "said once, not once per request"
    finally:
        await app.aclose()
