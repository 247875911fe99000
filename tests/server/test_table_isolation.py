"""One table's bug ends that table alone (the actor under MockClock, two
tables in one lobby). Over real sockets: tests/e2e/test_table_isolation.py."""

from __future__ import annotations

import logging

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.games.oriente import OrientePort
from oriente.server.lobby import Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import FAILED_MESSAGE, Table

from .actor_harness import Harness, drain, events_of
from .broken_port import BrokenPort

pytestmark = pytest.mark.trio

HUMANS = M.Timers(prompt_ms=10_000, window_ms=0, bank_ms=0, bank_refill_ms=0, zero_wait=False, away_after=5)


async def seated(lobby: Lobby, store: MemoryStore, game: str) -> Harness:
    settings, setup = lobby.settings_from(M.CreateTable(seats=4, game=game, seed=11, timers=HUMANS))
    table = await lobby.create(settings, setup)
    clients = []
    for i in range(4):
        outbox = Outbox(1000)
        await table.send(outbox, M.Join(id=f"j{i}", table=table.id, name=f"p{i}"))
        clients.append(outbox)
    await wait_all_tasks_blocked()
    h = Harness(table, clients, store, owns_store=False)
    h.drain_all()
    return h


@pytest.mark.parametrize("method", ["apply", "prompts", "timeout_command"])
async def test_table_isolation_a_bug_in_one_game_ends_that_table_alone(method, autojump_clock, caplog):
    """The failing table: logged with its traceback, marked failed in the
    store with its record saved, a TableFailed event to its viewers, then
    still answering them (snapshot, table/failed to commands). The other
    table of the same lobby plays on to the end, its deadlines included."""
    store = MemoryStore()
    async with trio.open_nursery() as outer:
        await outer.start(store.run)
        async with trio.open_nursery() as nursery:
            lobby = Lobby({"oriente": OrientePort(), "broken": BrokenPort("broken", method, 3)}, store, nursery)
            good = await seated(lobby, store, "oriente")
            bad = await seated(lobby, store, "broken")
            bad.port = OrientePort()  # the test's questions do not count as the broken port's calls
            watcher = Outbox(1000)
            await bad.table.send(watcher, M.Spectate(id="w", table=bad.table.id))
            await wait_all_tasks_blocked()
            for _ in range(50):
                if bad.table.status == "failed":
                    break
                if method == "timeout_command":  # the broken table's clock: silence after silence
                    await trio.sleep(bad.table.play.clock.deadline.at - trio.current_time() + 0.001)
                else:
                    await bad.answer(bad.pivot)
                await good.answer(good.pivot)
            assert bad.table.status == "failed"
            assert store.rows[bad.table.id].status == "failed"
            assert any(r.levelno == logging.ERROR and r.exc_info and bad.table.id in r.getMessage()
                       for r in caplog.records), "the error is logged with its traceback"
            failed = [e for e in events_of(drain(watcher)) if e["type"] == "TableFailed"]
            assert failed == [{"type": "TableFailed", "message": FAILED_MESSAGE, "seq": bad.table.seq}]
            record = decode_any(store.records[bad.table.id])
            assert (record["status"], record["game"], record["result"]) == ("failed", "broken", None)
            assert record["table_events"][-1]["type"] == "TableFailed"
            assert await lobby.record(bad.table.id) == record
            # The failed table still answers its viewers (the sender of the
            # command that failed had its answer: table/failed).
            bad.drain_all()
            await bad.act(0, {"type": "Pass", "decision": 1})
            assert [f["code"] for f in drain(bad.clients[0]) if f["t"] == "error"] == ["table/failed"]
            await bad.table.send(watcher, M.Spectate(id="again", table=bad.table.id, after=0))
            await wait_all_tasks_blocked()
            frames = drain(watcher)
            snapshot = next(f for f in frames if f["t"] == "snapshot")
            assert snapshot["table_info"]["status"] == "failed" and snapshot["view"] is None
            assert events_of(frames)[-1]["type"] == "TableFailed"
            # The other table goes on, by commands and by its clock.
            for _ in range(5_000):
                if good.table.status == "finished":
                    break
                if good.pivot % 2:
                    await trio.sleep(good.table.play.clock.deadline.at - trio.current_time() + 0.001)
                else:
                    await good.answer(good.pivot)
            assert good.table.status == "finished" and store.rows[good.table.id].status == "finished"
            # After lingering, the failed table leaves memory; its record stays.
            await trio.sleep(lobby.linger_s + 1)
            assert lobby.get(bad.table.id) is None
            assert await lobby.record(bad.table.id) == record
            nursery.cancel_scope.cancel()
        await store.aclose()


async def test_table_isolation_a_failed_table_is_not_recovered(autojump_clock):
    """Recovery rebuilds open and running tables: a failed one stays failed,
    and a log that says TableFailed restores as failed whatever the row says."""
    store = MemoryStore()
    async with trio.open_nursery() as outer:
        await outer.start(store.run)
        async with trio.open_nursery() as nursery:
            lobby = Lobby({"broken": BrokenPort("broken", "apply", 0)}, store, nursery)
            bad = await seated(lobby, store, "broken")
            bad.port = OrientePort()
            await bad.answer(bad.pivot)
            assert bad.table.status == "failed"
            nursery.cancel_scope.cancel()
        async with trio.open_nursery() as nursery:
            again = Lobby({"broken": BrokenPort("broken", "apply", 0)}, store, nursery)
            assert await again.recover() == 0
            nursery.cancel_scope.cancel()
        await store.aclose()
    restored = Table.restore(bad.table.id, store.rows[bad.table.id].meta, store.logs[bad.table.id], None,
                             OrientePort(), store, paused_ms=0)
    assert restored.status == "failed" and restored.ended.is_set()
