"""Chat at a table: what a message may be, and how often a seat may send
one (docs/table.md T5.1, T5.4). Talk is bounded, play is not."""

from __future__ import annotations

import math

from .inbox import Refused

MAX_CHAT = 500
# Chat per seat: a burst of CHAT_BURST messages, then one every CHAT_EVERY_S seconds (T5.4).
CHAT_BURST = 5
CHAT_EVERY_S = 2.0


def chat_text(text: str) -> str:
    """The message as it is said (trimmed); a refusal (`Refused`) if it is empty or too long."""
    said = text.strip()
    if not said or len(said) > MAX_CHAT:
        raise Refused("chat/invalid", f"a chat message has 1 to {MAX_CHAT} characters")
    return said


class ChatRate:
    """A token bucket per seat: CHAT_BURST messages in a row, then one
    every CHAT_EVERY_S seconds."""

    def __init__(self, seats: int) -> None:
        self._tokens = [float(CHAT_BURST)] * seats
        self._at = [-math.inf] * seats

    def take(self, seat: int, now: float) -> None:
        """One message from `seat` at `now` (trio time); a refusal (`Refused`) saying how
        long to wait when it has chatted too much."""
        tokens = min(float(CHAT_BURST), self._tokens[seat] + (now - self._at[seat]) / CHAT_EVERY_S)
        if tokens < 1:
            raise Refused("chat/rate_limited", f"a seat chats at most {CHAT_BURST} times in a row, then once every "
                          f"{CHAT_EVERY_S:g} s: wait {CHAT_EVERY_S * (1 - tokens):.1f} s")
        self._tokens[seat], self._at[seat] = tokens - 1, now
