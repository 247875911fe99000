"""Creation limits over real sockets (docs/table.md T6.2):
one connection and one client address may each hold only so many open
tables, other addresses are not locked out, and behind a trusted reverse
proxy the address is the one X-Forwarded-For names. Clients connect from
other loopback addresses (127.0.0.2, ...) to be other addresses."""

from __future__ import annotations

from contextlib import AsyncExitStack

import pytest

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import Client, open_client

pytestmark = pytest.mark.trio


async def connect(stack: AsyncExitStack, port: int, source: str = "127.0.0.1", **kw) -> Client:
    ws = await stack.enter_async_context(open_client(port, local_address=source, **kw))
    c = Client(ws)
    assert (await c.recv())["t"] == "welcome"
    return c


async def create(c: Client) -> dict:
    return await c.request({"t": "create_table", "seats": 4})


@pytest.fixture
async def limited(tmp_path, nursery):
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(tables_per_connection=2, tables_per_address=3))
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def test_t6_2_one_connection_and_one_address_are_limited_and_others_are_not(limited: App) -> None:
    async with AsyncExitStack() as stack:
        first = await connect(stack, limited.port, "127.0.0.2")
        made = [await create(first) for _ in range(3)]
        assert [r["t"] for r in made] == ["ok", "ok", "error"]
        assert made[2]["code"] == "lobby/too_many" and "2" in made[2]["message"]
        second = await connect(stack, limited.port, "127.0.0.2")
        made = [await create(second) for _ in range(2)]
        assert [r["t"] for r in made] == ["ok", "error"]
        assert made[1]["code"] == "lobby/too_many" and "3" in made[1]["message"]
        other = await connect(stack, limited.port, "127.0.0.3")
        assert (await create(other))["t"] == "ok", "another address is not locked out"
        # A table that starts no longer counts: its creator may open another.
        table = (await first.request({"t": "list_tables"}))["tables"][0]["table"]  # the first one it made
        for i in range(4):
            seat = await connect(stack, limited.port, f"127.0.1.{i}")
            assert (await seat.request({"t": "join", "table": table, "name": f"p{i}"}))["t"] == "ok"
        assert (await create(first))["t"] == "ok"


async def test_t6_2_behind_a_trusted_proxy_the_address_is_x_forwarded_for(tmp_path, nursery) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=Limits(tables_per_connection=5, tables_per_address=1),
              trusted_proxies=("127.0.0.1",))
    await nursery.start(app.run)
    try:
        async with AsyncExitStack() as stack:
            a = await connect(stack, app.port, additional_headers={"X-Forwarded-For": "203.0.113.7"})
            b = await connect(stack, app.port, additional_headers={"X-Forwarded-For": "203.0.113.8, 127.0.0.1"})
            assert (await create(a))["t"] == "ok"
            assert (await create(b))["t"] == "ok", "another client behind the same proxy"
            assert (await create(a))["code"] == "lobby/too_many"
            # An untrusted peer cannot pick its address with the header.
            c = await connect(stack, app.port, "127.0.0.5", additional_headers={"X-Forwarded-For": "198.51.100.1"})
            d = await connect(stack, app.port, "127.0.0.5", additional_headers={"X-Forwarded-For": "198.51.100.2"})
            assert (await create(c))["t"] == "ok"
            assert (await create(d))["code"] == "lobby/too_many"
    finally:
        await app.aclose()
