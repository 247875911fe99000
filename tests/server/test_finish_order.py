"""A finishing table stores its end before it tells anyone (docs/table.md
T4.3): the last events, the record and the status `finished` are written,
then the frame with TableFinished goes out.

Measured before: the frame went out first, and the record and status
followed; a client (the crash-recovery test on PostgreSQL, under load)
that saw the end and then stopped the server found the table `running`
in the store. Here the store looks into every seat's outbox at the moment
it is asked to write the record and the status."""

from __future__ import annotations

from typing import Any

import pytest
import trio

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.games.oriente import OrientePort
from oriente.server.lobby import Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore

from .actor_harness import drain, events_of
from .test_ended_tables import BOTS, DEAL

pytestmark = pytest.mark.trio


class WatchingStore(MemoryStore):
    """The memory store, noting what the seats had been sent when the end was written."""

    def __init__(self) -> None:
        super().__init__()
        self.outboxes: list[Outbox] = []
        self.received: list[dict[str, Any]] = []
        self.told_before: dict[str, bool] = {}

    def _told(self) -> bool:
        for outbox in self.outboxes:
            self.received += drain(outbox)
        return any(e["type"] == "TableFinished" for e in events_of(self.received))

    async def save_record(self, table_id: str, body: bytes) -> None:
        self.told_before["record"] = self._told()
        await super().save_record(table_id, body)

    async def update_table(self, table_id: str, **kw: Any) -> None:
        if kw.get("status") == "finished":
            self.told_before["status"] = self._told()
        await super().update_table(table_id, **kw)


async def test_the_end_is_stored_before_anyone_is_told(autojump_clock, nursery) -> None:
    store = WatchingStore()
    await nursery.start(store.run)
    lobby = Lobby({"oriente": OrientePort()}, store, nursery)
    settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS, options={"deal": DEAL}))
    table = await lobby.create(settings, setup)
    store.outboxes = [Outbox(1000) for _ in range(4)]
    for i, outbox in enumerate(store.outboxes):
        await table.send(outbox, M.Join(id=i, table=table.id, name=f"p{i}"))
    await trio.sleep(10)  # four 2-second prompts time out; the deal ends the game (test_ended_tables.DEAL)
    assert table.status == "finished"
    assert store.told_before == {"record": False, "status": False}
    row = await store.table(table.id)
    assert row is not None and row.status == "finished"
    store._told()  # and then every seat was told
    assert any(e["type"] == "TableFinished" for e in events_of(store.received))


class AskingStore(MemoryStore):
    """The memory store, asking the lobby for the table's record while the
    final step is being written."""

    def __init__(self) -> None:
        super().__init__()
        self.lobby: Lobby | None = None
        self.asked: list[Any] = []

    async def append(self, table_id: str, records: Any, **kw: Any) -> Any:
        if self.lobby is not None and any(
                r.kind == "event" and decode_any(r.body).get("type") == "TableFinished" for r in records):
            self.asked.append(await self.lobby.record(table_id))
        return await super().append(table_id, records, **kw)


async def test_no_record_is_served_while_the_end_is_being_written(autojump_clock, nursery) -> None:
    """Measured before: the table said `finished` before its last step was
    stored, so a `record` asked meanwhile (a loaded machine made the window
    wide enough) came without the last command and without TableFinished,
    while the replay built a moment later had them."""
    store = AskingStore()
    await nursery.start(store.run)
    lobby = Lobby({"oriente": OrientePort()}, store, nursery)
    store.lobby = lobby
    settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS, options={"deal": DEAL}))
    table = await lobby.create(settings, setup)
    outboxes = [Outbox(1000) for _ in range(4)]
    for i, outbox in enumerate(outboxes):
        await table.send(outbox, M.Join(id=i, table=table.id, name=f"p{i}"))
    await trio.sleep(10)
    assert table.status == "finished" and store.asked == [None]
    record = await lobby.record(table.id)
    assert record is not None and record["result"] is not None
    assert record["events"][-1]["type"] == "GameEnded"
