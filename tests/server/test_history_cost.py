"""History replay: five connections spectating from seq 0
of a long log made the table decode, project and encode the whole log once
each, in one step. Full chunks of a spectator's history are built once and
served again as the encoded frames they are; what is built fresh per
request is at most the two partial chunks at its ends. The actor under
MockClock with the memory store."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.outbox import Outbox
from oriente.server.table import HISTORY_CHUNK

from .actor_harness import drain, open_table

pytestmark = pytest.mark.trio


async def test_spectators_history_is_built_once_per_chunk(autojump_clock) -> None:
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        table = h.table
        for i in range(3 * HISTORY_CHUNK):
            await table.send(h.clients[i % 4], M.Chat(id=i, table=table.id, text=f"padding {i}"))
        await wait_all_tasks_blocked()
        h.drain_all()
        seq = table.seq
        replays = []
        for k in range(5):
            watcher = Outbox(1000, max_bytes=1 << 30)
            await table.send(watcher, M.Spectate(id=k, table=table.id, after=0))
            await wait_all_tasks_blocked()
            frames = drain(watcher)
            history = [e["seq"] for f in frames if f["t"] == "events" and f.get("history") for e in f["events"]]
            assert history == list(range(1, seq + 1)), "every event once, in order"
            replays.append([f for f in frames if f["t"] == "events"])
        assert replays[0] == replays[4]
        full = seq // HISTORY_CHUNK
        assert table.viewers.history_built <= full * HISTORY_CHUNK + 5 * (seq - full * HISTORY_CHUNK)
        # A request from an unaligned seq builds only its two partial ends fresh.
        before = table.viewers.history_built
        watcher = Outbox(1000, max_bytes=1 << 30)
        await table.send(watcher, M.Spectate(id="x", table=table.id, after=7))
        await wait_all_tasks_blocked()
        history = [e["seq"] for f in drain(watcher) if f["t"] == "events" and f.get("history") for e in f["events"]]
        assert history == list(range(8, seq + 1))
        assert table.viewers.history_built - before < 2 * HISTORY_CHUNK
        await h.close()
        nursery.cancel_scope.cancel()
