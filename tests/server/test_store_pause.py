"""A store that refuses writes pauses the table, never the server
(docs/table.md T4.4).

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
from oriente.server.stores.sqlite import CACHE_KIB, _connect
from oriente.server.table import Begin, Reserve, Stop, Table, TableSettings, token_hash

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
        assert h.table.statistics().paused and h.table.status == "running"
        assert _replies(h.clients[pivot]) == [], "nothing of the step is sent before it is stored"
        other = (pivot + 1) % 4
        await h.act(other, {"type": "Pass", "decision": 999})
        refused = _replies(h.clients[other])[-1]
        assert refused["code"] == "store/unavailable" and "resumes by itself" in refused["message"]
        await trio.sleep(30)  # retries with backoff, a deadline passes meanwhile
        assert store.refused >= 4 and h.table.statistics().paused
        store.full = False
        await trio.sleep(11)  # the next retry (at most 10 s after the last one) is taken
        await wait_all_tasks_blocked()
        assert not h.table.statistics().paused and h.table.status == "running"
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


@pytest.mark.trio
async def test_t4_4_a_refused_write_while_seating_a_tournament_table_pauses_it_and_loses_no_seat(
        autojump_clock) -> None:
    """A tournament's table is seated by the server (`Reserve`, then
    `Begin`), not by requests: a refused write while it reserves a seat
    pauses the table as any refused write does, and the server's messages
    that arrive meanwhile wait for the store instead of being dropped (no
    client would ever send them again). Before, the reservation's write
    went around the pause, so a full disk failed the table, and a second
    reservation arriving during a pause was lost."""
    store = FullStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        port = OrientePort()
        setup = port.configure(4, 7, dict(port.new_table_options), {})
        settings = TableSettings(game=port.name, seats=4, seed=7, options=setup.options, auto_start=False)
        table = Table("tt", settings, port, setup, store, wall=lambda: 1_000_000.0 + trio.current_time())
        await table.create()
        nursery.start_soon(table.run)
        store.full = True
        for seat in range(4):
            await table.send(None, Reserve(seat=seat, name=f"entrant {seat}", token_hash=token_hash(f"t{seat}")))
        await table.send(None, Begin(proxied=[0, 1, 2, 3]))
        await wait_all_tasks_blocked()
        assert table.status == "open", "a refused write pauses the table; it does not fail it"
        await trio.sleep(30)
        store.full = False
        await trio.sleep(11)
        await wait_all_tasks_blocked()
        assert table.status == "running"
        types = [e["type"] for e in table.events]
        assert types.count("SeatTaken") == 4 and "TableStarted" in types and "TableFailed" not in types
        stored = [r.seq for r in await store.log(table.id) if r.kind == "event"]
        assert stored == list(range(1, table.seq + 1))
        await table.send(None, Stop())
        nursery.cancel_scope.cancel()


def test_sqlite_page_cache_is_bounded_below_the_default(tmp_path: Path) -> None:
    """SQLite's page cache keeps CACHE_KIB, not the 2 MiB it keeps by
    default: that filled up within minutes of play and counted against
    every live table (stores/sqlite.py)."""
    conn = _connect(str(tmp_path / "s.sqlite"))
    try:
        assert conn.execute("PRAGMA cache_size").fetchone()[0] == -CACHE_KIB
        assert CACHE_KIB < 2000
    finally:
        conn.close()
