"""One authoritative actor per table: one task, one inbox, one log.

The actor applies messages in inbox order (trio's scheduler is not
deterministic, the inbox is), turns the rules' open decision into a timed
deadline, feeds expiry back as an ordinary timeout command, writes every
command and event to the store *before* anyone sees them, then fans each
event out projected per viewer, coalesced into one frame per viewer per step.

It knows the game only through `GamePort` and never awaits a client: every
frame goes into a bounded `Outbox` that evicts a client that falls behind.

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
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import trio

from ...games.kit.port import TABLE_SEAT, GamePort, GameSetup, RulesRejection, SettingsError, replayable, rules_version
from ...protocol import messages as M
from ...protocol.codec import decode_any, encode
from .. import dealing
from ..clock import Deadline, TableClock
from ..names import MAX_NAME, NameRefused, clean_name, looks_alike
from ..outbox import Outbox
from ..stores import LogRecord, Store, StoreError, StoreFenced
from .inbox import (
    Abandon,
    AccountJoin,
    Begin,
    CatchUp,
    Disconnected,
    OfferRematch,
    PreCommitJoin,
    Reserve,
    ResumeBot,
    SeatBot,
    Stop,
)
from .settings import NONCE_MAX, NONCE_MIN, Slot, TableSettings, nonce_token, rematch_setup, slot_plain, token_hash

log = logging.getLogger("oriente.table")

SPECTATOR = "spectator"
RECORD_FORMAT = "oriente.record.v1"
# Events the table itself records around the game; all of them are public.
TABLE_EVENTS = frozenset({
    "TableOpened", "SeatTaken", "SeatLeft", "TableStarted", "Chat", "SeatAway", "SeatBack",
    "SeatPresence", "TableFinished", "TableFailed", "ProxyOn", "ProxyOff", "RematchOffered", "TimedOut",
    "TableAbandoned",
})
# What a table's viewers are told when a bug ends it. The error itself stays
# in the server's log: its text could name a hidden card.
FAILED_MESSAGE = "an error in the server ended this table; its record keeps the game up to here"
ENDED = frozenset({"finished", "failed"})
# Events after which the table's information in the lobby's listing is another.
LISTING_EVENTS = frozenset({"SeatTaken", "SeatLeft", "SeatPresence", "TableStarted", "TableFinished", "TableFailed",
                            "TableAbandoned", "SeatAway", "SeatBack", "ProxyOn", "ProxyOff"})
ABANDONED_MESSAGE = "this table was abandoned before its game began: nobody held a seat at it; create another"
# A store that refuses writes pauses the table (docs/table.md T4.4): it
# retries after STORE_RETRY_MIN_S, doubling up to STORE_RETRY_MAX_S.
STORE_RETRY_MIN_S = 0.5
STORE_RETRY_MAX_S = 10.0
STORE_PAUSED_MESSAGE = ("the server cannot save this table's moves right now; the table is paused and "
                        "resumes by itself once it can: send again in a few seconds")
MAX_CHAT = 500
HISTORY_CHUNK = 256
# A table's log is bounded by what it lets people say (docs/table.md T5.4):
# past this many bytes of log, chat and the game's talk (port.talk_commands)
# are refused; the game itself goes on to its end.
LOG_SOFT_CAP = 4 * 1024 * 1024
LOG_FULL_MESSAGE = ("this table's log is full: chat and proposals are refused from now on, "
                    "while the game goes on to its end")
# Chat per seat: a burst of CHAT_BURST messages, then one every CHAT_EVERY_S seconds (T5.4).
CHAT_BURST = 5
CHAT_EVERY_S = 2.0


def history_frames(after: int | None, seq: int) -> int:
    """How many history frames a subscription with `after` brings at `seq`:
    chunks of HISTORY_CHUNK events aligned on its multiples (`Table._history`)."""
    if after is None or after >= seq:
        return 0
    start = max(0, after)
    return (seq - 1) // HISTORY_CHUNK - start // HISTORY_CHUNK + 1


# An open table at which no client holds a seat for this long is abandoned (docs/table.md T6.1).
ABANDON_AFTER_S = 600.0




# A prompt's fields that move with the clock alone, not with the decision.
_TIMING = frozenset({"deadline_ms", "deadline_at_ms"})


def same_prompt(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """The same decision, seen the same way: equal but for the countdown."""
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(a[k] == b[k] for k in a if k not in _TIMING)


class _Stopped(Exception):
    """Stop arrived while the table waited for its store."""


class TableError(Exception):
    """A log that does not replay to what it recorded: refuse to serve it."""


class Table:
    """The actor. Create with `Table(...)`, run `await table.run()` in a
    nursery, talk to it with `await table.send(outbox, message)`."""

    def __init__(self, table_id: str, settings: TableSettings, port: GamePort, setup: GameSetup, store: Store,
                 *, wall: Callable[[], float] = time.time, inbox_size: int = 1024,
                 abandon_after: float = ABANDON_AFTER_S, log_cap: int = LOG_SOFT_CAP) -> None:
        self.id = table_id
        self.settings = settings
        self.port = port
        self.setup = setup
        # The rules it started with, recorded with it (kit.port.rules_version).
        self.rules = rules_version(port, setup)
        self.store = store
        self.wall = wall
        self.status = "open"
        self.state: Any = None
        self.slots: list[Slot | None] = [None] * settings.seats
        # The table's log in memory, kept as the msgpack bytes written to the
        # store: thousands of live dicts per table would survive into the
        # garbage collector's young generation and lengthen every pause.
        self._events: list[bytes] = []  # every event, full detail, with its seq (seq == index + 1)
        self._commands: list[bytes] = []  # [seat, plain command] of the game, in order
        self.pos = 0  # next log position
        self.clock = TableClock.new(settings.timers, settings.seats)
        self.subscribers: dict[Outbox, int | str] = {}
        self.wants_views: set[Outbox] = set()
        # The prompt each subscriber last got (in a snapshot or a live frame),
        # to tell it whether the next one changed (PROTOCOL.md 4, events).
        self._shown: dict[Outbox, dict[str, Any] | None] = {}
        self._dropped: list[int | str] = []  # viewers of outboxes dropped while publishing
        # (log position, status), a spectator's view and untimed prompt there (`_spectators_view`)
        self._spectators: tuple[tuple[int, str], dict[str, Any] | None, dict[str, Any] | None] | None = None
        self.cids: list[set[Any]] = [set() for _ in range(settings.seats)]
        self.result: dict[str, Any] | None = None
        # The seq of TableFinished or TableFailed: the record ends there, so
        # that the record in memory is the one saved at the end.
        self._end_seq: int | None = None
        self.frames_sent = 0
        self.paused = False  # the store refuses this table's writes; it retries (T4.4)
        self._deferred: list[Any] = []  # the server's messages that arrived while paused, in order
        self.log_cap = log_cap
        self.log_bytes = 0  # the encoded size of every record of the log
        self._talk: frozenset[str] = frozenset(getattr(port, "talk_commands", ()))
        self._chat_tokens = [float(CHAT_BURST)] * settings.seats
        self._chat_at = [-math.inf] * settings.seats
        self._send, self._recv = trio.open_memory_channel[Any](inbox_size)
        self.ended = trio.Event()  # set once the game finished, the table failed or was abandoned
        # The rematch this table committed to when its game ended (T7.4):
        # {table, salt, commitment}; the salt stays secret until that game ends.
        self.rematch_next: dict[str, Any] | None = None
        self.abandon_after = abandon_after
        # Since when no client has held a seat here while the table is open (T6.1); None: someone does.
        self.unattended_since: float | None = None
        self._info: tuple[bytes, float] | None = None  # info(), encoded, and when (`info_encoded`)
        # A spectator's history frames of full chunks, by chunk (`_history`), and how many
        # events history requests have projected afresh.
        self._history_frames: dict[int, bytes] = {}
        self.history_built = 0
        # Seats a restored table's stored meta holds whose SeatTaken its log
        # does not have (the server stopped between the two writes of a join).
        self._unlogged_seats: list[int] = []
        self._unlogged_leaves: list[int] = []  # and seats it no longer held whose SeatLeft the log lacks

    # -- talking to the actor ----------------------------------------------------

    async def send(self, outbox: Outbox | None, message: Any) -> None:
        """Queue a message; blocks only when the inbox is full (back-pressure
        on the sending connection alone). A stopped table drops it."""
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self._send.send((outbox, message))

    @property
    def seq(self) -> int:
        return len(self._events)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event so far, full detail, decoded (for records and tests)."""
        return [decode_any(b) for b in self._events]

    @property
    def commands(self) -> list[list[Any]]:
        """[seat, plain command] of the game so far, decoded."""
        return [decode_any(b) for b in self._commands]

    # -- the loop --------------------------------------------------------------------

    async def run(self) -> None:
        pending: Any = CatchUp() if self._unlogged_seats or self._unlogged_leaves or self._start_due() else None
        async with self._recv:
            while True:
                if pending is None and self._deferred:  # the server's messages that waited out a pause
                    pending = self._deferred.pop(0)
                d = self.clock.deadline
                at = d.at if d is not None else math.inf
                abandon_at = math.inf
                outbox: Outbox | None = None
                message: Any = pending
                if pending is None:
                    abandon_at = self._abandon_at()
                    with trio.move_on_at(min(at, abandon_at)):
                        outbox, message = await self._recv.receive()
                pending = None
                if isinstance(message, Stop):
                    if message.hand_over:
                        self.hand_over(message.url, also=outbox)
                    return
                try:
                    if message is None and trio.current_time() >= abandon_at:
                        await self._abandon()
                    elif message is None:
                        await self._expire()
                    else:
                        await self._handle(outbox, message)
                    await self._settle_dropped()
                except _Stopped:
                    return
                except StoreFenced:
                    # Another process of the site claimed this table (this one
                    # was paused or cut off past its lease): the step was not
                    # stored, so nothing of it was sent; its viewers resume there.
                    log.warning("table %s: another process owns it now; handing its viewers over", self.id)
                    self.hand_over(None, also=outbox)
                    return
                except Exception as exc:  # a bug: it ends this table, never the server
                    if self.status == "failed":
                        log.exception("table %s (failed): an error while serving its viewers", self.id)
                    else:
                        await self._fail(exc)
                    if outbox is not None:  # the sender waits for an answer to this message
                        self._reply(outbox, M.error(getattr(message, "id", None), "table/failed", FAILED_MESSAGE))

    async def _durably(self, write: Callable[[], Awaitable[None]]) -> None:
        """Do one store write, and if the store refuses it (a full disk, a
        read-only file, a database that went away), pause the table until
        it takes it: retry with backoff, and meanwhile answer every message
        `store/unavailable` (docs/table.md T4.4). The step being written has
        already changed the game's state, so it must be written before
        anything else happens here; nothing was sent of it yet. A store that
        fenced the table (another owner took it) is not retried: that ends
        the table as an error does."""
        delay = STORE_RETRY_MIN_S
        while True:
            try:
                await write()
            except StoreFenced:
                raise
            except StoreError as exc:
                if not self.paused:
                    log.error("table %s paused: the store refused a write (%s); retrying", self.id, exc)
                    self.paused = True
                await self._refuse_while_paused(delay)
                delay = min(delay * 2, STORE_RETRY_MAX_S)
                continue
            if self.paused:
                log.warning("table %s resumed: the store takes its writes again", self.id)
                self.paused = False
            return

    async def _refuse_while_paused(self, seconds: float) -> None:
        """For `seconds`, answer what arrives without writing anything: a
        refusal to every request, a connection's end noted in memory (its
        SeatPresence is not logged), Stop obeyed."""
        with trio.move_on_after(seconds):
            while True:
                outbox, msg = await self._recv.receive()
                if isinstance(msg, Stop):
                    raise _Stopped
                if isinstance(msg, Disconnected):
                    viewer = self.subscribers.pop(msg.outbox, None)
                    self.wants_views.discard(msg.outbox)
                    self._shown.pop(msg.outbox, None)
                    slot = self.slots[viewer] if isinstance(viewer, int) else None
                    if slot is not None:
                        slot.connections = max(0, slot.connections - 1)
                elif outbox is not None:
                    self._reply(outbox, M.error(getattr(msg, "id", None), "store/unavailable", STORE_PAUSED_MESSAGE))
                else:  # the server's own message (a reservation, a start): nobody would send it again
                    self._deferred.append(msg)

    def _abandon_at(self) -> float:
        """When this table is abandoned if nothing changes (T6.1): an open
        table once no client holds a seat for `abandon_after`; never after
        the start. The server's bots hold no table open."""
        if self.status != "open":
            return math.inf
        if any(s is not None and s.bot is None and s.connections > 0 for s in self.slots):
            self.unattended_since = None
            return math.inf
        if self.unattended_since is None:
            self.unattended_since = trio.current_time()
        return self.unattended_since + self.abandon_after

    async def _abandon(self) -> None:
        """T6.1: the table ends before its game began; its viewers hear it,
        the store keeps the status, the lobby lets it go."""
        self.status = "abandoned"
        event: dict[str, Any] = {"type": "TableAbandoned"}
        await self._commit(None, [event])
        await self._durably(lambda: self.store.update_table(self.id, status="abandoned", now=self.wall()))
        self._publish([event])
        self.ended.set()

    async def _settle_dropped(self) -> None:
        """A seat whose last connection was dropped while we published shows
        as disconnected, as if the transport had told us."""
        while self._dropped:
            viewer = self._dropped.pop()
            if isinstance(viewer, int):
                await self._presence(viewer, -1)

    async def _handle(self, outbox: Outbox | None, msg: Any) -> None:
        match msg:
            case Disconnected():
                await self._disconnected(msg.outbox)
                return
            case OfferRematch():
                await self._offer_rematch(msg)
                return
            case Abandon():
                if self._abandon_at() < math.inf:
                    await self._abandon()
                msg.done.set()
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
                await self._resume_bot(outbox, msg)
            case M.Leave():
                await self._leave(outbox, msg)
            case M.Start():
                await self._start(outbox, msg)
            case M.Resume():
                await self._resume(outbox, msg)
            case M.Spectate():
                await self._spectate(outbox, msg)
            case M.Unsubscribe():
                await self._unsubscribe(outbox, msg)
            case M.Act():
                await self._act(outbox, msg)
            case M.Back():
                await self._back(outbox, msg)
            case M.Chat():
                await self._chat(outbox, msg)
            case _:
                self._reply(outbox, M.error(getattr(msg, "id", None), "message/unknown_type",
                                            f"{type(msg).__name__} is not a table message"))

    # -- replies and fan-out -------------------------------------------------------

    def hand_over(self, url: str | None, *, also: Outbox | None = None) -> None:
        """Tell every viewer (and `also`, the sender of an unanswered
        message) that the table moved, and close their connections: they
        reconnect and resume from their last seq (PROTOCOL.md 4, moved)."""
        frame = encode(M.moved(self.id, url))
        for outbox in {*self.subscribers, *([also] if also is not None else [])}:
            outbox.put(frame)
            outbox.evict("server/moved")
        self.subscribers.clear()
        self.wants_views.clear()
        self._shown.clear()

    def _put(self, outbox: Outbox, frame: bytes) -> None:
        if outbox.put(frame):
            self.frames_sent += 1
        else:
            viewer = self.subscribers.pop(outbox, None)
            self.wants_views.discard(outbox)
            self._shown.pop(outbox, None)
            if viewer is not None:
                self._dropped.append(viewer)

    def _reply(self, outbox: Outbox, message: dict[str, Any]) -> None:
        self._put(outbox, encode(message))

    def _project(self, event: dict[str, Any], viewer: int | str) -> dict[str, Any]:
        if event["type"] in TABLE_EVENTS:
            return event
        projected = self.port.project(event, viewer)
        if projected is event:
            return event
        return {**projected, "seq": event["seq"]}

    def _prompt(self, viewer: int | str) -> dict[str, Any] | None:
        return self._prompts([viewer])[viewer]

    def _view(self, viewer: int | str) -> dict[str, Any] | None:
        """The viewer's view; None before the game and after a failure (the
        state may be half-changed by whatever failed)."""
        if self.state is None or self.status == "failed":
            return None
        return self.port.view(self.state, viewer)

    def _prompts(self, viewers: list[int | str]) -> dict[int | str, dict[str, Any] | None]:
        """Each viewer's open decision with its deadline, built in one pass."""
        if self.state is None or self.status != "running":
            return dict.fromkeys(viewers)
        return self._timed(self.port.prompts(self.state, viewers))

    def _timed(self, prompts: dict[int | str, dict[str, Any] | None]) -> dict[int | str, dict[str, Any] | None]:
        """The prompts with the deadline as it stands now (they are updated in place)."""
        d = self.clock.deadline
        if d is not None:
            remaining = max(0.0, d.at - trio.current_time())
            timing = {"deadline_ms": int(remaining * 1000),
                      "deadline_at_ms": int((self.wall() + remaining) * 1000)}
            for viewer, p in prompts.items():
                if p is not None:
                    p.update(timing)
                    if isinstance(viewer, int) and 0 <= viewer < len(self.clock.seats):
                        p["bank_ms"] = self.clock.seats[viewer].bank_ms
        return prompts

    def _publish(self, new: list[dict[str, Any]], *, also: Outbox | None = None) -> None:
        """One frame per subscriber for this step: its projection of every
        new event, and its prompt. Frames are encoded once per viewer."""
        if not new and also is None:
            return
        targets = [(o, v) for o, v in self.subscribers.items() if new or o is also]
        prompts = self._prompts(list({v for _, v in targets}))
        frames: dict[tuple[int | str, bool, bool], bytes] = {}
        changes: dict[tuple[int | str, int], bool] = {}  # (viewer, id of the prompt it had) -> changed
        for outbox, viewer in targets:
            views = outbox in self.wants_views
            prompt, shown = prompts[viewer], self._shown.get(outbox)
            # The outboxes of one viewer usually share the prompt they had: compare it once.
            changed = changes.get((viewer, id(shown)))
            if changed is None:
                changed = changes[(viewer, id(shown))] = not same_prompt(shown, prompt)
            frame = frames.get((viewer, views, changed))
            if frame is None:
                items = [self._project(e, viewer) for e in new]
                view = self._view(viewer) if views else None
                frame = frames[(viewer, views, changed)] = encode(
                    M.events(self.id, items, prompt, view=view, prompt_changed=changed))
            self._shown[outbox] = prompt
            self._put(outbox, frame)

    def info(self) -> dict[str, Any]:
        """Public table information, for the lobby and snapshots."""
        return {
            "table": self.id, "game": self.settings.game, "status": self.status,
            "settings": self.settings.public_plain(self.setup.public),
            "seats": [None if s is None else self._seat_info(i, s) for i, s in enumerate(self.slots)],
            "seq": self.seq, "result": self.result,
        }

    def info_encoded(self, now: float, max_age: float) -> bytes:
        """`info()` as msgpack, for the lobby's listing: kept until one of
        LISTING_EVENTS changes it, or `max_age` seconds pass (its `seq`
        moves with every event and may be that old)."""
        if self._info is None or now - self._info[1] > max_age:
            self._info = (encode(self.info()), now)
        return self._info[0]

    def _seat_info(self, seat: int, slot: Slot) -> dict[str, Any]:
        info = {"seat": seat, "name": slot.name, "connected": slot.connections > 0,
                "away": self.clock.seats[seat].away, "proxied": self.clock.seats[seat].proxied}
        if slot.bot is not None:
            info["bot"] = slot.bot
        if slot.account is not None:
            info["account"] = slot.account
        return info

    # -- durability ----------------------------------------------------------------

    async def _commit(self, command: dict[str, Any] | None, new: list[dict[str, Any]]) -> None:
        """Sequence and persist a step; returns once durable. Nothing is
        sent before this returns (the log is the truth), and the table's
        memory of its log changes only once the store has it."""
        records = []
        pos = self.pos
        if command is not None:
            records.append(LogRecord(pos=pos, kind="cmd", seq=None, body=encode(command)))
            pos += 1
        seq = self.seq
        for e in new:
            seq += 1
            e["seq"] = seq
            records.append(LogRecord(pos=pos, kind="event", seq=seq, body=encode(e)))
            pos += 1
        now = trio.current_time()
        clock = encode(self.clock.to_plain(now))
        await self._durably(lambda: self.store.append(self.id, records, clock=clock, now=self.wall()))
        self.pos = pos
        if command is not None:
            self._commands.append(encode([command["seat"], command["cmd"]]))
        self._events.extend(r.body for r in records if r.kind == "event")
        if self._info is not None and any(e["type"] in LISTING_EVENTS for e in new):
            self._info = None
        self.log_bytes += sum(len(r.body) for r in records)

    def _log_full(self) -> bool:
        """The log reached its soft cap: talk is refused, play goes on (T5.4)."""
        return self.log_bytes >= self.log_cap

    def meta(self) -> bytes:
        """The table as the store keeps it: settings and seats."""
        return self._meta()

    def _meta(self) -> bytes:
        meta: dict[str, Any] = {"settings": self.settings.to_plain(), "rules": self.rules,
                                "slots": [None if s is None else slot_plain(s) for s in self.slots]}
        if any(s is not None and s.nonce is not None for s in self.slots):
            meta["nonces"] = [None if s is None else s.nonce for s in self.slots]
        if self.rematch_next is not None:
            meta["rematch"] = self.rematch_next
        return encode(meta)

    async def create(self) -> None:
        """First write of a new table."""
        await self.store.create_table(self.id, "open", self._meta(), now=self.wall())
        await self._commit(None, [{"type": "TableOpened", "settings": self.settings.public_plain(self.setup.public)}])

    # -- lobby phase -----------------------------------------------------------------

    async def _join(self, outbox: Outbox, msg: M.Join | SeatBot, account: dict[str, Any] | None = None, *,
                    own_nonce: bool = True) -> None:
        bot = msg.policy if isinstance(msg, SeatBot) else None
        token: str | None = None
        nonce = msg.nonce if isinstance(msg, M.Join) else None
        if nonce is not None:
            if not NONCE_MIN <= len(nonce) <= NONCE_MAX:
                self._reply(outbox, M.error(msg.id, "message/invalid",
                                            f"a join nonce has {NONCE_MIN} to {NONCE_MAX} characters"))
                return
            token = nonce_token(self.id, nonce)
            seat = self._seat_of_token(token)
            if seat is not None:  # a retry: whatever happened since, the seat is this nonce's
                await self._rejoin(outbox, msg, seat, token)
                return
        if self.status == "abandoned":
            self._reply(outbox, M.error(msg.id, "table/abandoned", ABANDONED_MESSAGE))
            return
        if self.status != "open":
            self._reply(outbox, M.error(msg.id, "table/started", "this table has started; you may spectate it"))
            return
        if self.settings.rated and account is None:
            self._reply(outbox, M.error(msg.id, "auth/sign_in_required",
                                        "a rated table seats only players signed in to an account (sign_in)"))
            return
        if account is not None and any(s is not None and s.account is not None and s.account["id"] == account["id"]
                                       for s in self.slots):
            self._reply(outbox, M.error(msg.id, "auth/already_seated",
                                        "this account holds a seat at this table already"))
            return
        try:
            name = clean_name(msg.name if account is None else account["name"], max_len=MAX_NAME)
        except NameRefused as exc:
            self._reply(outbox, M.error(msg.id, "message/invalid", exc.message))
            return
        if bot is None:  # the server's bots pick their names among the free ones
            alike = next(((i, s.name) for i, s in enumerate(self.slots)
                          if s is not None and looks_alike(name, s.name)), None)
            if alike is not None:
                self._reply(outbox, M.error(msg.id, "message/invalid",
                                            f"the name {name!r} looks like seat {alike[0]}'s ({alike[1]!r}) "
                                            "at this table; choose another"))
                return
        seat = msg.seat
        if seat is None:
            free = [i for i, s in enumerate(self.slots) if s is None]
            if not free:
                self._reply(outbox, M.error(msg.id, "table/full", "every seat is taken"))
                return
            seat = free[0]
        elif not 0 <= seat < self.settings.seats:
            self._reply(outbox, M.error(msg.id, "seat/unknown", f"seats are 0..{self.settings.seats - 1}"))
            return
        elif self.slots[seat] is not None:
            self._reply(outbox, M.error(msg.id, "seat/taken", f"seat {seat} is taken"))
            return
        if token is None:
            token = secrets.token_urlsafe(24)
        # T7.1: the seat's nonce for the seed, from its join's secret nonce (hashed:
        # the record shows it); without one, the server supplies it at the start
        # from the committed salt (T7.2).
        contribution = dealing.seat_nonce(self.id, nonce) if nonce is not None and own_nonce else None
        self.slots[seat] = Slot(name=name, token_hash=token_hash(token), connections=1, bot=bot, account=account,
                                nonce=contribution)
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, meta=meta, now=self.wall()))
        event = self._seat_taken(seat)
        await self._commit(None, [event])
        self._publish([event])
        self.subscribers[outbox] = seat
        if msg.views:
            self.wants_views.add(outbox)
        self._reply(outbox, M.ok(msg.id, table=self.id, seat=seat, token=token, seq=self.seq))
        self._snapshot(outbox, seat)
        if self.settings.auto_start and all(s is not None for s in self.slots):
            await self._start_game()

    async def _reserve(self, msg: Reserve) -> None:
        if self.status != "open" or not 0 <= msg.seat < self.settings.seats or self.slots[msg.seat] is not None:
            log.warning("table %s: seat %d cannot be reserved", self.id, msg.seat)
            return
        self.slots[msg.seat] = Slot(name=msg.name, token_hash=msg.token_hash, account=msg.account)
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, meta=meta, now=self.wall()))
        event: dict[str, Any] = {"type": "SeatTaken", "seat": msg.seat, "name": msg.name}
        if msg.account is not None:
            event["account"] = msg.account
        await self._commit(None, [event])
        self._publish([event])

    async def _begin(self, msg: Begin) -> None:
        if self.status != "open" or any(s is None for s in self.slots):
            return
        await self._start_game()
        proxied = [s for s in msg.proxied if 0 <= s < self.settings.seats]
        if proxied:
            for s in proxied:
                self.clock.seats[s].proxied = True
                self.clock.seats[s].away = True
            new = [{"type": "ProxyOn", "seat": s} for s in proxied]
            self._rearm()
            await self._commit(None, new)
            self._publish(new)

    def _start_due(self) -> bool:
        """Full, open, and starting by itself: it starts now (T6; the join
        that filled it starts it, unless the server stopped in between)."""
        return self.status == "open" and self.settings.auto_start and all(s is not None for s in self.slots)

    async def _catch_up(self) -> None:
        """After a restart, finish what the join the server stopped in did:
        its SeatTaken (the meta had the seat, the log not yet), and the start
        of a table that seat filled. Without this, a full table that starts
        by itself stayed open for ever, its seats held until abandoned."""
        if self._unlogged_seats or self._unlogged_leaves:
            log.warning("table %s: seats %s taken and %s left were not logged when the server stopped; "
                        "logging them", self.id, self._unlogged_seats, self._unlogged_leaves)
            new = [*({"type": "SeatLeft", "seat": seat} for seat in self._unlogged_leaves),
                   *(self._seat_taken(seat) for seat in self._unlogged_seats)]
            self._unlogged_seats, self._unlogged_leaves = [], []
            await self._commit(None, new)
            self._publish(new)
        if self._start_due():
            log.warning("table %s: every seat was taken when the server stopped; starting it", self.id)
            await self._start_game()

    def _seat_taken(self, seat: int) -> dict[str, Any]:
        slot = self.slots[seat]
        assert slot is not None
        event: dict[str, Any] = {"type": "SeatTaken", "seat": seat, "name": slot.name}
        if slot.bot is not None:
            event["bot"] = slot.bot
        if slot.account is not None:
            event["account"] = slot.account
        return event

    async def _rejoin(self, outbox: Outbox, msg: M.Join | SeatBot, seat: int, token: str) -> None:
        """A join retried with its nonce: the seat it took, its token again
        (`duplicate: true`), and this connection subscribed as that seat, as
        a `resume` would. Nothing else changes: not the name, not the seat."""
        previous = self.subscribers.get(outbox)
        self.subscribers[outbox] = seat
        if msg.views:
            self.wants_views.add(outbox)
        else:
            self.wants_views.discard(outbox)
        self._reply(outbox, M.ok(msg.id, table=self.id, seat=seat, token=token, seq=self.seq, duplicate=True))
        self._snapshot(outbox, seat)
        if previous != seat:
            if isinstance(previous, int):
                await self._presence(previous, -1)
            await self._presence(seat, +1)
        if self._start_due():  # the join it retries filled the table, and the start did not follow
            await self._start_game()

    async def _leave(self, outbox: Outbox, msg: M.Leave) -> None:
        seat = self._seat_of_token(msg.token)
        if seat is None:
            self._reply(outbox, M.error(msg.id, "auth/bad_token", "that token holds no seat at this table"))
            return
        if self.status != "open":
            self._reply(outbox, M.error(msg.id, "table/started", "a seat can be left only before the start"))
            return
        self.slots[seat] = None
        for o, v in list(self.subscribers.items()):
            if v == seat:
                self.subscribers[o] = SPECTATOR
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, meta=meta, now=self.wall()))
        event = {"type": "SeatLeft", "seat": seat}
        await self._commit(None, [event])
        self._publish([event])
        self._reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _start(self, outbox: Outbox, msg: M.Start) -> None:
        if self._seat_of_token(msg.token) is None:
            self._reply(outbox, M.error(msg.id, "auth/bad_token", "that token holds no seat at this table"))
            return
        if self.status != "open":
            self._reply(outbox, M.error(msg.id, "table/started", "the game has already started"))
            return
        if any(s is None for s in self.slots):
            self._reply(outbox, M.error(msg.id, "table/not_full", "every seat must be taken before the start"))
            return
        await self._start_game()
        self._reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _start_game(self) -> None:
        started: dict[str, Any] = {"type": "TableStarted"}
        if self.settings.commitment is not None and self.settings.commitment.get("scheme") == dealing.DEAL_SCHEME:
            started["nonces"] = self._reveal_seed()
            if "supplied" in self.settings.commitment:
                started["supplied"] = self.settings.commitment["supplied"]
        self.state, game_events = self.port.start(self.setup.config)
        self.status = "running"
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, status="running", meta=meta,
                                                            now=self.wall()))
        new = [started, *game_events]
        self._rearm()
        await self._commit(None, new)
        self._publish(new)

    def _reveal_seed(self) -> list[str]:
        """T7.2: the seed of a commit-and-reveal table, from its committed salt
        and its seats' nonces in seat order; the game is configured with it
        (the port is determined by its seed and options), and the settings
        keep it (the meta saved at the start, so recovery sets up the same game).
        A seat whose holder brought no nonce gets the one the salt fixes for
        it (`dealing.supplied_nonce`), and is listed in `supplied`; a table
        created before supplied nonces (no `supplied` in its commitment)
        draws one as it did then."""
        c = self.settings.commitment
        assert c is not None
        salt = c["salt"]
        derived = "supplied" in c
        supplied = [i for i, s in enumerate(self.slots) if s is None or s.nonce is None]
        nonces = [s.nonce if s is not None and s.nonce is not None
                  else dealing.supplied_nonce(salt, i) if derived else dealing.server_nonce()
                  for i, s in enumerate(self.slots)]
        seed = dealing.derive_seed(salt, nonces)
        self.setup = self.port.configure(self.settings.seats, seed, self.settings.options, {})
        revealed = {**c, "nonces": nonces, "seed": seed}
        if derived:
            revealed["supplied"] = supplied
        self.settings = replace(self.settings, seed=seed, commitment=revealed)
        return nonces

    # -- subscriptions -------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat `token` holds here, or None (for the server's own parts outside
        the actor, such as its bots)."""
        return self._seat_of_token(token)

    def _seat_of_token(self, token: str) -> int | None:
        h = token_hash(token)
        for i, s in enumerate(self.slots):
            if s is not None and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def _snapshot(self, outbox: Outbox, viewer: int | str) -> None:
        if viewer == SPECTATOR:
            view, untimed = self._spectators_view()
            prompt = self._timed({viewer: dict(untimed)})[viewer] if untimed is not None else None
        else:
            view = self._view(viewer)
            prompt = self._prompt(viewer)
        self._shown[outbox] = prompt
        self._reply(outbox, M.snapshot(self.id, self.seq, viewer, view, self.info(), prompt))

    def _spectators_view(self) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """A spectator's view and prompt (without its deadline), built once per
        log position: every state change logs a command or an event, so a
        crowd that arrives together (a new game, a popular table) costs one
        view, not one per spectator. Both are shared: read-only."""
        key = (self.pos, self.status)
        cached = self._spectators
        if cached is None or cached[0] != key:
            prompt = None
            if self.state is not None and self.status == "running":
                prompt = self.port.prompts(self.state, [SPECTATOR])[SPECTATOR]
            cached = self._spectators = (key, self._view(SPECTATOR), prompt)
        return cached[1], cached[2]

    def _history(self, outbox: Outbox, viewer: int | str, after: int | None) -> None:
        """The events after `after`, projected for `viewer`, in frames of at
        most HISTORY_CHUNK events aligned on multiples of it (PROTOCOL.md 5).
        A spectator's full chunks never change once the log has passed them,
        so each is built once and its encoded frame served to every later
        spectator: many watchers replaying a long log cost the table no more
        than one (issue 8, item 5). Fresh work per request is at most the two
        partial chunks at its ends; the transport charges the requester's
        rate budget for the rest (PROTOCOL.md 12)."""
        if after is None or after >= self.seq:
            return
        i, end = max(0, after), self.seq
        while i < end:
            chunk = i // HISTORY_CHUNK
            stop = min(end, (chunk + 1) * HISTORY_CHUNK)
            shared = viewer == SPECTATOR and i == chunk * HISTORY_CHUNK and stop - i == HISTORY_CHUNK
            frame = self._history_frames.get(chunk) if shared else None
            if frame is None:
                items = [self._project(decode_any(b), viewer) for b in self._events[i:stop]]
                self.history_built += stop - i
                frame = encode(M.events(self.id, items, None, history=True))
                if shared and self.status != "failed":
                    self._history_frames[chunk] = frame
            self._put(outbox, frame)
            if not outbox.alive:
                return
            i = stop

    async def _subscribe(self, outbox: Outbox, viewer: int | str, msg: Any) -> None:
        previous = self.subscribers.get(outbox)
        self.subscribers[outbox] = viewer
        if msg.views:
            self.wants_views.add(outbox)
        else:
            self.wants_views.discard(outbox)
        self._reply(outbox, M.ok(msg.id, table=self.id, you=viewer, seq=self.seq))
        self._history(outbox, viewer, msg.after)
        self._snapshot(outbox, viewer)
        if previous != viewer:
            if isinstance(previous, int):
                await self._presence(previous, -1)
            if isinstance(viewer, int):
                await self._presence(viewer, +1)

    async def _resume(self, outbox: Outbox, msg: M.Resume) -> None:
        seat = self._seat_of_token(msg.token)
        if seat is None:
            self._reply(outbox, M.error(msg.id, "auth/bad_token", "that token holds no seat at this table"))
            return
        if msg.nonce is not None:
            if not NONCE_MIN <= len(msg.nonce) <= NONCE_MAX:
                self._reply(outbox, M.error(msg.id, "message/invalid",
                                            f"a resume nonce has {NONCE_MIN} to {NONCE_MAX} characters"))
                return
            await self._bring_nonce(seat, msg.nonce)
        await self._subscribe(outbox, seat, msg)

    async def _bring_nonce(self, seat: int, nonce: str) -> None:
        """T7.1: the holder of a seat that has no nonce of its own yet (a
        reserved tournament seat, a join without one) brings one before the
        start. The first one counts; later ones change nothing."""
        slot = self.slots[seat]
        c = self.settings.commitment
        if slot is None or slot.nonce is not None or self.status != "open" or c is None \
                or c.get("scheme") != dealing.DEAL_SCHEME:
            return
        slot.nonce = dealing.seat_nonce(self.id, nonce)
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, meta=meta, now=self.wall()))

    async def _resume_bot(self, outbox: Outbox, msg: ResumeBot) -> None:
        slot = self.slots[msg.seat] if 0 <= msg.seat < len(self.slots) else None
        if slot is None or slot.bot is None:
            self._reply(outbox, M.error(msg.id, "seat/not_bot", f"seat {msg.seat} is not the server's"))
            return
        await self._subscribe(outbox, msg.seat, msg)

    async def _spectate(self, outbox: Outbox, msg: M.Spectate) -> None:
        await self._subscribe(outbox, SPECTATOR, msg)

    async def _unsubscribe(self, outbox: Outbox, msg: M.Unsubscribe) -> None:
        await self._disconnected(outbox)
        self._reply(outbox, M.ok(msg.id))

    async def _disconnected(self, outbox: Outbox) -> None:
        viewer = self.subscribers.pop(outbox, None)
        self.wants_views.discard(outbox)
        self._shown.pop(outbox, None)
        if isinstance(viewer, int):
            await self._presence(viewer, -1)

    async def _presence(self, seat: int, delta: int) -> None:
        slot = self.slots[seat]
        if slot is None:
            return
        before = slot.connections > 0
        slot.connections = max(0, slot.connections + delta)
        after = slot.connections > 0
        # After the end the table information still says who is connected,
        # but the log does not: TableFinished is the game's last event, and
        # players leaving an ended table are not news (PROTOCOL.md 9).
        if before != after and self.status not in ENDED:
            event = {"type": "SeatPresence", "seat": seat, "connected": after}
            await self._commit(None, [event])
            self._publish([event])

    # -- play ----------------------------------------------------------------------

    async def _act(self, outbox: Outbox, msg: M.Act) -> None:
        seat = self.subscribers.get(outbox)
        if not isinstance(seat, int):
            self._reply(outbox, M.error(msg.id, "auth/not_seated",
                                        "resume your seat with its token before sending commands"))
            return
        if self.status != "running":
            code, text = {"finished": ("game/over", "the game has ended"),
                          "failed": ("table/failed", FAILED_MESSAGE),
                          "abandoned": ("table/abandoned", ABANDONED_MESSAGE)}.get(
                              self.status, ("table/not_started", self._not_started()))
            self._reply(outbox, M.error(msg.id, code, text))
            return
        if msg.id is not None and msg.id in self.cids[seat]:
            self._reply(outbox, M.ok(msg.id, duplicate=True, seq=self.seq))
            return
        if self._log_full() and isinstance(msg.cmd, dict) and msg.cmd.get("type") in self._talk:
            self._reply(outbox, M.error(msg.id, "table/log_full", LOG_FULL_MESSAGE))
            return
        new = self._attended(seat)  # any command brings an away seat back (docs/table.md T2.2, T3.6)
        try:
            game_events = self.port.apply(self.state, seat, msg.cmd)
        except RulesRejection as exc:
            if new:
                await self._commit(None, new)
                self._publish(new)
            self._reply(outbox, M.error(msg.id, exc.code, exc.message))
            return
        if msg.id is not None:
            self.cids[seat].add(msg.id)
        new.extend(game_events)
        command = {"seat": seat, "cid": msg.id, "cmd": msg.cmd, "at": self.wall()}
        await self._step(command, new, game_events, sender=outbox)
        self._reply(outbox, M.ok(msg.id, seq=self.seq))

    def _attended(self, seat: int) -> list[dict[str, Any]]:
        """The seat's owner is there (a command, or `back`): its timeouts in
        a row start again from zero, an away seat is back and a proxy hands
        the seat over. Returns the table events that says so, to commit."""
        new: list[dict[str, Any]] = []
        seat_clock = self.clock.seats[seat]
        seat_clock.timeouts_in_row = 0
        if seat_clock.away:
            seat_clock.away = False
            new.append({"type": "SeatBack", "seat": seat})
        if seat_clock.proxied:
            seat_clock.proxied = False
            new.append({"type": "ProxyOff", "seat": seat})
        return new

    async def _back(self, outbox: Outbox, msg: M.Back) -> None:
        """`back`: an away or proxied seat is attended again without sending
        a game command (which, for an away seat, would often come too late
        and be refused). Harmless when the seat is neither, or when the game
        is not running."""
        seat = self.subscribers.get(outbox)
        if not isinstance(seat, int):
            self._reply(outbox, M.error(msg.id, "auth/not_seated",
                                        "resume your seat with its token before sending back"))
            return
        new = self._attended(seat) if self.status == "running" else []
        if new:
            await self._commit(None, new)
            self._publish(new)
        self._reply(outbox, M.ok(msg.id, seq=self.seq))

    def _not_started(self) -> str:
        taken = sum(s is not None for s in self.slots)
        how = ("it starts when the last seat is taken" if self.settings.auto_start
               else "once every seat is taken, a seated player starts it with `start`")
        return f"the game has not started: {taken} of {self.settings.seats} seats are taken, and {how}"

    async def _expire(self) -> None:
        """The armed deadline passed: silence means what the rules say."""
        d = self.clock.deadline
        waiting = self.port.waiting(self.state) if self.state is not None else None
        if d is None or waiting is None or waiting.key != d.key:
            self._rearm()
            return
        new: list[dict[str, Any]] = []
        if waiting.pivot is not None:
            seat_clock = self.clock.seats[waiting.pivot]
            if seat_clock.proxied and await self._proxy_act(waiting.pivot):
                return
            if not seat_clock.away:  # an away seat's silence is already told as such (SeatAway)
                # Said before the silence's own events, so that clients tell a
                # timeout as one and not as a choice.
                new.append({"type": "TimedOut", "seat": waiting.pivot, "decision": waiting.key[0]})
            seat_clock.timeouts_in_row += 1
            if not seat_clock.away and seat_clock.timeouts_in_row >= self.settings.timers.away_after:
                seat_clock.away = True
                new.append({"type": "SeatAway", "seat": waiting.pivot})
            proxy_after = self.settings.proxy_after
            if proxy_after is not None and not seat_clock.proxied and seat_clock.timeouts_in_row >= proxy_after:
                seat_clock.proxied = True
                new.append({"type": "ProxyOn", "seat": waiting.pivot})
        cmd = self.port.timeout_command(waiting)
        game_events = self.port.apply(self.state, TABLE_SEAT, cmd)
        new.extend(game_events)
        await self._step({"seat": TABLE_SEAT, "cid": None, "cmd": cmd, "at": self.wall()}, new, game_events)

    async def _proxy_act(self, seat: int) -> bool:
        """The reference bot answers for a proxied seat, at once, whatever its
        hidden cards (so its timing tells nothing), through the same apply()
        and log as the owner's own commands. False: fall back to silence."""
        cmd = self.port.proxy_command(self.state, seat)
        if cmd is None:
            return False
        try:
            game_events = self.port.apply(self.state, seat, cmd)
        except RulesRejection:
            log.warning("table %s: the proxy for seat %d chose a refused command", self.id, seat)
            return False
        await self._step({"seat": seat, "cid": None, "cmd": cmd, "at": self.wall(), "proxy": True},
                         list(game_events), game_events)
        return True

    async def _step(self, command: dict[str, Any], new: list[dict[str, Any]],
                    game_events: list[dict[str, Any]], *, sender: Outbox | None = None) -> None:
        self._rearm(refills=self.port.refills(game_events))
        result = self.port.result(self.state)
        finished = result is not None
        if finished:
            self.result = result
            self.status = "finished"
            ending: dict[str, Any] = {"type": "TableFinished", "result": self.result}
            announced = await self._commit_rematch()
            if announced is not None:
                ending["rematch"] = announced
            new.append(ending)
        await self._commit(command, new)
        if finished:
            # The end is stored whole (its events, then the record and the
            # status) before anyone is told: a client that saw TableFinished
            # finds the table finished in the store, whatever happens next.
            self._end_seq = self.seq
            await self._durably(lambda: self.store.save_record(self.id, encode(self.record())))
            await self._durably(lambda: self.store.update_table(self.id, status="finished", now=self.wall()))
        self._publish(new, also=sender)
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
        self.clock.deadline = None
        event: dict[str, Any] = {"type": "TableFailed", "message": FAILED_MESSAGE}
        try:
            await self._commit(None, [event])
            self._end_seq = self.seq
            await self.store.update_table(self.id, status="failed", now=self.wall())
            await self.store.save_record(self.id, encode(self.record()))
        except Exception:
            log.exception("table %s: the store did not take all of its failure", self.id)
            event.setdefault("seq", self.seq + 1)
        self._publish([event])
        self.ended.set()

    def _rearm(self, refills: int = 0) -> None:
        """Arm a deadline for each new (decision, pivot); keep a running one.
        The deadline that ends is charged to its bank before the game's
        refills, so a refill is never eaten by the time already spent."""
        now = trio.current_time()
        waiting = self.port.waiting(self.state) if self.state is not None and self.status == "running" else None
        d = self.clock.deadline
        if waiting is not None and d is not None and d.key == waiting.key:
            self.clock.refill(refills)
            return
        self.clock.charge(now)
        self.clock.refill(refills)
        if waiting is None:
            return
        total, base = self.clock.duration_ms(waiting.pivot, waiting.timer)
        self.clock.deadline = Deadline(key=waiting.key, pivot=waiting.pivot, started=now,
                                       at=now + total / 1000, base_ms=base)

    # -- chat and records --------------------------------------------------------------

    async def _chat(self, outbox: Outbox, msg: M.Chat) -> None:
        seat = self.subscribers.get(outbox)
        if not isinstance(seat, int):
            self._reply(outbox, M.error(msg.id, "auth/not_seated", "only seated players chat at a table"))
            return
        text = msg.text.strip()
        if not text or len(text) > MAX_CHAT:
            self._reply(outbox, M.error(msg.id, "chat/invalid", f"a chat message has 1 to {MAX_CHAT} characters"))
            return
        if self._log_full():
            self._reply(outbox, M.error(msg.id, "table/log_full", LOG_FULL_MESSAGE))
            return
        now = trio.current_time()
        tokens = min(float(CHAT_BURST), self._chat_tokens[seat] + (now - self._chat_at[seat]) / CHAT_EVERY_S)
        if tokens < 1:
            self._reply(outbox, M.error(msg.id, "chat/rate_limited",
                                        f"a seat chats at most {CHAT_BURST} times in a row, then once every "
                                        f"{CHAT_EVERY_S:g} s: wait {CHAT_EVERY_S * (1 - tokens):.1f} s"))
            return
        self._chat_tokens[seat], self._chat_at[seat] = tokens - 1, now
        slot = self.slots[seat]
        event = {"type": "Chat", "seat": seat, "name": slot.name if slot else "", "text": text}
        await self._commit(None, [event])
        self._publish([event])
        self._reply(outbox, M.ok(msg.id, seq=self.seq))

    async def _commit_rematch(self) -> dict[str, str] | None:
        """T7.4: as the game ends, draw its rematch's table id and salt, store
        them, and announce the table and its commitment: a player asking for
        the rematch sends its nonce after the server is bound, as at any
        table. None where the rematch would not be dealt by commit and
        reveal (a configured setup: the rematch is seeded) or would not set up."""
        if self.setup.configured:
            return None
        try:
            options = rematch_setup(self.port, self.settings, 0).options
        except SettingsError:
            return None
        salt = dealing.new_salt()
        nxt = {"table": secrets.token_urlsafe(9), "salt": salt,
               "commitment": dealing.deal_commitment(self.settings.game, self.settings.seats, options, salt)}
        self.rematch_next = nxt
        meta = self._meta()
        await self._durably(lambda: self.store.update_table(self.id, meta=meta, now=self.wall()))
        return {"table": nxt["table"], "commitment": nxt["commitment"]}

    async def _offer_rematch(self, msg: OfferRematch) -> None:
        """Everyone who watched this game hears of its rematch, once."""
        if self.status not in ENDED:
            return
        event = {"type": "RematchOffered", "table": msg.table, "seat": msg.seat}
        await self._commit(None, [event])
        self._publish([event])

    def record(self) -> dict[str, Any]:
        """The game, fully revealed: its game and config (enough to replay the
        commands), commands, events, and the table's own events (names, chat)
        beside them. The format name is the protocol's; `game` says whose
        rules replay it. A failed table's record holds the game up to the
        last stored step, and no result. It ends with TableFinished (or
        TableFailed): chat and RematchOffered after the end are in the log,
        not in the record, so the record is the same whenever it is read."""
        ended = self._events if self._end_seq is None else self._events[:self._end_seq]
        events = [decode_any(b) for b in ended]
        return {
            "format": RECORD_FORMAT,
            "game": self.settings.game,
            "status": self.status,
            "table": self.id,
            "config": self.setup.record,
            "names": [None if x is None else x.name for x in self.slots],
            **({"accounts": [None if x is None else x.account for x in self.slots]}
               if any(x is not None and x.account is not None for x in self.slots) else {}),
            "commands": self.commands,
            "events": [{k: v for k, v in e.items() if k != "seq"} for e in events
                       if e["type"] not in TABLE_EVENTS],
            "table_events": [e for e in events if e["type"] in TABLE_EVENTS],
            "result": self.result,
            # The salt is revealed once the game has ended: anyone can then
            # check the setup against the digest shown from the start
            # (dealing.verify_record).
            "commitment": self._revealed() if self.status in ENDED else None,
        }

    def _revealed(self) -> dict[str, Any] | None:
        """The commitment as the record reveals it: with its salt, and for
        commit and reveal the seats, options, nonces and seed it covers (T7.3)."""
        c = self.settings.commitment
        if c is None or c.get("scheme") != dealing.DEAL_SCHEME:
            return c
        return {**c, "seats": self.settings.seats, "options": self.settings.options}

    # -- recovery ------------------------------------------------------------------------

    @staticmethod
    def stored_game(meta: bytes) -> str:
        """The game of a table as stored (to pick the port that restores it)."""
        settings, _ = TableSettings.from_plain(decode_any(meta)["settings"])
        return settings.game

    @classmethod
    def restore(cls, table_id: str, meta: bytes, records: list[LogRecord], clock: bytes | None,
                port: GamePort, store: Store, *, paused_ms: int,
                wall: Callable[[], float] = time.time, replay: bool = True,
                log_cap: int = LOG_SOFT_CAP) -> Table:
        """Rebuild a table from its log: re-apply every command through the
        rules and check that they give back exactly the events recorded.
        Without `replay` (an ended table its rules no longer replay) the
        log is taken as it is and the table has no game state: it serves
        its history, its record and snapshots without a view."""
        m = decode_any(meta)
        stored_rules = m.get("rules")
        if stored_rules is not None and stored_rules not in replayable(port):
            # Its log would replay differently (or not at all) on these rules:
            # leave it to a server that still runs them.
            raise TableError(f"table {table_id}: it plays the rules {stored_rules!r}; this server replays "
                             f"{', '.join(sorted(replayable(port)))}")
        settings, legacy = TableSettings.from_plain(m["settings"])
        try:
            setup = port.configure(settings.seats, settings.seed, settings.options, legacy)
        except SettingsError as exc:
            raise TableError(f"table {table_id}: its stored settings no longer configure: {exc}") from None
        table = cls(table_id, replace(settings, options=setup.options), port, setup, store, wall=wall,
                    log_cap=log_cap)
        table.slots = [None if s is None else Slot(name=s[0], token_hash=s[1], bot=s[2] if len(s) > 2 else None,
                                                   account=s[3] if len(s) > 3 else None)
                       for s in m["slots"]]
        for slot, nonce in zip(table.slots, m.get("nonces") or [], strict=False):
            if slot is not None:
                slot.nonce = nonce
        table.rematch_next = m.get("rematch")
        regenerated: list[dict[str, Any]] = []
        recorded: list[dict[str, Any]] = []
        for rec in records:
            body = decode_any(rec.body)
            table.log_bytes += len(rec.body)
            if not replay:
                table._take_unreplayed(rec, body)
                continue
            if rec.kind == "cmd":
                seat, cmd = body["seat"], body["cmd"]
                if seat == TABLE_SEAT:
                    waiting = port.waiting(table.state)
                    if waiting is None or port.timeout_command(waiting) != cmd:
                        raise TableError(f"table {table_id}: a logged timeout does not match the open decision")
                    regenerated.extend(port.apply(table.state, TABLE_SEAT, cmd))
                else:
                    regenerated.extend(port.apply(table.state, seat, cmd))
                    if body.get("cid") is not None:
                        table.cids[seat].add(body["cid"])
                table._commands.append(encode([seat, cmd]))
            else:
                table._events.append(rec.body)
                if body["type"] == "TableStarted":
                    table.state, start_events = port.start(setup.config)
                    table.status = "running"
                    regenerated.extend(start_events)
                elif body["type"] == "TableFinished":
                    table.status = "finished"
                    table.result = body["result"]
                    table._end_seq = rec.seq
                elif body["type"] == "TableFailed":  # the store missed the status: the log says it
                    table.status = "failed"
                    table._end_seq = rec.seq
                elif body["type"] not in TABLE_EVENTS:
                    recorded.append({k: v for k, v in body.items() if k != "seq"})
            table.pos = rec.pos + 1
        if replay and decode_any(encode(regenerated)) != recorded:
            raise TableError(f"table {table_id}: the log does not replay to the events it recorded")
        if table.status == "open":
            logged: set[int] = set()
            for body in table.events:
                if body["type"] == "SeatTaken":
                    logged.add(body["seat"])
                elif body["type"] == "SeatLeft":
                    logged.discard(body["seat"])
            table._unlogged_seats = [i for i, s in enumerate(table.slots) if s is not None and i not in logged]
            table._unlogged_leaves = sorted(i for i in logged if table.slots[i] is None)
        if clock is not None and table.status == "running":
            table.clock.restore(decode_any(clock), trio.current_time(), paused_ms)
        if table.status == "running" and replay:
            table._rearm()
        elif table.status in ENDED:
            table.ended.set()
        return table

    def _take_unreplayed(self, rec: LogRecord, body: dict[str, Any]) -> None:
        """One log record, taken as it is (`restore` without replay)."""
        if rec.kind == "cmd":
            if body["seat"] != TABLE_SEAT and body.get("cid") is not None:
                self.cids[body["seat"]].add(body["cid"])
            self._commands.append(encode([body["seat"], body["cmd"]]))
        else:
            self._events.append(rec.body)
            kind = body["type"]
            if kind == "TableStarted":
                self.status = "running"
            elif kind == "TableFinished":
                self.status, self.result, self._end_seq = "finished", body["result"], rec.seq
            elif kind == "TableFailed":
                self.status, self._end_seq = "failed", rec.seq
        self.pos = rec.pos + 1
