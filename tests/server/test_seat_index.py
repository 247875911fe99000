"""The index of seats by account (PROTOCOL.md 3, my_tables; docs/accounts.md,
"E-mail"): a table keeps, in the store, each account's seat with whether the
armed deadline waits on it and until when on the wall clock, written when
that changes and only then. Over the toy game (the actor knows no game),
under trio's MockClock, with the memory store."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.clock import DAY_MS, TimerSettings
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore, SeatRow
from oriente.server.table import AccountJoin, SeatBot, Table, TableSettings
from tests.toy_game import ToyPort

from .actor_harness import WALL, Harness, open_table

pytestmark = pytest.mark.trio

TURNS = TimerSettings(prompt_ms=DAY_MS, window_ms=0, bank_ms=0, bank_refill_ms=0, turn_based=True)


def card(account: str) -> dict[str, object]:
    return {"id": account, "name": account, "bot": False,
            "reputation": {"kept": 0, "broken": 0, "released": 0}}


async def table_of_accounts(nursery: trio.Nursery, store: MemoryStore, timers: TimerSettings) -> Harness:
    """Three seats: accounts A0 and A1 at seats 0 and 1, a server bot at 2."""
    port = ToyPort()
    setup = port.configure(3, 3, dict(port.new_table_options), {})
    settings = TableSettings(game=port.name, seats=3, seed=3, timers=timers, options=setup.options)
    table = Table("t1", settings, port, setup, store, wall=lambda: WALL + trio.current_time())
    await table.create()
    nursery.start_soon(table.run)
    clients = []
    for i in range(3):
        outbox = Outbox(1000)
        join = M.Join(id=f"j{i}", table="t1", name=f"p{i}", seat=i)
        await table.send(outbox, AccountJoin(join=join, account=card(f"A{i}")) if i < 2
                         else SeatBot(id="b", name="bot", policy="bold", seat=2))
        clients.append(outbox)
        await wait_all_tasks_blocked()
    h = Harness(table, clients, store, owns_store=False)
    h.drain_all()
    return h


def rows(store: MemoryStore) -> dict[str, SeatRow]:
    return {r.account_id: r for r in store.seat_rows.get("t1", [])}


async def test_the_awaited_accounts_seat_and_its_wall_clock_deadline_are_indexed(autojump_clock: object) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await table_of_accounts(nursery, store, TURNS)
        assert h.table.status == "running"
        now = WALL + trio.current_time()
        indexed = rows(store)
        assert set(indexed) == {"A0", "A1"}, "a seat without an account is not indexed"
        with pytest.raises(Exception, match="sign"):
            h.table.seats.choose("anon", None, None, bot=False, table=h.table.settings)
        assert {r.seat for r in indexed.values()} == {0, 1}
        pivot = h.pivot
        for r in indexed.values():
            awaited = r.seat == pivot
            assert r.awaits is awaited and r.turn_based and not r.ended
            assert r.until == (pytest.approx(now + DAY_MS / 1000) if awaited else None)
        before = store.seat_rows["t1"]
        await trio.sleep(3600)  # an hour passes and nothing happens: nothing is written
        assert store.seat_rows["t1"] is before

        while h.table.status == "running" and h.pivot in (0, 1):
            waited = h.pivot
            since = rows(store)[f"A{waited}"].since
            await h.answer(waited)
            if h.table.status == "running" and h.pivot != waited and h.pivot in (0, 1):
                moved = rows(store)
                assert moved[f"A{h.pivot}"].awaits and not moved[f"A{waited}"].awaits
                assert moved[f"A{h.pivot}"].since >= since
        while h.table.status == "running":
            await h.answer(h.pivot)
        ended = rows(store)
        assert all(r.ended and not r.awaits and r.until is None for r in ended.values())
        nursery.cancel_scope.cancel()


async def test_a_live_tables_rows_say_it_is_not_turn_based_and_signed_out_tables_write_none(
        autojump_clock: object) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await table_of_accounts(nursery, store, TimerSettings())
        assert rows(store) and not any(r.turn_based for r in rows(store).values())
        nursery.cancel_scope.cancel()
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        await open_table(nursery, ToyPort(), seats=3, store=store)
        assert "t1" not in store.seat_rows
        nursery.cancel_scope.cancel()
