"""The queue of password hashes (server/hash_queue.py): no more than its
threads at once, the owner's familiar addresses first, then clean
addresses, then suspect ones, a bounded wait, and a cancelled waiter that neither loses nor leaks a thread. Hashes
here are stand-ins that block in their worker thread until the test lets
them go (real threads: the queue's whole point is the threads)."""

from __future__ import annotations

import threading

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.server.hash_queue import CLEAN, FAMILIAR, SUSPECT, HashQueue

pytestmark = pytest.mark.trio


class Gate:
    """Stand-in hashes: each says (through a channel) that it started, then
    waits in its thread for `go`; `most` is how many ran at once at most."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.send, self.started = trio.open_memory_channel[str](100)
        self.running = self.most = 0
        self._lock = threading.Lock()

    def hash(self, name: str) -> str:
        with self._lock:
            self.running += 1
            self.most = max(self.most, self.running)
        trio.from_thread.run_sync(self.send.send_nowait, name)
        try:
            assert self.go.wait(20), "the test never let the hashes go"
        finally:
            with self._lock:
                self.running -= 1
        return name


async def test_at_most_the_queues_threads_run_at_once() -> None:
    queue, gate = HashQueue(2), Gate()
    async with trio.open_nursery() as nursery:
        for i in range(6):
            nursery.start_soon(lambda i=i: queue.run(lambda: gate.hash(f"h{i}"), priority=i % 3))
        first = {await gate.started.receive(), await gate.started.receive()}
        await wait_all_tasks_blocked()
        assert len(first) == 2 and sum(queue.waiting(p) for p in (FAMILIAR, CLEAN, SUSPECT)) == 4
        gate.go.set()
    assert gate.most == 2


async def test_a_thread_is_kept_for_the_owners_however_many_strangers_wait() -> None:
    queue, gate = HashQueue(2), Gate()  # one of the two reserved for lane 0
    async with trio.open_nursery() as nursery:
        for i in range(3):
            nursery.start_soon(lambda i=i: queue.run(lambda: gate.hash(f"stranger{i}"), priority=CLEAN))
        first = await gate.started.receive()
        await wait_all_tasks_blocked()
        assert queue.waiting(CLEAN) == 2, "a second stranger may not take the owners' thread"
        nursery.start_soon(lambda: queue.run(lambda: gate.hash("owner"), priority=FAMILIAR))
        assert await gate.started.receive() == "owner", "the owner's hash starts at once"
        gate.go.set()
        rest = {await gate.started.receive(), await gate.started.receive()}
    assert {first, *rest} == {"stranger0", "stranger1", "stranger2"} and gate.most == 2
    with pytest.raises(ValueError):
        HashQueue(1, reserved=1)


async def test_familiar_then_clean_then_suspect_and_a_full_lane_is_said_at_once() -> None:
    queue, gate = HashQueue(1, max_waiting=3, reserved=0), Gate()
    done: list[str] = []

    async def one(name: str, priority: int) -> None:
        done.append(await queue.run(lambda: gate.hash(name), priority=priority))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(one, "busy", SUSPECT)
        assert await gate.started.receive() == "busy"
        for name, priority in (("guess1", SUSPECT), ("guess2", SUSPECT), ("newcomer", CLEAN), ("guess3", SUSPECT),
                               ("owner", FAMILIAR), ("newcomer2", CLEAN)):
            nursery.start_soon(one, name, priority)
            await wait_all_tasks_blocked()
        assert [queue.waiting(p) for p in (FAMILIAR, CLEAN, SUSPECT)] == [1, 2, 3]
        assert queue.full(SUSPECT) and not queue.full(CLEAN) and not queue.full(FAMILIAR)
        assert queue.retry_after(SUSPECT) >= queue.retry_after(FAMILIAR) >= 1.0
        gate.go.set()
        order = [await gate.started.receive() for _ in range(6)]
    assert order == ["owner", "newcomer", "newcomer2", "guess1", "guess2", "guess3"], "the owner first, guessers last"
    assert done == ["busy", *order]
    assert [queue.waiting(p) for p in (FAMILIAR, CLEAN, SUSPECT)] == [0, 0, 0]


async def test_a_cancelled_waiter_leaves_the_queue_and_the_threads_intact() -> None:
    queue, gate = HashQueue(1, reserved=0), Gate()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: queue.run(lambda: gate.hash("first"), priority=FAMILIAR))
        assert await gate.started.receive() == "first"
        with trio.CancelScope() as scope:
            async def wait_then_cancel() -> None:
                await wait_all_tasks_blocked()
                scope.cancel()
            nursery.start_soon(wait_then_cancel)
            await queue.run(lambda: gate.hash("cancelled"), priority=SUSPECT)
        assert scope.cancelled_caught and queue.waiting(SUSPECT) == 0
        gate.go.set()
    assert await queue.run(lambda: gate.hash("after"), priority=CLEAN) == "after"
    assert [await gate.started.receive()] == ["after"]
