"""The SDK follows `moved` (PROTOCOL.md 4) only to one of the site's own
origins, which the server announces in `welcome.origins`: a forged `moved`
cannot send it, with its API token and seat tokens, to another listener,
not even one on the same host's other port.

The server here is a scripted listener (real websockets on 127.0.0.1):
the part under test is the SDK's handling of what it is told; a real site
never sends a `moved` it did not mean (tests/cluster)."""

from __future__ import annotations

import functools
from typing import Any

import msgpack
import pytest
import trio
from websockets.trio.server import serve

from oriente.clients.sdk import Client, origin_of


class Listener:
    """A websocket listener that answers every request with `ok` and, on
    its first connection, once it answered the first request (the SDK's
    sign-in), says the table moved to `moved_to` and closes."""

    def __init__(self) -> None:
        self.url = ""
        self.connections = 0
        self.frames: list[dict[str, Any]] = []
        self.origins: list[str] = []
        self.moved_to: str | None = None

    async def handler(self, ws: Any) -> None:
        self.connections += 1
        first = self.connections == 1
        await ws.send(msgpack.packb({"t": "welcome", "protocol": "oriente.v1", "version": 1, "server": "script",
                                     "limits": {}, "origins": self.origins}))
        async for raw in ws:
            frame = msgpack.unpackb(raw)
            self.frames.append(frame)
            await ws.send(msgpack.packb({"t": "ok", "re": frame["id"], "account": {"name": "b", "bot": True}}))
            if first and self.moved_to is not None:
                await ws.send(msgpack.packb({"t": "moved", "table": "T", "message": "go", "url": self.moved_to}))
                await ws.aclose(1012)
                return

    async def start(self, nursery: trio.Nursery) -> Listener:
        server = await nursery.start(functools.partial(serve, self.handler, 0, host="127.0.0.1",
                                                       subprotocols=["oriente.v1"]))
        self.url = f"ws://127.0.0.1:{server.listeners[0].socket.getsockname()[1]}"
        return self


def test_origins_are_scheme_host_and_port() -> None:
    assert origin_of("ws://127.0.0.1:80/x") == "ws://127.0.0.1"
    assert origin_of("WSS://Play.Example.org:443/") == "wss://play.example.org"
    assert origin_of("ws://127.0.0.1:8765") != origin_of("ws://127.0.0.1:8766")
    assert origin_of("https://play.example.org") is None
    assert origin_of("nonsense") is None


@pytest.mark.trio
@pytest.mark.parametrize("announced", [False, True])
async def test_moved_is_followed_only_to_an_announced_origin(announced: bool) -> None:
    async with trio.open_nursery() as nursery:
        site, elsewhere = await Listener().start(nursery), await Listener().start(nursery)
        site.origins = [site.url] + ([elsewhere.url] if announced else [])
        site.moved_to = f"{elsewhere.url}/"
        async with Client.connect(site.url, token="api-secret") as client:
            with trio.fail_after(10):
                while site.connections + elsewhere.connections < 2 or not client.connected:
                    await trio.sleep(0.02)
            await client.request({"t": "ping"})
        nursery.cancel_scope.cancel()
    if announced:
        assert (site.connections, elsewhere.connections) == (1, 1)
        assert elsewhere.frames[0] == {"t": "sign_in", "id": elsewhere.frames[0]["id"], "token": "api-secret"}
    else:
        assert elsewhere.connections == 0, "the SDK took its token to a listener that is not the site"
        assert site.connections == 2  # it reconnected where it was
        assert not any(f.get("token") == "api-secret" for f in elsewhere.frames)
