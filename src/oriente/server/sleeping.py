"""Turn-based tables that sleep (docs/table.md T8.5-T8.7).

A turn-based table waits days for its players, most of them away. While
nobody follows it and nothing falls due soon, holding it in memory buys
nothing: its log is the truth, and a restart rebuilds a table from its log
anyway (T4.2). So the `Sleeper` puts such a table to sleep — it stops its
actor, drops it from memory and writes its next wake-up time (its deadline,
or for an open table its abandonment, T8.4) into the store's index — and
wakes it, rebuilt from its log and checked against the recorded events,
when that time comes. A message for a sleeping table wakes it too: the
lobby's `find` (or, on a many-process site, the process that claims it)
does that.

On a many-process site a sleeping table belongs to no process (the store
names no owner for it), and a wake-up is a claim under the leases: the
process whose claim raises the epoch wins, the others find it owned.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import trio

from .table import turns

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("oriente.sleeping")

__all__ = ["MAX_TURN_TABLES", "SLEEP_CONCURRENCY", "SLEEP_HORIZON_S", "WAKE_BATCH", "WAKE_CONCURRENCY", "WAKE_LEAD_S",
           "Sleeper"]

SLEEP_HORIZON_S = 600.0  # a table with a deadline nearer than this stays awake (T8.5)
SLEEP_CHECK_S = 30.0  # how often the tables in memory are looked over (or each horizon, if shorter)
WAKE_POLL_S = 30.0  # how often the index is read again, beyond the earliest wake-up this process knows
WAKE_BATCH = 100  # wake-ups read from the index at once
# Due tables woken at once. Tables fall due together (a burst of deadlines,
# or every table after a restart): woken one after the other, the last waits
# for every rebuild before it; woken together, their index deletes share
# one commit and their store reads queue back to back on the read connection.
WAKE_CONCURRENCY = 32
# Tables put to sleep at once by a sweep. Each sleep ends with a write to
# the index; one after the other, a sweep of a few hundred tables (a busy
# site's tables left since the last sweep) made as many batches of one,
# each a turn on the store's connection that every wake's read queued
# behind; together, their writes share a few commits.
SLEEP_CONCURRENCY = 32
# How long before its wake-up time a table is woken (at most half the
# horizon, so that a woken table is not due to sleep again). A deadline is
# applied by the table's own timer, on the wall clock: woken this much
# early, the table is in memory with its timer set when the deadline comes,
# and the rebuild's time (a read, a replay, a commit; longer when many fall
# due together) does not make the deadline late.
WAKE_LEAD_S = 5.0
MAX_TURN_TABLES = 100_000  # turn-based tables a site holds unfinished, asleep or awake (T8.6)


class Sleeper:
    """Puts the lobby's idle turn-based tables to sleep and wakes them when
    due. `wake`: how a due table is woken (the lobby's own, or on a
    many-process site the node's claim); it returns the table or None."""

    def __init__(self, lobby: Lobby, *, horizon_s: float = SLEEP_HORIZON_S, check_s: float = SLEEP_CHECK_S,
                 poll_s: float = WAKE_POLL_S, wake: Callable[[str], Awaitable[Any]] | None = None) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.horizon_s = horizon_s
        self.check_s = min(check_s, horizon_s)
        self.lead_s = min(WAKE_LEAD_S, horizon_s / 2)
        self.asleep = 0  # tables asleep, as the index said last
        self.poll_s = poll_s
        self.wake = wake if wake is not None else lobby.wake
        self.slept = 0  # tables this process put to sleep
        self.woke = 0  # tables it woke when due
        self._nudge = trio.Event()
        self._refused: set[str] = set()  # due tables this process could not wake (another process's rules)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._sleep_loop)
            nursery.start_soon(self._wake_loop)
            task_status.started()

    def may_sleep(self, table: Any) -> float | None:
        """The wall time a table may sleep until, or None if it stays awake:
        a turn-based table, open or running, nobody following it, its store
        taking writes, nothing due within the horizon."""
        if not table.settings.timers.turn_based or table.status not in ("open", "running") or table.durable.paused:
            return None
        if table.viewers.subscribers or table.id in self.lobby.withheld:
            return None
        wake_at = turns.wake_at(table)
        if wake_at is None or wake_at - self.lobby.wall() <= self.horizon_s:
            return None
        return wake_at

    async def sweep(self) -> int:
        """Put every table that may sleep to sleep, up to SLEEP_CONCURRENCY
        at once; how many slept."""
        count = 0
        limiter = trio.CapacityLimiter(SLEEP_CONCURRENCY)

        async def one(table: Any) -> None:
            nonlocal count
            async with limiter:
                try:
                    if self.may_sleep(table) is not None and await self.lobby.sleep(table, self.horizon_s):
                        count += 1
                except Exception:  # not its siblings' business: they sleep, or stay awake, as they would
                    log.warning("table %s: could not be put to sleep", table.id, exc_info=True)

        async with trio.open_nursery() as nursery:
            for table in list(self.lobby.tables.values()):
                if self.may_sleep(table) is not None:
                    nursery.start_soon(one, table)
        if count:
            self.slept += count
            self._nudge.set()
        return count

    async def _sleep_loop(self) -> None:
        while True:
            await trio.sleep(self.check_s)
            await self.sweep()

    async def wake_due(self) -> int:
        """Wake every table whose time has come (or comes within the lead),
        up to WAKE_CONCURRENCY at once; how many woke here."""
        count = 0
        limiter = trio.CapacityLimiter(WAKE_CONCURRENCY)

        async def one(table_id: str) -> None:
            nonlocal count
            async with limiter:
                table = await self.wake(table_id)
            if table is None:
                # Another process claimed it first, or it is not ours to
                # wake (rules this process does not replay): not again
                # before the next poll.
                self._refused.add(table_id)
            else:
                count += 1
                self.woke += 1

        while True:
            now = self.lobby.wall() + self.lead_s
            due = [t for t in await self.store.due(now, WAKE_BATCH + len(self._refused))
                   if t not in self._refused][:WAKE_BATCH]
            if not due:
                return count
            async with trio.open_nursery() as nursery:
                for table_id in due:
                    nursery.start_soon(one, table_id)

    async def _wake_loop(self) -> None:
        while True:
            try:
                await self.wake_due()
                nxt = await self.store.next_wake()
                self.asleep = await self.store.sleeping()
            except Exception:  # a store that went away: try again later, the tables keep their deadlines
                log.warning("sleeping tables: cannot read the index of wake-ups; trying again", exc_info=True)
                nxt = None
            delay = self.poll_s if nxt is None else max(0.0, min(self.poll_s, nxt - self.lead_s - self.lobby.wall()))
            with trio.move_on_after(delay) as waited:
                await self._nudge.wait()
            if waited.cancelled_caught:
                self._refused.clear()
            self._nudge = trio.Event()

    def metrics(self) -> list[str]:
        """For /metrics: tables asleep, sleeps and due wake-ups here, and how
        late turn-based deadlines applied (their wall-clock time to their
        silence applied, over the last 100,000)."""
        late = sorted(self.lobby.late)
        lines = ["# TYPE oriente_tables_sleeping gauge", f"oriente_tables_sleeping {self.asleep}",
                 "# TYPE oriente_turn_sleeps_total counter", f"oriente_turn_sleeps_total {self.slept}",
                 "# TYPE oriente_turn_wakes_total counter", f"oriente_turn_wakes_total {self.woke}",
                 "# TYPE oriente_turn_deadline_late_seconds summary"]
        for q in (0.5, 0.99):
            value = late[min(len(late) - 1, int(q * len(late)))] if late else 0.0
            lines.append(f'oriente_turn_deadline_late_seconds{{quantile="{q}"}} {value:.6f}')
        lines.append(f"oriente_turn_deadline_late_seconds_count {len(late)}")
        return lines
