"""The table actor under trio's MockClock: deadlines, timeouts as commands,
away seats, time banks, windows, secrecy of sealed answers, coalescing,
eviction and recovery (RULES.md R10; ARCHITECTURE.md "decisions, time and
secrecy"). No sockets and no sleeps: a 30-second prompt takes microseconds.
"""

from __future__ import annotations

import pytest
import trio
from trio.testing import wait_all_tasks_blocked

from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.clock import TimerSettings
from oriente.server.games.oriente import OrientePort
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Stop, Table, TableSettings

HUMANS = TimerSettings(prompt_ms=10_000, window_ms=5_000, bank_ms=20_000, bank_refill_ms=0,
                       zero_wait=False, away_after=2)


def drain(outbox: Outbox) -> list[dict]:
    frames = []
    while True:
        try:
            frames.append(decode_any(outbox.receive.receive_nowait()))
        except trio.WouldBlock:
            return frames


def events_of(frames: list[dict]) -> list[dict]:
    return [e for f in frames if f["t"] == "events" for e in f["events"]]


class Harness:
    def __init__(self, table: Table, clients: list[Outbox], store: MemoryStore, *, owns_store: bool) -> None:
        self.table, self.clients, self.store = table, clients, store
        self.owns_store = owns_store
        self.n = 0

    async def close(self) -> None:
        """Stop the actor (and the store it was given, if the harness made it)."""
        await self.table.send(None, Stop())
        if self.owns_store:
            await self.store.aclose()

    @property
    def waiting(self):
        return self.table.port.waiting(self.table.state)

    def legal(self, seat: int) -> list[dict]:
        prompt = self.table.port.prompts(self.table.state, [seat])[seat]
        return prompt["legal"] if prompt else []

    async def act(self, seat: int, cmd: dict, cid=None) -> None:
        self.n += 1
        await self.table.send(self.clients[seat], M.Act(id=cid if cid is not None else self.n, table=self.table.id, cmd=cmd))
        await wait_all_tasks_blocked()

    async def pass_(self, seat: int) -> None:
        """Pass, or where passing is no answer (a card to choose), the first choice."""
        options = [c for c in self.legal(seat) if c["type"] in ("Pass", "Choose")]
        await self.act(seat, next((c for c in options if c["type"] == "Pass"), options[0]))

    def drain_all(self) -> list[list[dict]]:
        return [drain(c) for c in self.clients]


async def open_table(nursery, *, seats=4, timers=HUMANS, seed=3, store=None, capacity=1000,
                     proxy_after=None) -> Harness:
    owns_store = store is None
    if store is None:
        store = MemoryStore()
        await nursery.start(store.run)
    port = OrientePort()
    setup = port.configure(seats, seed, {}, {})
    settings = TableSettings(game=port.name, seats=seats, seed=seed, timers=timers, options=setup.options,
                             proxy_after=proxy_after)
    table = Table("t1", settings, port, setup, store, wall=lambda: 1_000_000.0 + trio.current_time())
    await table.create()
    nursery.start_soon(table.run)
    clients = []
    for i in range(seats):
        outbox = Outbox(capacity)
        await table.send(outbox, M.Join(id=f"j{i}", table="t1", name=f"p{i}"))
        clients.append(outbox)
    await wait_all_tasks_blocked()
    h = Harness(table, clients, store, owns_store=owns_store)
    h.drain_all()
    return h


async def drive_to_window(h: Harness) -> None:
    """The stone holder attacks its left neighbour; every privilege round passes."""
    w = h.waiting
    seat = w.pivot
    target = (seat + 1) % h.table.settings.seats
    attack = next(c for c in h.legal(seat) if c["type"] == "Announce"
                  and c["action"]["kind"] == "attack" and c["action"]["target"] == target)
    await h.act(seat, attack)
    while h.table.state.phase.value == "privilege":
        await h.pass_(h.waiting.pivot)


@pytest.mark.trio
async def test_r10_1_prompt_deadline_is_prompt_time_plus_bank_and_silence_passes(autojump_clock):
    """R10.1: 'A decision that belongs to one seat has a deadline, and silence
    has a fixed meaning: announce or pass (R3.2) — pass'. R10.3: the time bank
    runs after the prompt time."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        w = h.waiting
        await trio.sleep(29.9)
        assert h.waiting == w, "nothing may happen before prompt + bank"
        await trio.sleep(0.2)
        seen = events_of(drain(h.clients[0]))
        assert {"type": "Passed", "seat": w.pivot, "decision": w.key[0]}.items() <= seen[0].items()
        cmds = [decode_any(r.body) for r in h.store.logs["t1"] if r.kind == "cmd"]
        assert cmds[-1]["seat"] == -1 and cmds[-1]["cmd"]["type"] == "Timeout"
        assert h.table.clock.seats[w.pivot].bank_ms == 0
        await h.close()


@pytest.mark.trio
async def test_r10_3_time_bank_is_charged_only_beyond_the_prompt_time(autojump_clock):
    """R10.3: 'a finite time bank' — answering within the prompt time costs
    nothing; beyond it, the excess comes off the bank."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        first = h.waiting.pivot
        await trio.sleep(9)
        await h.pass_(first)
        assert h.table.clock.seats[first].bank_ms == 20_000
        second = h.waiting.pivot
        await trio.sleep(15)
        await h.pass_(second)
        assert 14_900 <= h.table.clock.seats[second].bank_ms <= 15_100
        await h.close()


@pytest.mark.trio
async def test_r10_3_away_after_timeouts_in_a_row_then_immediate_until_a_command(autojump_clock):
    """R10.3: 'A seat that lets a table-set number of decisions in a row time
    out is marked away: its silence meanings then apply at once, without
    waiting, until it sends any command.'"""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        sleeper = h.waiting.pivot
        away_seen = False
        for _ in range(400):
            if h.table.clock.seats[sleeper].away:
                break
            w = h.waiting
            if w.pivot != sleeper:
                await h.pass_(w.pivot)
                continue
            # let exactly this deadline pass
            await trio.sleep(h.table.clock.deadline.at - trio.current_time() + 0.001)
            away_seen = away_seen or any(e["type"] == "SeatAway" for e in events_of(drain(h.clients[0])))
        assert away_seen and h.table.clock.seats[sleeper].away
        # Away: its prompts time out at once, so a whole season of the others
        # passing goes by without the clock moving and with the sleeper silent.
        before, misses = trio.current_time(), h.table.clock.seats[sleeper].timeouts_in_row
        for _ in range(2 * h.table.settings.seats):
            await h.pass_(h.waiting.pivot)
        assert h.table.clock.seats[sleeper].timeouts_in_row > misses
        assert trio.current_time() == before
        # Any command brings it back, even one the rules refuse.
        drain(h.clients[1])
        await h.act(sleeper, {"type": "Pass", "decision": 1})
        assert not h.table.clock.seats[sleeper].away
        assert any(e["type"] == "SeatBack" and e["seat"] == sleeper for e in events_of(drain(h.clients[1])))
        await h.close()


@pytest.mark.trio
async def test_r10_2b_window_closes_at_its_deadline(autojump_clock):
    """R10.2b: the negotiation window 'closes at its deadline'."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        await drive_to_window(h)
        w = h.waiting
        assert w.pivot is None and w.timer == "window"
        await trio.sleep(4.9)
        assert h.waiting == w
        await trio.sleep(0.2)
        assert h.waiting.pivot is not None, "the support round has begun"
        assert any(e["type"] == "NegotiationClosed" for e in events_of(drain(h.clients[0])))
        await h.close()


@pytest.mark.trio
async def test_r10_3_zero_wait_tables_close_windows_at_once(autojump_clock):
    """R10.3: 'Bot tables add no waiting of their own'."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, timers=TimerSettings.bots())
        start = trio.current_time()
        await drive_to_window(h)
        await wait_all_tasks_blocked()
        assert h.waiting is None or h.waiting.pivot is not None
        assert trio.current_time() - start < 0.01
        await h.close()


@pytest.mark.trio
async def test_r10_2_sealed_answer_sends_nothing_to_anyone_else(autojump_clock):
    """R10.2: an early answer 'stays sealed — shown to nobody but that seat,
    not even that it exists'. No frame at all reaches the others."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        await drive_to_window(h)
        w = h.waiting
        asked = h.table.port.prompts(h.table.state, ["all"])["all"]["asked"]
        h.drain_all()
        early = asked[-1]
        support = next(c for c in h.legal(early) if c["type"] == "Support")
        await h.act(early, support)
        frames = h.drain_all()
        for seat, got in enumerate(frames):
            if seat == early:
                assert [f["t"] for f in got] == ["events", "ok"]
                assert got[0]["events"] == [] and got[0]["prompt"]["sealed"] == support
            else:
                assert got == [], f"seat {seat} learned of a sealed answer"
        assert h.waiting == w
        await h.close()


@pytest.mark.trio
async def test_one_frame_per_viewer_per_step(autojump_clock):
    """Fan-out coalesces every event of one step into one frame per client."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        spectator = Outbox(100)
        await h.table.send(spectator, M.Spectate(id=1, table="t1"))
        await wait_all_tasks_blocked()
        drain(spectator)
        seat = h.waiting.pivot
        await h.act(seat, next(c for c in h.legal(seat) if c["type"] == "Announce"))
        for i, got in enumerate(h.drain_all() + [drain(spectator)]):
            frames = [f for f in got if f["t"] == "events"]
            assert len(frames) == 1, f"client {i} got {len(frames)} event frames for one step"
            assert len(frames[0]["events"]) >= 2
        await h.close()


@pytest.mark.trio
async def test_slow_client_is_evicted_and_the_table_goes_on(autojump_clock):
    """A client that stops reading is evicted; everyone else keeps their stream."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, timers=TimerSettings.bots())
        stuck = Outbox(2)
        await h.table.send(stuck, M.Spectate(id=1, table="t1"))
        for _ in range(10):
            await h.pass_(h.waiting.pivot)
            h.drain_all()
        assert stuck.evicted == "client/too_slow"
        assert stuck not in h.table.subscribers
        seat = h.waiting.pivot
        await h.pass_(seat)
        assert any(f["t"] == "events" for f in drain(h.clients[(seat + 1) % 4]))
        await h.close()


@pytest.mark.trio
async def test_retried_command_id_is_not_applied_twice(autojump_clock):
    """ARCHITECTURE.md: a retry after a reconnect is recognised and not applied twice."""
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        seat = h.waiting.pivot
        cmd = next(c for c in h.legal(seat) if c["type"] == "Pass")
        await h.act(seat, cmd, cid="same")
        seq = h.table.seq
        h.drain_all()
        await h.act(seat, cmd, cid="same")
        assert h.table.seq == seq
        replies = [f for f in drain(h.clients[seat]) if f["t"] == "ok"]
        assert replies == [{"t": "ok", "re": "same", "duplicate": True, "seq": seq}]
        await h.close()


@pytest.mark.trio
async def test_rejection_goes_to_the_sender_only_and_changes_nothing(autojump_clock):
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery)
        w = h.waiting
        other = (w.pivot + 1) % 4
        seq = h.table.seq
        await h.act(other, {"type": "Pass", "decision": w.key[0]})
        frames = h.drain_all()
        assert frames[other] == [{"t": "error", "re": h.n, "code": "decision/not_yours",
                                  "message": f"decision {w.key[0]} waits on seat {w.pivot}"}]
        assert all(f == [] for i, f in enumerate(frames) if i != other)
        assert h.table.seq == seq and h.waiting == w
        await h.close()


@pytest.mark.trio
async def test_r10_3_restart_resumes_deadline_with_remaining_time(autojump_clock):
    """R10.3: 'Deadlines pause while the table is not running: a server
    restart costs nobody their turn.' The rebuilt table has the same state
    and the deadline resumes with what was left when the server went down."""
    store = MemoryStore()
    async with trio.open_nursery() as nursery:
        await nursery.start(store.run)
        h = await open_table(nursery, store=store)
        for _ in range(3):
            await h.pass_(h.waiting.pivot)
        await trio.sleep(12)  # 12 s into a 30 s deadline (prompt 10 + bank 20)
        await h.pass_(h.waiting.pivot)  # saves the clock: this pivot's deadline is fresh
        await trio.sleep(4)
        key = h.waiting.key
        view_before = h.table.port.view(h.table.state, "all")
        saved_at, clock = store.clocks["t1"]
        await h.close()
        await store.aclose()
    # The server was alive 4 s after the last save, then down for an hour.
    table = Table.restore("t1", store.rows["t1"].meta, store.logs["t1"], clock, OrientePort(), store,
                          paused_ms=4_000, wall=lambda: 2_000_000.0)
    assert table.port.view(table.state, "all") == view_before
    assert table.port.waiting(table.state).key == key
    remaining = table.clock.deadline.at - trio.current_time()
    assert 25.9 <= remaining <= 26.1


@pytest.mark.trio
async def test_seat_proxy_plays_an_away_seat_and_hands_it_back(autojump_clock):
    """A table's proxy_after setting: after that many timeouts in a row the
    reference bot plays the seat — at once, through the same apply() and log
    as any command — until its owner sends anything."""
    timers = TimerSettings(prompt_ms=10_000, window_ms=0, bank_ms=0, bank_refill_ms=0,
                           zero_wait=False, away_after=5)
    async with trio.open_nursery() as nursery:
        h = await open_table(nursery, timers=timers, proxy_after=2)
        sleeper = h.waiting.pivot
        for _ in range(400):
            if h.table.clock.seats[sleeper].proxied:
                break
            if h.waiting.pivot != sleeper:
                await h.pass_(h.waiting.pivot)
                continue
            await trio.sleep(h.table.clock.deadline.at - trio.current_time() + 0.001)
        assert h.table.clock.seats[sleeper].proxied
        assert any(e["type"] == "ProxyOn" and e["seat"] == sleeper for e in events_of(drain(h.clients[0])))
        # The proxy answers for the seat without the clock moving.
        before = trio.current_time()
        proxied = 0
        for _ in range(200):
            cmds = [decode_any(r.body) for r in h.store.logs["t1"] if r.kind == "cmd"]
            proxied = sum(1 for c in cmds if c.get("proxy") and c["seat"] == sleeper)
            if proxied >= 2:
                break
            await h.pass_(h.waiting.pivot)
        assert proxied >= 2 and trio.current_time() == before
        assert all(c["cmd"]["type"] != "Timeout" for c in cmds if c.get("proxy"))
        # The owner comes back: the seat is theirs again and waits for them.
        while h.waiting.pivot == sleeper:
            await trio.sleep(0)
        drain(h.clients[1])
        await h.act(sleeper, {"type": "Pass", "decision": 1})
        assert not h.table.clock.seats[sleeper].proxied
        assert any(e["type"] == "ProxyOff" for e in events_of(drain(h.clients[1])))
        while h.waiting.pivot != sleeper:
            await h.pass_(h.waiting.pivot)
        key = h.waiting.key
        await trio.sleep(9)
        assert h.waiting.key == key, "the owner's prompt waits for the owner again"
        await h.close()
