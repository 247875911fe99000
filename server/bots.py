"""Bots the server runs itself, to fill the empty seats of a table.

A person in a browser who wants a game now asks for bots (`add_bots`);
nobody should have to run a bot program for that. Each bot here is an
ordinary subscriber of the table: it joins through the actor's inbox like
a connection, receives the same frames (its own projected events, prompt
and view), and sends the same `act` messages. So the actor needs no
change and cannot tell a server bot from a remote one, and a bot knows only
what its seat may know (R10.4, R10.2d).

Game-agnostic: what to answer comes from a policy, `choose(view, prompt,
rng) -> command | None` and `offer(view, prompt, rng) -> proposal | None`
(the game's reference policies); when to answer is the protocol's own rule
(the pivot answers; deal answers any time).

A bot waits `delay` seconds before it acts, so that people at the table can
follow the game; it then acts on the newest frame it has. Bots live in
memory only: after a server restart their seats go quiet, time out and are
marked away (R10.3), or played by the seat proxy where the table has one.
A bot that fails is logged and stops; it never takes the server down.
"""

from __future__ import annotations

import itertools
import logging
import random
from typing import Any, Mapping, Protocol

import trio

from ..protocol import messages as M
from ..protocol.codec import decode_any
from .outbox import Outbox
from .table import Disconnected, Table

log = logging.getLogger("oriente.bots")

NAMES = ("Aiko", "Benkei", "Chiyo", "Daisuke", "Emi", "Fumio", "Goro", "Hana", "Isamu", "Jun", "Kaede", "Ren")
DEAL_ANSWERS = frozenset({"AcceptDeal", "DeclineDeal", "WithdrawDeal", "SettlePromise"})


class BotPolicy(Protocol):
    def choose(self, view: dict, prompt: dict | None, rng: random.Random) -> dict | None: ...
    def offer(self, view: dict, prompt: dict | None, rng: random.Random) -> dict | None: ...


class BotError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class BotRunner:
    """Seats and runs server bots; `kinds` are the policy names offered."""

    def __init__(self, policies: Mapping[str, BotPolicy], nursery: trio.Nursery, *, delay: float = 1.0) -> None:
        self.policies = dict(policies)
        self.nursery = nursery
        self.delay = delay
        self._ids = itertools.count(1)
        self.running = 0

    @property
    def kinds(self) -> list[str]:
        return sorted(self.policies)

    async def add(self, table: Table, token: str, kind: str, count: int | None) -> list[int]:
        """Seat up to `count` bots (all free seats when None) of policy
        `kind` at `table`, on behalf of the seat holding `token`; return the
        seats they took. A bot's join is an ordinary join: if the table
        fills and starts on its own, it does so as for people."""
        if kind not in self.policies:
            raise BotError("bots/unknown", f"no bot called {kind!r}; there are {', '.join(self.kinds)}")
        if table.seat_of(token) is None:
            raise BotError("auth/bad_token", "only a seated player may add bots; join first")
        if table.status != "open":
            raise BotError("table/started", "bots fill seats only before the start")
        free = sum(1 for s in table.slots if s is None)
        if count is not None and not 1 <= count <= free:
            raise BotError("bots/bad_count", f"count is between 1 and the {free} free seats")
        taken_names = {s.name for s in table.slots if s is not None}
        names = [f"{n} (bot)" for n in NAMES if f"{n} (bot)" not in taken_names]
        seats: list[int] = []
        for i in range(free if count is None else count):
            outbox = Outbox(label=f"bot {table.id}")
            seat = await self._join(table, outbox, names[i % len(names)])
            if seat is None:
                break
            seats.append(seat)
            rng = random.Random(f"{table.id}-{seat}")
            self.nursery.start_soon(self._run, table, outbox, seat, self.policies[kind], rng,
                                    name=f"bot {table.id}/{seat}")
        return seats

    async def _join(self, table: Table, outbox: Outbox, name: str) -> int | None:
        cid = f"bot-{next(self._ids)}"
        await table.send(outbox, M.Join(id=cid, table=table.id, name=name, views=True))
        with trio.move_on_after(10):
            async for frame in outbox.receive:
                msg = decode_any(frame)
                if msg.get("re") == cid:
                    return msg.get("seat") if msg.get("t") == "ok" else None
        return None

    async def _run(self, table: Table, outbox: Outbox, seat: int, policy: BotPolicy, rng: random.Random) -> None:
        self.running += 1
        bot = _Bot(table, outbox, seat, policy, rng, self.delay)
        try:
            await bot.play()
        except Exception:  # a bot is a guest: its failure must not take the server down
            log.exception("table %s: the bot at seat %d failed and stopped", table.id, seat)
        finally:
            self.running -= 1
            if not bot.finished:  # after TableFinished a table records nothing more
                with trio.CancelScope(shield=True), trio.move_on_after(2):
                    await table.send(None, Disconnected(outbox))


class _Bot:
    def __init__(self, table: Table, outbox: Outbox, seat: int, policy: BotPolicy, rng: random.Random,
                 delay: float) -> None:
        self.table, self.outbox, self.seat = table, outbox, seat
        self.policy, self.rng, self.delay = policy, rng, delay
        self.prompt: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.finished = False
        self.done: set[tuple[Any, ...]] = set()  # answers given, so none is sent twice
        self.ids = itertools.count(1)

    def _take(self, frame: bytes) -> bool:
        """Read one frame; True if it may call for an answer."""
        msg = decode_any(frame)
        if msg.get("t") != "events" or msg.get("history"):
            return False
        if any(e.get("type") == "TableFinished" for e in msg.get("events") or ()):
            self.finished = True
            return False
        self.prompt = msg.get("prompt")
        if msg.get("view") is not None:
            self.view = msg["view"]
        return self.prompt is not None and self.view is not None

    async def play(self) -> None:
        async for frame in self.outbox.receive:
            if not self._take(frame):
                if self.finished:
                    return
                continue
            command = self._decide()
            if command is None:
                continue
            if self.delay:
                await trio.sleep(self.delay)
                while True:  # act on the newest state, not on the one that woke us
                    try:
                        self._take(self.outbox.receive.receive_nowait())
                    except trio.WouldBlock:
                        break
                if self.finished:
                    return
            command = self._decide(again=command)
            if command is not None:
                await self.table.send(self.outbox, M.Act(id=f"b{self.seat}-{next(self.ids)}",
                                                         table=self.table.id, cmd=command))

    def _decide(self, again: dict | None = None) -> dict | None:
        """The command to send now, or None. `again`: a command chosen
        before the delay, confirmed against the newest prompt."""
        prompt, view = self.prompt, self.view
        if prompt is None or view is None:
            return None
        cmd = self.policy.choose(view, prompt, self.rng)
        key: tuple[Any, ...] | None = None
        if cmd is not None and cmd.get("type") in DEAL_ANSWERS:
            key = (cmd["type"], cmd.get("deal"), cmd.get("promise"))
        elif cmd is not None and prompt.get("pivot") == self.seat and cmd in (prompt.get("legal") or []):
            key = ("answer", prompt.get("id"), self.seat)
        elif prompt.get("kind") == "window" and self.seat in (prompt.get("early") or []):
            offer = self.policy.offer(view, prompt, self.rng)
            cmd, key = offer, ("offer", prompt.get("id"))
        if cmd is None or key is None or key in self.done:
            return None
        if again is None:
            return cmd  # chosen; confirmed (and marked done) after the delay
        self.done.add(key)
        return cmd
