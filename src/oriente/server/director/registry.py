"""The tournament director: runs the events of `server/tournament` on this
server's tables (docs/tournaments.md).

Game-agnostic: it knows a game through its port only (the seat range for
the table sizes allowed; the optional `interactions` for the collusion
report), and creates, seats and starts tables through the lobby like any
other table. The pure tournament decides; the director stores its state
(`Store.save_tournament`) after every change, before anyone is told, and
does what the change asks. It is made of parts, each its own module: this
registry (creating and finding tournaments, entries, the organiser's
actions, following them), the rounds played on tables (`rounds.py`), the
store's side and the reading back (`recovery.py`), who follows each one
(`followers.py`), and what anyone may see and export (`reports.py`):

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
gets StoreFenced and lets it go, `lose`); its tables are taken over only
by the process directing it (`Store.orphans`), and a process that takes a
tournament over (`take`) brings its tables with it (`adopt_table`). Which
tables are withheld is stored with them (`save_tournament(tables=...)`),
so that every process refuses their records, spectating and replays.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import trio

from ...games.kit.port import SettingsError
from ..clock import TimerSettings
from ..ids import new_id, new_token
from ..lobby import Lobby
from ..outbox import Outbox
from ..stores import AccountRow, Store
from ..table import token_hash
from ..tournament import Config, Tournament, TournamentError
from ..tournament.seeds import KEY_BYTES, key_of_seed
from ..tournament.standings import withheld
from . import reports
from .followers import Followers
from .live import MAX_TOURNAMENTS, DirectorError, Live, attempt
from .recovery import Storage, loaded
from .rounds import Rounds

log = logging.getLogger("oriente.director")


class Director:
    def __init__(self, lobby: Lobby, store: Store, nursery: trio.Nursery, *, bots: Any = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.lobby = lobby
        self.store = store
        self.nursery = nursery
        self.bots = bots
        self.wall = wall
        self.live: dict[str, Live] = {}
        # A site of many processes: the tournaments are the store's to hand
        # out (`take`), and a tournament's table not here is adopted (`adopt_table`).
        self.site = bool(getattr(store, "cluster", False))
        self.storage = Storage(store, lobby, wall, self.lose)
        self.followers = Followers(lobby, self.live)
        self.rounds = Rounds(lobby, store, self.storage, self.followers, bots=bots)

    @property
    def adopt_table(self) -> Callable[[str], Any] | None:
        """On a site of many processes, brings here a tournament's table
        that is not (the cluster node's `adopt`; None on a lone server)."""
        return self.rounds.adopt_table

    @adopt_table.setter
    def adopt_table(self, adopt: Callable[[str], Any] | None) -> None:
        self.rounds.adopt_table = adopt

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
        live = Live(t=t, secret=secrets.token_urlsafe(32))
        self.live[t.id] = live
        await self.storage.save(live, head=True)
        await self.host(live)
        return t, token

    async def host(self, live: Live) -> None:
        """Give the tournament a nursery of its own for its tasks, and start
        its publisher: one failing task ends this tournament's tasks (logged)
        and nothing else; `lose` cancels them all."""
        async def host(task_status: trio.TaskStatus[trio.Nursery] = trio.TASK_STATUS_IGNORED) -> None:
            try:
                async with trio.open_nursery() as nursery:
                    task_status.started(nursery)
                    nursery.start_soon(self.followers.publisher, live)
            except Exception:
                log.exception("tournament %s: its tasks stopped on an error; it is not directed until "
                              "the server restarts", live.t.id)
                if self.live.get(live.t.id) is live:
                    del self.live[live.t.id]

        live.nursery = await self.nursery.start(host)

    def lose(self, live: Live) -> None:
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
        self.storage.withhold(live, clear=True)
        log.warning("tournament %s: another process directs it now; let go here", live.t.id)

    def get(self, tournament_id: str) -> Live:
        live = self.live.get(tournament_id)
        if live is None:
            raise DirectorError("tournament/unknown", f"there is no tournament {tournament_id!r}")
        return live

    def organiser(self, tournament_id: str, token: str | None) -> Live:
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
            entrant = attempt(lambda: live.t.register(name, kind=kind, token_hash=token_hash(token),
                                                       policy=policy,
                                                       account=account.id if account and not policy else None))
            await self.storage.save(live, head=True)
        if policy is not None and live.t.config.format == "arena":
            await self.rounds.arena_wait(live, entrant.id)
        self.followers.broadcast(live)
        return entrant.id, token

    async def _account_named(self, name: str) -> AccountRow | None:
        """The account whose name `name` is (as accounts compare names:
        case-folded), if this server keeps accounts."""
        if self.lobby.accounts is None:
            return None
        key = name.strip().casefold()
        return await self.store.account_by_key(key) if key else None

    def entrant_of(self, live: Live, token: str) -> str:
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
            attempt(lambda: live.t.withdraw(entrant_id))
            await self.storage.save(live, head=True)
        if entrant_id in live.waiting:
            live.waiting.remove(entrant_id)
        self.followers.broadcast(live)
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
                    rnd = await self.rounds.start_round(live)
                    out["round"] = reports.round_plain(rnd, withheld(t))
                case "pause" | "resume":
                    number = int(args.get("round") or len(t.rounds))
                    attempt(lambda: t.set_paused(number, action == "pause"))
                    await self.storage.save(live, rounds=[number])
                case "reseat":
                    number = int(args.get("round") or len(t.rounds))
                    old = [x.table_id for x in t.rounds[number - 1].tables] if 0 < number <= len(t.rounds) else []
                    rnd = attempt(lambda: t.reseat(number))
                    await self.storage.save(live, rounds=[number])
                    for table_id in old:
                        await self.rounds.drop(table_id)
                    out["round"] = reports.round_plain(rnd, withheld(t))
                    live.spawn(self.rounds.run_round, live, rnd.number)
                case "adjudicate":
                    number, index = int(args.get("round") or 0), int(args.get("table") or 0)
                    ranks = [int(r) for r in args.get("ranks") or []]
                    attempt(lambda: t.adjudicate(number, index, ranks))
                    await self.storage.save(live, head=True, rounds=[number])
                case "disqualify" | "withdraw":
                    entrant = str(args.get("entrant") or "")
                    attempt(lambda: (t.disqualify if action == "disqualify" else t.withdraw)(entrant))
                    if entrant in live.waiting:
                        live.waiting.remove(entrant)
                    await self.storage.save(live, head=True)
                case "finish":
                    t.finished = True
                    await self.storage.save(live, head=True)
                case "collusion":
                    out["report"] = await reports.collusion(live, self.lobby)
                case _:
                    raise DirectorError("tournament/bad_action", f"no action {action!r}; the actions are "
                                        "start_round, pause, resume, reseat, adjudicate, disqualify, withdraw, "
                                        "finish, collusion")
        self.followers.broadcast(live)
        out["state"] = self.public(live)
        return out

    # -- following a tournament -----------------------------------------------------------

    def watch(self, tournament_id: str, outbox: Outbox, token: str | None,
              full: bool = True) -> tuple[Live, str | None]:
        """Subscribe `outbox` to a tournament's news; with an entry token, as
        that entrant (who then hears its seat at each new table, and waits in
        an arena). `full`: frames with the whole public state (at most one a
        second), else brief ones (only when the entrant's table changes)."""
        live = self.get(tournament_id)
        entrant = self.entrant_of(live, token) if token else None
        self.followers.watch(live, outbox, entrant, full)
        return live, entrant

    def frame_for(self, live: Live, outbox: Outbox) -> dict[str, Any]:
        """The state a watcher gets now (the first frame after watching)."""
        return self.followers.frame_for(live, outbox)

    async def arena_enter(self, live: Live, entrant: str | None) -> None:
        if entrant is not None and live.t.config.format == "arena":
            await self.rounds.arena_wait(live, entrant)

    def unwatch(self, outbox: Outbox) -> None:
        self.followers.unwatch(outbox)

    # -- storage and recovery ---------------------------------------------------------------

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
        live = loaded(body, rounds)
        self.live[tournament_id] = live
        await self.host(live)
        if live.t.finished and live.t.config.format != "arena":
            return False
        self.storage.withhold(live)
        for rnd in live.t.rounds:
            if not rnd.done:
                live.spawn(self.rounds.run_round, live, rnd.number)
        for e in live.t.entrants.values():
            if live.t.config.format == "arena" and e.policy is not None:
                live.spawn(self.rounds.arena_wait, live, e.id)
        return True

    def stop(self, tournament_id: str) -> set[str]:
        """Stop directing a tournament here (this process hands it on): its
        tasks end, its watchers are sent on. Returns its tables that may still
        be open or running, to be handed on with it."""
        live = self.live.get(tournament_id)
        if live is None:
            return set()
        tables = {x.table_id for r in live.t.rounds for x in r.tables if x.table_id and not x.done}
        self.lose(live)
        return tables

    # -- reports and exports -------------------------------------------------------------------

    def public(self, live: Live, entrant: str | None = None, *, every_round: bool = False) -> dict[str, Any]:
        """What anyone may see of a tournament (`reports.public`)."""
        return reports.public(live, self.lobby, entrant, every_round=every_round)

    def next_table(self, live: Live, entrant: str) -> dict[str, Any]:
        """The entrant's table now (`reports.next_table`)."""
        return reports.next_table(live, self.lobby, entrant)

    def listing(self) -> list[dict[str, Any]]:
        """Every tournament of this server, in brief."""
        return reports.listing(self.live.values())

    async def export(self, tail: str) -> tuple[bytes, str] | None:
        """GET /tournament/ID/standings.csv, /export.json, /records.json."""
        tournament_id, _, what = tail.partition("/")
        live = await self.storage.stored(tournament_id, self.live)  # directed here or elsewhere
        return None if live is None else await reports.export(live, self.lobby, what)
