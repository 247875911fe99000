""""It's your turn", by e-mail (docs/accounts.md, "E-mail").

The index of seats by account (the store's `account_seats`, which every
table keeps up to date as its awaited seats change) is the truth: a
sleeping table that is not in memory is mailed about as a running one is,
and a restarted server mails what is due without remembering anything.
Every `tick` the notifier asks the store which accounts are due a mail
(`Store.mail_due`): a confirmed address that takes mail, a turn-based table
that has awaited the account for `grace` seconds or more (a decision made
at once mails nothing), since after the last mail, and no mail within the
last `every` seconds. Each gets one mail naming every table that awaits it,
with a link to each and the link that turns the mail off.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final

import trio

from .mailer import Mailer, MailError, compose
from .stores import SeatRow, Store, StoreError

__all__ = ["Notifier", "NotifyPolicy"]

log = logging.getLogger("oriente.notify")

# Accounts mailed per tick at most (the rest wait for the next).
BATCH: Final = 50


class NotifyPolicy:
    """How often: at most one mail per account per `every` seconds; a wait
    younger than `grace` seconds is not mailed yet; the store is asked every
    `tick` seconds."""

    def __init__(self, every: float = 3600.0, grace: float = 300.0, tick: float = 30.0) -> None:
        self.every = every
        self.grace = grace
        self.tick = tick


def _when(at: float | None) -> str:
    """What waits and until when: a wait with no deadline of its own is an
    offer made to the seat (docs/table.md T8.8)."""
    if at is None:
        return "an offer awaits your answer"
    return "until " + datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


class Notifier:
    """Mails accounts that turn-based tables await (see the module docstring)."""

    def __init__(self, store: Store, mailer: Mailer, site: str, policy: NotifyPolicy | None = None, *,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.mailer = mailer
        self.site = site.rstrip("/")
        self.policy = policy or NotifyPolicy()
        self.wall = wall

    async def run(self) -> None:
        """Mail what is due, every tick, until cancelled."""
        while True:
            try:
                await self.once()
            except StoreError as exc:
                log.warning("the mails due could not be read: %s", exc)
            await trio.sleep(self.policy.tick)

    async def once(self) -> int:
        """Mail every account due a mail now; how many were mailed."""
        now = self.wall()
        p = self.policy
        sent = 0
        for account_id in await self.store.mail_due(now, p.every, p.grace, BATCH):
            email = await self.store.email(account_id)
            account = await self.store.account(account_id)
            waiting = [s for s in await self.store.account_seats(account_id, 100)
                       if s.awaits and s.turn_based and not s.ended]
            if email is None or account is None or not waiting:
                continue
            message = compose(self.mailer.config, email.address, self._subject(waiting),
                              self._text(account.name, waiting, email.unsubscribe_token),
                              unsubscribe=self._unsubscribe(email.unsubscribe_token))
            try:
                await self.mailer.send(message)
            except MailError as exc:
                log.warning("no mail to account %s: %s", account_id, exc)
                continue
            await self.store.mailed(account_id, now)
            sent += 1
        return sent

    def _unsubscribe(self, token: str) -> str:
        return f"{self.site}/email/unsubscribe?token={token}"

    @staticmethod
    def _subject(waiting: list[SeatRow]) -> str:
        if len(waiting) == 1:
            return "Oriente: it's your turn"
        return f"Oriente: it's your turn at {len(waiting)} tables"

    def _text(self, name: str, waiting: list[SeatRow], unsubscribe: str) -> str:
        lines = [f"Hello {name},", "", "these tables await you:", ""]
        for s in waiting:
            lines.append(f"  {self.site}/#/t/{s.table_id}   ({_when(s.until)})")
        lines += ["", "Open a link to play: you sit down again when you sign in.", "",
                  f"No more of these mails: {self._unsubscribe(unsubscribe)}"]
        return "\n".join(lines) + "\n"
