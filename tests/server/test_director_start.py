"""A tournament's table starts the moment its last entrant is present
(docs/tournaments.md TR4.5), told so by the table, not by looking again
every few milliseconds: under a clock that never moves, the start follows
the last seat's `resume` at once. (Before, the director polled the table's
seats every 50 ms, so under a frozen clock the table never started.) And
the show-up deadline still starts it with its absent seats proxied."""

from __future__ import annotations

from typing import Any

import pytest
import trio
from trio.testing import MockClock, wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.director import Director
from oriente.server.games import PORTS
from oriente.server.lobby import Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Table


async def _round(nursery: trio.Nursery, show_up_s: float) -> tuple[Director, Table, list[dict[str, Any]]]:
    """A four-entrant event's first round: its one table, every seat reserved,
    and each entrant's seat (table, seat, token)."""
    store = MemoryStore()
    await nursery.start(store.run)
    lobby = Lobby(PORTS, store, nursery)
    director = Director(lobby, store, nursery)
    t, organiser = await director.create({"name": "cup", "table_sizes": [4], "rounds": 1, "show_up_s": show_up_s})
    entrants = [(await director.register(t.id, f"entrant {i}"))[0] for i in range(4)]
    await director.direct(t.id, organiser, "start_round", {})
    await wait_all_tasks_blocked()
    live = director.get(t.id)
    seats = [director.next_table(live, e) for e in entrants]
    table = lobby.get(seats[0]["table"])
    assert table is not None and table.statistics().full and table.status == "open"
    return director, table, seats


async def _resume(table: Table, seat: dict[str, Any]) -> Outbox:
    outbox = Outbox(1000)
    await table.send(outbox, M.Resume(id=1, table=table.id, token=seat["token"]))
    await wait_all_tasks_blocked()
    return outbox


def test_the_last_entrant_present_starts_the_table_at_once() -> None:
    async def main() -> None:
        async with trio.open_nursery() as nursery:
            _, table, seats = await _round(nursery, show_up_s=120)
            for seat in seats[:3]:
                await _resume(table, seat)
            assert table.status == "open", "one entrant is missing"
            at = trio.current_time()
            await _resume(table, seats[3])
            assert table.status == "running"
            assert trio.current_time() == at, "no time passed: the table said its seats changed"
            assert not any(e["type"] == "ProxyOn" for e in table.events)
            nursery.cancel_scope.cancel()

    trio.run(main, clock=MockClock())  # a clock that moves only when told to


@pytest.mark.trio
async def test_the_show_up_deadline_starts_the_table_with_its_absent_seats_proxied(autojump_clock: Any) -> None:
    async with trio.open_nursery() as nursery:
        _, table, seats = await _round(nursery, show_up_s=30)
        await _resume(table, seats[0])
        await _until_running(table)
        assert trio.current_time() >= 30, "the entrants had their show-up time"
        proxied = sorted(e["seat"] for e in table.events if e["type"] == "ProxyOn")
        assert proxied == [i for i in range(4) if i != seats[0]["seat"]]
        nursery.cancel_scope.cancel()


async def _until_running(table: Table) -> None:
    while table.status == "open":
        await table.changed().wait()
