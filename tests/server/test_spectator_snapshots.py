"""Spectators' snapshots are built once per log position and shared, yet
each is exactly what a view built for it alone would be: the same view,
the prompt with the deadline as it stands when that spectator arrives, and
the new state once the game has moved. Under trio's MockClock."""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any, encode
from oriente.server.games.oriente import OrientePort
from oriente.server.outbox import Outbox

from .actor_harness import Harness, drain, open_table

pytestmark = pytest.mark.trio


async def spectate(h: Harness) -> dict:
    outbox = Outbox(100)
    await h.table.send(outbox, M.Spectate(id="s", table=h.table.id))
    await wait_all_tasks_blocked()
    [snapshot] = [f for f in drain(outbox) if f["t"] == "snapshot"]
    return snapshot


def fresh(h: Harness) -> tuple[dict, dict]:
    """A spectator's view and prompt built from the state alone, now."""
    return (decode_any(encode(h.port.view(h.table.play.state, "spectator"))),
            decode_any(encode(h.prompt("spectator"))))


async def test_spectators_at_one_position_share_the_view_and_each_gets_its_own_deadline(autojump_clock):
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        first = await spectate(h)
        view, prompt = fresh(h)
        assert first["view"] == view
        assert {k: v for k, v in first["prompt"].items() if not k.startswith("deadline")} == prompt
        await trio.sleep(1.0)
        second = await spectate(h)
        assert second["seq"] == first["seq"] and second["view"] == first["view"]
        assert second["prompt"]["deadline_ms"] == first["prompt"]["deadline_ms"] - 1000
        assert first["prompt"]["deadline_ms"] > 1000

        await h.answer(h.pivot)
        third = await spectate(h)
        view, prompt = fresh(h)
        assert third["view"] == view and third["view"] != first["view"]
        assert {k: v for k, v in third["prompt"].items() if not k.startswith("deadline")} == prompt
        await h.close()
        nursery.cancel_scope.cancel()
