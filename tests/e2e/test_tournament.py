"""Tournaments over real sockets and the real store (docs/tournaments.md):
an organiser runs a Swiss event of bots from creation to the exports."""

from __future__ import annotations

import csv
import io
import json
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


async def test_a_small_swiss_event_with_a_bye_a_late_entry_a_withdrawal_and_a_no_show(
        tmp_path: Any, nursery: trio.Nursery) -> None:
    """Nine entrants at tables of 4 over two rounds: one bye in round 1;
    one entrant never comes (the seat proxy plays it); after round 1 one
    withdraws and a late one enters."""
    app = App(str(tmp_path / "store.sqlite"), port=0)
    await nursery.start(app.run)
    assert app.port is not None
    ports = [app.port]
    tid, org = await organiser(app.port, {"name": "Small Swiss", "rounds": 2, "table_sizes": [4],
                                          "timers": BOT_TIMERS, "show_up_s": 1.0, "seed": 11})
    tokens = [await register(app.port, tid, f"bot{i}", kind="bot") for i in range(9)]
    absent = tokens.pop()  # bot8 never connects
    async with trio.open_nursery() as bots:
        for i, token in enumerate(tokens):
            bots.start_soon(entrant, ports, tid, token, i)
        r1 = await direct(app.port, tid, org, "start_round")
        assert len(r1["round"]["byes"]) == 1
        await wait_round(app.port, tid, 1)
        # the withdrawal and the late entry, between the rounds
        await call(app.port, {"t": "tournament_withdraw", "tournament": tid, "token": tokens[0]})
        bots.start_soon(entrant, ports, tid, await register(app.port, tid, "late", kind="bot"), 99)
        r2 = await direct(app.port, tid, org, "start_round")
        seated = {e for t in r2["round"]["tables"] for e in t["entrants"]}
        assert "e1" not in seated and "e1" not in r2["round"]["byes"]
        assert "e10" in seated or "e10" in r2["round"]["byes"]
        state = await wait_round(app.port, tid, 2)
    assert state["finished"]
    no_show = [t for r in state["rounds"] for t in r["tables"] if "e9" in t["entrants"]]
    assert all(t["absent"] == [t["entrants"].index("e9")] for t in no_show)
    records = json.loads(await fetch(app.port, f"/tournament/{tid}/records.json"))
    assert len(records["records"]) == sum(len(r["tables"]) for r in state["rounds"])
    check_exports(state, records, (await fetch(app.port, f"/tournament/{tid}/standings.csv")).decode())
    await app.aclose()
