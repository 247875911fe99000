"""The refusals of the accounts service (docs/accounts.md), apart from it so
that the pieces it is made of can raise them too."""

from __future__ import annotations

__all__ = ["AccountError"]


class AccountError(Exception):
    """A refusal with a stable code (PROTOCOL.md 14) and a sentence; a
    refusal that passes with time says after how many seconds
    (`retry_after`, sent to the client as the error frame's field)."""

    def __init__(self, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.retry_after = retry_after
