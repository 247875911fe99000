"""list_tables over real sockets: the listing comes in
pages of bounded size, each table once, and old clients get the first page.
(The outbox's byte cap is tested in tests/server/test_outbox_bytes.py;
bench/abuse.py measures what a client that asks and never reads holds.)"""

from __future__ import annotations

import pytest

from oriente.server.app import App
from oriente.server.transport import Limits

from .wsclient import Client, open_client

pytestmark = pytest.mark.trio

MANY = Limits(tables_per_connection=100, tables_per_address=100)


async def fill(app: App, n: int) -> list[str]:
    async with open_client(app.port) as ws:
        c = Client(ws)
        await c.recv()
        return [(await c.request({"t": "create_table", "seats": 4, "name": f"t{i}"}))["table"] for i in range(n)]


async def test_the_listing_comes_in_pages_each_table_once(tmp_path, nursery) -> None:
    app = App(str(tmp_path / "s.sqlite"), port=0, limits=MANY)
    await nursery.start(app.run)
    made = await fill(app, 60)
    async with open_client(app.port) as ws:
        c = Client(ws)
        await c.recv()
        old = await c.request({"t": "list_tables"})  # an old client: no cursor, no limit
        assert [t["table"] for t in old["tables"]] == made[:50] and old["next"] is not None
        seen, cursor, sizes = [], None, []
        while True:
            page = await c.request({"t": "list_tables", "cursor": cursor, "limit": 25})
            sizes.append(len(page["tables"]))
            seen += [t["table"] for t in page["tables"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert seen == made and sizes == [25, 25, 10]
        big = await c.request({"t": "list_tables", "limit": 10_000})  # at most 200 a page
        assert len(big["tables"]) == 60 and big["next"] is None
        bad = await c.request({"t": "list_tables", "cursor": "nonsense"})
        assert (bad["t"], bad["code"]) == ("error", "message/invalid")
        # A table created meanwhile is on the next listing at once.
        more = await fill(app, 1)
        tail = await c.request({"t": "list_tables", "limit": 200})
        assert [t["table"] for t in tail["tables"]] == made + more
    await app.aclose()


async def test_the_sdk_reads_every_page(tmp_path, nursery) -> None:
    """The SDK (and the terminal client through it) pages through the listing."""
    from oriente.clients.sdk import Client as Sdk

    app = App(str(tmp_path / "s.sqlite"), port=0, limits=MANY)
    await nursery.start(app.run)
    made = await fill(app, 30)
    async with Sdk.connect(f"ws://127.0.0.1:{app.port}") as client:
        assert [t["table"] for t in await client.list_tables(page=7)] == made
        assert [t["table"] for t in await client.list_tables(page=7, most=10)] == made[:10]
    await app.aclose()
