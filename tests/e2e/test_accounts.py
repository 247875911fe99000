"""Accounts over real sockets (PROTOCOL.md 19, docs/accounts.md): sign up,
sign in, a wrong password refused without saying whether the name exists,
failed sign-ins backing off per name from many addresses (127.0.0.x are
distinct client addresses), one address's budget of new accounts, sessions
listed and signed out everywhere, bot tokens revoked, a rated table refused
to a signed-out seat, and a rated game that moves the leaderboard and the
reputation, read over HTTP too."""

from __future__ import annotations

import contextlib
import json
import random
import urllib.request
from typing import Any

import pytest
import trio
from argon2 import PasswordHasher

from oriente.server.accounts import AccountPolicy, SessionPolicy
from oriente.server.app import App

from .wsclient import BOT_TIMERS, Client, open_client, pick

pytestmark = pytest.mark.trio


@pytest.fixture
async def server(tmp_path: Any, nursery: trio.Nursery) -> Any:
    app = App(str(tmp_path / "store.sqlite"), port=0, hasher=PasswordHasher(time_cost=1, memory_cost=1024))
    await nursery.start(app.run)
    yield app
    await app.aclose()


async def connect(port: int, stack: Any) -> Client:
    ws = await stack.enter_async_context(open_client(port))
    c = Client(ws)
    await c.recv()  # welcome
    return c


async def test_sign_up_sign_in_and_a_wrong_password(server: App) -> None:
    async with open_client(server.port) as ws1, open_client(server.port) as ws2:
        ana, other = Client(ws1), Client(ws2)
        await ana.recv()
        await other.recv()
        up = await ana.request({"t": "sign_up", "name": "Ana", "password": "correct horse"})
        assert up["t"] == "ok" and up["account"]["name"] == "Ana" and up["account"]["bot"] is False
        again = await other.request({"t": "sign_up", "name": "ANA", "password": "another one"})
        assert again["code"] == "account/name_taken"
        short = await other.request({"t": "sign_up", "name": "bo", "password": "short"})
        assert short["code"] == "account/bad_password"

        wrong = await other.request({"t": "sign_in", "id": 9, "name": "ana", "password": "wrong horse"})
        unknown = await other.request({"t": "sign_in", "id": 9, "name": "nobody", "password": "wrong horse"})
        assert wrong["code"] == "auth/bad_credentials"
        assert wrong == unknown, "the refusal must not say whether the name exists"

        signed = await other.request({"t": "sign_in", "name": "ana", "password": "correct horse"})
        assert signed["t"] == "ok" and signed["account"]["id"] == up["account"]["id"]
        by_token = await other.request({"t": "sign_in", "token": up["token"]})
        assert by_token["t"] == "ok" and "token" not in by_token
        assert (await ana.request({"t": "sign_out"}))["t"] == "ok"
        stale = await other.request({"t": "sign_in", "token": up["token"]})
        assert stale["code"] == "auth/bad_token", "a signed-out session token signs no one in"


async def client_at(stack: Any, port: int, address: str, name: str = "") -> Client:
    """A connection from `address` (any 127.0.0.x is this machine), saying
    `name` as its client."""
    c = Client(await stack.enter_async_context(open_client(port, local_address=address)))
    await c.recv()  # welcome
    if name:
        await c.request({"t": "hello", "client": name})
    return c


async def test_guesses_from_many_addresses_back_off_and_say_how_long(server: App) -> None:
    """Six wrong passwords under one name from three addresses, and the
    seventh try waits, the right password too, from anywhere but where the
    owner signed in; the refusal carries retry_after."""
    assert server.port is not None
    async with contextlib.AsyncExitStack() as stack:
        owner = await client_at(stack, server.port, "127.0.0.1")
        assert (await owner.request({"t": "sign_up", "name": "ana", "password": "correct horse"}))["t"] == "ok"
        guessers = [await client_at(stack, server.port, f"127.0.0.{i}") for i in (2, 3, 4)]
        codes = [(await guessers[i % 3].request({"t": "sign_in", "name": "ana", "password": f"guess {i}"}))["code"]
                 for i in range(6)]
        assert codes == ["auth/bad_credentials"] * 6
        refused = await guessers[0].request({"t": "sign_in", "name": "Ana", "password": "correct horse"})
        assert refused["code"] == "auth/backing_off", refused
        assert isinstance(refused["retry_after"], float) and 0 < refused["retry_after"] <= 1.0
        elsewhere = await client_at(stack, server.port, "127.0.0.5")
        again = await elsewhere.request({"t": "sign_in", "name": "ana", "password": "correct horse"})
        assert again["code"] == "auth/backing_off", "a new address waits like the guessers"
        home = await client_at(stack, server.port, "127.0.0.1")
        signed = await home.request({"t": "sign_in", "name": "ana", "password": "correct horse"})
        assert signed["t"] == "ok", "where the owner signed up is not held back"


async def test_one_address_cannot_make_150_accounts_in_a_row(server: App) -> None:
    assert server.port is not None
    async with contextlib.AsyncExitStack() as stack:
        spammer = await client_at(stack, server.port, "127.0.0.9")
        replies = [await spammer.request({"t": "sign_up", "name": f"spam{i}", "password": "correct horse"})
                   for i in range(22)]
        assert [r["t"] for r in replies] == ["ok"] * 20 + ["error"] * 2
        assert {r["code"] for r in replies[20:]} == {"account/sign_up_limited"}
        assert 170.0 < replies[20]["retry_after"] <= 180.0, "one more every 3 minutes"
        other = await client_at(stack, server.port, "127.0.0.10")
        assert (await other.request({"t": "sign_up", "name": "fine", "password": "correct horse"}))["t"] == "ok"


async def test_sessions_are_listed_and_signed_out_everywhere(tmp_path: Any, nursery: trio.Nursery) -> None:
    """Two sessions of one person from two places: each is listed with where
    and whence, the asking one marked current; ending the other signs that
    connection out at its next request; ending all signs this one out too.
    The server's session lifetime (an App option, `oriente serve
    --session-days`) is what expires_at says."""
    app = App(str(tmp_path / "store.sqlite"), port=0, hasher=PasswordHasher(time_cost=1, memory_cost=1024),
              accounts=AccountPolicy(sessions=SessionPolicy(idle=7 * 86400.0, most=30 * 86400.0)))
    await nursery.start(app.run)
    assert app.port is not None
    try:
        async with contextlib.AsyncExitStack() as stack:
            page = await client_at(stack, app.port, "127.0.0.1", "a-page/1.0")
            phone = await client_at(stack, app.port, "127.0.0.7")
            up = await page.request({"t": "sign_up", "name": "eve", "password": "correct horse"})
            bot = await page.request({"t": "bot_token", "bot": "eve-bot"})
            assert (await phone.request({"t": "sign_in", "name": "eve", "password": "correct horse"}))["t"] == "ok"
            listed = (await page.request({"t": "sessions"}))["sessions"]
            assert [(s["address"], s["client"], s["current"]) for s in listed] == [
                ("127.0.0.7", listed[0]["client"], False), ("127.0.0.1", "a-page/1.0", True)]
            assert listed[0]["client"].startswith("Python/"), "without hello's client, its User-Agent"
            assert all(s["expires_at"] == pytest.approx(s["last_used_at"] + 7 * 86400.0) for s in listed)
            ended = await page.request({"t": "sign_out_everywhere", "keep_current": True})
            assert ended["ended"] == 1
            refused = await phone.request({"t": "tokens"})
            assert refused["code"] == "auth/session_ended"
            assert (await phone.request({"t": "tokens"}))["code"] == "auth/sign_in_required", "now signed out"
            assert [s["current"] for s in (await page.request({"t": "sessions"}))["sessions"]] == [True]
            assert (await page.request({"t": "sign_out_everywhere"}))["ended"] == 1
            assert (await page.request({"t": "sessions"}))["code"] == "auth/sign_in_required"
            stale = await phone.request({"t": "sign_in", "token": up["token"]})
            assert stale["code"] == "auth/bad_token"
            robot = await client_at(stack, app.port, "127.0.0.8")
            signed = await robot.request({"t": "sign_in", "token": bot["token"]})
            assert signed["t"] == "ok", "bots' API tokens outlive their owner's sessions"
            assert (await robot.request({"t": "sessions"}))["code"] == "account/not_a_person"
    finally:
        await app.aclose()


async def test_bot_tokens_mark_bots_and_can_be_revoked(server: App) -> None:
    async with open_client(server.port) as ws1, open_client(server.port) as ws2:
        eve, bot = Client(ws1), Client(ws2)
        await eve.recv()
        await bot.recv()
        refused = await eve.request({"t": "bot_token", "bot": "eve-bot"})
        assert refused["code"] == "auth/sign_in_required"
        await eve.request({"t": "sign_up", "name": "eve", "password": "correct horse"})
        made = await eve.request({"t": "bot_token", "bot": "eve-bot", "label": "laptop"})
        assert made["account"]["bot"] is True and made["token"].startswith("b_")
        signed = await bot.request({"t": "sign_in", "token": made["token"]})
        assert signed["account"] == {**made["account"], "reputation": signed["account"]["reputation"]}
        assert signed["account"]["bot"] is True
        nested = await bot.request({"t": "bot_token", "bot": "sub-bot"})
        assert nested["code"] == "account/not_a_person"
        listed = await eve.request({"t": "tokens"})
        assert [(t["bot"], t["label"], t["revoked"]) for t in listed["tokens"]] == [("eve-bot", "laptop", False)]
        assert (await eve.request({"t": "revoke_token", "token_id": made["token_id"]}))["t"] == "ok"
        again = await eve.request({"t": "revoke_token", "token_id": made["token_id"]})
        assert again["code"] == "account/unknown_token"
        refused = await bot.request({"t": "sign_in", "token": made["token"]})
        assert refused["code"] == "auth/bad_token"
        profile = await eve.request({"t": "profile", "name": "eve-bot"})
        assert profile["profile"]["owner"] == "eve" and profile["profile"]["bot"] is True


async def _play(port: int, table: str, token: str, rnd: random.Random, seats: dict[int, Any]) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        assert (await c.request({"t": "sign_in", "token": token}))["t"] == "ok"
        joined = await c.request({"t": "join", "table": table, "name": "ignored"})
        assert joined["t"] == "ok", joined
        seat = joined["seat"]
        answered: set[Any] = set()
        while True:
            frame = await c.recv(timeout=30)
            if frame["t"] == "snapshot":
                seats[seat] = frame["table_info"]["seats"]
            if frame["t"] == "events" and any(e["type"] == "TableFinished" for e in frame["events"]):
                return
            prompt = frame.get("prompt") if frame["t"] in ("events", "snapshot") else None
            cmd = pick(prompt, seat, rnd)
            if cmd is not None and (prompt["id"], prompt["pivot"]) not in answered:  # type: ignore[index]
                answered.add((prompt["id"], prompt["pivot"]))  # type: ignore[index]
                await c.send({"t": "act", "table": table, "cmd": cmd})


def _get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        assert r.headers["Content-Type"].startswith("application/json")
        return json.loads(r.read())


async def test_a_rated_table_refuses_signed_out_seats_and_moves_the_leaderboard(server: App) -> None:
    port = server.port
    assert port is not None
    async with open_client(port) as ws1, open_client(port) as ws2:
        owner, guest = Client(ws1), Client(ws2)
        await owner.recv()
        await guest.recv()
        await owner.request({"t": "sign_up", "name": "owner", "password": "correct horse"})
        tokens = [(await owner.request({"t": "bot_token", "bot": f"bot-{i}"}))["token"] for i in range(4)]
        created = await owner.request({"t": "create_table", "seats": 4, "timers": BOT_TIMERS,
                                       "rated": True})
        table = created["table"]
        assert created["info"]["settings"]["rated"] is True
        # A rated table's cards are the server's: a chosen seed is refused (PROTOCOL.md 3).
        seeded = await owner.request({"t": "create_table", "seats": 4, "seed": 5, "rated": True})
        assert seeded["code"] == "table/bad_settings"
        refused = await guest.request({"t": "join", "table": table, "name": "guest"})
        assert refused["code"] == "auth/sign_in_required"
        seats: dict[int, Any] = {}
        async with trio.open_nursery() as nursery:
            for i, token in enumerate(tokens):
                nursery.start_soon(_play, port, table, token, random.Random(i), seats)
    last = max(seats.values(), key=lambda s: sum(x is not None for x in s))
    assert {s["account"]["name"] for s in last} == {f"bot-{i}" for i in range(4)}
    assert all(s["account"]["bot"] is True and s["name"] == s["account"]["name"] for s in last)
    board: list[dict[str, Any]] = []
    with trio.fail_after(10):
        while len(board) < 4:  # the results are stored just after the end
            await trio.sleep(0.05)
            board = await trio.to_thread.run_sync(_get, port, "/leaderboard?game=oriente")
            board = board["leaderboard"]
    assert [b["rank"] for b in board] == [1, 2, 3, 4]
    assert all(b["games"] == 1 and b["provisional"] and b["bot"] for b in board)
    assert board[0]["rating"] >= board[-1]["rating"]
    profile = await trio.to_thread.run_sync(_get, port, f"/account/{board[0]['name']}")
    assert [h["table"] for h in profile["history"]["oriente"]] == [table]
    assert profile["ratings"]["oriente"]["games"] == 1


def _ledger(record: dict[str, Any]) -> list[tuple[int, int, int]]:
    """Each seat's own promises as the record's ledger settled them."""
    counts = [[0, 0, 0] for _ in record["names"]]
    for e in record["events"]:
        if e["type"] == "PromiseSettled":
            counts[e["promiser"]][("kept", "broken", "released").index(e["status"])] += 1
    return [(k, b, r) for k, b, r in counts]


CHARACTERS = ("ruthless", "shrewd", "ruthless", "honest")


async def test_reputation_counts_exactly_the_promises_of_finished_games(server: App) -> None:
    """Four bargaining bots (two ruthless, a shrewd and an honest one),
    signed in with their API tokens, bargain through two whole games (one
    rated, one casual): each bot's reputation is then exactly the promises
    its seats kept, broke and were released from, as the two records'
    ledgers settled them; the next table shows it."""
    from oriente.cli.botplay import play_bot
    from oriente.clients.sdk import Client

    url = f"ws://127.0.0.1:{server.port}"
    async with Client.connect(url) as owner:
        await owner.sign_up("owner", "correct horse")
        bots = [await owner.bot_token(f"neg-{i}") for i in range(4)]
        expected: dict[str, list[int]] = {b["account"]["name"]: [0, 0, 0] for b in bots}
        # Windows of 1.5 s (not zero-wait): time for the bots to bargain.
        talk = {**BOT_TIMERS, "prompt_ms": 5000, "window_ms": 1500, "zero_wait": False}
        for seed, rated in ((1, True), (5, False)):
            # A rated table's seed is the server's (PROTOCOL.md 3): only the unrated one is seeded.
            table = await owner.create_table(4, seed=None if rated else seed, timers=talk, rated=rated)
            async with trio.open_nursery() as nursery:
                for i, b in enumerate(bots):
                    nursery.start_soon(play_bot, url, table, "x", CHARACTERS[i], random.Random(seed * 10 + i),
                                       0.0, i, b["token"])
            record = await owner.record(table)
            assert [a["name"] for a in record["accounts"]] == [f"neg-{i}" for i in range(4)]
            for seat, counts in enumerate(_ledger(record)):
                for k in range(3):
                    expected[f"neg-{seat}"][k] += counts[k]
        # How many promises are made depends on the bots' pace within the
        # windows (a loaded machine makes fewer): the test needs some settled.
        assert sum(sum(c) for c in expected.values()) > 0, "the scripted games must settle promises"
        with trio.fail_after(10):
            while True:
                got = {name: await owner.profile(name) for name in expected}
                if all(p["reputation"]["kept"] + p["reputation"]["broken"] + p["reputation"]["released"]
                       == sum(expected[n]) for n, p in got.items()):
                    break
                await trio.sleep(0.05)
        for name, p in got.items():
            assert [p["reputation"][k] for k in ("kept", "broken", "released")] == expected[name], name
            assert p["ratings"]["oriente"]["games"] == 1, "only the rated game moved the rating"
        seat = await owner.create_table(4, timers=BOT_TIMERS)
        async with Client.connect(url, token=bots[0]["token"]) as bot:
            me = await bot.join(seat, "x")
            with trio.fail_after(5):
                while me.info is None:
                    await trio.sleep(0.01)
            card = me.info["seats"][0]["account"]
            assert card["name"] == "neg-0" and card["bot"] is True
            assert [card["reputation"][k] for k in ("kept", "broken", "released")] == expected["neg-0"]
