"""Being told that a game awaits you, in the terminal: the bell when a
decision awaits one of your seats (the page's "Sound" and "Notify me",
docs/web.md), and the account's e-mail address for the turn-based
tables' mails (PROTOCOL.md 3, set_email; docs/accounts.md, "E-mail"), in
the words the lobby's `email` and `bell` say them."""

from __future__ import annotations

from typing import Any

__all__ = ["awaits_me", "bell_text", "email_text"]


def awaits_me(prompt: dict[str, Any] | None, you: int | str | None) -> Any:
    """The open decision's key when it awaits seat `you` (its pivot, with an
    answer of its own to give), else None: the bell rings once per key."""
    if not prompt or not isinstance(you, int) or prompt.get("pivot") != you:
        return None
    if not any(isinstance(c, dict) and c.get("decision") == prompt.get("id") for c in prompt.get("legal") or []):
        return None
    return (prompt.get("id"), you)


def bell_text(on: bool) -> str:
    if on:
        return "Bell on: the terminal rings when a decision awaits you (bell off stops it)."
    return "Bell off (bell on: the terminal rings when a decision awaits you)."


def email_text(email: dict[str, Any] | None) -> str:
    """How the account's address stands, and what to type next."""
    if not email:
        return ("No e-mail address. email ADDRESS: to be mailed when a turn-based table awaits you "
                "(a link to confirm it is mailed first).")
    address = email.get("address", "")
    if not email.get("confirmed"):
        return (f"E-mail {address}: not confirmed yet. Open the link mailed to it; email {address} mails "
                "it again, email off removes it.")
    if not email.get("notify"):
        return (f"E-mail {address}: confirmed, but its mails were turned off by their link. email {address} "
                "turns them on again (a new confirmation).")
    return (f"E-mail {address}: confirmed. You are mailed when a turn-based table awaits you, at most once "
            "an hour; email off stops it.")
