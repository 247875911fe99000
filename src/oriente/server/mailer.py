"""Mail out through an SMTP server (`oriente serve --smtp URL`;
docs/accounts.md, "E-mail").

The sending is Python's own smtplib, run in a worker thread, one message
at a time: it is the standard library's, kept with the language, and it
speaks plain SMTP, STARTTLS and SMTP over TLS with login. (aiosmtplib, the
asynchronous alternative, is written on asyncio's streams and does not run
under trio; a thread costs nothing at the rate a server mails.)

The URL says how: ``smtp://[USER:PASSWORD@]HOST[:PORT]`` (plain, for a
relay on the same machine; port 25), ``smtp+starttls://...`` (STARTTLS,
port 587) or ``smtps://...`` (TLS from the start, port 465); the query
``?from=ADDRESS`` sets the sender (default ``oriente@HOST``).
"""

from __future__ import annotations

import secrets
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate
from typing import Final
from urllib.parse import parse_qs, unquote, urlsplit

import trio

__all__ = ["MailError", "Mailer", "SmtpConfig", "compose", "parse_smtp_url"]

SCHEMES: Final = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
# How long one conversation with the SMTP server may take.
SMTP_TIMEOUT_S: Final = 30.0


class MailError(Exception):
    """The SMTP server could not be reached or refused the message."""


@dataclass(frozen=True, slots=True)
class SmtpConfig:
    """Where and how to hand mail over (see the module docstring)."""

    host: str
    port: int
    security: str  # "plain", "starttls" or "tls"
    username: str
    password: str
    sender: str


def parse_smtp_url(url: str) -> SmtpConfig:
    """An --smtp URL, checked (ValueError with a sentence if it is not one)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise ValueError(f"an SMTP URL begins with {', '.join(s + '://' for s in SCHEMES)}, not {url!r}")
    security, default_port = SCHEMES[parts.scheme]
    if not parts.hostname:
        raise ValueError(f"the SMTP URL {url!r} names no host")
    try:
        port = parts.port or default_port
    except ValueError:
        raise ValueError(f"the SMTP URL {url!r} has a bad port") from None
    query = parse_qs(parts.query)
    sender = query.get("from", [f"oriente@{parts.hostname}"])[-1]
    if "@" not in sender or any(c in sender for c in "\r\n"):
        raise ValueError(f"the SMTP URL's sender {sender!r} is not an address")
    return SmtpConfig(parts.hostname, port, security, unquote(parts.username or ""),
                      unquote(parts.password or ""), sender)


def compose(config: SmtpConfig, to: str, subject: str, text: str, *,
            unsubscribe: str | None = None) -> EmailMessage:
    """A plain-text message from the server's sender; `unsubscribe` is the
    link that turns these mails off (RFC 2369's List-Unsubscribe)."""
    message = EmailMessage()
    message["From"] = config.sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    # Drawn from `secrets`, not email.utils.make_msgid's `random`, whose sequence others may have seeded.
    message["Message-ID"] = f"<{secrets.token_hex(16)}@{config.sender.rpartition('@')[2]}>"
    message["Auto-Submitted"] = "auto-generated"
    if unsubscribe is not None:
        message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message.set_content(text)
    return message


class Mailer:
    """Sends messages through one SMTP server, one at a time."""

    def __init__(self, config: SmtpConfig) -> None:
        self.config = config
        self._one = trio.CapacityLimiter(1)
        self.sent = 0

    async def send(self, message: EmailMessage) -> None:
        """Hand `message` to the SMTP server; MailError if it cannot."""
        try:
            await trio.to_thread.run_sync(self._send, message, limiter=self._one)
        except (OSError, smtplib.SMTPException) as exc:
            raise MailError(f"the SMTP server {self.config.host}:{self.config.port} did not take the mail: "
                            f"{exc}") from exc
        self.sent += 1

    def _send(self, message: EmailMessage) -> None:
        c = self.config
        smtp: smtplib.SMTP
        if c.security == "tls":
            smtp = smtplib.SMTP_SSL(c.host, c.port, timeout=SMTP_TIMEOUT_S, context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(c.host, c.port, timeout=SMTP_TIMEOUT_S)
        with smtp:
            if c.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if c.username:
                smtp.login(c.username, c.password)
            smtp.send_message(message)
