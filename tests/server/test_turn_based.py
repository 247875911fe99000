"""Turn-based tables (docs/table.md T8): a table setting with limits of
days, shown in the table's information and the lobby's listing; a live
table's settings read as before."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from oriente.protocol import messages as M
from oriente.protocol.presets import TURN_PRESETS, preset
from oriente.server.clock import DAY_MS, HOUR_MS, TimerSettings
from oriente.server.games import PORTS
from oriente.server.lobby import Lobby, LobbyError
from oriente.server.stores import MemoryStore


def test_t8_1_turn_based_timers_may_be_days_long_and_live_ones_may_not() -> None:
    TimerSettings(prompt_ms=7 * DAY_MS, window_ms=2 * DAY_MS, bank_ms=30 * DAY_MS, bank_refill_ms=30 * DAY_MS,
                  turn_based=True).validate()
    for too_long in ({"prompt_ms": 7 * DAY_MS + 1}, {"window_ms": 2 * DAY_MS + 1}, {"bank_ms": 30 * DAY_MS + 1},
                     {"bank_refill_ms": 30 * DAY_MS + 1}):
        with pytest.raises(ValueError, match="turn-based"):
            TimerSettings(turn_based=True, **too_long).validate()
    with pytest.raises(ValueError, match="prompt_ms"):
        TimerSettings(prompt_ms=HOUR_MS + 1).validate()  # a live table keeps its limits (T1.1)
    with pytest.raises(ValueError, match="zero_wait"):
        TimerSettings(turn_based=True, zero_wait=True).validate()
    for name, timers in TURN_PRESETS.items():
        TimerSettings(**timers).validate()
        assert timers["turn_based"] is True and preset(name) == timers


def test_t8_1_a_live_tables_timers_leave_the_field_out() -> None:
    assert "turn_based" not in TimerSettings().as_dict()
    assert TimerSettings(turn_based=True).as_dict()["turn_based"] is True


@pytest.mark.trio
async def test_t8_1_the_table_and_the_listing_say_it_is_turn_based() -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        turn = await lobby.create(*lobby.settings_from(M.CreateTable(seats=4, timers=M.Timers(
            prompt_ms=DAY_MS, window_ms=8 * HOUR_MS, bank_ms=3 * DAY_MS, turn_based=True))))
        live = await lobby.create(*lobby.settings_from(M.CreateTable(seats=4)))
        listed = {t["table"]: t for t in lobby.listing()}
        assert listed[turn.id]["settings"]["timers"]["turn_based"] is True
        assert "turn_based" not in listed[live.id]["settings"]["timers"]
        with pytest.raises(LobbyError, match="turn-based"):
            lobby.settings_from(M.CreateTable(seats=4, timers=M.Timers(prompt_ms=8 * DAY_MS, turn_based=True)))
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_t8_6_unfinished_turn_based_tables_asleep_or_awake_count_against_the_limit() -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        lobby.sleeps, lobby.max_turn_tables = True, 3
        turn = M.CreateTable(seats=4, timers=M.Timers(prompt_ms=DAY_MS, window_ms=8 * HOUR_MS, turn_based=True))
        first = await lobby.create(*lobby.settings_from(turn))
        assert await lobby.sleep(first, 600.0)  # open, nobody seated: due in 7 days (T8.4)
        assert first.id not in lobby.tables and await store.sleeping() == 1
        for _ in range(3):
            await lobby.create(*lobby.settings_from(M.CreateTable(seats=4)))  # live tables do not count
        second = await lobby.create(*lobby.settings_from(turn))
        await lobby.create(*lobby.settings_from(turn))
        with pytest.raises(LobbyError, match="turn-based tables"):
            await lobby.create(*lobby.settings_from(turn))  # one asleep, two awake
        second.status = "finished"  # an ended one, still in memory, counts no more
        await lobby.create(*lobby.settings_from(turn))
        with pytest.raises(LobbyError, match="turn-based tables"):
            await lobby.create(*lobby.settings_from(turn))
        nursery.cancel_scope.cancel()


class CountingStore(MemoryStore):
    """A store that notes which of its reads and writes a wake-up asks for
    (each one a round trip to a real store's thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.woke = trio.Event()

    async def table(self, table_id: str) -> Any:
        self.calls.append("table")
        return await super().table(table_id)

    async def log_and_clock(self, table_id: str) -> Any:
        self.calls.append("log_and_clock")
        return await super().log_and_clock(table_id)

    async def table_log_and_clock(self, table_id: str) -> Any:
        self.calls.append("table_log_and_clock")
        return await super().table_log_and_clock(table_id)

    async def wake(self, table_id: str) -> bool:
        self.calls.append("wake")
        try:
            return await super().wake(table_id)
        finally:
            self.woke.set()


@pytest.mark.trio
async def test_t8_5_a_wake_reads_the_row_log_and_clock_once_and_commits_its_claim_meanwhile() -> None:
    store = CountingStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        lobby.sleeps = True
        turn = M.CreateTable(seats=4, timers=M.Timers(prompt_ms=DAY_MS, window_ms=8 * HOUR_MS, turn_based=True))
        tables = [await lobby.create(*lobby.settings_from(turn)) for _ in range(2)]
        seqs = [t.seq for t in tables]
        for table in tables:
            assert await lobby.sleep(table, 600.0)
        # A message for it: `find`, which waits for one read, not for the
        # claim's commit too: that goes on meanwhile.
        store.calls.clear()
        woken = await lobby.find(tables[0].id)
        assert woken is not None and woken is not tables[0] and woken.seq == seqs[0]
        assert store.calls == ["table_log_and_clock"]
        await store.woke.wait()
        assert store.calls == ["table_log_and_clock", "wake"] and await store.sleeping() == 1
        assert await lobby.find(tables[0].id) is woken and store.calls == ["table_log_and_clock", "wake"]
        # Its time come: the sleeper's wake, which knows nothing of it yet.
        store.calls.clear()
        due = await lobby.wake(tables[1].id)
        assert due is not None and due.seq == seqs[1] and lobby.get(tables[1].id) is due
        assert sorted(store.calls) == ["table_log_and_clock", "wake"]
        assert await store.sleeping() == 0
        # Not asleep (another request woke it): the claim says so, nothing is rebuilt twice.
        store.calls.clear()
        assert await lobby.wake(tables[1].id) is due
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_t8_5_the_sleepers_wake_and_a_messages_wake_of_one_table_build_one_actor() -> None:
    store = CountingStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        lobby.sleeps = True
        turn = M.CreateTable(seats=4, timers=M.Timers(prompt_ms=DAY_MS, window_ms=8 * HOUR_MS, turn_based=True))
        table = await lobby.create(*lobby.settings_from(turn))
        assert await lobby.sleep(table, 600.0)
        got: list[Any] = []

        async def message() -> None:
            got.append(await lobby.find(table.id))

        async def sleeper() -> None:
            got.append(await lobby.wake(table.id))

        async with trio.open_nursery() as both:
            both.start_soon(message)
            both.start_soon(sleeper)
        assert got[0] is not None and got[0] is got[1] is lobby.get(table.id)
        await store.woke.wait()
        assert await store.sleeping() == 0
        nursery.cancel_scope.cancel()
