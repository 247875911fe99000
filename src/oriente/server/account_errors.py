"""The refusals of the accounts service (docs/accounts.md), apart from it so
that the pieces it is made of can raise them too."""

from __future__ import annotations

from ..refusal import Refusal

__all__ = ["AccountError"]


class AccountError(Refusal):
    """A refusal with a stable code (PROTOCOL.md 14) and a sentence; a
    refusal that passes with time says after how many seconds
    (`retry_after`, sent to the client as the error frame's field)."""
