"""Open tables do not pile up for good (docs/table.md T6):
an open table that no connected client holds a seat at for 10 minutes is
abandoned, also after a restart, and a full lobby makes room by abandoning
the open table unattended longest. The lobby and its actors under MockClock
with the memory store."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games import PORTS
from oriente.server.lobby import Lobby, LobbyError
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Disconnected, SeatBot, Table

from .actor_harness import drain

pytestmark = pytest.mark.trio

MINUTE = 60.0


async def new_table(lobby: Lobby) -> Table:
    return await lobby.create(*lobby.settings_from(M.CreateTable(seats=4)))


async def join(table: Table, name: str) -> Outbox:
    outbox = Outbox(100)
    await table.send(outbox, M.Join(id="j", table=table.id, name=name))
    await wait_all_tasks_blocked()
    assert drain(outbox)[0]["t"] == "ok"
    return outbox


async def status(store: MemoryStore, table: Table) -> str:
    row = await store.table(table.id)
    assert row is not None
    return row.status


async def test_t6_1_an_open_table_nobody_holds_is_abandoned_after_ten_minutes(autojump_clock) -> None:
    """T6.1: an open table at which no seat has been held by a connected
    client for 10 minutes is abandoned; the server's bots do not hold it."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        empty, held, bots_only = await new_table(lobby), await new_table(lobby), await new_table(lobby)
        seat = await join(held, "ana")
        await bots_only.send(Outbox(100), SeatBot(id="b", name="bot", policy="random"))
        watcher = Outbox(100)
        await empty.send(watcher, M.Spectate(id="s", table=empty.id))
        await trio.sleep(9 * MINUTE)
        assert {empty.status, held.status, bots_only.status} == {"open"}
        await trio.sleep(1.5 * MINUTE)
        assert (empty.status, bots_only.status, held.status) == ("abandoned", "abandoned", "open")
        assert await status(store, empty) == "abandoned"
        assert any(e["type"] == "TableAbandoned" for f in drain(watcher) if f["t"] == "events" for e in f["events"])
        assert lobby.get(empty.id) is None and await lobby.find(empty.id) is None
        assert [t["table"] for t in lobby.listing()] == [held.id]
        # Its last connected seat goes: ten minutes later it is abandoned too.
        await held.send(None, Disconnected(seat))
        await trio.sleep(9.5 * MINUTE)
        assert held.status == "open"
        await trio.sleep(MINUTE)
        assert held.status == "abandoned" and await status(store, held) == "abandoned"
        nursery.cancel_scope.cancel()


async def test_t6_1_a_restart_starts_the_ten_minutes_again(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as outer:
        await outer.start(store.run)
        async with trio.open_nursery() as first:
            table = await new_table(Lobby(PORTS, store, first))
            await join(table, "ana")
            first.cancel_scope.cancel()  # the server stops; the seat's connection is gone
        await trio.sleep(60 * MINUTE)
        async with trio.open_nursery() as second:
            lobby = Lobby(PORTS, store, second)
            assert await lobby.recover() == 1
            again = lobby.get(table.id)
            assert again is not None and again.status == "open"
            await trio.sleep(9 * MINUTE)
            assert again.status == "open"
            await trio.sleep(2 * MINUTE)
            assert again.status == "abandoned" and await status(store, again) == "abandoned"
            second.cancel_scope.cancel()
        outer.cancel_scope.cancel()


async def test_t6_3_a_full_lobby_abandons_the_table_unattended_longest(autojump_clock) -> None:
    """T6.3: no limit locks everyone out: a full lobby makes room by
    abandoning the open table unattended longest; only tables that run or
    are held by a connected seat fill it for good."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery, max_tables=3)
        oldest = await new_table(lobby)
        await trio.sleep(MINUTE)
        newer = await new_table(lobby)
        held = await new_table(lobby)
        await join(held, "ana")
        fourth = await new_table(lobby)
        assert oldest.status == "abandoned" and lobby.get(oldest.id) is None
        assert (newer.status, held.status, fourth.status) == ("open", "open", "open")
        for t in (newer, fourth):
            await join(t, "ben")
        with pytest.raises(LobbyError) as caught:
            await new_table(lobby)
        assert caught.value.code == "lobby/full"
        nursery.cancel_scope.cancel()
