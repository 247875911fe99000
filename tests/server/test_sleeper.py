"""The sleeper's wake-ups (docs/table.md T8.5) on trio's MockClock: tables
that fall due together are woken together, up to a bound, and each is woken
once; one that another process claims is not tried again before the next
poll; a table is woken a little before its time, so that its own timer, not
the rebuild, decides when its deadline applies. A sweep puts its tables to
sleep together too, up to a bound, and one that fails fails alone.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import trio

from oriente.server.sleeping import SLEEP_CONCURRENCY, WAKE_BATCH, WAKE_CONCURRENCY, WAKE_LEAD_S, Sleeper

REBUILD_S = 1.0  # how long each fake rebuild takes, on the mock clock


class Index:
    """The store's index of wake-ups, as the sleeper reads it."""

    def __init__(self, wake_at: dict[str, float]) -> None:
        self.wake_at = dict(wake_at)

    async def due(self, now: float, limit: int) -> list[str]:
        return sorted(t for t, w in self.wake_at.items() if w <= now)[:limit]

    async def next_wake(self) -> float | None:
        return min(self.wake_at.values(), default=None)

    async def sleeping(self) -> int:
        return len(self.wake_at)


class Lobby:
    def __init__(self, index: Index) -> None:
        self.store = index
        self.tables: dict[str, Any] = {}
        self.withheld: set[str] = set()
        self.late: list[float] = []

    def wall(self) -> float:
        return trio.current_time()

    async def wake(self, table_id: str) -> Any:
        raise AssertionError("the test passes its own wake")


@pytest.mark.trio
async def test_tables_due_together_wake_together_each_once(autojump_clock: Any) -> None:
    n = 3 * WAKE_CONCURRENCY + 5
    index = Index({f"t{i:03}": 10.0 for i in range(n)})
    woken: list[str] = []
    in_flight = peak = 0

    async def wake(table_id: str) -> Any:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await trio.sleep(REBUILD_S)  # the store reads and the replay
        del index.wake_at[table_id]
        woken.append(table_id)
        in_flight -= 1
        return object()

    sleeper = Sleeper(Lobby(index), wake=wake)  # type: ignore[arg-type]
    await trio.sleep(10.0)
    start = trio.current_time()
    assert await sleeper.wake_due() == n
    assert sorted(woken) == sorted(f"t{i:03}" for i in range(n)) and len(set(woken)) == n
    assert peak == WAKE_CONCURRENCY  # together, but bounded
    # One after the other they would take n rebuilds; together a few rounds
    # (each batch read from the index rounds up once).
    rounds = -(-n // WAKE_CONCURRENCY) + -(-n // WAKE_BATCH)
    assert trio.current_time() - start <= REBUILD_S * rounds < REBUILD_S * n
    assert sleeper.woke == n


@pytest.mark.trio
async def test_a_table_another_process_claimed_is_not_tried_again_before_the_next_poll(autojump_clock: Any) -> None:
    index = Index({"mine": 1.0, "theirs": 1.0})
    tries: dict[str, int] = {"mine": 0, "theirs": 0}

    async def wake(table_id: str) -> Any:
        tries[table_id] += 1
        await trio.sleep(0.1)
        if table_id == "theirs":
            return None  # claimed elsewhere: still in this store's index
        del index.wake_at[table_id]
        return object()

    sleeper = Sleeper(Lobby(index), wake=wake)  # type: ignore[arg-type]
    await trio.sleep(2.0)
    assert await sleeper.wake_due() == 1
    assert tries == {"mine": 1, "theirs": 1}
    assert await sleeper.wake_due() == 0
    assert tries == {"mine": 1, "theirs": 1}


@pytest.mark.trio
@pytest.mark.parametrize("horizon", [600.0, 4.0])
async def test_a_table_is_woken_a_lead_before_its_time_never_more_than_half_the_horizon(
        autojump_clock: Any, horizon: float) -> None:
    lead = min(WAKE_LEAD_S, horizon / 2)
    index = Index({"t": 1000.0})
    woke_at: list[float] = []

    async def wake(table_id: str) -> Any:
        woke_at.append(trio.current_time())
        del index.wake_at[table_id]
        return object()

    sleeper = Sleeper(Lobby(index), horizon_s=horizon, wake=wake)  # type: ignore[arg-type]
    await trio.sleep(1000.0 - lead - 0.5)
    assert await sleeper.wake_due() == 0  # not yet
    async with trio.open_nursery() as nursery:
        await nursery.start(sleeper.run)
        while not woke_at:
            await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert woke_at == [pytest.approx(1000.0 - lead, abs=0.02)]
    # Woken with more than the horizon to go, it would be put to sleep again.
    assert 1000.0 - woke_at[0] <= horizon / 2


@pytest.mark.trio
async def test_a_sweep_puts_its_tables_to_sleep_together_up_to_a_bound(autojump_clock: Any) -> None:
    lobby = Lobby(Index({}))
    n = SLEEP_CONCURRENCY + 8
    lobby.tables = {f"t{i}": SimpleNamespace(id=f"t{i}") for i in range(n)}
    at_once = [0, 0]  # now, most

    async def sleep(table: Any, horizon_s: float) -> bool:
        at_once[0] += 1
        at_once[1] = max(at_once)
        await trio.sleep(REBUILD_S)  # the index write's commit
        at_once[0] -= 1
        if table.id == "t3":
            raise RuntimeError("the store refused it")
        del lobby.tables[table.id]
        return True

    lobby.sleep = sleep  # type: ignore[attr-defined]
    sleeper = Sleeper(lobby, horizon_s=600.0)  # type: ignore[arg-type]
    sleeper.may_sleep = lambda table: 1.0  # type: ignore[method-assign]
    began = trio.current_time()
    assert await sleeper.sweep() == n - 1  # one refused: the others slept all the same
    assert at_once[1] == SLEEP_CONCURRENCY
    assert trio.current_time() - began == pytest.approx(2 * REBUILD_S)
    assert list(lobby.tables) == ["t3"]
