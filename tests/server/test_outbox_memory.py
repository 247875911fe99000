"""What an idle connection's outbox holds: every open connection has one,
so its empty queue and its eviction signal are paid once per connection
(some KiB a table). The queue is a list (an empty deque is 760 bytes) and
the eviction's event is made only when the evictor waits for it."""

from __future__ import annotations

import tracemalloc

import pytest
import trio
import trio.testing

from oriente.server.outbox import Outbox


def test_an_idle_outbox_holds_a_few_hundred_bytes() -> None:
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        outboxes = [Outbox() for _ in range(1000)]
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    per_outbox = sum(s.size_diff for s in after.compare_to(before, "filename")) / len(outboxes)
    assert per_outbox < 400, f"an idle outbox holds {per_outbox:.0f} bytes"


@pytest.mark.trio
async def test_waiting_for_an_eviction_hears_it_whenever_it_came() -> None:
    early = Outbox()
    early.evict("client/gone")
    assert await early.wait_evicted() == "client/gone"

    late = Outbox()
    heard: list[str] = []

    async def wait() -> None:
        heard.append(await late.wait_evicted())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait)
        await trio.testing.wait_all_tasks_blocked()
        assert heard == []
        late.evict("client/too_slow")
    assert heard == ["client/too_slow"]


def test_the_writer_s_batches_keep_order_and_size() -> None:
    """`take_nowait` hands out the queue in order: the first frame whatever its
    size, then those behind it while the batch is under the byte limit."""
    outbox = Outbox()
    frames = [bytes([i]) * 40 for i in range(10)]
    for frame in frames:
        outbox.put(frame, hold=True)
    assert outbox.take_nowait(100) == frames[:3]
    assert outbox.take_nowait(1) == frames[3:4]
    assert outbox.take_nowait(10_000) == frames[4:]
    assert outbox.take_nowait(100) == [] and outbox.queued_bytes == 0
