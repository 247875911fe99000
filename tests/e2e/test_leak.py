"""No frame leaks a card (R10.4), checked over real sockets.

Many random bot games; every seat and a spectator decode every frame they
receive. After each game the server's full record is replayed into the
independent who-knows-what model (tests/rules/knowledge_model.py, built
from full events only, never from the server's gate) and every card in
every frame is checked against what that client may know at that point.
"""

from __future__ import annotations

import random

import pytest
import trio

from oriente.server.rules import replay
from oriente.server.table import TABLE_EVENTS

from ..rules.knowledge_model import KnowledgeModel, card_items, may_know, slot_place
from .wsclient import BOT_TIMERS, Client, open_client, pick

pytestmark = pytest.mark.trio

GAMES = [(4, 1), (5, 2), (6, 3), (7, 4), (8, 5), (9, 6), (10, 7), (12, 8), (6, 9), (4, 10)]
# The default run's share (the smallest, a middle and the largest table); all ten are `slow`.
FEW = [(4, 1), (6, 3), (12, 8)]


async def seat_bot(port: int, table: str, seat: int, rnd: random.Random, frames: list) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "join", "table": table, "name": f"s{seat}", "seat": seat, "views": True})
        assert r["t"] == "ok"
        answered: set = set()
        while True:
            f = await c.recv(timeout=30)
            frames.append(f)
            if f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]):
                return
            prompt = f.get("prompt") if f["t"] in ("events", "snapshot") else None
            # Sometimes answer early (sealed), so sealed answers cross the wire too.
            if prompt and seat in (prompt.get("early") or []) and rnd.random() < 0.3 and "sealed" not in prompt:
                options = [x for x in prompt.get("legal", []) if x["type"] in ("Pass", "Support", "Claim", "Join")]
                if options:
                    await c.send({"t": "act", "table": table, "cmd": rnd.choice(options)})
            cmd = pick(prompt, seat, rnd)
            if cmd is not None and (prompt["id"], prompt["pivot"]) not in answered:
                answered.add((prompt["id"], prompt["pivot"]))
                await c.send({"t": "act", "table": table, "cmd": cmd})


async def spectator(port: int, table: str, frames: list, ready: trio.Event) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        await c.request({"t": "spectate", "table": table, "views": True})
        ready.set()
        while True:
            f = await c.recv(timeout=30)
            frames.append(f)
            if f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]):
                return


def check_client(viewer, frames: list, typed_events: list) -> int:
    """Walk one client's frames alongside the model; return cards checked."""
    model = KnowledgeModel(typed_events[0])
    labels = [model.started_labels()]
    for event in typed_events[1:]:
        labels.append(model.apply(event))
    checked = 0
    index = 0  # game events seen so far by this client
    replayed = KnowledgeModel(typed_events[0])
    for f in frames:
        if f["t"] != "events":
            continue
        for item in f["events"]:
            if item["type"] in TABLE_EVENTS:
                continue
            full = typed_events[index]
            if index > 0:
                replayed.apply(full)
            assert item["type"] == type(full).__name__, (viewer, index, item["type"])
            full_items = card_items(item["type"], full)
            for label, card in card_items(item["type"], item).items():
                if card is None:
                    continue
                checked += 1
                assert card == full_items[label], (viewer, item, label)
                who = labels[index][label]
                assert may_know(who, viewer), f"{viewer} was shown {label}={card} in {item}"
            index += 1
        view = f.get("view")
        if view is not None and index:
            places = replayed.places()
            for seat in view["seats"]:
                card = seat["inhabitant"]
                if card is not None:
                    checked += 1
                    assert replayed.knows(viewer, card), f"{viewer} sees {card} at seat {seat['seat']}"
                    assert places[card] == slot_place(seat["seat"])
            for card in view["in_play"]:
                if card is not None:
                    checked += 1
                    assert replayed.knows(viewer, card)
    assert index == len(typed_events), (viewer, index, len(typed_events))
    return checked


@pytest.mark.parametrize(("games", "least"), [
    pytest.param(FEW, 2_500, id="three-games"),
    pytest.param(GAMES, 10_000, id="ten-games", marks=pytest.mark.slow),
])
async def test_no_frame_carries_a_card_its_client_may_not_know(server, games, least):
    checked = 0
    for seats, seed in games:
        async with open_client(server.port) as ws:
            c = Client(ws)
            await c.recv()
            table = (await c.request({"t": "create_table", "seats": seats, "seed": seed,
                                      "timers": {**BOT_TIMERS, "window_ms": 0}}))["table"]
            frames = {s: [] for s in range(seats)}
            frames["spectator"] = []
            ready = trio.Event()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(spectator, server.port, table, frames["spectator"], ready)
                await ready.wait()
                for s in range(seats):
                    nursery.start_soon(seat_bot, server.port, table, s, random.Random(seed * 100 + s), frames[s])
            record = (await c.request({"t": "record", "table": table}))["record"]
        typed = replay(record).events
        for viewer, got in frames.items():
            checked += check_client(viewer, got, typed)
    assert checked > least  # the check saw real traffic
