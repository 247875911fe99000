"""People's e-mail addresses: given, confirmed by a link, turned off by a
link (docs/accounts.md, "E-mail"; PROTOCOL.md 19, set_email).

An address is mailed only once its owner has opened the confirmation link
sent to it: the link carries a fresh 256-bit token, the store keeps its
SHA-256 only, and the token works once. A confirmation is sent at most
once every `RESEND_AFTER_S` per account, so that nobody can make the
server mail an address over and over. Every mail carries an unsubscribe
link; it turns the mail off, and giving the address again (a new
confirmation) turns it back on.
"""

from __future__ import annotations

import math
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, Final

from .account_errors import AccountError
from .accounts import token_hash
from .mailer import Mailer, MailError, compose
from .stores import AccountRow, EmailRow, Store

__all__ = ["MAX_ADDRESS", "RESEND_AFTER_S", "Emails", "email_plain"]

MAX_ADDRESS: Final = 254  # RFC 5321's longest path
# One confirmation mail per account in this many seconds (account/email_limited).
RESEND_AFTER_S: Final = 600.0
# A plain address: one @, no spaces or angle brackets, a dot in the domain.
_LABEL: Final = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
_ADDRESS: Final = re.compile(r"[^@\s<>()\[\],;:\"\\]+@" + _LABEL + r"(?:\." + _LABEL + r")+")


def email_plain(row: EmailRow | None) -> dict[str, Any] | None:
    """What its owner is told of an address (never a token)."""
    if row is None:
        return None
    return {"address": row.address, "confirmed": row.confirmed_at is not None, "notify": row.notify}


class Emails:
    """Addresses of people, and the links that confirm and unsubscribe them.
    `site` is the origin the links point at (https://play.example.org), or
    a function that says it once the server listens."""

    def __init__(self, store: Store, mailer: Mailer | None, site: str | Callable[[], str], *,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.mailer = mailer
        self._site = site
        self.wall = wall

    @property
    def site(self) -> str:
        return (self._site if isinstance(self._site, str) else self._site()).rstrip("/")

    async def status(self, account: AccountRow) -> dict[str, Any] | None:
        """The account's address as its owner sees it (None: none given)."""
        return email_plain(await self.store.email(account.id))

    async def set(self, account: AccountRow, address: str) -> dict[str, Any] | None:
        """Give (or, with "", remove) the person's address; a new address is
        sent a confirmation link and is mailed nothing else until it is
        opened."""
        if account.kind != "person":
            raise AccountError("account/not_a_person", "only a person signed in with a password gives an address")
        address = address.strip()
        if not address:
            await self.store.save_email(None, account.id)
            return None
        if len(address) > MAX_ADDRESS or not _ADDRESS.fullmatch(address):
            raise AccountError("account/bad_email", f"that is not an e-mail address (name@example.org, at most "
                                                    f"{MAX_ADDRESS} characters)")
        if self.mailer is None:
            raise AccountError("account/no_mail", "this server sends no e-mail (it was started without --smtp)")
        now = self.wall()
        old = await self.store.email(account.id)
        if old is not None and now - old.requested_at < RESEND_AFTER_S:
            wait = math.ceil(old.requested_at + RESEND_AFTER_S - now)
            raise AccountError("account/email_limited", f"a confirmation was sent less than "
                                                        f"{RESEND_AFTER_S / 60:g} minutes ago; try again in {wait} s",
                               retry_after=wait)
        token = secrets.token_hex(32)  # 256 bits
        unsubscribe = old.unsubscribe_token if old is not None else secrets.token_hex(32)
        row = EmailRow(account.id, address, token_hash(token), unsubscribe, now, None, True,
                       old.mailed_at if old is not None else None)
        await self.store.save_email(row, account.id)
        message = compose(self.mailer.config, address, "Confirm your e-mail address for Oriente",
                          f"Hello {account.name},\n\n"
                          f"to be told by e-mail when a turn-based table awaits you, open this link:\n\n"
                          f"  {self.site}/email/confirm?token={token}\n\n"
                          f"If you did not ask for this, ignore this mail: nothing will be sent to you.\n")
        try:
            await self.mailer.send(message)
        except MailError as exc:
            raise AccountError("account/mail_failed", f"the confirmation could not be sent ({exc}); "
                                                      "try again later") from exc
        return email_plain(row)

    async def confirm(self, token: str) -> EmailRow | None:
        """Open a confirmation link: the address it confirmed, or None (an
        unknown or used token)."""
        if not 0 < len(token) <= 128:
            return None
        row = await self.store.email_by_token(token_hash(token))
        if row is None or row.confirm_hash != token_hash(token):
            return None
        done = EmailRow(row.account_id, row.address, "", row.unsubscribe_token, row.requested_at, self.wall(),
                        True, row.mailed_at)
        await self.store.save_email(done, row.account_id)
        return done

    async def unsubscribe(self, token: str) -> EmailRow | None:
        """Open an unsubscribe link: the address no longer mailed, or None."""
        if not 0 < len(token) <= 128:
            return None
        row = await self.store.email_by_token(token)
        if row is None or row.unsubscribe_token != token:
            return None
        off = EmailRow(row.account_id, row.address, row.confirm_hash, row.unsubscribe_token, row.requested_at,
                       row.confirmed_at, False, row.mailed_at)
        await self.store.save_email(off, row.account_id)
        return off
