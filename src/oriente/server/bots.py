"""Bots the server runs itself, to fill the empty seats of a table.

A person in a browser who wants a game now asks for bots (`add_bots`);
nobody should have to run a bot program for that. Each bot here is an
ordinary subscriber of the table: it joins through the actor's inbox like
a connection, receives the same frames (its own projected events, prompt
and view), and sends the same `act` messages. So a bot knows only what its
seat may know, and the actor applies its commands like anyone's.

Game-agnostic: what a bot sends is its game's reference play (the port's
`bot_move`, one of the port's `policies`), from the view and prompt of the
newest frame; the runner only decides when, and sends each answer once.

A bot decides once on the newest frame it has, and only once the table
has answered its last command (so it never decides on a state its own
command is about to change); it then sends its answer `delay` seconds after
the frame that called for it, whatever it decided, so that people at the
table can follow the game and its timing says nothing of its cards. Its seat belongs
to the server (`SeatBot`: the table stores the policy with the seat), so
after a restart `recover` runs every bot of the recovered tables again.
A bot that fails is logged and stops; it never takes the server down.
"""

from __future__ import annotations

import itertools
import logging
import random
import secrets
from collections.abc import Iterable
from typing import Any

import trio

from ..games.kit.port import BotMove
from ..protocol import messages as M
from ..protocol.codec import decode_any
from ..refusal import Refusal
from .outbox import Outbox
from .table import Disconnected, ResumeBot, SeatBot, Table

log = logging.getLogger("oriente.bots")

NAMES = ("Aiko", "Benkei", "Chiyo", "Daisuke", "Emi", "Fumio", "Goro", "Hana", "Isamu", "Jun", "Kaede", "Ren")
JOIN_TIMEOUT_S = 10.0
# How often a bot gives an answer again that the table refused (the state
# moved under it): enough for a race, never a loop of refusals.
MAX_REFUSALS = 3


class BotError(Refusal):
    """A request for the server's bots it will not do (`bots/...`): not a strike."""


def _current_name(table: Table, policy: str) -> str:
    """A bot's current name: an old name the game still takes (its port's
    `policy_aliases`, e.g. Oriente's `negotiator`) maps to the bot it names."""
    return str(table.port.policy_aliases.get(policy, policy))


class BotRunner:
    """Seats and runs server bots in `nursery`."""

    def __init__(self, nursery: trio.Nursery, *, delay: float = 1.0) -> None:
        self.nursery = nursery
        self.delay = delay
        self._ids = itertools.count(1)
        self.running = 0

    async def add(self, table: Table, token: str, policy: str | None, count: int | None) -> list[int]:
        """Seat up to `count` bots (all free seats when None) of `policy`
        (None: the game's default) at `table`, on behalf of the seat holding
        `token`; return the seats they took. A bot's join is an ordinary
        join: if the table fills and starts on its own, it does so as for
        people."""
        kinds = table.port.policies
        if not kinds:
            raise BotError("bots/unavailable", f"this server has no bots for {table.port.name}")
        kind = kinds[0] if policy is None else _current_name(table, policy)
        if kind not in kinds:
            raise BotError("bots/unknown", f"no bot called {kind!r}; there are {', '.join(kinds)}")
        if table.seat_of(token) is None:
            raise BotError("auth/bad_token", "only a seated player may add bots; join first")
        if table.settings.rated:
            raise BotError("bots/rated", "a rated table seats only signed-in accounts; the server's bots have "
                                         "none (a bot of your own joins with its API token)")
        now = table.statistics()
        if now.status != "open":
            raise BotError("table/started", "bots fill seats only before the start")
        free = now.free
        if count is not None and not 1 <= count <= len(free):
            raise BotError("bots/bad_count", f"count is between 1 and the {len(free)} free seats")
        return await self.seat(table, dict.fromkeys(free[:count], kind))

    async def seat(self, table: Table, seats: dict[int, str], *, names: dict[int, str] | None = None) -> list[int]:
        """Seat a bot of the given policy at each of these seats (a rematch
        seats the bots where they sat), under `names` where given (a
        tournament's entrants); return the seats taken."""
        taken_names = {s.name for s in table.statistics().seats if s is not None}
        spare = iter([f"{n} (bot)" for n in NAMES if f"{n} (bot)" not in taken_names] * 2)
        done: list[int] = []
        for seat, policy in seats.items():
            outbox = Outbox(label=f"bot {table.id}")
            cid = f"bot-{next(self._ids)}"
            name = (names or {}).get(seat) or next(spare, f"Bot {seat} (bot)")
            if not await self._enter(table, outbox, SeatBot(id=cid, name=name, policy=policy, seat=seat)):
                break
            done.append(seat)
            self._start(table, outbox, seat, policy)
        return done

    def recover(self, tables: Iterable[Table]) -> int:
        """After a restart: run the bot of every server seat of these
        (recovered) tables again; return how many."""
        count = 0
        for table in tables:
            now = table.statistics()
            if now.status not in ("open", "running"):
                continue
            for seat, slot in enumerate(now.seats):
                if slot is not None and slot.bot is not None:
                    self.nursery.start_soon(self._resume, table, seat, slot.bot, name=f"bot {table.id}/{seat}")
                    count += 1
        return count

    async def _resume(self, table: Table, seat: int, policy: str) -> None:
        outbox = Outbox(label=f"bot {table.id}")
        policy = _current_name(table, policy)  # a seat stored under an old name plays on as the bot it names now
        if policy not in table.port.policies:
            log.error("table %s: seat %d's bot %r is not served any more", table.id, seat, policy)
            return
        if await self._enter(table, outbox, ResumeBot(id=f"bot-{next(self._ids)}", seat=seat)):
            await self._run(table, outbox, seat, policy)

    async def _enter(self, table: Table, outbox: Outbox, message: SeatBot | ResumeBot) -> bool:
        """Send the seat's join (or resume) and wait for the table's answer.

        A busy server may take a while to answer (a restart recovers every
        table at once): the bot waits as long as the table lives, and says
        so in the log each JOIN_TIMEOUT_S, rather than giving up its seat in
        silence and leaving the table waiting on a bot that never comes."""
        await table.send(outbox, message)
        waited = 0.0
        while True:
            with trio.move_on_after(JOIN_TIMEOUT_S):
                async for frame in outbox.receive:
                    msg = decode_any(frame)
                    if msg.get("re") == message.id:
                        if msg.get("t") != "ok":
                            log.warning("table %s: the bot's %s was refused: %s", table.id,
                                        type(message).__name__, msg.get("code"))
                        return bool(msg.get("t") == "ok")
                return False  # the table closed the bot's outbox
            waited += JOIN_TIMEOUT_S
            if table.statistics().status not in ("open", "running"):
                return False
            log.warning("table %s: seat %s's bot still waits for the table after %.0f s", table.id,
                        message.seat, waited)

    def _start(self, table: Table, outbox: Outbox, seat: int, policy: str) -> None:
        self.nursery.start_soon(self._run, table, outbox, seat, policy, name=f"bot {table.id}/{seat}")

    async def _run(self, table: Table, outbox: Outbox, seat: int, policy: str) -> None:
        self.running += 1
        bot = _Bot(table, outbox, seat, policy, random.Random(f"{table.id}-{seat}"), self.delay)
        try:
            await bot.play()
        except Exception:  # a bot is a guest: its failure must not take the server down
            log.exception("table %s: the bot at seat %d failed and stopped", table.id, seat)
        finally:
            self.running -= 1
            # Gone, also after the end (which logs no presence then): a
            # finished table nobody follows leaves memory at once (lobby).
            with trio.CancelScope(shield=True), trio.move_on_after(2):
                await table.send(None, Disconnected(outbox))


class _Bot:
    def __init__(self, table: Table, outbox: Outbox, seat: int, policy: str, rng: random.Random,
                 delay: float) -> None:
        self.table, self.outbox, self.seat = table, outbox, seat
        self.policy, self.rng, self.delay = policy, rng, delay
        self.prompt: dict[str, Any] | None = None
        self.view: dict[str, Any] | None = None
        self.finished = False
        self.done: set[tuple[Any, ...]] = set()  # keys of the answers sent, so none is sent twice
        self.memo: dict[str, Any] = {}  # the policy's notes for this game
        self.awaiting: str | None = None  # the id of our last command, until the table answers it
        self.sent_key: tuple[Any, ...] | None = None  # the key of that command
        self.refusals: dict[tuple[Any, ...], int] = {}  # refused answers, by key: each retried a few times
        self.ids = itertools.count(1)
        # Command ids are unique per table, across restarts too: the table
        # would take a reused id for a retry and not apply the command.
        self.prefix = f"b{seat}-{secrets.token_hex(4)}"

    def _take(self, frame: bytes) -> bool:
        """Read one frame; True if it may call for an answer (news, or the
        table's answer to our last command)."""
        msg = decode_any(frame)
        kind = msg.get("t")
        if kind in ("ok", "error"):
            if self.awaiting is not None and msg.get("re") == self.awaiting:
                if kind == "error" and self.sent_key is not None:
                    # Refused: the state moved under it (another command applied, a
                    # decision closed). The answer was not given, so the bot
                    # may give it again on the newest state; without this it
                    # fell silent and the table waited out its clock.
                    log.info("table %s: seat %d's bot was refused (%s); it decides again", self.table.id,
                             self.seat, msg.get("code"))
                    self.refusals[self.sent_key] = self.refusals.get(self.sent_key, 0) + 1
                    if self.refusals[self.sent_key] <= MAX_REFUSALS:
                        self.done.discard(self.sent_key)
                self.awaiting = None  # applied (or refused): we may decide again
                return True
            return False
        if kind == "snapshot":
            self.prompt, self.view = msg.get("prompt"), msg.get("view")
            return self.view is not None
        if kind != "events" or msg.get("history"):
            return False
        if any(e.get("type") in ("TableFinished", "TableFailed") for e in msg.get("events") or ()):
            self.finished = True
            return False
        self.prompt = msg.get("prompt")
        if msg.get("view") is not None:
            self.view = msg["view"]
        return self.prompt is not None and self.view is not None

    def _move(self) -> BotMove | None:
        if self.view is None:
            return None
        move = self.table.port.bot_move(self.policy, self.seat, self.view, self.prompt, self.rng, self.memo)
        return None if move is None or (move.key in self.done and not move.again) else move

    async def play(self) -> None:
        """Read frames; once the table has answered our last command and
        news came, decide once on the newest frame, then send the answer
        `delay` seconds after the frame that called for it (deciding first,
        then waiting out the rest): whatever we answer, it goes out at the
        same moment, so our timing says nothing about our cards (as the
        proxy's, docs/table.md T3.3)."""
        receive = self.outbox.receive
        stale, since = False, 0.0
        while True:
            try:
                frame = await receive.receive()
            except trio.EndOfChannel:
                return
            if self._take(frame):
                stale, since = True, trio.current_time()
            while True:  # decide on the newest state, not on the one that woke us
                try:
                    frame = receive.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                if self._take(frame):
                    stale = True
            if self.finished:
                return
            if not stale or self.awaiting is not None:
                continue  # nothing new, or our last command is not applied yet
            stale = False
            move = self._move()
            if move is None:
                continue
            wait = since + self.delay - trio.current_time()
            if wait > 0:
                await trio.sleep(wait)
            self.done.add(move.key)
            self.sent_key = move.key
            self.awaiting = f"{self.prefix}-{next(self.ids)}"
            await self.table.send(self.outbox, M.Act(id=self.awaiting, table=self.table.id, cmd=move.command))
