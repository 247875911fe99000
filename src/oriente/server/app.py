"""The server process: store, lobby, websocket listener, heartbeat, and a
graceful shutdown (stop accepting, close clients with "going away", flush
the store)."""

from __future__ import annotations

import functools
import logging
import signal
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio
from argon2 import PasswordHasher
from websockets.http11 import Request, Response
from websockets.trio.server import Server, ServerConnection, serve
from websockets.typing import Subprotocol

from ..games import PORTS
from ..games.kit.port import SPECTATOR, GamePort
from ..protocol import messages as M
from .accounts import AccountPolicy, Accounts
from .addresses import TrustedProxies
from .admin import AdminError, serve_admin, socket_path
from .bots import BotRunner
from .budget import AddressBudget
from .collector import GcPolicy
from .director import Director
from .emails import Emails
from .heap import HeapTrimmer
from .limits import Limits
from .lobby import MAX_TABLES, Lobby
from .lograte import RareWarning
from .mailer import Mailer, SmtpConfig
from .metrics import Metrics
from .notifier import Notifier, NotifyPolicy
from .origins import OriginPolicy
from .replay_cache import ReplayCache, Wait
from .replays import viewer_of
from .routes import Routes
from .session import Session
from .sleeping import MAX_TURN_TABLES, SLEEP_HORIZON_S, Sleeper
from .stores import Store, StoreError, open_store
from .table import ABANDON_AFTER_S
from .transport import BatchConnection, Transport
from .web import Asset, HttpRefusal, WebSite, game_words

log = logging.getLogger("oriente.server")

HEARTBEAT_S = 1.0


@dataclass(frozen=True, slots=True)
class ClusterOptions:
    """This process is one of many sharing a PostgreSQL site (`server.cluster`):
    `bus` is the Redis URL, `url` where clients reach this process (default:
    ws://HOST:PORT as it listens), `lease_s` how long it keeps its tables
    when silent, and `drain_on_stop` whether SIGTERM hands its tables to the
    others before it stops."""

    bus: str
    url: str | None = None
    lease_s: float = 10.0
    drain_on_stop: bool = False


@dataclass(frozen=True, slots=True)
class MailOptions:
    """`oriente serve --smtp URL`: where mail goes, and how often a person
    is mailed (docs/accounts.md, "E-mail")."""

    smtp: SmtpConfig
    policy: NotifyPolicy


class App:
    """One server. `await nursery.start(app.run)` returns once it listens;
    `app.port` is the bound port; `app.stop()` shuts it down gracefully."""

    def __init__(self, store_path: str, host: str = "127.0.0.1", port: int = 8765,
                 limits: Limits = Limits(), *, games: Mapping[str, GamePort] = PORTS,
                 web: Mapping[str, Path] | None = None,
                 allow_origins: Iterable[str] = (), public_origins: Iterable[str] = (),
                 bots: bool = True, bot_delay: float = 1.0,
                 hasher: PasswordHasher | None = None,
                 trusted_proxies: Iterable[str] | None = None, max_tables: int = MAX_TABLES,
                 abandon_after: float = ABANDON_AFTER_S, cluster: ClusterOptions | None = None,
                 accounts: AccountPolicy | None = None, mail: MailOptions | None = None,
                 metrics_port: int | None = None, metrics_host: str = "127.0.0.1",
                 sleep_horizon: float = SLEEP_HORIZON_S, max_turn_tables: int = MAX_TURN_TABLES,
                 wall: Callable[[], float] = time.time) -> None:
        """`web`: URL prefix -> directory of the web client's files (None:
        no web client, plain HTTP gets 426 as before); `public_origins`: the
        origins people open this site at (default: the addresses it listens
        on) and `allow_origins` other pages, which may open a websocket
        (server/origins.py); `bots`: run server bots for `add_bots`, each
        waiting `bot_delay` s before acting; `trusted_proxies`: reverse
        proxies whose X-Forwarded-For names the client (None: loopback,
        server/addresses.py); `max_tables`, `abandon_after`: the lobby's
        (docs/table.md T6); `metrics_port`: where /metrics is served (on
        `metrics_host`; None: nowhere, 0: a free port, then in
        `self.metrics_port`); `accounts`: how long sessions last and how
        sign-ins are held back (docs/accounts.md; None: the defaults);
        `sleep_horizon`, `max_turn_tables`: turn-based tables sleep when
        nothing is due within that many seconds, and a site holds that many
        unfinished (docs/table.md T8.5, T8.6).
        `mail`: the SMTP server and how often to mail people whom a
        turn-based table awaits (None: no mail).
        Raises ValueError for an origin or a proxy that is not one."""
        self.sleep_horizon = sleep_horizon
        self.wall = wall  # the calendar: time.time, or a test's clock
        self.max_turn_tables = max_turn_tables
        self.sleeper: Sleeper | None = None
        self.trusted_proxies = TrustedProxies(None if trusted_proxies is None else tuple(trusted_proxies))
        self.origins = OriginPolicy(public_origins, allow_origins)
        self.metrics_host = metrics_host
        self.requested_metrics_port = metrics_port
        self.metrics_port: int | None = None
        self.http_budget = AddressBudget()
        self.replays: ReplayCache | None = None
        self.max_tables = max_tables
        self.abandon_after = abandon_after
        self.store_path = store_path
        self.games = games
        self.web = web
        self.bots = bots
        self.bot_delay = bot_delay
        self.hasher = hasher  # argon2's parameters for passwords (None: its defaults)
        self.account_policy = accounts
        self.mail = mail
        self.public_origins = list(public_origins)
        self.notifier: Notifier | None = None
        self.host = host
        self.requested_port = port
        self.limits = limits
        self.port: int | None = None
        self.lobby: Lobby | None = None
        self.director: Director | None = None
        self.metrics = Metrics()
        self._stop = trio.Event()
        self.stopped = trio.Event()  # set once run() has shut down completely
        self.recovered = 0
        self.cluster = cluster
        self.node: Any = None  # the ClusterNode when this process is one of many
        self.store: Store | None = None

    def _site_origin(self) -> str:
        """Where the mailed links point: the first --public-origin, else
        the address this server listens on."""
        if self.public_origins:
            return self.public_origins[0]
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        self._stop.set()

    async def aclose(self) -> None:
        """Stop and wait until the store is flushed and every task is done."""
        self.stop()
        await self.stopped.wait()

    async def backup(self) -> str:
        """Write a consistent copy of a SQLite store beside it, as
        STORE.backup (`oriente backup PORT`; docs/deploy.md); its path. A
        PostgreSQL store is backed up with PostgreSQL's tools instead."""
        backup = getattr(self.store, "backup", None)
        if backup is None:
            raise StoreError("this server's store is a PostgreSQL database: back it up with pg_dump")
        dest = f"{self.store_path}.backup"
        started = time.monotonic()
        size = await backup(dest)
        log.warning("backup of the store written to %s (%d bytes, %.1f s)", dest, size, time.monotonic() - started)
        return dest

    async def run(self, *, task_status: trio.TaskStatus[App] = trio.TASK_STATUS_IGNORED) -> None:
        store = self.store = open_store(self.store_path, cluster=self.cluster is not None)
        store_metrics = getattr(store, "metrics", None)  # the in-memory store has nothing to say
        if store_metrics is not None:
            self.metrics.sources.append(store_metrics)
        async with trio.open_nursery() as outer:
            await outer.start(store.run)
            try:
                async with trio.open_nursery() as tables:
                    accounts = Accounts(store, hasher=self.hasher, policy=self.account_policy)
                    self.lobby = Lobby(self.games, store, tables, accounts=accounts, wall=self.wall,
                                       max_tables=self.max_tables, abandon_after=self.abandon_after)
                    if self.cluster is None:
                        # One process per site: every open table is ours. On a
                        # many-process site the node takes over orphans instead.
                        self.recovered = await self.lobby.recover()
                    bots = BotRunner(tables, delay=self.bot_delay) if self.bots else None
                    if bots is not None:
                        bots.recover(self.lobby.tables.values())
                    self.director = Director(self.lobby, store, tables, bots=bots)
                    await self.director.recover()
                    site = self._site(self.lobby) if self.web is not None else None
                    mailer = Mailer(self.mail.smtp) if self.mail is not None else None
                    emails = Emails(store, mailer, self._site_origin)
                    session = Session(self.lobby, self.metrics, self.limits, bots=bots, director=self.director,
                                      emails=emails)
                    routes = Routes(self.lobby, director=self.director, web=site, http_budget=self.http_budget,
                                    emails=emails)
                    transport = Transport(session, self.metrics, self.limits, routes=routes, origins=self.origins,
                                          trusted_proxies=self.trusted_proxies)
                    server: Server = await outer.start(functools.partial(
                        serve, transport.handler, self.requested_port, host=self.host,
                        subprotocols=[Subprotocol(M.SUBPROTOCOL)], compression=None,
                        process_request=transport.process_request, max_size=M.HARD_MAX_FRAME,
                        ping_interval=20, ping_timeout=20, create_connection=BatchConnection,
                    ))
                    bound = [listener.socket.getsockname()[:2] for listener in server.listeners]
                    self.origins.listening(bound)
                    self.port = bound[0][1]
                    if self.requested_metrics_port is not None:
                        metrics_server = await outer.start(functools.partial(
                            serve, _no_websocket, self.requested_metrics_port, host=self.metrics_host,
                            process_request=self._metrics_request, compression=None))
                        self.metrics_port = metrics_server.listeners[0].socket.getsockname()[1]
                    tables.start_soon(transport.watchdog)
                    tables.start_soon(transport.keepalive)
                    if self.cluster is not None:
                        await self._join_site(store, tables, transport, bots)
                    await self._start_sleeper(tables)
                    tables.start_soon(self._heartbeat, store)
                    if mailer is not None and self.mail is not None:
                        self.notifier = Notifier(store, mailer, self._site_origin(), self.mail.policy, wall=self.wall)
                        tables.start_soon(self.notifier.run)
                    log.info("listening on ws://%s:%s (recovered %d %s)", self.host, self.port, self.recovered,
                             "table" if self.recovered == 1 else "tables")
                    task_status.started(self)
                    await self._stop.wait()
                    log.info("shutting down")
                    with trio.CancelScope(shield=True), trio.move_on_after(10):
                        await server.aclose()  # 1001 going away to every client
                        if self.node is not None:
                            await self.node.leave()
                    tables.cancel_scope.cancel()
            finally:
                with trio.CancelScope(shield=True):
                    await store.aclose()
                outer.cancel_scope.cancel()
        self.stopped.set()

    async def _join_site(self, store: Store, nursery: trio.Nursery, transport: Transport,
                         bots: BotRunner | None) -> None:
        """Become one of the site's processes: renew a lease, take the bus,
        take over the tables nobody owns."""
        from .cluster.node import ClusterNode  # psycopg and redis: only for a site of many

        assert self.cluster is not None and self.lobby is not None
        url = self.cluster.url or f"ws://{self.host}:{self.port}"
        self.node = ClusterNode(store, self.cluster.bus, url, lease_s=self.cluster.lease_s)  # type: ignore[arg-type]
        self.node.attach(self.lobby, transport.session, bots)
        await nursery.start(self.node.run)
        self.recovered = self.node.adopted

    async def _start_sleeper(self, nursery: trio.Nursery) -> None:
        """Let turn-based tables sleep (docs/table.md T8.5): this process
        wakes the due ones itself, or on a many-process site claims them
        (T8.7: one process wins each)."""
        assert self.lobby is not None
        self.lobby.sleeps = True
        self.lobby.max_turn_tables = self.max_turn_tables
        if self.node is not None:
            self.lobby.waker = self.node.adopt
        self.sleeper = Sleeper(self.lobby, horizon_s=self.sleep_horizon,
                               wake=self.node.adopt if self.node is not None else self.lobby.find)
        self.metrics.sources.append(self.sleeper.metrics)
        self.metrics.sources.append(self.lobby.wake_times.metrics)
        await nursery.start(self.sleeper.run)

    async def drain(self) -> int:
        """Hand every table to the other processes of the site, then stop."""
        handed = 0
        if self.node is not None:
            handed = await self.node.drain()
        self.stop()
        return handed

    def _metrics_request(self, connection: ServerConnection, request: Request) -> Response:
        """The metrics listener answers GET /metrics (Prometheus' text
        format) and nothing else; it never opens a websocket."""
        if request.path.split("?", 1)[0] != "/metrics" or self.lobby is None:
            response = connection.respond(404, "This port serves /metrics only.\n")
        else:
            response = connection.respond(200, self.metrics.render(self.lobby))
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Cache-Control"] = "no-store"
        return response

    def _site(self, lobby: Lobby) -> WebSite:
        """The web client's files, each game's reference data
        (`/data/GAME/reference.json`) and word catalogues
        (`/i18n/GAME/LANG.json`), and ended games step by step
        (`/data/replay/TABLE.json?as=SEAT|spectator|all`, server/replay_cache.py)."""

        async def finished(table_id: str) -> dict[str, Any] | None:
            if await lobby.is_withheld(table_id):  # a duplicate board still played elsewhere (TR3.2)
                return None
            return await lobby.record(table_id)

        replays = self.replays = ReplayCache(dict(self.games), finished, self.http_budget,
                                             default_game=M.DEFAULT_GAME)

        async def replay(tail: str, query: Mapping[str, str], address: str) -> Asset | HttpRefusal | None:
            table_id = tail.removesuffix(".json")
            # A withheld table has no replay to cache: `finished` finds none while it is.
            got = await replays.get(table_id, query.get("as", SPECTATOR), address, viewer_of)
            if isinstance(got, Wait):
                return HttpRefusal(got.status, got.reason, got.retry_after)
            if got is None:
                return None
            return Asset(body=None, gzipped=got.gzipped, etag=got.etag, content_type="application/json; charset=utf-8")

        assert self.web is not None
        data = {f"/data/{name}/reference.json": port.reference for name, port in self.games.items()}
        data.update(game_words(self.games))  # each game's own words, /i18n/GAME/LANG.json
        return WebSite(self.web, data=data, dynamic={"/data/replay/": replay})

    async def _heartbeat(self, store: Store) -> None:
        """Tell the store we are alive, so that deadlines after a crash resume
        with the time they had left when we went down (PROTOCOL.md 11)."""
        refused = RareWarning(log)  # a store that stays full would say so every second
        while True:
            try:
                await store.heartbeat(self.wall())
            except StoreError as exc:  # a full or read-only store pauses tables; it never ends the process
                refused.warn("the store did not take the heartbeat: %s", exc)
            await trio.sleep(HEARTBEAT_S)


async def _no_websocket(ws: ServerConnection) -> None:  # pragma: no cover - the metrics port never upgrades
    await ws.aclose()


def tune_runtime() -> GcPolicy:
    """A server holds many long-lived objects (table logs, views, its
    connections' tasks) and makes many short-lived ones per step; CPython's
    default thresholds then run full collections about once a second, for
    up to 100+ ms each, freeing almost nothing: that is what the p99 latency
    measured. Start-up objects are frozen, and full collections wait for a
    quiet moment (server/collector.py): the returned policy's `run` must be
    started for them to happen at all."""
    policy = GcPolicy()
    policy.install()
    # Every store batch crosses to the writer thread and back, and the thread
    # re-takes the GIL after each SQLite step; with the default 5 ms switch
    # interval each hand-off can wait that long behind a busy trio thread.
    # 1 ms halved the paced latency (p50 6-8 ms -> 3 ms, p99 25-33 -> 12 ms).
    sys.setswitchinterval(0.001)
    return policy



async def _backup(app: App) -> None:
    try:
        await app.backup()
    except StoreError as exc:
        log.error("no backup: %s", exc)


async def serve_until_signalled(app: App, ready: Any = None, *, admin: bool = False) -> None:
    """Run until SIGTERM or SIGINT, then shut down gracefully. With
    `admin`, the server also answers `oriente drain PORT` and `oriente
    backup PORT` on its admin socket (server/admin.py); SIGUSR1 drains and
    SIGUSR2 writes a backup as well, for an operator who knows the process."""
    with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT, signal.SIGUSR1, signal.SIGUSR2) as signals:
        async with trio.open_nursery() as nursery:
            await nursery.start(app.run)
            collector = tune_runtime()
            app.metrics.sources.append(collector.metrics)
            trimmer = HeapTrimmer()
            app.metrics.sources.append(trimmer.metrics)
            async with trio.open_nursery() as helpers:
                helpers.start_soon(collector.run)
                helpers.start_soon(trimmer.run)
                if admin:
                    await _start_admin(app, helpers)
                if ready is not None:
                    ready(app)
                helpers.start_soon(_on_signals, app, signals, helpers)
                await app._stop.wait()
                helpers.cancel_scope.cancel()


async def _on_signals(app: App, signals: Any, helpers: trio.Nursery) -> None:
    async for signum in signals:
        if signum == signal.SIGUSR2:
            helpers.start_soon(_backup, app)
            continue
        # SIGUSR1, or SIGTERM with --drain: hand the tables on first (a
        # process of a site; else just stop).
        drain = signum == signal.SIGUSR1 or (
            signum == signal.SIGTERM and app.cluster is not None and app.cluster.drain_on_stop)
        if drain:
            await app.drain()
        app.stop()
        return


async def _start_admin(app: App, helpers: trio.Nursery) -> None:
    """The admin socket of this server's port, or a warning why not."""
    async def handle(request: str) -> str:
        if request == "backup":
            try:
                dest = await app.backup()
            except StoreError as exc:
                return f"no {exc}"
            copy = Path(dest).resolve()  # the asker may run in another folder
            return f"ok {copy.stat().st_size} {copy}"
        if request != "drain":
            return f"no unknown request {request[:32]!r}; this server takes: drain, backup"
        if app.cluster is None:
            return ("no this server is not one of a site's processes (serve --cluster): its tables have "
                    "nowhere to go; stop it with Ctrl-C or SIGTERM")
        log.warning("draining, as asked on the admin socket")
        handed = await app.drain()
        return f"ok drained {handed}"

    assert app.port is not None  # known once the server listens
    try:
        await helpers.start(serve_admin, socket_path(app.port), handle)
    except AdminError as exc:
        log.warning("no admin socket (oriente drain will not reach this server): %s", exc)
