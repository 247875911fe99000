"""One process of a many-process site: owns some tables, reaches the rest.

Several `oriente serve --cluster REDIS_URL --store postgresql://...`
processes share one PostgreSQL site and one Redis bus. This module is
everything they do beyond a lone server, behind three seams: the
session asks `forward` whether a table's message is served elsewhere,
the lobby rebuilds a table it is handed (`Lobby.restore`), and the table
actor stops with `Stop(hand_over=True)` or when the store fences it.

- **Ownership** (see `stores.contract`, "Owners and epochs"): every
  process renews its lease in the database; a table is owned by one
  process, and claimed by another only once that owner's lease has ended
  or it released the table. The claim raises the table's epoch, and the
  database refuses every later write of the old owner (`StoreFenced`): a
  process paused or cut off past its lease stops its table actor and sends
  its viewers on, it never writes again.
- **Forwarding**: a client may connect to any process. A message for a
  table owned elsewhere is forwarded as its frame, untouched, to the owner,
  which serves it through its own session for a *remote connection*: an
  outbox whose frames go back over the bus to the process holding the
  socket. So the owner's table actor, projection gate and replies are the
  same for every client; the process in front only moves bytes.
- **Failover**: each process looks for tables whose owner has no live
  lease (`orphans`), claims them and rebuilds them from the log, deadlines
  resuming with the time they had when the old owner was last alive. The
  clients of a dead owner lose their connection (or, connected elsewhere,
  are told `moved` and closed) and resume from their last seq: the log
  holds every event they missed, and nothing is sent before it is stored.
- **Drain** (`drain`): hand every table on, one by one: stop its actor
  (its last step stored), tell its viewers `moved` (to another process),
  release it, and ask that process to adopt it. A deploy stops no game.
- **Site-wide lobby**: every process publishes its public tables on the
  bus when they change; `list_tables` shows its own and the others'.
- **A sealed bus** (`seal`): every message is encrypted and authenticated
  with the site's key, made by the first process and kept in the store;
  whoever reaches Redis can neither read what goes over it (seat tokens,
  nonces, hands) nor forge, nor replay it. Clients follow `moved` only to
  the origins of the site's processes, which `welcome` lists (`origins`).
- **Tournaments**: each is directed by one process, its owner in the
  store; its messages are forwarded there like a table's, its listing goes
  over the bus with the tables', its exports are read from the store by
  any process. When its owner dies another process takes it over (`take`)
  with its tables, which no other process adopts; a draining process
  hands each tournament on with its tables; a table a director needs that
  another process holds is asked for (`handover`).
- **Rules versions**: a process adopts only tables of the
  rules it plays (`versions`); a table whose log replays differently is
  refused by `Table.restore`, so a deploy that changes the rules leaves
  old tables to the processes that still run the old rules.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import trio

from ...games.kit.port import replayable
from ...protocol import messages as M
from ...protocol.codec import ProtocolError, decode_any, decode_client, encode
from ..outbox import Outbox
from ..stores.postgres import PostgresStore
from ..table import ENDED, Stop
from .bus import Bus
from .seal import Sealer, new_site_key

log = logging.getLogger("oriente.cluster")

__all__ = ["LEASE_S", "ClusterNode"]

LEASE_S = 10.0  # how long a silent process keeps its tables


@dataclass(slots=True)
class _Link:
    """A local connection that forwarded messages: its id on the bus and
    the processes it sent them to."""

    id: int
    tables: dict[str, str] = field(default_factory=dict)  # table -> the process it went to

    @property
    def nodes(self) -> set[str]:
        return set(self.tables.values())


@dataclass(slots=True)
class _Remote:
    """A connection held by another process, served here."""

    conn: Any  # the session's connection record
    send: trio.MemorySendChannel[tuple[Any, bytes]]


class RemoteOutbox(Outbox):
    """An outbox whose frames go over the bus to the process holding the
    client's socket (that process's own outbox does the flow control)."""

    __slots__ = ("_node", "conn", "origin")

    def __init__(self, node: ClusterNode, origin: str, conn: int) -> None:
        super().__init__(1, label=f"{origin}#{conn}")
        self._node = node
        self.origin = origin
        self.conn = conn

    def put(self, frame: bytes, *, hold: bool = False) -> bool:
        if self.evicted is not None:
            return False
        self._node.to_node(self.origin, {"k": "out", "conn": self.conn, "frame": frame})
        self.frames += 1
        return True

    def evict(self, reason: str) -> None:
        if self.evicted is None and reason != "client/gone":
            self._node.to_node(self.origin, {"k": "evict", "conn": self.conn, "reason": reason})
        super().evict(reason)


class ClusterNode:
    """This process's part in the site. Build it with the process's store
    (a `PostgresStore(cluster=True)`), attach the lobby and session, and
    run it with ``await nursery.start(node.run)`` before accepting clients."""

    def __init__(self, store: PostgresStore, bus_url: str, url: str, *, lease_s: float = LEASE_S,
                 versions: str = "", wall: Callable[[], float] = time.time) -> None:
        if not store.cluster:
            raise ValueError("a cluster node needs a PostgresStore(cluster=True)")
        self.store = store
        self.name = store.owner
        self.url = url
        self.lease_s = lease_s
        self.versions = versions
        self.wall = wall
        self.prefix = f"oriente.{store.schema}"
        self.bus = Bus(bus_url, [self._channel(self.name), f"{self.prefix}.site"], self._on_message)
        self.origin = M.origin_of(url)
        self.lobby: Any = None
        self.session: Any = None
        self.bots: Any = None
        self.director: Any = None
        self.draining = False
        self.live: dict[str, tuple[str, bool]] = {}  # node -> (url, draining), from the leases
        self.node_versions: dict[str, set[str]] = {}  # node -> the rules versions it replays
        self._owners: dict[str, str] = {}  # remote table -> owner (a cache)
        self._links: dict[Outbox, _Link] = {}
        self._by_id: dict[int, Outbox] = {}
        self._ids = itertools.count(1)
        self._remote: dict[tuple[str, int], _Remote] = {}
        self._adopting: dict[str, trio.Event] = {}
        self._listings: dict[str, list[dict[str, Any]]] = {}
        self._tournament_listings: dict[str, list[dict[str, Any]]] = {}
        self._last_listing: bytes = b""
        self._heard_self = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._refused: set[str] = set()  # tables whose rules this process does not replay
        self.replays: frozenset[str] = frozenset()
        self.adopted = 0
        self.handed = 0

    def attach(self, lobby: Any, session: Any, bots: Any = None) -> None:
        self.lobby, self.session, self.bots = lobby, session, bots
        lobby.withheld_elsewhere = True
        self.director = getattr(session, "director", None)
        if self.director is not None:
            self.director.adopt_table = self.bring
        session.cluster = self
        session.metrics.sources.append(self._metrics)
        self.replays = frozenset().union(*(replayable(port) for port in lobby.ports.values()))
        self.versions = self.versions or ",".join(sorted(self.replays))

    def _channel(self, node: str) -> str:
        return f"{self.prefix}.node.{node}"

    # -- life -------------------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            self.bus.sealer = Sealer(await self.store.site_key("bus", new_site_key))
            await nursery.start(self.bus.run)
            await self._renew()
            # Say so at once: the others list this process's origin in their
            # welcome from now on, not only from their next look at the leases.
            # Once this process hears its own word back, Redis has handed it to
            # every other process too: then it takes clients.
            self._publish_listing()
            with trio.move_on_after(5):
                await self._heard_self.wait()
            task_status.started()
            await self.adopt_tournaments()
            await self.adopt_orphans()
            nursery.start_soon(self._lease_loop)

    async def _renew(self) -> None:
        await self.store.renew_lease(url=self.url, lease_s=self.lease_s, alive_at=self.wall(),
                                     draining=self.draining, versions=self.versions)
        nodes = await self.store.nodes()
        self.live = {name: (url, draining) for name, url, draining, _ in nodes}
        self.node_versions = {name: set(versions.split(",")) for name, _, _, versions in nodes}

    async def _lease_loop(self) -> None:
        """Renew the lease a few times per lease; meanwhile notice dead
        processes (their forwarded connections are sent on, their tables
        taken over) and publish this process's public tables."""
        while True:
            await trio.sleep(self.lease_s / 4)
            await self._renew()
            self._forget_dead()
            if not self.draining:
                await self._check_tournaments()
                await self.adopt_tournaments()
                await self.adopt_orphans()
            self._publish_listing()

    def _forget_dead(self) -> None:
        for table_id, owner in list(self._owners.items()):
            if owner not in self.live:
                del self._owners[table_id]
        for outbox, link in list(self._links.items()):
            dead = [t for t, n in link.tables.items() if n not in self.live]
            if dead:
                # Their tables are being taken over: the client resumes them
                # (here: this process forwards to the new owner).
                outbox.put(encode(M.moved(dead[0])))
                outbox.evict("server/moved")
        for key in [k for k in self._remote if k[0] not in self.live]:
            self._drop_remote(key)
        for node in [n for n in self._listings if n not in self.live]:
            del self._listings[node]
        for node in [n for n in self._tournament_listings if n not in self.live]:
            del self._tournament_listings[node]

    # -- tournaments -------------------------------------------------------------------

    async def adopt_tournaments(self) -> int:
        """Direct the tournaments nobody directs (claimed in the store first,
        so one process takes each); how many."""
        if self.director is None or self.draining:
            return 0
        count = 0
        for tournament_id in await self.store.orphan_tournaments():
            if await self.take_tournament(tournament_id):
                count += 1
        return count

    async def take_tournament(self, tournament_id: str) -> bool:
        if self.director is None or self.draining:
            return False
        if tournament_id in self.director.live:
            return True
        if not await self.store.claim_tournament(tournament_id):
            return False
        log.info("tournament %s: directed here from now on", tournament_id)
        return bool(await self.director.take(tournament_id))

    async def _check_tournaments(self) -> None:
        """Let go of the tournaments another process took while this one
        could not renew its lease (it was paused or cut off): that process
        directs them now, and this one must not act on them."""
        if self.director is None or not self.director.live:
            return
        mine = await self.store.tournaments_directed()
        for tournament_id in [t for t in self.director.live if t not in mine]:
            self.director.stop(tournament_id)

    async def bring(self, table_id: str) -> Any:
        """A table a tournament directed here needs in this process: taken
        over if nobody owns it, else asked of the process that has it (it
        hands it on as in a drain), waiting up to a few leases. None if the
        table has ended or cannot be had."""
        for _ in range(16):
            table = await self.adopt(table_id)
            if table is not None:
                return table
            row = await self.store.owner_of(table_id)
            if row is None or row[0] not in ("open", "running"):
                return None
            _, owner, _, live = row
            if live and owner != self.name:
                self.to_node(owner, {"k": "handover", "table": table_id, "to": self.name})
            await trio.sleep(self.lease_s / 4)
        log.error("table %s: its tournament is directed here, but it could not be brought here", table_id)
        return None

    async def open_tables_created_by(self, address: str) -> int:
        """Per-address limits count the whole site (docs/table.md T6.2)."""
        return await self.store.open_tables_created_by(address)

    async def created(self, table_id: str, address: str) -> None:
        await self.store.note_creator(table_id, address)

    def tournament_listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The site's tournaments: this process's, then the others' as they
        last published them."""
        rest = [info for node, infos in sorted(self._tournament_listings.items()) if node in self.live
                for info in infos]
        return local + rest

    async def adopt_orphans(self) -> int:
        """Take over the open and running tables nobody owns; how many."""
        count = 0
        for table_id in await self.store.orphans():
            if await self.adopt(table_id) is not None:
                count += 1
        return count

    async def adopt(self, table_id: str) -> Any:
        """Claim a table nobody owns and rebuild it here; the table, or None
        if another process has it (or it is not ours to take)."""
        if self.lobby.get(table_id) is not None:
            return self.lobby.get(table_id)
        if self.draining or table_id in self._refused:
            return None
        waiting = self._adopting.get(table_id)
        if waiting is not None:
            await waiting.wait()
            return self.lobby.get(table_id)
        self._adopting[table_id] = done = trio.Event()
        try:
            row = await self.store.table(table_id)
            if row is None or row.status not in ("open", "running"):
                return None
            if not self._plays(row.meta):
                self._refused.add(table_id)
                return None
            since = await self.store.claim(table_id)
            if since is None:
                return None
            row = await self.store.table(table_id)  # as the old owner left it
            assert row is not None
            table = await self.lobby.restore(row, since or None, abandon=False)
            if table is None:  # its log does not replay here: leave it to another process
                self._refused.add(table_id)
                await self.store.release(table_id)
                return None
            self.adopted += 1
            log.info("table %s: taken over (its owner's lease had ended)", table_id)
            if self.bots is not None:
                self.bots.recover([table])
            return table
        finally:
            del self._adopting[table_id]
            done.set()

    def _plays(self, meta: bytes) -> bool:
        """Whether this process plays the game, and replays the rules
        version, of a stored table (one stored before versions: its game)."""
        stored = decode_any(meta)
        if stored.get("settings", {}).get("game", M.DEFAULT_GAME) not in self.lobby.ports:
            return False
        return stored.get("rules") is None or stored["rules"] in self.replays

    # -- the process in front: forwarding ----------------------------------------

    async def _owner(self, table_id: str) -> str | None:
        """The process serving a table, or None to serve it here (it is
        here, ended, unknown, or was just taken over by this process)."""
        if self.lobby.get(table_id) is not None:
            return None
        cached = self._owners.get(table_id)
        if cached is not None and cached in self.live:
            return cached
        owner = ""
        for _ in range(2):
            row = await self.store.owner_of(table_id)
            if row is None or row[0] not in ("open", "running"):
                return None
            _, owner, _, live = row
            if live and owner != self.name:
                self._owners[table_id] = owner
                return str(owner)
            if await self.adopt(table_id) is not None:
                return None
        # Not ours to take (a tournament's table, for the process directing
        # it): to its owner if this process still counts it alive (a lease
        # renewed late under load), else here (the client hears the table is
        # unknown and asks again).
        return str(owner) if owner and owner != self.name and owner in self.live else None

    async def _route(self, msg: Any) -> tuple[str, str] | None:
        """(what it is for: a table or tournament id, the process serving it)
        for a message another process serves; None: serve it here."""
        if isinstance(msg, M.TournamentRegister | M.TournamentWatch | M.TournamentWithdraw | M.TournamentDirect):
            owner = await self._tournament_owner(msg.tournament)
            return (msg.tournament, owner) if owner is not None else None
        table_id = getattr(msg, "table", None)
        if isinstance(table_id, str) and table_id:
            owner = await self._owner(table_id)
            return (table_id, owner) if owner is not None else None
        return None

    async def _tournament_owner(self, tournament_id: str) -> str | None:
        """The process directing a tournament, or None to serve it here (it
        is here, unknown, or was just taken over by this process)."""
        if self.director is None or tournament_id in self.director.live or not 0 < len(tournament_id) <= 64:
            return None
        row = await self.store.tournament_owner(tournament_id)
        if row is None:
            return None
        owner, live = row
        if live and owner != self.name:
            return str(owner)
        await self.take_tournament(tournament_id)
        return None

    async def forward(self, outbox: Outbox, msg: Any, frame: bytes | str, *,
                      who: tuple[str, str] | None = None) -> bool:
        """Send the message to the process serving its table or tournament,
        if that is another process. `who`: the account and credential ids
        the connection is signed in with here (ids, never tokens), so that
        the other process acts for the same account (the bus is sealed)."""
        if isinstance(outbox, RemoteOutbox):
            return False
        route = await self._route(msg)
        if route is None or not isinstance(frame, bytes):
            return False
        key, owner = route
        link = self._links.get(outbox)
        if link is None:
            link = self._links[outbox] = _Link(next(self._ids))
            self._by_id[link.id] = outbox
        link.tables[key] = owner
        self.to_node(owner, {"k": "fwd", "from": self.name, "conn": link.id, "frame": frame,
                             "who": list(who) if who is not None else None})
        return True

    def disconnected(self, outbox: Outbox) -> None:
        link = self._links.pop(outbox, None)
        if link is None:
            return
        del self._by_id[link.id]
        for node in link.nodes:
            self.to_node(node, {"k": "gone", "from": self.name, "conn": link.id})

    def origins(self) -> list[str]:
        """The origins of the site's live processes (this one's first): where
        a client may follow `moved` (PROTOCOL.md 4)."""
        found = [self.origin] + [M.origin_of(url) for url, _ in self.live.values() if url]
        return list(dict.fromkeys(o for o in found if o))

    def _metrics(self) -> list[str]:
        lines = ["# TYPE oriente_bus_published_total counter", f"oriente_bus_published_total {self.bus.published}",
                 "# TYPE oriente_bus_received_total counter", f"oriente_bus_received_total {self.bus.received}",
                 "# TYPE oriente_bus_dropped_total counter"]
        for reason in ("short", "version", "forged", "replayed", "stale"):
            lines.append(f'oriente_bus_dropped_total{{reason="{reason}"}} {self.bus.dropped.get(reason, 0)}')
        return lines

    def listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rest = [info for node, infos in sorted(self._listings.items()) if node in self.live for info in infos]
        return local + rest

    def _publish_listing(self) -> None:
        tables = self.lobby.listing()
        tournaments = self.director.listing() if self.director is not None else []
        body = encode({"k": "list", "from": self.name, "url": self.url, "tables": tables,
                       "tournaments": tournaments})
        if body != self._last_listing:
            self._last_listing = body
            self.bus.publish(f"{self.prefix}.site", body)

    # -- the bus ---------------------------------------------------------------------

    def to_node(self, node: str, message: dict[str, Any]) -> None:
        self.bus.publish(self._channel(node), encode(message))

    def _on_message(self, channel: str, body: bytes) -> None:
        message = decode_any(body)
        match message.get("k"):
            case "fwd":
                who = message.get("who")
                self._serve_forwarded(message["from"], message["conn"], message["frame"],
                                      (str(who[0]), str(who[1])) if isinstance(who, list) and len(who) == 2 else None)
            case "gone":
                self._drop_remote((message["from"], message["conn"]))
            case "out":
                outbox = self._by_id.get(message["conn"])
                if outbox is not None:
                    outbox.put(message["frame"])
            case "evict":
                outbox = self._by_id.get(message["conn"])
                if outbox is not None:
                    if message["reason"] == "server/moved":
                        self._owners = {t: o for t, o in self._owners.items() if o not in self._links[outbox].nodes}
                    outbox.evict(message["reason"])
            case "list":
                if message["from"] == self.name:
                    self._heard_self.set()
                tables = message.get("tables")
                if message["from"] != self.name and isinstance(tables, list):
                    self._listings[message["from"]] = [t for t in tables if isinstance(t, dict)]
                    if message["from"] not in self.live and isinstance(message.get("url"), str):
                        self.live[message["from"]] = (message["url"], False)  # sealed: the site's own
                    tournaments = message.get("tournaments")
                    if isinstance(tournaments, list):
                        self._tournament_listings[message["from"]] = [t for t in tournaments if isinstance(t, dict)]
            case "adopt":
                if self._nursery is not None:
                    self._nursery.start_soon(self.adopt, message["table"])
            case "take":
                if self._nursery is not None:
                    self._nursery.start_soon(self.take_tournament, message["tournament"])
            case "handover":
                table = self.lobby.get(message["table"])
                if (self._nursery is not None and table is not None and table.status not in ENDED
                        and message["to"] in self.live and message["to"] != self.name):
                    self._nursery.start_soon(self._hand_on, table, message["to"])
            case other:
                log.warning("unknown bus message %r on %s", other, channel)

    def _serve_forwarded(self, origin: str, conn: int, frame: bytes, who: tuple[str, str] | None = None) -> None:
        key = (origin, conn)
        remote = self._remote.get(key)
        if remote is None:
            if self._nursery is None:
                return
            send, receive = trio.open_memory_channel[tuple[Any, bytes]](1024)
            remote = self._remote[key] = _Remote(self.session.remote_conn(RemoteOutbox(self, origin, conn)), send)
            self._nursery.start_soon(self._remote_conn, remote, receive)
        try:
            remote.send.send_nowait((who, frame))
        except trio.WouldBlock:
            remote.conn.outbox.evict("client/too_slow")

    async def _remote_conn(self, remote: _Remote, receive: trio.MemoryReceiveChannel[tuple[Any, bytes]]) -> None:
        """Serve one remote connection's frames in order; when it goes, its
        tables hear of it as of any connection."""
        try:
            async for who, frame in receive:
                try:
                    msg = decode_client(frame)
                except ProtocolError:
                    msg = None
                route = await self._route(msg) if msg is not None else None
                if route is not None:
                    # Not (or no longer) ours: the client resumes through its
                    # process, which finds the owner again.
                    remote.conn.outbox.put(encode(M.moved(route[0])))
                    remote.conn.outbox.evict("server/moved")
                    continue
                await self.session.forwarded(remote.conn, frame, who=who)
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                await self.session.disconnect(remote.conn)

    def _drop_remote(self, key: tuple[str, int]) -> None:
        remote = self._remote.pop(key, None)
        if remote is not None:
            remote.send.close()

    # -- live migration --------------------------------------------------------------

    async def drain(self) -> int:
        """Hand every open or running table to the other processes, one by
        one, with its viewers sent after it; then give up the lease. Returns
        how many tables were handed on (the rest, if no process could take
        them, stay here)."""
        self.draining = True
        await self._renew()
        handed = 0
        targets = itertools.count()

        def target_for(rules: set[str]) -> str | None:
            # A process that replays the tables' rules (a deploy that
            # changes the rules drains to the old ones).
            others = sorted(n for n, (_, draining) in self.live.items() if n != self.name and not draining
                            and all(r in self.node_versions.get(n, {r}) for r in rules))
            return others[next(targets) % len(others)] if others else None

        # A tournament goes on with its tables to one process, which directs it.
        for tournament_id in list(self.director.live) if self.director is not None else []:
            ids = self.director.stop(tournament_id)
            tables = [t for i in ids if (t := self.lobby.get(i)) is not None and t.status not in ENDED]
            target = target_for({t.rules for t in tables})
            if target is None:
                log.error("drain: no other process to take tournament %s; it waits for one", tournament_id)
                await self.store.release_tournament(tournament_id)
                continue
            for table in tables:
                await self._hand_on(table, target)
                handed += 1
            await self.store.release_tournament(tournament_id)
            self.to_node(target, {"k": "take", "tournament": tournament_id})
        for table in list(self.lobby.tables.values()):
            if table.status in ENDED:
                continue
            target = target_for({table.rules})
            if target is None:
                log.error("drain: no other process to take table %s; it stays here", table.id)
                continue
            await self._hand_on(table, target)
            handed += 1
        log.info("drain: handed %d tables on", handed)
        return handed

    async def _hand_on(self, table: Any, target: str) -> None:
        """Stop a table's actor (its last step stored; its viewers told
        `moved`), release it, and ask `target` to adopt it."""
        await table.send(None, Stop(hand_over=True, url=self.live[target][0] or None))
        while table.id in self.lobby.tables:
            await trio.sleep(0.002)
        await self.store.release(table.id)
        self.to_node(target, {"k": "adopt", "table": table.id})
        self.handed += 1

    async def leave(self) -> None:
        """Give up the lease (on a clean stop): the others may take any table
        left here at once."""
        await self.store.end_lease()
