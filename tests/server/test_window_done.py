"""The table actor and R10.2b1 under trio's MockClock: a window that both
fighters' done and every asked seat's early answer close is no longer
reported by the rules, so the actor's deadline logic (one deadline per
decision key) moves on to the support round's pivot at once, with no change
of its own."""

from __future__ import annotations

import pytest
import trio

from oriente.server.games.oriente import OrientePort

from .actor_harness import drain, events_of, open_table
from .test_table_actor import drive_to_window


@pytest.mark.trio
async def test_r10_2b1_window_closed_by_done_and_early_answers_moves_on_without_waiting(autojump_clock):
    """R10.2b1: "The window closes at once when both fighters have said done
    and every seat of the coming support round has handed in its
    declaration early." No time passes; the next deadline is the pivot's."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, OrientePort(), seats=4)
        await drive_to_window(h)
        window = h.waiting
        assert window.pivot is None and window.timer == "window"
        start = trio.current_time()
        state = h.table.play.state
        fighters = (state.fight.attacker, state.fight.defender)
        asked = list(h.prompt("all")["asked"])
        for seat in asked:
            await h.act(seat, {"type": "Pass", "decision": window.key[0]})
        assert h.waiting == window, "the fighters have not said done"
        await h.act(fighters[0], {"type": "Done", "decision": window.key[0]})
        assert h.waiting == window
        h.drain_all()
        await h.act(fighters[1], {"type": "Done", "decision": window.key[0]})
        seen = [e["type"] for e in events_of(drain(h.clients[asked[0]]))]
        assert seen[:2] == ["NegotiationDone", "NegotiationClosed"]
        assert trio.current_time() == start
        after = h.waiting
        assert after is None or after.key != window.key
        d = h.table.play.clock.deadline
        assert after is None or (d is not None and d.key == after.key)
        await h.close()


@pytest.mark.trio
async def test_an_open_window_awaits_the_seats_it_would_close_early_for(autojump_clock):
    """`GamePort.offered` (docs/table.md T8.8): while a negotiation window
    is open, the fighters that have not said done and the asked seats that
    have not answered are awaited (a turn-based table tells their accounts);
    each drops out as it answers or says done, and none is once it closes."""
    async with trio.open_nursery() as nursery:
        port = OrientePort()
        h = await open_table(nursery, port, seats=4)
        await drive_to_window(h)
        window = h.waiting
        state = h.table.play.state
        fighters = (state.fight.attacker, state.fight.defender)
        asked = list(h.prompt("all")["asked"])
        assert not state.deals, "no deal is open: what is awaited is the window's alone"
        assert not set(fighters) & set(asked), "the support round asks the other seats"
        assert port.offered(state) == frozenset(asked) | frozenset(fighters)
        await h.act(asked[0], {"type": "Pass", "decision": window.key[0]})
        await h.act(fighters[0], {"type": "Done", "decision": window.key[0]})
        assert port.offered(h.table.play.state) == frozenset(asked[1:]) | {fighters[1]}
        for seat in asked[1:]:
            await h.act(seat, {"type": "Pass", "decision": window.key[0]})
        await h.act(fighters[1], {"type": "Done", "decision": window.key[0]})
        assert h.waiting != window
        assert port.offered(h.table.play.state) == frozenset(), "a closed window awaits nobody"
        await h.close()
