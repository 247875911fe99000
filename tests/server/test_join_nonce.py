"""A join that carries a nonce can be retried safely (PROTOCOL.md 3): the
same nonce at the same table gets the same seat and the same token back,
whatever happened since (the game started, the server restarted), and the
retrying connection holds the seat. The actor under MockClock with the
memory store."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Table, TableSettings

from .actor_harness import HUMANS, drain

pytestmark = pytest.mark.trio

NONCES = [f"nonce-of-seat-{i}-0123456789" for i in range(4)]


async def join(table: Table, outbox: Outbox, nonce: str | None, cid: object = "j") -> list[dict]:
    await table.send(outbox, M.Join(id=cid, table=table.id, name=(nonce or "p")[:20], nonce=nonce))  # type: ignore[arg-type]
    await wait_all_tasks_blocked()
    return drain(outbox)


async def test_a_retried_join_gets_the_same_seat_and_token_even_after_the_start_and_a_restart(autojump_clock):
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        port = OrientePort()
        setup = port.configure(4, 3, {}, {})
        table = Table("t1", TableSettings(game="oriente", seats=4, seed=3, timers=HUMANS, options=setup.options),
                      port, setup, store)
        await table.create()
        nursery.start_soon(table.run)
        first = (await join(table, Outbox(100), NONCES[0]))[0]
        assert (first["t"], first["seat"]) == ("ok", 0) and "duplicate" not in first
        # The reply was lost: the client joins again on a new connection.
        again = Outbox(100)
        frames = await join(table, again, NONCES[0], cid="j2")
        assert [f["t"] for f in frames] == ["ok", "snapshot"]
        assert (frames[0]["seat"], frames[0]["token"], frames[0]["duplicate"]) == (0, first["token"], True)
        assert table.viewers.subscribers[again] == 0 and table.seats[0].connections == 2
        assert sum(s is not None for s in table.seats) == 1, "no second seat was taken"
        # The last join fills the table and starts the game; its reply is lost too.
        for i in (1, 2, 3):
            await join(table, Outbox(100), NONCES[i])
        assert table.status == "running"
        late = Outbox(100)
        frames = await join(table, late, NONCES[3])
        assert frames[0]["seat"] == 3 and frames[0]["duplicate"] and frames[1]["view"] is not None
        await table.send(late, M.Act(id="a", table="t1", cmd={"type": "Pass", "decision": 999}))
        await wait_all_tasks_blocked()
        assert drain(late)[-1]["code"] == "decision/unknown", "the retrying connection holds the seat"
        # Another nonce is an ordinary join: the table has started.
        assert (await join(table, Outbox(100), "another-nonce-0123456789"))[0]["code"] == "table/started"
        assert (await join(table, Outbox(100), "short"))[0]["code"] == "message/invalid"
        # After a restart the same nonce still finds its seat.
        records = store.logs["t1"]
        meta = (await store.table("t1")).meta
        restored = Table.restore("t1", meta, list(records), None, port, store, paused_ms=0)
        nursery.start_soon(restored.run)
        frames = await join(restored, Outbox(100), NONCES[2])
        assert (frames[0]["seat"], frames[0]["duplicate"]) == (2, True)
        nursery.cancel_scope.cancel()
