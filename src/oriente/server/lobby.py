"""The lobby: every table of this server, their creation and recovery.

Tables are actors running in the lobby's nursery. The lobby holds a port per
game it serves (`oriente.games`) and knows games only through them: a
`create_table` names its game, and that game's port validates its options.
After a crash or restart `recover()` rebuilds every unfinished table from
its log, with the port of the game stored with it, before the server accepts
connections, deadlines included (they resume with the time they had left
when the server was last known alive).
"""

from __future__ import annotations

import bisect
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import msgspec
import trio

from ..fairplay import dealing
from ..games.kit.port import GamePort, GameSetup, Port, SettingsError
from ..protocol import messages as M
from ..protocol.codec import decode_any, encode
from ..refusal import Refusal
from .accounts import Accounts, Promises, Seated
from .clock import TimerSettings
from .ids import new_id
from .names import NameRefused, clean_name
from .outbox import Outbox
from .query import whole_number
from .sleeping import MAX_TURN_TABLES
from .stores import LogRecord, Store, TableRow
from .stores.timing import SINK, Listener
from .table import (
    ABANDON_AFTER_S,
    ENDED,
    LOG_SOFT_CAP,
    Abandon,
    Begin,
    CatchUp,
    Disconnected,
    Dismiss,
    Reserve,
    Stop,
    Table,
    TableError,
    TableSettings,
    rematch_setup,
    stored_game,
    token_hash,
    turns,
)
from .unloading import Followers
from .wake_times import WakeTimes

log = logging.getLogger("oriente.lobby")

MAX_TABLES = 10_000
# list_tables pages (PROTOCOL.md 3): the default and the largest size, and how
# long a table's encoded information may be served again while nothing listed changed.
LIST_PAGE = 50
LIST_MAX_PAGE = 200
LIST_CACHE_S = 1.0
MAX_TABLE_NAME = 64
# An ended table leaves memory at its end; the connections that watched it
# still hear of it (its chat, a rematch offered) for this long after (or
# after it was last brought back from the store), each brought back on
# demand (`find`), so resume, spectate and record work for it whenever
# they come (PROTOCOL.md 5), until the store lets it go.
LINGER_S = 60.0
# A table brought back from the store leaves memory again after this long
# without a message (`Lobby._quiet`).
QUIET_S = 5.0


class LobbyError(Refusal):
    """A lobby request refused (a table's settings, a rematch): a strike."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """An ended table's rematch for one of its players: the new `table`,
    the player's `seat` and `name` at the old one, the server's bots of the
    old table by seat, and whether this request `created` the new table."""

    table: Table
    seat: int
    name: str
    bots: dict[int, str]
    created: bool
    # Dealt by the salt the ended table committed to as it ended (T7.4): the
    # creating request's nonce reached the server after it was bound.
    precommitted: bool = False


class Lobby:
    def __init__(self, ports: Mapping[str, GamePort], store: Store, nursery: trio.Nursery,
                 *, wall: Callable[[], float] = time.time, linger_s: float = LINGER_S,
                 accounts: Accounts | None = None,
                 max_tables: int = MAX_TABLES, abandon_after: float = ABANDON_AFTER_S,
                 log_cap: int = LOG_SOFT_CAP) -> None:
        """`max_tables`: the tables held in memory at once (T6.3);
        `abandon_after`: seconds an open table may go without a connected
        client seat (T6.1); `log_cap`: each table's soft cap on its log (T5.4)."""
        self.linger_s = linger_s
        self.log_cap = log_cap  # each table's soft cap on its log (docs/table.md T5.4)
        self.accounts = accounts
        self.max_tables = max_tables
        self.abandon_after = abandon_after
        for name, port in ports.items():
            if not isinstance(port, Port):  # the server reads every member the base gives straight from the port
                raise TypeError(f"the port of {name!r} does not derive from oriente.games.kit.port.Port")
        self.ports = dict(ports)
        self.store = store
        self.nursery = nursery
        self.wall = wall
        self.started = wall()  # turn-based deadlines armed before it get the restart grace (T8.3)
        # Sleeping turn-based tables (T8.5): whether this server lets them sleep,
        # and how a message for one wakes it (a many-process site claims it).
        self.sleeps = False
        self.waker: Callable[[str], Awaitable[Table | None]] = self.wake
        self.max_turn_tables = MAX_TURN_TABLES
        self.late: deque[float] = deque(maxlen=100_000)  # how late turn-based deadlines applied, seconds
        self.wake_times = WakeTimes()  # where the time of a message's wakes went
        self.tables: dict[str, Table] = {}
        self._turn: set[str] = set()  # the turn-based tables in memory, ended or not
        self.rematches: dict[str, str] = {}  # ended table -> its rematch (in memory only)
        self._rematching = trio.Lock()
        self._loading: dict[str, trio.Event] = {}
        # Tables whose record, spectating and replay wait (a tournament's
        # duplicate board still played elsewhere); kept by the director.
        self.withheld: set[str] = set()
        # On a site of many processes another process's director may withhold
        # a table: then `is_withheld` asks the store (set by the cluster node).
        self.withheld_elsewhere = False
        # The listing's order: public tables by the serial they got on entering memory.
        self._serial = 0
        self._order: list[int] = []
        self._order_tables: list[Table] = []
        self._dead = 0  # ended tables being brought back from the store
        # The connections following tables out of memory, for the lobby's linger.
        self.followers = Followers(linger_s)
        self.finished_total = 0  # tables whose game finished in this process (/metrics)

    # -- the listing (list_tables) ------------------------------------------------------

    def _enter(self, table: Table) -> None:
        """A table comes into memory; a public one joins the listing's order."""
        self.tables[table.id] = table
        if table.settings.timers.turn_based:
            table.play.on_late = self.late.append
            self._turn.add(table.id)
        if table.settings.public:
            self._serial += 1
            self._order.append(self._serial)
            self._order_tables.append(table)

    def _leave(self, table: Table) -> None:
        """A table leaves memory (or, abandoned, the lobby). Its place in the
        listing's order is dropped lazily, all at once when half are gone, so
        that a page never walks past more dead places than live ones."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._turn.discard(table.id)
        if table.settings.public:
            self._dead += 1
        if self._dead > 16 + len(self._order) // 2:
            keep = [(n, t) for n, t in zip(self._order, self._order_tables, strict=True)
                    if self.tables.get(t.id) is t]
            self._order = [n for n, _ in keep]
            self._order_tables = [t for _, t in keep]
            self._dead = 0

    def listing_page(self, cursor: str | None, limit: int | None) -> tuple[msgspec.Raw, str | None]:
        """One page of `list_tables` (PROTOCOL.md 3): the public tables after
        `cursor`, oldest first, at most `limit` (LIST_PAGE by default, never
        more than LIST_MAX_PAGE), as encoded msgpack, and the cursor of the
        next page (None: this was the last). A page costs its own size, not
        the lobby's, and each table's part of it is its encoded information
        as the table keeps it (`Table.info_encoded`), rebuilt only when it
        changed or LIST_CACHE_S passed."""
        size = LIST_PAGE if limit is None else limit
        if size < 1:
            raise LobbyError("message/invalid", "field 'limit' must be at least 1")
        size = min(size, LIST_MAX_PAGE)
        after = 0
        if cursor is not None:
            position = whole_number(cursor[1:], max_digits=19) if cursor[:1] == "s" else None
            if position is None:
                raise LobbyError("message/invalid", "field 'cursor' must be the `next` of an earlier page, or null")
            after = position
        now = trio.current_time()
        i = bisect.bisect_right(self._order, after)
        parts: list[bytes] = []
        last = after
        while i < len(self._order) and len(parts) < size:
            table = self._order_tables[i]
            if self.tables.get(table.id) is table:
                parts.append(table.info_encoded(now, LIST_CACHE_S))
            last = self._order[i]
            i += 1
        head = bytes([0x90 | len(parts)]) if len(parts) < 16 else b"\xdc" + len(parts).to_bytes(2, "big")
        return msgspec.Raw(head + b"".join(parts)), f"s{last}" if i < len(self._order) else None

    def get(self, table_id: str) -> Table | None:
        """A table in memory: open, running, or ended a short while ago."""
        return self.tables.get(table_id)

    async def _settled(self, table_id: str) -> Table | None:
        """The table if it is in memory, once no request is bringing it
        back or taking it away (`_loading`); None if it is then not in
        memory. Between the wait and the check there is no checkpoint, so a
        None leaves the caller free to claim `_loading` for it."""
        while True:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            loading = self._loading.get(table_id)
            if loading is None:
                return None
            await loading.wait()

    async def find(self, table_id: str) -> Table | None:
        """A table by id, wherever it is: in memory, or an ended (finished or
        failed) table that has left memory, brought back from its log in the
        store for another linger, or a sleeping turn-based table, woken
        (T8.5). None: no such table, or one that is neither in memory nor
        ended nor asleep (an abandoned log). A table leaving memory
        (`unload`, `sleep`) is waited for, then brought back."""
        table = await self._settled(table_id)
        if table is not None:
            return table
        if not 0 < len(table_id) <= 64:
            return None
        self._loading[table_id] = done = trio.Event()
        started = time.perf_counter()
        listener = Listener()
        token = SINK.set(listener)
        try:
            # The row, the log and the clock in one read: an ended table is
            # served from its log, and a sleeping one rebuilt from it.
            row, records, clock = await self.store.table_log_and_clock(table_id)
            table = await self._load(row, records)
            if table is not None:
                self.followers.attach(table)
                self._enter(table)
                self.nursery.start_soon(partial(self._host, table, reloaded=True), name=f"table {table_id}")
                return table
            if not self.sleeps or row is None or row.status not in ("open", "running"):
                return None
            # A lone server's wake-up goes on from what was just read.
            table = await (self.wake(table_id, row, (records, clock)) if self.waker == self.wake
                           else self.waker(table_id))
            if table is not None:
                total = time.perf_counter() - started
                timed = listener.heard
                self.wake_times.add(timed, total - sum(t.waited + t.ran + t.back for t in timed), total)
            return table
        finally:
            listener.on = False  # the tasks started meanwhile (the table's own) inherit it
            SINK.reset(token)
            del self._loading[table_id]
            done.set()

    # -- sleeping turn-based tables (docs/table.md T8.5) ----------------------------------

    async def sleep(self, table: Table, horizon_s: float) -> bool:
        """Put a turn-based table to sleep: stop its actor (what its inbox
        holds is served first), drop it from memory, index its next wake-up.
        Requests for it meanwhile wait, then wake it. False if it may no
        longer sleep once stopped (a message made it due or followed)."""
        if self.tables.get(table.id) is not table or table.id in self._loading or table.unloading is not None:
            return False
        self._leave(table)
        self._loading[table.id] = done = trio.Event()
        # As `unload` does: set before the Stop, with no await between, so that
        # every message is either ahead of the Stop or handed on (to `find`).
        table.unloading = self._redirect
        try:
            await table.send(None, Stop())
            await table.stopped.wait()
            wake_at = turns.wake_at(table) if table.status in ("open", "running") else None
            if table.viewers.subscribers and wake_at is not None:
                # Somebody began following it meanwhile: it stays awake, rebuilt
                # at once, its followers with it (nobody's connection is closed).
                self.followers.park(table)
                row = await self.store.table(table.id)
                back = await self.restore(row, None) if row is not None else None
                if back is not None:
                    self.followers.attach(back)
                return False
            if wake_at is None:
                return False
            wake_at = max(wake_at, self.wall()) if wake_at - self.wall() > horizon_s else self.wall()
            await self.store.sleep(table.id, wake_at)
            return True
        finally:
            del self._loading[table.id]
            done.set()

    async def wake(self, table_id: str, row: TableRow | None = None,
                   loaded: tuple[list[LogRecord], tuple[float, bytes] | None] | None = None) -> Table | None:
        """Wake a sleeping table of a lone server: out of the index, rebuilt
        from its log (T4.2) and run; None if it was not asleep (or another
        request woke it first: then it is in memory).

        `row`, `loaded`: its row, log and clock, as `find` just read them
        for a message, holding the table's place in `_loading`. The table is
        rebuilt at once, and its index entry deleted meanwhile (`_unindex`),
        not waited for: the entry only tells the sleeper when to wake it,
        and in a lone server `_loading` is what keeps two wakes of one table
        apart. The delete is queued before the rebuilt table can queue a
        write (the same step of the run loop, or the one before), so it
        commits with the table's first write or before it. Waiting for it
        cost a wake a second turn on the store's connection, in series
        with the read: the slowest hundredth of wakes at 10,000 tables
        spent half their time in those two queues.

        Without them (the sleeper, its time come) they are read, in one
        read, while the index entry is deleted: nothing writes a sleeping
        table's log, and a wake-up then waits for one commit or one read,
        whichever is longer, not both."""
        if row is not None and loaded is not None:
            self.nursery.start_soon(self._unindex, table_id)
            return await self.restore(row, None, loaded=loaded)
        table = await self._settled(table_id)  # a message may be waking it, or it may be going to sleep
        if table is not None:
            return table
        self._loading[table_id] = done = trio.Event()
        try:
            return await self._claim_and_restore(table_id)
        finally:
            del self._loading[table_id]
            done.set()

    async def _unindex(self, table_id: str) -> None:
        """The index entry of a table a message woke, deleted (see `wake`)."""
        try:
            if not await self.store.wake(table_id):
                log.warning("table %s: woken by a message, but it was not in the index of sleeping tables",
                            table_id)
        except Exception:  # the table is awake; its entry wakes it early once more, which finds it awake
            log.warning("table %s: its entry in the index of sleeping tables was not deleted", table_id,
                        exc_info=True)

    async def _claim_and_restore(self, table_id: str) -> Table | None:
        """The sleeper's wake: the index entry deleted while the row, log
        and clock are read; rebuilt if the entry was there."""
        claimed: list[bool | Exception] = []
        read: list[tuple[TableRow | None, list[LogRecord], tuple[float, bytes] | None]] = []

        async def claim() -> None:
            try:
                claimed.append(await self.store.wake(table_id))
            except Exception as exc:  # raised below as itself, not in a group
                claimed.append(exc)

        failed: list[Exception] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(claim)
            try:
                read.append(await self.store.table_log_and_clock(table_id))
            except Exception as exc:  # the claim goes on: it may have woken the table
                failed.append(exc)
        if isinstance(claimed[0], Exception):
            raise claimed[0]
        if failed:
            raise failed[0]
        if not claimed[0]:
            return self.tables.get(table_id)
        row, records, clock = read[0]
        if row is None:
            return None
        return await self.restore(row, None, loaded=(records, clock))

    async def _load(self, row: TableRow | None, records: list[LogRecord]) -> Table | None:
        """A table that is not in memory, rebuilt for `find` from its row
        and log as read (None: it is not to be served that way): an ended
        table. The followers it had are attached by `find`."""
        if row is None or row.status not in ENDED:
            return None
        table_id = row.id
        port = self.ports.get(stored_game(row.meta))
        if port is None:
            return None
        try:
            return Table.restore(row.id, row.meta, records, None, port, self.store, paused_ms=0, wall=self.wall,
                                 log_cap=self.log_cap)
        except Exception:
            # Its rules may no longer replay it (a failed table ended on a bug,
            # say): serve its log as it is, without a game state behind it.
            log.warning("table %s: served from its log without replaying it", table_id, exc_info=True)
            return Table.restore(row.id, row.meta, records, None, port, self.store, paused_ms=0, wall=self.wall,
                                 replay=False, log_cap=self.log_cap)

    def settings_from(self, msg: M.CreateTable,
                      legacy: Mapping[str, Any] | None = None) -> tuple[TableSettings, GameSetup]:
        """Validate a create_table message into settings and its game's setup,
        or raise LobbyError. `legacy`: the message's fields the protocol does
        not define (`codec.unknown_fields`), for the game's port."""
        port = self.ports.get(msg.game)
        if port is None:
            raise LobbyError("table/unknown_game",
                             f"this server plays {', '.join(sorted(self.ports))}; not {msg.game!r}")
        if msg.seats not in port.seats:
            raise LobbyError("table/bad_settings", f"{port.name} is played by {port.seats.start} to "
                                                   f"{port.seats.stop - 1} seats, not {msg.seats}")
        timers = TimerSettings(**{f: getattr(msg.timers, f) for f in msg.timers.__struct_fields__}) \
            if msg.timers is not None else TimerSettings()
        try:
            timers.validate()
        except ValueError as exc:
            raise LobbyError("table/bad_settings", str(exc)) from None
        try:
            name = clean_name(msg.name, max_len=MAX_TABLE_NAME, what="a table name") if msg.name else ""
        except NameRefused as exc:
            raise LobbyError("table/bad_settings", exc.message) from None
        # Nobody chooses an ordinary table's seed; a chosen one makes the table seeded (below).
        seed = msg.seed if msg.seed is not None else dealing.fresh_seed()
        if not 0 <= seed < 2**64:
            raise LobbyError("table/bad_settings", "the seed is an integer from 0 to 2**64-1")
        if msg.proxy_after is not None and not 1 <= msg.proxy_after <= 100:
            raise LobbyError("table/bad_settings", "proxy_after is between 1 and 100")
        options = {**port.new_table_options, **msg.options}
        try:
            setup = port.configure(msg.seats, seed, options, legacy or {})
        except SettingsError as exc:
            raise LobbyError(exc.code, exc.message) from None
        # A chosen seed or setup: its creator may know every hidden card, so the
        # table is never listed, never rated, and says so to everyone (PROTOCOL.md 3, dealing.py).
        seeded = dealing.player_chosen(msg.seed, setup.configured)
        if seeded and msg.rated:
            raise LobbyError("table/bad_settings", "a rated table is dealt by the server: leave out the seed "
                                                   "and any configured setup")
        settings = TableSettings(game=port.name, seats=msg.seats, name=name, public=msg.public and not seeded,
                                 seed=seed, timers=timers, options=setup.options, auto_start=msg.auto_start,
                                 proxy_after=msg.proxy_after, rated=msg.rated, seeded=seeded)
        if msg.rated and self.accounts is None:
            raise LobbyError("table/bad_settings", "this server keeps no accounts, so no table is rated")
        return settings, setup

    async def create(self, settings: TableSettings, setup: GameSetup, *, commit_setup: bool = False,
                     table_id: str | None = None, salt: str | None = None) -> Table:
        """Create and host a table. `commit_setup`: a table the server itself
        creates with a seed or setup of its choosing (a tournament's
        duplicate setup). The server commits to the setup (`dealing.committed`
        over `setup.record`) and the digest is in the table's public
        settings from its first event on; the record reveals the salt.
        Such a table is not `seeded`: no player chose its cards. `table_id`
        and `salt`: a rematch's, committed to when the table before it
        ended (T7.4)."""
        if settings.timers.turn_based and self.sleeps:
            asleep = await self.store.sleeping()
            # Counted one by one (a walk over every awake table, for each
            # creation) only when the turn-based tables in memory, ended ones
            # too, might reach the limit.
            if asleep + len(self._turn) >= self.max_turn_tables and asleep + sum(
                    1 for t in self._turn if self.tables[t].status in ("open", "running")) >= self.max_turn_tables:
                raise LobbyError("lobby/full", f"this server holds {self.max_turn_tables} turn-based tables, "
                                               "the most it may; try later")
        if len(self.tables) >= self.max_tables:
            await self._make_room()
        if commit_setup:
            settings = replace(settings, seeded=False,
                               commitment=dealing.committed(settings.game, setup.record).reveal())
        elif not settings.seeded:
            # T7.1: commit and reveal. The seed is made at the start from this
            # salt and the seats' nonces; the commitment is public from now on.
            settings = replace(settings, commitment=dealing.deal_committed(settings.game, settings.seats,
                                                                           settings.options, salt))
        table_id = table_id or new_id()
        table = Table(table_id, settings, self.ports[settings.game], setup, self.store, wall=self.wall,
                      abandon_after=self.abandon_after, log_cap=self.log_cap)
        await table.create()
        self._enter(table)
        self.nursery.start_soon(self._host, table, name=f"table {table_id}")
        return table

    async def _make_room(self) -> None:
        """T6.3: a full lobby abandons the open table that has gone longest
        without a connected client seat, so that tables nobody holds never
        lock everyone else out; LobbyError when every table is held."""
        while len(self.tables) >= self.max_tables:
            idle = [(since, t) for t in self.tables.values()
                    if t.status == "open" and not t.settings.timers.turn_based  # held open for 7 days (T8.4)
                    and (since := t.statistics().unattended_since) is not None]
            if not idle:
                raise LobbyError("lobby/full", "this server holds as many tables as it can, each of them "
                                               "running or held by a player; try later")
            victim = min(idle, key=lambda x: x[0])[1]
            done = trio.Event()
            await victim.send(None, Abandon(done))
            await done.wait()
            if victim.status != "abandoned":  # someone sat down meanwhile (the table says so)
                continue
            if self.tables.get(victim.id) is victim:
                self._leave(victim)

    async def _host(self, table: Table, *, reloaded: bool = False) -> None:
        """Run a table's actor; once its game has ended (or failed), settle
        it and let it go (`unload`) at once: its record, replay and rematch
        are served from the store, and the connections that still follow it
        (the end screen, its chat, a rematch offered) are kept without it
        (`Followers`). A table brought back from the store for a message
        (`reloaded`) goes again after QUIET_S without one. The actor ends
        a failing table itself (Table._fail); should even that fail, the
        error stops here, with this table: an exception out of this task
        would cancel every table of the server."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._see_off, table, reloaded, nursery.cancel_scope)
                await table.run()
                nursery.cancel_scope.cancel()
        except Exception:
            log.exception("table %s: its actor stopped on an error", table.id)
        finally:
            if table.unloading is not None and table.status in ENDED:
                self.followers.park(table)
                done = self._loading.pop(table.id, None)
                if done is not None:
                    done.set()
            if self.tables.get(table.id) is table:
                self._leave(table)

    async def _see_off(self, table: Table, reloaded: bool, actor: trio.CancelScope) -> None:
        """Wait for the table's end; then settle it and unload it (an
        abandoned table: stop its actor once nothing reaches it)."""
        await table.ended.wait()
        if table.status == "abandoned":
            if self.tables.get(table.id) is table:
                self._leave(table)  # gone for everyone new; its actor answers what is in flight
            await self._linger_abandoned(table)
            actor.cancel()
            return
        if not reloaded:
            if table.status == "finished":
                self.finished_total += 1
            await self._settle(table)
        else:
            await self._quiet(table)
        await self.unload(table)

    async def _linger_abandoned(self, table: Table) -> None:
        """An abandoned table answers what reaches it while somebody still
        watches it (`linger_s` at most), and for QUIET_S after."""
        with trio.move_on_after(self.linger_s):
            while True:
                change = table.changed()
                if table.statistics().watchers:
                    await change.wait()
                    continue
                with trio.move_on_after(QUIET_S):
                    await change.wait()
                    continue
                return

    async def _quiet(self, table: Table) -> None:
        """A table brought back from the store stays while messages keep
        reaching it (a chat at the end screen), `linger_s` at most, and goes
        once nothing has reached it for QUIET_S."""
        with trio.move_on_after(self.linger_s):
            while True:
                change = table.changed()
                with trio.move_on_after(QUIET_S):
                    await change.wait()
                    continue
                return

    async def unload(self, table: Table) -> None:
        """Let a table's actor go; its log in the store keeps the table.
        From now on it is not in memory for anyone new (`find` waits until
        it has gone, then rebuilds it); the messages sent to the old actor
        go where `find` sends them (`_redirect`); the actor handles what its
        inbox held, stops, and the connections watching it are kept as its
        `followers` (done in `_host`, once the actor has stopped)."""
        if table.unloading is not None:
            return
        if self.tables.get(table.id) is table:
            self._leave(table)
        self._loading.setdefault(table.id, trio.Event())
        # Set before the Stop is queued, with no await between: every message
        # sent to this actor is either ahead of the Stop or handed on.
        table.unloading = self._redirect
        await table.send(None, Stop())

    async def _redirect(self, table_id: str, outbox: Outbox | None, message: Any) -> None:
        """A message for a table that has left memory: a closed connection
        follows it no more; the server's own housekeeping is moot; anything
        else goes to the table rebuilt from the store (`find`)."""
        if isinstance(message, Disconnected):
            await self.disconnected(table_id, message.outbox)
            return
        if isinstance(message, Abandon):
            message.done.set()
            return
        if isinstance(message, Stop | Dismiss | Reserve | Begin | CatchUp):
            return
        table = await self.find(table_id)
        if table is not None:
            await table.send(outbox, message)

    async def followed(self, table_id: str) -> Table | None:
        """The table, if somebody may still be following it: in memory, or
        brought back for the connections that followed it out of memory (a
        rematch offered reaches them); None when nobody does."""
        table = self.tables.get(table_id)
        if table is not None or (table_id not in self.followers and table_id not in self._loading):
            return table
        return await self.find(table_id)

    async def disconnected(self, table_id: str, outbox: Outbox) -> None:
        """A connection that talked to a table has closed: the table hears
        of it, in memory or out of it (its followers)."""
        table = self.tables.get(table_id)
        if table is not None:
            await table.send(None, Disconnected(outbox))
            return
        loading = self._loading.get(table_id)
        if loading is not None:
            await loading.wait()
            table = self.tables.get(table_id)
            if table is not None:
                await table.send(None, Disconnected(outbox))
                return
        self.followers.forget(table_id, outbox)

    async def _settle(self, table: Table) -> None:
        """A finished game's results for its seats' accounts: ranks, promises
        (through the game's port) and, on a rated table, ratings. Stored
        once per table; a store error is logged and the table goes on."""
        now = table.statistics()
        if self.accounts is None or now.status != "finished" or now.result is None:
            return
        ranks = now.result.get("ranks")
        seated = [(i, s.account["id"]) for i, s in enumerate(now.seats) if s is not None and s.account is not None]
        if not seated or not isinstance(ranks, list | tuple) or len(ranks) != len(now.seats):
            return
        promises = table.port.promises(table.events, len(now.seats))
        rated = table.settings.rated and len(seated) == len(now.seats)
        try:
            await self.accounts.record_game(table.id, table.settings.game, [
                Seated(account_id=a, rank=int(ranks[i]),
                       promises=Promises(*promises[i]) if promises is not None else Promises()) for i, a in seated],
                rated=rated)
        except Exception:
            log.exception("table %s: its results were not stored", table.id)

    async def rematch(self, table_id: str, token: str) -> Rematch:
        """The rematch of ended table `table_id` for the player holding
        `token` (LobbyError otherwise): the same settings with a new seed.
        The first request creates it; the next ones get the same table
        while it lives, so a table's players meet again at one table. The
        ended table may be gone from memory: its settings and seats come
        from the store then."""
        live = self.tables.get(table_id)
        if live is not None:
            status, meta = live.status, decode_any(live.meta())
        else:
            row = await self.store.table(table_id)
            if row is None:
                raise LobbyError("table/unknown", f"there is no table {table_id!r}")
            status, meta = row.status, decode_any(row.meta)
        if status not in ENDED:
            raise LobbyError("rematch/not_ended", "a rematch is offered once the game has ended")
        settings, _ = TableSettings.from_plain(meta["settings"])
        slots = meta["slots"]
        mine = token_hash(token)
        seat = next((i for i, s in enumerate(slots) if s is not None and secrets.compare_digest(s[1], mine)), None)
        if seat is None:
            raise LobbyError("auth/bad_token", "that token holds no seat at this table")
        bots = {i: s[2] for i, s in enumerate(slots) if s is not None and len(s) > 2 and s[2]}
        async with self._rematching:
            known = self.tables.get(self.rematches.get(table_id, ""))
            if known is not None and known.status not in ENDED:
                return Rematch(known, seat, slots[seat][0], bots, created=False)
            port = self.ports.get(settings.game)
            if port is None:
                raise LobbyError("table/unknown_game", f"this server does not play {settings.game!r} any more")
            seed = dealing.fresh_seed()
            # A rematch is a new table: it plays the game's current rules.
            try:
                setup = rematch_setup(port, settings, seed)
            except SettingsError as exc:
                raise LobbyError(exc.code, exc.message) from None
            nxt = await self._precommitted(meta.get("rematch"), settings, setup)
            # A configured setup is kept (and the table stays seeded); a commitment is not:
            # the rematch is a player's table, not the server's.
            table = await self.create(replace(settings, seed=seed, options=setup.options,
                                              seeded=setup.configured, commitment=None), setup,
                                      table_id=nxt["table"] if nxt else None, salt=nxt["salt"] if nxt else None)
            self.rematches[table_id] = table.id
            while len(self.rematches) > MAX_TABLES:
                del self.rematches[next(iter(self.rematches))]
        return Rematch(table, seat, slots[seat][0], bots, created=True, precommitted=nxt is not None)

    async def _precommitted(self, nxt: Any, settings: TableSettings, setup: GameSetup) -> dict[str, str] | None:
        """The rematch an ended table committed to as it ended (T7.4), if it
        still holds: not made yet, and its commitment is what the rematch's
        settings give (the game's rules may have changed since). None: the
        rematch gets a fresh salt, and its creating request's nonce does not
        count (transport: PreCommitJoin)."""
        if not isinstance(nxt, dict) or setup.configured or not all(isinstance(nxt.get(k), str)
                                                                   for k in ("table", "salt", "commitment")):
            return None
        if nxt["table"] in self.tables or await self.store.table(nxt["table"]) is not None:
            return None
        if dealing.deal_commitment(settings.game, settings.seats, setup.options, nxt["salt"]) != nxt["commitment"]:
            return None
        return nxt

    async def is_withheld(self, table_id: str) -> bool:
        """Whether a tournament withholds the table's record, spectating and
        replay now: known here (this process directs the tournament), or
        stored with the table (any process of the site may)."""
        if table_id in self.withheld:
            return True
        return self.withheld_elsewhere and 0 < len(table_id) <= 64 and await self.store.withheld(table_id)

    def listing(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if t.settings.public and t.id not in self.withheld]

    async def record(self, table_id: str) -> dict[str, Any] | None:
        """The record of an ended table, as saved at its end (or kept in memory)."""
        table = self.tables.get(table_id)
        if table is not None and table.settled:
            return table.record()
        if table is not None:
            return None  # not ended, or its end still being stored
        body = await self.store.record(table_id)
        return decode_any(body) if body is not None else None

    async def recover(self) -> int:
        """Rebuild every open or running table from the store."""
        last_alive = await self.store.last_heartbeat()
        count = 0
        for row in await self.store.tables(["open", "running"], asleep=False):
            if await self.restore(row, last_alive) is not None:
                count += 1
        return count

    async def restore(self, row: TableRow, last_alive: float | None, *, abandon: bool = True,
                      loaded: tuple[list[LogRecord], tuple[float, bytes] | None] | None = None) -> Table | None:
        """Rebuild one open or running table from its log and run it (its
        deadlines resume with the time they had at `last_alive`); None if it
        cannot be (marked abandoned when its log does not replay, with
        `abandon`: a process of a many-process site leaves it to another).
        `loaded`: its log and clock, if the caller read them already."""
        records, clock = loaded if loaded is not None else await self.store.log_and_clock(row.id)
        paused_ms = 0
        clock_body = None
        saved_at: float | None = None
        if clock is not None:
            saved_at, clock_body = clock
            if last_alive is not None:
                paused_ms = max(0, int((last_alive - saved_at) * 1000))
        game = stored_game(row.meta)
        port = self.ports.get(game)
        if port is None:
            # Kept as it is: a server that plays this game can recover it.
            log.error("cannot recover table %s: this server does not play %r", row.id, game)
            return None
        try:
            table = Table.restore(row.id, row.meta, records, clock_body, port, self.store,
                                  paused_ms=paused_ms, wall=self.wall, log_cap=self.log_cap,
                                  abandon_after=self.abandon_after,
                                  turn=(saved_at, self.started) if saved_at is not None else None)
            table.seated_at = row.updated_at  # an open turn-based table's 7 days run on (T8.4)
        except (TableError, KeyError, ValueError) as exc:
            log.error("cannot recover table %s: %s", row.id, exc)
            if abandon:
                await self.store.update_table(row.id, status="abandoned", now=self.wall())
            return None
        if table.status in ENDED:
            # Killed between the last events and the status or record that
            # follow them: the log says the game ended, so finish it from there.
            await self._finish_recovered(table)
        self._enter(table)
        self.nursery.start_soon(self._host, table, name=f"table {row.id}")
        return table

    async def _finish_recovered(self, table: Table) -> None:
        """Write what a table's end writes after its last events (the record,
        then the status), as its log has them. The record is a function of
        the log and the seats, so writing it again gives the same bytes."""
        log.warning("table %s: its log ends the game but the store says it runs; finishing it", table.id)
        await self.store.save_record(table.id, encode(table.record()))
        await self.store.update_table(table.id, status=table.status, now=self.wall())
