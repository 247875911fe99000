"""A table actor driven directly under trio's MockClock, for any game: its
seats are outboxes, its store the memory store. No sockets and no sleeps: a
30-second prompt takes microseconds."""

from __future__ import annotations

from typing import Any

import trio
from trio.testing import wait_all_tasks_blocked

from oriente.games.kit.port import GamePort, Waiting
from oriente.protocol import messages as M
from oriente.protocol.codec import decode_any
from oriente.server.clock import TimerSettings
from oriente.server.outbox import Outbox
from oriente.server.stores import MemoryStore
from oriente.server.table import Stop, Table, TableSettings

HUMANS = TimerSettings(prompt_ms=10_000, window_ms=5_000, bank_ms=20_000, bank_refill_ms=0,
                       zero_wait=False, away_after=2)
WALL = 1_000_000.0


def drain(outbox: Outbox) -> list[dict[str, Any]]:
    frames = []
    while True:
        try:
            frames.append(decode_any(outbox.receive.receive_nowait()))
        except trio.WouldBlock:
            return frames


def events_of(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for f in frames if f["t"] == "events" for e in f["events"]]


class Harness:
    def __init__(self, table: Table, clients: list[Outbox], store: MemoryStore, *, owns_store: bool,
                 prefer: tuple[str, ...] = ("Pass",)) -> None:
        self.table, self.clients, self.store = table, clients, store
        self.owns_store = owns_store
        self.prefer = prefer
        self.n = 0
        # The port the test asks about the game; the table's own, unless the
        # test must not touch that one (a port that counts its calls).
        self.port: GamePort = table.port

    @property
    def waiting(self) -> Waiting | None:
        return self.port.waiting(self.table.play.state)

    @property
    def pivot(self) -> int:
        waiting = self.waiting
        assert waiting is not None and waiting.pivot is not None, waiting
        return waiting.pivot

    def prompt(self, viewer: int | str) -> dict[str, Any] | None:
        return self.port.prompts(self.table.play.state, [viewer])[viewer]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        prompt = self.prompt(seat)
        return prompt["legal"] if prompt else []

    def answers(self, seat: int) -> list[dict[str, Any]]:
        """The seat's commands that answer the open decision (deals left out)."""
        prompt = self.prompt(seat)
        return [c for c in self.legal(seat) if prompt and c.get("decision") == prompt["id"]]

    def commands(self) -> list[dict[str, Any]]:
        """Every command the table logged, decoded."""
        return [decode_any(r.body) for r in self.store.logs[self.table.id] if r.kind == "cmd"]

    async def act(self, seat: int, cmd: dict[str, Any], cid: Any = None) -> None:
        self.n += 1
        await self.table.send(self.clients[seat], M.Act(id=cid if cid is not None else self.n,
                                                        table=self.table.id, cmd=cmd))
        await wait_all_tasks_blocked()

    async def answer(self, seat: int) -> None:
        """The first answer of a type in `prefer` (Pass, by default) where
        one is legal; else the decision's first answer."""
        options = self.answers(seat)
        await self.act(seat, next((c for kind in self.prefer for c in options if c["type"] == kind), options[0]))

    def drain_all(self) -> list[list[dict[str, Any]]]:
        return [drain(c) for c in self.clients]

    async def close(self) -> None:
        """Stop the actor (and the store, if the harness made it)."""
        await self.table.send(None, Stop())
        if self.owns_store:
            await self.store.aclose()


async def open_table(nursery: trio.Nursery, port: GamePort, *, seats: int, timers: TimerSettings = HUMANS,
                     seed: int = 3, store: MemoryStore | None = None, capacity: int = 1000,
                     proxy_after: int | None = None, options: dict[str, Any] | None = None,
                     prefer: tuple[str, ...] = ("Pass",)) -> Harness:
    """A table of `port`'s game with every seat taken: the game has started."""
    owns_store = store is None
    if store is None:
        store = MemoryStore()
        await nursery.start(store.run)
    # A new table, as the lobby configures it: with the port's options for new tables.
    setup = port.configure(seats, seed, {**port.new_table_options, **(options or {})}, {})
    settings = TableSettings(game=port.name, seats=seats, seed=seed, timers=timers, options=setup.options,
                             proxy_after=proxy_after)
    table = Table("t1", settings, port, setup, store, wall=lambda: WALL + trio.current_time())
    await table.create()
    nursery.start_soon(table.run)
    clients = []
    for i in range(seats):
        outbox = Outbox(capacity)
        await table.send(outbox, M.Join(id=f"j{i}", table="t1", name=f"p{i}"))
        clients.append(outbox)
    await wait_all_tasks_blocked()
    h = Harness(table, clients, store, owns_store=owns_store, prefer=prefer)
    h.drain_all()
    return h
