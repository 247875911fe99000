"""A store that refuses writes pauses the table, never the server
(docs/table.md T4.4; issue 8, item 7).

Measured before: on a full disk the process exited with every table, and a
store made read-only mid-game killed it with SIGBUS. The store here is the
memory store with its writes refused for a while (a subclass that raises
StoreError from `append` and `update_table` while `full` is set, as SQLite
does on a full disk): the machine's tests run as root, for whom a file
made read-only stays writable, and mounting a small full filesystem needs
privileges a test should not take. The actor under MockClock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.server.games.oriente import OrientePort
from oriente.server.stores import MemoryStore, StoreError
from oriente.server.stores.sqlite import _connect

from .actor_harness import drain, open_table

class FullStore(MemoryStore):
    """The memory store, refusing every append and table update while `full`."""

    def __init__(self) -> None:
        super().__init__()
        self.full = False
        self.refused = 0

    def _check(self) -> None:
        if self.full:
            self.refused += 1
            raise StoreError("database or disk is full")

    async def append(self, table_id: str, records: Any, **kw: Any) -> None:
        self._check()
        await super().append(table_id, records, **kw)

    async def update_table(self, table_id: str, **kw: Any) -> None:
        self._check()
        await super().update_table(table_id, **kw)


def _replies(outbox: Any) -> list[dict]:
    return [f for f in drain(outbox) if f["t"] in ("ok", "error")]


@pytest.mark.trio
async def test_t4_4_a_refused_write_pauses_the_table_which_resumes_when_the_store_takes_it(autojump_clock) -> None:
    store = FullStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await open_table(nursery, OrientePort(), seats=4, store=store)
        pivot = h.pivot
        seq = h.table.seq
        store.full = True
        await h.answer(pivot)  # its step is applied, and waits for the store
        assert h.table.paused and h.table.status == "running"
        assert _replies(h.clients[pivot]) == [], "nothing of the step is sent before it is stored"
        other = (pivot + 1) % 4
        await h.act(other, {"type": "Pass", "decision": 999})
        refused = _replies(h.clients[other])[-1]
        assert refused["code"] == "store/unavailable" and "resumes by itself" in refused["message"]
        await trio.sleep(30)  # retries with backoff, a deadline passes meanwhile
        assert store.refused >= 4 and h.table.paused
        store.full = False
        await trio.sleep(11)  # the next retry (at most 10 s after the last one) is taken
        await wait_all_tasks_blocked()
        assert not h.table.paused and h.table.status == "running"
        assert _replies(h.clients[pivot])[-1]["t"] == "ok"
        assert h.table.seq > seq
        # Every seat kept its connection, and the game goes on.
        assert all(box.alive for box in h.clients)
        assert not any(e["type"] == "TableFailed" for e in h.table.events)
        pivot = h.pivot
        await h.answer(pivot)
        assert _replies(h.clients[pivot])[-1]["t"] == "ok"
        # The log is whole: the stored events are the table's, in order.
        stored = [r.seq for r in await store.log(h.table.id) if r.kind == "event"]
        assert stored == list(range(1, h.table.seq + 1))
        await h.close()
        nursery.cancel_scope.cancel()


def test_t4_4_sqlite_reads_without_mmap(tmp_path: Path) -> None:
    """T4.4: "SQLite is used without memory-mapped reads"."""
    conn = _connect(str(tmp_path / "s.sqlite"))
    try:
        assert conn.execute("PRAGMA mmap_size").fetchone()[0] == 0
    finally:
        conn.close()
