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


def test_the_eviction_callback_runs_once_at_the_eviction() -> None:
    """The transport starts a connection's closing task from `on_evict`
    instead of keeping one waiting on every idle connection: it must run
    at the eviction, once, whatever evicts the outbox next."""
    outbox = Outbox(1)
    called: list[str | None] = []
    outbox.on_evict = lambda: called.append(outbox.evicted)
    assert outbox.put(b"x")
    assert called == []
    assert not outbox.put(b"y")  # full: evicted as too slow
    outbox.evict("client/gone")
    assert called == ["client/too_slow"] and outbox.on_evict is None
