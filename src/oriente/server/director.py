"""The tournament director: runs the events of `server/tournament` on this
server's tables (docs/tournaments.md).

Game-agnostic: it knows a game through its port only (the seat range for
the table sizes allowed; the optional `interactions` for the collusion
report), and creates, seats and starts tables through the lobby like any
other table. The pure tournament decides; the director stores its state
(`Store.save_tournament`) after every change, before anyone is told, and
does what the change asks:

- a round's tables are created with the tournament's timers and options
  (in duplicate, the board's seed), `auto_start` off, each seat reserved for
  its entrant (`Reserve`); the entrant's seat token is derived from the
  tournament's secret, so the director can hand it out again after a
  restart without storing it;
- a table starts (`Begin`) once every seat is connected, or when the
  show-up deadline passes: absent seats are then played by the seat proxy,
  or forfeit (TR4.5). The director learns of its seats from the table
  (`Table.statistics`), woken by the table when they change (`Table.changed`),
  and never reads or writes the table's own state;
- a table's end records its ranks; a round's end is the organiser's cue.

After a restart `recover` reloads every unfinished tournament and picks up
each table where it is: waiting for its players, playing, or ended while
the server was down.

On a site of many processes (`server.cluster`) each tournament is directed
by one process, its owner in the store, like a table: the others forward
its messages there, list it from the bus, and read its exports from the
store. The owner's writes are fenced (a process that lost the tournament
gets StoreFenced and lets it go, `_lose`); its tables are taken over only
by the process directing it (`Store.orphans`), and a process that takes a
tournament over (`take`) brings its tables with it (`adopt_table`). Which
tables are withheld is stored with them (`save_tournament(tables=...)`),
so that every process refuses their records, spectating and replays.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import trio

from ..games.kit.port import SettingsError
from ..protocol.codec import decode_any, encode
from ..refusal import Refusal
from .clock import TimerSettings
from .ids import new_id, new_token
from .lobby import Lobby
from .outbox import Outbox
from .stores import AccountRow, Store, StoreFenced
from .table import Begin, Dismiss, Reserve, Table, TableSettings, nonce_token, token_hash
from .tournament import Config, Round, RoundTable, Tournament, TournamentError
from .tournament.collusion import report as collusion_report
from .tournament.seeds import KEY_BYTES, key_of_seed
from .tournament.standings import standings, standings_csv, withheld

log = logging.getLogger("oriente.director")

MAX_TOURNAMENTS = 1_000
THREAD_SEATING = 60  # entrants from which a round is seated in a worker thread
PUBLISH_S = 1.0  # full states go out at most this often per tournament
SHOWN_ROUNDS = 3  # an arena's finished seatings a full state shows (the export has them all)


class DirectorError(Refusal):
    """A tournament request refused (`tournament/...`): not a strike (PROTOCOL.md 21)."""


@dataclass(slots=True)
class _Live:
    """What the director keeps in memory for one tournament beside its
    stored state: its secret (seat tokens), who follows it, who waits in
    the arena. Its seed key is `t.seed_key` (stored beside the secret)."""

    t: Tournament
    secret: str
    lock: trio.Lock = field(default_factory=trio.Lock)
    watchers: dict[Outbox, _Watcher] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)  # arena: entrants waiting, longest first
    running: set[str] = field(default_factory=set)  # server tables with a task watching them
    changed: trio.Event = field(default_factory=trio.Event)  # wakes the publisher
    stirred: trio.Event = field(default_factory=trio.Event)  # set (and renewed) at each change: wakes waiting tables
    ready: set[str] = field(default_factory=set)  # tables whose seats are reserved: told to their entrants
    held: dict[str, bool] = field(default_factory=dict)  # board tables' withheld state, as last stored
    nursery: trio.Nursery | None = None  # its tasks: cancelled together when the tournament goes elsewhere


@dataclass(slots=True)
class _Watcher:
    """One follower: an entrant (or a viewer: None); `full` frames carry the
    whole public state, brief ones only what the entrant needs to play."""

    entrant: str | None
    full: bool
    shown: Any = None  # the brief state it was sent last


class Director:
    def __init__(self, lobby: Lobby, store: Store, nursery: trio.Nursery, *, bots: Any = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.lobby = lobby
        self.store = store
        self.nursery = nursery
        self.bots = bots
        self.wall = wall
        self.live: dict[str, _Live] = {}
        # A site of many processes: the tournaments are the store's to hand
        # out (`take`), and a tournament's table not here is adopted with
        # this (the cluster node's `adopt`; None on a lone server).
        self.site = bool(getattr(store, "cluster", False))
        self.adopt_table: Callable[[str], Any] | None = None

    # -- creating and finding ------------------------------------------------------

    async def create(self, settings: dict[str, Any]) -> tuple[Tournament, str]:
        """TR1.1: a new tournament; returns it and its organiser token (given once)."""
        if len(self.live) >= MAX_TOURNAMENTS:
            raise DirectorError("tournament/full", "this server holds as many tournaments as it can")
        settings = dict(settings)
        if "seed_scheme" in settings:
            raise DirectorError("tournament/bad_settings", "the server sets seed_scheme, not the organiser")
        try:
            config = Config.from_plain(settings)
            config.validate()
        except TournamentError as exc:
            raise DirectorError(exc.code, exc.message) from None
        port = self.lobby.ports.get(config.game)
        if port is None:
            raise DirectorError("tournament/bad_settings",
                                f"this server plays {', '.join(sorted(self.lobby.ports))}; not {config.game!r}")
        outside = [s for s in config.table_sizes if s not in port.seats]
        if outside:
            raise DirectorError("tournament/bad_settings", f"{port.name} is played by {port.seats.start} to "
                                f"{port.seats.stop - 1} seats, not {outside[0]}")
        try:
            TimerSettings(**config.timers).validate()
            port.configure(min(config.table_sizes), 0, {**port.new_table_options,
                                                        **config.options}, {})
        except (TypeError, ValueError) as exc:
            raise DirectorError("tournament/bad_settings", f"timers: {exc}") from None
        except SettingsError as exc:
            raise DirectorError("tournament/bad_settings", exc.message) from None
        token = new_token("o")
        # The key every round seed and board comes from (tournament/seeds.py):
        # drawn here unless the organiser chose the seed, kept in the store,
        # never shown.
        key = key_of_seed(config.seed) if config.seed is not None else secrets.token_bytes(KEY_BYTES)
        t = Tournament(id=new_id(), config=config, organiser_hash=token_hash(token), seed_key=key)
        live = _Live(t=t, secret=secrets.token_urlsafe(32))
        self.live[t.id] = live
        await self._save(live, head=True)
        await self._host(live)
        return t, token

    async def _host(self, live: _Live) -> None:
        """Give the tournament a nursery of its own for its tasks, and start
        its publisher: one failing task ends this tournament's tasks (logged)
        and nothing else; `_lose` cancels them all."""
        async def host(task_status: trio.TaskStatus[trio.Nursery] = trio.TASK_STATUS_IGNORED) -> None:
            try:
                async with trio.open_nursery() as nursery:
                    task_status.started(nursery)
                    nursery.start_soon(self._publisher, live)
            except Exception:
                log.exception("tournament %s: its tasks stopped on an error; it is not directed until "
                              "the server restarts", live.t.id)
                if self.live.get(live.t.id) is live:
                    del self.live[live.t.id]

        live.nursery = await self.nursery.start(host)

    def _spawn(self, live: _Live, fn: Callable[..., Any], *args: Any) -> None:
        assert live.nursery is not None
        live.nursery.start_soon(fn, *args)

    def _lose(self, live: _Live) -> None:
        """Another process directs this tournament now (this one was fenced,
        or handed it on): stop its tasks, forget it, and send its watchers
        on (`server/moved`: they reconnect and watch it again, there)."""
        if self.live.get(live.t.id) is live:
            del self.live[live.t.id]
        if live.nursery is not None:
            live.nursery.cancel_scope.cancel()
        for outbox in list(live.watchers):
            outbox.evict("server/moved")
        live.watchers.clear()
        self._withhold(live, clear=True)
        log.warning("tournament %s: another process directs it now; let go here", live.t.id)

    def get(self, tournament_id: str) -> _Live:
        live = self.live.get(tournament_id)
        if live is None:
            raise DirectorError("tournament/unknown", f"there is no tournament {tournament_id!r}")
        return live

    def organiser(self, tournament_id: str, token: str | None) -> _Live:
        live = self.get(tournament_id)
        if token is None or not hmac.compare_digest(token_hash(token), live.t.organiser_hash):
            raise DirectorError("auth/not_organiser", "that is not this tournament's organiser token")
        return live

    # -- entries -------------------------------------------------------------------

    async def register(self, tournament_id: str, name: str, *, kind: str = "player", policy: str | None = None,
                       organiser_token: str | None = None, account: AccountRow | None = None) -> tuple[str, str]:
        """TR1.2: a new entrant; returns its id and its entry token. A server
        bot (a `policy`) is entered by the organiser only. An entrant signed
        in to an `account` enters under the account's name, once, and its
        entry is the account's; nobody else may enter under an account's name."""
        live = self.get(tournament_id)
        if account is not None and policy is None:
            name = account.name
            kind = "bot" if account.kind == "bot" else kind
            if any(e.account == account.id for e in live.t.entrants.values()):
                raise DirectorError("tournament/already_entered", f"the account {account.name!r} has an entry here "
                                    "already: follow the tournament with its entry token")
        elif await self._account_named(name) is not None:
            raise DirectorError("tournament/name_reserved", f"{name.strip()!r} is an account's name: sign in to that "
                                "account to enter under it, or choose another name")
        if policy is not None:
            self.organiser(tournament_id, organiser_token)
            port = self.lobby.ports[live.t.config.game]
            policy = str(port.policy_aliases.get(policy, policy))  # an old name
            if self.bots is None or policy not in port.policies:
                raise DirectorError("bots/unknown", f"this server's bots for {port.name} are "
                                    f"{', '.join(port.policies) or 'none'}")
            kind = "bot"
        token = new_token("e")
        async with live.lock:
            entrant = self._do(lambda: live.t.register(name, kind=kind, token_hash=token_hash(token),
                                                       policy=policy,
                                                       account=account.id if account and not policy else None))
            await self._save(live, head=True)
        if policy is not None and live.t.config.format == "arena":
            await self._arena_wait(live, entrant.id)
        self._broadcast(live)
        return entrant.id, token

    async def _account_named(self, name: str) -> AccountRow | None:
        """The account whose name `name` is (as accounts compare names:
        case-folded), if this server keeps accounts."""
        if self.lobby.accounts is None:
            return None
        key = name.strip().casefold()
        return await self.store.account_by_key(key) if key else None

    async def _card(self, account_id: str | None) -> dict[str, Any] | None:
        """The card a reserved seat shows of its entrant's account (as a
        signed-in join's seat does), or None."""
        accounts = self.lobby.accounts
        if account_id is None or accounts is None:
            return None
        row = await self.store.account(account_id)
        return await accounts.card(row) if row is not None else None

    def entrant_of(self, live: _Live, token: str) -> str:
        e = live.t.by_token(token_hash(token))
        if e is None:
            raise DirectorError("auth/bad_token", "that token holds no entry in this tournament")
        return e.id

    async def withdraw(self, tournament_id: str, token: str, entrant_id: str | None = None) -> str:
        """TR4.4: an entrant withdraws itself (its token), or the organiser
        withdraws one (the organiser token and `entrant_id`)."""
        live = self.get(tournament_id)
        if entrant_id is None:
            entrant_id = self.entrant_of(live, token)
        else:
            self.organiser(tournament_id, token)
        async with live.lock:
            self._do(lambda: live.t.withdraw(entrant_id))
            await self._save(live, head=True)
        if entrant_id in live.waiting:
            live.waiting.remove(entrant_id)
        self._broadcast(live)
        return entrant_id

    # -- the organiser's actions -------------------------------------------------------

    async def direct(self, tournament_id: str, token: str | None, action: str, args: dict[str, Any]) -> dict[str, Any]:
        """TR5 and rounds: every action of the organiser, by name."""
        live = self.organiser(tournament_id, token)
        t = live.t
        out: dict[str, Any] = {}
        async with live.lock:
            match action:
                case "start_round":
                    rnd = await self._start_round(live)
                    out["round"] = self.round_plain(rnd, withheld(t))
                case "pause" | "resume":
                    number = int(args.get("round") or len(t.rounds))
                    self._do(lambda: t.set_paused(number, action == "pause"))
                    await self._save(live, rounds=[number])
                case "reseat":
                    number = int(args.get("round") or len(t.rounds))
                    old = [x.table_id for x in t.rounds[number - 1].tables] if 0 < number <= len(t.rounds) else []
                    rnd = self._do(lambda: t.reseat(number))
                    await self._save(live, rounds=[number])
                    for table_id in old:
                        await self._drop(table_id)
                    out["round"] = self.round_plain(rnd, withheld(t))
                    self._spawn(live, self._run_round, live, rnd.number)
                case "adjudicate":
                    number, index = int(args.get("round") or 0), int(args.get("table") or 0)
                    ranks = [int(r) for r in args.get("ranks") or []]
                    self._do(lambda: t.adjudicate(number, index, ranks))
                    await self._save(live, head=True, rounds=[number])
                case "disqualify" | "withdraw":
                    entrant = str(args.get("entrant") or "")
                    self._do(lambda: (t.disqualify if action == "disqualify" else t.withdraw)(entrant))
                    if entrant in live.waiting:
                        live.waiting.remove(entrant)
                    await self._save(live, head=True)
                case "finish":
                    t.finished = True
                    await self._save(live, head=True)
                case "collusion":
                    out["report"] = await self.collusion(live)
                case _:
                    raise DirectorError("tournament/bad_action", f"no action {action!r}; the actions are "
                                        "start_round, pause, resume, reseat, adjudicate, disqualify, withdraw, "
                                        "finish, collusion")
        self._broadcast(live)
        out["state"] = self.public(live)
        return out

    # -- following a tournament -----------------------------------------------------------

    def watch(self, tournament_id: str, outbox: Outbox, token: str | None,
              full: bool = True) -> tuple[_Live, str | None]:
        """Subscribe `outbox` to a tournament's news; with an entry token, as
        that entrant (who then hears its seat at each new table, and waits in
        an arena). `full`: frames with the whole public state (at most one a
        second), else brief ones (only when the entrant's table changes)."""
        live = self.get(tournament_id)
        entrant = self.entrant_of(live, token) if token else None
        live.watchers[outbox] = _Watcher(entrant=entrant, full=full or entrant is None)
        return live, entrant

    def frame_for(self, live: _Live, outbox: Outbox) -> dict[str, Any]:
        """The state a watcher gets now (the first frame after watching)."""
        w = live.watchers[outbox]
        if w.full:
            return self.public(live, w.entrant)
        w.shown = self.brief(live, w.entrant)
        return w.shown

    async def arena_enter(self, live: _Live, entrant: str | None) -> None:
        if entrant is not None and live.t.config.format == "arena":
            await self._arena_wait(live, entrant)

    def unwatch(self, outbox: Outbox) -> None:
        for live in self.live.values():
            w = live.watchers.pop(outbox, None)
            entrant = w.entrant if w is not None else None
            if entrant and entrant in live.waiting and not live.t.entrants[entrant].policy and \
                    entrant not in self._following(live):
                live.waiting.remove(entrant)

    @staticmethod
    def _following(live: _Live) -> set[str]:
        return {w.entrant for w in live.watchers.values() if w.entrant is not None}

    def public(self, live: _Live, entrant: str | None = None, *, every_round: bool = False) -> dict[str, Any]:
        """What anyone may see of a tournament (no secrets), with, for an
        entrant, its current table, seat and seat token."""
        t = live.t
        held = withheld(t)
        shown = [r for r in t.rounds if not r.done]
        if t.config.format == "arena" and not every_round:  # an arena's games are many: those playing, the last few
            shown = [r for r in t.rounds[-SHOWN_ROUNDS:] if r.done] + shown[-SHOWN_ROUNDS * 10:]
        else:
            shown = t.rounds
        rounds = [self.round_plain(r, held) for r in shown]
        state: dict[str, Any] = {
            "tournament": t.id, "config": {**{k: v for k, v in t.config.to_plain().items() if k != "seed"},
                                           "seeded": t.config.seeded},
            "finished": t.finished,
            "entrants": [{k: v for k, v in e.to_plain().items() if k != "token_hash"} for e in t.entrants.values()],
            "rounds_played": len(t.rounds), "rounds": rounds, "standings": [row.plain() for row in standings(t)],
        }
        if entrant is not None:
            state["you"] = {"entrant": entrant, **self.next_table(live, entrant)}
        return state

    @staticmethod
    def round_plain(rnd: Round, held: set[str]) -> dict[str, Any]:
        """A round as anyone may see it: a board's commitment from the
        seating on; its seed (which fixes its hidden cards) and salt only
        once every table has played it (TR3.2)."""
        plain = rnd.to_plain()
        for x in plain["tables"]:
            if x["board"] is not None and (x["table_id"] in held or x["table_id"] is None or x["status"] == "seated"):
                x["board_seed"] = x["board_salt"] = None
        return plain

    def listing(self) -> list[dict[str, Any]]:
        """Every tournament of this server, in brief."""
        return [{"tournament": live.t.id, "name": live.t.config.name, "game": live.t.config.game,
                 "format": live.t.config.format, "rounds": live.t.config.rounds, "played": len(live.t.rounds),
                 "entrants": len(live.t.entrants), "finished": live.t.finished} for live in self.live.values()]

    def next_table(self, live: _Live, entrant: str) -> dict[str, Any]:
        """The entrant's table now: the newest one it is seated at that has not
        ended, with its seat and seat token; or nothing."""
        for rnd in reversed(live.t.rounds):
            for table in rnd.tables:
                if entrant in table.entrants and table.table_id in live.ready and not table.done:
                    seat = table.entrants.index(entrant)
                    return {"round": rnd.number, "table": table.table_id, "seat": seat,
                            "token": self._seat_token(live, table.table_id, seat),
                            "commitment": self._commitment(table.table_id)}
            if entrant in rnd.byes and rnd is live.t.current():
                return {"round": rnd.number, "bye": rnd.byes[entrant]}
        return {}

    def brief(self, live: _Live, entrant: str | None) -> dict[str, Any]:
        """What a playing entrant needs: where it sits now, and whether the
        event has ended (PROTOCOL.md 20: `tournament_watch` with `full` false)."""
        t = live.t
        state: dict[str, Any] = {"tournament": t.id, "name": t.config.name, "finished": t.finished,
                                 "rounds_played": len(t.rounds)}
        if entrant is not None:
            state["you"] = {"entrant": entrant, **self.next_table(live, entrant)}
        return state

    def _broadcast(self, live: _Live) -> None:
        """Tell the brief watchers whose state changed at once; wake the
        publisher for the full ones."""
        for outbox, w in list(live.watchers.items()):
            if w.full:
                continue
            state = self.brief(live, w.entrant)
            if state != w.shown:
                w.shown = state
                if not outbox.put(encode({"t": "tournament", "tournament": live.t.id, "state": state})):
                    live.watchers.pop(outbox, None)
        live.changed.set()
        live.stirred.set()
        live.stirred = trio.Event()

    async def _publisher(self, live: _Live) -> None:
        """Send the full state to its watchers after a change, at most once
        every PUBLISH_S: a busy event's standings move with every game."""
        while True:
            await live.changed.wait()
            live.changed = trio.Event()
            full = [(o, w) for o, w in live.watchers.items() if w.full]
            if full:
                base = self.public(live)
                for outbox, w in full:
                    state = base if w.entrant is None else {**base, "you": {"entrant": w.entrant,
                                                                            **self.next_table(live, w.entrant)}}
                    if not outbox.put(encode({"t": "tournament", "tournament": live.t.id, "state": state})):
                        live.watchers.pop(outbox, None)
            await trio.sleep(PUBLISH_S)

    # -- rounds and tables ------------------------------------------------------------------

    def _commitment(self, table_id: str) -> str | None:
        """The commitment the table shows anyone (docs/table.md T7.1), given
        with the seat so that the entrant's first `resume` can bring its
        nonce at once: the table may start as soon as its seats are present,
        before a second request would arrive."""
        table = self.lobby.get(table_id)
        return None if table is None else table.statistics().commitment

    def _seat_token(self, live: _Live, table_id: str, seat: int) -> str:
        nonce = hmac.new(live.secret.encode(), f"{table_id}\0{seat}".encode(), hashlib.sha256).hexdigest()[:40]
        return nonce_token(table_id, nonce)

    async def _run_round(self, live: _Live, number: int) -> None:
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
                self._spawn(live, self._run_table, live, number, table.index)
        self._broadcast(live)

    async def _start_round(self, live: _Live) -> Round:
        """Seat the next round (in a worker thread: seating a big field takes
        a second of CPU the tables should not wait for), store it, run it.
        The caller holds the tournament's lock."""
        t = live.t
        if len(t.entrants) < THREAD_SEATING:
            rnd: Round = self._do(t.start_round)
        else:
            rnd = await trio.to_thread.run_sync(lambda: self._do(t.start_round))
        await self._save(live, rounds=[rnd.number])
        self._spawn(live, self._run_round, live, rnd.number)
        return rnd

    async def _create_table(self, live: _Live, number: int, index: int) -> None:
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
            await self._save(live, rounds=[number])  # with the table's withheld state, before anyone hears of it
        server_bots: dict[int, str] = {}
        names: dict[int, str] = {}
        for seat, e in enumerate(spot.entrants):
            entrant = t.entrants[e]
            if entrant.policy is not None and self.bots is not None:
                server_bots[seat], names[seat] = entrant.policy, entrant.name
            else:
                token = self._seat_token(live, table.id, seat)
                await table.send(None, Reserve(seat=seat, name=entrant.name, token_hash=token_hash(token),
                                               account=await self._card(entrant.account)))
        if server_bots:
            await self.bots.seat(table, server_bots, names=names)
        live.ready.add(table.id)

    async def _reserve_missing(self, live: _Live, spot: RoundTable) -> None:
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
                    token = self._seat_token(live, table.id, seat)
                    await table.send(None, Reserve(seat=seat, name=entrant.name, token_hash=token_hash(token),
                                                   account=await self._card(entrant.account)))
                elif seats[seat] is None and self.bots is not None:
                    await self.bots.seat(table, {seat: entrant.policy}, names={seat: entrant.name})
        live.ready.add(spot.table_id)

    async def _run_table(self, live: _Live, number: int, index: int) -> None:
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
                await self._save(live, head=live.t.finished, rounds=[number])
            self._broadcast(live)
            await self._auto_round(live, number)
            if live.t.config.format == "arena":
                for e in spot.entrants:
                    entrant = live.t.entrants[e]
                    if entrant.policy is not None or e in self._following(live):
                        await self._arena_wait(live, e)
        finally:
            live.running.discard(table_id)

    async def _start_when_present(self, live: _Live, number: int, index: int, table: Table) -> bool:
        """Start the table once every seat is held, or once the show-up
        deadline has passed with every seat taken (TR4.5), unless the round
        is paused. Woken by the table when its seats change and by the
        organiser's actions (`_broadcast`). False: the round was seated
        again, and this table is not its any more."""
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
            await _first_of([table.changed(), live.stirred], deadline if trio.current_time() < deadline else math.inf)
        absent = now.absent
        async with live.lock:
            spot.absent = absent
            if live.t.config.no_show == "forfeit":
                spot.forfeits = list(absent)
            spot.status = "started"
            await self._save(live, rounds=[number])
        await table.send(None, Begin(proxied=absent if live.t.config.no_show == "proxy" else []))
        self._broadcast(live)
        return True

    async def _auto_round(self, live: _Live, number: int) -> None:
        """TR5.6: with `auto_rounds`, the round just played starts the next."""
        t = live.t
        if not t.config.auto_rounds or t.config.format == "arena" or t.finished:
            return
        async with live.lock:
            if len(t.rounds) == number and t.rounds[-1].done and len(t.rounds) < t.config.rounds \
                    and not t.rounds[-1].paused:
                try:
                    await self._start_round(live)
                except DirectorError as exc:
                    log.warning("tournament %s: round %d did not start by itself: %s", t.id, number + 1, exc)
        self._broadcast(live)

    async def _arena_wait(self, live: _Live, entrant: str) -> None:
        if live.t.finished or entrant in live.waiting:
            return
        live.waiting.append(entrant)
        async with live.lock:
            rnd = live.t.arena_seat(live.waiting)
            if rnd is None:
                return
            seated = {e for x in rnd.tables for e in x.entrants}
            live.waiting = [e for e in live.waiting if e not in seated]
            await self._save(live, rounds=[rnd.number])
        await self._run_round(live, rnd.number)

    async def _drop(self, table_id: str | None) -> None:
        """A re-seated round's old table: abandoned, and out of the lobby."""
        if table_id is None:
            return
        table = self.lobby.get(table_id)
        if table is not None:
            await table.send(None, Dismiss())

    def _withhold(self, live: _Live, *, clear: bool = False) -> dict[str, bool]:
        """TR3.2: duplicate boards still playing somewhere keep their tables'
        records and spectating closed. Updates this process's set and
        returns what changed since the state last stored (table -> withheld),
        for `_save` to store with the tournament. `clear`: forget them here
        (the store keeps them: another process directs the tournament)."""
        all_ids = {x.table_id for r in live.t.rounds for x in r.tables if x.board and x.table_id}
        held = withheld(live.t) if not clear else set()
        self.lobby.withheld.difference_update(all_ids)
        self.lobby.withheld.update(held)
        now = {table_id: table_id in held for table_id in all_ids}
        return {table_id: h for table_id, h in now.items() if live.held.get(table_id) != h}

    async def _table(self, table_id: str) -> Table | None:
        """A table of a tournament directed here: in this process, or (on a
        site of many) taken over from the store, where the process that had
        it left it."""
        table = await self.lobby.find(table_id)
        if table is None and self.adopt_table is not None:
            table = await self.adopt_table(table_id)
        return table

    # -- storage and recovery ---------------------------------------------------------------

    async def _save(self, live: _Live, *, head: bool = False, rounds: Iterable[int] = ()) -> None:
        """Store what changed: the head (settings, entrants, the finished
        mark, the secret and the seed key) and/or the rounds given, and the
        withheld state of the tables whose state changed, in one commit. On a
        site of many processes, refused (StoreFenced) once another process
        directs the tournament: this one lets it go and says so."""
        stored: dict[str, Any] = {"tournament": live.t.head_plain(), "secret": live.secret}
        if live.t.seed_key is not None:
            stored["seed_key"] = live.t.seed_key.hex()
        body = encode(stored) if head else None
        blobs = {n: encode(live.t.rounds[n - 1].to_plain()) for n in rounds}
        changed = self._withhold(live)
        try:
            await self.store.save_tournament(live.t.id, body, now=self.wall(), rounds=blobs, tables=changed)
        except StoreFenced:
            self._lose(live)
            raise DirectorError("tournament/moved", "another process of this site directs this tournament now: "
                                "send the request again") from None
        live.held.update(changed)

    async def recover(self) -> int:
        """Reload every tournament and pick up each table where it is. On a
        site of many processes, none: the cluster node hands this process
        the tournaments nobody directs (`take`), once it holds a lease."""
        if self.site:
            return 0
        count = 0
        for tournament_id, body, rounds in await self.store.tournaments():
            if await self._resume(tournament_id, body, rounds):
                count += 1
        return count

    async def take(self, tournament_id: str) -> bool:
        """Direct here a tournament this process has just claimed in the
        store (its owner died, drained or released it): reload it and pick
        up each table where it is, bringing them here."""
        if tournament_id in self.live:
            return True
        stored = await self.store.tournament(tournament_id)
        if stored is None:
            return False
        return await self._resume(tournament_id, *stored) or tournament_id in self.live

    async def _resume(self, tournament_id: str, body: bytes, rounds: list[bytes]) -> bool:
        live = self._loaded(body, rounds)
        self.live[tournament_id] = live
        await self._host(live)
        if live.t.finished and live.t.config.format != "arena":
            return False
        self._withhold(live)
        for rnd in live.t.rounds:
            if not rnd.done:
                self._spawn(live, self._run_round, live, rnd.number)
        for e in live.t.entrants.values():
            if live.t.config.format == "arena" and e.policy is not None:
                self._spawn(live, self._arena_wait, live, e.id)
        return True

    @staticmethod
    def _loaded(body: bytes, rounds: list[bytes]) -> _Live:
        plain = decode_any(body)
        # An event stored without a seed key predates it: it goes on with its old seeds.
        key = plain.get("seed_key")
        t = Tournament.from_plain({**plain["tournament"], "rounds": [decode_any(r) for r in rounds]},
                                  seed_key=bytes.fromhex(key) if isinstance(key, str) else None)
        return _Live(t=t, secret=plain["secret"])

    def stop(self, tournament_id: str) -> set[str]:
        """Stop directing a tournament here (this process hands it on): its
        tasks end, its watchers are sent on. Returns its tables that may still
        be open or running, to be handed on with it."""
        live = self.live.get(tournament_id)
        if live is None:
            return set()
        tables = {x.table_id for r in live.t.rounds for x in r.tables if x.table_id and not x.done}
        self._lose(live)
        return tables

    async def stored(self, tournament_id: str) -> _Live | None:
        """A tournament directed here, or read from the store (directed by
        another process of the site): for what anyone may read of it."""
        live = self.live.get(tournament_id)
        if live is not None or not 0 < len(tournament_id) <= 64:
            return live
        found = await self.store.tournament(tournament_id)
        return self._loaded(*found) if found is not None else None

    # -- reports and exports -------------------------------------------------------------------

    async def collusion(self, live: _Live) -> dict[str, Any]:
        """TR5.5: from the records of every finished game of the event."""
        port = self.lobby.ports[live.t.config.game]
        games = []
        for rnd in live.t.rounds:
            for x in rnd.tables:
                if x.table_id is None or not x.done:
                    continue
                record = await self.lobby.record(x.table_id)
                found = port.interactions(record["events"]) if record else []
                games.append((x.entrants, found))
        return collusion_report(games, {e.id: e.name for e in live.t.entrants.values()})

    def _do(self, change: Callable[[], Any]) -> Any:
        try:
            return change()
        except TournamentError as exc:
            raise DirectorError(exc.code, exc.message) from None

    async def export(self, tail: str) -> tuple[bytes, str] | None:
        """GET /tournament/ID/standings.csv, /export.json, /records.json."""
        tournament_id, _, what = tail.partition("/")
        live = await self.stored(tournament_id)
        if live is None:
            return None
        t = live.t
        if what == "standings.csv":
            return standings_csv(t).encode(), "text/csv; charset=utf-8"
        if what == "export.json":
            state = self.public(live, every_round=True)
            state["seating_ok"] = all(t.verify_seating(r.number) for r in t.rounds
                                      if t.config.format != "arena")
            if t.finished and t.config.seed is not None:
                # The organiser's seed fixes every board: told once they are all
                # played. A key the server drew is never told: each board's
                # commitment, salt and seed prove it.
                state["config"]["seed"] = t.config.seed
            return json.dumps(state, ensure_ascii=False).encode(), "application/json; charset=utf-8"
        if what == "records.json":
            held = withheld(t)
            records = []
            for rnd in t.rounds:
                for x in rnd.tables:
                    if x.table_id is None or x.table_id in held:
                        continue
                    record = await self.lobby.record(x.table_id)
                    if record is not None:
                        records.append({"round": rnd.number, "table": x.index, "entrants": x.entrants,
                                        "record": record})
            return json.dumps({"tournament": t.id, "records": records}, ensure_ascii=False).encode(), \
                "application/json; charset=utf-8"
        return None


async def _first_of(events: list[trio.Event], deadline: float) -> None:
    """Wait until one of `events` is set, or `deadline` (trio time) passes."""
    with trio.move_on_at(deadline):
        async with trio.open_nursery() as nursery:
            async def wake(event: trio.Event) -> None:
                await event.wait()
                nursery.cancel_scope.cancel()

            for event in events:
                nursery.start_soon(wake, event)
