"""The server cannot choose the cards (docs/table.md T7.2, T7.4) where it
used to draw a nonce after seeing the others': a rematch's seats, a
tournament's reserved seats, the server's bots. Over real sockets and a
real SQLite store:

- a rematch is committed to when the game before it ends (its table and
  commitment announced in TableFinished); the players' `rematch` carries
  their own nonce, which counts; the bots' nonces are the salt's;
- a tournament entrant brings its own nonce to its reserved seat with
  `resume`; the seats nobody brought one to get the salt's;
- tables and records from before this (tests/fixtures/fair_v1.*) still
  open, play, verify, and rematch (without the creating request's nonce
  counting, since nothing was committed to in advance)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
import trio

from oriente.fairplay import dealing
from oriente.fairplay.verify import verify_record
from oriente.server.app import App
from oriente.server.games import PORTS
from oriente.server.table import nonce_token

from .test_server_bots import PATIENT, _over, _play
from .tourney import call
from .wsclient import BOT_TIMERS, Client, open_client, pick

pytestmark = pytest.mark.trio
FIXTURES = Path(__file__).parent.parent / "fixtures"


def _announced(frame: dict[str, Any]) -> dict[str, Any]:
    return next(e["rematch"] for e in frame["events"] if e["type"] == "TableFinished")


async def test_a_rematch_is_committed_to_before_anyone_asks_and_each_asker_brings_a_nonce(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        app = App(str(tmp_path / "store.sqlite"), port=0, bot_delay=0)
        await nursery.start(app.run)
        async with open_client(app.port) as wa, open_client(app.port) as wb:
            ana, ben = Client(wa), Client(wb)
            await ana.recv()
            await ben.recv()
            table = (await ana.request({"t": "create_table", "seats": 4, "timers": PATIENT}))["table"]
            ta = (await ana.request({"t": "join", "table": table, "name": "ana", "seat": 0, "nonce": "a" * 24}))
            assert (await ana.request({"t": "add_bots", "table": table, "token": ta["token"], "policy": "random",
                                       "count": 2}))["seats"] == [1, 2]
            tb = await ben.request({"t": "join", "table": table, "name": "ben", "seat": 3, "nonce": "b" * 24})
            async with trio.open_nursery() as players:
                players.start_soon(_play, ana, table, 0)
                players.start_soon(_play, ben, table, 3)
            # Both saw the rematch's table and commitment before anyone asked for it.
            seen = [_announced(next(f for f in c.frames if f.get("table") == table and _over(f))) for c in (ana, ben)]
            assert seen[0] == seen[1] and len(seen[0]["commitment"]) == 64
            announced = seen[0]
            nonces = {0: "rematch-nonce-of-ana-0", 3: "rematch-nonce-of-ben-3"}
            first = await ana.request({"t": "rematch", "table": table, "token": ta["token"], "nonce": nonces[0]})
            assert first["t"] == "ok" and first["table"] == announced["table"], first
            again = first["table"]
            info = (await ana.until(lambda f: f["t"] == "snapshot" and f["table"] == again))["table_info"]
            assert info["settings"]["commitment"] == announced["commitment"]
            second = await ben.request({"t": "rematch", "table": table, "token": tb["token"], "nonce": nonces[3]})
            assert (second["table"], second["seat"]) == (again, 3)
            async with trio.open_nursery() as players:
                players.start_soon(_play, ana, again, 0)
                players.start_soon(_play, ben, again, 3)
            record = (await ana.request({"t": "record", "table": again}))["record"]
        await app.aclose()
    c = record["commitment"]
    assert c["supplied"] == [1, 2] and all(c["nonces"][s] == dealing.supplied_nonce(c["salt"], s) for s in (1, 2))
    for seat, nonce in nonces.items():
        assert c["nonces"][seat] == dealing.seat_nonce(again, nonce)
        verdict = verify_record(record, PORTS, commitment=announced["commitment"], seat=seat, nonce=nonce)
        assert verdict.ok is True, verdict
    assert "rematch" in next(e for e in record["table_events"] if e["type"] == "TableFinished")


async def _take_and_play(c: Client, table: str, seat: int, rnd: random.Random) -> None:
    """Play `seat` (already taken on this connection) to the table's end."""
    answered: set[Any] = set()
    with trio.fail_after(120):
        while True:
            frame = await c.recv(timeout=60)
            if frame["t"] == "error":
                assert frame["code"] in ("decision/closed", "decision/answered", "game/over"), frame
                continue
            if _over(frame) or (frame["t"] == "snapshot" and frame["table_info"]["status"] == "finished"):
                return
            prompt = frame.get("prompt") if frame["t"] in ("events", "snapshot") else None
            cmd = pick(prompt, seat, rnd)
            if cmd is not None and prompt is not None and (prompt["id"], seat) not in answered:
                answered.add((prompt["id"], seat))
                await c.send({"t": "act", "table": table, "cmd": cmd})


async def test_a_tournament_entrant_brings_its_own_nonce_to_its_reserved_seat(tmp_path: Path) -> None:
    async with trio.open_nursery() as nursery:
        app = App(str(tmp_path / "store.sqlite"), port=0, bot_delay=0)
        await nursery.start(app.run)
        assert app.port is not None
        created = await call(app.port, {"t": "tournament_create", "settings": {
            "name": "Swiss", "rounds": 1, "table_sizes": [4], "timers": BOT_TIMERS, "show_up_s": 60.0}})
        tid, org = created["tournament"], created["organiser_token"]
        entry = await call(app.port, {"t": "tournament_register", "tournament": tid, "name": "kim"})
        for i in range(3):
            await call(app.port, {"t": "tournament_register", "tournament": tid, "name": f"bot{i}", "policy": "random",
                                  "organiser_token": org})
        nonce = "kims-own-secret-nonce-1"
        async with open_client(app.port) as ws:
            kim = Client(ws)
            await kim.recv()
            await kim.request({"t": "tournament_watch", "tournament": tid, "token": entry["token"], "full": False})
            await call(app.port, {"t": "tournament_direct", "tournament": tid, "token": org, "action": "start_round"})
            frame = await kim.until(lambda f: f["t"] == "tournament" and (f["state"].get("you") or {}).get("table"))
            you = frame["state"]["you"]
            ok = await kim.request({"t": "resume", "table": you["table"], "token": you["token"], "nonce": nonce})
            assert ok["t"] == "ok", ok
            await _take_and_play(kim, you["table"], you["seat"], random.Random(1))
            record = (await kim.request({"t": "record", "table": you["table"]}))["record"]
        await app.aclose()
    c, seat = record["commitment"], you["seat"]
    assert c["nonces"][seat] == dealing.seat_nonce(you["table"], nonce)
    assert c["supplied"] == [s for s in range(4) if s != seat]
    verdict = verify_record(record, PORTS, seat=seat, nonce=nonce)
    assert verdict.ok is True, verdict


async def test_tables_from_before_still_play_verify_and_rematch(tmp_path: Path) -> None:
    """tests/fixtures/fair_v1.sqlite: an open table whose seat 0 joined
    without a nonce (its nonce drawn then) is filled and played; its record
    verifies, saying what it cannot prove. A finished table from before
    announced no rematch: its rematch is made on request, and the nonce of
    the request that made it keeps the seat but does not count."""
    keep = json.loads((FIXTURES / "fair_v1.json").read_text())
    store = tmp_path / "store.sqlite"
    shutil.copy(FIXTURES / "fair_v1.sqlite", store)
    async with trio.open_nursery() as nursery:
        app = App(str(store), port=0, bot_delay=0)
        await nursery.start(app.run)
        assert app.port is not None
        opened = keep["open"]["table"]
        async with open_client(app.port) as w0, open_client(app.port) as w1:
            first, others = Client(w0), Client(w1)
            await first.recv()
            await others.recv()
            assert (await first.request({"t": "resume", "table": opened, "token": keep["open"]["token"]}))["t"] == "ok"
            joined = await others.request({"t": "join", "table": opened, "name": "dan", "nonce": "d" * 20})
            assert (await others.request({"t": "add_bots", "table": opened, "token": joined["token"],
                                          "policy": "random"}))["seats"] == [2, 3]
            async with trio.open_nursery() as players:
                players.start_soon(_take_and_play, first, opened, 0, random.Random(2))
                players.start_soon(_take_and_play, others, opened, joined["seat"], random.Random(3))
            record = (await first.request({"t": "record", "table": opened}))["record"]
            verdict = verify_record(record, PORTS, seat=joined["seat"], nonce="d" * 20)
            assert verdict.ok is True and "supplied" not in record["commitment"], verdict
            assert any("predates saying so" in line for line in verdict.unproven)

            old = keep["reveal"]["table"]
            old_token = nonce_token(old, keep["reveal"]["nonce0"])
            rematch = await first.request({"t": "rematch", "table": old, "token": old_token,
                                           "nonce": "late-request-nonce-0"})
            assert rematch["t"] == "ok" and rematch["seat"] == 0, rematch
            table = app.lobby.get(rematch["table"]) if app.lobby is not None else None
            assert table is not None and table.seats[0] is not None
            assert table.seats[0].nonce is None, "the request's nonce came before the salt: the server supplies it"
            retried = await first.request({"t": "rematch", "table": old, "token": old_token,
                                           "nonce": "late-request-nonce-0"})
            assert retried["t"] == "ok" and retried.get("duplicate") is True and retried["token"] == rematch["token"]
        await app.aclose()
