"""Oro over real sockets: the lobby lists its tables, no frame leaks a card
(O8.5-O8.7), and a table survives a SIGKILL of its server.

The leak test plays random games (two to four seats, both variants) with
every seat and a spectator asking for views, then walks each client's
frames beside tests/oro's independent knowledge model, fed with the
record's full events only: every event must be exactly what that model
says the client may see of it (no card more, none less), and every view
must show exactly the hands, the knowledge and the face-down discards the
model gives that client at that point.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest
import trio
from websockets.exceptions import ConnectionClosed

from oriente.server import table as table_events
from oriente.server.oro import replay

from ..oro.knowledge_model import CARD_FIELDS, KnowledgeModel, hidden_parts, schema_problems
from .oro_play import Seat
from .test_crash_recovery import ServerProcess
from .wsclient import BOT_TIMERS, Client, open_client

pytestmark = pytest.mark.trio

GAMES = [(2, 1, False), (3, 2, True), (4, 3, False), (4, 4, True), (3, 5, False)]
# The table's own events (a decision that timed out among them: on a loaded
# machine a seat's answer can come after its 2 s), taken from the table so
# that this list cannot fall behind it.
TABLE_EVENTS = table_events.TABLE_EVENTS


@pytest.fixture
def server_process(tmp_path: Any) -> Any:
    """`oriente serve` processes on one SQLite store (tests/e2e/test_crash_recovery.py's)."""
    procs: list[ServerProcess] = []

    def make() -> ServerProcess:
        procs.append(ServerProcess(str(tmp_path / "store.sqlite")))
        return procs[-1]

    yield make
    for p in procs:
        p.cleanup()


async def create(c: Client, seats: int, seed: int | None, gods: bool, timers: dict[str, Any] = BOT_TIMERS) -> str:
    r = await c.request({"t": "create_table", "game": "oro", "seats": seats, "seed": seed, "timers": timers,
                         "options": {"gods": gods}})
    assert r["t"] == "ok", r
    return r["table"]


# -- what a client may see, from the model ---------------------------------------------

def expected(full: dict[str, Any], viewer: Any) -> dict[str, Any]:
    """The event as `viewer` may see it, built from the classification of
    tests/oro/knowledge_model.py alone: each card it may not know is None."""
    mays = iter(may for _, may in hidden_parts(full, viewer))
    out = copy.deepcopy(full)
    for name, who in CARD_FIELDS[full["type"]].items():
        if who == "per_seat":
            out[name] = [[c if next(mays) else None for c in hand] for hand in full[name]]
        elif who == "pele":
            out[name] = [[o, c if next(mays) else None] for o, c in full[name]]
        elif isinstance(full[name], list):
            out[name] = [c if next(mays) else None for c in full[name]]
        else:
            out[name] = full[name] if next(mays) else None
    assert next(mays, None) is None
    return out


def check_view(view: dict[str, Any], viewer: Any, model: KnowledgeModel) -> int:
    """One view against the model; returns the number of cards checked."""
    checked = 0
    for s, entry in enumerate(view["hands"]):
        assert entry["size"] == len(model.hand(s)), (viewer, s)
        if s == viewer:
            assert entry["cards"] == model.hand(s) and entry["known_to"] == model.known_to(s), (viewer, s)
            checked += len(entry["cards"])
        else:
            assert entry["cards"] is None and "known_to" not in entry, (viewer, s)
            assert entry["known"] == model.known(viewer, s), (viewer, s, entry["known"])
            checked += len(entry["known"])
    assert "deck" not in view and "hidden" not in view, "the deck's order and the face-down cards are nobody's"
    if isinstance(viewer, int):
        assert view["my_hidden"] == sorted(model.hidden[viewer])
        checked += len(view["my_hidden"])
    else:
        assert "my_hidden" not in view
    decision = view["decision"]
    if decision is not None and "sealed" in decision:
        assert isinstance(viewer, int) and decision["sealed"]["island"] in model.hand(viewer)
    return checked


def check_client(viewer: Any, frames: list[dict[str, Any]], full: list[dict[str, Any]]) -> int:
    """Walk one client's frames beside the model; return the cards checked."""
    model = KnowledgeModel()
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
            assert not schema_problems(event), schema_problems(event)
            assert {k: v for k, v in item.items() if k != "seq"} == expected(event, viewer), (viewer, item)
            checked += sum(1 for _, may in hidden_parts(event, viewer) if may)
            model.apply(event)
            index += 1
        if f.get("view") is not None and index:
            checked += check_view(f["view"], viewer, model)
        prompt = f.get("prompt")
        if prompt is not None and "sealed" in prompt:
            assert prompt["pivot"] != viewer or prompt["kind"] == "round"
            assert isinstance(viewer, int) and prompt["sealed"]["island"] in model.hand(viewer)
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


async def test_the_lobby_lists_an_oro_table_with_its_public_options(server):
    async with open_client(server.port) as ws:
        c = Client(ws)
        welcome = await c.recv()
        assert "oro" in welcome["games"] and welcome["bots"]["oro"][0] == "heuristic"
        table = await create(c, 3, None, True)  # a chosen seed would make it private (PROTOCOL.md 3)
        listing = (await c.request({"t": "list_tables"}))["tables"]
        info = next(t for t in listing if t["table"] == table)
        assert info["game"] == "oro" and info["settings"]["seats"] == 3
        assert info["settings"]["options"] == {"gods": True, "board": "archipelago", "custom_board": False,
                                               "custom_tiles": False, "configured_setup": False,
                                               "rules_revision": 2}  # a new table plays the current rules (O10.1)
        refused = await c.request({"t": "create_table", "game": "oro", "seats": 5})
        assert (refused["t"], refused["code"]) == ("error", "table/bad_settings")
        assert "2 to 4" in refused["message"]


async def test_no_frame_carries_a_card_its_client_may_not_know(server):
    checked = 0
    for seats, seed, gods in GAMES:
        async with open_client(server.port) as ws:
            c = Client(ws)
            await c.recv()
            table = await create(c, seats, seed, gods)
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
        assert record["game"] == "oro" and record["result"] is not None
        assert replay(record).record()["events"] == record["events"], "the record replays exactly"
        for viewer, got in frames.items():
            checked += check_client(viewer, got, record["events"])
    assert checked > 2_000, checked  # the check saw real traffic


async def test_sigkill_mid_game_then_restart_resumes_an_oro_table_exactly(
        server_process: Callable[[], ServerProcess]) -> None:
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
        table = await create(c, 3, 2025, True, timers)
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
    assert record["game"] == "oro" and record["config"]["seed"] == 2025 and record["config"]["gods"] is True
    assert restarted.terminate() == 0
