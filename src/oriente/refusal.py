"""One shape for every refusal: a stable code and a sentence.

A frame the server cannot read, a request it will not do, a command the
rules refuse: each is raised as a `Refusal`, or as a class of its own
derived from it (the lobby's, the accounts', a game's rules'...), and
whoever answers a client answers all of them the same way: an error
carrying the code and the message (PROTOCOL.md 14). Codes are namespaced
(`table/full`, `decision/closed`) and never change meaning once published:
bots switch on them.

It imports nothing, so that the protocol, every game's pure rules, the
server and the clients may all raise and catch it.
"""

from __future__ import annotations

__all__ = ["Refusal"]


class Refusal(Exception):
    """Refused, with a stable `code` and a `message` the sender can act on.
    `retry_after`: for a refusal that passes with time, the seconds to wait
    before asking again (sent as the error's field); else None."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
