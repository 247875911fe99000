"""Samurai over real sockets: the lobby lists its tables, no frame leaks a
tile or a screened capture (S7.4), and a table survives a SIGKILL of its
server.

The leak test plays random games (two to four seats) with every seat and a
spectator asking for views, then walks each client's frames beside
tests/samurai's independent knowledge model, fed with the record's full
events only: every event must be exactly what that model says the client
may see of it, and every view must show exactly the hands, supplies,
captured figures and board the model gives that client at that point.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from oriente.server.samurai import replay

from ..samurai.knowledge_model import FIGURE_ORDER, KnowledgeModel
from .samurai_play import Seat
from .test_crash_recovery import ServerProcess
from .test_oro import TABLE_EVENTS, server_process  # noqa: F401 (a fixture)
from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio

GAMES = [(2, 1), (3, 2), (4, 3)]
# The events whose `tiles` are one seat's own (S7.4).
OWN_TILES = ("TilesChosen", "TilesDrawn")


async def create(c: Client, seats: int, seed: int | None, timers: dict[str, Any] = BOT_TIMERS,
                 options: dict[str, Any] | None = None) -> str:
    r = await c.request({"t": "create_table", "game": "samurai", "seats": seats, "seed": seed, "timers": timers,
                         "options": options or {}})
    assert r["t"] == "ok", r
    return r["table"]


# -- what a client may see, from the model ---------------------------------------------

def expected(full: dict[str, Any], viewer: Any, model: KnowledgeModel) -> dict[str, Any]:
    """The event as `viewer` may see it, by the model's rules alone."""
    out = copy.deepcopy(full)
    if full["type"] in OWN_TILES and not model.knows_tiles_of(full["seat"], viewer):
        out["tiles"] = [None] * len(full["tiles"])
    return out


def check_view(view: dict[str, Any], viewer: Any, model: KnowledgeModel) -> int:
    """One view against the model; returns the number of hidden things checked."""
    checked = 0
    assert view["game"] == "samurai" and view["seats"] == model.n
    for s, p in enumerate(view["players"]):
        hand, supply = sorted(model.hand[s]), sorted(model.supply[s])
        assert p["hand_size"] == len(hand) and p["supply_size"] == len(supply), (viewer, s)
        if model.knows_tiles_of(s, viewer):
            assert p["hand"] == hand and p["supply"] == supply, (viewer, s, p)
            checked += len(hand)
        else:
            assert p["hand"] == [None] * len(hand) and p["supply"] is None, (viewer, s, p)
        if model.sees_captures_of(s, viewer):
            assert p["captured"] == dict(zip(FIGURE_ORDER, model.captured[s], strict=True)), (viewer, s)
            checked += 1
        else:
            assert p["captured"] is None, (viewer, s)
        assert sorted(p["boxed"]) == sorted(model.boxed[s])
    assert {t["hex"]: (t["seat"], t["tile"]) for t in view["tiles"]} == model.board
    assert list(view["set_aside"].values()) == model.set_aside
    decision = view["decision"]
    if decision is not None and "sealed" in decision:
        assert isinstance(viewer, int) and len(decision["sealed"]) == 5
    return checked


def check_client(viewer: Any, frames: list[dict[str, Any]], full: list[dict[str, Any]], seats: int) -> int:
    """Walk one client's frames beside the model; return what it checked."""
    model = KnowledgeModel(seats)
    index = 0
    checked = 0
    for f in frames:
        if f["t"] == "snapshot" and f.get("view") is not None:
            checked += check_view(f["view"], viewer, model)
        if f["t"] != "events":
            continue
        for item in f["events"]:
            if item["type"] in TABLE_EVENTS:
                continue
            event = full[index]
            assert {k: v for k, v in item.items() if k != "seq"} == expected(event, viewer, model), (viewer, item)
            if event["type"] in OWN_TILES and model.knows_tiles_of(event["seat"], viewer):
                checked += len(event["tiles"])
            model.apply(event)
            index += 1
        if f.get("view") is not None and index:
            checked += check_view(f["view"], viewer, model)
        prompt = f.get("prompt")
        if prompt is not None and "sealed" in prompt:
            assert isinstance(viewer, int) and prompt["kind"] == "round" and len(prompt["sealed"]) == 5
    assert index == len(full), (viewer, index, len(full))
    return checked


# -- clients -----------------------------------------------------------------------------

async def seat_client(port: int, table: str, me: Seat, frames: list[dict[str, Any]]) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        r = await c.request({"t": "join", "table": table, "name": f"s{me.seat}", "seat": me.seat, "views": True})
        assert r["t"] == "ok", r
        try:
            await me.play(c, table)
        finally:
            frames.extend(c.frames)


async def spectator(port: int, table: str, frames: list[dict[str, Any]], ready: trio.Event) -> None:
    async with open_client(port) as ws:
        c = Client(ws)
        await c.recv()
        await c.request({"t": "spectate", "table": table, "views": True})
        ready.set()
        await c.until(lambda f: f["t"] == "events" and any(e["type"] == "TableFinished" for e in f["events"]),
                      timeout=60)
        frames.extend(c.frames)


async def test_the_lobby_lists_a_samurai_table_with_its_public_options(server):
    async with open_client(server.port) as ws:
        c = Client(ws)
        welcome = await c.recv()
        assert "samurai" in welcome["games"] and welcome["bots"]["samurai"][0] == "heuristic"
        table = await create(c, 3, None, options={"first_seat": 1})  # a chosen seed would make it private
        listing = (await c.request({"t": "list_tables"}))["tables"]
        info = next(t for t in listing if t["table"] == table)
        assert info["game"] == "samurai" and info["settings"]["seats"] == 3
        assert info["settings"]["options"] == {"board": "Japan (reconstructed, revision 2)",
                                               "tile_set": "Standard set (reconstructed)", "custom_board": False,
                                               "custom_tiles": False, "first_seat": 1,
                                               "rules_revision": 2}  # a new table plays the current rules (S8.1)
        refused = await c.request({"t": "create_table", "game": "samurai", "seats": 5})
        assert (refused["t"], refused["code"]) == ("error", "table/bad_settings")
        assert "2 to 4" in refused["message"]
        broken = await c.request({"t": "create_table", "game": "samurai", "seats": 2,
                                  "options": {"tiles": {"format": "samurai-tiles/1", "tiles": []}}})
        assert (broken["t"], broken["code"]) == ("error", "table/bad_board") and "S1.3" in broken["message"]


async def test_no_frame_carries_a_tile_or_capture_its_client_may_not_know(server):
    checked = 0
    for seats, seed in GAMES:
        async with open_client(server.port) as ws:
            c = Client(ws)
            await c.recv()
            table = await create(c, seats, seed)
            frames: dict[Any, list[dict[str, Any]]] = {s: [] for s in range(seats)}
            frames["spectator"] = []
            ready = trio.Event()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(spectator, server.port, table, frames["spectator"], ready)
                await ready.wait()
                for s in range(seats):
                    nursery.start_soon(seat_client, server.port, table, Seat(s, random.Random(seed * 10 + s)),
                                       frames[s])
            record = (await c.request({"t": "record", "table": table}))["record"]
        assert record["game"] == "samurai" and record["result"] is not None
        assert replay(record).record()["events"] == record["events"], "the record replays exactly"
        for viewer, got in frames.items():
            checked += check_client(viewer, got, record["events"], seats)
    assert checked > 500, checked  # the check saw real traffic


async def test_sigkill_mid_game_then_restart_resumes_a_samurai_table_exactly(
        server_process: Callable[[], ServerProcess]) -> None:  # noqa: F811 (the fixture)
    """T4.2: the restarted server rebuilds the table from its log; every
    seat resumes with its token and sees every sequence number once."""
    srv = server_process()
    await srv.start()
    timers = {"prompt_ms": 60_000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": False, "away_after": 3}
    tokens: dict[int, str] = {}
    async with open_client(srv.port) as ws:
        c = Client(ws)
        await c.recv()
        table = await create(c, 3, 2025, timers)
        for i in range(3):
            r = await c.request({"t": "join", "table": table, "name": f"p{i}"})
            tokens[r["seat"]] = r["token"]
    seats = {s: Seat(s, random.Random(300 + s), early=0.0) for s in range(3)}
    finished: dict[int, bool] = {}

    async def session(port: int, me: Seat) -> None:
        try:
            async with open_client(port) as ws:
                c = Client(ws)
                await c.recv()
                r = await c.request({"t": "resume", "table": table, "token": tokens[me.seat], "after": me.seq})
                assert r["t"] == "ok", r
                if me.unacked is not None:  # sent before the crash, never acknowledged: same id again
                    await c.send(me.unacked)
                await me.play(c, table)
                finished[me.seat] = True
        except (ConnectionClosed, OSError, trio.BrokenResourceError):
            finished[me.seat] = False

    async def play_all(port: int) -> None:
        async with trio.open_nursery() as nursery:
            for me in seats.values():
                nursery.start_soon(session, port, me)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(play_all, srv.port)
        while sum(me.sent for me in seats.values()) < 30:
            await trio.sleep(0.01)
        srv.kill()
    assert not any(finished.values()), "the game should not have ended before the kill"
    seq_at_kill = max(me.seq for me in seats.values())

    restarted = server_process()
    await restarted.start()
    await play_all(restarted.port)
    assert all(finished.values())
    for me in seats.values():
        assert me.seqs == list(range(me.seqs[0], me.seq + 1)) and me.seq > seq_at_kill
    async with open_client(restarted.port) as ws:
        c = Client(ws)
        await c.recv()
        record = (await c.request({"t": "record", "table": table}))["record"]
    again = replay(record).record()
    assert again["events"] == record["events"] and again["result"] == record["result"]
    assert record["game"] == "samurai" and record["config"]["seed"] == 2025
    assert restarted.terminate() == 0
