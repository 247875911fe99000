"""The table actor is game-agnostic: every test here runs over Oriente, over
Oro, and over high card, the toy game of tests/toy_game (2-3 seats, a
hidden card per seat, a simultaneous sealed bid, silence folds, seeded
deals, one option), which the actor serves through its port alone.

What the actor owns for every game (PROTOCOL.md 5 and 11): deadlines of
prompt time plus the time bank, silence applied as the table's own command,
away seats, sealed early answers, one frame per viewer per step, eviction of
slow clients, idempotent command ids, rejections to the sender alone,
recovery with the remaining time, the seat proxy, and records that replay.
Under trio's MockClock, with the memory store."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.clock import TimerSettings
from oriente.server.game_port import TABLE_SEAT, GamePort
from oriente.server.games.oriente import OrientePort
from oriente.server.games.oro import OroPort
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import TABLE_EVENTS, Table
from tests.toy_game import ToyPort

from .actor_harness import Harness, drain, events_of, open_table


@dataclass(frozen=True)
class Game:
    """How the tests reach a game's situations without knowing its rules."""

    port: GamePort
    seats: int
    options: dict[str, Any]
    to_early: Callable[[Harness], Awaitable[tuple[int, dict[str, Any]]]]
    stale: Callable[[Harness], tuple[dict[str, Any], str]]
    # What `Harness.answer` sends first when it is legal: a command that
    # ends the seat's decision, so the decision moves on to the next seat.
    prefer: tuple[str, ...] = ("Pass",)

    async def open(self, nursery: trio.Nursery, **kw: Any) -> Harness:
        return await open_table(nursery, self.port, seats=self.seats, options=self.options, prefer=self.prefer,
                                **kw)


async def _oriente_window(h: Harness) -> tuple[int, dict[str, Any]]:
    """The stone holder attacks its left neighbour and every privilege round
    passes: the negotiation window takes sealed support from the asked."""
    seat = h.pivot
    target = (seat + 1) % h.table.settings.seats
    attack = next(c for c in h.legal(seat) if c["type"] == "Announce"
                  and c["action"]["kind"] == "attack" and c["action"]["target"] == target)
    await h.act(seat, attack)
    while h.table.play.state.phase.value == "privilege":
        await h.answer(h.pivot)
    early = h.port.prompts(h.table.play.state, ["all"])["all"]["asked"][-1]
    return early, next(c for c in h.legal(early) if c["type"] == "Support")


async def _oro_give_up_ahead(h: Harness) -> tuple[int, dict[str, Any]]:
    """O8.2: the last seat of the setup round gives up its card early."""
    early = h.prompt("spectator")["asked"][-1]
    return early, h.answers(early)[0]


async def _toy_bid_ahead(h: Harness) -> tuple[int, dict[str, Any]]:
    """H3: the last seat bids before its turn."""
    early = h.table.settings.seats - 1
    return early, h.answers(early)[0]


GAMES = {
    "oriente": Game(OrientePort(), 4, {}, _oriente_window,
                    lambda h: ({"type": "Pass", "decision": 999}, "decision/unknown")),
    "oro": Game(OroPort(), 3, {"gods": True}, _oro_give_up_ahead,
                lambda h: ({"type": "EndTurn", "decision": 999}, "decision/unknown"), prefer=("Draw", "EndTurn")),
    "highcard": Game(ToyPort(), 3, {"rounds": 9}, _toy_bid_ahead,
                     lambda h: ({"type": "Bid", "decision": 999, "raise": True}, "decision/unknown")),
}


@pytest.fixture(params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> Game:
    return GAMES[request.param]


pytestmark = pytest.mark.trio


async def test_toy_game_prompt_deadline_is_prompt_time_plus_bank_and_silence_applies(game, autojump_clock):
    """A pivot's deadline is the prompt time plus its bank; then the table
    applies the decision's silence as its own command (seat -1), and says
    so first (TimedOut), so that clients tell the silence as a timeout."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        w = h.waiting
        await trio.sleep(29.9)
        assert h.waiting == w, "nothing may happen before prompt + bank"
        await trio.sleep(0.2)
        assert h.waiting != w
        last = h.commands()[-1]
        assert last["seat"] == TABLE_SEAT and last["cmd"] == h.port.timeout_command(w)
        assert h.table.play.clock.seats[w.pivot].bank_ms == 0
        events = events_of(drain(h.clients[0]))
        told = [i for i, e in enumerate(events) if e["type"] == "TimedOut"]
        assert [events[i]["seat"] for i in told] == [w.pivot] and events[told[0]]["decision"] == w.key[0]
        assert told[0] < len(events) - 1, "the silence's events follow it"
        await h.close()


async def test_toy_game_a_deadline_passed_while_the_table_was_busy_applies_before_a_queued_command(
        game, autojump_clock):
    """The pivot's answer arrives after its deadline passed, while the actor
    was still busy with an earlier message (its store write): the silence
    applies first, and the late answer is refused. Taking a queued message
    before looking at the clock would accept an answer sent too late."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        w = h.waiting
        pivot = h.pivot
        answer = h.answers(pivot)[0]
        other = (pivot + 1) % h.table.settings.seats
        gate = trio.Event()
        append = h.store.append

        async def held(*args: Any, **kw: Any) -> None:
            await gate.wait()
            await append(*args, **kw)

        h.store.append = held  # type: ignore[method-assign]
        await h.table.send(h.clients[other], M.Chat(id="c", table="t1", text="hi"))  # the actor waits on its write
        await trio.sleep(31)  # past prompt + bank, the actor still busy
        await h.table.send(h.clients[pivot], M.Act(id="late", table="t1", cmd=answer))
        h.store.append = append  # type: ignore[method-assign]
        gate.set()
        await wait_all_tasks_blocked()
        timeouts = [c for c in h.commands() if c["seat"] == TABLE_SEAT]
        assert timeouts and timeouts[0]["cmd"] == h.port.timeout_command(w), "the silence did not apply"
        assert not any(c["cid"] == "late" for c in h.commands()), "an answer sent after its deadline was applied"
        assert any(f["t"] == "error" and f["re"] == "late" for f in drain(h.clients[pivot]))
        await h.close()


async def test_toy_game_time_bank_is_charged_only_beyond_the_prompt_time(game, autojump_clock):
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        first = h.pivot
        await trio.sleep(9)
        await h.answer(first)
        assert h.table.play.clock.seats[first].bank_ms == 20_000
        second = h.pivot
        await trio.sleep(15)
        await h.answer(second)
        assert 14_900 <= h.table.play.clock.seats[second].bank_ms <= 15_100
        await h.close()


async def test_toy_game_away_after_timeouts_in_a_row_then_at_once_until_a_command(game, autojump_clock):
    """A seat that lets `away_after` decisions in a row time out is away: its
    silence applies at once until it sends any command, even a refused one."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        sleeper = h.pivot
        away_seen = False
        for _ in range(400):
            if h.table.play.clock.seats[sleeper].away:
                break
            if h.pivot != sleeper:
                await h.answer(h.pivot)
                continue
            await trio.sleep(h.table.play.clock.deadline.at - trio.current_time() + 0.001)
            away_seen = away_seen or any(e["type"] == "SeatAway" for e in events_of(drain(h.clients[0])))
        assert away_seen and h.table.play.clock.seats[sleeper].away
        before, misses = trio.current_time(), h.table.play.clock.seats[sleeper].timeouts_in_row
        for _ in range(2 * h.table.settings.seats):
            await h.answer(h.pivot)
        assert h.table.play.clock.seats[sleeper].timeouts_in_row > misses
        assert trio.current_time() == before
        assert not [e for e in events_of(drain(h.clients[0])) if e["type"] == "TimedOut"], \
            "an away seat's silence is told once, as away, not as a timeout each time"
        drain(h.clients[1])
        stale, _ = game.stale(h)
        await h.act(sleeper, stale)
        assert not h.table.play.clock.seats[sleeper].away
        assert any(e["type"] == "SeatBack" and e["seat"] == sleeper for e in events_of(drain(h.clients[1])))
        await h.close()


async def test_toy_game_back_returns_an_away_and_proxied_seat_without_a_command(game, autojump_clock):
    """`back` (PROTOCOL.md 11): an away seat is back, its proxy off, and its
    next prompt waits the whole prompt time again, with no command sent;
    `back` from a seat that is neither changes nothing."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery, proxy_after=10)
        sleeper = h.pivot
        observer = (sleeper + 1) % game.seats
        h.table.play.clock.seats[sleeper].away = h.table.play.clock.seats[sleeper].proxied = True
        h.table.play.clock.seats[sleeper].timeouts_in_row = 3
        drain(h.clients[observer])
        commands, seq = len(h.commands()), h.table.seq
        await h.table.send(h.clients[sleeper], M.Back(id="b1", table=h.table.id))
        await wait_all_tasks_blocked()
        seat = h.table.play.clock.seats[sleeper]
        assert (seat.away, seat.proxied, seat.timeouts_in_row) == (False, False, 0)
        assert [(e["type"], e["seat"]) for e in events_of(drain(h.clients[observer]))] == [
            ("SeatBack", sleeper), ("ProxyOff", sleeper)]
        assert drain(h.clients[sleeper])[-1] == {"t": "ok", "re": "b1", "seq": seq + 2}
        assert len(h.commands()) == commands, "no game command was sent or logged"
        await h.table.send(h.clients[sleeper], M.Back(id="b2", table=h.table.id))
        await wait_all_tasks_blocked()
        assert drain(h.clients[sleeper])[-1] == {"t": "ok", "re": "b2", "seq": seq + 2}
        assert events_of(drain(h.clients[observer])) == []
        spectator = Outbox(10)
        await h.table.send(spectator, M.Back(id="b3", table=h.table.id))
        await wait_all_tasks_blocked()
        assert drain(spectator)[-1]["code"] == "auth/not_seated"
        await h.close()


async def test_toy_game_a_frame_says_whether_its_prompt_changed(game, autojump_clock):
    """PROTOCOL.md 4: every live events frame carries the prompt, and
    `prompt_changed` says whether it differs from the one this subscriber
    got last (in a snapshot or a frame), the countdown aside."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        watcher = Outbox(100)
        await h.table.send(watcher, M.Spectate(id="w", table=h.table.id))
        await trio.sleep(1)  # the countdown moves; the decision does not
        await h.table.send(h.clients[0], M.Chat(id="c", table=h.table.id, text="hello"))
        await wait_all_tasks_blocked()
        frames = [drain(c)[-2 if i == 0 else -1] for i, c in enumerate(h.clients)] + [drain(watcher)[-1]]
        assert all(f["t"] == "events" and f["prompt_changed"] is False for f in frames)
        assert all(f["prompt"] is not None for f in frames[:-1])
        await h.answer(h.pivot)  # the decision moves on (or its round's pivot does)
        frames = [drain(c) for c in (*h.clients, watcher)]
        live = [f for fs in frames for f in fs if f["t"] == "events"]
        assert live and all(f["prompt_changed"] is True for f in live)
        await h.close()


async def test_toy_game_sealed_early_answer_sends_nothing_to_anyone_else(game, autojump_clock):
    """An early answer stays sealed: shown to nobody but its seat, not even
    that it exists. No frame at all reaches the others."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        early, answer = await game.to_early(h)
        w = h.waiting
        h.drain_all()
        await h.act(early, answer)
        for seat, got in enumerate(h.drain_all()):
            if seat == early:
                assert [f["t"] for f in got] == ["events", "ok"]
                assert got[0]["events"] == [] and got[0]["prompt"]["sealed"] == answer
            else:
                assert got == [], f"seat {seat} learned of a sealed answer"
        assert h.waiting == w
        await h.close()


async def test_toy_game_one_frame_per_viewer_per_step(game, autojump_clock):
    """Fan-out coalesces every event of one step into one frame per client."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        spectator = Outbox(100)
        await h.table.send(spectator, M.Spectate(id=1, table="t1"))
        await wait_all_tasks_blocked()
        drain(spectator)
        biggest = 0
        for _ in range(3 * h.table.settings.seats):
            await h.answer(h.pivot)
            for i, got in enumerate([*h.drain_all(), drain(spectator)]):
                frames = [f for f in got if f["t"] == "events"]
                assert len(frames) == 1, f"client {i} got {len(frames)} event frames for one step"
                biggest = max(biggest, len(frames[0]["events"]))
        assert biggest >= 2, "no step had two events to coalesce"
        await h.close()


async def test_toy_game_slow_client_is_evicted_and_the_table_goes_on(game, autojump_clock):
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery, timers=TimerSettings.bots())
        stuck = Outbox(2)
        await h.table.send(stuck, M.Spectate(id=1, table="t1"))
        for _ in range(10):
            await h.answer(h.pivot)
            h.drain_all()
        assert stuck.evicted == "client/too_slow"
        assert stuck not in h.table.viewers.subscribers
        seat = h.pivot
        await h.answer(seat)
        assert any(f["t"] == "events" for f in drain(h.clients[(seat + 1) % h.table.settings.seats]))
        await h.close()


async def test_toy_game_retried_command_id_is_not_applied_twice(game, autojump_clock):
    """A retry after a reconnect is recognised and not applied twice."""
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        seat = h.pivot
        cmd = h.answers(seat)[0]
        await h.act(seat, cmd, cid="same")
        seq = h.table.seq
        h.drain_all()
        await h.act(seat, cmd, cid="same")
        assert h.table.seq == seq
        assert [f for f in drain(h.clients[seat]) if f["t"] == "ok"] == [
            {"t": "ok", "re": "same", "duplicate": True, "seq": seq}]
        await h.close()


async def test_toy_game_rejection_goes_to_the_sender_only_and_changes_nothing(game, autojump_clock):
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery)
        w = h.waiting
        view = h.port.view(h.table.play.state, "all")
        seq = h.table.seq
        stale, code = game.stale(h)
        await h.act(w.pivot, stale)
        frames = h.drain_all()
        assert [(f["t"], f["re"], f["code"]) for f in frames[w.pivot]] == [("error", h.n, code)]
        assert all(f == [] for i, f in enumerate(frames) if i != w.pivot)
        assert h.table.seq == seq and h.waiting == w and h.port.view(h.table.play.state, "all") == view
        await h.close()


async def test_toy_game_restart_resumes_the_deadline_with_its_remaining_time(game, autojump_clock):
    """Deadlines pause while the table is down: the rebuilt table has the same
    state, and the deadline resumes with what was left when it went down."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await game.open(nursery, store=store)
        for _ in range(2):
            await h.answer(h.pivot)
        await trio.sleep(12)  # 12 s into a 30 s deadline (prompt 10 + bank 20)
        await h.answer(h.pivot)  # saves the clock: this pivot's deadline is fresh
        await trio.sleep(4)
        key = h.waiting.key
        view_before = h.port.view(h.table.play.state, "all")
        _, clock = store.clocks["t1"]
        await h.close()
        await store.aclose()
    # The server was alive 4 s after the last save, then down for an hour.
    table = Table.restore("t1", store.rows["t1"].meta, store.logs["t1"], clock, game.port, store,
                          paused_ms=4_000, wall=lambda: 2_000_000.0)
    assert table.settings.game == game.port.name
    assert table.port.view(table.play.state, "all") == view_before
    assert table.port.waiting(table.play.state).key == key
    remaining = table.play.clock.deadline.at - trio.current_time()
    assert 25.9 <= remaining <= 26.1


async def test_toy_game_seat_proxy_plays_an_away_seat_and_hands_it_back(game, autojump_clock):
    """After `proxy_after` timeouts in a row the game's reference bot plays
    the seat, at once, through the same apply() and log as any command, until
    its owner sends anything."""
    timers = TimerSettings(prompt_ms=10_000, window_ms=0, bank_ms=0, bank_refill_ms=0,
                           zero_wait=False, away_after=5)
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery, timers=timers, proxy_after=2)
        sleeper = h.pivot
        for _ in range(400):
            if h.table.play.clock.seats[sleeper].proxied:
                break
            if h.pivot != sleeper:
                await h.answer(h.pivot)
                continue
            await trio.sleep(h.table.play.clock.deadline.at - trio.current_time() + 0.001)
        assert h.table.play.clock.seats[sleeper].proxied
        assert any(e["type"] == "ProxyOn" and e["seat"] == sleeper for e in events_of(drain(h.clients[0])))
        info = h.table.info()  # the table information shows the proxy setting and who is proxied
        assert info["settings"]["proxy_after"] == 2
        assert [s["proxied"] for s in info["seats"]] == [s == sleeper for s in range(game.seats)]
        before = trio.current_time()
        proxied = 0
        for _ in range(200):
            cmds = h.commands()
            proxied = sum(1 for c in cmds if c.get("proxy") and c["seat"] == sleeper)
            if proxied >= 2:
                break
            await h.answer(h.pivot)
        assert proxied >= 2 and trio.current_time() == before
        assert all(c["seat"] != TABLE_SEAT for c in cmds if c.get("proxy"))
        while h.pivot == sleeper:
            await trio.sleep(0)
        drain(h.clients[1])
        stale, _ = game.stale(h)
        await h.act(sleeper, stale)
        assert not h.table.play.clock.seats[sleeper].proxied
        assert any(e["type"] == "ProxyOff" for e in events_of(drain(h.clients[1])))
        assert not any(s["proxied"] for s in h.table.info()["seats"])
        while h.pivot != sleeper:
            await h.answer(h.pivot)
        key = h.waiting.key
        await trio.sleep(9)
        assert h.waiting.key == key, "the owner's prompt waits for the owner again"
        await h.close()


async def test_toy_game_a_whole_game_ends_with_a_record_that_recovers_exactly(game, autojump_clock):
    """Random answers to the end: the table finishes with the port's result,
    its record names the game and the port's config, and its log rebuilds the
    same finished table. No seat ever sees another's hidden card in the
    events the table sends it (checked against the record's full events)."""
    rng = random.Random(5)
    async with trio.open_nursery() as nursery:
        h = await game.open(nursery, timers=TimerSettings.bots())
        for _ in range(5_000):
            if h.table.status == "finished":
                break
            await h.act(h.pivot, rng.choice(h.answers(h.pivot)))
        assert h.table.status == "finished"
        record = h.table.record()
        frames = h.drain_all()
        await h.close()
    assert record["game"] == game.port.name
    new_table = {**game.port.new_table_options, **game.options}
    assert record["config"] == game.port.configure(game.seats, 3, new_table, {}).record
    assert record["result"] == h.table.play.result and record["result"] is not None
    assert decode_any(h.store.records["t1"]) == record
    assert h.store.rows["t1"].status == "finished"
    full = {e["seq"]: e for e in h.table.events}
    for seat, got in enumerate(frames):
        for event in events_of(got):  # the table's own events are the table's, the game's the port's
            whole = full[event["seq"]]
            assert event == (whole if whole["type"] in TABLE_EVENTS else h.port.project(whole, seat))
    restored = Table.restore("t1", h.store.rows["t1"].meta, h.store.logs["t1"], None, game.port, h.store,
                             paused_ms=0)
    assert restored.status == "finished" and restored.play.result == record["result"]
    assert restored.record() == record
