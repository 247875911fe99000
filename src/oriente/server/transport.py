"""The transport moves frames: websockets.trio connections, each with a
bounded outbox, a reader, and their closing. Frames go to the kernel from
the task that sends them; a connection has a writer task only while the
kernel's buffer refuses bytes, and it ends once everything is sent. It checks a
websocket's handshake (the subprotocol, the page's origin), answers
plain HTTP through the routes (server/routes.py), and hands every frame
read to the session (server/session.py), which admits it and answers it.

Only this layer and the routes import websockets. Bad input is answered,
never fatal: every malformed or refused frame gets an error with a stable
code and the connection stays open; only a client that keeps abusing it
is closed, and only that client. A client that stops reading is evicted
(the watchdog), and resumes from its last seq.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import struct
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Sequence
from typing import Any, TypeGuard

import trio
from websockets.datastructures import Headers
from websockets.exceptions import ConcurrencyError, ConnectionClosed, TooManyFragments
from websockets.frames import DATA_OPCODES, CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import Event, State
from websockets.trio.connection import Connection
from websockets.trio.messages import MAX_FRAGMENTS
from websockets.trio.server import ServerConnection
from websockets.typing import Data

from ..protocol import messages as M
from ..protocol.codec import encode
from .addresses import ClientAddresses
from .limits import Limits
from .lograte import RareWarning
from .metrics import Metrics
from .origins import OriginPolicy
from .outbox import Outbox
from .routes import Routes
from .session import ClusterSeam, Conn, Session

__all__ = ["BatchConnection", "Limits", "Transport"]

log = logging.getLogger("oriente.transport")

CLOSE_TOO_SLOW = 4008  # application close codes live in 4000-4999
CLOSE_ABUSE = 1008  # policy violation
CLOSE_MOVED = 1012  # service restart: reconnect (where `moved` says) and resume
# The most bytes of queued frames the writer joins into one write to the socket.
BATCH_BYTES = 64 * 1024
_SHORT, _MEDIUM, _LONG = struct.Struct("!BB"), struct.Struct("!BBH"), struct.Struct("!BBQ")
# How often the one keepalive task looks for connections due a ping: a
# ping goes out at most this late.
KEEPALIVE_TICK = 1.0
# What a connection's handshake messages hold once read (`forget_handshake`): shared, never written.
_NO_HEADERS = Headers()


def binary_header(length: int) -> bytes:
    """The header of a final, unmasked binary frame of `length` bytes with
    no extension: byte for byte what websockets writes before a server's
    binary message when no extension is negotiated (the server offers
    none: compression=None)."""
    if length < 126:
        return _SHORT.pack(0x82, length)
    if length < 65536:
        return _MEDIUM.pack(0x82, 126, length)
    return _LONG.pack(0x82, 127, length)


def _peer(connection: ServerConnection) -> str:
    """The TCP peer's address; empty for a client already gone (its
    socket closed while the request waited)."""
    try:
        remote = connection.remote_address
    except OSError:
        return ""
    return str(remote[0]) if remote else ""


def _label(connection: ServerConnection) -> str:
    """The peer's address and port, for the logs; a client already gone (it
    connected and left at once) has none, which is no error of the server."""
    try:
        return str(connection.remote_address)
    except OSError:
        return "(a client already gone)"


class BatchConnection(ServerConnection):
    """websockets' server connection, writing several messages at once.

    The table server's frames go out one per step to each viewer, and a
    connection often has two or more queued at once (its events and the
    answer to its own command, or several tables' steps). websockets writes
    each message with its own lock, its own scheduler checkpoints and its own
    `send` system call, which was a quarter of the server's time; `send_many`
    frames the messages through the same sans-I/O protocol object and
    `send_data` hands everything pending to the socket in one write. What
    goes on the wire is byte for byte what `send` would have written, message
    after message."""

    # The connection's own attributes are slots, initialised in `__init__`:
    # the library's instance dict holds some 25 keys, and CPython shares the
    # keys of an instance dict among instances only up to 30 of them; past
    # that each connection's dict became a whole dict of its own, 1,584
    # bytes instead of 296.
    __slots__ = ("_failure", "_fragments", "_handler_given", "_inbox", "_left", "_on_message",
                 "_on_message_of", "_stopped", "_woken", "handler_exc", "next_ping", "reads_directly")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Messages `send_now` left to the writer unframed (a fragmented send of
        # the library's own was in progress, or the connection was not open).
        self._left: list[bytes] | None = None
        # When the transport's keepalive (`Transport.keepalive`) pings this
        # connection next; infinity while a ping is in flight or none is due.
        self.next_ping = math.inf
        # Set by `read_directly` (all of this is None or False otherwise, and
        # while no message waits: an idle connection holds none of it): whole
        # messages read and not yet handled, in order; the fragments of a
        # message still coming; the transport's handler of a message and its
        # first argument, once given (`handle_messages`), and what a message
        # that came sooner waits on; a failure of the connection due (too many
        # fragments, a text frame not UTF-8).
        self.reads_directly = False
        self._inbox: list[Data] | None = None
        self._fragments: list[Frame] | None = None
        self._on_message: Callable[[Any, Data], Awaitable[bool]] | None = None
        self._on_message_of: Any = None
        self._handler_given: trio.Event | None = None
        self._failure: tuple[Exception, CloseCode, str] | None = None
        self._stopped = False
        # What the handler raised, for the handler's task to raise again.
        self.handler_exc: Exception | None = None
        # The handler's task while it waits in `handle_messages` for reading
        # to stop or the stream to close (`_wake`). A bare task, not an
        # Event: an Event is an object, a parking lot and its ordered dict,
        # and its waiting two coroutines more, on every idle connection.
        self._woken: trio.lowlevel.Task | None = None

    def send_now(self, messages: list[bytes]) -> bool:
        """Send `messages` now, from the caller's task, without waiting: the
        outbox's fast path while its writer is idle (`Outbox.flush`), which
        spares a task switch and the writer's coroutines per frame. True if
        the kernel took every byte; False if the writer must finish: what
        the kernel did not take stays first in the protocol's pending writes
        (for `send_data`), or, if the messages could not be framed now, in
        `_left` (for `send_many`). Bytes go out in the order `send_many`
        would write them."""
        protocol = self.protocol
        if (self.send_in_progress is not None or self._left or protocol.state is not State.OPEN
                or protocol.extensions):
            self._left = [*(self._left or ()), *messages]
            return False
        sock = getattr(self.stream, "socket", None)
        # A send under way (its task, or the writer, writes these after it), or
        # a stream the library half-closed: the messages wait in the protocol.
        if self.send_lock.locked() or sock is None or sock.did_shutdown_SHUT_WR:
            for message in messages:
                protocol.send_binary(message)
            return False
        chunks = protocol.data_to_send()  # what the library has pending (a pong) goes first
        if not all(chunks):  # the end of the stream (never while open): the writer's `send_data` says it
            protocol.writes[:0] = chunks
            for message in messages:
                protocol.send_binary(message)
            return False
        # Each message framed here as `protocol.send_binary` frames it, without
        # its frame object and its serializer (`binary_header`).
        for message in messages:
            chunks.append(binary_header(len(message)))
            chunks.append(message)
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        try:
            sent = os.write(sock.fileno(), data)
        except OSError:  # the buffer is full, or the connection is gone: `send_all` finds out which
            sent = 0
        if sent == len(data):
            return True
        protocol.writes[:0] = [data[sent:]]  # first in line for the writer's `send_data`
        return False

    def start_keepalive(self) -> None:
        """Start no task of the connection's own: the library's keepalive
        is a task on every connection, asleep between pings (some KiB each);
        the transport's one `keepalive` task starts `ping_once` on a
        connection when its ping is due, a task only while a ping is out."""
        if self.ping_interval is not None:
            self.next_ping = trio.current_time() + self.ping_interval

    async def ping_once(self) -> None:
        """One round of the library's keepalive: a ping, and the connection
        failed (1011, "keepalive ping timeout") if its pong does not come
        within `ping_timeout`; the next ping is due `ping_interval` after
        the pong, less the latency, as the library's loop waits."""
        assert self.ping_interval is not None
        self.next_ping = math.inf
        try:
            try:
                pong_received = await self.ping(ack_on_close=True)
            except ConnectionClosed:
                return
            if self.ping_timeout is not None:
                with trio.move_on_after(self.ping_timeout) as cancel_scope:
                    await pong_received.wait()
                if cancel_scope.cancelled_caught:
                    async with self.send_context():
                        self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                    return
            if self.protocol.state is State.OPEN:
                self.next_ping = trio.current_time() + max(0.0, self.ping_interval - self.latency)
        except Exception:
            self.logger.error("keepalive ping failed", exc_info=True)

    def forget_handshake(self) -> None:
        """Drop the handshake's request and response once read: their
        headers cost some KiB a connection, kept for its life. The library's
        parser holds the request object to the end: its headers go too."""
        for message in (self.request, self.response):
            if message is not None:
                message.headers = _NO_HEADERS
        self.request = self.response = None

    def process_event(self, event: Event) -> None:
        """The library's server connection takes any event that comes while
        `request` is None for the handshake's request; the transport drops
        the request once read (`Transport.handler`), so once it came every
        event is a frame, for the library's connection, or, read directly
        (`read_directly`), a data frame for the transport's handler."""
        if not self.request_rcvd.is_set():
            super().process_event(event)
        elif self.reads_directly and isinstance(event, Frame) and event.opcode in DATA_OPCODES:
            self._take(event)
        else:
            Connection.process_event(self, event)

    # -- reading in the library's task -------------------------------------------------

    def read_directly(self) -> None:
        """From the accepted handshake on, handle each whole message in the
        library's reading task (`recv_events`) instead of queueing it for
        another task's `recv`: a command read costs one task switch, one
        pass of trio's run loop and the library's queue less. Messages that
        come before the transport gives its handler (`handle_messages`)
        wait for it, in order. `recv` gets nothing from then on.

        The library's loop waits on `recv_flow_control` before each read
        (its way to pause reading while its queue is full, which it never
        is here): while messages wait, that is `_HandleRead`, which handles
        them in order before the next read. A message taking long to handle
        holds back reading from this client, as a full queue did.

        The library's assembler, which nothing reads then, is dropped for a
        stand-in shared by every such connection: 2.2 KiB a connection."""
        self.reads_directly = True
        self.recv_messages = _NO_MESSAGES  # type: ignore[assignment]

    def _take(self, frame: Frame) -> None:
        """A data frame read: a whole message joins the inbox (the
        library's assembler's checks: the number of fragments, and UTF-8 for
        text); a message after the handler stopped is dropped unread."""
        if self._stopped or self._failure is not None:
            return
        if frame.opcode is not Opcode.CONT:
            if frame.fin:  # nearly always: a message in one frame
                self._queue(frame.opcode, bytes(frame.data))
            else:
                self._fragments = [frame]
            return
        fragments = self._fragments
        if fragments is None:  # the protocol lets a CONT come only within a message
            return
        if len(fragments) >= MAX_FRAGMENTS:
            self._fragments = None
            self._fail_soon(TooManyFragments(MAX_FRAGMENTS), CloseCode.MESSAGE_TOO_BIG, "too many fragments")
            return
        fragments.append(frame)
        if frame.fin:
            self._fragments = None
            self._queue(fragments[0].opcode, b"".join(f.data for f in fragments))

    def _queue(self, opcode: Opcode, data: bytes) -> None:
        message: Data = data
        if opcode is Opcode.TEXT:
            try:
                message = data.decode()
            except UnicodeDecodeError as exc:
                self._fail_soon(exc, CloseCode.INVALID_DATA, f"{exc.reason} at position {exc.start}")
                return
        if self._inbox is None:
            self._inbox = []
        self._inbox.append(message)
        self.recv_flow_control = _HandleRead(self)  # type: ignore[assignment]

    def _fail_soon(self, exc: Exception, code: CloseCode, reason: str) -> None:
        self._failure = (exc, code, reason)
        self.recv_flow_control = _HandleRead(self)  # type: ignore[assignment]

    async def _handle_inbox(self) -> None:
        """What waits, before the library reads again: the messages, in order,
        each handled to its end. A failure due, or a handler that raised,
        stops reading (what comes after is dropped) and wakes the handler's
        task (`handle_messages`), which closes the connection as the
        library's `recv` would have: from here, waiting for the client's
        close would wait on this very task."""
        self.recv_flow_control = None
        if self._inbox and self._on_message is None:
            self._handler_given = trio.Event()
            await self._handler_given.wait()
            self._handler_given = None
        while self._inbox and not self._stopped:
            message = self._inbox.pop(0)
            if not self._inbox:
                self._inbox = None
            handle = self._on_message
            assert handle is not None
            try:
                go_on = await handle(self._on_message_of, message)
            except Exception as exc:
                self.handler_exc = exc
                go_on = False
            if not go_on:
                self._stop()
        if self._failure is not None:
            self._stop()

    def _stop(self) -> None:
        self._stopped = True
        self._inbox = self._fragments = None
        self._wake()

    def _wake(self) -> None:
        """The handler's task goes on from `handle_messages`, once."""
        task, self._woken = self._woken, None
        if task is not None:
            trio.lowlevel.reschedule(task)

    def _abort_wait(self, raise_cancel: Any) -> trio.lowlevel.Abort:
        self._woken = None
        return trio.lowlevel.Abort.SUCCEEDED

    async def handle_messages(self, handle: Callable[[Any, Data], Awaitable[bool]], of: Any) -> None:
        """Handle each message read with `handle(of, message)` (after
        `read_directly`) until the stream closes or `handle` returns False
        (what comes after is dropped unread). A failure of the connection
        (too many fragments, a text frame not UTF-8) closes it here with the
        library's code; what `handle` raised is raised here (the library
        then closes the connection with 1011)."""
        self._on_message, self._on_message_of = handle, of
        if self._handler_given is not None:
            self._handler_given.set()
        if not self._stopped and not self.stream_closed.is_set():
            self._woken = trio.lowlevel.current_task()
            await trio.lowlevel.wait_task_rescheduled(self._abort_wait)
        if self.handler_exc is not None:
            raise self.handler_exc
        if self._failure is not None and not self.stream_closed.is_set():
            cause, code, reason = self._failure
            self.set_connection_exc(cause)
            with contextlib.suppress(ConnectionClosed):
                async with self.send_context():
                    self.protocol.fail(code, reason)
        # Stopped by `handle` (an eviction): the transport closes the connection.

    async def close_stream(self) -> None:
        await super().close_stream()
        self._wake()


    async def send_many(self, messages: Sequence[bytes]) -> None:
        """Send each of `messages` as a binary message, in order, in one
        write. Raises ConnectionClosed as `send` does."""
        while self.send_in_progress is not None:  # a fragmented message of the library's own
            await self.send_in_progress.wait()
        if self._left:
            messages, self._left = [*self._left, *messages], None
        protocol = self.protocol
        if protocol.state is not State.OPEN:
            async with self.send_context():  # closing or closed: the library waits and raises ConnectionClosed
                pass  # pragma: no cover - send_context does not enter
        for message in messages:
            protocol.send_binary(message)
        # What the library's `send_context` does around an open connection's
        # send, without its generator-based context manager (a fifth of the
        # writer's own time): write, and on an error fail the connection and
        # raise ConnectionClosed with its cause.
        try:
            await self.send_data()
        except Exception as exc:
            self.set_connection_exc(exc)
            await self.close_stream()
            raise self.close_exc from exc

    async def send_data(self) -> None:
        """The library's `send_data`, with consecutive pending writes joined
        into one `send_all` (the empty write still half-closes the stream).
        A free lock is taken without a trip through the scheduler (the
        write itself still checkpoints)."""
        try:
            self.send_lock.acquire_nowait()
        except trio.WouldBlock:
            await self.send_lock.acquire()
        try:
            await self._write_pending()
        finally:
            self.send_lock.release()

    async def _write_pending(self) -> None:
        run: list[bytes] = []
        for chunk in self.protocol.data_to_send():
            if chunk:
                run.append(chunk)
                continue
            if run:
                await self.write(run[0] if len(run) == 1 else b"".join(run))
                run = []
            if isinstance(self.stream, trio.abc.HalfCloseableStream):
                with contextlib.suppress(Exception):
                    await self.stream.send_eof()
            else:  # pragma: no cover - the server's streams are TCP
                await self.stream.aclose()
        if run:
            await self.write(run[0] if len(run) == 1 else b"".join(run))

    async def write(self, data: bytes) -> None:
        """Write `data` to the socket: straight to the kernel when its buffer
        takes it, which is nearly always (trio's `send_all` spends on its
        checks, its cancel scope and a scheduler checkpoint several times
        what the system call costs); the rest, if the buffer took only part
        of it or none, through `send_all`, which waits until the socket is
        writable. Whatever the kernel refuses otherwise (a reset, a closed
        socket) goes to `send_all` too, which raises it as trio's stream
        errors, as before. The caller holds `send_lock`: no other write can
        come in between."""
        stream = self.stream
        sock = getattr(stream, "socket", None)
        fd = sock.fileno() if sock is not None and not sock.did_shutdown_SHUT_WR else -1
        if fd >= 0:
            try:
                sent = os.write(fd, data)
            except OSError:  # BlockingIOError: the buffer is full; others: send_all says what
                sent = 0
            if sent == len(data):
                return
            if sent:
                data = memoryview(data)[sent:]  # type: ignore[assignment]
        await stream.send_all(data)


def _reads_directly(ws: ServerConnection) -> TypeGuard[BatchConnection]:
    """Whether `ws` hands its messages to the transport from its reading
    task (`BatchConnection.read_directly`), not to `recv`."""
    return isinstance(ws, BatchConnection) and ws.reads_directly


class _NoMessages:
    """Where a connection read directly (`BatchConnection.read_directly`)
    had the library's assembler: nothing is ever put in it, the library
    closes it with the stream, and `recv` finds the stream of messages
    ended (it then waits for the connection to close and raises
    ConnectionClosed)."""

    __slots__ = ()

    def put(self, frame: Frame) -> None:
        raise AssertionError("a connection read directly queues no message for recv")

    async def get(self, decode: bool | None = None) -> Data:
        raise EOFError("this connection's messages go to the transport's handler")

    async def get_iter(self, decode: bool | None = None) -> AsyncIterator[Data]:
        raise EOFError("this connection's messages go to the transport's handler")
        yield b""  # pragma: no cover - makes this an async generator

    def close(self) -> None:
        pass


_NO_MESSAGES = _NoMessages()


class _HandleRead:
    """What a connection read directly puts in the library's
    `recv_flow_control` while messages wait (`BatchConnection.read_directly`):
    the library awaits its `wait()` before reading again."""

    __slots__ = ("ws",)

    def __init__(self, ws: BatchConnection) -> None:
        self.ws = ws

    async def wait(self) -> None:
        await self.ws._handle_inbox()


class _Hooks:
    """One connection's callbacks for its outbox (`Outbox.direct`,
    `start_writer`, `on_evict`), as methods of one small object. Three
    functools.partial objects, each with its tuple of arguments and a bound
    method inside, held about 0.8 KiB per connection (bench/memory.py
    --trace); these are three bound methods and four slots."""

    __slots__ = ("nursery", "outbox", "transport", "ws")

    def __init__(self, transport: Transport, ws: ServerConnection, outbox: Outbox, nursery: trio.Nursery) -> None:
        self.transport = transport
        self.ws = ws
        self.outbox = outbox
        self.nursery = nursery

    def direct(self, batch: list[bytes]) -> bool:
        """The outbox's fast path, set for a BatchConnection only
        (`BatchConnection.send_now`): its frames counted as sent here."""
        self.transport.metrics.frames_out += len(batch)
        return self.ws.send_now(batch)  # type: ignore[attr-defined]

    def start_writer(self) -> None:
        self.nursery.start_soon(self.transport._writer, self.ws, self.outbox)

    def on_evict(self) -> None:
        self.nursery.start_soon(self.transport._evictor, self.ws, self.outbox, self.nursery.cancel_scope)


class Transport:
    def __init__(self, session: Session, metrics: Metrics, limits: Limits = Limits(), *,
                 routes: Routes | None = None, origins: OriginPolicy | None = None,
                 trusted_proxies: Collection[str] | None = None) -> None:
        """`routes`: plain HTTP (None: 426 for everything but /healthz);
        `origins`: the pages that may open a websocket (server/origins.py);
        `trusted_proxies`: reverse proxies whose `X-Forwarded-For` names the
        client (server/addresses.py; None: loopback)."""
        self.session = session
        self.routes = routes
        self.addresses = ClientAddresses(trusted_proxies)
        self.origins = origins if origins is not None else OriginPolicy()
        self._refused_origin = RareWarning(log)
        self.metrics = metrics
        self.limits = limits
        self._outboxes: set[Outbox] = set()  # the open connections' outboxes, for the watchdog
        self._pinged: set[BatchConnection] = set()  # the open connections, for the keepalive

    @property
    def cluster(self) -> ClusterSeam | None:
        """The site this process is one of (set by the cluster node), or None."""
        return self.session.cluster

    @cluster.setter
    def cluster(self, seam: ClusterSeam | None) -> None:
        self.session.cluster = seam

    # -- HTTP on the same port --------------------------------------------------------

    async def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP (PROTOCOL.md 13), and the checks of a websocket
        handshake. Every answer says `nosniff`: a browser takes each body
        for the type it is sent as, and never sniffs JSON into a page."""
        response = await self._http(connection, request)
        if response is None:
            if isinstance(connection, BatchConnection):
                connection.read_directly()  # before the handshake's answer: no message comes sooner
        elif "X-Content-Type-Options" not in response.headers:
            response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return connection.respond(200, "ok\n")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            if self.routes is None:
                return connection.respond(426, "This is the Oriente websocket endpoint "
                                               f"(subprotocol {M.SUBPROTOCOL}); see /healthz.\n")
            address = self.addresses.of(_peer(connection), request.headers.get_all("X-Forwarded-For"))
            return await self.routes.respond(connection, request, address)
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

    # -- one connection -------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        outbox = Outbox(self.limits.outbox, label=_label(ws), max_bytes=self.limits.outbox_bytes)
        request = ws.request
        conn = self.session.connect(
            outbox, address=self.addresses.of(_peer(ws), request.headers.get_all("X-Forwarded-For")
                                              if request is not None else []),
            client=request.headers.get("User-Agent", "") if request is not None else "")
        if isinstance(ws, BatchConnection):
            ws.forget_handshake()
            self._pinged.add(ws)
        request = None
        self.metrics.connections_total += 1
        self.metrics.connections_open += 1
        try:
            async with trio.open_nursery() as nursery:
                # The writer and the evictor run only when needed: a task
                # waiting on every idle connection cost its memory for nothing.
                hooks = _Hooks(self, ws, outbox, nursery)
                if isinstance(ws, BatchConnection):
                    outbox.direct = hooks.direct
                outbox.start_writer = hooks.start_writer
                self.track(outbox)
                outbox.on_evict = hooks.on_evict
                outbox.put(encode(self.session.welcome()))
                try:
                    if _reads_directly(ws):
                        await ws.handle_messages(self._read_one, conn)
                    else:
                        await self._reader(ws, conn)
                    if outbox.evicted is not None:
                        # The evictor sends what is still owed (the errors, a
                        # goodbye), closes with the code the reason calls for,
                        # and cancels this nursery: cancelling now would cut
                        # those frames off and let the library close with 1000.
                        await trio.sleep_forever()
                finally:
                    # Nothing starts in a nursery on its way out: frames put
                    # from now on stay queued, unsent, with the outbox.
                    outbox.on_evict = outbox.start_writer = None
                    nursery.cancel_scope.cancel()
        finally:
            if isinstance(ws, BatchConnection):
                self._pinged.discard(ws)
            self.metrics.connections_open -= 1
            outbox.evict("client/gone")
            # Evicted, the outbox sends nothing more; its hooks held it (a
            # cycle that only the collector would free).
            outbox.direct = None
            self.untrack(outbox)
            await self.session.closed(conn)

    async def _writer(self, ws: ServerConnection, outbox: Outbox) -> None:
        """Send what is queued, and what `send_now` could not write, then end
        (the outbox starts a writer again when a send cannot be done at
        once): every frame queued by the time one is taken goes out with
        it, in one write (`BatchConnection`; up to BATCH_BYTES). The
        watchdog evicts the client if one send stays in progress longer
        than `send_timeout` (the client stopped reading); marking the start
        of a send costs far less per frame than arming a cancel-scope
        deadline around each one."""
        many = ws.send_many if isinstance(ws, BatchConnection) else None
        try:
            # Maybe []: what `send_now` left is in the connection (`send_many` writes it).
            batch = outbox.take_nowait(BATCH_BYTES)
            while True:
                outbox.sending_since = trio.current_time()
                try:
                    if many is None:
                        for one in batch:
                            await ws.send(one)
                    else:
                        await many(batch)
                except ConnectionClosed:
                    outbox.evict("client/gone")
                    return
                outbox.sending_since = None
                self.metrics.frames_out += len(batch)
                batch = outbox.take_nowait(BATCH_BYTES)
                if not batch:
                    return
        finally:
            done, outbox.writing = outbox.writing, None
            if done is not None:
                done.set()

    @staticmethod
    async def _drained(outbox: Outbox) -> None:
        """Until the connection's writer, if one is running, has sent all it
        holds (the outbox is evicted: nothing more is queued)."""
        if outbox.writing is not None:
            await outbox.writing.wait()

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

    async def keepalive(self) -> None:
        """One task for every connection's keepalive (run it beside the
        server): each tick, start a ping on every open connection whose
        ping is due (`BatchConnection.ping_once`), in that connection's own
        nursery, where the library would have kept a task asleep."""
        while True:
            await trio.sleep(KEEPALIVE_TICK)
            now = trio.current_time()
            for ws in [w for w in self._pinged if w.next_ping <= now]:
                ws.next_ping = math.inf
                ws.nursery.start_soon(ws.ping_once)

    async def _evictor(self, ws: ServerConnection, outbox: Outbox, scope: trio.CancelScope) -> None:
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
                # (A connection read directly drops them itself: `handle_messages`.)
                if reason == "abuse/closed" and not _reads_directly(ws):
                    closing.start_soon(self._discard, ws)
                if reason == "client/too_slow":
                    self.metrics.evictions += 1
                    await ws.aclose(CLOSE_TOO_SLOW, "too slow: reconnect and resume from your last seq")
                elif reason == "server/moved":
                    await self._drained(outbox)
                    await ws.aclose(CLOSE_MOVED, "this table moved: reconnect and resume")
                elif reason == "abuse/closed":
                    await self._drained(outbox)
                    await ws.aclose(CLOSE_ABUSE, "too many refused frames")
                closing.cancel_scope.cancel()
        scope.cancel()

    @staticmethod
    async def _discard(ws: ServerConnection) -> None:
        """Read and drop what a closing connection still receives."""
        with contextlib.suppress(ConnectionClosed, ConcurrencyError):
            async for _ in ws:
                pass

    async def _read_one(self, conn: Conn, frame: Data) -> bool:
        """Answer one frame read directly (`BatchConnection.handle_messages`);
        False once the client is evicted: nothing more is read from it."""
        self.metrics.frames_in += 1
        await self.session.frame(conn, frame)
        return conn.outbox.evicted is None

    async def _reader(self, ws: ServerConnection, conn: Conn) -> None:
        """Read and answer frames until the client goes or is evicted. Every
        frame read is answered (an error at worst) before the next is read;
        nothing is read after an eviction, so nothing read goes unanswered."""
        try:
            async for frame in ws:
                self.metrics.frames_in += 1
                await self.session.frame(conn, frame)
                if conn.outbox.evicted is not None:
                    return
        except ConnectionClosed:
            return
