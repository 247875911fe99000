"""Where password hashes wait for a thread: at most `threads` run at once,
so that a flood of sign-ins cannot take every core, and they take turns by
how much their client is trusted (docs/accounts.md, "Failed sign-ins").

Three lanes, served in order: 0, a try from an address the account
signed in from lately (its owner, most likely); 1, from an address without
recent failed sign-ins; 2, from an address that failed lately. A hash
waits only behind those of its own lane and the ones before it, and no
more than `max_waiting` wait in one lane: past that the caller is told to
come back (`full`, `retry_after`) instead of joining a queue it would wait
in for seconds. `reserved` threads (one by default) run lane 0 only, so
that however many strangers' hashes wait, an owner's starts at once.

The back-off and budgets of server/sign_in_guard.py keep most guesses out
of here altogether; this queue is what stands between honest sign-ins and
whatever still comes in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Final, TypeVar

import trio

__all__ = ["CLEAN", "FAMILIAR", "SUSPECT", "HashQueue"]

T = TypeVar("T")

FAMILIAR: Final = 0
CLEAN: Final = 1
SUSPECT: Final = 2


class HashQueue:
    """`inline`: run the hash on trio's thread (runs under a mock clock,
    which cannot see a worker thread)."""

    def __init__(self, threads: int = 2, *, max_waiting: int = 32, reserved: int = 1, inline: bool = False) -> None:
        if not 0 <= reserved < threads:
            raise ValueError("some threads must be left for the hashes of lanes 1 and 2")
        self.threads = threads
        self.max_waiting = max_waiting
        self.reserved = reserved
        self.inline = inline
        self._free = threads
        self._others = 0  # hashes of lanes 1 and 2 running
        self._lanes: tuple[deque[trio.Event], ...] = (deque(), deque(), deque())
        self._mean_s = 0.05  # a running mean of one hash's time, for retry_after

    def waiting(self, priority: int) -> int:
        return len(self._lanes[priority])

    def full(self, priority: int) -> bool:
        """True when a hash of this lane would wait behind `max_waiting` others of it."""
        return self.waiting(priority) >= self.max_waiting

    def retry_after(self, priority: int) -> float:
        """About how long the hashes ahead of this lane's next one take, in seconds."""
        ahead = sum(len(lane) for lane in self._lanes[: priority + 1])
        threads = self.threads if priority == FAMILIAR else self.threads - self.reserved
        return max(1.0, round(ahead * self._mean_s / threads + 0.5))

    async def run(self, fn: Callable[[], T], *, priority: int) -> T:
        """Run `fn` (a hash) when a thread is free and its turn has come."""
        await self._acquire(priority)
        started = trio.current_time()
        try:
            if self.inline:
                return fn()
            return await trio.to_thread.run_sync(fn)
        finally:
            self._mean_s = 0.8 * self._mean_s + 0.2 * max(0.0, trio.current_time() - started)
            self._release(priority)

    def _may_start(self, priority: int) -> bool:
        if self._free == 0:
            return False
        return priority == FAMILIAR or self._others < self.threads - self.reserved

    def _take(self, priority: int) -> None:
        self._free -= 1
        if priority != FAMILIAR:
            self._others += 1

    async def _acquire(self, priority: int) -> None:
        if self._may_start(priority) and not any(self._lanes[: priority + 1]):
            self._take(priority)
            return
        turn = trio.Event()
        lane = self._lanes[priority]
        lane.append(turn)
        try:
            await turn.wait()  # `_hand_on` took the thread for us before setting it
        except BaseException:
            if turn.is_set():  # the thread was handed over just as we were cancelled: pass it on
                self._release(priority)
            else:
                lane.remove(turn)
            raise

    def _release(self, priority: int) -> None:
        self._free += 1
        if priority != FAMILIAR:
            self._others -= 1
        self._hand_on()

    def _hand_on(self) -> None:
        """Give the free threads to the waiting hashes, lane 0 first."""
        for priority, lane in enumerate(self._lanes):
            while lane and self._may_start(priority):
                self._take(priority)
                lane.popleft().set()
