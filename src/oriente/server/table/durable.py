"""A table's writes to its store, and the pause a refused one makes
(docs/table.md T4.4).

When the store refuses a write (a full disk, a read-only file, a database
that went away), the table keeps the step it was writing, sends nothing of
it, and retries after STORE_RETRY_MIN_S, doubling the wait up to
STORE_RETRY_MAX_S. Meanwhile it reads its inbox here: every request is
answered `store/unavailable`, a connection's end is noted in memory, the
server's own messages (a reservation, a start) wait until the store takes
writes again (`deferred`), and Stop is obeyed (`Stopped`). A store that
fenced the table (another process of the site owns it now) is not retried.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from ...protocol import messages as M
from ..outbox import Outbox
from ..stores import StoreError, StoreFenced
from .inbox import Disconnected, Stop

log = logging.getLogger("oriente.table")

STORE_RETRY_MIN_S = 0.5
STORE_RETRY_MAX_S = 10.0
STORE_PAUSED_MESSAGE = ("the server cannot save this table's moves right now; the table is paused and "
                        "resumes by itself once it can: send again in a few seconds")


class Stopped(Exception):
    """Stop arrived while the table waited for its store."""


class Durable:
    """The store writes of table `table_id`, whose inbox is `inbox`. While
    paused it tells the table of a connection's end with `gone`, and answers
    a request with `reply`."""

    def __init__(self, table_id: str, inbox: trio.MemoryReceiveChannel[Any], *,
                 gone: Callable[[Outbox], None], reply: Callable[[Outbox, dict[str, Any]], None],
                 flush: Callable[[], None] = lambda: None) -> None:
        self.table_id = table_id
        self.inbox = inbox
        self.gone = gone
        self.reply = reply
        self.flush = flush  # sends the frames the table has put so far, before it waits on the store
        self.paused = False  # the store refuses this table's writes; it retries
        self.deferred: list[Any] = []  # the server's messages that arrived while paused, in order

    async def write(self, write: Callable[[], Awaitable[None]]) -> None:
        """Do one store write, and if the store refuses it, pause the table
        until it takes it. The step being written has already changed the
        game's state, so it must be written before anything else happens at
        the table; nothing was sent of it yet. StoreFenced passes through:
        that ends the table as an error does."""
        delay = STORE_RETRY_MIN_S
        self.flush()
        while True:
            try:
                await write()
            except StoreFenced:
                raise
            except StoreError as exc:
                if not self.paused:
                    log.error("table %s paused: the store refused a write (%s); retrying", self.table_id, exc)
                    self.paused = True
                await self._wait(delay)
                delay = min(delay * 2, STORE_RETRY_MAX_S)
                continue
            if self.paused:
                log.warning("table %s resumed: the store takes its writes again", self.table_id)
                self.paused = False
            return

    async def _wait(self, seconds: float) -> None:
        """For `seconds`, answer what arrives without writing anything."""
        with trio.move_on_after(seconds):
            while True:
                outbox, msg = await self.inbox.receive()
                if isinstance(msg, Stop):
                    raise Stopped
                if isinstance(msg, Disconnected):
                    self.gone(msg.outbox)
                elif outbox is not None:
                    self.reply(outbox, M.error(getattr(msg, "id", None), "store/unavailable", STORE_PAUSED_MESSAGE))
                else:  # the server's own message (a reservation, a start): nobody would send it again
                    self.deferred.append(msg)
                self.flush()
