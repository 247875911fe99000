"""When the cyclic garbage collector runs, so that it does not pause play.

A full (generation 2) collection walks every container object the process
holds: with fifty tables at play and their three hundred connections that is
some 60,000 objects (trio tasks, coroutines, channels, websockets buffers,
table state) and 50-100 ms on a loaded two-core machine, during which no
table moves. CPython starts one whenever the objects promoted to the old
generation reach a quarter of those already there (Python 3.11), that is at
a moment chosen by an allocation, usually in the middle of a table's step.

The server takes that decision itself instead (`GcPolicy`):

- what exists after start-up (modules, classes, the rules' tables) is frozen
  (`gc.freeze`) and never walked again;
- the young generations are collected automatically, often and cheaply (a
  collection of generation 0 or 1 walks only objects made since the last
  one: at `young` = 10,000 allocations that is about a millisecond);
- the automatic full collection is switched off, and `GcPolicy.run` does it
  when it is due (`due_after` collections of generation 1 since the last
  full one, CPython's own measure of promoted objects) and the process is
  quiet: every task blocked for `quiet_s` seconds of real time, no frame to
  send, no message waiting. A server that is never quiet gets its full
  collection anyway after `max_wait_s`, so cycles cannot pile up for ever.

The policy is a trio task, so a collection it starts always falls between
two steps of the run loop, never inside a table's step.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from dataclasses import dataclass, field

import trio
from trio.testing import wait_all_tasks_blocked

# Threshold of generation 0 (allocations less deallocations of containers)
# and of generation 1 (collections of generation 0). A young collection
# costs about 0.1 us per object made since the last one.
YOUNG = 10_000
MIDDLE = 10
# Generation 2's automatic threshold: never reached (a C int).
NEVER = 2**31 - 1
# A full collection is due after this many collections of generation 1.
DUE_AFTER = 100
CHECK_S = 1.0
QUIET_S = 0.005
MAX_WAIT_S = 60.0


def _pending() -> int:
    """Collections of generation 1 since the last full collection."""
    return gc.get_count()[2]


def _collect_full() -> None:
    gc.collect(2)


@dataclass
class GcPolicy:
    """The server's schedule for the garbage collector (see the module's
    docstring). `pending` and `collect` are CPython's by default; a test
    gives its own to see when the policy would collect."""

    young: int = YOUNG
    middle: int = MIDDLE
    due_after: int = DUE_AFTER
    check_s: float = CHECK_S
    quiet_s: float = QUIET_S
    max_wait_s: float = MAX_WAIT_S
    pending: Callable[[], int] = _pending
    collect: Callable[[], None] = _collect_full
    # How many full collections ran, and how many of them found no quiet moment.
    full: int = field(default=0, init=False)
    forced: int = field(default=0, init=False)

    def install(self) -> None:
        """Collect and freeze what start-up made, and set the thresholds:
        young generations automatic, the old one left to `run`."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(self.young, self.middle, NEVER)

    async def run(self) -> None:
        """Forever: once a full collection is due, wait for a quiet moment
        (at most `max_wait_s`), then collect."""
        while True:
            await trio.sleep(self.check_s)
            if self.pending() < self.due_after:
                continue
            quiet = False
            with trio.move_on_after(self.max_wait_s):
                await wait_all_tasks_blocked(self.quiet_s)
                quiet = True
            self.collect()
            self.full += 1
            if not quiet:
                self.forced += 1
