"""The bot SDK: talk to an Oriente server over protocol oriente.v1 (trio).

A working bot is a few lines::

    async with Client.connect("ws://127.0.0.1:8765") as client:
        table = await client.create_table(seats=4, timers=BOT_TIMERS)
        seat = await client.join(table, "my-bot")
        async for turn in seat.turns():
            await turn.answer(random.choice(turn.legal))

What the SDK does for you: matches replies to requests; keeps, per table,
the last sequence number, the current prompt and (if asked) the current
view; yields a `Turn` once per (decision, pivot) when your seat should act,
and again after each of your answers the decision takes without closing
(a turn of several commands, as a game's section of PROTOCOL.md may say);
and when the connection drops it reconnects, resumes every table with its
token and last sequence number, and re-sends a command that was not yet
acknowledged, under the same id, which the server applies at most once.

Deals have helpers of their own in `oriente.clients.deals` (re-exported
here as `sdk.deals`): build, read and value them. What each game is (its
seat counts, options and windows) is `Client.game_info`, as the server
describes it.

The SDK speaks only the protocol (PROTOCOL.md); it never imports the server.
Besides the protocol it uses the games' pure code (game descriptions,
`DECISION_COMMANDS`, the valuation behind `deals.value`) and `fairplay`,
the very code the server deals with, to verify a record.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import secrets
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import msgspec
import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.trio.client import connect as ws_connect
from websockets.typing import Subprotocol

from ..fairplay.dealing import seat_nonce
from ..fairplay.verify import verify_record as _verify_record
from ..games import PORTS
from ..games.kit.describe import GameInfo as GameInfo  # re-exported: Client.game_info's values
from ..games.kit.describe import GameOption as GameOption
from ..games.oriente.rules.commands import DECISION_COMMAND_TYPES
from ..refusal import Refusal
from . import deals as deals  # re-exported: sdk.deals

log = logging.getLogger("oriente.sdk")

SUBPROTOCOL = "oriente.v1"
BOT_TIMERS = {"prompt_ms": 2000, "window_ms": 0, "bank_ms": 0, "bank_refill_ms": 0,
              "zero_wait": True, "away_after": 3}
# A turn-based table's timers (docs/table.md T8): a day per decision, eight
# hours to negotiate, a bank of three days. Its deadlines are wall-clock
# times: read a prompt's `deadline_at_ms`, not a countdown.
TURN_TIMERS = {"prompt_ms": 86_400_000, "window_ms": 28_800_000, "bank_ms": 259_200_000,
               "bank_refill_ms": 43_200_000, "zero_wait": False, "away_after": 3, "turn_based": True}
# A late or repeated answer: normal for bots, not a bug (PROTOCOL.md). A
# retry that reaches the table after its last event, or an answer racing the
# end of the game, gets game/over rather than decision/closed (PROTOCOL.md 5).
# A table that an error in the server ended (table/failed) is over for bots
# too: its TableFailed event ends their turns.
BENIGN = frozenset({"decision/closed", "decision/answered", "game/over", "table/failed"})
# Close codes after which reconnecting cannot help (PROTOCOL.md 12): too many
# refused frames (1008), a message over the hard limit (1009).
FATAL_CLOSE = frozenset({1008, 1009})
# Table events that say whether the table waits for a seat (PROTOCOL.md 9):
# True, it does not (the seat is away, or the proxy plays it).
_ATTENDANCE = {"SeatAway": True, "ProxyOn": True, "SeatBack": False, "ProxyOff": False}

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder()

# The command types that answer a decision for an asked seat (the rules' one definition).
DECISION_COMMANDS = DECISION_COMMAND_TYPES


def _decode(raw: str | bytes) -> Any:
    """A server frame: binary msgpack (PROTOCOL.md 1); a text frame is a
    server that speaks another protocol."""
    if isinstance(raw, str):
        raise Disconnected("the server sent a text frame; it does not speak oriente.v1")
    return _decoder.decode(raw)


class ServerError(Refusal):
    """The server refused a request; `code` is stable (PROTOCOL.md).
    `retry_after`: for a refusal that passes with time (a sign-in backing
    off, a budget spent), the seconds to wait before asking again; else None."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(code, message, retry_after=retry_after)


class Disconnected(Exception):
    """The connection is gone and could not be restored."""


@dataclass
class Update:
    """One frame's worth of news for a table: events (each with `seq`), the
    prompt now open for you, and your view if you asked for views."""

    kind: str  # "snapshot" | "events" | "history"
    events: list[dict[str, Any]]
    prompt: dict[str, Any] | None
    view: dict[str, Any] | None
    # False when the prompt is the one of the previous update but for its
    # countdown (PROTOCOL.md 4); a snapshot counts as changed.
    prompt_changed: bool = True


@dataclass
class _Sub:
    table: str
    viewer: int | str
    token: str | None
    views: bool
    last_seq: int = 0
    prompt: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    info: dict[str, Any] | None = None
    finished: bool = False
    result: dict[str, Any] | None = None
    failed: str | None = None
    away: bool = False  # our seat is away or proxied: the table does not wait for us (PROTOCOL.md 11)
    send: trio.MemorySendChannel | None = None
    receive: trio.MemoryReceiveChannel | None = None
    unacked: dict[str, Any] | None = None
    nonce: str | None = None  # the secret nonce our seat brought (its hash seeds the table: my_nonce)
    commitment: str | None = None  # the table's commitment as this client saw it before bringing the nonce


@dataclass
class _Waiter:
    message: dict[str, Any]
    done: trio.Event = field(default_factory=trio.Event)
    reply: dict[str, Any] | None = None
    error: BaseException | None = None
    resend: bool = False
    sent: bool = False  # written to a connection (and not known to be lost)


class Client:
    """One connection to a server, kept alive across drops."""

    def __init__(self, url: str, *, reconnect: bool = True, max_retries: int = 20, token: str | None = None,
                 alternates: Sequence[str] = ()) -> None:
        """`token`: a session or bot API token to sign in with on connecting,
        and again on every reconnect (PROTOCOL.md 19). `alternates`: other
        processes of the same site, tried in turn when the current one
        cannot be reached (a site of many processes)."""
        self.url = url
        self._urls = [url, *alternates]
        self.auth_token = token
        self.account: dict[str, Any] | None = None
        # The signed-in person's e-mail address as the server last said it
        # ({address, confirmed, notify}; PROTOCOL.md 3, set_email), or None.
        self.email: dict[str, Any] | None = None
        self.reconnect = reconnect
        self.max_retries = max_retries
        self._ws: Any = None
        self._ids = itertools.count(1)
        self._nonce = secrets.token_hex(4)
        self._waiters: dict[Any, _Waiter] = {}
        self._subs: dict[str, _Sub] = {}
        # Followed tournaments: id -> (entry token or None, channel of states)
        self._tournaments: dict[str, tuple[str | None, bool, trio.MemorySendChannel[dict[str, Any]]]] = {}
        # The commitment each table showed this client first (docs/table.md T7):
        # from create_table, list_tables, a snapshot, or an ended table's
        # announcement of its rematch. Never overwritten: a later record is
        # checked against what was shown before the seat was taken.
        self.commitments: dict[str, str | None] = {}
        self._announced: dict[str, dict[str, str]] = {}  # ended table -> its rematch's {table, commitment}
        self._peeks: dict[str, trio.Event] = {}
        self._connected = trio.Event()
        self._closing = False
        self._failed: BaseException | None = None
        self._down_at: float | None = None
        self.welcome: dict[str, Any] | None = None
        self._moved_to: str | None = None  # where the last `moved` sent us, until we got there

    @classmethod
    @asynccontextmanager
    async def connect(cls, url: str, **kw: Any) -> AsyncIterator[Client]:
        """Connect (raising Disconnected if the server cannot be reached)."""
        client = cls(url, **kw)
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(client._run)
                try:
                    if client.auth_token is not None:
                        await client.sign_in(token=client.auth_token)
                    yield client
                finally:
                    client._closing = True
                    nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # Trio wraps errors of the connection task and of the caller's
            # own block; hand a lone error (a Disconnected, or a ServerError
            # the block let through) to the caller as itself.
            leaves = _leaves(group)
            if len(leaves) == 1 or (leaves and all(isinstance(e, Disconnected) for e in leaves)):
                raise leaves[0] from None
            raise

    # -- the link -----------------------------------------------------------------

    @property
    def games(self) -> list[str]:
        """The games the server plays (`welcome.games`; a server that
        predates it plays the default game alone)."""
        games = (self.welcome or {}).get("games")
        return [g for g in games if isinstance(g, str)] if isinstance(games, list) else ["oriente"]

    @property
    def game_info(self) -> dict[str, GameInfo]:
        """What each game the server plays says of itself (`welcome.game_info`,
        PROTOCOL.md 4): its seat counts, the options to offer with their
        types and defaults, whether it has negotiation windows. Empty from
        a server that predates it; a description this SDK cannot read is
        left out, and logged."""
        told = (self.welcome or {}).get("game_info")
        out: dict[str, GameInfo] = {}
        for game, data in (told.items() if isinstance(told, dict) else ()):
            try:
                out[game] = GameInfo.from_plain(data)
            except ValueError as exc:
                log.warning("the server's description of %r is not readable: %s", game, exc)
        return out

    @property
    def connected(self) -> bool:
        """True while the connection is up; False while it is being
        restored (requests wait) and after the client gave up (`lost`)."""
        return self._ws is not None and self._failed is None

    @property
    def lost(self) -> BaseException | None:
        """Why the client gave up reconnecting (requests raise it), or None."""
        return self._failed

    @property
    def down_for(self) -> float | None:
        """Seconds since the connection dropped, while it is down; else None.
        Clients show it: a person whose message waits must see why."""
        if self._down_at is None or self.connected:
            return None
        return max(0.0, trio.current_time() - self._down_at)

    async def _run(self, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        started = False
        failures = 0
        while True:
            reached = False
            try:
                async with ws_connect(self.url, subprotocols=[Subprotocol(SUBPROTOCOL)], compression=None,
                                      open_timeout=10) as ws:
                    self.welcome = _decode(await ws.recv())
                    reached = True
                    failures = 0
                    if started:
                        await self._restore(ws)
                    # Requests go out only once the tables are resumed: a
                    # command sent before its resume would be refused
                    # (auth/not_seated) on the new connection.
                    self._ws = ws
                    self._down_at = None
                    self._connected.set()
                    if not started:
                        started = True
                        task_status.started()
                    async for raw in ws:
                        self._dispatch(_decode(raw))
                # The iteration ends quietly on a clean close (1000, or 1001
                # when the server shuts down): a drop like any other.
                reason: object = f"closed by the server (code {ws.close_code})"
                code = ws.close_code
            except (ConnectionClosed, OSError, trio.BrokenResourceError, TimeoutError, InvalidHandshake,
                    InvalidURI) as exc:
                reason = exc
                code = exc.rcvd.code if isinstance(exc, ConnectionClosed) and exc.rcvd is not None else None
                if not started:
                    self._fail(Disconnected(f"cannot connect to {self.url}: {exc}"))
                    raise Disconnected(f"cannot connect to {self.url}: {exc}") from exc
            self._down()
            if self._closing:
                return
            failures += 1
            if not self.reconnect or failures > self.max_retries or code in FATAL_CLOSE:
                self._fail(Disconnected(f"connection to {self.url} lost: {reason}"))
                return
            self._fail_unresendable()
            if not reached:
                # It could not be reached: try the site's next process (the
                # alternates we were given, then the origins the site listed
                # last), or after a `moved` that led nowhere the address we
                # were given.
                site = (self.welcome or {}).get("origins") or []
                urls = list(dict.fromkeys([*self._urls, *(o for o in site if isinstance(o, str) and origin_of(o))]))
                if len(urls) > 1 or self.url == self._moved_to:
                    index = urls.index(self.url) if self.url in urls else -1
                    self.url = urls[(index + 1) % len(urls)]
                self._moved_to = None
            log.info("connection lost (%s); reconnecting", reason)
            await trio.sleep(min(5.0, 0.1 * 2 ** failures))

    def _down(self, ws: Any = None) -> None:
        """Mark the link down (only once per connection): requests wait for
        the next one."""
        if self._ws is not None and (ws is None or ws is self._ws):
            self._ws = None
            self._down_at = trio.current_time()
            self._connected = trio.Event()

    async def _restore(self, ws: Any) -> None:
        """After a reconnect: resume every table, then re-send what was not
        acknowledged, under the same ids (the server applies it once).
        A signed-in client signs in again first, so its joins stay its account's."""
        if self.auth_token is not None:
            await ws.send(_encoder.encode({"t": "sign_in", "id": self._next_id(), "token": self.auth_token}))
        for sub in self._subs.values():
            if sub.finished:
                continue
            message: dict[str, Any] = {"table": sub.table, "after": sub.last_seq, "views": sub.views}
            if sub.token is not None:
                message.update(t="resume", token=sub.token)
            else:
                message.update(t="spectate")
            message["id"] = self._next_id()
            await ws.send(_encoder.encode(message))
        for tournament, (token, full, _) in self._tournaments.items():
            await ws.send(_encoder.encode({"t": "tournament_watch", "id": self._next_id(), "tournament": tournament,
                                           "token": token, "full": full}))
        for waiter in list(self._waiters.values()):
            if waiter.resend and waiter.sent:
                await ws.send(_encoder.encode(waiter.message))

    def _fail(self, exc: BaseException) -> None:
        self._failed = exc
        for waiter in self._waiters.values():
            waiter.error = exc
            waiter.done.set()
        self._waiters.clear()
        self._connected.set()  # wake the requests waiting for a connection: they raise
        for sub in self._subs.values():
            if sub.send is not None:
                sub.send.close()

    def _fail_unresendable(self) -> None:
        """Requests already sent whose reply was lost with the connection
        fail; those not yet sent wait for the next connection."""
        for cid, waiter in list(self._waiters.items()):
            if not waiter.resend and waiter.sent:
                waiter.error = Disconnected("the connection dropped before the reply came")
                waiter.done.set()
                del self._waiters[cid]

    def _next_id(self) -> str:
        return f"{self._nonce}-{next(self._ids)}"

    # -- frames in ------------------------------------------------------------------

    def _dispatch(self, frame: dict[str, Any]) -> None:
        t = frame.get("t")
        if t in ("ok", "error"):
            waiter = self._waiters.pop(frame.get("re"), None)
            if waiter is not None:
                waiter.reply = frame
                waiter.done.set()
            elif t == "error":
                log.debug("unmatched error %s", frame)
            return
        if t == "goodbye":
            log.warning("server says goodbye: %s", frame.get("message"))
            return
        if t == "tournament":
            followed = self._tournaments.get(frame.get("tournament"))  # type: ignore[arg-type]
            if followed is not None:
                with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
                    followed[2].send_nowait(frame["state"])
        if t == "moved":
            # PROTOCOL.md 4, moved: the server closes this connection (1012)
            # next; the reconnect resumes every table (there, if it says where).
            # Only to one of the site's own origins (welcome.origins): this
            # client's tokens go wherever it connects.
            url = frame.get("url")
            if isinstance(url, str) and url:
                origins = {origin_of(o) for o in (self.welcome or {}).get("origins") or [] if isinstance(o, str)}
                if origin_of(url) in origins - {None}:
                    log.info("table %s moved to %s", frame.get("table"), url)
                    self.url = self._moved_to = url
                else:
                    log.warning("table %s moved to %s, which is not one of this site's origins: "
                                "reconnecting where we were", frame.get("table"), url)
            return
        if t == "snapshot":
            self._note(frame.get("table"), frame.get("table_info"))
        elif t == "events":
            for e in frame.get("events") or []:
                if e.get("type") == "TableFinished" and isinstance(e.get("rematch"), dict):
                    self._announce(str(frame.get("table")), e["rematch"])
        sub = self._subs.get(frame.get("table"))  # type: ignore[arg-type]
        if sub is None:
            return
        if t == "snapshot":
            sub.last_seq = max(sub.last_seq, frame["seq"])
            sub.prompt, sub.view, sub.info = frame.get("prompt"), frame.get("view"), frame.get("table_info")
            seats = (sub.info or {}).get("seats") or []
            mine = seats[sub.viewer] if isinstance(sub.viewer, int) and 0 <= sub.viewer < len(seats) else None
            if mine:
                sub.away = bool(mine.get("away") or mine.get("proxied"))
            if sub.info and sub.info.get("status") in ("finished", "failed", "abandoned"):
                # Subscribed after the end without `after`: no TableFinished
                # (or TableFailed) event will come, so the snapshot is the last news.
                sub.finished = True
                sub.result = sub.result or sub.info.get("result")
                if sub.info["status"] in ("failed", "abandoned"):
                    sub.failed = sub.failed or f"the table {sub.info['status']}"
            self._push(sub, Update("snapshot", [], sub.prompt, sub.view))
        elif t == "events":
            fresh = [e for e in frame["events"] if e.get("seq", 0) > sub.last_seq]
            if fresh:
                sub.last_seq = fresh[-1]["seq"]
            history = bool(frame.get("history"))
            if not history:
                sub.prompt = frame.get("prompt")
                if "view" in frame:
                    sub.view = frame["view"]
            for e in fresh:
                if e["type"] in _ATTENDANCE and e.get("seat") == sub.viewer:
                    sub.away = _ATTENDANCE[e["type"]]
                if e["type"] == "TableFinished":
                    sub.finished = True
                    sub.result = e.get("result")
                elif e["type"] == "TableFailed":
                    sub.finished = True
                    sub.failed = e.get("message") or "the table failed"
                elif e["type"] == "TableAbandoned":  # docs/table.md T6.1: the game never began
                    sub.finished = True
                    sub.failed = "the table was abandoned before its game began"
            if fresh or not history:
                self._push(sub, Update("history" if history else "events", fresh, sub.prompt, sub.view,
                                       prompt_changed=bool(frame.get("prompt_changed", True)) and not history))

    def _note(self, table: Any, info: Any) -> None:
        """Keep the first commitment a table showed (a table's information)."""
        if isinstance(table, str) and isinstance(info, dict) and isinstance(info.get("settings"), dict):
            self.commitments.setdefault(table, info["settings"].get("commitment"))
            peek = self._peeks.get(table)
            if peek is not None:
                peek.set()

    def _announce(self, table: str, rematch: dict[str, Any]) -> None:
        """An ended table's rematch, committed to before anyone asks for it (T7.4)."""
        if isinstance(rematch.get("table"), str) and isinstance(rematch.get("commitment"), str):
            self._announced.setdefault(table, {"table": rematch["table"], "commitment": rematch["commitment"]})
            self.commitments.setdefault(rematch["table"], rematch["commitment"])

    async def _commitment(self, table: str) -> str | None:
        """The table's commitment as shown before this client brings a nonce
        to it: the one already seen, else the one a `spectate` shows now (the
        join or resume that follows takes this connection's subscription)."""
        if table in self.commitments:
            return self.commitments[table]
        peek = self._peeks.setdefault(table, trio.Event())
        try:
            await self.request({"t": "spectate", "table": table, "views": False}, resend=True)
            with trio.move_on_after(10):
                await peek.wait()
        except ServerError:
            return None  # no such table: the join itself says so
        finally:
            self._peeks.pop(table, None)
        return self.commitments.get(table)

    def _push(self, sub: _Sub, update: Update) -> None:
        if sub.send is None:
            return
        try:
            sub.send.send_nowait(update)
        except trio.WouldBlock:  # the consumer fell far behind: drop the oldest news
            log.warning("update queue for %s is full; dropping an update", sub.table)
        except trio.ClosedResourceError:
            pass

    # -- requests ---------------------------------------------------------------------

    async def request(self, message: dict[str, Any], *, resend: bool = False) -> dict[str, Any]:
        """Send one message and wait for its reply; raise ServerError on an
        error reply. With `resend`, a reconnect re-sends it under the same id."""
        if self._failed is not None:
            raise self._failed
        message = dict(message)
        message.setdefault("id", self._next_id())
        waiter = _Waiter(message, resend=resend)
        self._waiters[message["id"]] = waiter
        # `sent` may also be set by _restore, which re-sends an unacknowledged
        # command on the new connection before this task wakes up.
        while not waiter.sent and not waiter.done.is_set():
            if self._failed is not None:
                self._waiters.pop(message["id"], None)
                raise self._failed
            ws = self._ws
            if ws is None:
                await self._connected.wait()
                continue
            waiter.sent = True
            try:
                await ws.send(_encoder.encode(message))
            except ConnectionClosed:
                # Not delivered: send it on the next connection.
                waiter.sent = False
                self._down(ws)
        await waiter.done.wait()
        if waiter.error is not None:
            raise waiter.error
        reply = waiter.reply
        assert reply is not None
        if reply["t"] == "error":
            retry_after = reply.get("retry_after")
            if reply["code"] == "auth/session_ended":  # signed out by the server: do not sign in with it again
                self.auth_token = self.account = None
            raise ServerError(reply["code"], reply["message"],
                              float(retry_after) if isinstance(retry_after, int | float) else None)
        return reply

    async def ping(self) -> None:
        await self.request({"t": "ping"})

    async def list_tables(self, *, page: int = 200, most: int | None = None) -> list[dict[str, Any]]:
        """Every public table's information (or the first `most`), read page
        by page (PROTOCOL.md 3, list_tables): one reply stays small however
        many tables the server holds. A server that does not page answers
        with everything at once and no `next`."""
        tables: list[dict[str, Any]] = []
        cursor: str | None = None
        while most is None or len(tables) < most:
            reply = await self.request({"t": "list_tables", "cursor": cursor, "limit": page})
            tables += reply["tables"]
            for info in reply["tables"]:
                self._note(info.get("table") if isinstance(info, dict) else None, info)
            cursor = reply.get("next")
            if cursor is None:
                break
        return tables if most is None else tables[:most]

    async def my_tables(self, tables: list[str] | None = None, *, limit: int = 20) -> list[dict[str, Any]]:
        """One's own tables (PROTOCOL.md 3, my_tables): the information of
        each of `tables` (ids kept from earlier games) that exists and,
        signed in, of every table where the account holds a seat; each with
        `you`, the account's seat there (None: none)."""
        reply = await self.request({"t": "my_tables", "tables": list(tables or []), "limit": limit})
        for info in reply["tables"]:
            self._note(info.get("table") if isinstance(info, dict) else None, info)
        return list(reply["tables"])

    async def create_table(self, seats: int, **settings: Any) -> str:
        """Settings as in PROTOCOL.md 3: name, public, seed, timers,
        auto_start, proxy_after, game (the server's default when left out:
        oriente) and that game's options (for oriente: deal,
        max_open_proposals), e.g. ``options={"max_open_proposals": 2}``."""
        reply = await self.request({"t": "create_table", "seats": seats, **settings})
        self._note(reply["table"], reply.get("info"))
        return str(reply["table"])

    # -- accounts (PROTOCOL.md 19) ----------------------------------------------------

    async def sign_up(self, name: str, password: str) -> dict[str, Any]:
        """Make a person's account and sign in; keeps the session token
        (`auth_token`) for reconnects. Returns the account's card."""
        reply = await self.request({"t": "sign_up", "name": name, "password": password})
        self.auth_token, self.account = reply["token"], reply["account"]
        self.email = reply.get("email")
        return reply["account"]

    async def sign_in(self, name: str = "", password: str = "", *, token: str | None = None) -> dict[str, Any]:
        """Sign in with a name and password, or with a session or bot API
        `token`. Returns the account's card (`bot: true` for a bot). A
        password sign-in held back raises ServerError with `retry_after`
        (auth/backing_off, auth/address_limited, auth/busy); an expired
        session token, auth/session_expired."""
        message: dict[str, Any] = {"t": "sign_in", "name": name, "password": password}
        if token is not None:
            message["token"] = token
        reply = await self.request(message)
        self.auth_token, self.account = reply.get("token", token), reply["account"]
        self.email = reply.get("email")
        return reply["account"]

    async def sign_out(self) -> None:
        await self.request({"t": "sign_out"})
        self.auth_token = self.account = None

    async def bot_token(self, bot: str, label: str = "") -> dict[str, Any]:
        """A new API token for this person's bot: ``{account, token, token_id}``."""
        reply = await self.request({"t": "bot_token", "bot": bot, "label": label})
        return {k: reply[k] for k in ("account", "token", "token_id")}

    async def revoke_token(self, token_id: str) -> None:
        """Revoke one of this person's bots' API tokens, or end one of its
        own sessions, by its id (`tokens`, `sessions`)."""
        await self.request({"t": "revoke_token", "token_id": token_id})

    async def tokens(self) -> list[dict[str, Any]]:
        """This person's bots' API tokens: ``[{id, bot, label, created_at,
        last_used_at, revoked}]`` (never the tokens themselves)."""
        return (await self.request({"t": "tokens"}))["tokens"]

    async def sessions(self) -> list[dict[str, Any]]:
        """This person's live sessions, the latest used first: ``[{id,
        created_at, address, client, last_used_at, last_address, expires_at,
        current}]``; `current` marks this connection's."""
        return (await self.request({"t": "sessions"}))["sessions"]

    async def set_email(self, address: str) -> dict[str, Any] | None:
        """Give this person's e-mail address ("" removes it; PROTOCOL.md 3,
        set_email): the server mails a confirmation link, then mails the
        person when a turn-based table awaits them. The address as the
        server keeps it, {address, confirmed, notify}, or None."""
        email: dict[str, Any] | None = (await self.request({"t": "set_email", "address": address}))["email"]
        self.email = email
        return email

    async def sign_out_everywhere(self, *, keep_current: bool = False) -> int:
        """End every session of this person (this one too, unless
        `keep_current`: then this client stays signed in); how many ended.
        Bots' API tokens are left alone."""
        ended = int((await self.request({"t": "sign_out_everywhere", "keep_current": keep_current}))["ended"])
        if not keep_current:
            self.auth_token = self.account = None
        return ended

    async def leaderboard(self, game: str = "oriente", limit: int = 50) -> list[dict[str, Any]]:
        return (await self.request({"t": "leaderboard", "game": game, "limit": limit}))["leaderboard"]

    async def profile(self, name: str) -> dict[str, Any]:
        return (await self.request({"t": "profile", "name": name}))["profile"]

    async def record(self, table: str) -> dict[str, Any]:
        return (await self.request({"t": "record", "table": table}))["record"]

    def _subscribe(self, table: str, viewer: int | str, token: str | None, views: bool) -> _Sub:
        send, receive = trio.open_memory_channel[Update](10_000)
        sub = _Sub(table=table, viewer=viewer, token=token, views=views, send=send, receive=receive)
        self._subs[table] = sub
        return sub

    async def join(self, table: str, name: str, seat: int | None = None, *, views: bool = True) -> Seat:
        """Take a seat. The join carries a fresh secret nonce, so if the
        connection drops before the reply, the SDK sends it again on the next
        connection and gets the same seat and token back (PROTOCOL.md 3). Its
        hash is also the seat's contribution to the table's seed
        (`Seat.seed_nonce`; docs/table.md T7): the commitment the table
        showed before it (`Seat.commitment`) is what `Seat.verify` checks
        the record against."""
        peeked = table not in self.commitments
        commitment = await self._commitment(table)
        sub = self._subscribe(table, -1, None, views)
        sub.nonce = secrets.token_urlsafe(24)
        sub.commitment = commitment
        try:
            reply = await self.request({"t": "join", "table": table, "name": name, "seat": seat, "views": views,
                                        "nonce": sub.nonce}, resend=True)
        except ServerError:
            self._subs.pop(table, None)
            if peeked:  # the look at the table subscribed this connection: stop its frames
                with contextlib.suppress(ServerError, Disconnected):
                    await self.request({"t": "unsubscribe", "table": table})
            raise
        except BaseException:
            self._subs.pop(table, None)
            raise
        sub.viewer, sub.token = reply["seat"], reply["token"]
        return Seat(self, sub)

    async def resume(self, table: str, token: str = "", *, after: int | None = None, views: bool = True,
                     nonce: str | None = None) -> Seat:
        """Take a seat again with its token (signed in, "" takes the seat the
        account holds, from any machine: PROTOCOL.md resume). `nonce`: the seat's secret share
        of the seed, for a seat that has none yet at a table that has not
        started (a tournament's reserved seat; PROTOCOL.md resume)."""
        commitment = await self._commitment(table) if nonce is not None else None
        sub = self._subscribe(table, -1, token, views)
        sub.last_seq = after or 0
        sub.nonce, sub.commitment = nonce, commitment
        message: dict[str, Any] = {"t": "resume", "table": table, "token": token, "after": after, "views": views}
        if nonce is not None:
            message["nonce"] = nonce
        try:
            reply = await self.request(message)
        except BaseException:
            self._subs.pop(table, None)
            raise
        sub.viewer = reply["you"]
        return Seat(self, sub)

    async def resume_seat(self, table: str, *, after: int | None = None, views: bool = True) -> Seat:
        """Take again the seat the signed-in account holds at `table`, on
        this machine, without its token (a `resume` whose token is "":
        PROTOCOL.md 3, resume): a seat taken on another device, or listed by
        `my_tables`. The client stays signed in across reconnects, so a
        dropped connection resumes it the same way. `ServerError`
        `auth/bad_token` when this client is signed out or the account holds
        no seat there. The seat's token stays unknown here: `leave`,
        `start`, `add_bots` and `rematch`, which take it, are for the device
        that holds it."""
        return await self.resume(table, "", after=after, views=views)

    async def leave(self, table: str, token: str) -> None:
        """Give up a seat before the game starts."""
        await self.request({"t": "leave", "table": table, "token": token})

    async def add_bots(self, table: str, token: str, policy: str | None = None, count: int | None = None) -> list[int]:
        """Fill free seats of a table that has not started with the server's
        own bots (PROTOCOL.md, add_bots); `token` holds a seat there. None
        for `count`: every free seat. Returns the seats they took."""
        reply = await self.request({"t": "add_bots", "table": table, "token": token, "policy": policy,
                                    "count": count})
        return list(reply.get("seats") or [])

    async def start(self, table: str, token: str) -> None:
        """Start a full table that does not start by itself (auto_start off)."""
        await self.request({"t": "start", "table": table, "token": token})

    async def unsubscribe(self, table: str) -> None:
        """Stop following a table (and stop resuming it after reconnects)."""
        sub = self._subs.pop(table, None)
        if sub is not None and sub.send is not None:
            sub.send.close()
        await self.request({"t": "unsubscribe", "table": table})

    # -- tournaments (PROTOCOL.md 21) ------------------------------------------------

    async def create_tournament(self, **settings: Any) -> tuple[str, str]:
        """Create a tournament (docs/tournaments.md TR1.1); returns its id and
        the organiser token, which every `direct` needs."""
        reply = await self.request({"t": "tournament_create", "settings": settings})
        return reply["tournament"], reply["organiser_token"]

    async def register(self, tournament: str, name: str, *, kind: str = "bot", policy: str | None = None,
                       organiser_token: str | None = None) -> tuple[str, str]:
        """Enter a tournament (or an arena); returns the entrant's id and its
        entry token. With `policy` and the organiser token: one of the
        server's own bots."""
        reply = await self.request({"t": "tournament_register", "tournament": tournament, "name": name,
                                    "kind": kind, "policy": policy, "organiser_token": organiser_token})
        return reply["entrant"], reply["token"]

    async def direct(self, tournament: str, organiser_token: str, action: str, **args: Any) -> dict[str, Any]:
        """One of the organiser's actions: start_round, pause, resume, reseat,
        adjudicate, disqualify, withdraw, finish, collusion."""
        return await self.request({"t": "tournament_direct", "tournament": tournament, "token": organiser_token,
                                   "action": action, **args})

    async def withdraw(self, tournament: str, token: str) -> None:
        await self.request({"t": "tournament_withdraw", "tournament": tournament, "token": token})

    async def tournament_states(self, tournament: str, token: str | None = None, *,
                                full: bool = True) -> AsyncIterator[dict[str, Any]]:
        """Follow a tournament (as the entrant holding `token`): yields its
        state now and after every change, across reconnects, until it has
        finished and the entrant has no table left. `full` false: only the
        brief state an entrant plays by (its table, the end)."""
        send, receive = trio.open_memory_channel[dict[str, Any]](1_000)
        self._tournaments[tournament] = (token, full, send)
        try:
            await self.request({"t": "tournament_watch", "tournament": tournament, "token": token, "full": full})
            async with receive:
                async for state in receive:
                    yield state
                    if state.get("finished") and not (state.get("you") or {}).get("table"):
                        return
        finally:
            self._tournaments.pop(tournament, None)

    async def tournament_seats(self, tournament: str, token: str) -> AsyncIterator[Seat]:
        """Enter the tables the tournament seats this entrant at, one after
        the other: yields each `Seat`, resumed with the seat token the server
        handed out; play it to its end, then take the next. In an arena the
        entrant waits to be seated for as long as this runs."""
        played: set[str] = set()
        async for state in self.tournament_states(tournament, token, full=False):
            you = state.get("you") or {}
            table = you.get("table")
            if table and table not in played:
                played.add(table)
                # The seat was reserved before we came: we bring our own
                # share of its seed (docs/table.md T7.1).
                yield await self.resume(table, you["token"], nonce=secrets.token_urlsafe(24))

    async def rematch(self, table: str, token: str, *, views: bool = True) -> Seat:
        """Take this seat again at ended table `table`'s rematch (PROTOCOL.md
        rematch): the first request makes it, the others join it. The
        request brings a fresh nonce, the seat's share of the new table's
        seed; the rematch's commitment is the one the ended table announced
        as it ended (T7.4), which `Seat.verify` checks."""
        announced = self._announced.get(table)
        nonce = secrets.token_urlsafe(24)
        sub = self._subscribe(announced["table"], -1, None, views) if announced else None
        try:
            reply = await self.request({"t": "rematch", "table": table, "token": token, "views": views,
                                        "nonce": nonce}, resend=True)
        except BaseException:
            if sub is not None:
                self._subs.pop(sub.table, None)
            raise
        if sub is None or announced is None or reply["table"] != sub.table:
            if sub is not None:
                self._subs.pop(sub.table, None)
            # Nothing was announced for this table: the snapshot may have come
            # before the subscription existed, so take the seat again for a
            # fresh one. Our nonce reached the server before it was bound to
            # this table's salt (or the table was made by another's request
            # we saw no announcement of): it is not claimed as our share.
            return await self.resume(reply["table"], reply["token"], views=views)
        sub.viewer, sub.token, sub.nonce, sub.commitment = reply["seat"], reply["token"], nonce, announced["commitment"]
        return Seat(self, sub)

    async def spectate(self, table: str, *, after: int | None = None, views: bool = True) -> Watch:
        sub = self._subscribe(table, "spectator", None, views)
        try:
            await self.request({"t": "spectate", "table": table, "after": after, "views": views})
        except BaseException:
            self._subs.pop(table, None)
            raise
        return Watch(self, sub)


def verify_record(record: dict[str, Any], *, commitment: str | None = None, seat: int | None = None,
                  nonce: str | None = None) -> dict[str, Any]:
    """Verify a finished game's record (docs/table.md T7): the commitment the
    table published before anyone joined, the seed from its revealed salt and
    the seats' nonces, every event and the result replayed through the
    game's rules. `commitment`: the one you saw before you took your seat
    (`Seat.commitment`): without it only the record's own copy is compared,
    which a rewritten record carries too; `seat` and `nonce`: your seat and
    the secret nonce it brought (check that your share is in the seed).
    ``{"ok": True | False | None, "problems": [...], "checked": [...],
    "unproven": [...]}``: None when the record cannot be verified (an old
    record, or a seed a player chose); `unproven` says what no check here
    proves (for instance that the deal was the server's to choose, when no
    seat brought a nonce of its own). The check runs here, on the player's
    machine, with the same ports the server plays through."""
    return _verify_record(record, PORTS, commitment=commitment, seat=seat, nonce=nonce).plain()


def my_nonce(table: str, join_nonce: str) -> str:
    """This seat's contribution to the table's seed, as the record lists it
    (`record.commitment.nonces`), from the secret nonce its join carried."""
    return seat_nonce(table, join_nonce)


_DEFAULT_PORTS = {"ws": 80, "wss": 443}


def origin_of(url: str) -> str | None:
    """A websocket URL's origin, scheme://host[:port] (the port left out
    when it is the scheme's default); None for anything else. The same
    host on another port is another origin (PROTOCOL.md 4, moved)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + (f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else "")


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    out: list[BaseException] = []
    for exc in group.exceptions:
        out.extend(_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])
    return out


class Watch:
    """A subscription to one table: a stream of updates."""

    def __init__(self, client: Client, sub: _Sub) -> None:
        self.client = client
        self._sub = sub

    @property
    def table(self) -> str:
        return self._sub.table

    @property
    def view(self) -> dict[str, Any] | None:
        return self._sub.view

    @property
    def prompt(self) -> dict[str, Any] | None:
        return self._sub.prompt

    @property
    def game(self) -> str:
        """The table's game (from its information; oriente before the first snapshot)."""
        return str((self._sub.info or {}).get("game", "oriente"))

    @property
    def info(self) -> dict[str, Any] | None:
        return self._sub.info

    @property
    def deal(self) -> dict[str, Any] | None:
        """What this seat may propose now (the prompt's `deal`: `propose`,
        `open`, `max_open`, and `season_left` at tables of rules revision 3,
        R8.7); None for a spectator or when no game runs."""
        prompt = self._sub.prompt
        return prompt.get("deal") if prompt else None

    @property
    def last_seq(self) -> int:
        return self._sub.last_seq

    @property
    def finished(self) -> bool:
        return self._sub.finished

    @property
    def result(self) -> dict[str, Any] | None:
        return self._sub.result

    @property
    def failed(self) -> str | None:
        """Why the table ended without a result (a server error ended it:
        `TableFailed`), or None. Its updates then end like a finished table's."""
        return self._sub.failed

    async def updates(self) -> AsyncIterator[Update]:
        """Every update until the table finishes or fails (or the connection is lost)."""
        assert self._sub.receive is not None
        async for update in self._sub.receive:
            yield update
            # Past history may already hold the end; stop after live news
            # (or the snapshot that follows the history) once it is over.
            if update.kind != "history" and self._sub.finished:
                return


@dataclass
class Turn:
    """Your seat should act on `prompt`: pick from `legal` and `answer()`.
    `early` is True when you are answering ahead of your turn (sealed)."""

    seat: Seat
    prompt: dict[str, Any]
    view: dict[str, Any] | None
    early: bool

    @property
    def legal(self) -> list[dict[str, Any]]:
        """The decision commands you may send now (deal commands left out)."""
        # An answer names the decision; every other entry is a deal command (PROTOCOL.md 6).
        return [c for c in self.prompt.get("legal", []) if c.get("decision") == self.prompt["id"]]

    @property
    def choose(self) -> dict[str, Any] | None:
        """A choice too large to list in `legal` (5 tiles of 20, say: PROTOCOL.md
        20): `{command, count, tiles}`; None for other prompts."""
        return self.prompt.get("choose")

    @property
    def topic(self) -> str:
        return self.prompt["topic"]

    async def answer(self, command: dict[str, Any]) -> dict[str, Any] | None:
        """Send the command; None if the decision had closed meanwhile. Once
        it is applied, `turns()` yields this decision again if it still waits
        on the seat (with the prompt of after the command)."""
        reply = await self.seat.act(command)
        if reply is not None:
            self.seat._applied[(self.prompt["id"], self.prompt.get("pivot"))] = int(reply.get("seq", 0))
        return reply


class Seat(Watch):
    """Your seat at a table."""

    def __init__(self, client: Client, sub: _Sub) -> None:
        super().__init__(client, sub)
        # (decision, pivot) -> the table's seq after this seat's last applied answer to it
        self._applied: dict[tuple[Any, Any], int] = {}

    @property
    def seat(self) -> int:
        return int(self._sub.viewer)

    @property
    def seed_nonce(self) -> str | None:
        """This seat's contribution to the table's seed, as the record's
        `commitment.nonces[seat]` must show it (None after a resume: the join
        nonce is not kept across processes)."""
        return my_nonce(self.table, self._sub.nonce) if self._sub.nonce is not None else None

    @property
    def token(self) -> str | None:
        """Keep it to resume the seat from another process or connection."""
        return self._sub.token

    @property
    def commitment(self) -> str | None:
        """The table's commitment as this client saw it before the seat
        brought its nonce (None: none seen, or a seeded table)."""
        return self._sub.commitment

    async def verify(self) -> dict[str, Any]:
        """Fetch the finished table's record and verify it (`verify_record`)
        against what this client saw live: the commitment shown before the
        seat was taken, and this seat's own nonce."""
        record = await self.client.record(self.table)
        return verify_record(record, commitment=self._sub.commitment, seat=self.seat, nonce=self._sub.nonce)

    async def act(self, command: dict[str, Any]) -> dict[str, Any] | None:
        """Send a game command. Returns the ok reply, or None for a late
        answer (one of BENIGN: the decision had already closed, or the game
        had ended; normal for bots)."""
        try:
            return await self.client.request({"t": "act", "table": self.table, "cmd": command}, resend=True)
        except ServerError as exc:
            if exc.code in BENIGN:
                return None
            raise

    async def chat(self, text: str) -> None:
        await self.client.request({"t": "chat", "table": self.table, "text": text})

    @property
    def away(self) -> bool:
        """The table does not wait for this seat now: it is away (its
        deadlines are zero) or the server's proxy plays it."""
        return self._sub.away

    async def back(self) -> None:
        """Tell the table this seat is attended again (PROTOCOL.md 3, `back`):
        an away seat gets its deadlines back, a proxied one its owner.
        `turns()` does it for you when it sees the seat away."""
        await self.client.request({"t": "back", "table": self.table})
        self._sub.away = False

    async def propose_deal(self, transfers: Sequence[dict[str, Any]] = (), promises: Sequence[dict[str, Any]] = (),
                           note: str = "", *, counter_to: int | None = None,
                           why: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Propose a deal (R8); `self.deal` says whether you may now.
        `counter_to` names the deal this one answers, `why` says what it is
        for (a reason, `deals.reason`; R8.8)."""
        command: dict[str, Any] = {"type": "ProposeDeal", "transfers": list(transfers), "promises": list(promises),
                                   "note": note}
        if counter_to is not None:
            command["counter_to"] = counter_to
        if why is not None:
            command["why"] = why
        return await self.act(command)

    async def accept_deal(self, deal: int) -> dict[str, Any] | None:
        return await self.act({"type": "AcceptDeal", "deal": deal})

    async def propose(self, deal: dict[str, Any]) -> dict[str, Any] | None:
        """Send a ProposeDeal command built with `deals.proposal`."""
        return await self.act(deal)

    async def decline_deal(self, deal: int, why: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Decline a deal; `why` is the reason, a code with its parameters
        (`deals.reason("worth_less")`, R8.8), which every client words in its
        reader's language."""
        return await self.act({"type": "DeclineDeal", "deal": deal, **({"why": why} if why is not None else {})})

    async def withdraw_deal(self, deal: int) -> dict[str, Any] | None:
        return await self.act({"type": "WithdrawDeal", "deal": deal})

    async def turns(self, *, early: bool = False) -> AsyncIterator[Turn]:
        """Yield once per (decision, pivot) that waits on this seat; with
        `early`, also when the seat may hand in a sealed answer ahead of its
        turn. A decision that an applied answer left open for this seat (a
        turn of several plays) is yielded again, with the first prompt
        built after that answer. Ends when the table finishes."""
        answered: set[tuple[Any, Any]] = set()
        async for update in self.updates():
            if self.away and not self.finished:
                # Someone is consuming the turns, so the seat is attended:
                # say so, or every prompt of an away seat times out at once.
                await self.back()
            # An unchanged prompt was considered with the last update, unless
            # an applied answer left its decision open: a play of a turn of
            # several may leave the prompt as it was, and the turn goes on.
            pending = update.prompt is not None and (update.prompt["id"], update.prompt.get("pivot")) in self._applied
            if not update.prompt_changed and not pending:
                continue
            prompt = update.prompt
            # A choice too large to list (a few tiles of many) is described by `choose`.
            if not prompt or not (prompt.get("legal") or prompt.get("choose")):
                continue
            mine = prompt.get("pivot") == self.seat
            ahead = early and self.seat in (prompt.get("early") or []) and "sealed" not in prompt
            key = (prompt["id"], prompt.get("pivot"))
            if not (mine or ahead):
                continue
            if key in answered:
                after = self._applied.get(key)
                if after is None or not update.events or update.events[-1]["seq"] < after:
                    continue  # not answered since, or a frame from before the answer
                del self._applied[key]
            answered.add(key)
            yield Turn(self, prompt, update.view, early=not mine)


