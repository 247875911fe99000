"""The transport's one watchdog evicts a client whose send has hung past
`send_timeout`, and no other: a send in progress for less, a connection
with nothing to send, and a connection that has gone are left alone.
Under trio's MockClock: the watchdog is timer logic."""

from __future__ import annotations

import pytest
import trio

from oriente.server.metrics import Metrics
from oriente.server.outbox import Outbox
from oriente.server.transport import Limits, Transport

pytestmark = pytest.mark.trio


async def test_the_watchdog_evicts_only_a_send_hung_past_the_timeout(autojump_clock):
    transport = Transport(None, Metrics(), Limits(send_timeout=4.0))  # type: ignore[arg-type]
    hung, recent, idle = Outbox(label="hung"), Outbox(label="recent"), Outbox(label="idle")
    for outbox in (hung, recent, idle):
        transport.track(outbox)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(transport.watchdog)
        hung.sending_since = trio.current_time()
        await trio.sleep(3.5)
        recent.sending_since = trio.current_time()
        assert hung.alive, "evicted before its send had hung for send_timeout"
        await trio.sleep(2.0)  # the check at 5 s: hung 5 s, recent 1.5 s
        assert hung.evicted == "client/too_slow"
        assert recent.alive and idle.alive
        await trio.sleep(10.0)
        assert recent.evicted == "client/too_slow"
        assert idle.alive
        gone = Outbox(label="gone")
        transport.track(gone)
        gone.sending_since = trio.current_time()
        transport.untrack(gone)
        await trio.sleep(10.0)
        assert gone.alive, "a connection that has gone is no longer watched"
        nursery.cancel_scope.cancel()
