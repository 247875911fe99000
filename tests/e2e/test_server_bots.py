"""The server's own bots over real sockets, the real store and the real
clock: a server restarted mid-game runs its bots again and the game
finishes; a rematch seats everyone where they sat, bots included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.server.app import App

from .wsclient import Client, open_client

pytestmark = pytest.mark.trio

# A minute per decision: a bot seat that nobody plays would stall the test.
PATIENT = {"prompt_ms": 60_000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
           "zero_wait": True, "away_after": 3}


def _over(frame: dict[str, Any]) -> bool:
    return frame["t"] == "events" and any(e["type"] == "TableFinished" for e in frame["events"])


def _said(frame: dict[str, Any]) -> str:
    """A frame in a few words, for a failure's message."""
    prompt = frame.get("prompt") or {}
    events = [e.get("type") for e in frame.get("events") or ()]
    return (f"{frame.get('t')} re={frame.get('re')} code={frame.get('code')} events={events[-4:]} "
            f"prompt={prompt.get('id')}/{prompt.get('topic')}/pivot {prompt.get('pivot')}")


async def _play(c: Client, table: str, seat: int, *, answers: int | None = None) -> bool:
    """Answer this seat's decisions (a pass where it may) until the game
    ends (True), or until `answers` were given and the seat is asked again
    (False: the table now waits on us)."""
    answered: set[Any] = set()
    with trio.fail_after(60):
        while True:
            try:
                f = await c.recv(timeout=30)
            except trio.TooSlowError:
                pytest.fail(f"seat {seat} heard nothing for 30 s; it answered {sorted(answered)}; "
                            f"the last frames: {[_said(x) for x in c.frames[-6:]]}")
            if _over(f):
                return True
            prompt = f.get("prompt") if f["t"] in ("events", "snapshot") else None
            if not prompt or prompt.get("pivot") != seat or (prompt["id"], seat) in answered:
                continue
            if answers is not None and len(answered) >= answers:
                return False
            answered.add((prompt["id"], seat))
            options = [x for x in prompt["legal"] if x.get("decision") == prompt["id"]]
            cmd = next((x for x in options if x["type"] == "Pass"), options[0])
            # ids stay unique across connections: a reused one is taken for a retry
            await c.send({"t": "act", "id": f"{seat}/{prompt['id']}", "table": table, "cmd": cmd})


async def test_a_restart_mid_game_runs_the_server_bots_again(tmp_path: Path) -> None:
    """Seat 0 is a person, seats 1-3 the server's bots. The server stops
    while the table waits on the person; a new server on the same store
    recovers the table and its bots, and the game finishes: with a minute
    per decision, it could not without the bots."""
    store = str(tmp_path / "store.sqlite")
    async with trio.open_nursery() as nursery:
        first = App(store, port=0, bot_delay=0)
        await nursery.start(first.run)
        async with open_client(first.port) as ws:
            c = Client(ws)
            await c.recv()
            table = (await c.request({"t": "create_table", "seats": 4, "seed": 21, "timers": PATIENT}))["table"]
            token = (await c.request({"t": "join", "table": table, "name": "ana", "views": True}))["token"]
            assert (await c.request({"t": "add_bots", "table": table, "token": token}))["seats"] == [1, 2, 3]
            assert await _play(c, table, 0, answers=3) is False
            await first.aclose()
        second = App(store, port=0, bot_delay=0)
        await nursery.start(second.run)
        assert second.recovered == 1
        async with open_client(second.port) as ws:
            c = Client(ws)
            await c.recv()
            ok = await c.request({"t": "resume", "table": table, "token": token, "after": 0, "views": True})
            assert ok["t"] == "ok" and ok["you"] == 0
            assert await _play(c, table, 0) is True
            record = (await c.request({"t": "record", "table": table}))["record"]
        await second.aclose()
    restarted = [i for i, e in enumerate(record["table_events"])
                 if e["type"] == "SeatPresence" and e["seat"] == 1 and e["connected"]]
    assert restarted, "seat 1's bot took its seat again after the restart"
    assert record["names"][1:] == [n for n in record["names"][1:] if n.endswith("(bot)")]


async def test_a_rematch_seats_everyone_where_they_sat(tmp_path: Path) -> None:
    """Two people and two bots finish a game. The first `rematch` creates
    the new table with the same settings and the bots at their seats, tells
    the old table (RematchOffered) and seats the asker at its own seat; the
    second player's `rematch` finds the same table and fills it."""
    async with trio.open_nursery() as nursery:
        app = App(str(tmp_path / "store.sqlite"), port=0, bot_delay=0)
        await nursery.start(app.run)
        async with open_client(app.port) as wa, open_client(app.port) as wb:
            ana, ben = Client(wa), Client(wb)
            await ana.recv()
            await ben.recv()
            created = await ana.request({"t": "create_table", "seats": 4, "seed": 4, "name": "again",
                                         "public": False, "timers": PATIENT})
            table = created["table"]
            ta = (await ana.request({"t": "join", "table": table, "name": "ana", "seat": 0}))["token"]
            assert (await ana.request({"t": "add_bots", "table": table, "token": ta, "policy": "random",
                                       "count": 2}))["seats"] == [1, 2]
            refused = await ana.request({"t": "rematch", "table": table, "token": ta})
            assert refused["code"] == "rematch/not_ended"
            tb = (await ben.request({"t": "join", "table": table, "name": "ben", "seat": 3}))["token"]
            async with trio.open_nursery() as players:
                players.start_soon(_play, ana, table, 0)
                players.start_soon(_play, ben, table, 3)
            assert (await ana.request({"t": "rematch", "table": table, "token": "nope"}))["code"] == "auth/bad_token"
            first = await ana.request({"t": "rematch", "table": table, "token": ta})
            assert first["t"] == "ok" and first["seat"] == 0 and first["table"] != table
            again = first["table"]
            offer = await ben.until(lambda f: f["t"] == "events"
                                    and any(e["type"] == "RematchOffered" for e in f["events"]))
            event = next(e for e in offer["events"] if e["type"] == "RematchOffered")
            assert (event["table"], event["seat"]) == (again, 0)
            info = (await ana.until(lambda f: f["t"] == "snapshot" and f["table"] == again))["table_info"]
            # The same settings, but the rematch's seed is the server's own: not seeded (PROTOCOL.md 3).
            assert created["info"]["settings"]["seeded"] and not info["settings"]["seeded"]
            # ... and it is dealt by commit and reveal (docs/table.md T7): a commitment from the start.
            assert created["info"]["settings"]["commitment"] is None and len(info["settings"]["commitment"]) == 64
            assert info["status"] == "open" and info["settings"] == {**created["info"]["settings"], "seeded": False,
                                                                      "commitment": info["settings"]["commitment"]}
            assert [s and (s["name"], s.get("bot")) for s in info["seats"]] == [
                ("ana", None), (info["seats"][1]["name"], "random"), (info["seats"][2]["name"], "random"), None]
            second = await ben.request({"t": "rematch", "table": table, "token": tb})
            assert (second["table"], second["seat"]) == (again, 3)
            await ben.until(lambda f: f["t"] == "events" and any(e["type"] == "TableStarted" for e in f["events"]))
            twice = await ana.request({"t": "rematch", "table": table, "token": ta})
            assert twice["code"] == "table/started"  # one seat per person, however often asked
        await app.aclose()
