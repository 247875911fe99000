"""One authoritative actor per table: one task, one inbox, one log.

The actor applies messages in inbox order (trio's scheduler is not
deterministic, the inbox is), turns the rules' open decision into a timed
deadline, feeds expiry back as an ordinary timeout command, writes every
command and event to the store *before* anyone sees them, then fans each
event out projected per viewer, coalesced into one frame per viewer per step.

It knows the game only through `GamePort` and never awaits a client: every
frame goes into a bounded `Outbox` that evicts a client that falls behind.
The state it keeps is held by parts that each own theirs: the seats
(`settings.Seats`), the log (`journal.Journal`), the viewers
(`viewers.Viewers`), the clock (`clock.TableClock`); the actor decides, in
order, and the rest of the server asks it (`statistics`, `info`, `record`)
or sends it messages (`inbox`), never touching those parts.

A bug — an exception from the game's port or from the actor itself — ends
this table alone (`_fail`): it is logged with its traceback, marked failed
in the store with its record saved, its viewers get a `TableFailed` event,
and the actor goes on answering them (a snapshot, its history, `table/failed`
to commands) until the lobby lets it go. Every other table goes on.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from ...fairplay import dealing
from ...games.kit.port import SPECTATOR, TABLE_SEAT, GamePort, GameSetup, RulesRejection, rules_version
from ...protocol import messages as M
from ...protocol.codec import decode_any, encode
from ..ids import new_token
from ..outbox import Outbox
from ..stores import LogRecord, Store, StoreFenced
from . import turns
from .chat import ChatRate, chat_text
from .durable import Durable, Stopped
from .inbox import (
    Abandon,
    AccountJoin,
    AccountResume,
    Begin,
    CatchUp,
    Disconnected,
    Dismiss,
    OfferRematch,
    PreCommitJoin,
    Refused,
    Reserve,
    ResumeBot,
    SeatBot,
    Stop,
    next_message,
)
from .journal import LOG_SOFT_CAP, Journal
from .play import Play
from .recovery import recover
from .settings import (
    NONCE_MAX,
    NONCE_MIN,
    Seats,
    Slot,
    TableSettings,
    encode_meta,
    nonce_token,
    rematch_commitment,
    reveal_seed,
    token_hash,
)
from .statistics import Change, TableStatistics
from .viewers import Viewer, Viewers

log = logging.getLogger("oriente.table")

# What a table's viewers are told when a bug ends it. The error itself stays
# in the server's log: its text could name a hidden card.
FAILED_MESSAGE = "an error in the server ended this table; its record keeps the game up to here"
ENDED = frozenset({"finished", "failed"})
# Events after which the table's information in the lobby's listing is another.
LISTING_EVENTS = frozenset({"SeatTaken", "SeatLeft", "SeatPresence", "TableStarted", "TableFinished", "TableFailed",
                            "TableAbandoned", "SeatAway", "SeatBack", "ProxyOn", "ProxyOff"})
ABANDONED_MESSAGE = "this table was abandoned before its game began: nobody held a seat at it; create another"
LOG_FULL_MESSAGE = ("this table's log is full: chat and proposals are refused from now on, "
                    "while the game goes on to its end")
# An open table at which no client holds a seat for this long is abandoned (docs/table.md T6.1).
ABANDON_AFTER_S = 600.0
# Where an unloaded table's messages go: (table id, sender's outbox, message).
Redirect = Callable[[str, Outbox | None, Any], Awaitable[None]]


class Table:
    """The actor. Create with `Table(...)` (or `Table.restore`), run `await
    table.run()` in a nursery, talk to it with `await table.send(outbox,
    message)`, ask it with `statistics()`; `ended` is set once its game
    finished, it failed or was abandoned."""

    def __init__(self, table_id: str, settings: TableSettings, port: GamePort, setup: GameSetup, store: Store,
                 *, wall: Callable[[], float] = time.time, inbox_size: int = 1024,
                 abandon_after: float = ABANDON_AFTER_S, log_cap: int = LOG_SOFT_CAP) -> None:
        self.id = table_id
        self.settings = settings
        self.port = port
        self.setup = setup
        self.rules = rules_version(port, setup)  # the rules it started with, recorded with it
        self.store = store
        self.wall = wall
        self.status = "open"
        self.play = Play(port, settings)
        self.seats = Seats(settings.seats)
        self.journal = Journal(settings.seats, log_cap)
        self.viewers = Viewers(stage := weakref.proxy(self))  # weak: an ended table is no cycle (test_table_gc)
        self.chat = ChatRate(settings.seats)
        self._send, self._recv = trio.open_memory_channel[Any](inbox_size)
        self.ended = trio.Event()
        self.stopped = trio.Event()  # its actor has returned (stopped, handed over, or put to sleep)
        self.durable = Durable(table_id, self._recv, gone=lambda outbox: stage.viewers.gone(outbox, stage.seats),
                               reply=self.viewers.reply, flush=self.viewers.flush)
        self._change = Change()  # told after each message handled (`changed`)
        self.rematch_next: dict[str, Any] | None = None  # committed to as its game ended (T7.4)
        self.abandon_after = abandon_after  # T6.1
        self.seated_at = wall()  # when a seat was last taken or left (wall clock): T8.4
        self._info: tuple[bytes, float] | None = None  # info(), encoded, and when (`info_encoded`)
        # Seats taken and left a restored table did not log (`recovery.Recovered`, `CatchUp`).
        self._unlogged: tuple[list[int], list[int]] = ([], [])
        self.unloading: Redirect | None = None  # leaving memory (`Lobby.unload`): where later messages go

    @classmethod
    def restore(cls, table_id: str, meta: bytes, records: list[LogRecord], clock: bytes | None,
                port: GamePort, store: Store, *, paused_ms: int, wall: Callable[[], float] = time.time,
                replay: bool = True, log_cap: int = LOG_SOFT_CAP, abandon_after: float = ABANDON_AFTER_S,
                turn: tuple[float, float] | None = None) -> Table:
        """Rebuild a table from its meta and log (`recovery.recover`; raises TableError). Its deadline
        resumes with the time it had, less the `paused_ms` it ran after its clock was last saved (T4.1);
        `turn`: when its clock was saved and this server started, for a turn-based table (T8.3)."""
        found = recover(table_id, meta, records, port, replay=replay, log_cap=log_cap)
        table = cls(table_id, found.settings, port, found.setup, store, wall=wall, log_cap=log_cap,
                    abandon_after=abandon_after)
        table.seats, table.journal, table.rematch_next = found.seats, found.journal, found.rematch
        table.play.state, table.status, table.play.result = found.state, found.status, found.result
        table._unlogged = (found.unlogged_seats, found.unlogged_leaves)
        if clock is not None and table.status == "running":
            turns.resume_clock(table.play.clock, decode_any(clock), paused_ms, turn, wall)
        if table.status == "running" and replay:
            table._rearm()
        elif table.status in ENDED:
            table.ended.set()
        return table

    # -- talking to the actor ----------------------------------------------------

    async def send(self, outbox: Outbox | None, message: Any) -> None:
        """Queue a message; blocks only when the inbox is full (back-pressure on the sending connection
        alone). A stopped table drops it; one leaving memory hands it on (`Lobby.unload`)."""
        if self.unloading is not None and not isinstance(message, Stop):
            return await self.unloading(self.id, outbox, message)
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self._send.send((outbox, message))

    def changed(self) -> trio.Event:
        """An event set once the table has handled its next message or
        deadline (its seats, their connections or its status may then be
        others): to wait for a change rather than look again and again."""
        return self._change.next()

    def statistics(self) -> TableStatistics:
        """The table now, for the server's other parts."""
        return TableStatistics(status=self.status, seats=self.seats.statistics(), result=self.play.result,
                               seq=self.seq, log_bytes=self.journal.bytes, paused=self.durable.paused,
                               unattended_since=self.seats.unattended_since,
                               commitment=self.settings.commitment["sha256"] if self.settings.commitment else None,
                               watchers=len(self.viewers.subscribers))

    def seat_of(self, token: str) -> int | None:
        """The seat `token` holds here, or None."""
        return self.seats.of_token(token)

    @property
    def seq(self) -> int:
        return self.journal.seq

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event so far, full detail, decoded."""
        return self.journal.events

    # -- the loop --------------------------------------------------------------------

    async def run(self) -> None:
        pending: Any = CatchUp() if any(self._unlogged) or self._start_due() else None
        try:
            async with self._recv:
                while True:
                    if pending is None and self.durable.deferred:  # the server's messages that waited out a pause
                        pending = self.durable.deferred.pop(0)
                    d = self.play.clock.deadline
                    at = d.at if d is not None else math.inf
                    abandon_at = math.inf
                    outbox: Outbox | None = None
                    message: Any = pending
                    if pending is None:
                        abandon_at = self.abandon_at()
                        outbox, message = await next_message(self._recv, min(at, abandon_at))
                    pending = None
                    if isinstance(message, Stop):
                        if message.hand_over:
                            self.viewers.hand_over(message.url, also=outbox)
                        return
                    try:
                        if message is None and trio.current_time() >= abandon_at:
                            await self._abandon()
                        elif message is None:
                            await self._expire()
                        else:
                            await self._handle(outbox, message)
                        await self._settle_dropped()
                    except Stopped:
                        return
                    except StoreFenced:
                        # Another process of the site claimed this table (this one
                        # was paused or cut off past its lease): the step was not
                        # stored, so nothing of it was sent; its viewers resume there.
                        log.warning("table %s: another process owns it now; handing its viewers over", self.id)
                        self.viewers.hand_over(None, also=outbox)
                        return
                    except Exception as exc:  # a bug: it ends this table, never the server
                        if self.status == "failed":
                            log.exception("table %s (failed): an error while serving its viewers", self.id)
                        else:
                            await self._fail(exc)
                        if outbox is not None:  # the sender waits for an answer to this message
                            self.viewers.reply(outbox, M.error(getattr(message, "id", None), "table/failed",
                                                               FAILED_MESSAGE))
                    self.viewers.flush()
                    self._change.tell()
        finally:
            self.stopped.set()
            self._change.tell()

    def abandon_at(self) -> float:
        """When it is abandoned if nothing changes: open, nobody holding it for `abandon_after` (T6.1, T8.4)."""
        if self.settings.timers.turn_based:
            return turns.abandon_at(self.status, self.seated_at, self.wall())
        since = self.seats.idle_since(trio.current_time()) if self.status == "open" else None
        return math.inf if since is None else since + self.abandon_after

    async def _abandon(self) -> None:
        """T6.1: the table ends before its game began; its viewers hear it,
        the store keeps the status, the lobby lets it go."""
        self.status = "abandoned"
        event: dict[str, Any] = {"type": "TableAbandoned"}
        await self._commit(None, [event])
        await self.durable.write(lambda: self.store.update_table(self.id, status="abandoned", now=self.wall()))
        self.viewers.publish([event])
        self.ended.set()

    async def _settle_dropped(self) -> None:
        """A seat whose last connection was dropped while we published shows
        as disconnected, as if the transport had told us."""
        while self.viewers.dropped:
            await self._moved(self.viewers.dropped.pop(), None)

    async def _handle(self, outbox: Outbox | None, msg: Any) -> None:
        match msg:
            case Disconnected():
                await self._moved(self.viewers.forget(msg.outbox), None)
                return
            case OfferRematch():
                await self._offer_rematch(msg)
                return
            case Abandon():
                if self.abandon_at() < math.inf:
                    await self._abandon()
                else:
                    self.seats.unattended_since = None  # held (or started) meanwhile: not the lobby's to take
                msg.done.set()
                return
            case Dismiss():
                if self.status == "open":
                    self.ended.set()
                    await self.durable.write(lambda: self.store.update_table(self.id, status="abandoned",
                                                                        now=self.wall()))
                return
            case Reserve():
                await self._reserve(msg)
                return
            case Begin():
                await self._begin(msg)
                return
            case CatchUp():
                await self._catch_up()
                return
        assert outbox is not None
        try:
            await self._serve(outbox, msg)
        except Refused as exc:  # refused before anything changed: the sender hears why
            self.viewers.reply(outbox, M.error(getattr(msg, "id", None), exc.code, exc.message))

    async def _serve(self, outbox: Outbox, msg: Any) -> None:
        """A message that expects an answer: a client's, or a server bot's."""
        match msg:
            case M.Join() | SeatBot():
                await self._join(outbox, msg)
            case AccountJoin():
                await self._join(outbox, msg.join, msg.account)
            case PreCommitJoin():
                inner = msg.join
                await self._join(outbox, inner.join if isinstance(inner, AccountJoin) else inner,
                                 inner.account if isinstance(inner, AccountJoin) else None, own_nonce=False)
            case ResumeBot():
                slot = self.seats[msg.seat] if 0 <= msg.seat < len(self.seats) else None
                if slot is None or slot.bot is None:
                    raise Refused("seat/not_bot", f"seat {msg.seat} is not the server's")
                await self._subscribe(outbox, msg.seat, msg)
            case M.Leave():
                await self._leave(outbox, msg)
            case M.Start():
                await self._start(outbox, msg)
            case M.Resume() | AccountResume():  # T8.8: the latter, a seat by its account from any device
                await self._resume(outbox, msg)
            case M.Spectate():
                await self._subscribe(outbox, SPECTATOR, msg)
            case M.Unsubscribe():
                await self._moved(self.viewers.forget(outbox), None)
                self.viewers.reply(outbox, M.ok(msg.id))
            case M.Act():
                await self._act(outbox, msg)
            case M.Back():
                await self._back(outbox, msg)
            case M.Chat():
                await self._chat(outbox, msg)
            case _:
                raise Refused("message/unknown_type", f"{type(msg).__name__} is not a table message")

    # -- what the rest of the server reads --------------------------------------------

    def info(self) -> dict[str, Any]:
        """Public table information, for the lobby and snapshots."""
        return {"table": self.id, "game": self.settings.game, "status": self.status,
                "settings": self.settings.public_plain(self.setup.public),
                "seats": self.seats.public(self.play.clock), "seq": self.seq, "result": self.play.result}

    def info_encoded(self, now: float, max_age: float) -> bytes:
        """`info()` as msgpack, for the lobby's listing: kept until one of
        LISTING_EVENTS changes it, or `max_age` seconds pass (its `seq`
        moves with every event and may be that old)."""
        if self._info is None or now - self._info[1] > max_age:
            self._info = (encode(self.info()), now)
        return self._info[0]

    def meta(self) -> bytes:
        """The table as the store keeps it: settings and seats."""
        return encode_meta(self.settings, self.rules, self.seats, self.rematch_next)

    @property
    def settled(self) -> bool:
        """Whether the table has ended and its end is stored whole (the status says `finished`
        once the last step is decided, so that nothing more is taken, before it is written)."""
        return self.ended.is_set()

    def record(self) -> dict[str, Any]:
        """The game, fully revealed (`Journal.record`)."""
        return self.journal.record(table_id=self.id, game=self.settings.game, status=self.status,
                                   config=self.setup.record, seats=self.seats, result=self.play.result,
                                   commitment=self.settings.revealed() if self.status in ENDED else None)

    # -- durability ----------------------------------------------------------------

    async def create(self) -> None:
        """First write of a new table."""
        await self.store.create_table(self.id, "open", self.meta(), now=self.wall())
        await self._commit(None, [{"type": "TableOpened", "settings": self.settings.public_plain(self.setup.public)}])

    async def _commit(self, command: dict[str, Any] | None, new: list[dict[str, Any]]) -> None:
        """Sequence and persist a step; returns once durable. Nothing is
        sent before this returns (the log is the truth), and the table's
        memory of its log changes only once the store has it."""
        records = self.journal.prepare(command, new)
        clock = encode(self.play.clock.to_plain(trio.current_time()))
        seats = await self.play.index.changed(self)  # the seats by account, as the step leaves them
        await self.durable.write(lambda: self.store.append(self.id, records, clock=clock, now=self.wall(),
                                                           seats=seats))
        self.play.index.written()
        self.journal.took(command, records)
        if self._info is not None and any(e["type"] in LISTING_EVENTS for e in new):
            self._info = None

    async def _save_meta(self, **fields: Any) -> None:
        """Store the table's meta as it is now (with `fields`, a status)."""
        meta, self.seated_at = self.meta(), self.wall() if self.status == "open" else self.seated_at  # T8.4
        await self.durable.write(lambda: self.store.update_table(self.id, meta=meta, now=self.wall(), **fields))

    async def _tell(self, new: list[dict[str, Any]]) -> None:
        """Log the table's own events, then send them."""
        await self._commit(None, new)
        self.viewers.publish(new)

    # -- seating ---------------------------------------------------------------------

    async def _join(self, outbox: Outbox, msg: M.Join | SeatBot, account: dict[str, Any] | None = None, *,
                    own_nonce: bool = True) -> None:
        bot = msg.policy if isinstance(msg, SeatBot) else None
        token: str | None = None
        nonce = msg.nonce if isinstance(msg, M.Join) else None
        if nonce is not None:
            if not NONCE_MIN <= len(nonce) <= NONCE_MAX:
                raise Refused("message/invalid", f"a join nonce has {NONCE_MIN} to {NONCE_MAX} characters")
            token = nonce_token(self.id, nonce)
            seat = self.seats.of_token(token)
            if seat is not None:  # a retry: whatever happened since, the seat is this nonce's
                await self._rejoin(outbox, msg, seat, token)
                return
        if self.status == "abandoned":
            raise Refused("table/abandoned", ABANDONED_MESSAGE)
        if self.status != "open":
            raise Refused("table/started", "this table has started; you may spectate it")
        seat, name = self.seats.choose(msg.name, account, msg.seat, bot=bot is not None, table=self.settings)
        if token is None:
            token = new_token()
        # T7.1: the seat's nonce for the seed, from its join's secret nonce (hashed:
        # the record shows it); without one, the server supplies it at the start
        # from the committed salt (T7.2).
        contribution = dealing.seat_nonce(self.id, nonce) if nonce is not None and own_nonce else None
        self.seats.slots[seat] = Slot(name=name, token_hash=token_hash(token), connections=1, bot=bot,
                                      account=account, nonce=contribution)
        await self._save_meta()
        await self._tell([self.seats.taken_event(seat)])
        self.viewers.watch(outbox, seat, msg.views or outbox in self.viewers.wants_views)
        self.viewers.reply(outbox, M.ok(msg.id, table=self.id, seat=seat, token=token, seq=self.seq))
        self.viewers.snapshot(outbox, seat)
        if self._start_due():
            await self._start_game()

    async def _reserve(self, msg: Reserve) -> None:
        if self.status != "open" or not 0 <= msg.seat < self.settings.seats or self.seats[msg.seat] is not None:
            log.warning("table %s: seat %d cannot be reserved", self.id, msg.seat)
            return
        self.seats.slots[msg.seat] = Slot(name=msg.name, token_hash=msg.token_hash, account=msg.account)
        await self._save_meta()
        await self._tell([self.seats.taken_event(msg.seat)])

    async def _begin(self, msg: Begin) -> None:
        if self.status != "open" or not self.seats.full:
            return
        await self._start_game()
        proxied = [s for s in msg.proxied if 0 <= s < self.settings.seats]
        if proxied:
            self.play.clock.proxy(proxied)
            self._rearm()
            await self._tell([{"type": "ProxyOn", "seat": s} for s in proxied])

    def _start_due(self) -> bool:
        """Full, open, and starting by itself: it starts now (T6; the join
        that filled it starts it, unless the server stopped in between)."""
        return self.status == "open" and self.settings.auto_start and self.seats.full

    async def _catch_up(self) -> None:
        """After a restart, finish what the join the server stopped in did:
        its SeatTaken (the meta had the seat, the log not yet), and the start
        of a table that seat filled. Without this, a full table that starts
        by itself stayed open for ever, its seats held until abandoned."""
        seats, leaves = self._unlogged
        if seats or leaves:
            log.warning("table %s: seats %s taken and %s left were not logged when the server stopped; "
                        "logging them", self.id, seats, leaves)
            self._unlogged = ([], [])
            await self._tell([*({"type": "SeatLeft", "seat": seat} for seat in leaves),
                              *(self.seats.taken_event(seat) for seat in seats)])
        if self._start_due():
            log.warning("table %s: every seat was taken when the server stopped; starting it", self.id)
            await self._start_game()

    async def _rejoin(self, outbox: Outbox, msg: M.Join | SeatBot, seat: int, token: str) -> None:
        """A join retried with its nonce: the seat it took, its token again
        (`duplicate: true`), and this connection subscribed as that seat, as
        a `resume` would. Nothing else changes: not the name, not the seat."""
        previous = self.viewers.watch(outbox, seat, msg.views)
        self.viewers.reply(outbox, M.ok(msg.id, table=self.id, seat=seat, token=token, seq=self.seq, duplicate=True))
        self.viewers.snapshot(outbox, seat)
        await self._moved(previous, seat)
        if self._start_due():  # the join it retries filled the table, and the start did not follow
            await self._start_game()

    async def _leave(self, outbox: Outbox, msg: M.Leave) -> None:
        seat = self.seats.holder(msg.token)
        if self.status != "open":
            raise Refused("table/started", "a seat can be left only before the start")
        self.seats.slots[seat] = None
        self.viewers.seat_left(seat)
        await self._save_meta()
        await self._tell([{"type": "SeatLeft", "seat": seat}])
        self.viewers.reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _start(self, outbox: Outbox, msg: M.Start) -> None:
        self.seats.holder(msg.token)
        if self.status != "open":
            raise Refused("table/started", "the game has already started")
        if not self.seats.full:
            raise Refused("table/not_full", "every seat must be taken before the start")
        await self._start_game()
        self.viewers.reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _start_game(self) -> None:
        started: dict[str, Any] = {"type": "TableStarted"}
        if self.settings.dealt_by_nonces:
            self.settings, started["nonces"] = reveal_seed(self.settings, self.seats)
            # the game is configured with the seed (its port is determined by its seed and options)
            self.setup = self.port.configure(self.settings.seats, self.settings.seed, self.settings.options, {})
            if "supplied" in (c := self.settings.commitment or {}):
                started["supplied"] = c["supplied"]
        game_events = self.play.start(self.setup.config)
        self.status = "running"
        await self._save_meta(status="running")
        new = [started, *game_events]
        self._rearm()
        await self._tell(new)

    # -- subscriptions -------------------------------------------------------------

    async def _subscribe(self, outbox: Outbox, viewer: Viewer, msg: Any) -> None:
        previous = self.viewers.watch(outbox, viewer, msg.views)
        self.viewers.reply(outbox, M.ok(msg.id, table=self.id, you=viewer, seq=self.seq))
        self.viewers.history(outbox, viewer, msg.after)
        self.viewers.snapshot(outbox, viewer)
        await self._moved(previous, viewer)

    async def _moved(self, previous: Viewer | None, viewer: Viewer | None) -> None:
        """A connection watches as `viewer` now (None: no more), as `previous`
        before: the seats' presence follows."""
        if previous != viewer:
            if isinstance(previous, int):
                await self._presence(previous, -1)
            if isinstance(viewer, int):
                await self._presence(viewer, +1)

    async def _resume(self, outbox: Outbox, msg: M.Resume | AccountResume) -> None:
        seat = self.seats.holder(msg.token) if isinstance(msg, M.Resume) else self.seats.account_holder(msg.account)
        if msg.nonce is not None:
            if not NONCE_MIN <= len(msg.nonce) <= NONCE_MAX:
                raise Refused("message/invalid", f"a resume nonce has {NONCE_MIN} to {NONCE_MAX} characters")
            await self._bring_nonce(seat, msg.nonce)
        await self._subscribe(outbox, seat, msg)

    async def _bring_nonce(self, seat: int, nonce: str) -> None:
        """T7.1: the holder of a seat that has no nonce of its own yet (a
        reserved tournament seat, a join without one) brings one before the
        start. The first one counts; later ones change nothing."""
        slot = self.seats[seat]
        if slot is None or slot.nonce is not None or self.status != "open" or not self.settings.dealt_by_nonces:
            return
        slot.nonce = dealing.seat_nonce(self.id, nonce)
        await self._save_meta()

    async def _presence(self, seat: int, delta: int) -> None:
        connected = self.seats.connect(seat, delta)
        # After the end the table information still says who is connected,
        # but the log does not: TableFinished is the game's last event, and
        # players leaving an ended table are not news (PROTOCOL.md 9).
        if connected is not None and self.status not in ENDED:
            await self._tell([{"type": "SeatPresence", "seat": seat, "connected": connected}])

    # -- play ----------------------------------------------------------------------

    async def _act(self, outbox: Outbox, msg: M.Act) -> None:
        seat = self.viewers.seat(outbox, "resume your seat with its token before sending commands")
        if self.status != "running":
            raise Refused(*{"finished": ("game/over", "the game has ended"), "failed": ("table/failed", FAILED_MESSAGE),
                            "abandoned": ("table/abandoned", ABANDONED_MESSAGE)}.get(
                                self.status, ("table/not_started", self.seats.not_started(self.settings.auto_start))))
        if msg.id is not None and msg.id in self.journal.cids[seat]:
            self.viewers.reply(outbox, M.ok(msg.id, duplicate=True, seq=self.seq))
            return
        if self.journal.full() and self.play.is_talk(msg.cmd):
            raise Refused("table/log_full", LOG_FULL_MESSAGE)
        new = self.play.clock.attended(seat)  # any command brings an away seat back (docs/table.md T2.2, T3.6)
        try:
            game_events = self.play.apply(seat, msg.cmd)
        except RulesRejection as exc:
            if new:
                await self._tell(new)
            self.viewers.reply(outbox, M.error(msg.id, exc.code, exc.message))
            return
        if msg.id is not None:
            self.journal.cids[seat].add(msg.id)
        new.extend(game_events)
        command = {"seat": seat, "cid": msg.id, "cmd": msg.cmd, "at": self.wall()}
        await self._step(command, new, game_events, sender=outbox)
        self.viewers.reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _back(self, outbox: Outbox, msg: M.Back) -> None:
        """`back`: an away or proxied seat is attended again without sending
        a game command (which, for an away seat, would often come too late
        and be refused). Harmless when the seat is neither, or when the game
        is not running."""
        seat = self.viewers.seat(outbox, "resume your seat with its token before sending back")
        new = self.play.clock.attended(seat) if self.status == "running" else []
        if new:
            await self._tell(new)
        self.viewers.reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _expire(self) -> None:
        """The armed deadline passed: silence means what the rules say, unless
        the seat proxy answers for the seat (T3: at once, whatever its hidden
        cards, so its timing tells nothing; through the log as the seat's)."""
        waiting = self.play.due(self.status == "running", trio.current_time())
        if waiting is None:
            return
        if waiting.pivot is not None and self.play.clock.seats[waiting.pivot].proxied:
            move = self.play.proxy_move(waiting.pivot, self.id)
            if move is not None:
                await self._step({"seat": waiting.pivot, "cid": None, "cmd": move[0], "at": self.wall(),
                                  "proxy": True}, list(move[1]), move[1])
                return
        cmd, new, game_events = self.play.silence(waiting)
        await self._step({"seat": TABLE_SEAT, "cid": None, "cmd": cmd, "at": self.wall()}, new, game_events)

    async def _step(self, command: dict[str, Any], new: list[dict[str, Any]],
                    game_events: list[dict[str, Any]], *, sender: Outbox | None = None) -> None:
        self._rearm(refills=self.port.refills(game_events))
        finished = self.play.ended()
        if finished:
            self.status = "finished"
            ending: dict[str, Any] = {"type": "TableFinished", "result": self.play.result}
            announced = await self._commit_rematch()
            if announced is not None:
                ending["rematch"] = announced
            new.append(ending)
        await self._commit(command, new)
        if finished:
            # The end is stored whole (its events, then the record and the
            # status) before anyone is told: a client that saw TableFinished
            # finds the table finished in the store, whatever happens next.
            self.journal.end = self.seq
            await self.durable.write(lambda: self.store.save_record(self.id, encode(self.record())))
            await self.durable.write(lambda: self.store.update_table(self.id, status="finished", now=self.wall()))
        self.viewers.publish(new, also=sender)
        if finished:
            self.ended.set()

    async def _fail(self, exc: Exception) -> None:
        """End this table after a bug, and only this table. Whatever the
        store still takes is kept: the TableFailed event after the last
        step that was stored, the status, and the record of the game so far.
        Viewers hear of it even if the store does not take it (its seq is
        then the one it would have had)."""
        log.error("table %s failed; it ends here, every other table goes on", self.id, exc_info=exc)
        self.status = "failed"
        self.play.clock.deadline = None
        event: dict[str, Any] = {"type": "TableFailed", "message": FAILED_MESSAGE}
        try:
            await self._commit(None, [event])
            self.journal.end = self.seq
            await self.store.update_table(self.id, status="failed", now=self.wall())
            await self.store.save_record(self.id, encode(self.record()))
        except Exception:
            log.exception("table %s: the store did not take all of its failure", self.id)
            event.setdefault("seq", self.seq + 1)
        self.viewers.publish([event])
        self.ended.set()

    def _rearm(self, refills: int = 0) -> None:
        self.play.rearm(self.status == "running", trio.current_time(), refills)

    # -- chat and rematch --------------------------------------------------------------

    async def _chat(self, outbox: Outbox, msg: M.Chat) -> None:
        seat = self.viewers.seat(outbox, "only seated players chat at a table")
        text = chat_text(msg.text)
        if self.journal.full():
            raise Refused("table/log_full", LOG_FULL_MESSAGE)
        self.chat.take(seat, trio.current_time())
        slot = self.seats[seat]
        await self._tell([{"type": "Chat", "seat": seat, "name": slot.name if slot else "", "text": text}])
        self.viewers.reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _commit_rematch(self) -> dict[str, str] | None:
        """T7.4: as the game ends, draw its rematch's table id and salt, store
        them, and announce the table and its commitment: a player asking for
        the rematch sends its nonce after the server is bound, as at any table."""
        nxt = rematch_commitment(self.port, self.settings, self.setup)
        if nxt is None:
            return None
        self.rematch_next = nxt
        await self._save_meta()
        return {"table": nxt["table"], "commitment": nxt["commitment"]}

    async def _offer_rematch(self, msg: OfferRematch) -> None:
        """Everyone who watched this game hears of its rematch, once."""
        if self.status in ENDED:
            await self._tell([{"type": "RematchOffered", "table": msg.table, "seat": msg.seat}])
