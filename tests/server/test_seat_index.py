"""The index of seats by account (PROTOCOL.md 3, my_tables; docs/accounts.md,
"E-mail"): a table keeps, in the store, each account's seat with whether the
armed deadline waits on it and until when on the wall clock, written when
that changes and only then. Over the toy game (the actor knows no game),
under trio's MockClock, with the memory store."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.games.kit.port import GamePort
from oriente.protocol import messages as M
from oriente.server.clock import DAY_MS, TimerSettings
from oriente.server.games.oriente import OrientePort
from oriente.server.outbox import Outbox
from oriente.server.stores import AccountRow, EmailRow, MemoryStore, SeatRow
from oriente.server.table import AccountJoin, AccountResume, SeatBot, Stop, Table, TableSettings
from oriente.server.table.seat_index import SeatIndex
from tests.toy_game import ToyPort

from .actor_harness import WALL, Harness, open_table

pytestmark = pytest.mark.trio

TURNS = TimerSettings(prompt_ms=DAY_MS, window_ms=0, bank_ms=0, bank_refill_ms=0, turn_based=True)


def card(account: str) -> dict[str, object]:
    return {"id": account, "name": account, "bot": False,
            "reputation": {"kept": 0, "broken": 0, "released": 0}}


async def table_of_accounts(nursery: trio.Nursery, store: MemoryStore, timers: TimerSettings,
                            port: GamePort | None = None, bot: bool = True) -> Harness:
    """Three seats: accounts A0 and A1 at seats 0 and 1, a server bot at 2;
    or, without `bot`, an account at every seat of a four-seat table."""
    port = port or ToyPort()
    seats = 3 if bot else 4
    setup = port.configure(seats, 3, dict(port.new_table_options), {})
    settings = TableSettings(game=port.name, seats=seats, seed=3, timers=timers, options=setup.options)
    table = Table("t1", settings, port, setup, store, wall=lambda: WALL + trio.current_time())
    await table.create()
    nursery.start_soon(table.run)
    clients = []
    for i in range(seats):
        outbox = Outbox(1000)
        join = M.Join(id=f"j{i}", table="t1", name=f"p{i}", seat=i)
        await table.send(outbox, AccountJoin(join=join, account=card(f"A{i}")) if i < 2 or not bot
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
        port = _NoOffersAsked()
        await open_table(nursery, port, seats=3, store=store)
        assert "t1" not in store.seat_rows
        assert port.asked == 0, "a table without accounts does not look at the game's offers after each step"
        nursery.cancel_scope.cancel()


class _NoOffersAsked(ToyPort):
    """A toy game that counts how often the table asks whom its offers await."""

    asked = 0

    def offered(self, state: object) -> frozenset[int]:
        self.asked += 1
        return super().offered(state)


async def with_address(store: MemoryStore, account: str) -> None:
    """The account, with a confirmed address that takes mail."""
    await store.create_account(AccountRow(account, account, account.casefold(), "person", None, "x", 0.0))
    await store.save_email(EmailRow(account, f"{account}@example.org", "", "u" * 64, 0.0, 1.0), account)


def offer(proposer: int, to: int) -> dict[str, object]:
    """A deal of one free promise from `proposer` to `to` (R8.6): it awaits `to`'s answer."""
    return {"type": "ProposeDeal", "transfers": [],
            "promises": [{"promiser": proposer, "promisee": to, "kind": "free", "text": "my support"}]}


async def test_an_offer_awaits_the_account_it_is_made_to_as_a_decision_does(autojump_clock: object) -> None:
    """An open deal awaits the parties that have not accepted it
    (`GamePort.offered`): their rows say so, with no deadline of their own,
    and the notifier's query finds them as it finds a decision's."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await table_of_accounts(nursery, store, TURNS, OrientePort(), bot=False)
        pivot = h.pivot
        proposer, party, _ = (s for s in range(4) if s != pivot)
        for account in ("A0", "A1", "A2", "A3"):
            await with_address(store, account)
        await trio.sleep(3600)
        assert await store.mail_due(WALL + trio.current_time(), 3600, 60, 10) == [f"A{pivot}"]
        await h.act(proposer, offer(proposer, party))
        made = WALL + trio.current_time()
        indexed = rows(store)
        assert indexed[f"A{party}"].awaits and indexed[f"A{party}"].until is None
        assert indexed[f"A{party}"].since == pytest.approx(made)
        assert not indexed[f"A{proposer}"].awaits, "proposing is the proposer's acceptance"
        assert indexed[f"A{pivot}"].awaits and indexed[f"A{pivot}"].until is not None
        await trio.sleep(3600)
        assert await store.mail_due(WALL + trio.current_time(), 3600, 60, 10) == sorted([f"A{pivot}", f"A{party}"])
        deal = next(e["deal"] for e in h.table.events if e["type"] == "DealProposed")
        await h.act(party, {"type": "DeclineDeal", "deal": deal})
        assert not rows(store)[f"A{party}"].awaits, "an answered offer awaits no one"
        assert rows(store)[f"A{pivot}"].awaits
        await h.close()
        nursery.cancel_scope.cancel()


async def test_a_wait_keeps_its_start_when_the_table_is_rebuilt_from_its_log(autojump_clock: object) -> None:
    """A table rebuilt from its log (a wake, a recovery) takes since when
    each seat has been awaited from the rows stored: the same wait is not
    a new one, so an account mailed about it is not mailed again."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await table_of_accounts(nursery, store, TURNS, OrientePort(), bot=False)
        pivot = h.pivot
        proposer, party, _ = (s for s in range(4) if s != pivot)
        began = rows(store)[f"A{pivot}"].since
        await with_address(store, f"A{pivot}")
        await trio.sleep(2 * 3600)
        await store.mailed(f"A{pivot}", WALL + trio.current_time())
        await h.table.send(None, Stop())
        await wait_all_tasks_blocked()
        await trio.sleep(2 * 3600)
        row = await store.table("t1")
        clock = await store.clock("t1")
        assert row is not None and clock is not None
        table = Table.restore("t1", row.meta, await store.log("t1"), clock[1], OrientePort(), store, paused_ms=0,
                              wall=lambda: WALL + trio.current_time(), turn=(clock[0], WALL))
        nursery.start_soon(table.run)
        await wait_all_tasks_blocked()
        outbox = Outbox(1000)
        await table.send(outbox, AccountResume(resume=M.Resume(id="r", table="t1", token=""),
                                               account=f"A{proposer}"))
        await wait_all_tasks_blocked()
        await table.send(outbox, M.Act(id=1, table="t1", cmd=offer(proposer, party)))  # a step; the wait goes on
        await wait_all_tasks_blocked()
        indexed = rows(store)
        assert indexed[f"A{party}"].awaits, "the step was taken and indexed"
        assert indexed[f"A{pivot}"].awaits and indexed[f"A{pivot}"].since == began
        assert await store.mail_due(WALL + trio.current_time() + 3600, 3600, 60, 10) == [], "mailed already"
        await table.send(None, Stop())
        nursery.cancel_scope.cancel()


async def test_a_window_awaits_its_seats_until_it_closes_and_an_offer_alone_has_no_deadline() -> None:
    """A deadline that waits on no one seat (a window) runs out for every
    seat it awaits: their rows carry its wall-clock end. A seat awaited only
    by an offer has none."""
    from types import SimpleNamespace

    index = SeatIndex(turn_based=True)
    slots = [SimpleNamespace(account={"id": f"A{i}"}, bot=None) for i in range(3)]
    window = SimpleNamespace(deadline=SimpleNamespace(pivot=None, key=(7, "window"), at=100.0 + 8 * 3600))
    got = index.rows("t1", slots, window, "running", 100.0, WALL, frozenset({0, 1}))  # type: ignore[arg-type]
    assert got is not None
    assert [(r.seat, r.awaits, r.until) for r in got] == [
        (0, True, WALL + 8 * 3600), (1, True, WALL + 8 * 3600), (2, False, None)]
    pivot = SimpleNamespace(deadline=SimpleNamespace(pivot=2, key=(8, "round"), at=100.0 + 3600))
    got = index.rows("t1", slots, pivot, "running", 100.0, WALL, frozenset({0}))  # type: ignore[arg-type]
    assert got is not None
    assert [(r.seat, r.awaits, r.until) for r in got] == [(0, True, None), (1, False, None), (2, True, WALL + 3600)]


class _Writes(MemoryStore):
    """A store that counts the writes a table makes, by kind."""

    def __init__(self) -> None:
        super().__init__()
        self.seat_saves = 0
        self.appends_with_seats = 0

    async def save_seats(self, table_id: str, rows: list[SeatRow]) -> None:  # type: ignore[override]
        self.seat_saves += 1
        await super().save_seats(table_id, rows)

    async def append(self, table_id: str, records: object, **kw: object) -> None:  # type: ignore[override]
        self.appends_with_seats += kw.get("seats") is not None
        await super().append(table_id, records, **kw)  # type: ignore[arg-type]


async def test_a_steps_seat_rows_go_in_its_own_append(autojump_clock: object) -> None:
    """A table with signed-in seats changes its rows at nearly every step:
    they go in the step's own append (one commit), never as a write of
    their own that the step's frames would wait for."""
    store = _Writes()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await table_of_accounts(nursery, store, TimerSettings(), bot=False)
        before = store.appends_with_seats
        moved = 0
        for _ in range(6):
            waited = h.pivot
            await h.answer(waited)
            if h.table.status != "running":
                break
            moved += h.pivot != waited
            assert rows(store)[f"A{h.pivot}"].awaits, "the index says whom the table awaits after the step"
        assert moved and store.appends_with_seats - before >= moved
        assert store.seat_saves == 0, "the rows were written apart from the step's append"
        nursery.cancel_scope.cancel()
