"""The table actor with Oriente's negotiation windows (docs/rules.md R10),
under trio's MockClock. What the actor does for every game is tested over
Oriente and a toy game in test_toy_game.py."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.server.clock import TimerSettings
from oriente.server.games.oriente import OrientePort

from .actor_harness import Harness, drain, events_of, open_table

pytestmark = pytest.mark.trio


async def drive_to_window(h: Harness) -> None:
    """The stone holder attacks its left neighbour; every privilege round passes."""
    seat = h.pivot
    target = (seat + 1) % h.table.settings.seats
    attack = next(c for c in h.legal(seat) if c["type"] == "Announce"
                  and c["action"]["kind"] == "attack" and c["action"]["target"] == target)
    await h.act(seat, attack)
    while h.table.play.state.phase.value == "privilege":
        await h.answer(h.pivot)


async def test_r10_2b_window_closes_at_its_deadline(autojump_clock):
    """R10.2b: the negotiation window 'closes at its deadline'."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        await drive_to_window(h)
        w = h.waiting
        assert w.pivot is None and w.timer == "window"
        await trio.sleep(4.9)
        assert h.waiting == w
        await trio.sleep(0.2)
        assert h.waiting.pivot is not None, "the support round has begun"
        assert any(e["type"] == "NegotiationClosed" for e in events_of(drain(h.clients[0])))
        await h.close()


async def test_r10_3_zero_wait_tables_close_windows_at_once(autojump_clock):
    """R10.3: 'Bot tables add no waiting of their own'."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4, timers=TimerSettings.bots())
        start = trio.current_time()
        await drive_to_window(h)
        await wait_all_tasks_blocked()
        assert h.waiting is None or h.waiting.pivot is not None
        assert trio.current_time() - start < 0.01
        await h.close()


async def test_an_act_before_the_start_says_what_the_table_waits_for(autojump_clock):
    """table/not_started names the seats still free and how the game starts."""
    from oriente.protocol import messages as M
    from oriente.server.outbox import Outbox
    from oriente.server.stores import MemoryStore
    from oriente.server.table import Table, TableSettings

    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        port = OrientePort()
        setup = port.configure(4, 1, {}, {})
        table = Table("t", TableSettings(game="oriente", seats=4, options=setup.options), port, setup, store)
        await table.create()
        nursery.start_soon(table.run)
        outbox = Outbox(100)
        for i in range(2):
            await table.send(outbox if i == 1 else Outbox(100), M.Join(id=i, table="t", name=f"p{i}"))
        await table.send(outbox, M.Act(id="a", table="t", cmd={"type": "Pass", "decision": 1}))
        await wait_all_tasks_blocked()
        error = drain(outbox)[-1]
        assert error["code"] == "table/not_started"
        assert error["message"] == ("the game has not started: 2 of 4 seats are taken, and it starts when the "
                                    "last seat is taken")
        nursery.cancel_scope.cancel()
