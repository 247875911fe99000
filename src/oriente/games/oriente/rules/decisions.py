"""Decisions as data (R10): what the engine is waiting for, from whom, and
what silence means.

The engine says *what* is open; the table actor says *when* it closes. A
deadline belongs to the pair (decision id, pivot): a round keeps its id while
its pivot moves on, and each new pivot gets a fresh deadline (R10.2). The
kinds of decision (a prompt R10.1, a round R10.2, a negotiation window
R10.2b) and the timer names are the table's, shared by every game
(`...kit.decisions`).
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ...kit.decisions import DecisionKind, Timer

__all__ = ["RULE", "SILENCE", "Decision", "DecisionKind", "Timer", "Topic"]


class Topic(str, Enum):
    """What the decision is about; clients render prompts from it."""

    ANNOUNCE = "announce"  # R3.2
    PRIVILEGE = "privilege"  # R10.2a
    NEGOTIATION = "negotiation"  # R10.2b
    SUPPORT = "support"  # R10.2c
    REVOLUTION = "revolution"  # R10.2c
    TRADE = "trade"  # R5.6
    TRANSFORMATION = "transformation"  # R5.3
    REINFORCEMENT = "reinforcement"  # R6.7


SILENCE = {
    Topic.ANNOUNCE: "pass",
    Topic.PRIVILEGE: "pass",
    Topic.NEGOTIATION: "the window closes and the support round begins",
    Topic.SUPPORT: "pass",
    Topic.REVOLUTION: "pass",
    Topic.TRADE: "give the lowest-value card (a non-treasure first, then the oldest)",
    Topic.TRANSFORMATION: "keep a card picked at random",
    Topic.REINFORCEMENT: "take the first card turned",
}

RULE = {
    Topic.ANNOUNCE: "R3.2",
    Topic.PRIVILEGE: "R10.2a",
    Topic.NEGOTIATION: "R10.2b",
    Topic.SUPPORT: "R10.2c",
    Topic.REVOLUTION: "R10.2c",
    Topic.TRADE: "R5.6",
    Topic.TRANSFORMATION: "R5.3",
    Topic.REINFORCEMENT: "R6.7",
}


class Decision(NamedTuple):
    """One open decision.

    `asked` lists the seats in the rule's order; `pivot` is the seat waited on
    (None for a window, which waits on the clock alone); `early` lists the
    seats that may hand in a sealed answer now (R10.2). `timer` names the
    table setting that gives the pivot's deadline. A NamedTuple, not a frozen
    dataclass: `pending()` builds one per command and this is 4x cheaper.
    """

    id: int
    kind: DecisionKind
    topic: Topic
    asked: tuple[int, ...]
    pivot: int | None
    early: tuple[int, ...]
    timer: Timer

    @property
    def rule(self) -> str:
        return RULE[self.topic]

    @property
    def silence(self) -> str:
        return SILENCE[self.topic]

    @property
    def key(self) -> tuple[int, int | None]:
        """What a deadline is armed for: a new key needs a new deadline."""
        return (self.id, self.pivot)
