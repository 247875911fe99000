"""An ended table outlives its time in memory (PROTOCOL.md 5): once the
lobby has let it go, `resume`, `spectate` and `record` still find it,
brought back from its log in the store, as long as the store keeps it. The
lobby under MockClock with the memory store; over real sockets and across
a restart: tests/e2e/test_ended_tables.py."""

from __future__ import annotations

from collections.abc import Awaitable

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.server.games.oriente import OrientePort
from oriente.server.lobby import QUIET_S, Lobby
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Table

from .actor_harness import drain, events_of
from .broken_port import BrokenPort

pytestmark = pytest.mark.trio

BOTS = M.Timers(prompt_ms=2_000, window_ms=0, bank_ms=0, bank_refill_ms=0, zero_wait=True, away_after=3)
# The top card is the bonus, the next four the inhabitants, the Geisha the
# sixth: drawn as the bonus at the end of season 1, it ends the game after
# the four seats let their first prompts pass.
DECK = [5, 12, 18, 25, 30, 40] + [c for c in range(41) if c not in (5, 12, 18, 25, 30, 40)]
DEAL = {"deck": DECK, "treasures": [41, 45, 49, 52], "stone_holder": 2}
LINGER_S = 5.0


async def ended_table(lobby: Lobby, game: str = "oriente") -> tuple[Table, list[Outbox]]:
    settings, setup = lobby.settings_from(M.CreateTable(seats=4, seed=7, timers=BOTS, game=game,
                                                        options={"deal": DEAL}))
    table = await lobby.create(settings, setup)
    seats = []
    for i in range(4):
        outbox = Outbox(1000)
        await table.send(outbox, M.Join(id=i, table=table.id, name=f"p{i}"))
        seats.append(outbox)
    await trio.sleep(10)  # four 2-second prompts time out; the Geisha ends the game
    assert table.status in ("finished", "failed")
    return table, seats


async def test_a_finished_table_comes_back_from_the_store_after_its_linger(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby({"oriente": OrientePort()}, store, nursery, linger_s=LINGER_S)
        table, seats = await ended_table(lobby)
        seq, record = table.seq, table.record()
        await trio.sleep(LINGER_S + 1)
        assert lobby.get(table.id) is None, "the actor let it go"
        assert lobby.listing() == []
        first, second = await _both(lobby.find(table.id), lobby.find(table.id))
        assert first is second is not None, "two requests at once bring it back once"
        again = first
        assert again is not table
        assert (again.status, again.seq, again.play.result) == ("finished", seq, table.play.result)
        assert again.record() == record
        # A seat resumes it: history, then a snapshot with the final view.
        token_seat = seats[0]
        watcher = Outbox(1000)
        await again.send(watcher, M.Spectate(id="s", table=table.id, after=0))
        await wait_all_tasks_blocked()
        frames = drain(watcher)
        assert next(f["t"] for f in frames) == "ok" and frames[-1]["t"] == "snapshot"
        assert [e["seq"] for e in events_of(frames)] == list(range(1, seq + 1))
        assert events_of(frames)[-1]["type"] == "TableFinished"
        snapshot = frames[-1]
        assert snapshot["table_info"]["status"] == "finished" and snapshot["view"]["phase"] == "over"
        await again.send(token_seat, M.Act(id="late", table=table.id, cmd={"type": "Pass", "decision": 1}))
        await wait_all_tasks_blocked()
        assert drain(token_seat)[-1]["code"] == "auth/not_seated", "a fresh actor knows no connection"
        await trio.sleep(LINGER_S + 1)
        assert lobby.get(table.id) is None, "it lingers again, then goes"
        assert await lobby.find("no-such-table") is None
        nursery.cancel_scope.cancel()


async def test_a_finished_table_leaves_memory_at_its_end_and_its_followers_still_hear_of_it(autojump_clock) -> None:
    """Its record, replay and rematch come from the store, so an ended
    table leaves memory as it ends, even while its players look at the end
    screen: only who follows it is kept (`Followers`). A chat after the end
    brings it back with its followers, who hear it; it goes again after
    QUIET_S without a message; a closed connection follows it no more; after
    the linger nobody does."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby({"oriente": OrientePort()}, store, nursery, linger_s=600.0)
        table, seats = await ended_table(lobby)
        await wait_all_tasks_blocked()
        assert lobby.get(table.id) is None, "it left memory at its end"
        assert table.id in lobby.followers
        for outbox in seats:
            drain(outbox)
        # A message sent to the old actor reaches the table brought back.
        await table.send(seats[1], M.Chat(id="gg", table=table.id, text="good game"))
        await wait_all_tasks_blocked()
        again = lobby.get(table.id)
        assert again is not None and again is not table
        for i, outbox in enumerate(seats):
            frames = drain(outbox)
            assert [e["type"] for e in events_of(frames)] == ["Chat"], f"seat {i} hears the chat"
        assert frames[-1]["t"] == "events"
        assert drain(seats[1]) == []
        assert again.statistics().watchers == 4 and all(s.connected for s in again.statistics().seats)
        await trio.sleep(QUIET_S + 0.1)
        assert lobby.get(table.id) is None, "nothing reached it: it left memory again"
        # Three connections close while it is out of memory; the fourth still hears.
        for outbox in seats[:3]:
            await lobby.disconnected(table.id, outbox)
        await table.send(seats[3], M.Chat(id="bye", table=table.id, text="bye"))
        await wait_all_tasks_blocked()
        third = lobby.get(table.id)
        assert third is not None and third.statistics().watchers == 1
        assert [s.connected for s in third.statistics().seats] == [False, False, False, True]
        assert [e["type"] for e in events_of(drain(seats[3]))] == ["Chat"]
        assert all(drain(o) == [] for o in seats[:3])
        await lobby.disconnected(table.id, seats[3])
        await trio.sleep(QUIET_S + 0.1)
        assert lobby.get(table.id) is None and table.id not in lobby.followers, "nobody follows it: nothing kept"
        nursery.cancel_scope.cancel()


async def test_followers_are_forgotten_after_the_linger(autojump_clock) -> None:
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        lobby = Lobby({"oriente": OrientePort()}, store, nursery, linger_s=LINGER_S)
        table, _ = await ended_table(lobby)
        await wait_all_tasks_blocked()
        assert table.id in lobby.followers
        await trio.sleep(LINGER_S + 0.1)
        assert table.id not in lobby.followers
        nursery.cancel_scope.cancel()


async def test_a_failed_table_its_rules_cannot_replay_is_served_from_its_log(autojump_clock, caplog) -> None:
    """A table that a bug in `apply` ended: replaying its log runs into the
    bug again, so it is served as logged, without a game state."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        broken = BrokenPort("broken", "apply", after=2)
        lobby = Lobby({"oriente": OrientePort(), "broken": broken}, store, nursery, linger_s=LINGER_S)
        table, _ = await ended_table(lobby, game="broken")
        assert table.status == "failed"
        seq = table.seq
        await trio.sleep(LINGER_S + 1)
        again = await lobby.find(table.id)
        assert again is not None and (again.status, again.seq, again.play.state) == ("failed", seq, None)
        assert again.events == table.events and again.journal.commands == table.journal.commands
        watcher = Outbox(1000)
        await again.send(watcher, M.Spectate(id="s", table=table.id, after=seq - 1))
        await wait_all_tasks_blocked()
        frames = drain(watcher)
        assert events_of(frames)[-1]["type"] == "TableFailed"
        assert frames[-1]["t"] == "snapshot" and frames[-1]["view"] is None
        assert "without replaying it" in caplog.text
        nursery.cancel_scope.cancel()


async def _both(a: Awaitable[Table | None], b: Awaitable[Table | None]) -> list[Table | None]:
    """Await two requests at once."""
    out: list[Table | None] = [None, None]

    async def run(i: int, aw: Awaitable[Table | None]) -> None:
        out[i] = await aw

    async with trio.open_nursery() as nursery:
        nursery.start_soon(run, 0, a)
        nursery.start_soon(run, 1, b)
    return out
