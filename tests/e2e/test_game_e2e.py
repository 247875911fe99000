"""Whole games over real websockets, the real SQLite store and the real clock."""

from __future__ import annotations

import contextlib
import random

import pytest
import trio

from oriente.server.rules import replay

from .wsclient import BOT_TIMERS, Client, open_client, pick, play_bot

pytestmark = pytest.mark.trio


async def create_table(port: int, seats: int, seed: int, **extra) -> str:
    async with open_client(port) as ws:
        c = Client(ws)
        welcome = await c.recv()
        assert welcome["t"] == "welcome" and welcome["protocol"] == "oriente.v1"
        reply = await c.request({"t": "create_table", "seats": seats, "seed": seed, "timers": BOT_TIMERS, **extra})
        assert reply["t"] == "ok", reply
        return reply["table"]


async def test_bots_play_a_full_game_and_the_record_replays(server):
    table = await create_table(server.port, 6, seed=11)
    seen: list = []
    async with trio.open_nursery() as nursery:
        for i in range(6):
            nursery.start_soon(lambda i=i: play_bot(server.port, table, f"bot{i}", random.Random(i), log=seen))
    assert len(seen) == 6
    async with open_client(server.port) as ws:
        c = Client(ws)
        await c.recv()
        reply = await c.request({"t": "record", "table": table})
    assert reply["t"] == "ok"
    record = reply["record"]
    assert record["result"]["type"] == "GameEnded"
    # The server's record is exactly what the pure engine gives for the same
    # config and commands (replays are reads of the log).
    game = replay(record)
    assert game.record()["events"] == record["events"]
    # Every client saw the same sequence numbers, without gaps, ending at the same seq.
    for _seat, frames in seen:
        seqs = [e["seq"] for f in frames if f["t"] == "events" and not f.get("history") for e in f["events"]]
        assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
        snap = next(f for f in frames if f["t"] == "snapshot")
        assert seqs[0] > snap["seq"] or seqs[0] == snap["seq"] + 1


async def test_reconnect_resumes_with_missed_events_then_snapshot(server):
    """A client that comes back with its token and last seq gets what it
    missed, then a snapshot, then the live stream; a retried command id is
    recognised and not applied twice."""
    table = await create_table(server.port, 4, seed=5, timers={**BOT_TIMERS, "prompt_ms": 60_000})
    tokens: dict[int, str] = {}
    clients: dict[int, Client] = {}
    rnd = random.Random(1)
    tab = server.lobby.get(table)

    async def join(ws, seat: int) -> Client:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "join", "table": table, "name": f"p{seat}", "seat": seat})
        assert r["t"] == "ok" and r["seat"] == seat
        tokens[seat] = r["token"]
        clients[seat] = c
        return c

    async def step(skip: int | None = None) -> bool:
        w = tab.port.waiting(tab.play.state)
        if w.pivot == skip:
            return False
        cmd = pick(tab.port.prompts(tab.play.state, [w.pivot])[w.pivot], w.pivot, rnd)
        r = await clients[w.pivot].request({"t": "act", "table": table, "cmd": cmd})
        assert r["t"] == "ok", r
        return True

    async with contextlib.AsyncExitStack() as stack:
        for seat in (0, 1, 3):
            await join(await stack.enter_async_context(open_client(server.port)), seat)
        async with open_client(server.port) as ws2:
            c2 = await join(ws2, 2)
            for _ in range(6):
                await step()
            await trio.sleep(0.05)
            last_seq = max(e["seq"] for f in c2.frames if f["t"] == "events" for e in f["events"])
        # Seat 2 is gone; the others play on until it is seat 2's turn.
        for _ in range(4):
            if not await step(skip=2):
                break
        async with open_client(server.port) as ws:
            c = Client(ws)
            await c.recv()
            clients[2] = c
            r = await c.request({"t": "resume", "table": table, "token": tokens[2], "after": last_seq})
            assert r["t"] == "ok" and r["you"] == 2
            history = await c.recv()
            snapshot = await c.recv()
            assert history["t"] == "events" and history["history"] is True
            assert [e["seq"] for e in history["events"]] == list(range(last_seq + 1, snapshot["seq"] + 1))
            assert snapshot["t"] == "snapshot" and snapshot["you"] == 2
            assert snapshot["view"]["seats"][2]["inhabitant"] is not None  # its own card
            bad = await c.request({"t": "resume", "table": table, "token": "not-a-token"})
            assert bad["t"] == "error" and bad["code"] == "auth/bad_token"
            # Play on until seat 2 is asked, then retry one command with the same id.
            for _ in range(40):
                if tab.port.waiting(tab.play.state).pivot == 2:
                    break
                await step(skip=2)
            assert tab.port.waiting(tab.play.state).pivot == 2
            cmd = pick(tab.port.prompts(tab.play.state, [2])[2], 2, rnd)
            first = await c.request({"t": "act", "id": "retry-1", "table": table, "cmd": cmd})
            mine = sum(1 for s, _ in tab.journal.commands if s == 2)
            again = await c.request({"t": "act", "id": "retry-1", "table": table, "cmd": cmd})
            assert first["t"] == "ok"
            assert again["t"] == "ok" and again["duplicate"] is True
            assert sum(1 for s, _ in tab.journal.commands if s == 2) == mine, "applied twice"


async def test_spectator_sees_only_public_information(server):
    table = await create_table(server.port, 4, seed=9)
    async with open_client(server.port) as ws:
        spec = Client(ws)
        await spec.recv()
        r = await spec.request({"t": "spectate", "table": table})
        assert r["t"] == "ok" and r["you"] == "spectator"
        async with trio.open_nursery() as nursery:
            for i in range(4):
                nursery.start_soon(lambda i=i: play_bot(server.port, table, f"b{i}", random.Random(i)))
            await spec.until(lambda f: f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]),
                             timeout=30)
    started = next(e for f in spec.frames if f["t"] == "events" for e in f["events"] if e["type"] == "GameStarted")
    assert started["inhabitants"] == [None] * 4 and started["bonus_card"] is None
    for f in spec.frames:
        if f["t"] == "events":
            for e in f["events"]:
                if e["type"] == "InhabitantDrawn":
                    assert e["card"] is None
                if f.get("prompt"):
                    assert "legal" not in f["prompt"] and "sealed" not in f["prompt"]
