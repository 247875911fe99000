"""The session: what a connection's messages ask of the server, and the
answers. The transport hands it each frame a client sent (and the cluster
each frame another process of the site forwarded); the session admits it
(the connection's rate and strikes, PROTOCOL.md 12), decodes it and
dispatches it: a table's messages to the table's actor, the others to the
lobby (listing, creation, bots, rematches, records), the accounts (sign-up,
sign-in, tokens) and the tournament director.

Every refusal is a `Refusal` (the codec's, the lobby's, the accounts', the
director's, the bots'...), answered here once: an error with its code and
message, counted, and a strike against the connection unless it is a
well-formed request the server declines (the director's, the bots',
`Declined`: PROTOCOL.md 14). Websockets are the transport's; this layer
moves no bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, assert_never

import trio

from ..protocol import messages as M
from ..protocol.codec import client_id_of, decode_any, decode_client, encode, unknown_fields
from ..refusal import Refusal
from .accounts import AccountError, Accounts
from .bots import BotError, BotRunner
from .director import Director, DirectorError
from .emails import Emails
from .limits import Limits
from .lobby import Lobby
from .metrics import Metrics
from .outbox import Outbox
from .stores import AccountRow, CredentialRow, SeatRow
from .table import AccountJoin, AccountResume, OfferRematch, PreCommitJoin, Table, history_frames

# How many tables one my_tables may name (PROTOCOL.md 3), and answer with at most.
MY_TABLES_ASKED = 50


def _indexed_info(row: SeatRow) -> dict[str, Any]:
    """What my_tables says of an account's table that is not in this
    process's memory (asleep on disk, or another process's): what the
    index of seats by account knows."""
    return {"table": row.table_id, "status": "finished" if row.ended else "running",
            "settings": {"timers": {"turn_based": True}} if row.turn_based else {}}


def _seat_of(info: dict[str, Any], account: str | None) -> int | None:
    """The seat the account holds in a table's information, or None."""
    if account is None:
        return None
    for slot in info.get("seats") or []:
        if slot and (slot.get("account") or {}).get("id") == account:
            return int(slot["seat"])
    return None

WITHHELD = ("this table plays a tournament's duplicate board that other tables are still playing; "
            "its record and spectating open once they have all finished")


class Declined(Refusal):
    """A well-formed request the server declines (a service it does not
    run, a record not ready, a withheld table): not a strike."""


# Refusals that are no strike against the connection (PROTOCOL.md 14).
NOT_STRIKES = (Declined, DirectorError, BotError)


class ClusterSeam(Protocol):
    """What the session (and the transport) ask of the site when this
    process is one of many (`server.cluster`); None on a lone server."""

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


@dataclass(slots=True)
class Conn:
    """One connection, as the session knows it: its outbox, its rate bucket
    and strikes, the tables it talks to, who is signed in on it."""

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


class Session:
    def __init__(self, lobby: Lobby, metrics: Metrics, limits: Limits = Limits(), *,
                 server_name: str = "oriente", bots: BotRunner | None = None,
                 director: Director | None = None, emails: Emails | None = None) -> None:
        self.lobby = lobby
        self.emails = emails
        self.director = director
        self.metrics = metrics
        self.limits = limits
        self.server_name = server_name
        self.bots = bots
        self.cluster: ClusterSeam | None = None
        self._created_from: dict[str, list[Table]] = {}  # client address -> tables it created, maybe open

    # -- connections ---------------------------------------------------------------------

    def connect(self, outbox: Outbox, *, address: str = "", client: str = "") -> Conn:
        """A new connection from `address` (its client named by `client`)."""
        return Conn(outbox=outbox, tokens=self.limits.burst, last=trio.current_time(), address=address,
                    client=client)

    def welcome(self) -> dict[str, Any]:
        """The first frame every connection gets."""
        return M.welcome(self.server_name, self.limits.plain(), self._bot_kinds(), sorted(self.lobby.ports),
                         self.cluster.origins() if self.cluster is not None else None, self._bot_about(),
                         self._game_info())

    async def closed(self, conn: Conn) -> None:
        """The connection has gone: its tournaments, the site and its tables
        hear of it (the tables within five seconds, whatever cancels)."""
        if self.director is not None:
            self.director.unwatch(conn.outbox)
        if self.cluster is not None:
            self.cluster.disconnected(conn.outbox)
        with trio.CancelScope(shield=True), trio.move_on_after(5):
            for table_id in conn.tables:
                await self.lobby.disconnected(table_id, conn.outbox)

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

    # -- frames ------------------------------------------------------------------------

    async def frame(self, conn: Conn, frame: bytes | str, *, forwarded: bool = False) -> None:
        """Admit, read and answer one frame (every frame gets an answer, an
        error at worst)."""
        if not self._admit(conn):
            self._refuse(conn, client_id_of(frame), "rate/limited",
                         f"at most {self.limits.rate:g} messages a second (bursts of {self.limits.burst:g}); "
                         "this one was not handled: send it again later")
            return
        try:
            msg = decode_client(frame)
        except Refusal as exc:
            self._refuse(conn, client_id_of(frame), exc.code, exc.message)
            return
        try:
            await self._dispatch(conn, msg, frame, forwarded=forwarded)
        except Refusal as exc:
            self.metrics.error(exc.code)
            if isinstance(exc, NOT_STRIKES):
                conn.outbox.put(encode(M.error(msg.id, exc.code, exc.message, retry_after=exc.retry_after)))
            else:
                self._refuse(conn, msg.id, exc.code, exc.message, retry_after=exc.retry_after, counted=True)

    def _admit(self, conn: Conn) -> bool:
        now = trio.current_time()
        conn.tokens = min(self.limits.burst, conn.tokens + (now - conn.last) * self.limits.rate)
        conn.last = now
        if conn.tokens < 1:
            return False
        conn.tokens -= 1
        return True

    def _charge_history(self, conn: Conn, msg: M.Resume | M.Spectate, seq: int) -> None:
        """History is paid for: a `resume` or `spectate` with `after` costs
        one more token per history frame it will bring (PROTOCOL.md 12).
        Without the tokens it is refused as rate/limited."""
        frames = history_frames(msg.after, seq)
        if frames == 0:
            return
        if conn.tokens < frames:
            raise Refusal("rate/limited",
                          f"the history after seq {msg.after} is {frames} frames, each costing one message of "
                          f"your rate budget ({self.limits.rate:g} a second, bursts of {self.limits.burst:g}); "
                          "this one was not handled: send it again later, or with a later `after`")
        conn.tokens -= frames

    def _refuse(self, conn: Conn, cid: Any, code: str, message: str, *, retry_after: float | None = None,
                counted: bool = False) -> None:
        """Answer a refused frame; close the connection after too many."""
        if not counted:
            self.metrics.error(code)
        conn.outbox.put(encode(M.error(cid, code, message, retry_after=retry_after)))
        now = trio.current_time()
        conn.strikes = [t for t in conn.strikes if now - t < self.limits.strike_window]
        conn.strikes.append(now)
        if len(conn.strikes) >= self.limits.strikes:
            conn.outbox.put(encode(M.goodbye("abuse/closed", "too many refused frames; closing this connection")))
            conn.outbox.evict("abuse/closed")

    # -- connections held by another process of the site (server.cluster) --------

    def remote_conn(self, outbox: Outbox) -> Conn:
        """A connection whose frames another process reads and forwards;
        what it is owed goes into `outbox`."""
        return Conn(outbox=outbox, tokens=self.limits.burst, last=trio.current_time())

    async def forwarded(self, conn: Conn, frame: bytes, *, who: tuple[str, str] | None = None) -> None:
        """Serve a frame forwarded by the process that holds the connection.
        It is admitted here as a direct frame is (the rate, the burst, the
        history it costs, the strikes, all on this connection's own bucket,
        which refills with time): the process in front admitted it too, but
        a table's limits do not rest on another process. `who`: the account
        and credential the connection is signed in with there, so that its
        joins and tournament entries here are that account's."""
        await self._signed_in_as(conn, who)
        await self.frame(conn, frame, forwarded=True)

    async def _signed_in_as(self, conn: Conn, who: tuple[str, str] | None) -> None:
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

    async def disconnect(self, conn: Conn) -> None:
        """A remote connection is gone: its tables (and tournaments) hear of it."""
        conn.outbox.evict("client/gone")
        if self.director is not None:
            self.director.unwatch(conn.outbox)
        for table_id in conn.tables:
            await self.lobby.disconnected(table_id, conn.outbox)

    # -- dispatch ------------------------------------------------------------------------

    async def _dispatch(self, conn: Conn, msg: M.ClientMessage, frame: bytes | str, *,
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
                await self._to_table(conn, msg)
            case (M.SignUp() | M.SignIn() | M.SignOut() | M.BotToken() | M.Tokens() | M.RevokeToken()
                  | M.Leaderboard() | M.Profile() | M.Sessions() | M.SignOutEverywhere() | M.SetEmail()):
                accounts = self.lobby.accounts
                if accounts is None:
                    raise Declined("account/unavailable", "this server keeps no accounts")
                outbox.put(encode(M.ok(msg.id, **await self._account_reply(accounts, conn, msg))))
            case M.Ping():
                outbox.put(encode(M.ok(msg.id, pong=True)))
            case M.Hello():
                if msg.client:
                    conn.client = msg.client
                outbox.put(encode(M.ok(msg.id, server=self.server_name, protocol=M.SUBPROTOCOL)))
            case M.MyTables():
                outbox.put(encode(M.ok(msg.id, tables=await self._my_tables(conn, msg))))
            case M.ListTables():
                tables, after = self.lobby.listing_page(msg.cursor, msg.limit)
                if self.cluster is not None and after is None:
                    # The site's other processes' tables, after the last page.
                    site = self.cluster.listing(decode_any(bytes(tables)))
                    outbox.put(encode(M.ok(msg.id, tables=site, next=after)))
                    return
                outbox.put(encode(M.ok(msg.id, tables=tables, next=after)))
            case M.CreateTable():
                await self._create_table(conn, msg, frame)
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

    async def _to_table(self, conn: Conn, msg: M.Join | M.Leave | M.Start | M.Resume | M.Spectate | M.Unsubscribe
                        | M.Act | M.Back | M.Chat) -> None:
        """A table's message goes to its actor, which answers it."""
        table = await self.lobby.find(msg.table)
        if table is None:
            raise Refusal("table/unknown", f"there is no table {msg.table!r}")
        if isinstance(msg, M.Spectate) and await self.lobby.is_withheld(table.id):
            raise Declined("table/withheld", WITHHELD)
        if isinstance(msg, M.Resume | M.Spectate):
            self._charge_history(conn, msg, table.seq)
        message: Any = msg
        if isinstance(msg, M.Join) and conn.account is not None:
            message = await self._signed_join(conn, msg)
        elif isinstance(msg, M.Resume) and not msg.token and conn.account is not None:
            message = await self._signed_resume(conn, msg)
        conn.tables.add(table.id)
        await table.send(conn.outbox, message)

    # -- the lobby ---------------------------------------------------------------------

    async def _my_tables(self, conn: Conn, msg: M.MyTables) -> list[dict[str, Any]]:
        """PROTOCOL.md 3, my_tables: signed in, first the tables that await
        the account (the nearest deadline first); then the table information
        of each asked table that exists (a client's own list: an id is all
        it takes to watch a table anyway); then the account's other tables.
        Each with `you`, the account's seat there (null where the account
        holds none, or none is signed in), `awaits` and `until_ms`. The
        account's tables come from the store's index of seats by account,
        so a table asleep on disk or served by another process is listed
        too (with what the index knows of it, if it is not in memory)."""
        if len(msg.tables) > MY_TABLES_ASKED or msg.limit < 1:
            raise Refusal("message/invalid", f"my_tables: at most {MY_TABLES_ASKED} tables, and a limit of 1 or more")
        account = conn.account.id if conn.account is not None else None
        limit = min(msg.limit, MY_TABLES_ASKED)
        seats: dict[str, SeatRow] = {}
        if account is not None:
            seats = {r.table_id: r for r in await self.lobby.store.account_seats(account, MY_TABLES_ASKED)}
        awaiting = [t for t, r in seats.items() if r.awaits and not r.ended]
        found: dict[str, dict[str, Any]] = {}
        for table_id in [*awaiting, *dict.fromkeys(msg.tables), *seats]:
            if table_id in found:
                continue
            table = self.lobby.tables.get(table_id) if table_id in seats else await self.lobby.find(table_id)
            if table is not None:
                found[table.id] = table.info()
            elif table_id in seats:
                found[table_id] = _indexed_info(seats[table_id])
        if account is not None:
            for table in list(self.lobby.tables.values()):
                if table.id not in found and _seat_of(table.info(), account) is not None:
                    found[table.id] = table.info()
        out = []
        for info in list(found.values())[:limit]:
            row = seats.get(info["table"])
            seat = _seat_of(info, account) if row is None else row.seat
            out.append({**info, "you": seat, "awaits": bool(row and row.awaits and not row.ended),
                        "until_ms": round(row.until * 1000) if row and row.awaits and row.until else None})
        return out


    async def _create_table(self, conn: Conn, msg: M.CreateTable, frame: bytes | str) -> None:
        refusal = await self._creation_refused(conn)
        if refusal is not None:
            raise Refusal("lobby/too_many", refusal)
        legacy = unknown_fields(frame, msg)
        table = await self.lobby.create(*self.lobby.settings_from(msg, legacy))
        conn.created.append(table)
        self._created_from.setdefault(conn.address, []).append(table)
        if self.cluster is not None and conn.address:
            await self.cluster.created(table.id, conn.address)
        conn.outbox.put(encode(M.ok(msg.id, table=table.id, info=table.info())))

    async def _creation_refused(self, conn: Conn) -> str | None:
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

    async def _record(self, conn: Conn, msg: M.GetRecord) -> None:
        if await self.lobby.is_withheld(msg.table):
            raise Declined("table/withheld", WITHHELD)
        table = self.lobby.get(msg.table)
        if table is not None and not table.settled:
            raise Declined("record/not_finished", "the full record is available once the game has ended")
        record = await self.lobby.record(msg.table)
        if record is None:
            raise Refusal("table/unknown", f"there is no ended table {msg.table!r}")
        conn.outbox.put(encode(M.ok(msg.id, record=record)))

    async def _add_bots(self, conn: Conn, msg: M.AddBots) -> None:
        table = self.lobby.get(msg.table)
        if table is None:
            raise Refusal("table/unknown", f"there is no table {msg.table!r}")
        if self.bots is None:
            raise Declined("bots/unavailable", "this server runs no bots")
        seats = await self.bots.add(table, msg.token, msg.policy, msg.count)
        conn.outbox.put(encode(M.ok(msg.id, seats=seats)))

    async def _rematch(self, conn: Conn, msg: M.Rematch) -> None:
        """Find or create the rematch; the request that creates it seats the
        server's bots again and tells the old table's viewers. Then the
        requester joins its own seat, and the table answers as to a join."""
        rematch = await self.lobby.rematch(msg.table, msg.token)
        table = rematch.table
        if rematch.created:
            if rematch.bots and self.bots is not None:
                await self.bots.seat(table, rematch.bots)
            old = await self.lobby.followed(msg.table)
            if old is not None:
                await old.send(None, OfferRematch(table=table.id, seat=rematch.seat))
        join = M.Join(id=msg.id, table=table.id, name=rematch.name, seat=rematch.seat, views=msg.views,
                      nonce=msg.nonce)
        # Refused, and the connection signed out, if its session ended.
        inner: M.Join | AccountJoin = join if conn.account is None else await self._signed_join(conn, join)
        conn.tables.add(table.id)
        # The request that made a rematch nobody committed to in advance brought
        # its nonce before the salt existed: it keeps the seat, not the seed (T7.4).
        await table.send(conn.outbox, PreCommitJoin(inner) if rematch.created and not rematch.precommitted
                         else inner)

    # -- tournaments (PROTOCOL.md 21) ------------------------------------------------------

    async def _tournament(self, conn: Conn, msg: M.TournamentMessage) -> None:
        """Every action goes to the director; its refusals (DirectorError)
        come back with their codes, and are no strikes."""
        director = self.director
        if director is None:
            raise Declined("tournament/unavailable", "this server runs no tournaments")
        outbox = conn.outbox
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

    # -- accounts (PROTOCOL.md 19) -------------------------------------------------------

    async def _still_signed_in(self, conn: Conn) -> AccountRow:
        """The connection's account, once its session is checked to be still
        valid; an ended session signs the connection out and is refused."""
        accounts = self.lobby.accounts
        assert accounts is not None and conn.account is not None and conn.credential is not None
        try:
            await accounts.still_signed_in(conn.credential)
        except AccountError:
            conn.account = conn.credential = None
            raise
        return conn.account

    async def _signed_join(self, conn: Conn, msg: M.Join) -> AccountJoin:
        """A join from a signed-in connection: with its account's card."""
        account = await self._still_signed_in(conn)
        assert self.lobby.accounts is not None
        return AccountJoin(join=msg, account=await self.lobby.accounts.card(account))

    async def _signed_resume(self, conn: Conn, msg: M.Resume) -> AccountResume:
        """A resume without a token, signed in: the account's own seat, from
        any device (PROTOCOL.md 3, resume)."""
        return AccountResume(resume=msg, account=(await self._still_signed_in(conn)).id)

    async def _email_status(self, account: AccountRow) -> dict[str, Any] | None:
        """A person's own address as sign_in tells it (docs/accounts.md, "E-mail")."""
        return await self.emails.status(account) if self.emails is not None else None

    async def _account_reply(self, accounts: Accounts, conn: Conn, msg: M.ClientMessage) -> dict[str, Any]:
        match msg:
            case M.SignUp():
                account, token = await accounts.sign_up(msg.name, msg.password, address=conn.address,
                                                        client=conn.client)
                conn.account, conn.credential = await accounts.authenticate(token)
                return {"account": await accounts.card(account), "token": token, "email": None}
            case M.SignIn():
                if msg.token is not None:
                    token = msg.token
                    conn.account, conn.credential = await accounts.sign_in_token(token, address=conn.address)
                else:
                    _, token = await accounts.sign_in(msg.name, msg.password, address=conn.address,
                                                      client=conn.client)
                    conn.account, conn.credential = await accounts.authenticate(token)
                reply: dict[str, Any] = {"account": await accounts.card(conn.account),
                                         "email": await self._email_status(conn.account)}
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
            case M.SetEmail():
                if self.emails is None:
                    raise AccountError("account/no_mail", "this server sends no e-mail")
                return {"email": await self.emails.set(conn.account, msg.address)}
        raise AssertionError(f"not an account message: {msg!r}")  # pragma: no cover
