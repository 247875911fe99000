"""Tournaments on a site of many processes: a tournament created at one
process is entered, followed, directed, listed and exported through
another; a duplicate board's withheld table stays withheld in every
process (record, spectate, replay); and when the process directing a
tournament dies, another one takes it over with its tables."""

from __future__ import annotations

import functools
import json
import signal
import urllib.error
import urllib.request
from typing import Any

import pytest
import trio

from ..e2e.tourney import call, entrant, organiser, register
from ..e2e.wsclient import BOT_TIMERS

pytestmark = pytest.mark.trio

LEASE = 3.0  # the failover: long enough for a loaded machine to renew, short enough to wait for


def get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return r.read()


async def fetch(port: int, path: str) -> bytes:
    return await trio.to_thread.run_sync(get, port, path)


async def direct(port: int, tournament: str, token: str, action: str, **kw: Any) -> dict[str, Any]:
    reply = await call(port, {"t": "tournament_direct", "tournament": tournament, "token": token,
                              "action": action, **kw}, timeout=20)
    assert reply["t"] == "ok", reply
    return reply


async def table_status(port: int, tournament: str, index: int) -> dict[str, Any]:
    state = json.loads(await fetch(port, f"/tournament/{tournament}/export.json"))
    table: dict[str, Any] = state["rounds"][0]["tables"][index]
    return table


async def withheld_everywhere(ports: list[int], table: str) -> None:
    for port in ports:
        for message in ({"t": "record", "table": table}, {"t": "spectate", "table": table}):
            refused = await call(port, message)
            assert refused["t"] == "error" and refused["code"] == "table/withheld", (port, refused)
        with pytest.raises(urllib.error.HTTPError):
            await fetch(port, f"/data/replay/{table}.json")


async def test_a_tournament_is_directed_from_any_process_and_withheld_in_all(site) -> None:
    a, b = await site(2, "--lease", "6")  # no failover here: a lease that a loaded machine renews in time
    tid, org = await organiser(a.port, {"name": "Site dup", "format": "duplicate", "rounds": 1, "table_sizes": [4],
                                        "timers": BOT_TIMERS, "show_up_s": 300.0, "seed": 5})
    # Entered, started and followed through B; directed by A.
    tokens = [await register(b.port, tid, f"bot{i}", kind="bot") for i in range(8)]
    with trio.fail_after(10):  # B lists A's tournament (the bus carries the listing)
        while tid not in [t["tournament"] for t in (await call(b.port, {"t": "list_tournaments"}))["tournaments"]]:
            await trio.sleep(0.1)
    stop = trio.Event()
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens[:-1]):  # bot7 never comes: its table waits
            bots.start_soon(functools.partial(entrant, [b.port], tid, token, i, stop=stop))
        tables = (await direct(b.port, tid, org, "start_round"))["round"]["tables"]
        waiting = next(t for t in tables if "e8" in t["entrants"])
        played = next(t for t in tables if "e8" not in t["entrants"])
        with trio.fail_after(90):
            while (await table_status(b.port, tid, played["index"]))["status"] != "finished":
                await trio.sleep(0.2)
        played = await table_status(b.port, tid, played["index"])
        assert played["board_seed"] is None
        await withheld_everywhere([a.port, b.port], played["table_id"])
        await direct(b.port, tid, org, "adjudicate", round=1, table=waiting["index"], ranks=[1, 2, 3, 4])
        stop.set()
    for port in (a.port, b.port):
        opened = await call(port, {"t": "record", "table": played["table_id"]})
        assert opened["t"] == "ok" and opened["record"]["result"] is not None
        replay = json.loads(await fetch(port, f"/data/replay/{played['table_id']}.json"))
        assert replay
    state = json.loads(await fetch(b.port, f"/tournament/{tid}/export.json"))
    assert state["finished"] and state["rounds"][0]["tables"][played["index"]]["board_seed"] is not None


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGUSR1], ids=["killed", "drained"])
async def test_the_director_of_a_tournament_dies_and_another_process_takes_it_over(site, how) -> None:
    """A swiss round of two tables directed by A, played through B; A is
    killed (or drained: `oriente drain PID`) mid-round; B takes the
    tournament over with both tables, and the round and the event finish
    there."""
    a, b = await site(2, "--lease", str(LEASE))
    tid, org = await organiser(a.port, {"name": "Failover", "format": "swiss", "rounds": 1, "table_sizes": [4],
                                        "timers": BOT_TIMERS, "show_up_s": 300.0, "seed": 9})
    tokens = [await register(a.port, tid, f"bot{i}", kind="bot") for i in range(8)]
    ports = [b.port]
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens):
            bots.start_soon(functools.partial(entrant, ports, tid, token, 100 + i))
        tables = (await direct(a.port, tid, org, "start_round"))["round"]["tables"]
        with trio.fail_after(60):  # the tables playing at A
            while True:
                statuses = [(await table_status(b.port, tid, t["index"]))["status"] for t in tables]
                if "started" in statuses and set(statuses) <= {"started", "finished"}:
                    break
                await trio.sleep(0.1)
        a.signal(how)
        await a.wait()
        with trio.fail_after(60 + 8 * LEASE):  # B directs it now; the round ends
            while True:
                state = json.loads(await fetch(b.port, f"/tournament/{tid}/export.json"))
                if all(t["status"] == "finished" for t in state["rounds"][0]["tables"]):
                    break
                await trio.sleep(0.2)
    assert state["finished"] or state["rounds_played"] == 1
    finished = await direct(b.port, tid, org, "finish")
    assert finished["state"]["finished"]
    assert [row["games"] for row in finished["state"]["standings"]] == [1] * 8


async def test_an_entry_made_through_another_process_is_its_signed_in_accounts(site) -> None:
    """A tournament directed by A; people connected to B. The forwarded
    `tournament_register` carries who the connection is signed in as (ids,
    on the sealed bus), so that ana's entry is her account's under her name,
    and nobody signed out can enter under it (docs/tournaments.md TR1.2)."""
    from ..e2e.wsclient import Client, open_client

    a, b = await site(2, "--lease", "6")
    tid, _ = await organiser(a.port, {"name": "Site cup"})
    async with open_client(b.port) as ws:
        ana = Client(ws)
        await ana.recv()
        signed = await ana.request({"t": "sign_up", "name": "ana", "password": "correct horse 1"}, timeout=20)
        assert signed["t"] == "ok", signed
        entry = await ana.request({"t": "tournament_register", "tournament": tid, "name": "someone"}, timeout=20)
        assert entry["t"] == "ok", entry
    refused = await call(b.port, {"t": "tournament_register", "tournament": tid, "name": "Ana"}, timeout=20)
    assert refused["t"] == "error" and refused["code"] == "tournament/name_reserved", refused
    state = json.loads(await fetch(b.port, f"/tournament/{tid}/export.json"))
    assert [(e["name"], e["account"]) for e in state["entrants"]] == [("ana", signed["account"]["id"])]
