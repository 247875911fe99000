"""my_tables over real sockets (PROTOCOL.md 3): a person's tables, from the
ids a client keeps and, signed in, from the seats its account holds; each
with the table's information and `you`, the account's seat there."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
import trio
from argon2 import PasswordHasher

from oriente.server.app import App

from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio


@pytest.fixture
async def server(tmp_path: Any, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, hasher=PasswordHasher(time_cost=1, memory_cost=1024))
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def connect(port: int, stack: Any) -> Client:
    c = Client(await stack.enter_async_context(open_client(port)))
    await c.recv()  # welcome
    return c


async def test_my_tables_from_the_ids_kept_and_the_account_seats(server: App) -> None:
    async with contextlib.AsyncExitStack() as stack:
        ana, other = await connect(server.port, stack), await connect(server.port, stack)
        up = await ana.request({"t": "sign_up", "name": "ana", "password": "correct horse"})
        made = [await other.request({"t": "create_table", "seats": 4, "name": f"t{k}", "timers": BOT_TIMERS})
                for k in range(3)]
        kept, seated, untouched = (m["table"] for m in made)
        joined = await ana.request({"t": "join", "table": seated, "name": "ignored", "seat": 2})
        assert joined["t"] == "ok"

        # Signed in: the asked table first (no seat of the account there), then the account's own.
        reply = await ana.request({"t": "my_tables", "tables": [kept, "nosuchtable", kept]})
        assert reply["t"] == "ok", reply
        assert [(x["table"], x["you"]) for x in reply["tables"]] == [(kept, None), (seated, 2)]
        own = reply["tables"][1]
        assert own["status"] == "open" and own["settings"]["name"] == "t1"
        assert own["seats"][2]["account"]["id"] == up["account"]["id"]
        assert untouched not in {x["table"] for x in reply["tables"]}
        # Signed out: the asked ids alone, and no seat is anyone's.
        reply = await other.request({"t": "my_tables", "tables": [seated, kept]})
        assert [(x["table"], x["you"]) for x in reply["tables"]] == [(seated, None), (kept, None)]
        assert (await other.request({"t": "my_tables"}))["tables"] == []
        # At most `limit` answered; a list too long or a limit below 1 is refused.
        assert len((await ana.request({"t": "my_tables", "tables": [kept, untouched], "limit": 1}))["tables"]) == 1
        too_many = await other.request({"t": "my_tables", "tables": [f"t{k}" for k in range(51)]})
        assert too_many["code"] == "message/invalid"
        assert (await other.request({"t": "my_tables", "limit": 0}))["code"] == "message/invalid"
