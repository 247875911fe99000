"""Frames another process of a site forwards to this one (the owner of
their table) are admitted as direct frames are: the same rate and burst on
the remote connection's own bucket, which refills with time, the same
history charge for a resume or spectate, and the same strikes. The process
in front admits them too, but a table's limits do not rest on it (nor on
the bus). The session alone, under MockClock: pings need no table."""

from __future__ import annotations

import pytest
import trio

from oriente.protocol.codec import encode
from oriente.server.limits import Limits
from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.session import Session

from .actor_harness import drain

pytestmark = pytest.mark.trio


async def test_forwarded_frames_are_rate_limited_as_direct_ones(autojump_clock) -> None:
    limits = Limits(rate=10.0, burst=20.0, strikes=1000)
    session = Session(None, Metrics(), limits)  # type: ignore[arg-type]
    outbox = Outbox(10_000, max_bytes=1 << 30)
    conn = session.remote_conn(outbox)
    for i in range(50):  # a burst, as fast as the bus brings them
        await session.forwarded(conn, encode({"t": "ping", "id": i}))
    replies = drain(outbox)
    assert [r["t"] for r in replies].count("ok") == 20
    assert {r["code"] for r in replies if r["t"] == "error"} == {"rate/limited"}
    await trio.sleep(1.0)  # the bucket refills at the rate, as a direct connection's
    for i in range(50, 70):
        await session.forwarded(conn, encode({"t": "ping", "id": i}))
    assert [r["t"] for r in drain(outbox)].count("ok") == 10
    await trio.sleep(60.0)
    for i in range(70, 90):
        await session.forwarded(conn, encode({"t": "ping", "id": i}))
    assert [r["t"] for r in drain(outbox)] == ["ok"] * 20


async def test_a_forwarded_connection_that_keeps_abusing_is_closed(autojump_clock) -> None:
    session = Session(None, Metrics(), Limits(rate=1.0, burst=1.0, strikes=5))  # type: ignore[arg-type]
    outbox = Outbox(10_000, max_bytes=1 << 30)
    conn = session.remote_conn(outbox)
    for i in range(10):
        await session.forwarded(conn, encode({"t": "ping", "id": i}))
    assert outbox.evicted == "abuse/closed"
