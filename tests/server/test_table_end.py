"""TableFinished is the last event of a game (PROTOCOL.md 9), and a table's
record is the same in memory and in the store.

Measured before the fix: 297 `SeatPresence` events after `TableFinished` in
one run, as players left ended tables; the record served from memory held
them, the one saved at the end did not. The lobby under MockClock with the
memory store."""

from __future__ import annotations

import pytest
import trio

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.games.oriente import OrientePort
from oriente.server.lobby import Lobby
from oriente.server.stores import MemoryStore
from oriente.server.table import Disconnected, Table

from .test_ended_tables import ended_table

pytestmark = pytest.mark.trio


async def test_leaving_an_ended_table_logs_nothing_and_the_record_is_the_stored_one(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby({"oriente": OrientePort()}, store, nursery, linger_s=600)
        table, seats = await ended_table(lobby)
        assert table.status == "finished"
        finished_at = next(e["seq"] for e in table.events if e["type"] == "TableFinished")
        await table.send(seats[0], M.Chat(id=1, table=table.id, text="good game"))
        for outbox in seats:
            await table.send(None, Disconnected(outbox))
        await trio.sleep(1)
        now = await lobby.find(table.id)  # the chat brought it back from the store
        assert now is not None and now is not table
        after = [e["type"] for e in now.events if e["seq"] > finished_at]
        assert "SeatPresence" not in after, after
        assert after == ["Chat"], "chat may follow the end (PROTOCOL.md 9)"
        assert not any(s["connected"] for s in now.info()["seats"]), "the information still says who is there"
        stored = await store.record(table.id)
        assert stored is not None
        assert table.record() == decode_any(stored) == now.record()
        assert now.record()["table_events"][-1]["type"] == "TableFinished"
        # Brought back from its log, the record is still that one.
        row = await store.table(table.id)
        assert row is not None
        again = Table.restore(table.id, row.meta, await store.log(table.id), None, OrientePort(), store,
                              paused_ms=0)
        assert again.record() == decode_any(stored)
        nursery.cancel_scope.cancel()
