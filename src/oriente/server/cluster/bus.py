"""The message bus between the processes of a site: Redis pub/sub.

Why Redis, and why in threads: Redis pub/sub is enough for what the site
sends over it (frames to the process holding a connection, commands to the
process owning a table; the log in PostgreSQL stays the truth, so a message
the bus loses is recovered by a resume, never by the bus). Its maintained
Python client, redis-py, has a synchronous client and an asyncio one; the
asyncio one is built on asyncio's streams and locks and does not run under
trio, and the NATS client (nats-py) is asyncio-only as well. So, as the
stores run their drivers, the synchronous client runs in worker threads:

- **publishing**: one task takes every message queued so far and sends
  them in one pipeline, in one thread hop (about 90 us) and one round trip,
  however many there are; under load the batches grow by themselves, as in
  the stores' writer. Order is kept: one connection, one sender.
- **receiving**: one thread blocks on the subscription's socket and hands
  whatever arrived to trio with `TrioToken.run_sync_soon`, which never
  blocks that thread; a message costs no hop on trio's side.

A process subscribes to one channel of its own (``PREFIX.node.NAME``) and
the site's (``PREFIX.site``). Messages are bytes (msgpack, see `node`),
sealed with the site's key on the way out and opened on the way in
(`seal`): what Redis and anyone on its network see is ciphertext, and a
message that is not the site's own is dropped and counted, never handled.

The URL is redis-py's: ``redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`` for
a password (``requirepass``) or an ACL user, ``rediss://`` for TLS (with
``?ssl_ca_certs=PATH`` for a private CA, ``ssl_certfile``/``ssl_keyfile``
for a client certificate), ``unix://PATH`` for a socket (docs/deploy.md).
Its password is never printed.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import trio

from .seal import Sealer

log = logging.getLogger("oriente.cluster.bus")

__all__ = ["Bus", "BusError", "redact"]


def redact(url: str) -> str:
    """The bus URL without its password, for messages and logs."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        user = parts.username or ""
        netloc = f"{user}:***@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "the bus"


class BusError(Exception):
    """The bus could not be reached: the process cannot join the site."""


class Bus:
    """A connection to Redis for one process: `publish` from trio, and a
    handler called on trio's thread for each message of its channels. Run
    with ``await nursery.start(bus.run)``."""

    def __init__(self, url: str, channels: list[str], handler: Callable[[str, bytes], None],
                 sealer: Sealer | None = None) -> None:
        """`sealer`: the site's (set before `run`; the bus carries nothing
        unsealed)."""
        self.url = url
        self.channels = list(channels)
        self._handler = handler
        self.sealer = sealer
        self._send, self._receive = trio.open_memory_channel[tuple[str, bytes]](math.inf)
        self._stop = threading.Event()
        self.published = 0
        self.received = 0
        self.batches = 0

    def publish(self, channel: str, body: bytes) -> None:
        """Queue a message, sealed; never blocks (the sender task batches them)."""
        assert self.sealer is not None, "the bus seals every message: give it the site's sealer first"
        self._send.send_nowait((channel, self.sealer.seal(channel, body)))

    @property
    def dropped(self) -> dict[str, int]:
        """Messages received and dropped, by reason (seal.Sealer)."""
        return dict(self.sealer.dropped) if self.sealer is not None else {}

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        import redis

        if self.sealer is None:
            raise BusError("the bus needs the site's key (a Sealer) before it runs")
        try:
            client = redis.Redis.from_url(self.url, socket_connect_timeout=5)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await trio.to_thread.run_sync(pubsub.subscribe, *self.channels)
            # The subscription is confirmed once its reply is read: wait for
            # it, so that nothing published after `started` is missed.
            await trio.to_thread.run_sync(pubsub.get_message, False, 5.0)
        except redis.RedisError as exc:
            raise BusError(f"cannot reach the bus at {redact(self.url)}: {exc}") from None
        token = trio.lowlevel.current_trio_token()
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._sender, client)
                nursery.start_soon(self._listen, pubsub, token)
                task_status.started()
        finally:
            self._stop.set()
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(_close_quietly, pubsub, client)

    async def _sender(self, client: Any) -> None:
        import redis

        while True:
            batch = [await self._receive.receive()]
            while True:
                try:
                    batch.append(self._receive.receive_nowait())
                except trio.WouldBlock:
                    break

            def send(batch: list[tuple[str, bytes]] = batch) -> None:
                pipe = client.pipeline(transaction=False)
                for channel, body in batch:
                    pipe.publish(channel, body)
                pipe.execute()

            try:
                await trio.to_thread.run_sync(send)
            except redis.RedisError:
                # The log is the truth: a lost message is healed by a resume.
                log.warning("the bus dropped %d messages", len(batch), exc_info=True)
                continue
            self.published += len(batch)
            self.batches += 1

    async def _listen(self, pubsub: Any, token: trio.lowlevel.TrioToken) -> None:
        sealer = self.sealer
        assert sealer is not None

        def deliver(messages: list[tuple[str, bytes]]) -> None:
            for channel, sealed in messages:
                self.received += 1
                body = sealer.open(channel, bytes(sealed))
                if body is None:
                    total = sum(sealer.dropped.values())
                    if total & (total - 1) == 0:  # the 1st, 2nd, 4th, 8th...: seen, never a flood of lines
                        log.warning("dropped a bus message on %s that is not the site's own (%s so far: %s)",
                                    channel, total, dict(sealer.dropped))
                    continue
                try:
                    self._handler(channel, body)
                except Exception:
                    log.exception("a bus message on %s could not be handled", channel)

        def listen() -> None:
            while not self._stop.is_set():
                try:
                    message = pubsub.get_message(timeout=0.5)
                except Exception:
                    if self._stop.is_set():
                        return
                    log.warning("the bus connection failed; resubscribing", exc_info=True)
                    self._stop.wait(0.5)
                    continue
                batch: list[tuple[str, bytes]] = []
                while message is not None:
                    if message.get("type") == "message":
                        channel = message["channel"]
                        batch.append((channel.decode() if isinstance(channel, bytes) else channel,
                                      message["data"]))
                    message = pubsub.get_message(timeout=0)
                if batch:
                    try:
                        token.run_sync_soon(deliver, batch)
                    except trio.RunFinishedError:
                        return

        await trio.to_thread.run_sync(listen, abandon_on_cancel=True)


def _close_quietly(pubsub: Any, client: Any) -> None:
    for thing in (pubsub, client):
        with contextlib.suppress(Exception):  # closing a broken connection may fail: nothing to do
            thing.close()
