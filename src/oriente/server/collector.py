"""When the cyclic garbage collector runs, so that it does not pause play.

A full (generation 2) collection walks every container object the process
holds: with fifty tables at play and their three hundred connections that is
some 60,000 objects (trio tasks, coroutines, channels, websockets buffers,
table state) and 50-100 ms on a loaded two-core machine, during which no
table moves. CPython starts one whenever the objects promoted to the old
generation reach a quarter of those already there (Python 3.11), that is at
a moment chosen by an allocation, usually in the middle of a table's step.

A young (generation 0) collection walks the objects made since the last
one that are still alive. In this server most of them are the await chains
of the tasks that woke since then: each time a connection's task blocks
again it does so in coroutines made afresh, alive until it wakes. CPython
counts allocations less deallocations, so the old chains freed as the new
ones are made keep the count low while the young list grows: at a
threshold of 10,000, or of 2,000, the young list held 10,000-30,000 objects
(a quarter of them coroutines, the dearest to walk) at 50 tables at play,
up to 7 ms of CPU per collection, and a collection of generation 1 walks
the survivors of many of them at once. A threshold cannot bound that list;
time can.

The server takes these decisions itself instead (`GcPolicy`):

- what exists after start-up (modules, classes, the rules' tables) is frozen
  (`gc.freeze`) and never walked again;
- `GcPolicy.run` collects generation 0 every `young_s` seconds (20 ms),
  so a young collection walks only what the tasks made in that time: at 50
  tables at play some 4,000-5,000 objects, under a millisecond of CPU, 2-3
  ms at most. That costs more in all than rare long collections (the same
  await chain is walked once in 20 ms rather than seldom ever), about 1.5 %
  of a core at that load. The automatic generation-0 threshold (`young`
  allocations) stays as a backstop for a burst between two of these;
- generation 1 is never collected on its own: what survives a young
  collection is an await chain that reference counting frees soon after,
  or state that lives on. Play makes no cyclic garbage that a young or a
  middle collection finds: 0 objects freed by 570 young collections of a
  paced run, and by eleven generation-1 collections, once a second, that
  walked 14,000-62,000 objects for 7-20 ms each;
- the automatic full collection is switched off, and `GcPolicy.run` does it
  when it is due (`due_after` young collections since the last full one),
  preferably when the process is quiet: every task blocked for `quiet_s`
  seconds of real time, no frame to send, no message waiting;
- what survives a full collection is frozen (`gc.freeze`), so the next one
  walks only what was made since and still lives. Play makes no cyclic
  garbage among long-lived objects: a full collection after 60 s of fifty
  tables at full speed freed nothing, nor did one over 50 connections
  opened and closed (a table's parts reach back to it weakly for this
  reason, tests/server/test_table_gc.py). Measured at fifty tables at full
  speed, a collection of everything walked 52,800 objects in 46 ms; one of
  what the last 60 s made walked 24,400 in 13 ms. At a real game's pace
  (an hour or more per game) what five minutes make is a small part of the
  live tables;
- a *deep* collection (unfreeze everything, collect, freeze again) finds
  cycles among frozen objects, if any ever form. It runs at a quiet moment,
  and otherwise only once the frozen heap has grown by `deep_growth` (half)
  since the last deep one: cyclic garbage among frozen objects can never
  grow past half of what the last deep collection left, the same kind of
  bound CPython's own rule keeps (a quarter). A server never quiet for 5 ms gets its due collection anyway
  after `max_wait_s`: a shallow one, over what it made since the last, as a
  pause of every table; on a site of steady size a deep one never comes
  without a quiet moment.

The policy's tasks are trio tasks, so a collection they start always falls
between two steps of the run loop, never inside a table's step.
"""
from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import trio
from trio.testing import wait_all_tasks_blocked

# Automatic threshold of generation 0 (allocations less deallocations of
# containers): a backstop for bursts; `young_s` is what bounds its pauses.
YOUNG = 10_000
# Generations 1 and 2's automatic thresholds: never reached (a C int).
NEVER = 2**31 - 1
MIDDLE = NEVER
# Seconds between two collections of generation 0. A young collection costs
# 0.2-0.4 us per object walked (coroutines are the dearest).
YOUNG_S = 0.02
# A full collection is due after this many collections of generation 0
# (about five minutes at one every YOUNG_S).
DUE_AFTER = 15_000
CHECK_S = 1.0
QUIET_S = 0.005
MAX_WAIT_S = 60.0
# A full collection that finds no quiet moment is a deep one only once the
# frozen heap has grown by this share since the last deep collection.
DEEP_GROWTH = 0.5


def _pending() -> int:
    """Collections of generation 0 since the last full collection (generation
    1 is never collected on its own)."""
    return gc.get_count()[1]


def _collect_young() -> None:
    gc.collect(0)


def _collect_deep() -> None:
    """Every object the process holds, the frozen ones included; what
    survives is frozen again."""
    gc.unfreeze()
    gc.collect(2)
    gc.freeze()


def _collect_shallow() -> None:
    """The old generations without what is frozen: what was made since the
    last full collection and still lives. What survives is frozen."""
    gc.collect(2)
    gc.freeze()


@dataclass
class GcPolicy:
    """The server's schedule for the garbage collector (see the module's
    docstring). `pending` and `collect` are CPython's by default; a test
    gives its own to see when the policy would collect."""

    young: int = YOUNG
    middle: int = MIDDLE
    young_s: float = YOUNG_S
    due_after: int = DUE_AFTER
    check_s: float = CHECK_S
    quiet_s: float = QUIET_S
    max_wait_s: float = MAX_WAIT_S
    deep_growth: float = DEEP_GROWTH
    pending: Callable[[], int] = _pending
    collect: Callable[[], None] = _collect_deep
    collect_shallow: Callable[[], None] = _collect_shallow
    collect_young: Callable[[], None] = _collect_young
    frozen: Callable[[], int] = gc.get_freeze_count
    # How many full collections ran, how many of them found no quiet moment,
    # and how many of those were deep.
    full: int = field(default=0, init=False)
    forced: int = field(default=0, init=False)
    forced_deep: int = field(default=0, init=False)
    # The frozen heap's size after the last deep collection (or start-up).
    frozen_after_deep: int = field(default=0, init=False)
    # How late each young collection's sleep ended (the run loop's lag: a
    # step, a collection or the GIL held elsewhere), and each full
    # collection's time, in seconds, for /metrics.
    lag: deque[float] = field(default_factory=lambda: deque(maxlen=30_000), init=False)
    pauses: deque[float] = field(default_factory=lambda: deque(maxlen=1_000), init=False)

    def install(self) -> None:
        """Collect and freeze what start-up made, and set the thresholds:
        generation 0 automatic only as a backstop, the older ones left to
        `run`."""
        gc.collect()
        gc.freeze()
        self.frozen_after_deep = self.frozen()
        gc.set_threshold(self.young, self.middle, NEVER)

    async def run(self) -> None:
        """Forever: collect generation 0 every `young_s` seconds; once a full
        collection is due, wait for a quiet moment (at most `max_wait_s`),
        then collect: deeply when quiet or when the frozen heap has grown by
        `deep_growth`, otherwise only what was made since the last one."""
        if not self.frozen_after_deep:  # not installed here (a test's own policy)
            self.frozen_after_deep = self.frozen()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._young)
            await self._full()

    async def _young(self) -> None:
        while True:
            asleep = trio.current_time()
            await trio.sleep(self.young_s)
            self.lag.append(trio.current_time() - asleep - self.young_s)
            self.collect_young()

    def metrics(self) -> list[str]:
        """For /metrics: the run loop's lag over the last ten minutes or
        so (its median, 99th percentile and maximum) and the full
        collections' longest pause."""
        lag = sorted(self.lag)
        lines = ["# TYPE oriente_loop_lag_seconds summary"]
        for q in (0.5, 0.99, 1.0):
            value = lag[min(len(lag) - 1, int(q * len(lag)))] if lag else 0.0
            lines.append(f'oriente_loop_lag_seconds{{quantile="{q:g}"}} {value:.6f}')
        lines += ["# TYPE oriente_gc_full_total counter", f"oriente_gc_full_total {self.full}",
                  "# TYPE oriente_gc_full_max_seconds gauge",
                  f"oriente_gc_full_max_seconds {max(self.pauses, default=0.0):.6f}"]
        return lines

    async def _full(self) -> None:
        while True:
            await trio.sleep(self.check_s)
            if self.pending() < self.due_after:
                continue
            quiet = False
            with trio.move_on_after(self.max_wait_s):
                await wait_all_tasks_blocked(self.quiet_s)
                quiet = True
            began = time.perf_counter()
            deep = quiet or self.frozen() > self.frozen_after_deep * (1 + self.deep_growth)
            if deep:
                self.collect()
                self.frozen_after_deep = self.frozen()
            else:
                self.collect_shallow()
            self.pauses.append(time.perf_counter() - began)
            self.full += 1
            if not quiet:
                self.forced += 1
                self.forced_deep += deep
