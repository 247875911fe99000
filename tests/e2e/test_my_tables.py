"""my_tables over real sockets (PROTOCOL.md 3): a person's tables, from the
ids a client keeps and, signed in, from the seats its account holds; each
with the table's information and `you`, the account's seat there."""

from __future__ import annotations

import contextlib
import time
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


TURNS = {"prompt_ms": 86_400_000, "window_ms": 3_600_000, "bank_ms": 0, "bank_refill_ms": 0, "turn_based": True}


async def test_a_turn_based_table_seats_accounts_lists_whom_it_awaits_and_resumes_on_any_device(
        server: App) -> None:
    """docs/table.md T8.8 and PROTOCOL.md 3: a turn-based table refuses a
    signed-out seat; my_tables lists the account's table first when it
    awaits the account, with until when; a resume without a token, signed
    in on another connection, takes the account's seat again."""
    async with contextlib.AsyncExitStack() as stack:
        ana, bob, anon = [await connect(server.port, stack) for _ in range(3)]
        for c, name in ((ana, "ana"), (bob, "bob")):
            await c.request({"t": "sign_up", "name": name, "password": "correct horse"})
        made = await ana.request({"t": "create_table", "seats": 2, "game": "oro", "timers": TURNS, "name": "slow"})
        assert made["t"] == "ok", made
        table = made["table"]
        refused = await anon.request({"t": "join", "table": table, "name": "anon"})
        assert refused["code"] == "auth/sign_in_required"
        assert (await ana.request({"t": "join", "table": table, "name": "x", "seat": 0}))["t"] == "ok"
        assert (await bob.request({"t": "join", "table": table, "name": "x", "seat": 1}))["t"] == "ok"
        table_actor = server.lobby.tables[table]  # type: ignore[union-attr]
        with trio.fail_after(10):
            while table_actor.status != "running" or table_actor.play.clock.deadline is None:
                await trio.sleep(0.05)
        pivot = table_actor.play.clock.deadline.pivot  # type: ignore[union-attr]
        waiting, other = (ana, bob) if pivot == 0 else (bob, ana)
        with trio.fail_after(10):  # the step is stored (with its index rows) just after the deadline is armed
            while not (mine := (await waiting.request({"t": "my_tables", "tables": ["nosuchtable"]}))["tables"])[0][
                    "awaits"]:
                await trio.sleep(0.05)
        assert [(x["table"], x["you"], x["awaits"]) for x in mine] == [(table, pivot, True)]
        assert mine[0]["settings"]["timers"]["turn_based"] is True
        now_ms = time.time() * 1000
        assert now_ms + 86_000_000 < mine[0]["until_ms"] <= now_ms + 86_400_000 + 1000
        theirs = (await other.request({"t": "my_tables"}))["tables"]
        assert [(x["table"], x["you"], x["awaits"], x["until_ms"]) for x in theirs] == [(table, 1 - pivot, False,
                                                                                          None)]
        # Another device of the awaited account: signed in, a resume without a token.
        name = "ana" if pivot == 0 else "bob"
        phone = await connect(server.port, stack)
        nobody = await phone.request({"t": "resume", "table": table, "token": ""})
        assert nobody["code"] == "auth/bad_token", "signed out, an empty token holds nothing"
        await phone.request({"t": "sign_in", "name": name, "password": "correct horse"})
        back = await phone.request({"t": "resume", "table": table, "token": ""})
        assert back["t"] == "ok" and back["you"] == pivot
        stranger = await connect(server.port, stack)
        await stranger.request({"t": "sign_up", "name": "cid", "password": "correct horse"})
        assert (await stranger.request({"t": "resume", "table": table, "token": ""}))["code"] == "auth/bad_token"
