"""Where a message's wake spent its time (server/wake_times.py): each step
of a wake on a real SQLite store, the store's own timing of its requests,
and the run loop's lag, as /metrics shows them."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from oriente.protocol import messages as M
from oriente.server.clock import DAY_MS, HOUR_MS
from oriente.server.collector import GcPolicy
from oriente.server.games import PORTS
from oriente.server.lobby import Lobby
from oriente.server.stores import SQLiteStore
from oriente.server.stores.timing import SINK, Listener, Timed
from oriente.server.wake_times import STEPS, WakeTimes


def _values(lines: list[str]) -> dict[str, float]:
    return {name: float(value) for name, _, value in (line.rpartition(" ") for line in lines if line[0] != "#")}


@pytest.mark.trio
async def test_a_wake_by_a_message_records_its_read_and_its_rebuild(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "store.sqlite"))
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby(PORTS, store, nursery)
        lobby.sleeps = True
        turn = M.CreateTable(seats=4, timers=M.Timers(prompt_ms=DAY_MS, window_ms=8 * HOUR_MS, turn_based=True))
        table = await lobby.create(*lobby.settings_from(turn))
        assert await lobby.sleep(table, 600.0)
        assert _values(lobby.wake_times.metrics())["oriente_wake_step_seconds_count"] == 0
        assert await lobby.find(table.id) is not None
        assert await lobby.find(table.id) is not None  # awake: not a wake
        values = _values(lobby.wake_times.metrics())
        assert values["oriente_wake_step_seconds_count"] == 1
        for step in ("read", "rebuild", "total"):
            assert values[f'oriente_wake_step_seconds{{step="{step}",quantile="1"}}'] > 0
        # The claim's commit goes on meanwhile: no part of the message's wait.
        assert values['oriente_wake_step_seconds{step="claim",quantile="1"}'] == 0
        total = values['oriente_wake_step_seconds{step="total",quantile="1"}']
        parts = sum(values[f'oriente_wake_step_seconds{{step="{s}",quantile="1"}}'] for s in STEPS[:-1])
        assert parts == pytest.approx(total, abs=1e-5)
        assert SINK.get() is None  # `find` left nothing listening
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_the_store_times_only_the_requests_of_the_task_that_listens(tmp_path: Path) -> None:
    store = SQLiteStore(str(tmp_path / "store.sqlite"))
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        listener, other = Listener(), Listener()
        inherited = trio.Event()

        async def elsewhere() -> None:
            SINK.set(other)
            await store.create_table("u", "open", b"meta", 1.0)

        async def started_meanwhile() -> None:
            await inherited.wait()
            await store.table("t")  # its listener was switched off

        async with trio.open_nursery() as tasks:
            token = SINK.set(listener)
            try:
                await store.create_table("t", "open", b"meta", 1.0)
                await store.table("t")
                tasks.start_soon(elsewhere)
                tasks.start_soon(started_meanwhile)
            finally:
                listener.on = False
                SINK.reset(token)
            await store.table("t")  # nobody listening
            inherited.set()
        assert [t.kind for t in listener.heard] == ["write", "read"]
        assert [t.kind for t in other.heard] == ["write"]
        assert all(t.waited >= 0 and t.ran > 0 and t.back >= 0 for t in listener.heard)
        nursery.cancel_scope.cancel()


def test_the_slowest_hundredth_of_wakes_has_its_own_breakdown() -> None:
    times = WakeTimes()
    for _ in range(99):
        times.add([Timed("read", 0.0, 0.001, 0.0), Timed("write", 0.0, 0.001, 0.0)], 0.001, 0.003)
    times.add([Timed("read", 0.5, 0.001, 0.0), Timed("write", 0.0, 0.001, 0.0)], 0.001, 0.503)
    values = _values(times.metrics())
    assert values['oriente_wake_step_tail_seconds{step="read_wait"}'] == 0.5
    assert values['oriente_wake_step_tail_seconds{step="rebuild"}'] == 0.001
    assert values['oriente_wake_step_seconds{step="read_wait",quantile="0.5"}'] == 0.0
    assert values['oriente_wake_step_seconds{step="total",quantile="1"}'] == 0.503


@pytest.mark.trio
async def test_the_run_loops_lag_is_the_young_collections_late_wake(autojump_clock: trio.abc.Clock) -> None:
    policy = GcPolicy(collect_young=lambda: None, collect=lambda: None, pending=lambda: 0)
    with trio.move_on_after(1.0):
        await policy.run()
    values = _values(policy.metrics())
    assert len(policy.lag) >= 40 and max(policy.lag) == pytest.approx(0, abs=1e-9)  # nothing held the loop
    assert 'oriente_loop_lag_seconds{quantile="0.99"}' in values and values["oriente_gc_full_total"] == 0
