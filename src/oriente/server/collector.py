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
up to 7 ms of CPU per collection. Collected every 20 ms instead, each walked
4,000-5,000 objects, up to 2-3 ms, some 5 % of the server's CPU at full
speed, and freed nothing: 0 objects in 1,100 young collections of a bench
run (bench/server.py, throughput and paced phases). Play makes no cyclic
garbage while it plays; what reference counting does not free is made when
connections close and tables end, and it is old by then.

The server takes these decisions itself instead (`GcPolicy`):

- what exists after start-up (modules, classes, the rules' tables) is frozen
  (`gc.freeze`) and never walked again;
- every `young_s` seconds (20 ms) `GcPolicy.run` freezes what was made
  since (a *young freeze*): `gc.freeze` splices the young list onto the
  frozen one without walking it, so it costs nothing however much was
  made, and generation 0's count starts again from zero. What is frozen is
  still freed by reference counting as before; only a cycle among frozen
  objects waits for a deep collection (below). The automatic generation-0
  threshold (`young` allocations) stays as a backstop for a burst of more
  than that within 20 ms;
- generation 1 is never collected on its own: a young freeze leaves it
  empty;
- the automatic full collection is switched off, and `GcPolicy.run` does it
  when it is due (`due_after` young freezes since the last full one, about
  five minutes), preferably when the process is quiet: every task blocked
  for `quiet_s` seconds of real time, no frame to send, no message waiting;
- a collection at a quiet moment is a *deep* one: unfreeze everything,
  collect, freeze again. It finds every cycle, the frozen ones included: at
  fifty tables at full speed it walked 52,800 objects in 46 ms, a pause
  nobody waits on when the process is quiet;
- a server never quiet for 5 ms gets its due collection anyway after
  `max_wait_s`, as a pause of every table: a *shallow* one, over what was
  made since the last young freeze (next to nothing), unless the frozen
  heap has grown by `deep_growth` (half) since the last deep collection,
  when it is deep. Cyclic garbage among frozen objects can thus never grow
  past half of what the last deep collection left, the same kind of bound
  CPython's own rule keeps (a quarter). On a site of steady size a deep
  collection never comes without a quiet moment.

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
# containers): a backstop for bursts; the young freezes every `young_s`
# start its count again.
YOUNG = 10_000
# Generations 1 and 2's automatic thresholds: never reached (a C int).
NEVER = 2**31 - 1
MIDDLE = NEVER
# Seconds between two young freezes.
YOUNG_S = 0.02
# A full collection is due after this many young freezes (about five
# minutes at one every YOUNG_S).
DUE_AFTER = 15_000
CHECK_S = 1.0
QUIET_S = 0.005
MAX_WAIT_S = 60.0
# A full collection that finds no quiet moment is a deep one only once the
# frozen heap has grown by this share since the last deep collection.
DEEP_GROWTH = 0.5


def _freeze_young() -> None:
    """What was made since the last young freeze joins the frozen heap,
    unwalked (see the module docstring)."""
    gc.freeze()


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
    docstring). `collect`, `collect_shallow`, `collect_young` and `frozen`
    are CPython's by default, `pending` the young freezes since the last
    full collection; a test gives its own to see when the policy would
    collect."""

    young: int = YOUNG
    middle: int = MIDDLE
    young_s: float = YOUNG_S
    due_after: int = DUE_AFTER
    check_s: float = CHECK_S
    quiet_s: float = QUIET_S
    max_wait_s: float = MAX_WAIT_S
    deep_growth: float = DEEP_GROWTH
    pending: Callable[[], int] | None = None
    collect: Callable[[], None] = _collect_deep
    collect_shallow: Callable[[], None] = _collect_shallow
    collect_young: Callable[[], None] = _freeze_young
    frozen: Callable[[], int] = gc.get_freeze_count
    # How many full collections ran, how many of them found no quiet moment,
    # and how many of those were deep.
    full: int = field(default=0, init=False)
    forced: int = field(default=0, init=False)
    forced_deep: int = field(default=0, init=False)
    # The frozen heap's size after the last deep collection (or start-up).
    frozen_after_deep: int = field(default=0, init=False)
    # Young freezes since the last full collection (`pending` by default).
    young_since_full: int = field(default=0, init=False)
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
            self.young_since_full += 1

    def _pending(self) -> int:
        return self.pending() if self.pending is not None else self.young_since_full

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
            if self._pending() < self.due_after:
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
            self.young_since_full = 0
            if not quiet:
                self.forced += 1
                self.forced_deep += deep
