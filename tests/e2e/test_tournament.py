"""Tournaments over real sockets and the real store (docs/tournaments.md):
an organiser runs a Swiss event of bots from creation to the exports."""

from __future__ import annotations

import csv
import functools
import io
import json
import urllib.error
import urllib.request
from typing import Any

import pytest
import trio

from oriente.server.app import App
from oriente.server.tournament.scoring import points

from .tourney import call, entrant, organiser, register
from .wsclient import BOT_TIMERS

pytestmark = pytest.mark.trio


def get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return r.read()


async def fetch(port: int, path: str) -> bytes:
    return await trio.to_thread.run_sync(get, port, path)


async def direct(port: int, tournament: str, token: str, action: str, **kw: Any) -> dict[str, Any]:
    reply = await call(port, {"t": "tournament_direct", "tournament": tournament, "token": token,
                              "action": action, **kw})
    assert reply["t"] == "ok", reply
    return reply


async def wait_round(port: int, tournament: str, number: int, timeout: float = 120) -> dict[str, Any]:
    """Poll the export until round `number` has every table done."""
    with trio.fail_after(timeout):
        while True:
            state = json.loads(await fetch(port, f"/tournament/{tournament}/export.json"))
            rounds = state["rounds"]
            if len(rounds) >= number and all(t["status"] in ("finished", "adjudicated")
                                              for t in rounds[number - 1]["tables"]):
                return state
            await trio.sleep(0.2)


def check_exports(state: dict[str, Any], records: dict[str, Any], standings_csv: str) -> None:
    """Standings match a recomputation from the records; the exports parse."""
    assert state["seating_ok"] is True
    expected: dict[str, float] = {e["id"]: 0.0 for e in state["entrants"]}
    for rnd in state["rounds"]:
        for e, p in rnd["byes"].items():
            expected[e] += p
    for item in records["records"]:
        record = item["record"]
        table = state["rounds"][item["round"] - 1]["tables"][item["table"]]
        ranks = list(record["result"]["ranks"])
        lost = set(table["forfeits"])
        if lost:
            from oriente.server.tournament.scoring import forfeit_ranks
            ranks = forfeit_ranks(ranks, sorted(lost))
        for e, p in zip(item["entrants"], points(ranks), strict=True):
            expected[e] += p
    rows = list(csv.DictReader(io.StringIO(standings_csv)))
    assert len(rows) == len(state["entrants"])
    for row in rows:
        assert float(row["points"]) == pytest.approx(expected[row["id"]], abs=1e-6), row
    assert [r["id"] for r in rows] == [s["id"] for s in state["standings"]]


async def started_tables(port: int, tournament: str, number: int, timeout: float = 60) -> None:
    """Wait until a table of round `number` has started (to restart mid-round)."""
    with trio.fail_after(timeout):
        while True:
            state = json.loads(await fetch(port, f"/tournament/{tournament}/export.json"))
            if len(state["rounds"]) >= number and any(t["status"] != "seated"
                                                      for t in state["rounds"][number - 1]["tables"]):
                return
            await trio.sleep(0.05)


async def swiss_event(tmp_path: Any, nursery: trio.Nursery, *, entrants: int, sizes: list[int], rounds: int,
                      restart_in: int) -> dict[str, Any]:
    """A Swiss event of `entrants` bots over real sockets and a real SQLite
    store: the last registered never comes (a no-show: the seat proxy plays
    it), the first withdraws after round 1, a late entry comes then, and the
    server restarts (a new process's worth: a new App on the same store)
    while round `restart_in` is being played. Checks the exports and
    returns the final state."""
    store = str(tmp_path / "store.sqlite")
    app = App(store, port=0)
    await nursery.start(app.run)
    assert app.port is not None
    ports = [app.port]
    tid, org = await organiser(app.port, {"name": "Swiss", "rounds": rounds, "table_sizes": sizes,
                                          "timers": BOT_TIMERS, "show_up_s": 3.0, "seed": 11})
    tokens = [await register(app.port, tid, f"bot{i}", kind="bot") for i in range(entrants)]
    no_show = f"e{entrants}"
    tokens.pop()
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens):
            bots.start_soon(entrant, ports, tid, token, i)
        for number in range(1, rounds + 1):
            if number == 2:
                await call(ports[-1], {"t": "tournament_withdraw", "tournament": tid, "token": tokens[0]})
                late = await register(ports[-1], tid, "late", kind="bot")
                bots.start_soon(entrant, ports, tid, late, 99)
            reply = await direct(ports[-1], tid, org, "start_round")
            if number == 2:
                assert "e1" not in {e for t in reply["round"]["tables"] for e in t["entrants"]}
                assert "e1" not in reply["round"]["byes"]
            if number == restart_in:
                await started_tables(ports[-1], tid, number)
                await app.aclose()
                app = App(store, port=0)
                await nursery.start(app.run)
                assert app.port is not None and app.director is not None
                ports.append(app.port)
            state = await wait_round(ports[-1], tid, number, timeout=60 * len(tokens))
    assert state["finished"]
    late_id = f"e{entrants + 1}"
    assert any(late_id in t["entrants"] for r in state["rounds"][1:] for t in r["tables"]) or \
        any(late_id in r["byes"] for r in state["rounds"][1:])
    seated = [t for r in state["rounds"] for t in r["tables"] if no_show in t["entrants"]]
    # (a bot slow to connect on a loaded machine may be absent too)
    assert seated and all(t["entrants"].index(no_show) in t["absent"] for t in seated)
    port = ports[-1]
    records = json.loads(await fetch(port, f"/tournament/{tid}/records.json"))
    assert len(records["records"]) == sum(len(r["tables"]) for r in state["rounds"])
    check_exports(state, records, (await fetch(port, f"/tournament/{tid}/standings.csv")).decode())
    await app.aclose()
    return state


async def test_a_small_swiss_event_with_every_twist(tmp_path: Any, nursery: trio.Nursery) -> None:
    """The default run's equivalent of the 23-bot event below: nine bots at
    tables of 4 over two rounds (a bye each round), with the withdrawal, the
    late entry, the no-show and the restart mid-round."""
    state = await swiss_event(tmp_path, nursery, entrants=9, sizes=[4], rounds=2, restart_in=2)
    assert all(len(r["byes"]) == 1 for r in state["rounds"])


@pytest.mark.slow
async def test_a_three_round_swiss_of_23_bots(tmp_path: Any, nursery: trio.Nursery) -> None:
    """The whole check: 23 bots at tables of 5-6, three rounds, a
    withdrawal, a late entry, a no-show and a restart mid-round; standings
    match a recomputation from the records; the exports parse."""
    state = await swiss_event(tmp_path, nursery, entrants=23, sizes=[5, 6], rounds=3, restart_in=2)
    assert [sorted(len(t["entrants"]) for t in r["tables"]) for r in state["rounds"]] == [[5, 6, 6, 6]] * 3


def state_seed(state: dict[str, Any], index: int) -> int:
    """The board seed a finished duplicate round shows for table `index`."""
    seed: int = state["rounds"][0]["tables"][index]["board_seed"]
    return seed


async def test_a_duplicate_board_is_withheld_until_every_table_has_played_it(
        tmp_path: Any, nursery: trio.Nursery) -> None:
    """TR3.2: both tables of 4 play the same board (the same seed); while one
    still waits for a missing player, the other's record, spectating and
    replay are refused; once the director adjudicates the waiting table, the
    record opens and the board's seed is shown."""
    from oriente.clients.web import mounts

    app = App(str(tmp_path / "store.sqlite"), port=0, web=mounts())
    await nursery.start(app.run)
    assert app.port is not None and app.director is not None
    ports = [app.port]
    tid, org = await organiser(app.port, {"name": "Dup", "format": "duplicate", "rounds": 1, "table_sizes": [4],
                                          "timers": BOT_TIMERS, "show_up_s": 120.0, "seed": 3})
    tokens = [await register(app.port, tid, f"bot{i}", kind="bot") for i in range(8)]
    stop = trio.Event()
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens[:-1]):  # bot7 never comes: its table waits
            bots.start_soon(functools.partial(entrant, ports, tid, token, i, stop=stop))
        reply = await direct(app.port, tid, org, "start_round")
        tables = reply["round"]["tables"]
        assert tables[0]["board"] == tables[1]["board"] and tables[0]["board_seed"] is None
        waiting = next(t for t in tables if "e8" in t["entrants"])
        played = next(t for t in tables if "e8" not in t["entrants"])
        with trio.fail_after(60):
            while True:
                state = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
                if state["rounds"][0]["tables"][played["index"]]["status"] == "finished":
                    break
                await trio.sleep(0.1)
        played = state["rounds"][0]["tables"][played["index"]]
        for message in ({"t": "record", "table": played["table_id"]}, {"t": "spectate", "table": played["table_id"]}):
            refused = await call(app.port, message)
            assert refused["t"] == "error" and refused["code"] == "table/withheld", refused
        with pytest.raises(urllib.error.HTTPError):
            await fetch(app.port, f"/data/replay/{played['table_id']}.json")
        assert json.loads(await fetch(app.port, f"/tournament/{tid}/records.json"))["records"] == []
        await direct(app.port, tid, org, "adjudicate", round=1, table=waiting["index"], ranks=[1, 2, 3, 4])
        stop.set()
    opened = await call(app.port, {"t": "record", "table": played["table_id"]})
    assert opened["t"] == "ok" and opened["record"]["result"] is not None
    records = json.loads(await fetch(app.port, f"/tournament/{tid}/records.json"))["records"]
    played_config = opened["record"]["config"]
    assert any(r["record"]["config"] == played_config and r["table"] != played["index"] for r in records) or \
        len(records) == 1  # the adjudicated table never started, so it has no game record to compare
    assert played_config["seed"] == state_seed(json.loads(await fetch(app.port, f"/tournament/{tid}/export.json")),
                                               played["index"])
    state = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
    assert state["finished"] and state["rounds"][0]["tables"][0]["board_seed"] is not None
    assert all(row["board_score"] is not None for row in state["standings"])
    await app.aclose()


async def test_an_arena_seats_bots_as_they_wait_until_the_organiser_finishes_it(
        tmp_path: Any, nursery: trio.Nursery) -> None:
    """TR3.3: eight bots follow an arena of tables of 4; whoever waits is
    seated, games follow one another without rounds, and the organiser's
    `finish` ends it."""
    app = App(str(tmp_path / "store.sqlite"), port=0)
    await nursery.start(app.run)
    assert app.port is not None
    ports = [app.port]
    tid, org = await organiser(app.port, {"name": "Arena", "format": "arena", "table_sizes": [4],
                                          "timers": BOT_TIMERS, "seed": 9})
    tokens = [await register(app.port, tid, f"bot{i}", kind="bot") for i in range(8)]
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens):
            bots.start_soon(entrant, ports, tid, token, i)
        with trio.fail_after(90):
            while True:
                state = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
                if sum(row["games"] for row in state["standings"]) >= 16:
                    break
                await trio.sleep(0.2)
        await direct(app.port, tid, org, "finish")
    state = json.loads(await fetch(app.port, f"/tournament/{tid}/export.json"))
    assert state["finished"] and len(state["rounds"]) >= 4
    assert all(len(t["entrants"]) == 4 for r in state["rounds"] for t in r["tables"])
    assert sum(row["games"] for row in state["standings"]) >= 16
    await app.aclose()
