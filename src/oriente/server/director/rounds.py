"""A tournament's rounds played on the server's tables.

A round's tables are created with the tournament's timers and options (in
duplicate, the board's seed), `auto_start` off, each seat reserved for its
entrant (`Reserve`) with a seat token derived from the tournament's secret.
A table starts (`Begin`) once every seat is held, or when the show-up
deadline passes: absent seats are then played by the seat proxy, or
forfeit (TR4.5). The rounds learn of a table's seats from the table
(`Table.statistics`), woken when they change (`Table.changed`), and never
read or write the table's own state. A table's end records its ranks.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from ..clock import TimerSettings
from ..lobby import Lobby
from ..stores import Store
from ..table import Begin, Dismiss, Reserve, Table, TableSettings, token_hash
from ..tournament import Round, RoundTable
from .followers import Followers
from .live import THREAD_SEATING, DirectorError, Live, attempt, first_of
from .recovery import Storage

log = logging.getLogger("oriente.director")


class Rounds:
    """Runs the rounds of the tournaments directed here. `adopt_table`: on
    a site of many processes, brings here a tournament's table that is not
    (the cluster node's `adopt`; None on a lone server)."""

    def __init__(self, lobby: Lobby, store: Store, storage: Storage, followers: Followers, *,
                 bots: Any = None) -> None:
        self.lobby = lobby
        self.store = store
        self.storage = storage
        self.followers = followers
        self.bots = bots
        self.adopt_table: Callable[[str], Awaitable[Table | None]] | None = None

    async def start_round(self, live: Live) -> Round:
        """Seat the next round (in a worker thread: seating a big field takes
        a second of CPU the tables should not wait for), store it, run it.
        The caller holds the tournament's lock."""
        t = live.t
        if len(t.entrants) < THREAD_SEATING:
            rnd: Round = attempt(t.start_round)
        else:
            rnd = await trio.to_thread.run_sync(lambda: attempt(t.start_round))
        await self.storage.save(live, rounds=[rnd.number])
        live.spawn(self.run_round, live, rnd.number)
        return rnd

    async def run_round(self, live: Live, number: int) -> None:
        """Create the round's tables (those not created yet) and run each."""
        rnd = live.t.rounds[number - 1]
        for table in rnd.tables:
            if table.table_id is None and live.t.rounds[number - 1] is rnd:
                await self._create_table(live, number, table.index)
        for table in rnd.tables:
            if table.table_id is not None and not table.done and table.table_id not in live.ready:
                await self._reserve_missing(live, table)
            if table.table_id is not None and not table.done and table.table_id not in live.running:
                live.running.add(table.table_id)
                live.spawn(self._run_table, live, number, table.index)
        self.followers.broadcast(live)

    async def _create_table(self, live: Live, number: int, index: int) -> None:
        t = live.t
        spot = t.rounds[number - 1].tables[index]
        port = self.lobby.ports[t.config.game]
        seats = len(spot.entrants)
        seed = spot.board_seed if spot.board_seed is not None else secrets.randbits(63)
        options = {**port.new_table_options, **t.config.options}
        setup = port.configure(seats, seed, options, {})
        settings = TableSettings(game=port.name, seats=seats, name=f"{t.config.name[:40]} R{number} T{index + 1}",
                                 public=spot.board is None, seed=seed, timers=TimerSettings(**t.config.timers),
                                 options=setup.options, auto_start=False,
                                 proxy_after=1 if t.config.no_show == "proxy" else None)
        # A duplicate board is the server's own choice of setup: the lobby
        # commits to it (dealing.py) instead of making the seed at the start
        # from the seats' nonces, which would give every table its own cards.
        table = await self.lobby.create(settings, setup, commit_setup=spot.board is not None)
        async with live.lock:
            spot.table_id = table.id
            await self.storage.save(live, rounds=[number])  # with the table's withheld state, before anyone hears of it
        server_bots: dict[int, str] = {}
        names: dict[int, str] = {}
        for seat, e in enumerate(spot.entrants):
            entrant = t.entrants[e]
            if entrant.policy is not None and self.bots is not None:
                server_bots[seat], names[seat] = entrant.policy, entrant.name
            else:
                token = live.seat_token(table.id, seat)
                await table.send(None, Reserve(seat=seat, name=entrant.name, token_hash=token_hash(token),
                                               account=await self._card(entrant.account)))
        if server_bots:
            await self.bots.seat(table, server_bots, names=names)
        live.ready.add(table.id)

    async def _reserve_missing(self, live: Live, spot: RoundTable) -> None:
        """After a restart: a table created before it may have seats not yet
        reserved (the server stopped in between); reserve them now. Seats
        already taken are left alone (the table refuses a second reserve)."""
        assert spot.table_id is not None
        table = await self._table(spot.table_id)
        seats = table.statistics().seats if table is not None else ()
        if table is not None and table.status == "open":
            for seat, e in enumerate(spot.entrants):
                entrant = live.t.entrants[e]
                if seats[seat] is None and entrant.policy is None:
                    token = live.seat_token(table.id, seat)
                    await table.send(None, Reserve(seat=seat, name=entrant.name, token_hash=token_hash(token),
                                                   account=await self._card(entrant.account)))
                elif seats[seat] is None and self.bots is not None:
                    await self.bots.seat(table, {seat: entrant.policy}, names={seat: entrant.name})
        live.ready.add(spot.table_id)

    async def _card(self, account_id: str | None) -> dict[str, Any] | None:
        """The card a reserved seat shows of its entrant's account (as a
        signed-in join's seat does), or None."""
        accounts = self.lobby.accounts
        if account_id is None or accounts is None:
            return None
        row = await self.store.account(account_id)
        return await accounts.card(row) if row is not None else None

    async def _run_table(self, live: Live, number: int, index: int) -> None:
        """Wait for the players (TR4.5), start the table, wait for its end."""
        spot = live.t.rounds[number - 1].tables[index]
        table_id = spot.table_id
        assert table_id is not None
        try:
            table = await self._table(table_id)
            if table is None:
                log.error("tournament %s: table %s is gone", live.t.id, table_id)
                return
            if table.status == "open" and not await self._start_when_present(live, number, index, table):
                return  # its round was seated again: this table is dropped
            await table.ended.wait()
            if spot.done:
                return
            now = table.statistics()
            async with live.lock:
                if now.status == "finished" and now.result is not None and "ranks" in now.result:
                    live.t.record_result(number, index, list(now.result["ranks"]))
                else:
                    log.warning("tournament %s: table %s ended without ranks; the organiser adjudicates it",
                                live.t.id, table_id)
                    spot.status = "failed"
                await self.storage.save(live, head=live.t.finished, rounds=[number])
            self.followers.broadcast(live)
            await self._auto_round(live, number)
            if live.t.config.format == "arena":
                for e in spot.entrants:
                    entrant = live.t.entrants[e]
                    if entrant.policy is not None or e in live.following():
                        await self.arena_wait(live, e)
        finally:
            live.running.discard(table_id)

    async def _start_when_present(self, live: Live, number: int, index: int, table: Table) -> bool:
        """Start the table once every seat is held, or once the show-up
        deadline has passed with every seat taken (TR4.5), unless the round
        is paused. Woken by the table when its seats change and by the
        organiser's actions (`Followers.broadcast`). False: the round was
        seated again, and this table is not its any more."""
        spot = live.t.rounds[number - 1].tables[index]
        rnd = live.t.rounds[number - 1]
        deadline = trio.current_time() + live.t.config.show_up_s
        while True:
            if len(live.t.rounds) < number or live.t.rounds[number - 1] is not rnd:
                return False
            now = table.statistics()
            if now.status != "open" or spot.done:
                return True
            if now.full and not rnd.paused and (now.present or trio.current_time() >= deadline):
                break
            await first_of([table.changed(), live.stirred], deadline if trio.current_time() < deadline else math.inf)
        absent = now.absent
        async with live.lock:
            spot.absent = absent
            if live.t.config.no_show == "forfeit":
                spot.forfeits = list(absent)
            spot.status = "started"
            await self.storage.save(live, rounds=[number])
        await table.send(None, Begin(proxied=absent if live.t.config.no_show == "proxy" else []))
        self.followers.broadcast(live)
        return True

    async def _auto_round(self, live: Live, number: int) -> None:
        """TR5.6: with `auto_rounds`, the round just played starts the next."""
        t = live.t
        if not t.config.auto_rounds or t.config.format == "arena" or t.finished:
            return
        async with live.lock:
            if len(t.rounds) == number and t.rounds[-1].done and len(t.rounds) < t.config.rounds \
                    and not t.rounds[-1].paused:
                try:
                    await self.start_round(live)
                except DirectorError as exc:
                    log.warning("tournament %s: round %d did not start by itself: %s", t.id, number + 1, exc)
        self.followers.broadcast(live)

    async def arena_wait(self, live: Live, entrant: str) -> None:
        """An arena's entrant waits for a table; a table is seated as soon as
        enough wait (TR3.3)."""
        if live.t.finished or entrant in live.waiting:
            return
        live.waiting.append(entrant)
        async with live.lock:
            rnd = live.t.arena_seat(live.waiting)
            if rnd is None:
                return
            seated = {e for x in rnd.tables for e in x.entrants}
            live.waiting = [e for e in live.waiting if e not in seated]
            await self.storage.save(live, rounds=[rnd.number])
        await self.run_round(live, rnd.number)

    async def drop(self, table_id: str | None) -> None:
        """A re-seated round's old table: abandoned, and out of the lobby."""
        if table_id is None:
            return
        table = self.lobby.get(table_id)
        if table is not None:
            await table.send(None, Dismiss())

    async def _table(self, table_id: str) -> Table | None:
        """A table of a tournament directed here: in this process, or (on a
        site of many) taken over from the store, where the process that had
        it left it."""
        table = await self.lobby.find(table_id)
        if table is None and self.adopt_table is not None:
            table = await self.adopt_table(table_id)
        return table
