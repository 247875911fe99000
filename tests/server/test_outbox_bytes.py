"""A connection's outbox is capped in bytes, not only frames (PROTOCOL.md 12)."""

from __future__ import annotations

from oriente.server.outbox import Outbox


def test_an_outbox_counts_bytes() -> None:
    outbox = Outbox(512, max_bytes=10_000)
    for _ in range(9):
        assert outbox.put(b"x" * 1000)
    assert outbox.queued_bytes == 9000
    assert not outbox.put(b"x" * 2000)
    assert outbox.evicted == "client/too_slow"
    alone = Outbox(512, max_bytes=10_000)
    assert alone.put(b"x" * 50_000), "one frame larger than the cap still goes when the queue is empty"
