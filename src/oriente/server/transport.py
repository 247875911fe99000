"""The transport moves bytes: websockets.trio connections, msgpack frames,
limits, and routing of messages to the lobby and table actors.

Only this layer imports websockets. Bad input is answered, never fatal:
every malformed or refused frame gets an error with a stable code and the
connection stays open; only a client that keeps abusing it is closed, and
only that client.
"""

from __future__ import annotations

import contextlib
import logging
import math
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never
from urllib.parse import parse_qs, unquote

import trio
from websockets.exceptions import ConcurrencyError, ConnectionClosed
from websockets.http11 import Request, Response
from websockets.trio.server import ServerConnection

from ..protocol import messages as M
from ..protocol.codec import ProtocolError, client_id_of, decode_any, decode_client, encode, unknown_fields
from .accounts import AccountError, Accounts
from .addresses import TrustedProxies, address_key, client_address
from .bots import BotError, BotRunner
from .budget import AddressBudget
from .director import Director, DirectorError
from .lobby import Lobby, LobbyError
from .lograte import RareWarning
from .metrics import Metrics
from .origins import OriginPolicy
from .outbox import Outbox
from .query import MAX_DIGITS, whole_number
from .stores import AccountRow, CredentialRow
from .table import ENDED, AccountJoin, Disconnected, OfferRematch, PreCommitJoin, Table, history_frames
from .web import Refusal, WebSite, download, json_response, plain_text, refused

log = logging.getLogger("oriente.transport")

CLOSE_TOO_SLOW = 4008  # application close codes live in 4000-4999
CLOSE_ABUSE = 1008  # policy violation
WITHHELD = ("this table plays a tournament's duplicate board that other tables are still playing; "
            "its record and spectating open once they have all finished")

CLOSE_MOVED = 1012  # service restart: reconnect (where `moved` says) and resume


class ClusterSeam(Protocol):
    """What the transport asks of the site when this process is one of
    many (`server.cluster`); None on a lone server."""

    async def forward(self, outbox: Outbox, msg: Any, frame: bytes | str, *,
                      who: tuple[str, str] | None = None) -> bool:
        """Send a table's (or tournament's) message to the process that owns
        it, with the account and credential ids the connection is signed in
        with (`who`); False: serve it here."""
        ...

    def disconnected(self, outbox: Outbox) -> None:
        """A connection that may have forwarded messages has gone."""
        ...

    def listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The site's public tables, given this process's own."""
        ...

    def origins(self) -> list[str]:
        """The origins of the site's processes (`welcome.origins`)."""
        ...

    def tournament_listing(self, local: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The site's tournaments, given this process's own."""
        ...

    async def open_tables_created_by(self, address: str) -> int:
        """The open tables of the whole site that a client address created."""
        ...

    async def created(self, table_id: str, address: str) -> None:
        """Note the client address that created a table, for the site's count."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Limits:
    """Per-connection limits. The rate is a token bucket: `rate` messages a
    second on average, bursts up to `burst`. `strikes` refused frames within
    `strike_window` seconds close the connection."""

    max_frame: int = M.MAX_FRAME
    rate: float = 200.0
    burst: float = 400.0
    strikes: int = 50
    strike_window: float = 10.0
    outbox: int = 512
    outbox_bytes: int = 4 * 1024 * 1024
    send_timeout: float = 10.0
    # Open tables one connection, and one client address, may have created (docs/table.md T6.2).
    tables_per_connection: int = 5
    tables_per_address: int = 20

    def plain(self) -> dict[str, Any]:
        return {"max_frame": self.max_frame, "rate": self.rate, "burst": self.burst,
                "strikes": self.strikes, "strike_window": self.strike_window}


@dataclass(slots=True)
class _Conn:
    outbox: Outbox
    tokens: float
    last: float
    strikes: list[float] = field(default_factory=list)
    tables: set[str] = field(default_factory=set)
    account: AccountRow | None = None  # signed in (PROTOCOL.md 19)
    credential: CredentialRow | None = None
    address: str = ""
    client: str = ""  # what the client calls itself (hello's `client`, else its User-Agent), for its sessions
    created: list[Table] = field(default_factory=list)  # tables it created that may still be open


def _peer(connection: ServerConnection) -> str:
    """The TCP peer's address; empty for a client already gone (its
    socket closed while the request waited)."""
    try:
        remote = connection.remote_address
    except OSError:
        return ""
    return str(remote[0]) if remote else ""


class Transport:
    def __init__(self, lobby: Lobby, metrics: Metrics, limits: Limits = Limits(), *,
                 server_name: str = "oriente", web: WebSite | None = None,
                 origins: OriginPolicy | None = None, bots: BotRunner | None = None,
                 trusted_proxies: Collection[str] | None = None, director: Director | None = None,
                 http_budget: AddressBudget | None = None) -> None:
        """`origins`: the pages that may open a websocket (server/origins.py);
        `trusted_proxies`: reverse proxies whose `X-Forwarded-For` names the
        client (server/addresses.py; None: loopback); `http_budget`: what plain
        HTTP may cost per client address (server/budget.py)."""
        self.lobby = lobby
        self.director = director
        self.trusted_proxies: Collection[str] = (TrustedProxies() if trusted_proxies is None
                                                 else trusted_proxies)
        self.origins = origins if origins is not None else OriginPolicy()
        self.http_budget = http_budget if http_budget is not None else AddressBudget()
        self._untrusted_forward = RareWarning(log)
        self._refused_origin = RareWarning(log)
        self._created_from: dict[str, list[Table]] = {}  # client address -> tables it created, maybe open
        self.metrics = metrics
        self.limits = limits
        self.server_name = server_name
        self.web = web
        self.bots = bots
        self._outboxes: set[Outbox] = set()  # the open connections' outboxes, for the watchdog
        self.cluster: ClusterSeam | None = None

    # -- HTTP on the same port --------------------------------------------------------

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP (PROTOCOL.md 13), and the checks of a websocket
        handshake. Every answer says `nosniff`: a browser takes each body
        for the type it is sent as, and never sniffs JSON into a page."""
        response = await self._http(connection, request)
        if response is not None and "X-Content-Type-Options" not in response.headers:
            response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        host = request.headers.get("Host")
        if path == "/healthz":
            return connection.respond(200, "ok\n")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            address = self._http_address(connection, request)
            # What the server makes for a request (exports, the accounts'
            # reads, replays) costs its address; its files, kept ready in
            # memory, cost nothing, so a page load behind a shared address
            # (a school, a club's tournament room) is never held.
            if self._made(path):
                wait = await self.http_budget.spend(address)
                if wait is not None:
                    return refused(Refusal(429, f"this address asked for more than the server makes for one "
                                                f"address ({self.http_budget.rate:g} requests a second, bursts of "
                                                f"{self.http_budget.burst:g})", max(1, math.ceil(wait))), host)
            if path == "/metrics":
                return plain_text(404, "Not Found", "The metrics are served on their own port "
                                                    "(oriente serve --metrics-port), not on the game's.\n", host)
            if path.startswith("/tournament/") and self.director is not None:
                found = await self.director.export(unquote(path.removeprefix("/tournament/")))
                if found is not None:
                    return download(*found, host)
            if path in ("/leaderboard", "/leaderboard.json") or path.startswith("/account/"):
                return await self._accounts_http(path, request.path.partition("?")[2], host)
            if self.web is not None:
                return await self.web.respond(request, address)
            return connection.respond(426, "This is the Oriente websocket endpoint "
                                           f"(subprotocol {M.SUBPROTOCOL}); see /healthz.\n")
        offered = ",".join(request.headers.get_all("Sec-WebSocket-Protocol"))
        if M.SUBPROTOCOL not in [p.strip() for p in offered.split(",")]:
            return connection.respond(400, f"Offer the subprotocol {M.SUBPROTOCOL} "
                                           "(Sec-WebSocket-Protocol header).\n")
        origin = request.headers.get("Origin")
        if not self.origins.allows(origin, self.cluster.origins() if self.cluster is not None else ()):
            # A page from another site must not act with a player's token;
            # nor one whose name was pointed at this server (DNS rebinding).
            public = ", ".join(self.origins.describe())
            self._refused_origin.warn("refused a websocket from the page origin %r: this site's origins are %s "
                                      "(if that page is this site, start the server with --public-origin "
                                      "naming it; another site's page, with --allow-origin)", origin, public)
            return connection.respond(403, f"This page's origin may not open a websocket here: this site is "
                                           f"{public} (the server's --public-origin and --allow-origin name "
                                           "the pages that may).\n")
        return None

    def _made(self, path: str) -> bool:
        """Is `path` answered with something made for the request (not a file)?"""
        return (path.startswith(("/tournament/", "/account/")) or path in ("/leaderboard", "/leaderboard.json")
                or (self.web is not None and self.web.is_dynamic(path)))

    def _http_address(self, connection: ServerConnection, request: Request) -> str:
        return self._client_address(_peer(connection), request.headers.get_all("X-Forwarded-For"))

    async def _accounts_http(self, path: str, query: str, host: str | None) -> Response:
        """GET /leaderboard?game=G&limit=N and /account/NAME: JSON reads of
        the accounts (PROTOCOL.md 13)."""
        accounts = self.lobby.accounts
        if accounts is None:
            return plain_text(404, "Not Found", "This server keeps no accounts.\n", host)
        args = {k: v[-1] for k, v in parse_qs(query).items()}
        try:
            if path.startswith("/account/"):
                data: Any = await accounts.profile(unquote(path[len("/account/"):]), sorted(self.lobby.ports))
            else:
                game = args.get("game", M.DEFAULT_GAME)
                if game not in self.lobby.ports:
                    return plain_text(404, "Not Found", f"This server does not play {game!r}.\n", host)
                limit = whole_number(args.get("limit", "50"))
                if limit is None:
                    return plain_text(400, "Bad Request",
                                      f"limit is a whole number of at most {MAX_DIGITS} digits.\n", host)
                data = {"game": game, "leaderboard": await accounts.leaderboard(game, limit)}
        except AccountError as exc:
            return plain_text(404, "Not Found", exc.message + "\n", host)
        return json_response(200, "OK", data, host)

    # -- one connection -------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        outbox = Outbox(self.limits.outbox, label=str(ws.remote_address), max_bytes=self.limits.outbox_bytes)
        conn = _Conn(outbox=outbox, tokens=self.limits.burst, last=trio.current_time(),
                     address=self._address_of(ws),
                     client=ws.request.headers.get("User-Agent", "") if ws.request is not None else "")
        self.metrics.connections_total += 1
        self.metrics.connections_open += 1
        outbox.put(encode(M.welcome(self.server_name, self.limits.plain(), self._bot_kinds(),
                                     sorted(self.lobby.ports),
                                     self.cluster.origins() if self.cluster is not None else None,
                                     self._bot_about(), self._game_info())))
        try:
            async with trio.open_nursery() as nursery:
                drained = trio.Event()
                nursery.start_soon(self._writer, ws, outbox, drained)
                self.track(outbox)
                nursery.start_soon(self._evictor, ws, outbox, drained, nursery.cancel_scope)
                try:
                    await self._reader(ws, conn)
                    if outbox.evicted is not None:
                        # The evictor sends what is still owed (the errors, a
                        # goodbye), closes with the code the reason calls for,
                        # and cancels this nursery: cancelling now would cut
                        # those frames off and let the library close with 1000.
                        await trio.sleep_forever()
                finally:
                    nursery.cancel_scope.cancel()
        finally:
            self.metrics.connections_open -= 1
            outbox.evict("client/gone")
            self.untrack(outbox)
            if self.director is not None:
                self.director.unwatch(outbox)
            if self.cluster is not None:
                self.cluster.disconnected(outbox)
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                for table_id in conn.tables:
                    table = self.lobby.get(table_id)
                    if table is not None:
                        await table.send(None, Disconnected(outbox))

    def _address_of(self, ws: ServerConnection) -> str:
        request = ws.request
        forwarded = request.headers.get_all("X-Forwarded-For") if request is not None else []
        return self._client_address(_peer(ws), forwarded)

    def _client_address(self, peer: str, forwarded: list[str]) -> str:
        """The address limits count this client under (server/addresses.py).
        A header from a peer that is no trusted proxy is ignored, and said so
        in the log now and then: usually a proxy `--trusted-proxy` should name."""
        if forwarded and peer not in self.trusted_proxies:
            self._untrusted_forward.warn(
                "X-Forwarded-For %r came from %s, which is not a trusted proxy: the header is ignored and its "
                "limits count under %s (if %s is your reverse proxy, name it with --trusted-proxy)",
                ", ".join(forwarded)[:200], peer, address_key(peer), peer)
        return client_address(peer, forwarded, self.trusted_proxies)

    async def _creation_refused(self, conn: _Conn) -> str | None:
        """Why this connection may not create a table now (T6.2), or None.
        Only open tables count: one that started or was abandoned frees its place.
        On a site of many processes an address's tables are counted over all
        of them (a creation at two processes at once may pass one over)."""
        conn.created[:] = [t for t in conn.created if t.status == "open"]
        by_address = self._created_from.get(conn.address, [])
        by_address[:] = [t for t in by_address if t.status == "open"]
        if not by_address:
            self._created_from.pop(conn.address, None)
        if len(conn.created) >= self.limits.tables_per_connection:
            return (f"this connection has {len(conn.created)} open tables it created, the most it may "
                    f"({self.limits.tables_per_connection}); start or leave one, or wait until nobody holds it")
        count = len(by_address)
        if self.cluster is not None and conn.address and count < self.limits.tables_per_address:
            count = max(count, await self.cluster.open_tables_created_by(conn.address))
        if count >= self.limits.tables_per_address:
            return (f"your address has {count} open tables it created, the most it may "
                    f"({self.limits.tables_per_address}); start or leave one, or wait until nobody holds it")
        return None

    def _created(self, conn: _Conn, table: Table) -> None:
        conn.created.append(table)
        self._created_from.setdefault(conn.address, []).append(table)

    def _bot_kinds(self) -> dict[str, list[str]] | None:
        """Per game, the server bots `add_bots` offers; None without bots."""
        if self.bots is None:
            return None
        return {name: list(port.policies) for name, port in sorted(self.lobby.ports.items()) if port.policies}

    def _game_info(self) -> dict[str, dict[str, Any]]:
        """Per game, what it says of itself (its port's `describe`)."""
        return {name: port.describe().plain() for name, port in sorted(self.lobby.ports.items())}

    def _bot_about(self) -> dict[str, dict[str, Any]] | None:
        """Per game and bot, what the bot is (the port's `policy_about`)."""
        if self.bots is None:
            return None
        out = {name: {kind: dict(about) for kind, about in port.policy_about.items()
                      if kind in port.policies}
               for name, port in sorted(self.lobby.ports.items()) if port.policies}
        return {name: about for name, about in out.items() if about} or None

    async def _writer(self, ws: ServerConnection, outbox: Outbox, drained: trio.Event) -> None:
        """Send queued frames. The watchdog below evicts the client if one
        send stays in progress longer than `send_timeout` (the client stopped
        reading); marking the start of a send costs far less per frame than
        arming a cancel-scope deadline around each one."""
        try:
            async for frame in outbox.receive:
                outbox.taken(frame)
                outbox.sending_since = trio.current_time()
                try:
                    await ws.send(frame)
                except ConnectionClosed:
                    outbox.evict("client/gone")
                    return
                outbox.sending_since = None
                self.metrics.frames_out += 1
        finally:
            drained.set()

    def track(self, outbox: Outbox) -> None:
        """Watch a connection's sends (`watchdog`) while it is open."""
        self._outboxes.add(outbox)

    def untrack(self, outbox: Outbox) -> None:
        self._outboxes.discard(outbox)

    async def watchdog(self) -> None:
        """One task for every connection (run it beside the server): evict
        each client whose send has been in progress longer than
        `send_timeout`, looking every quarter of it. A task per connection
        cost a few KiB each and woke every idle connection four times per
        timeout."""
        timeout = self.limits.send_timeout
        while True:
            await trio.sleep(timeout / 4)
            now = trio.current_time()
            for outbox in [o for o in self._outboxes
                           if o.sending_since is not None and now - o.sending_since > timeout]:
                outbox.evict("client/too_slow")

    async def _evictor(self, ws: ServerConnection, outbox: Outbox, drained: trio.Event,
                       scope: trio.CancelScope) -> None:
        """Close an evicted connection: a slow reader at once (4008, it should
        resume); an abuser after its last frames (the goodbye) went out (1008)."""
        reason = await outbox.wait_evicted()
        with trio.move_on_after(2):
            async with trio.open_nursery() as closing:
                # An abuser's frames sent after its last answered one are
                # discarded unread while the close goes out: left queued, they
                # fill the library's receive queue, which then stops reading,
                # never reaches the client's close frame and holds the close
                # (and the server's shutdown) until its timeout.
                if reason == "abuse/closed":  # the reader has stopped: nobody else receives
                    closing.start_soon(self._discard, ws)
                if reason == "client/too_slow":
                    self.metrics.evictions += 1
                    await ws.aclose(CLOSE_TOO_SLOW, "too slow: reconnect and resume from your last seq")
                elif reason == "server/moved":
                    await drained.wait()
                    await ws.aclose(CLOSE_MOVED, "this table moved: reconnect and resume")
                elif reason == "abuse/closed":
                    await drained.wait()
                    await ws.aclose(CLOSE_ABUSE, "too many refused frames")
                closing.cancel_scope.cancel()
        scope.cancel()

    @staticmethod
    async def _discard(ws: ServerConnection) -> None:
        """Read and drop what a closing connection still receives."""
        with contextlib.suppress(ConnectionClosed, ConcurrencyError):
            async for _ in ws:
                pass

    async def _reader(self, ws: ServerConnection, conn: _Conn) -> None:
        """Read and answer frames until the client goes or is evicted. Every
        frame read is answered (an error at worst) before the next is read;
        nothing is read after an eviction, so nothing read goes unanswered."""
        try:
            async for frame in ws:
                self.metrics.frames_in += 1
                await self._one_frame(conn, frame)
                if conn.outbox.evicted is not None:
                    return
        except ConnectionClosed:
            return

    async def _one_frame(self, conn: _Conn, frame: bytes | str, *, forwarded: bool = False) -> None:
        if not self._admit(conn):
            self._refuse(conn, client_id_of(frame), "rate/limited",
                         f"at most {self.limits.rate:g} messages a second (bursts of {self.limits.burst:g}); "
                         "this one was not handled: send it again later")
            return
        try:
            msg = decode_client(frame)
        except ProtocolError as exc:
            self._refuse(conn, client_id_of(frame), exc.code, exc.message)
            return
        await self._dispatch(conn, msg, frame, forwarded=forwarded)

    def _admit(self, conn: _Conn) -> bool:
        now = trio.current_time()
        conn.tokens = min(self.limits.burst, conn.tokens + (now - conn.last) * self.limits.rate)
        conn.last = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    def _charge_history(self, conn: _Conn, msg: M.Resume | M.Spectate, seq: int) -> bool:
        """History is paid for: a `resume` or `spectate`
        with `after` costs one more token per history frame it will bring
        (PROTOCOL.md 12). Without the tokens it is refused as rate/limited."""
        frames = history_frames(msg.after, seq)
        if frames == 0:
            return True
        if conn.tokens < frames:
            self._refuse(conn, msg.id, "rate/limited",
                         f"the history after seq {msg.after} is {frames} frames, each costing one message of your "
                         f"rate budget ({self.limits.rate:g} a second, bursts of {self.limits.burst:g}); "
                         "this one was not handled: send it again later, or with a later `after`")
            return False
        conn.tokens -= frames
        return True

    def _refuse(self, conn: _Conn, cid: Any, code: str, message: str, *, retry_after: float | None = None) -> None:
        """Answer a refused frame; close the connection after too many."""
        self.metrics.error(code)
        conn.outbox.put(encode(M.error(cid, code, message, retry_after=retry_after)))
        now = trio.current_time()
        conn.strikes = [t for t in conn.strikes if now - t < self.limits.strike_window]
        conn.strikes.append(now)
        if len(conn.strikes) >= self.limits.strikes:
            conn.outbox.put(encode(M.goodbye("abuse/closed", "too many refused frames; closing this connection")))
            conn.outbox.evict("abuse/closed")

    # -- connections held by another process of the site (server.cluster) --------

    def remote_conn(self, outbox: Outbox) -> Any:
        """A connection whose frames another process reads and forwards;
        what it is owed goes into `outbox`."""
        return _Conn(outbox=outbox, tokens=self.limits.burst, last=trio.current_time())

    async def forwarded(self, conn: Any, frame: bytes, *, who: tuple[str, str] | None = None) -> None:
        """Serve a frame forwarded by the process that holds the connection.
        It is admitted here as a direct frame is (the rate, the burst, the
        history it costs, the strikes, all on this connection's own bucket,
        which refills with time): the process in front admitted it too, but
        a table's limits do not rest on another process. `who`: the account
        and credential the connection is signed in with there, so that its
        joins and tournament entries here are that account's."""
        await self._signed_in_as(conn, who)
        await self._one_frame(conn, frame, forwarded=True)

    async def _signed_in_as(self, conn: _Conn, who: tuple[str, str] | None) -> None:
        """A forwarded connection's account, as the process in front knows it."""
        if who is None or self.lobby.accounts is None:
            conn.account = conn.credential = None
            return
        if conn.account is not None and conn.credential is not None and (conn.account.id, conn.credential.id) == who:
            return
        store = self.lobby.store
        account = await store.account(who[0])
        credential = next((c for c in await store.credentials(who[0]) if c.id == who[1]), None)
        conn.account, conn.credential = (account, credential) if account and credential else (None, None)

    async def disconnect(self, conn: Any) -> None:
        """The connection is gone: its tables (and tournaments) hear of it."""
        conn.outbox.evict("client/gone")
        if self.director is not None:
            self.director.unwatch(conn.outbox)
        for table_id in conn.tables:
            table = self.lobby.get(table_id)
            if table is not None:
                await table.send(None, Disconnected(conn.outbox))

    async def _dispatch(self, conn: _Conn, msg: M.ClientMessage, frame: bytes | str, *,
                        forwarded: bool = False) -> None:
        outbox = conn.outbox
        if (self.cluster is not None and not forwarded
                and (getattr(msg, "table", None) or getattr(msg, "tournament", None))
                and await self.cluster.forward(outbox, msg, frame, who=(conn.account.id, conn.credential.id)
                                               if conn.account is not None and conn.credential is not None
                                               else None)):
            return
        match msg:
            case (M.Join() | M.Leave() | M.Start() | M.Resume() | M.Spectate() | M.Unsubscribe() | M.Act()
                  | M.Back() | M.Chat()):
                table = await self.lobby.find(msg.table)
                if table is None:
                    self._refuse(conn, msg.id, "table/unknown", f"there is no table {msg.table!r}")
                    return
                if isinstance(msg, M.Spectate) and await self.lobby.is_withheld(table.id):
                    conn.outbox.put(encode(M.error(msg.id, "table/withheld", WITHHELD)))
                    return
                if isinstance(msg, M.Resume | M.Spectate) and not self._charge_history(conn, msg, table.seq):
                    return
                if isinstance(msg, M.Join) and conn.account is not None:
                    signed = await self._signed_join(conn, msg)
                    if signed is None:
                        return
                    conn.tables.add(table.id)
                    await table.send(outbox, signed)
                else:
                    conn.tables.add(table.id)
                    await table.send(outbox, msg)
            case (M.SignUp() | M.SignIn() | M.SignOut() | M.BotToken() | M.Tokens() | M.RevokeToken()
                  | M.Leaderboard() | M.Profile() | M.Sessions() | M.SignOutEverywhere()):
                await self._account_message(conn, msg)
            case M.Ping():
                outbox.put(encode(M.ok(msg.id, pong=True)))
            case M.Hello():
                if msg.client:
                    conn.client = msg.client
                outbox.put(encode(M.ok(msg.id, server=self.server_name, protocol=M.SUBPROTOCOL)))
            case M.ListTables():
                try:
                    tables, after = self.lobby.listing_page(msg.cursor, msg.limit)
                except LobbyError as exc:
                    self._refuse(conn, msg.id, exc.code, exc.message)
                    return
                if self.cluster is not None and after is None:
                    # The site's other processes' tables, after the last page.
                    site = self.cluster.listing(decode_any(bytes(tables)))
                    outbox.put(encode(M.ok(msg.id, tables=site, next=after)))
                    return
                outbox.put(encode(M.ok(msg.id, tables=tables, next=after)))
            case M.CreateTable():
                refusal = await self._creation_refused(conn)
                if refusal is not None:
                    self._refuse(conn, msg.id, "lobby/too_many", refusal)
                    return
                try:
                    legacy = unknown_fields(frame, msg)
                except ProtocolError as exc:
                    self._refuse(conn, msg.id, exc.code, exc.message)
                    return
                try:
                    table = await self.lobby.create(*self.lobby.settings_from(msg, legacy))
                except LobbyError as exc:
                    self._refuse(conn, msg.id, exc.code, exc.message)
                    return
                self._created(conn, table)
                if self.cluster is not None and conn.address:
                    await self.cluster.created(table.id, conn.address)
                outbox.put(encode(M.ok(msg.id, table=table.id, info=table.info())))
            case M.AddBots():
                await self._add_bots(conn, msg)
            case M.Rematch():
                await self._rematch(conn, msg)
            case M.GetRecord():
                await self._record(conn, msg)
            case (M.TournamentCreate() | M.TournamentRegister() | M.TournamentWatch() | M.TournamentWithdraw()
                  | M.TournamentDirect() | M.ListTournaments()):
                await self._tournament(conn, msg)
            case _:  # pragma: no cover - the codec yields catalogue types only
                assert_never(msg)

    async def _tournament(self, conn: _Conn, msg: M.TournamentMessage) -> None:
        """Tournaments (PROTOCOL.md 19): every action goes to the director;
        its refusals come back with their codes."""
        director = self.director
        if director is None:
            conn.outbox.put(encode(M.error(msg.id, "tournament/unavailable", "this server runs no tournaments")))
            return
        outbox = conn.outbox
        try:
            match msg:
                case M.TournamentCreate():
                    t, token = await director.create(msg.settings)
                    outbox.put(encode(M.ok(msg.id, tournament=t.id, organiser_token=token)))
                case M.TournamentRegister():
                    entered, token = await director.register(msg.tournament, msg.name, kind=msg.kind,
                                                             policy=msg.policy, organiser_token=msg.organiser_token,
                                                             account=conn.account)
                    outbox.put(encode(M.ok(msg.id, tournament=msg.tournament, entrant=entered, token=token)))
                case M.TournamentWatch():
                    live, entrant = director.watch(msg.tournament, outbox, msg.token, msg.full)
                    outbox.put(encode(M.ok(msg.id, tournament=msg.tournament, entrant=entrant)))
                    outbox.put(encode(M.tournament(msg.tournament, director.frame_for(live, outbox))))
                    await director.arena_enter(live, entrant)
                case M.TournamentWithdraw():
                    gone = await director.withdraw(msg.tournament, msg.token, msg.entrant)
                    outbox.put(encode(M.ok(msg.id, entrant=gone)))
                case M.TournamentDirect():
                    args = {"round": msg.round, "table": msg.table, "ranks": msg.ranks, "entrant": msg.entrant}
                    out = await director.direct(msg.tournament, msg.token, msg.action, args)
                    outbox.put(encode(M.ok(msg.id, **out)))
                case M.ListTournaments():
                    listed = director.listing()
                    if self.cluster is not None:  # the site's: the other processes' too
                        listed = self.cluster.tournament_listing(listed)
                    outbox.put(encode(M.ok(msg.id, tournaments=listed)))
        except DirectorError as exc:  # not a strike: the request was well formed (PROTOCOL.md 21)
            self.metrics.error(exc.code)
            outbox.put(encode(M.error(msg.id, exc.code, exc.message)))

    async def _record(self, conn: _Conn, msg: M.GetRecord) -> None:
        if await self.lobby.is_withheld(msg.table):
            conn.outbox.put(encode(M.error(msg.id, "table/withheld", WITHHELD)))
            return
        table = self.lobby.get(msg.table)
        if table is not None and table.status not in ENDED:
            conn.outbox.put(encode(M.error(msg.id, "record/not_finished",
                                           "the full record is available once the game has ended")))
            return
        record = await self.lobby.record(msg.table)
        if record is None:
            self._refuse(conn, msg.id, "table/unknown", f"there is no ended table {msg.table!r}")
            return
        conn.outbox.put(encode(M.ok(msg.id, record=record)))

    async def _add_bots(self, conn: _Conn, msg: M.AddBots) -> None:
        table = self.lobby.get(msg.table)
        if table is None:
            self._refuse(conn, msg.id, "table/unknown", f"there is no table {msg.table!r}")
            return
        if self.bots is None:
            conn.outbox.put(encode(M.error(msg.id, "bots/unavailable", "this server runs no bots")))
            return
        try:
            seats = await self.bots.add(table, msg.token, msg.policy, msg.count)
        except BotError as exc:
            conn.outbox.put(encode(M.error(msg.id, exc.code, exc.message)))
            return
        conn.outbox.put(encode(M.ok(msg.id, seats=seats)))

    async def _rematch(self, conn: _Conn, msg: M.Rematch) -> None:
        """Find or create the rematch; the request that creates it seats the
        server's bots again and tells the old table's viewers. Then the
        requester joins its own seat, and the table answers as to a join."""
        try:
            rematch = await self.lobby.rematch(msg.table, msg.token)
        except LobbyError as exc:
            self._refuse(conn, msg.id, exc.code, exc.message)
            return
        table = rematch.table
        if rematch.created:
            if rematch.bots and self.bots is not None:
                await self.bots.seat(table, rematch.bots)
            old = self.lobby.get(msg.table)
            if old is not None:
                await old.send(None, OfferRematch(table=table.id, seat=rematch.seat))
        join = M.Join(id=msg.id, table=table.id, name=rematch.name, seat=rematch.seat, views=msg.views,
                      nonce=msg.nonce)
        was_signed_in = conn.account is not None
        signed = await self._signed_join(conn, join) if was_signed_in else None
        if was_signed_in and signed is None:
            return  # its session ended: refused, and the connection signed out
        conn.tables.add(table.id)
        inner: M.Join | AccountJoin = join if signed is None else signed
        # The request that made a rematch nobody committed to in advance brought
        # its nonce before the salt existed: it keeps the seat, not the seed (T7.4).
        await table.send(conn.outbox, PreCommitJoin(inner) if rematch.created and not rematch.precommitted
                         else inner)

    # -- accounts (PROTOCOL.md 19) -------------------------------------------------------

    async def _signed_join(self, conn: _Conn, msg: M.Join) -> AccountJoin | None:
        """A join from a signed-in connection: with its account's card; None
        (refused, and the connection signed out) when its session ended."""
        accounts = self.lobby.accounts
        assert accounts is not None and conn.account is not None and conn.credential is not None
        try:
            await accounts.still_signed_in(conn.credential)
        except AccountError as exc:
            conn.account = conn.credential = None
            self._refuse(conn, msg.id, exc.code, exc.message)
            return None
        return AccountJoin(join=msg, account=await accounts.card(conn.account))

    async def _account_message(self, conn: _Conn, msg: M.ClientMessage) -> None:
        accounts = self.lobby.accounts
        if accounts is None:
            conn.outbox.put(encode(M.error(msg.id, "account/unavailable", "this server keeps no accounts")))
            return
        try:
            reply = await self._account_reply(accounts, conn, msg)
        except AccountError as exc:
            self._refuse(conn, msg.id, exc.code, exc.message, retry_after=exc.retry_after)
            return
        conn.outbox.put(encode(M.ok(msg.id, **reply)))

    async def _account_reply(self, accounts: Accounts, conn: _Conn, msg: M.ClientMessage) -> dict[str, Any]:
        match msg:
            case M.SignUp():
                account, token = await accounts.sign_up(msg.name, msg.password, address=conn.address,
                                                        client=conn.client)
                conn.account, conn.credential = await accounts.authenticate(token)
                return {"account": await accounts.card(account), "token": token}
            case M.SignIn():
                if msg.token is not None:
                    token = msg.token
                    conn.account, conn.credential = await accounts.sign_in_token(token, address=conn.address)
                else:
                    _, token = await accounts.sign_in(msg.name, msg.password, address=conn.address,
                                                      client=conn.client)
                    conn.account, conn.credential = await accounts.authenticate(token)
                reply: dict[str, Any] = {"account": await accounts.card(conn.account)}
                if msg.token is None:
                    reply["token"] = token
                return reply
            case M.SignOut():
                if conn.credential is not None and conn.credential.kind == "session":
                    await accounts.sign_out(conn.credential)
                conn.account = conn.credential = None
                return {}
            case M.Leaderboard():
                if msg.game not in self.lobby.ports:
                    raise AccountError("table/unknown_game", f"this server does not play {msg.game!r}")
                return {"game": msg.game, "leaderboard": await accounts.leaderboard(msg.game, msg.limit)}
            case M.Profile():
                return {"profile": await accounts.profile(msg.name, sorted(self.lobby.ports))}
        if conn.account is None or conn.credential is None:
            raise AccountError("auth/sign_in_required", "sign in first (sign_in)")
        try:
            await accounts.still_signed_in(conn.credential)
        except AccountError:
            conn.account = conn.credential = None
            raise
        match msg:
            case M.BotToken():
                bot, token, token_id = await accounts.bot_token(conn.account, msg.bot, msg.label,
                                                                address=conn.address)
                return {"account": await accounts.card(bot), "token": token, "token_id": token_id}
            case M.Sessions():
                return {"sessions": await accounts.sessions(conn.account, conn.credential)}
            case M.SignOutEverywhere():
                keep = conn.credential if msg.keep_current and conn.credential.kind == "session" else None
                ended = await accounts.sign_out_everywhere(conn.account, keep)
                if keep is None and conn.credential.kind == "session":
                    conn.account = conn.credential = None
                return {"ended": ended}
            case M.Tokens():
                return {"tokens": await accounts.tokens(conn.account)}
            case M.RevokeToken():
                await accounts.revoke(conn.account, msg.token_id)
                return {}
        raise AssertionError(f"not an account message: {msg!r}")  # pragma: no cover
